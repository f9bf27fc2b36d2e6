package claim

import "testing"

// Statements that were read as changes they do not make (issue 26): a
// file named as where something is, an offer (whatever its clause says),
// a use imagined, a name after where it comes from, a setting's name
// beside a product, a maker beside its product (even with "now"), a change
// restated, a tool that installs another, a failure said with "again", a
// flow of data. The texts are made up.
func TestNoChangeMade(t *testing.T) {
	for _, tc := range []struct{ name, older, newer string }{
		{"a file named as where something is",
			"Run `python tasks.py render` first.",
			"The `render` task is not defined in tasks.py. The port is set twice in settings.toml."},
		{"an alternative offered",
			"The nightly export runs on Kelbo.",
			"Alternatively, if you prefer, the nightly export could run on Quillet instead."},
		{"a change the speaker can make",
			"The client signs requests with Bearer auth.",
			"That looks like an API key. I can modify the client to use Basic auth instead of Bearer auth."},
		{"a change we could make",
			"The unit tests run with jest.",
			"We could switch the unit tests from jest to vitest."},
		{"a use imagined",
			"The service signs in with JWT.",
			"We sign in with JWT now, no SAML needed. When you would adopt SAML: portals for outside teams."},
		{"a name after where it comes from",
			"The client signs in with PASETO.",
			"Builds now: the token from the vault → PASETO. No OAuth step."},
		{"a setting's name beside a product",
			"The nightly uploads are signed with `ZEPH_TOKEN`.",
			"Uploads: Pendrel from now on. Uploads: `ZEPH_TOKEN` must stay in the profile."},
		{"a maker and its product",
			"Replies are drafted with Ombrel.",
			"Remove the spare speech job; the spoken replies go through Ombrel Speech too."},
		{"a change restated",
			"In June the quote cache went from Mossdb to Brindle, after Mossdb kept losing keys under load.",
			"Asked about the quote cache today, Priya said Brindle serves it now and Mossdb is gone."},
		{"a change restated after the old value",
			"Our database is Kelbo. We then moved the ledger from Kelbo to Quillet.",
			"Looked once more: the ledger runs on Quillet instead of Kelbo."},
		{"a tool that installs another",
			"The runner installs packages with poetry.",
			"The runner image lacked poetry. We added `pip install --user poetry` to its setup, and poetry has worked since."},
		// An offered clause decides nothing, whatever it says (review 40b H1).
		{"an offer after alternatively, from X to Y", "The queue runs on Kelbo.", "Alternatively, move the queue from Kelbo to Quillet."},
		{"a wish, then a modal, from X to Y", "The queue runs on Kelbo.", "If you prefer, you could move the queue from Kelbo to Quillet."},
		{"a wish, then a passive modal", "The queue runs on Kelbo.", "If you'd rather, the queue could be moved from Kelbo to Quillet."},
		{"a wish with an infinitive", "The queue runs on Kelbo.", "If you want to move the queue from Kelbo to Quillet, run the script."},
		{"a wish, then an imperative", "The queue runs on Kelbo.", "If you want, switch the queue to Quillet."},
		// A maker and its product with "now" as a time, not a change (review 40b HIGH-3).
		{"a maker and its product from now on",
			"Replies are drafted with Ombrel.",
			"Remove the spare speech job; the spoken replies go through Ombrel Speech from now on."},
		{"a maker and its product added now", "Replies are drafted with Ombrel.", "We added Ombrel Speech now for the spoken replies."},
		{"a maker and its product also used now", "Replies are drafted with Ombrel.", "The spoken replies also use Ombrel Speech now."},
		// A failure with "again" is no change of place (review 40b M-2).
		{"a failure again until a fix", "The task lives in tasks/run.py.", "It won't load in tasks/run.py again until we fix the import."},
		{"a failure never again after a step", "The tests live in tests/unit.py.", "The fixture never passes in tests/unit.py again after a rebase; rerun it."},
		// "from" an adjective and the value, then "to Y", with no change said (review 40b L-2).
		{"a flow of data from X to Y", "Backups are stored on Kelbo.", "We sync the backups from hosted Kelbo to Quillet every night."},
		// A value named as an instance of a kind is no choice, after
		// "instead" too.
		{"tools like X after instead", "The page looked the same after npm install.",
			"Instead, the starter's readme lists package managers like pnpm (for its workspaces) and yarn."},
		{"tools like X after a noun read as a value", "The page looked the same after npm install.",
			"Instead, it showcases integrations with tools like PNPM (for the scripts) and Kelbo."},
		// A text presenting a plan of change proposes the changes it lists.
		{"a migration plan's list", "The ledger runs on Kelbo.",
			"I've created a migration plan to Quillet. Key points:\n- Remove Kelbo lock-in\n- Replace the Kelbo client with Quillet"},
		{"a plan headed as one", "The ledger runs on Kelbo.", "# Quillet Migration Plan\n\n- Switch the ledger from Kelbo to Quillet"},
		{"examples in parentheses", "We install packages with yarn.", "Other package managers (e.g. pnpm) work now too."},
		{"examples after a comma", "We install packages with yarn.", "Package managers, like pnpm, are faster now."},
		{"such as X", "We install packages with yarn.", "Package managers such as pnpm are faster now."},
		{"for example X", "We install packages with yarn.", "Any manager works now, for example pnpm or npm."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rel, role, ov, nv := Compare(Parse(tc.older), Parse(tc.newer)); rel == Supersedes || rel == Contradicts {
				t.Errorf("Compare = %v %s: %q -> %q, want no conflict", rel, role, ov, nv)
			}
		})
	}
}

// The changes next to those shapes are still read.
func TestChangeNextToNoChange(t *testing.T) {
	for _, tc := range []struct{ name, older, newer, ov, nv string }{
		{"a file moved out of a folder", "The jobs live in jobs/old.py.", "The jobs no longer live in jobs/old.py; they moved to jobs/new.py.", "jobs/old.py", "jobs/new.py"},
		{"a decision after an offer", "The client uses PASETO.", "The client now uses OAuth instead of PASETO.", "paseto", "oauth"},
		{"a product chosen instead of another", "The replies are spoken by Kelbo Voice.", "Replies are spoken by Quillet Voice instead of Kelbo Voice now.", "kelbo voice", "quillet voice"},
		{"a tool moved from", "We manage packages with pipenv.", "Packages are handled by poetry now — we moved from our old pipenv.", "pipenv", "poetry"},
		{"a tool that failed and was replaced", "We install packages with yarn.", "Yarn kept failing on the runners, so we switched to pnpm.", "yarn", "pnpm"},
		{"a tool that failed, replaced, named again", "We install packages with yarn.", "Yarn kept failing on the runners. We switched to pnpm. The yarn cache is still on disk.", "yarn", "pnpm"},
		{"a choice after examples", "We install packages with yarn.", "Tools like bun looked fast, but we switched to pnpm.", "yarn", "pnpm"},
		{"a change next to a comparison", "We install packages with yarn.", "It looks like we switched to pnpm.", "yarn", "pnpm"},
		// A marker with no list after it says nothing of the change
		// (review 44b).
		{"a kind like this", "We install packages with yarn.", "Issues like this made us switch to pnpm.", "yarn", "pnpm"},
		{"including a part that is no value", "We install packages with yarn.", "We moved every service, including billing, to pnpm.", "yarn", "pnpm"},
		{"for instance opening a statement", "We install packages with yarn.", "For instance, we replaced yarn with pnpm.", "yarn", "pnpm"},
		{"a kind like a value", "The API listens on port 8080.", "Issues like the clash with the proxy made us move the API to port 9443.", "8080", "9443"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rel, role, ov, nv := Compare(Parse(tc.older), Parse(tc.newer)); rel != Supersedes || ov != tc.ov || nv != tc.nv {
				t.Errorf("Compare = %v %s: %q -> %q, want supersedes %q -> %q", rel, role, ov, nv, tc.ov, tc.nv)
			}
		})
	}
}

// Words that only say a change or qualify the replaced name are no values:
// the change word opening a statement, the head of the phrase a replaced
// name qualifies; nor is a tool named again after it failed replaced.
func TestNoValueRead(t *testing.T) {
	for _, tc := range []struct{ name, text, notValue, notReplaced string }{
		{"a change word opening a statement", "Fix: ```ini depth=7 ``` Remove stale GRID_SEED from `deploy.cfg` before the run.", "remove", ""},
		{"the head of the replaced name's phrase", "- Drop Kelbo licence price-trap … - Move Kelbo client to Drizzle client", "price-trap", ""},
		{"an option of a command", "Replaced yarn install with pnpm install --prefer-offline in the runner.", "prefer-offline", ""},
		{"a tool named again after it failed", "The `poetry lock` step broke on the runner. After `pip install --upgrade poetry`, poetry went through.", "", "poetry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range Parse(tc.text) {
				if tc.notValue != "" && c.Value == tc.notValue || tc.notReplaced != "" && c.Replaces == tc.notReplaced {
					t.Errorf("claim %+v", c)
				}
			}
		})
	}
}

// Changes stated next to an offer, a plain negation before "in F", a
// word between "from" and the value, or a maker's name and its product
// are still read (review of issue 26's rules).
func TestChangesNextToOffers(t *testing.T) {
	for _, tc := range []struct{ name, older, newer, ov, nv string }{
		// An offer's clause beside a change made in the same statement.
		{"an option chosen, said done", "The nightly exports run on Kelbo.",
			"Option 2 (chosen): we moved the nightly exports to Quillet.", "kelbo", "quillet"},
		{"an option label, then a change made", "The nightly exports run on Kelbo.",
			"Option 2: we've since moved the nightly exports to Quillet.", "kelbo", "quillet"},
		{"an option label, then migrated over", "The nightly exports run on Kelbo.",
			"Option 2: the nightly exports migrated over to Quillet.", "kelbo", "quillet"},
		{"an option label, then now and instead", "The nightly exports run on Kelbo.",
			"Option 2: the nightly exports now run on Quillet instead.", "kelbo", "quillet"},
		{"an option said done", "The nightly exports run on Kelbo.",
			"Option B is what we did: the nightly exports moved from Kelbo to Quillet.", "kelbo", "quillet"},
		// An "Option N" label alone decides nothing either way: the text
		// around it tells the option picked (review 40c).
		{"an option chosen in its label", "The queue runs on Kelbo.",
			"Option 2 (chosen): move the queue to Quillet.", "kelbo", "quillet"},
		{"an option chosen after it", "The queue runs on Kelbo.",
			"Option 2: move the queue to Quillet (chosen).", "kelbo", "quillet"},
		{"an option approved", "The queue runs on Kelbo.",
			"Option 2 - move the queue to Quillet - approved.", "kelbo", "quillet"},
		{"a wish clause before a done change", "The build uses Kelbo.",
			"If you want faster builds, good news: we switched the build from Kelbo to Quillet.", "kelbo", "quillet"},
		{"a wish clause after a done change", "Mail is sent with Kelbo.",
			"We replaced Kelbo with Quillet for mail, if you want to know.", "kelbo", "quillet"},
		{"alternatives weighed, one done", "The queue runs on Kelbo.",
			"Alternatively we looked at Zorvix, but we moved the queue from Kelbo to Quillet.", "kelbo", "quillet"},
		// A plain negation before "in F" in a statement that says the place changed.
		{"a path not in F any more", "The jobs live in jobs/old.py.",
			"The jobs are not in jobs/old.py any more; see jobs/new.py.", "jobs/old.py", "jobs/new.py"},
		{"a path that won't live in F", "The jobs live in jobs/old.py.",
			"The jobs won't live in jobs/old.py after today; they moved to jobs/new.py.", "jobs/old.py", "jobs/new.py"},
		{"a path never read in F again", "The secrets live in config/old.env.",
			"The secrets are never read in config/old.env again: they live in vault/app.env now.", "config/old.env", "vault/app.env"},
		{"a path that won't be in F, the new one in the next statement", "The jobs live in jobs/old.py.",
			"The jobs won't be in jobs/old.py; jobs/new.py holds them from now on.", "jobs/old.py", "jobs/new.py"},
		// "from", a word opening the noun phrase, the value, then "to Y".
		{"from an adjective and the value", "We deploy the API with Kelbo.",
			"We migrated the API deploys from hosted Kelbo to Quillet.", "kelbo", "quillet"},
		// A maker's name, then its product marked new by change wording,
		// wherever the wording stands and in Korean too.
		{"a maker's name to its hosted product", "The database runs on Kelbo.",
			"The database runs on Kelbo Cloud now instead.", "kelbo", "kelbo cloud"},
		{"now before the verb", "The database runs on Kelbo.",
			"The database now runs on Kelbo Cloud.", "kelbo", "kelbo cloud"},
		{"moved over to", "The database runs on Kelbo.",
			"We've moved the database over to Kelbo Cloud.", "kelbo", "kelbo cloud"},
		{"a Korean particle", "데이터베이스는 Kelbo를 써요.",
			"데이터베이스는 Kelbo Cloud로 옮겼어요.", "kelbo", "kelbo cloud"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rel, role, ov, nv := Compare(Parse(tc.older), Parse(tc.newer)); rel != Supersedes || ov != tc.ov || nv != tc.nv {
				t.Errorf("Compare = %v %s: %q -> %q, want supersedes %q -> %q", rel, role, ov, nv, tc.ov, tc.nv)
			}
		})
	}
}

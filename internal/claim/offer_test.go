package claim

import "testing"

// Statements that were read as changes they do not make (issue 26): a
// file named as where something is, an offer, a use imagined, a name after
// where it comes from, a setting's name beside a product, a maker beside
// its product, a change restated, a tool that installs another. The texts
// are made up.
func TestNoChangeMade(t *testing.T) {
	for _, tc := range []struct{ name, older, newer string }{
		{"a file named as where something is",
			"Run `python tasks.py render` first.",
			"The `render` task is not defined in tasks.py. The port is set twice in settings.toml."},
		{"an alternative offered",
			"The nightly export runs on Kelbo.",
			"Alternatively, if you prefer, the nightly export could run on Quillet instead."},
		{"an alternative offered as an option",
			"Option 2: run the exports with Kelbo, the older tool.",
			"We now run the exports with Quillet."},
		{"a use imagined",
			"The service signs in with JWT.",
			"We sign in with JWT now, no SAML needed. When you would adopt SAML: portals for outside teams."},
		{"a name after where it comes from",
			"The client signs in with PASETO.",
			"Builds now: the token from the vault → PASETO. No OAuth step."},
		{"a setting's name beside a product",
			"`BRASK_MAIL_KEY` - for sending the weekly digest",
			"Rename the `old_mailer.rb` job … **Next:** Simply set `BRASK_MAIL_KEY` again - both digests will use Postwick Relay then and you will get one mail."},
		{"a maker and its product",
			"Replies are drafted with Ombrel.",
			"Remove the spare speech job; the spoken replies go through Ombrel Speech too."},
		{"a change restated",
			"From today the ledger lives in CockroachDB.\n\n- Every balance is read from CockroachDB\n- No local MariaDB database exists anymore\n- The API connects directly to CockroachDB\n\nDashboards refresh hourly.\nAlerts are unchanged.\n\nAll reports are kept in and pulled from your CockroachDB cluster. The move is done and MariaDB has been fully wiped from the hosts.",
			"Checked: the ledger reads only CockroachDB. There is no other database - MariaDB is deleted. Every balance goes through CockroachDB now."},
		{"a tool that installs another",
			"Run `yarn install` to fetch the parser.",
			"`yarn install` failed: command not found: yarn; fixed by `npm install --global yarn`, after which yarn ran fine."},
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
		{"a tool named again after it failed", "`yarn install` failed: command not found: yarn; fixed by `npm install --global yarn`, after which yarn ran fine.", "", "yarn"},
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

package claim

import "testing"

// Pairs of statements that gave a wrong warning (issue 26) and are no
// conflict by their structure: two changes of different things, a setting's
// name against another setting, a count against a name, and an older
// statement naming both values in use side by side. The texts are made up.
func TestNoConflictByShape(t *testing.T) {
	for _, tc := range []struct{ name, older, newer string }{
		{"changes of two things",
			"The settings panel was redesigned as a compact modal instead of a full-page route.",
			"Replaced all `gribble.fetch(key)` calls with `gribble.read(Key.of(key))`."},
		{"a setting and another setting sharing its prefix",
			"Environment variable ENABLE_TRACE=true (default) turns on tracing",
			"Set through the ENABLE_TRACE_SAMPLER environment variable"},
		{"a setting set to true and another setting",
			"The flag ENABLE_TRACE=true turns tracing on when the agent is reachable\nThe flag ENABLE_TRACE=true (default) turns tracing on when the agent is reachable",
			"With ENABLE_TRACE_SAMPLER=true: the agent keeps one span in ten"},
		{"a count against a name",
			"Alerts are still sent as separate Brindle Bot messages.",
			"Fixed: the Brindle alerts now go into 1 combined message."},
		{"choices for two purposes",
			"Use Kelbo to draw the charts.",
			"Now use Quillet to send the mail."},
		{"a setting set in a code span and another setting",
			"Start it with `ENABLE_TRACE=true` to trace the agent.",
			"Start it with `ENABLE_TRACE_SAMPLER=true` now."},
		{"the older statement named both",
			"We run the Svelte and the Vue checkout side by side for the spring trial. The Vue checkout is faster so far.",
			"The Vue checkout now caches the basket between visits."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rel, role, ov, nv := Compare(Parse(tc.older), Parse(tc.newer)); rel == Supersedes || rel == Contradicts {
				t.Errorf("Compare = %v %s: %q -> %q, want no conflict", rel, role, ov, nv)
			}
		})
	}
}

// The same shapes still conflict where the statements say so.
func TestConflictBySameShape(t *testing.T) {
	for _, tc := range []struct{ name, older, newer, ov, nv string }{
		{"a setting renamed", "Read the key from `KELVO_DB_URL`.", "Use `KELVO_DATABASE_URL` instead of `KELVO_DB_URL`.", "kelvo_db_url", "kelvo_database_url"},
		{"a package manager changed", "We install packages with yarn.", "Switched from yarn to pnpm: run npm install -g pnpm first.", "yarn", "pnpm"},
		{"a change of one thing", "Render the invoices with Kelbo.", "Render the invoices with Quillet instead.", "kelbo", "quillet"},
		{"a setting replaced by a product", "Read the token from `POSTWICK_API_KEY`.", "Use Postwick Mail instead of `POSTWICK_API_KEY`.", "postwick_api_key", "postwick mail"},
		{"a lower-case identifier is a value", "We back up the ledger with pg_dump.", "Back up the ledger with restic instead of pg_dump.", "pg_dump", "restic"},
		{"the other one tried before", "We use Jest. We tried Vitest once but it was flaky.", "We now use Vitest.", "jest", "vitest"},
		{"a retraction with its reason", "We went with Kelbo for the queue after the spike.", "Scratch that, the queue uses Quillet instead, it is faster.", "kelbo", "quillet"},
		{"a word in -ly before a noun", "The nightly build runs on Kelbo.", "The nightly build now runs on Quillet.", "kelbo", "quillet"},
		{"a lower-case identifier changed", "We back up the ledger with pg_dump.", "We now back up the ledger with pg_basebackup.", "pg_dump", "pg_basebackup"},
		{"a state stated after the same change", "We switched the queue from Kelbo to Quillet. The cache still uses Kelbo.", "The cache now uses Quillet instead of Kelbo.", "kelbo", "quillet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rel, role, ov, nv := Compare(Parse(tc.older), Parse(tc.newer)); rel != Supersedes || ov != tc.ov || nv != tc.nv {
				t.Errorf("Compare = %v %s: %q -> %q, want supersedes %q -> %q", rel, role, ov, nv, tc.ov, tc.nv)
			}
		})
	}
}

// The subject of "replaces" is the successor, not another name the statement
// gives a role in passing.
func TestReplacesSubjectIsSuccessor(t *testing.T) {
	for _, newer := range []string{"Kelbo** replaces Zorvix (tighter Postgres support)", "Kelbo** replaces Zorvix (tighter Redis support)"} {
		rel, role, ov, nv := Compare(Parse("A short tour of Zorvix's plugin hooks:"), Parse(newer))
		if rel != Supersedes || ov != "zorvix" || nv != "kelbo" {
			t.Errorf("Compare(…, %q) = %v %s: %q -> %q, want supersedes zorvix -> kelbo", newer, rel, role, ov, nv)
		}
	}
}

// An adverb says how something is done, not what the value sets: the role is
// read from the words around it. The texts are made up.
func TestAdverbNamesNoRole(t *testing.T) {
	for _, text := range []string{
		"The nightly export is launched directly with `cronx run`, so the lock file is never taken.",
		"The queue drains manually via `flushq --all` until the cron job lands.",
	} {
		for _, c := range Parse(text) {
			if c.Role == "directly" || c.Role == "manually" {
				t.Errorf("Parse(%q) has role %q", text, c.Role)
			}
		}
	}
}

// A newer statement of a change the older already reported, after stating
// the replaced value, restates it: no supersession. The claims are built
// directly, as a text read that way: "the ledger ran on MySQL" then "we
// moved the ledger from MySQL to Postgres".
func TestSameChangeRestated(t *testing.T) {
	older := []Claim{
		{Role: "database", Value: "mysql", Scope: []string{"ledger"}, Start: 0, End: 24},
		{Role: "database", Value: "postgres", Replaces: "mysql", Changed: true, Scope: []string{"ledger", "migration"}, Start: 25, End: 70},
	}
	newer := []Claim{{Role: "database", Value: "postgres", Replaces: "mysql", Changed: true, Scope: []string{"ledger", "confirmed"}}}
	if rel, role, ov, nv := Compare(older, newer); rel == Supersedes || rel == Contradicts {
		t.Errorf("Compare = %v %s: %q -> %q, want no conflict", rel, role, ov, nv)
	}
	// A change away from what the older reported still supersedes it.
	newer[0].Value, newer[0].Replaces = "sqlite", "postgres"
	if rel, _, ov, nv := Compare(older, newer); rel != Supersedes || ov != "postgres" || nv != "sqlite" {
		t.Errorf("Compare = %v %q -> %q, want supersedes postgres -> sqlite", rel, ov, nv)
	}
}

// A number after a file name and a colon is a line, not a port; after a
// host it is the port.
func TestFileLineIsNoPort(t *testing.T) {
	for text, want := range map[string]string{
		"roster.tsx:14 Uncaught SyntaxError: no export named Panel": "",
		"Page ordering fix (reader_screen.dart:105): kept the list": "",
		"The API listens on api.internal:8443 behind the proxy.":    "8443",
		"The API listens on api.example.cc:8443 behind the proxy.":  "8443",
		"The crash is at render.cc:105 in the loop.":                "",
	} {
		got := ""
		for _, c := range Parse(text) {
			if c.Role == "port" {
				got = c.Value
			}
		}
		if got != want {
			t.Errorf("Parse(%q) port %q, want %q", text, got, want)
		}
	}
}

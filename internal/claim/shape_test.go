package claim

import "testing"

// Pairs of statements that once gave a wrong warning (issue 26) and are no
// conflict by their structure: two changes of different things, a setting's
// name against another setting or a value, a count against a name, a tool
// run to install another, and an older statement naming both values. The
// texts are made up.
func TestNoConflictByShape(t *testing.T) {
	for _, tc := range []struct{ name, older, newer string }{
		{"changes of two things",
			"The banner was redesigned as a compact side drawer instead of a full-page overlay.",
			"Replaced all `kelvo.load(url)` calls with `kelvo.open(Source.uri(url))`."},
		{"a setting and another setting sharing its prefix",
			"Environment variable USE_ZENTROX=true selects Zentrox when available\nEnvironment variable USE_ZENTROX=true (default) selects Zentrox when available",
			"Configurable via USE_ZENTROX_GRID environment variable\nConfigurable via `USE_ZENTROX_GRID` environment variable"},
		{"a setting set to true and another setting",
			"Environment variable USE_ZENTROX=true selects Zentrox when available\nEnvironment variable USE_ZENTROX=true (default) selects Zentrox when available",
			"When you run with USE_ZENTROX_GRID=true: the service uses the Zentrox grid detector"},
		{"a setting replaced by a name said near it",
			"Summary Generation** - Uses Kelvo API to generate the *text* that gets spoken … - Quillet generates the voice … - When you commented out `KELVO_API_KEY`, the summary generation failed … - `QUILLET_API_KEY` - for voice synthesis - `KELVO_API_KEY` - for generating the summary text **Uncomment the Kelvo API key in your .env file.**",
			"Delete or rename `quillet_tts.py` script … **Recommendation:** Just uncomment `KELVO_API_KEY` - both systems will use Kelvo TTS consistently and you'll get single voice notifications."},
		{"a count against a name",
			"These are still posting as separate Quillet Action comments.",
			"Merged: the Quillet comments now go into 1 consolidated comment."},
		{"a package manager installing another",
			"Run `pnpm dev` to start the site locally.",
			"`pnpm install` failed: command not found: pnpm; fixed by `npm install --global pnpm`, and then it worked."},
		{"the older named both",
			"Let me compare the Flutter and React Native readers to see how they differ.",
			"This matches the React Native reader, which scrolls vertically, and removes the reversed layout."},
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
	for _, newer := range []string{"Kelbo** replaces Zorvix (better Quillet integration)", "Kelbo** replaces Zorvix (better Chroma integration)"} {
		rel, role, ov, nv := Compare(Parse("Here's an overview of Zorvix's evals module:"), Parse(newer))
		if rel != Supersedes || ov != "zorvix" || nv != "kelbo" {
			t.Errorf("Compare(…, %q) = %v %s: %q -> %q, want supersedes zorvix -> kelbo", newer, rel, role, ov, nv)
		}
	}
}

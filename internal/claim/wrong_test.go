package claim

import "testing"

// Statements whose words once became values that a warning set against
// another value (issue 26): plain words that do not stand for themselves, a
// word of the phrase after "replace", placeholders, a capitalised list
// item, and a change read the wrong way round. The names are made up.

func TestPlainWordsSetNothing(t *testing.T) {
	for _, tc := range []struct{ name, older, newer, word string }{
		{"state after now", "Let me think through what's needed for your Zentrox.io deployment to match our local setup.",
			"The Kelvo API is now ready for deployment to Zentrox with:", "ready"},
		{"adjective before its noun", "The booking API is built on Kelvora Boot.", "UserController: REST endpoints with proper HTTP status codes", "proper"},
		{"adverb after now", "The duplicates list shows 5.", "The duplicates feature now actively helps clean up storage.", "actively"},
		{"list item opening with a verb", "Options live in the Kelvo table.", "DELETE `/api/kelvo/options/{option_id}` - Delete an option", "delete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, n := Parse(tc.older), Parse(tc.newer)
			for _, c := range n {
				if c.Value == tc.word && !c.Weak {
					t.Errorf("Parse(%q) sets %q: %+v", tc.newer, tc.word, c)
				}
			}
			if rel, role, ov, nv := Compare(o, n); (rel == Supersedes || rel == Contradicts) && (nv == tc.word || ov == tc.word) {
				t.Errorf("Compare = %v %s: %q -> %q", rel, role, ov, nv)
			}
		})
	}
}

func TestReplacedPhraseWordIsNoValue(t *testing.T) {
	for _, c := range Parse("Go to your 'Code in JavaScript' node and replace the entire code with this:") {
		if c.Replaces == "entire" || c.Value == "entire" {
			t.Errorf("claim %+v takes a word of the phrase replaced as a value", c)
		}
	}
}

func TestPlaceholderIsNoValue(t *testing.T) {
	for _, text := range []string{"Agent: ${agentRole}", "Token: `{{ $env.KELVO_TOKEN }}`"} {
		for _, c := range Parse(text) {
			if c.Value == "agentrole" || c.Value == "{{ $env.kelvo_token }}" {
				t.Errorf("Parse(%q) takes the placeholder as a value: %+v", text, c)
			}
		}
	}
}

// A change stated once ("from MongoDB to Postgres") is not turned back by a
// later statement that names MongoDB with change wording about a plan.
func TestChangeNotReadBackwards(t *testing.T) {
	older := Parse("I'll help you plan a migration from MongoDB to Postgres + Prisma.")
	newer := Parse("I've analyzed your current MongoDB implementation and created a comprehensive migration plan to Prisma.")
	if rel, role, ov, nv := Compare(older, newer); rel == Supersedes && ov == "postgres" && nv == "mongodb" {
		t.Errorf("Compare = %v %s: %q -> %q, want no reversal", rel, role, ov, nv)
	}
}

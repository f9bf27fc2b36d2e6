package extract

import (
	"strings"
	"testing"
)

// FuzzOffline feeds arbitrary text to Offline in every role, and as the
// fix after a failing tool run: it must never panic, and every quote must be
// a non-empty substring of the message it cites, with a valid index.
func FuzzOffline(f *testing.F) {
	for _, s := range testSessions(f) {
		for _, m := range s.Messages {
			f.Add(m.Text)
		}
	}
	for _, seed := range []string{"", "`", "```", "Fixed.", "Found it:", "http://", "#12", "A-1", "\xff\xfe", "0000000’\x99", "“\xe2\x80", "다.", "e.g.", "(", ")(",
		"Never `do", "note that x, y?", "— can you?", "Decision: we will use `x` (a, b) instead of y, so z.",
		"| a | b |\n|---|---|\n| `x` | 12 hours |", "```\n# c:\nnpm test  # x\nA=1 cargo run\n```", "**Label:** `v`",
		"- `a/b` — the thing", "Want me to:\n1. Add `a/` as a workspace", "PR #12: fix (Issue #3)", strings.Repeat("**1. ", 40)} {
		f.Add(seed)
	}
	for _, c := range pastedSessions {
		f.Add(c.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		msgs := []Message{
			{Index: 0, Role: "user", Text: text},
			{Index: 1, Role: "assistant", Text: text},
			{Index: 2, Role: "tool", Text: "Bash: go test (error)\n" + text},
			{Index: 3, Role: "assistant", Text: "Fixed. " + text},
			{Index: 4, Role: "user", Text: strings.ToUpper(text)},
			{Index: 5, Role: "assistant", Text: "Found it: " + text + "\n- " + text},
			{Index: 6, Role: "tool", Text: "Bash: " + text + "\nok"},
			{Index: 7, Role: "tool", Text: "Bash: " + text},
			{Index: 8, Role: "user", Text: "yes"},
		}
		entries := Offline(msgs)
		// Screen, run over the extractor's own output, keeps a subset.
		if kept, dropped := Screen(msgs, entries); len(kept)+dropped != len(entries) {
			t.Fatalf("Screen kept %d and dropped %d of %d", len(kept), dropped, len(entries))
		}
		if len(entries) > maxEntries {
			t.Fatalf("%d entries", len(entries))
		}
		for _, e := range entries {
			if len(e.Evidence) == 0 {
				t.Fatalf("entry without evidence: %+v", e)
			}
			for _, ev := range e.Evidence {
				if ev.MessageIndex < 0 || ev.MessageIndex >= len(msgs) {
					t.Fatalf("message index %d out of range", ev.MessageIndex)
				}
				if ev.Quote == "" || !strings.Contains(msgs[ev.MessageIndex].Text, ev.Quote) {
					t.Fatalf("quote %q is not in message %d %q", ev.Quote, ev.MessageIndex, msgs[ev.MessageIndex].Text)
				}
			}
		}
	})
}

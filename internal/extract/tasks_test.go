package extract

import (
	"strings"
	"testing"
)

// tasks runs Offline and returns its tasks' first quotes.
func tasks(msgs []Message) []string {
	var out []string
	for _, e := range Offline(msgs) {
		if e.Type == Task {
			out = append(out, e.Evidence[0].Quote)
		}
	}
	return out
}

func TestOfflineTasksPutOff(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       bool
	}{
		{"let's, tomorrow", "OK, the parser works. Let's leave the error messages for tomorrow.", true},
		{"later we should", "Later we should add retries to the uploader.", true},
		{"i'll next week", "I'll move the fixtures into testdata next week.", true},
		{"blocked on", "The release is blocked on the signing key from ops.", true},
		{"a question", "Should we leave the error messages for tomorrow?", false},
		{"no time put off", "Let's rename the flag to --limit.", false},
		{"not directive", "The job ran later than usual.", false},
		{"a report, past", "We deployed the hotfix later that evening.", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := tasks([]Message{{Index: 0, Role: "user", Text: tt.text}, {Index: 1, Role: "assistant", Text: "Sure."}})
			if (len(got) > 0) != tt.want {
				t.Fatalf("tasks of %q: %q, want a task: %v", tt.text, got, tt.want)
			}
			for _, q := range got {
				if !strings.Contains(tt.text, q) {
					t.Errorf("quote %q is not verbatim", q)
				}
			}
		})
	}
}

func TestOfflinePlanTasks(t *testing.T) {
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Add pagination to the orders endpoint."},
		{Index: 1, Role: "tool", Text: "TodoWrite: [in_progress] Add a page parameter to the orders handler; [pending] Document pagination in the API guide"},
		{Index: 2, Role: "assistant", Text: "Pagination works; the guide is not updated."},
		{Index: 3, Role: "tool", Text: "TodoWrite: [completed] Add a page parameter to the orders handler; [pending] Document pagination in the API guide"},
	}
	got := tasks(msgs)
	if len(got) != 1 || got[0] != "Document pagination in the API guide" {
		t.Fatalf("tasks %q, want the pending todo only", got)
	}
	for _, e := range Offline(msgs) {
		if e.Type == Task && e.Evidence[0].MessageIndex != 3 {
			t.Errorf("the task quotes message %d, want the last TodoWrite (3)", e.Evidence[0].MessageIndex)
		}
	}
	msgs[3].Text = strings.ReplaceAll(msgs[3].Text, "[pending]", "[completed]")
	if got := tasks(msgs); len(got) != 0 {
		t.Errorf("a plan done by the session's end left tasks %q", got)
	}
}

package extract

import (
	"strings"
	"testing"
)

// TestNamedFileSurvives: what a statement says a named file holds is not
// overturned by a later statement about something else that only shares
// its role ("plan", then "now set up with …").
func TestNamedFileSurvives(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Move the planning docs out of the root."},
		{Index: 1, Role: "assistant", Text: "Moved them:\n- `archive/plan_sync.md` - Revised 9-step implementation plan using Acme Queue SDK\n- `archive/notes.md` - Meeting notes"},
		{Index: 2, Role: "user", Text: "Great, now initialize the project."},
		{Index: 3, Role: "assistant", Text: "The project is now properly initialized with Acme Queue SDK!"},
	}
	got := Offline(msgs)
	checkEntries(t, "named file", msgs, got)
	for _, e := range got {
		if strings.Contains(e.Body, "archive/plan_sync.md") {
			return
		}
	}
	t.Errorf("the statement about archive/plan_sync.md was dropped:%s", dump(got))
}

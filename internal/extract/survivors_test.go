package extract

import (
	"strings"
	"testing"
)

// TestNamedFileSurvives: what a statement says a named file holds is not
// overturned by a later statement about something else that only shares
// its role ("plan", then "the dispatcher plan now uses …").
func TestNamedFileSurvives(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Tidy the route sketches into a folder."},
		{Index: 1, Role: "assistant", Text: "Tidied:\n- `maps/route_north.md` - Draft van route plan using Tollgate Maps SDK\n- `maps/todo.md` - Open questions"},
		{Index: 2, Role: "user", Text: "Thanks. Hook up the dispatcher next."},
		{Index: 3, Role: "assistant", Text: "The dispatcher plan now uses Kestrel Geo SDK instead."},
	}
	got := Offline(msgs)
	checkEntries(t, "named file", msgs, got)
	for _, e := range got {
		if strings.Contains(e.Body, "maps/route_north.md") {
			return
		}
	}
	t.Errorf("the statement about maps/route_north.md was dropped:%s", dump(got))
}

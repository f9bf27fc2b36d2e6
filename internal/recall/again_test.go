package recall

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestFailureReportedAgain: a failure pasted, answered with a cause, then
// pasted again and answered with another: the second answer is the
// current one, and the warning says the first did not hold. Another
// failure answered twice, or the same answer twice, warns of nothing.
// The texts are made up.
func TestFailureReportedAgain(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	const fail = "Error fetching glaze: Kilnbase API error: 403 Forbidden"
	first := "Two things: the endpoint should be `/v2/glazes/search`, and it needs an **owner token**. Let me fix the endpoint."
	second := "The real story: `/v2/glazes/search` is **not on the hobby tier**. Let me find an endpoint that is."
	evs := say(t, db, "kb", day, fail, first, "Error Error fetching glaze: Kilnbase API error: 403 Forbidden", second)
	sel := selectRuns(t, db, "glaze lookups keep coming back 403 from kilnbase, what's behind it?")
	ws, err := Warnings(context.Background(), db, defaults(), sel)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(ws, func(w Warning) bool {
		return strings.Contains(w.A.Title, "owner token") && strings.Contains(w.B.Title, "not on the hobby tier") && strings.Contains(w.Note, "reported again")
	}) {
		t.Errorf("no warning that the failure came back after the first answer: %+v", ws)
	}

	// The same answer twice, and another failure, tell nothing.
	for _, c := range []struct {
		name, answer, report string
		want                 int
	}{
		{"again", second, evs[2].Text, 1},
		{"same answer", first, evs[2].Text, 0},
		{"another failure", second, "Error fetching kiln: Kilnbase API error: 500 Internal Server Error", 0},
	} {
		at, ok := reportAnswered(Item{CID: "mem:first", Kind: store.TypeUserPrompt, event: evs[0], Context: &evs[1], ContextExcerpt: first, Time: evs[0].Time})
		if !ok {
			t.Fatalf("%s: the first report is no answered failure", c.name)
		}
		later := evs[2]
		later.Text = c.report
		again := Item{CID: "mem:later", Kind: store.TypeUserPrompt, event: later, Context: &evs[3], ContextExcerpt: c.answer, Time: later.Time}
		if got := againWarnings([]Item{at.Item, again}, map[[2]int64]bool{}); len(got) != c.want {
			t.Errorf("%s: %d warnings, want %d: %+v", c.name, len(got), c.want, got)
		}
	}
}

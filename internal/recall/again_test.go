package recall

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestFailureReportedAgain: a failure pasted, answered with a cause, then
// pasted again and answered with another: the second answer is the
// current one, and the warning says the first did not hold. Another
// failure, every build's, one months later, a step only announced or a
// question asked twice warns of nothing.
// The texts are made up.
func TestFailureReportedAgain(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	const fail = "Error fetching glaze: Kilnbase API error: 403 Forbidden"
	first := "Two things: the endpoint should be `/v2/glazes/search`, and it needs an **owner token**. Let me fix the endpoint."
	second := "The real story: `/v2/glazes/search` is **not on the hobby tier**. Let me find an endpoint that is."
	say(t, db, "kb", day, fail, first, "Error Error fetching glaze: Kilnbase API error: 403 Forbidden", second)
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

	// Each case: the first report and its answer, then a later report and
	// its answer, after a gap.
	const modFail = "Error: Cannot find module 'lodash'"
	for _, c := range []struct {
		name, report, answer, again, answer2 string
		gap                                  time.Duration
		want                                 int
	}{
		{"again", fail, first, "Error Error fetching glaze: Kilnbase API error: 403 Forbidden", second, time.Hour, 1},
		{"same answer", fail, first, fail, first, time.Hour, 0},
		{"another failure", fail, first, "Error fetching kiln: Kilnbase API error: 500 Internal Server Error", second, time.Hour, 0},
		{"another module", modFail, "It is missing from package.json: run `npm install lodash`.", "Error: Cannot find module 'express'", "Install express with `npm install express`.", time.Hour, 0},
		{"every build's failure", "Error: build failed", first, "Error: build failed", second, time.Hour, 0},
		{"months later", fail, first, fail + " ", second, 90 * 24 * time.Hour, 0},
		{"a step announced", fail, "Let me look at the request.", fail + " ", "Let me check the response.", time.Hour, 0},
		{"a question", "why does the glaze fetch fail with a Kilnbase API error?", first, "why does the glaze fetch fail with a Kilnbase API error?", second, time.Hour, 0},
	} {
		report := store.Event{ID: 1, Type: store.TypeUserPrompt, Time: day, Text: c.report}
		answer := store.Event{ID: 2, Type: store.TypeAgentResponse, Time: day.Add(time.Minute), Text: c.answer}
		later := store.Event{ID: 3, Type: store.TypeUserPrompt, Time: day.Add(c.gap), Text: c.again}
		answer2 := store.Event{ID: 4, Type: store.TypeAgentResponse, Time: day.Add(c.gap + time.Minute), Text: c.answer2}
		older := Item{CID: "mem:first", Kind: store.TypeUserPrompt, event: report, Context: &answer, ContextExcerpt: c.answer, Time: report.Time}
		// The later answer shown as an item of its own, with the report it
		// replied to; the items in either order.
		newer := Item{CID: "mem:later", Kind: store.TypeAgentResponse, event: answer2, Context: &later, Excerpt: c.answer2, Time: answer2.Time}
		for _, sel := range [][]Item{{older, newer}, {newer, older}} {
			got := againWarnings(sel, map[[2]int64]bool{})
			if len(got) != c.want {
				t.Errorf("%s: %d warnings, want %d: %+v", c.name, len(got), c.want, got)
			} else if c.want == 1 && (got[0].A.CID != "mem:first" || !strings.Contains(got[0].Note, "("+date(later.Time)+")")) {
				t.Errorf("%s: the warning's older side or date is wrong: %+v", c.name, got[0])
			}
		}
	}
}

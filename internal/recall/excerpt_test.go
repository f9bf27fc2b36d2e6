package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// A long report answers "how often …?" in a line that shares none of the
// prompt's other words: the excerpt shown is the line giving the interval,
// not only the lines that repeat the prompt's words.
func TestExcerptShowsTheValueAsked(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	report := strings.Join([]string{
		"## Report",
		"The Quellby invoice sync is now fully implemented and imports invoices from the vendor portal.",
		"### What was built",
		"- The Quellby invoice sync logs in to the vendor portal with the stored credentials.",
		"- It parses the invoice table of the vendor portal into ledger rows.",
		"- Invoice totals from the vendor portal are converted to cents before they are stored.",
		"- The Quellby invoice sync skips rows the vendor portal marks as drafts.",
		"### Scheduling",
		"- The scheduler wakes up every 6 hours and runs one pass.",
		"### Files",
		"- `scheduler.py`, `portal_client.py`, `ledger.py`: new modules.",
		"- The Quellby invoice sync writes its own log file beside the vendor portal cache.",
		"- Tests cover the vendor portal parser and the invoice conversion to cents.",
		"All acceptance criteria met: the Quellby invoice sync works end to end against the vendor portal.",
	}, "\n")
	say(t, db, "build", day, "Build the Quellby invoice sync against the vendor portal.", report)
	got := recallFor(t, db, defaults(), "how often does the Quellby invoice sync hit the vendor portal now?")
	if !strings.Contains(got, "every 6 hours") {
		t.Errorf("the line giving the interval is not shown:\n%s", got)
	}
}

// "Which zorblat version …?" is answered by the one message stating the
// version, not by the build logs that name zorblat more often: the message
// holding a value of the shape asked ranks above those that only mention
// the thing.
func TestValueAskedRanksAboveMentions(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	for i := range 12 {
		say(t, db, fmt.Sprintf("logs-%d", i), day.AddDate(0, 0, i),
			fmt.Sprintf("build the plugin again, attempt %d", i),
			fmt.Sprintf("The zorblat plugin build for the editor finished; the zorblat linker wrote plugin bundle %d.", i))
	}
	evs := say(t, db, "pin", day.AddDate(0, 0, -3), "ok go ahead with the release", "Compiling now with Zorblat 4.2.1, which the editor SDK needs.")
	items, err := Select(context.Background(), db, defaults(), Request{Project: proj, Prompt: "which zorblat version does the editor plugin need?", Now: day.AddDate(0, 1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(items, func(it Item) bool { return it.CID == store.EventCID(evs[1].ID) })
	if at != 0 {
		for _, it := range items {
			t.Logf("%s %.2f %q", it.CID, it.Score, it.Excerpt)
		}
		t.Fatalf("the statement of the version is item %d, want 0", at)
	}
}

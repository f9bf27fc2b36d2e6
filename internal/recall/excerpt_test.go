package recall

import (
	"strings"
	"testing"

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
		"- The coordinator wakes up every 6 hours and runs one pass.",
		"### Files",
		"- `coordinator.py`, `portal_client.py`, `ledger.py`: new modules.",
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

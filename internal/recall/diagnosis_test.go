package recall

import (
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// A session that named one cause of a problem and later another as the real
// one: both are shown, with a warning that names the later as the one that
// holds.
func TestRevisedDiagnosisIsWarned(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "debug", day,
		"The invoice export to the ledger takes twenty seconds, can you find out why?",
		"The problem is the PDF renderer re-downloading its fonts for every invoice of the export.",
		"I cached the fonts and the invoice export still takes twenty seconds.",
		"The real problem is the ledger API throttling us to two requests per second during the export.")
	got := recallFor(t, db, defaults(), "Why was the invoice export to the ledger so slow?")
	for _, want := range []string{"re-downloading its fonts", "throttling us"} {
		if !strings.Contains(got, want) {
			t.Fatalf("want %q in the context:\n%s", want, got)
		}
	}
	wantCauseReplaced(t, got, "re-downloading", "throttling")
}

// wantCauseReplaced fails t unless context got holds a warning that the cause
// naming older was replaced by the one naming newer.
func wantCauseReplaced(t *testing.T, got, older, newer string) {
	t.Helper()
	i := strings.Index(got, ConflictOpen)
	if i < 0 {
		t.Fatalf("no warning:\n%s", got)
	}
	warn := got[i:]
	o, n := strings.Index(warn, older), strings.Index(warn, newer)
	if !strings.Contains(warn, "superseded") || o < 0 || n < 0 || n < o {
		t.Errorf("want the cause naming %q replaced by the one naming %q:\n%s", older, newer, warn)
	}
}

// Two sessions about different problems each name their cause; a later "the
// real problem" in one is no correction of the other's.
func TestDiagnosesOfTwoSessionsAreNotWarned(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "one", day, "The invoice export is slow.",
		"The problem is the PDF renderer re-downloading its fonts for every invoice of the export.")
	say(t, db, "two", day.AddDate(0, 0, 2), "The nightly invoice export job failed.",
		"The real problem is an expired certificate on the invoice export host.")
	got := recallFor(t, db, defaults(), "What went wrong with the invoice export?")
	if !strings.Contains(got, "fonts") || !strings.Contains(got, "certificate") || strings.Contains(got, ConflictOpen) {
		t.Errorf("want both causes, and no warning:\n%s", got)
	}
}

// The cause a later "real" one corrects is the earlier claim to be the real
// cause, not a plain remark between them that already points the new way.
func TestRevisedDiagnosisCorrectsTheClaimedCause(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "debug", day,
		"The nightly sync of the warehouse stock drops rows, why?",
		"The real issue is the sync job's batch size overflowing the staging table.",
		"Smaller batches still drop rows of the warehouse stock sync.",
		"The problem is the retry handler of the sync swallowing duplicate-key errors.",
		"Confirmed: the actual issue is the retry handler swallowing duplicate-key errors, so rows of the stock sync vanish.")
	got := recallFor(t, db, defaults(), "Why did the warehouse stock sync drop rows?")
	i := strings.Index(got, ConflictOpen)
	if i < 0 {
		t.Fatalf("no warning:\n%s", got)
	}
	warn := got[i:]
	if !strings.Contains(warn, "batch size") || strings.Contains(warn, "The problem is the retry handler") {
		t.Errorf("want the batch-size cause shown as replaced, not the remark that agrees with the newer:\n%s", warn)
	}
}

// A later statement that names no cause found is no correction of the one
// named before it, and no warning shows it as the current one: a recap
// naming the cause abandoned earlier ("at first I thought the real problem
// was …"), or a status ("the root cause is still unclear").
func TestNonCausesAreNotWarned(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, cause, later string
	}{
		{"recap", "The real problem is the ledger API throttling us to two requests per second during the export.",
			"Summary: at first I thought the real problem was the PDF renderer re-downloading its fonts for every invoice, but the export waits on the ledger."},
		{"status", "The problem is the PDF renderer re-downloading its fonts for every invoice of the export.",
			"Caching the fonts did not speed up the invoice export: the root cause is still unclear."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db := storetest.Open(t)
			filler(t, db)
			say(t, db, "debug", day,
				"The invoice export to the ledger takes twenty seconds, can you find out why?",
				tt.cause,
				"I looked again and the invoice export still takes twenty seconds.",
				tt.later)
			got := recallFor(t, db, defaults(), "Why was the invoice export to the ledger so slow?")
			if !strings.Contains(got, tt.cause) || strings.Contains(got, ConflictOpen) {
				t.Errorf("want %q, and no warning:\n%s", tt.cause, got)
			}
		})
	}
}

// A stored message that ends right after "turned out to be" names no cause;
// recalling it must not fail.
func TestDiagnosisCutAfterItsLinkIsRecalled(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "debug", day,
		"The invoice export to the ledger takes twenty seconds, can you find out why?",
		"I profiled the invoice export to the ledger. The root cause turned out to be")
	got := recallFor(t, db, defaults(), "Why was the invoice export to the ledger so slow?")
	if !strings.Contains(got, "profiled the invoice export") {
		t.Errorf("want the message recalled:\n%s", got)
	}
}

// A cause that names a long path is clipped in the warning's note; the
// statement beside it shows it whole.
func TestLongCauseIsClippedInTheNote(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	long := "/srv/ledger/exports/" + strings.Repeat("throttle-settings-", 8) + "invoice.yaml"
	say(t, db, "debug", day,
		"The invoice export to the ledger takes twenty seconds, can you find out why?",
		"The problem is the PDF renderer re-downloading its fonts for every invoice of the export.",
		"I cached the fonts and the invoice export still takes twenty seconds.",
		"The real problem is "+long+" capping the ledger API to two requests per second.")
	got := recallFor(t, db, defaults(), "Why was the invoice export to the ledger so slow?")
	i := strings.Index(got, "cause: ")
	if i < 0 {
		t.Fatalf("no diagnosis warning:\n%s", got)
	}
	note := got[i:]
	note = note[:strings.Index(note, " was named later")]
	if strings.Contains(note, long) || !strings.Contains(note, "…") || len(note) > len("cause: ")+100+len("…")+len(" (2006-01-02)") {
		t.Errorf("want the cause clipped to about 100 bytes in the note: %q", note)
	}
}

// Causes listed under a heading ("## Root causes of …:") and one named
// later as the real one: the first listed is warned about as replaced.
func TestListedCauseRevisedIsWarned(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "debug", day,
		"The invoice export to the ledger takes twenty seconds, can you find out why?",
		"I've found the issues:\n\n## Root causes of the slow invoice export:\n\n1. **Font re-downloads**: the PDF renderer fetches its fonts for every invoice\n2. **Sequential ledger calls**: each invoice waits for the one before\n\nLet me fix these.",
		"I cached the fonts and batched the calls; the invoice export still takes twenty seconds.",
		"The real problem is the ledger API throttling us to two requests per second during the export.")
	wantCauseReplaced(t, recallFor(t, db, defaults(), "Why was the invoice export to the ledger so slow?"), "Font re-downloads", "throttling")
}

// A cause's warning quotes both statements whole: it is kept room for
// with the newer message and may stand for the older (Warning.standsFor).
func TestCauseWarningIsKeptAndStandsFor(t *testing.T) {
	t.Parallel()
	older := messageItem(store.Event{ID: 1, Type: store.TypeAgentResponse, SessionID: "debug", Time: day},
		"The problem is the PDF renderer re-downloading its fonts for every invoice.")
	newer := messageItem(store.Event{ID: 2, Type: store.TypeAgentResponse, SessionID: "debug", Time: day.Add(time.Hour)},
		"The real problem is the ledger API throttling us to two requests per second.")
	ws := diagnosisWarnings([]Item{newer, older}, map[[2]int64]bool{})
	if len(ws) != 1 || !ws[0].kept || !ws[0].standsFor || ws[0].A.CID != older.CID {
		t.Errorf("diagnosisWarnings = %+v; want one kept warning standing for %s", ws, older.CID)
	}
}

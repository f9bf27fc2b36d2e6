package recall

import (
	"context"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestQuestionFindsMemory: a prompt that shares no word with a memory's
// title, body, subject or quote, only with a question the memory answers,
// gets the memory; the same store without the question injects nothing.
func TestQuestionFindsMemory(t *testing.T) {
	t.Parallel()
	const prompt = "Where do the nightly invoices get generated?"
	for _, withQuestion := range []bool{false, true} {
		db := storetest.Open(t)
		put(t, db, "preference", "css", "Prefer CSS grid over flexbox for layouts", "I'd rather use CSS grid for layouts", 0)
		e := put(t, db, "fact", "billing cron", "Billing cron runs batch.py at 02:00", "Billing cron runs batch.py at 02:00 on the worker box", 1)
		if withQuestion {
			again := e
			again.SessionID = "s9"
			again.Questions = []string{"Where do the nightly invoices get generated?"}
			again.Evidence = []store.Evidence{{SessionID: "s9", Quote: e.Evidence[0].Quote, Method: "exact", Confidence: 1}}
			if _, _, err := db.PutEntry(context.Background(), again); err != nil {
				t.Fatal(err)
			}
		}
		// The prompt is stored in its session before it is answered:
		// its own words are not the project's, and the memory's questions
		// still count them (review 203).
		say(t, db, "now", day.AddDate(0, 1, 0), prompt)
		got := recallIn(t, db, defaults(), "now", prompt)
		if found := strings.Contains(got, e.CID); found != withQuestion {
			t.Errorf("with the question %v: memory injected %v, want %v; context:\n%s", withQuestion, found, withQuestion, got)
		}
		if strings.Contains(got, "CSS") {
			t.Errorf("unrelated memory injected:\n%s", got)
		}
	}
}

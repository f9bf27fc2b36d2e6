package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Beyond rankBudget rows, a query is answered from the rows holding every
// term, then from those holding its rare terms: a rare term still finds its
// few rows among thousands that hold a common one.
func TestSearchLargeStore(t *testing.T) {
	ctx := context.Background()
	db := mustStore(t)
	const n = rankBudget + 1000
	evs := make([]store.Event, 0, n)
	for i := range n {
		text := fmt.Sprintf("alpha message %d", i)
		if i%2 == 0 {
			text += " beta"
		}
		if i == 77 || i == 4242 {
			text += " zebra"
		}
		evs = append(evs, store.Event{Time: day.Add(time.Duration(i) * time.Second), Type: store.TypeUserPrompt, SessionID: fmt.Sprintf("s%d", i/50),
			Project: proj, Text: text, DedupeKey: fmt.Sprintf("k%d", i)})
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		t.Fatal(err)
	}
	res, err := Search(ctx, db, SearchOptions{Query: "alpha zebra", Project: proj, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) < 2 || !strings.Contains(res[0].Text, "zebra") || !strings.Contains(res[1].Text, "zebra") {
		t.Errorf("alpha zebra: the two zebra rows are not first: %+v", res)
	}
	res, err = Search(ctx, db, SearchOptions{Query: "alpha beta", Project: proj, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !strings.Contains(r.Text, "beta") {
			t.Errorf("alpha beta: a row without beta ranks in the top 10: %q", r.Text)
		}
	}
}

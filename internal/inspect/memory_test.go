package inspect

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// A memory quoted in every session is read with its first quote and its
// latest, as many as asked for, and says how many it has.
func TestLoadMemoryQuotes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	const sessions = 12
	var evidence []store.Evidence
	for i := range sessions {
		s := fmt.Sprintf("s%02d", i)
		quote := fmt.Sprintf("we run the tests with vitest, said in session %d", i)
		var id int64
		if err := db.Update(ctx, func(tx *store.Tx) error {
			res, err := tx.Append(ctx, store.Event{Time: t0.Add(time.Duration(i) * time.Hour), Type: store.TypeUserPrompt, SessionID: s,
				Project: "/p", DedupeKey: "prompt:" + s, Text: "Reminder: " + quote + "."})
			if err == nil {
				id = res.IDs[0]
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		evidence = append(evidence, store.Evidence{EventID: id, SessionID: s, Quote: quote, SpanStart: len("Reminder: "),
			SpanEnd: len("Reminder: ") + len(quote), Method: "exact", Confidence: 1})
	}
	x, _, err := db.PutEntry(ctx, store.Entry{Project: "/p", SessionID: "s00", Type: "decision", Title: "Tests run with vitest",
		ClaimKey: "test runner|vitest", Stage: store.StageVerified, Created: t0, Evidence: evidence})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		max  int
		want []int
	}{
		{0, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{5, []int{1, 9, 10, 11, 12}},
		{1, []int{1}},
		{12, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{50, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
	} {
		m, err := LoadMemory(ctx, db, NewSessions(db), x.CID, 1, tt.max)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, v := range m.Evidence {
			got = append(got, v.N)
			if v.Event == nil || v.Quote != evidence[v.N-1].Quote {
				t.Errorf("max %d: quote %d is %q with message %v, want %q with its message", tt.max, v.N, v.Quote, v.Event, evidence[v.N-1].Quote)
			}
		}
		if !slices.Equal(got, tt.want) || m.Quotes != sessions {
			t.Errorf("max %d: quotes %v of %d, want %v of %d", tt.max, got, m.Quotes, tt.want, sessions)
		}
	}
}

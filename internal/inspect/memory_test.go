package inspect

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// A memory quoted in every session is read with its first quote and its
// latest, as many as asked for, and says how many it has.
func TestLoadMemoryQuotes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	const sessions = 12
	quote := func(i int) string { return fmt.Sprintf("we run the tests with vitest, said in session %d", i) }
	x := storetest.QuotedEntry(t, db, "/p", "Tests run with vitest", sessions, quote)
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
			if v.Event == nil || v.Quote != quote(v.N-1) {
				t.Errorf("max %d: quote %d is %q with message %v, want %q with its message", tt.max, v.N, v.Quote, v.Event, quote(v.N-1))
			}
		}
		if !slices.Equal(got, tt.want) || m.Quotes != sessions {
			t.Errorf("max %d: quotes %v of %d, want %v of %d", tt.max, got, m.Quotes, tt.want, sessions)
		}
		if note := m.Note(); (note == "") != (len(tt.want) == sessions) {
			t.Errorf("max %d: note %q with %d of %d quotes shown", tt.max, note, len(tt.want), sessions)
		}
		// The timeline takes the same quotes: each session has only its
		// quoted prompt, so it holds those messages and nothing else of
		// the conversation.
		items, left, err := Timeline(ctx, db, x, 2, tt.max)
		if err != nil {
			t.Fatal(err)
		}
		if left.Quotes != sessions-len(tt.want) {
			t.Errorf("max %d: the timeline says %d quotes left out, want %d", tt.max, left.Quotes, sessions-len(tt.want))
		}
		var quoted []string
		for _, it := range items {
			if it.Role != "lifecycle" {
				quoted = append(quoted, it.Text)
			}
		}
		var want []string
		for _, n := range tt.want {
			want = append(want, quote(n-1))
		}
		if !slices.Equal(quoted, want) {
			t.Errorf("max %d: the timeline holds %q, want %q", tt.max, quoted, want)
		}
	}
}

// A session imported after the memory's other sessions, but older than
// them, holds its first quote: quotes go by when they were said, not by
// when they were stored.
func TestLoadMemoryQuotesBySaid(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	quote := func(i int) string { return fmt.Sprintf("we deploy with Fly.io, said in session %d", i) }
	x := storetest.QuotedEntry(t, db, "/p", "We deploy with Fly.io", 6, quote)
	const old = "we deploy with Fly.io, said a year before"
	var id int64
	if err := db.Update(ctx, func(tx *store.Tx) error {
		res, err := tx.Append(ctx, store.Event{Time: x.Created.AddDate(-1, 0, 0), Type: store.TypeUserPrompt, SessionID: "imported",
			Project: "/p", Text: old, DedupeKey: "imported:1"})
		if err == nil {
			id = res.IDs[0]
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.PutEntry(ctx, store.Entry{Project: "/p", SessionID: "imported", Type: x.Type, Title: x.Title, ClaimKey: x.ClaimKey,
		Stage: store.StageVerified, Created: x.Created.AddDate(-1, 0, 0),
		Evidence: []store.Evidence{{EventID: id, SessionID: "imported", Quote: old, SpanEnd: len(old), Method: "exact", Confidence: 1}}}); err != nil {
		t.Fatal(err)
	}
	m, err := LoadMemory(ctx, db, NewSessions(db), x.CID, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range m.Evidence {
		got = append(got, fmt.Sprint(v.N, " ", v.Quote))
	}
	want := []string{"1 " + old, "6 " + quote(4), "7 " + quote(5)}
	if m.Quotes != 7 || !slices.Equal(got, want) {
		t.Errorf("quotes %q of %d, want %q of 7", got, m.Quotes, want)
	}
	if note := m.Note(); note != "4 more quotes not shown; shown: the first said and the 2 latest" {
		t.Errorf("note %q", note)
	}
	if x, err = db.EntryByCID(ctx, x.CID); err != nil {
		t.Fatal(err)
	}
	items, left, err := Timeline(ctx, db, x, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range items {
		if it.Role == "evidence" {
			texts = append(texts, it.Text)
		}
	}
	if !slices.Equal(texts, []string{old, quote(4), quote(5)}) || left.Quotes != 4 {
		t.Errorf("the timeline quotes %q, %d left out; want the year-old one and the 2 latest, 4 left out", texts, left.Quotes)
	}
}

package inspect

import (
	"context"
	"fmt"
	"path/filepath"
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
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
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
		if u := unread(sessions, tt.max); u != sessions-len(tt.want) {
			t.Errorf("unread(%d, %d) = %d, want %d", sessions, tt.max, u, sessions-len(tt.want))
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

package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// writeApart appends n events, each in a write transaction of its own, as
// hooks write: a full-text segment each.
func writeApart(t *testing.T, db *store.DB, first, n int) {
	t.Helper()
	ctx := context.Background()
	for i := first; i < first+n; i++ {
		var own strings.Builder
		for j := range 30 {
			fmt.Fprintf(&own, " brackenx%dx%d", i, j)
		}
		ev := store.Event{Type: store.TypeUserPrompt, SessionID: "apart", Project: "/p", DedupeKey: fmt.Sprintf("apart%d", i),
			Text: "tundra gasket" + own.String()}
		if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, ev); return err }); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMergeWantedCountsFromLastMerge checks that the worker is wanted for
// the segments added since the last finished merge, not for what a level
// merge leaves (one a level, more levels as the store grows): after a
// merge, the count it left is recorded, and only MergeAbove more segments
// ask for the next.
func TestMergeWantedCountsFromLastMerge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	dir := t.TempDir()
	p := &Processor{DB: db, Log: slog.New(slog.DiscardHandler)}

	writeApart(t, db, 0, 60)
	if want, err := MergeWanted(ctx, db, dir); err != nil || !want {
		t.Fatalf("MergeWanted()=%v, %v after 60 transactions, want true", want, err)
	}
	p.MergeIndexes(ctx, dir)
	left, err := db.IndexSegments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, mergedFile))
	if err != nil || strings.TrimSpace(string(b)) != fmt.Sprint(left) {
		t.Fatalf("%s holds %q, %v; want %d, what the merge left", mergedFile, b, err, left)
	}
	if fi, err := os.Stat(filepath.Join(dir, mergedFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v, %v; want mode 0600", mergedFile, fi, err)
	}

	// A large store's level merge leaves many segments: with the floor at
	// the count there is now, nothing is wanted until more than MergeAbove
	// are added; over it by one more, a merge is.
	writeApart(t, db, 60, 30)
	n, err := db.IndexSegments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		floor int
		want  bool
	}{{n, false}, {n - MergeAbove, false}, {n - MergeAbove - 1, true}} {
		if c.floor < 0 {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, mergedFile), []byte(fmt.Sprint(c.floor)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if want, err := MergeWanted(ctx, db, dir); err != nil || want != c.want {
			t.Errorf("MergeWanted()=%v, %v with %d segments over a floor of %d, want %v", want, err, n, c.floor, c.want)
		}
	}
	// A file that is no count is no floor.
	if err := os.WriteFile(filepath.Join(dir, mergedFile), []byte("many"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := mergedLeft(dir); got != 0 {
		t.Fatalf("mergedLeft()=%d for a file that is no count, want 0", got)
	}
}

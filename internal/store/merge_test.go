package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fragment stores events first to first+n-1, each in a write transaction of its own, so
// that events_fts gets a segment per transaction (FTS5's automerge then
// keeps several per level).
func fragment(tb testing.TB, db *DB, first, n int) {
	tb.Helper()
	ctx := context.Background()
	words := []string{"harbor", "lantern", "copper", "meadow", "violet", "quartz", "ember", "willow"}
	for i := first; i < first+n; i++ {
		// Words of their own fill the index's pages, so that a merge of a
		// few pages takes several steps.
		var own strings.Builder
		for j := range 60 {
			fmt.Fprintf(&own, " tag%dx%d", i, j)
		}
		ev := Event{Type: TypeUserPrompt, SessionID: fmt.Sprintf("s%d", i%7), Project: "/p", DedupeKey: fmt.Sprintf("k%d", i),
			Text: fmt.Sprintf("%s %s %s note %d about item%d%s", words[i%8], words[(i*3)%8], words[(i*5+1)%8], i, i, own.String())}
		if _, err := appendEvents(ctx, db, ev); err != nil {
			tb.Fatal(err)
		}
	}
}

// mergeWorks reports whether one more full merge step would merge
// something in table, and rolls the step back.
func mergeWorks(tb testing.TB, db *DB, table string) bool {
	tb.Helper()
	ctx := context.Background()
	var changed int64
	errUndo := errors.New("undo")
	err := db.Update(ctx, func(t *Tx) error {
		var err error
		if changed, err = t.mergeStep(ctx, table, -MergePages); err != nil {
			return err
		}
		return errUndo
	})
	if !errors.Is(err, errUndo) {
		tb.Fatal(err)
	}
	return changed >= 2
}

// eventIDs is the ids of the events matching term, sorted.
func eventIDs(tb testing.TB, db *DB, term string) []int64 {
	tb.Helper()
	hits, err := db.SearchEvents(context.Background(), EventQuery{Match: MatchAny([]string{term}, false), Limit: 1000})
	if err != nil {
		tb.Fatal(err)
	}
	var ids []int64
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	return ids
}

func TestMergeIndexes(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	fragment(t, db, 0, 120)
	before, err := db.IndexSegments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if before < 3 {
		t.Fatalf("IndexSegments()=%d after 120 transactions, want several", before)
	}
	if !mergeWorks(t, db, "events_fts") {
		t.Fatal("a merge step on the fragmented index does nothing")
	}
	wantLantern, wantItem := eventIDs(t, db, "lantern"), eventIDs(t, db, "item77")

	m, err := db.MergeIndexes(ctx, true, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Done || m.Steps < 2 {
		t.Fatalf("MergeIndexes()=%+v, want done in several steps of 4 pages", m)
	}
	if mergeWorks(t, db, "events_fts") || mergeWorks(t, db, "entries_fts") {
		t.Fatal("a merge step after MergeIndexes still merges")
	}
	if got, err := db.IndexSegments(ctx); err != nil || got != 1 {
		t.Fatalf("IndexSegments()=%d, %v after the merge, want 1 (events_fts; entries_fts is empty)", got, err)
	}
	if got := eventIDs(t, db, "lantern"); !slices.Equal(got, wantLantern) {
		t.Errorf("lantern after the merge: %v, want %v", got, wantLantern)
	}
	if got := eventIDs(t, db, "item77"); !slices.Equal(got, wantItem) {
		t.Errorf("item77 after the merge: %v, want %v", got, wantItem)
	}
	if m, err := db.MergeIndexes(ctx, true, 0, 0); err != nil || m.Steps != 0 || !m.Done {
		t.Fatalf("MergeIndexes() on a merged store = %+v, %v; want no step, done", m, err)
	}
}

// TestMergeIndexesLevels checks the merge a worker runs after a session:
// it merges the small segments the session's transactions left, not the
// large one an earlier merge made, so it takes fewer steps than a full
// merge of the same index, and leaves at most one segment a level.
func TestMergeIndexesLevels(t *testing.T) {
	ctx := context.Background()
	build := func() *DB {
		db := MustOpen(t)
		fragment(t, db, 0, 120)
		if _, err := db.MergeIndexes(ctx, true, 0, 0); err != nil {
			t.Fatal(err)
		}
		fragment(t, db, 120, 40) // a session's writes
		return db
	}
	levels, full := build(), build()
	before, err := levels.IndexSegments(ctx)
	if err != nil || before < 4 {
		t.Fatalf("IndexSegments()=%d, %v after 40 more transactions, want several", before, err)
	}
	want := eventIDs(t, levels, "lantern")

	ml, err := levels.MergeIndexes(ctx, false, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	mf, err := full.MergeIndexes(ctx, true, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !ml.Done || ml.Steps == 0 || ml.Steps >= mf.Steps {
		t.Fatalf("level merge %+v, full merge %+v: want the level merge done in fewer steps", ml, mf)
	}
	if got, err := levels.IndexSegments(ctx); err != nil || got >= before {
		t.Fatalf("IndexSegments()=%d, %v after the level merge, want fewer than %d", got, err, before)
	}
	if m, err := levels.MergeIndexes(ctx, false, 4, 0); err != nil || m.Steps != 0 {
		t.Fatalf("a second level merge = %+v, %v; want no step", m, err)
	}
	if got := eventIDs(t, levels, "lantern"); !slices.Equal(got, want) {
		t.Errorf("lantern after the level merge: %v, want %v", got, want)
	}
}

// TestMergeIndexesLetsWritersIn checks that the merge holds the write lock
// for one step at a time: between two steps another connection, with no
// busy timeout to speak of, writes at once, and what it wrote is searchable
// after the merge.
func TestMergeIndexesLetsWritersIn(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fragment(t, db, 0, 120)
	other, err := Open(ctx, path, Options{BusyTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var wrote []int
	m, err := db.mergeIndexes(ctx, true, 4, 0, func(m Merged) {
		if m.Steps > 3 {
			return // TestFullMergeChasesNoWriter has a writer that never stops
		}
		writeBetween(t, other, m)
		wrote = append(wrote, m.Steps)
	})
	if err != nil || !m.Done {
		t.Fatalf("MergeIndexes()=%+v, %v", m, err)
	}
	if len(wrote) != 3 {
		t.Fatalf("wrote between %d of the first 3 steps", len(wrote))
	}
	if got := eventIDs(t, db, "saffron"); len(got) != len(wrote) {
		t.Fatalf("saffron finds %d events, want %d", len(got), len(wrote))
	}
}

// TestFullMergeChasesNoWriter checks that a full merge ends though a
// writer commits a segment between every two of its steps, having merged
// what the index held when it began: the steps after merge the writer's
// small segments only until the merge's cap.
func TestFullMergeChasesNoWriter(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	fragment(t, db, 0, 400)
	for i := range 40 { // entries_fts gets segments of its own
		key := fmt.Sprintf("k%d", i)
		if _, _, err := db.PutEntry(ctx, entry("s", key, "Entry "+key, "quote of "+key, StageVerified)); err != nil {
			t.Fatal(err)
		}
	}
	if !mergeWorks(t, db, "entries_fts") {
		t.Fatal("entries_fts has nothing to merge")
	}
	before, err := db.IndexSegments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	capped := 0
	for _, table := range ftsTables() {
		n, err := db.indexPages(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		capped += 2*(n/4+1) + 2
	}
	wrote := 0
	m, err := db.mergeIndexes(ctx, true, 4, 0, func(m Merged) {
		if m.Steps > capped {
			return // past the cap: the merge should have ended
		}
		writeBetween(t, db, m)
		wrote++
	})
	if err != nil || m.Steps > capped {
		t.Fatalf("MergeIndexes() with a writer between every step = %+v, %v; want at most %d steps", m, err, capped)
	}
	after, err := db.IndexSegments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after >= before {
		t.Errorf("%d segments after the merge, from %d and %d written meanwhile: it merged too little", after, before, wrote)
	}
	if got := eventIDs(t, db, "saffron"); len(got) != wrote {
		t.Fatalf("saffron finds %d events, want %d", len(got), wrote)
	}
	if mergeWorks(t, db, "entries_fts") {
		t.Fatal("entries_fts left unmerged")
	}
	// What is left is the writer's small segments: a level merge of them
	// takes a step or two, not the rewrite of the index a full merge
	// begun again at every step leaves unfinished.
	lm, err := db.MergeIndexes(ctx, false, 4, 0)
	t.Logf("full %+v, then level %+v", m, lm)
	if err != nil || lm.Steps > 3 {
		t.Errorf("a level merge after the full one took %+v, %v; want a few steps", lm, err)
	}
}

// TestFullMergeFinishesWhatItBegan checks that a full merge goes on with
// the merge its first step began when writers leave a level of two or
// three segments below it: with FTS5's default usermerge (4) those were no
// work for a positive step, and the merge stopped with its input unmerged.
func TestFullMergeFinishesWhatItBegan(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	big := func(i int) {
		var text strings.Builder
		for j := range 3000 {
			fmt.Fprintf(&text, " big%dw%d", i, j)
		}
		ev := Event{Type: TypeUserPrompt, SessionID: "big", Project: "/p", DedupeKey: fmt.Sprintf("big%d", i), Text: text.String()}
		if _, err := appendEvents(ctx, db, ev); err != nil {
			t.Fatal(err)
		}
	}
	big(0)
	big(1)
	if _, err := db.MergeIndexes(ctx, true, 0, 0); err != nil {
		t.Fatal(err)
	}
	big(2)
	big(3)
	small := 0
	m, err := db.mergeIndexes(ctx, true, 1, 0, func(m Merged) {
		if m.Steps == 1 {
			for range 3 {
				writeBetween(t, db, Merged{Steps: 100 + small})
				small++
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := db.IndexSegments(ctx); err != nil || n > 2 {
		t.Errorf("after a full merge with three small segments written after its first step: %d segments, %+v, %v; want the large ones merged", n, m, err)
	}
}

// writeBetween stores an event saying "saffron" in a write transaction of
// its own, as a hook does between two steps of a merge.
func writeBetween(t *testing.T, db *DB, m Merged) {
	t.Helper()
	ev := Event{Type: TypeUserPrompt, SessionID: "w", Project: "/p", DedupeKey: fmt.Sprintf("between%d", m.Steps), Text: "saffron between steps"}
	if _, err := appendEvents(context.Background(), db, ev); err != nil {
		t.Errorf("write between steps %d and %d: %v", m.Steps, m.Steps+1, err)
	}
}

// TestMergeIndexesStopsAtDeadline checks that a context that ends between
// steps stops the merge with what it committed, and that a later merge
// finishes it.
func TestMergeIndexesStopsAtDeadline(t *testing.T) {
	db := MustOpen(t)
	fragment(t, db, 0, 120)
	ctx, cancel := context.WithCancel(context.Background())
	m, err := db.mergeIndexes(ctx, true, 4, 0, func(m Merged) {
		if m.Steps == 2 {
			cancel()
		}
	})
	if err != nil || m.Done || m.Steps != 2 {
		t.Fatalf("MergeIndexes()=%+v, %v; want 2 steps, not done, no error", m, err)
	}
	if !mergeWorks(t, db, "events_fts") {
		t.Fatal("nothing left to merge after a stopped merge")
	}
	m, err = db.MergeIndexes(context.Background(), true, 4, 0)
	if err != nil || !m.Done || m.Steps == 0 {
		t.Fatalf("MergeIndexes() after the stop = %+v, %v; want done", m, err)
	}
	if mergeWorks(t, db, "events_fts") {
		t.Fatal("a merge step after the finished merge still merges")
	}
	// maxSteps bounds a run the same way.
	fragment(t, db, 120, 60)
	if m, err := db.MergeIndexes(context.Background(), true, 4, 1); err != nil || m.Steps != 1 || m.Done {
		t.Fatalf("MergeIndexes(maxSteps 1)=%+v, %v; want 1 step, not done", m, err)
	}
}

func TestStructureSegments(t *testing.T) {
	for _, tt := range []struct {
		b    []byte
		want int
		err  bool
	}{
		{[]byte{0, 0, 0, 5, 2, 3, 0x81, 0x68}, 3, false},
		{[]byte{0, 0, 0, 5, 0xff, 0, 0, 1, 4, 13, 0}, 13, false},
		{[]byte{0, 0, 0, 5, 1, 0x81, 0x02}, 130, false},
		{[]byte{0, 0, 0}, 0, true},
		{[]byte{0, 0, 0, 5, 0x81}, 0, true},
	} {
		got, err := structureSegments(tt.b)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("structureSegments(%x)=%d, %v; want %d, error %v", tt.b, got, err, tt.want, tt.err)
		}
	}
}

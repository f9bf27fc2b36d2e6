package store

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// MustOpen opens a fresh store in a temporary directory and closes it when the test ends.
func MustOpen(tb testing.TB) *DB {
	tb.Helper()
	db, err := Open(context.Background(), filepath.Join(tb.TempDir(), "memory.db"), Options{})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestOpenMigratesOnceAndIsPrivate(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "data", "memory.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustVersion(t, db), SchemaVersion(); got != want {
		t.Fatalf("version=%d, want %d", got, want)
	}
	if err := db.Update(ctx, func(tx *Tx) error {
		_, err := tx.Append(ctx, Event{Type: TypeUserPrompt, DedupeKey: "k1", Text: "hello"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(ctx, path, Options{}) // reopen is a no-op
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, _ := db.CountEvents(ctx, ""); n != 1 {
		t.Fatalf("events after reopen=%d, want 1", n)
	}
	for _, name := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatalf("stat %s: %v", name, err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("%s mode=%o, want 600", filepath.Base(name), got)
		}
	}
	if fi, _ := os.Stat(filepath.Dir(path)); fi.Mode().Perm() != 0o700 {
		t.Errorf("dir mode=%o, want 700", fi.Mode().Perm())
	}
}

func mustVersion(t *testing.T, db *DB) int {
	t.Helper()
	v, err := db.Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestAppendDedupes(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	ev := Event{Type: TypeUserPrompt, SessionID: "s1", Project: "/p", DedupeKey: "prompt:s1:a", Text: "use RS256",
		Payload: json.RawMessage(`{ "a" : 1 }`), Time: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	r, err := appendEvents(ctx, db, ev, ev)
	if err != nil {
		t.Fatal(err)
	}
	if r.Added != 1 || r.Duplicates != 1 {
		t.Fatalf("Append=%+v, want 1 added 1 duplicate", r)
	}
	r, err = appendEvents(ctx, db, ev)
	if err != nil || r.Added != 0 {
		t.Fatalf("re-Append=%+v, %v; want nothing added", r, err)
	}
	got, err := db.Event(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Payload) != `{"a":1}` || got.Checksum == "" || !got.Time.Equal(ev.Time) {
		t.Fatalf("stored %+v", got)
	}
	if _, err := db.Event(ctx, 99); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Event(99) err=%v, want ErrNotFound", err)
	}
	if err := db.Update(ctx, func(tx *Tx) error { _, err := tx.Append(ctx, Event{Type: "x"}); return err }); err == nil {
		t.Fatal("Append without dedupe key succeeded")
	}
	if err := db.Update(ctx, func(tx *Tx) error {
		_, err := tx.Append(ctx, Event{Type: "x", DedupeKey: "bad", Payload: json.RawMessage(`{`)})
		return err
	}); err == nil {
		t.Fatal("Append with invalid payload succeeded")
	}
}

func TestAppendSameContent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	stop := Event{Type: TypeAgentResponse, SessionID: "s", DedupeKey: "stop:s:1", Text: "Done.\nAll tests pass.", SameContentAs: []KeyKind{KeyAny}}
	row := Event{Type: TypeAgentResponse, SessionID: "s", DedupeKey: "msg:s:m1", Text: "Done. All tests pass. ", SameContentAs: []KeyKind{KeyStop}}
	other := Event{Type: TypeAgentResponse, SessionID: "s", DedupeKey: "msg:s:m2", Text: "Done. All tests pass.", SameContentAs: []KeyKind{KeyStop}}
	if r, _ := appendEvents(ctx, db, stop); r.Added != 1 {
		t.Fatalf("stop copy not added")
	}
	// The transcript's row of the same answer is recognised as the same content.
	if r, _ := appendEvents(ctx, db, row); r.Added != 0 {
		t.Fatalf("transcript copy of the Stop answer was added")
	}
	// Two transcript rows with equal text are distinct answers and both kept.
	db2 := MustOpen(t)
	if r, _ := appendEvents(ctx, db2, row, other); r.Added != 2 {
		t.Fatalf("two distinct transcript answers: added %d, want 2", r.Added)
	}
	// And a Stop copy after the transcript row is recognised too.
	if r, _ := appendEvents(ctx, db2, stop); r.Added != 0 {
		t.Fatalf("Stop copy after the transcript row was added")
	}
	// Within one batch, a copy sees the events before it, as if stored.
	db3 := MustOpen(t)
	if r, _ := appendEvents(ctx, db3, stop, row, other); r.Added != 1 || r.Duplicates != 2 {
		t.Fatalf("the Stop copy and two transcript rows in one batch: added %d, %d duplicates; want 1 and 2", r.Added, r.Duplicates)
	}
	if r, _ := appendEvents(ctx, MustOpen(t), row, stop, other); r.Added != 2 {
		t.Fatalf("a transcript row, its Stop copy and another row in one batch: added %d, want 2", r.Added)
	}
}

func TestSessions(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	if err := db.Update(ctx, func(tx *Tx) error { return tx.TouchSession(ctx, Session{ID: "s", Source: "startup"}) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx *Tx) error {
		return tx.TouchSession(ctx, Session{ID: "s", Project: "/p", Cwd: "/p/x", TranscriptPath: "/t.jsonl", Source: "resume"})
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.AdvanceOffset(ctx, "s", 0, 100) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.AdvanceOffset(ctx, "s", 0, 50) }); err != nil { // never backwards
		t.Fatal(err)
	}
	// A read that began where the offset no longer is, for another hook
	// set it back to read a replaced transcript from its start, moves
	// nothing.
	if err := db.Update(ctx, func(tx *Tx) error {
		if err := tx.SetOffset(ctx, "s", 40); err != nil {
			return err
		}
		return tx.AdvanceOffset(ctx, "s", 100, 900)
	}); err != nil {
		t.Fatal(err)
	}
	if s, err := db.Read().Session(ctx, "s"); err != nil || s.Offset != 40 {
		t.Fatalf("offset %d (%v), want 40: a stale read moved it on", s.Offset, err)
	}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.AdvanceOffset(ctx, "s", 40, 100) }); err != nil {
		t.Fatal(err)
	}
	s, err := db.Read().Session(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if s.Project != "/p" || s.Cwd != "/p/x" || s.TranscriptPath != "/t.jsonl" || s.Source != "startup" || s.Offset != 100 {
		t.Fatalf("session=%+v", s)
	}
	if _, err := db.Read().Session(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("err=%v, want ErrNotFound", err)
	}
}

func TestSearchEvents(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	err := db.Update(ctx, func(tx *Tx) error {
		_, err := tx.Append(ctx,
			Event{Type: TypeUserPrompt, SessionID: "a", Project: "/p", DedupeKey: "1", Text: "Sign tokens with RS256 keys in ./keys"},
			Event{Type: TypeAgentResponse, SessionID: "a", Project: "/p", DedupeKey: "2", Text: "The CSS grid is broken on mobile"},
			Event{Type: TypeUserPrompt, SessionID: "b", Project: "/q", DedupeKey: "3", Text: "RS256 elsewhere"},
		)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{"rs256", "tokens"}, false), Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].DedupeKey != "1" || hits[0].Score <= 0 {
		t.Fatalf("hits=%+v", hits)
	}
}

// FuzzMatchAny checks that no term, however hostile, makes an FTS5 query fail.
func FuzzMatchAny(f *testing.F) {
	for _, s := range []string{`foo-bar"`, `"`, `a OR b`, `NEAR(a b)`, `col:x`, `^x`, `*`, `x*`, `(`, `AND`, "한국어", "\x00", "a\"\"b"} {
		f.Add(s, true)
	}
	db, err := Open(context.Background(), filepath.Join(f.TempDir(), "memory.db"), Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(context.Background(), func(tx *Tx) error {
		_, err := tx.Append(context.Background(), Event{Type: "t", DedupeKey: "k", Text: "some text here"})
		return err
	}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, term string, prefix bool) {
		for _, m := range []Match{MatchAny([]string{term, "text"}, prefix), MatchAll([]string{term}, prefix)} {
			if _, err := db.SearchEvents(context.Background(), EventQuery{Match: m}); err != nil {
				t.Fatalf("SearchEvents(%+v) = %s: %v", m, m.expr(), err)
			}
			if _, err := db.SearchEntries(context.Background(), EntryQuery{Match: m}); err != nil {
				t.Fatalf("SearchEntries(%+v) = %s: %v", m, m.expr(), err)
			}
			if _, err := db.CountEventMatches(context.Background(), m, 10); err != nil {
				t.Fatalf("CountEventMatches(%+v) = %s: %v", m, m.expr(), err)
			}
		}
	})
}

// appendEvents is Tx.Append in a transaction of its own.
func appendEvents(ctx context.Context, db *DB, evs ...Event) (r AppendResult, err error) {
	err = db.Update(ctx, func(tx *Tx) error {
		r, err = tx.Append(ctx, evs...)
		return err
	})
	return r, err
}

// putEntries is Tx.PutEntries in a transaction of its own.
func putEntries(ctx context.Context, db *DB, ws []EntryWrite) (stored []Entry, created []bool, err error) {
	err = db.Update(ctx, func(tx *Tx) error {
		stored, created, err = tx.PutEntries(ctx, ws)
		return err
	})
	return stored, created, err
}

// addConflicts is Tx.AddConflicts in a transaction of its own.
func addConflicts(ctx context.Context, db *DB, cs []ConflictWrite) (n int, err error) {
	err = db.Update(ctx, func(tx *Tx) error {
		n, err = tx.AddConflicts(ctx, cs)
		return err
	})
	return n, err
}

// A term given twice is written once: FTS5 would read its document list twice.
func TestMatchTermsOnce(t *testing.T) {
	if got, want := MatchAny([]string{"port", "listens", "port", ""}, true).expr(), `"port"* OR "listens"*`; got != want {
		t.Errorf("MatchAny = %s, want %s", got, want)
	}
	if got, want := MatchAll([]string{"a", "a"}, false).expr(), `"a"`; got != want {
		t.Errorf("MatchAll = %s, want %s", got, want)
	}
}

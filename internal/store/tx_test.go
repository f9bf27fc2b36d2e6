package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// ftsIntact runs FTS5's own integrity check on both full-text indexes,
// which compares each index with its content table.
func ftsIntact(t *testing.T, db *DB) {
	t.Helper()
	for _, tab := range []string{"events_fts", "entries_fts"} {
		if _, err := db.SQL().Exec(fmt.Sprintf(`INSERT INTO %s(%s, rank) VALUES ('integrity-check', 1)`, tab, tab)); err != nil {
			t.Fatalf("%s integrity-check: %v", tab, err)
		}
	}
}

// TestIndexAtCommit checks that rows are searchable once their transaction
// commits, that rows a savepoint or a rollback undid are not indexed, and
// that forget's deletes and edits keep the indexes consistent.
func TestIndexAtCommit(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	search := func(term string) int {
		t.Helper()
		hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{term}, false), Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		return len(hits)
	}
	ev := func(key, text string) Event {
		return Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: key, Text: text}
	}

	tx, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, ev("1", "kept alpaca")); err != nil {
		t.Fatal(err)
	}
	undone := errors.New("undo")
	if err := tx.Savepoint(ctx, func() error {
		if _, err := tx.Append(ctx, ev("2", "undone bison")); err != nil {
			return err
		}
		return undone
	}); !errors.Is(err, undone) {
		t.Fatalf("Savepoint: %v, want the callback's error", err)
	}
	e := Entry{Project: "/p", SessionID: "s", Type: "decision", Title: "use the capybara queue", ClaimKey: "k1", Stage: StageVerified,
		Evidence: []Evidence{{SessionID: "s", Quote: "capybara", Method: "exact", Confidence: 1}}}
	if _, _, err := tx.PutEntries(ctx, []EntryWrite{{Entry: e}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if search("alpaca") != 1 || search("bison") != 0 {
		t.Errorf("after commit: alpaca %d hits, bison %d; want 1 and 0", search("alpaca"), search("bison"))
	}
	hits, err := db.SearchEntries(ctx, EntryQuery{Match: MatchAny([]string{"capybara"}, false), Project: "/p"})
	if err != nil || len(hits) != 1 {
		t.Errorf("entry search after commit: %d hits, %v", len(hits), err)
	}
	ftsIntact(t, db)

	// A transaction rolled back indexes nothing.
	tx, err = db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, ev("3", "rolled dingo")); err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	if search("dingo") != 0 {
		t.Error("a rolled-back event is searchable")
	}
	ftsIntact(t, db)

	// Single-statement writes and forget (deletes and redactions through the
	// remaining triggers) keep both indexes consistent.
	if err := db.Update(ctx, func(tx *Tx) error { _, err := tx.Append(ctx, ev("4", "echidna capybara"), ev("5", "")); return err }); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{Phrase: "capybara"}); err != nil {
		t.Fatal(err)
	}
	if search("echidna") != 0 || search("alpaca") != 1 {
		t.Errorf("after forget: echidna %d hits, alpaca %d; want 0 and 1", search("echidna"), search("alpaca"))
	}
	ftsIntact(t, db)
	if err := db.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	ftsIntact(t, db)
}

// TestIndexPicksUpStrayRows: a row inserted without being indexed (as a
// process of a build from before migration 0003 would insert it, once
// another process had upgraded the file) is indexed by the next transaction
// that inserts into its table.
func TestIndexPicksUpStrayRows(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	if err := db.Update(ctx, func(tx *Tx) error {
		_, err := tx.Append(ctx, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "1", Text: "first alpaca"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(`INSERT INTO events (ts, type, session_id, project, text, dedupe_key, checksum)
		VALUES ('2026-01-01T00:00:00.000000Z', 'user_prompt', 's', '/p', 'stray bison', 'old-build', 'x')`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(`INSERT INTO entries (cid, project, session_id, type, title, claim_key, stage, created_at)
		VALUES ('mem:0ld0ld', '/p', 's', 'fact', 'stray dingo', 'k-old', 'verified', '2026-01-01T00:00:00.000000Z')`); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx *Tx) error {
		_, err := tx.Append(ctx, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "2", Text: "second capybara"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	e := Entry{Project: "/p", SessionID: "s", Type: "decision", Title: "use the echidna queue", ClaimKey: "k1", Stage: StageVerified,
		Evidence: []Evidence{{SessionID: "s", Quote: "echidna", Method: "exact", Confidence: 1}}}
	if _, _, err := putEntries(ctx, db, []EntryWrite{{Entry: e}}); err != nil {
		t.Fatal(err)
	}
	for _, term := range []string{"alpaca", "bison", "capybara"} {
		hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{term}, false), Project: "/p"})
		if err != nil || len(hits) != 1 {
			t.Errorf("events matching %q: %d, %v; want 1", term, len(hits), err)
		}
	}
	for _, term := range []string{"dingo", "echidna"} {
		hits, err := db.SearchEntries(ctx, EntryQuery{Match: MatchAny([]string{term}, false), Project: "/p"})
		if err != nil || len(hits) != 1 {
			t.Errorf("entries matching %q: %d, %v; want 1", term, len(hits), err)
		}
	}
	ftsIntact(t, db)
}

// TestReadRefusesWrites checks that a reader's writes fail with ErrReadOnly
// and leave nothing behind, while an Update whose fn fails is rolled back.
func TestReadRefusesWrites(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	r := db.Read()
	ev := Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "k", Text: "hello"}
	if _, err := r.Append(ctx, ev); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Read().Append: %v, want ErrReadOnly", err)
	}
	if err := r.TouchSession(ctx, Session{ID: "s", Project: "/p"}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Read().TouchSession: %v, want ErrReadOnly", err)
	}
	failed := errors.New("fn failed")
	err := db.Update(ctx, func(tx *Tx) error {
		if _, err := tx.Append(ctx, ev); err != nil {
			return err
		}
		return failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("Update: %v, want fn's error", err)
	}
	if evs, err := r.Events(ctx, EventFilter{}); err != nil || len(evs) != 0 {
		t.Fatalf("events after a failed Update = %d (%v), want 0", len(evs), err)
	}
	if _, err := r.Session(ctx, "s"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("session after a refused write: %v, want ErrNotFound", err)
	}
}

// TestReadStmts checks the reader's statement cache: a query is prepared
// once, a query with an IN list is not kept, the cache never holds more
// than readStmts, and queries past that still run, while the rows of a
// cached statement are open.
func TestReadStmts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	if _, err := appendEvents(ctx, db, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "k1", Text: "one"},
		Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "k2", Text: "two"}); err != nil {
		t.Fatal(err)
	}
	q := `SELECT text FROM events ORDER BY id`
	a, err := db.readStmt(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := db.readStmt(ctx, q); a != b {
		t.Error("the same query was prepared twice")
	}
	if st, err := db.readStmt(ctx, `SELECT text FROM events WHERE id IN (?,?)`); st != nil || err != nil {
		t.Errorf("a query with an IN list was kept (%v)", err)
	}
	rows, err := db.Read().query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for i := range readStmts + 5 {
		var n int
		if err := db.Read().queryRow(ctx, fmt.Sprintf(`SELECT %d + count(*) FROM events`, i)).Scan(&n); err != nil || n != i+2 {
			t.Fatalf("query %d: %d, %v", i, n, err)
		}
	}
	if len(db.stmts) > readStmts {
		t.Errorf("the cache holds %d statements, want at most %d", len(db.stmts), readStmts)
	}
	var got []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if err := rows.Err(); err != nil || len(got) != 2 {
		t.Errorf("rows of the cached statement: %q, %v", got, err)
	}
}

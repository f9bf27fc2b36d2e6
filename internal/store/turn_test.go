package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// TestBulkWriterLetsOthersGoFirst: a writer (a hook) that waits for the write
// lock while a bulk writer (import) holds it is seen waiting, and it writes
// before the bulk writer's next transaction begins, rather than polling
// until its busy timeout while the bulk writer takes the lock back after
// every commit.
func TestBulkWriterLetsOthersGoFirst(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	bulk := openAt(t, path, Options{Bulk: true})
	hook := openAt(t, path, Options{BusyTimeout: 5 * time.Second})
	ev := func(key string) Event {
		return Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: key, Text: key}
	}
	if bulk.OthersWaiting() || hook.OthersWaiting() {
		t.Fatal("OthersWaiting with no other writer")
	}

	tx, err := bulk.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, ev("bulk-1")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		err := hook.Update(ctx, func(tx *Tx) error { _, err := tx.Append(ctx, ev("hook")); return err })
		done <- err
	}()
	waitForOthers(t, bulk)
	select {
	case err := <-done:
		t.Fatalf("the other writer finished while the bulk writer held the lock: %v", err)
	default:
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	tx, err = bulk.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.queryRow(ctx, `SELECT count(*) FROM events WHERE dedupe_key = 'hook'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatal("the bulk writer's next transaction began before the waiting writer wrote")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if bulk.OthersWaiting() {
		t.Error("OthersWaiting after the other writer finished")
	}
}

// TestBeginWaitsForTheLock: Begin takes the write lock once another
// connection releases it within the busy timeout, and gives up with
// SQLITE_BUSY when it does not.
func TestBeginWaitsForTheLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	holder := openAt(t, path, Options{})
	open := func(busy time.Duration) *DB { return openAt(t, path, Options{BusyTimeout: busy}) }
	patient, hasty := open(5*time.Second), open(50*time.Millisecond)
	patient.sql.SetMaxOpenConns(1) // so the check at the end asks Begin's connection

	held, err := holder.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hasty.Begin(ctx); !isBusy(err) {
		t.Fatalf("Begin with the lock held past the busy timeout: %v, want SQLITE_BUSY", err)
	}
	// The rollback ends its turn after SQLite has let go of the lock: wait for
	// it, or the deferred Close races with its unlock of the turn file.
	rolledBack := make(chan struct{})
	time.AfterFunc(200*time.Millisecond, func() { held.Rollback(); close(rolledBack) })
	defer func() { <-rolledBack }()
	tx, err := patient.Begin(ctx)
	if err != nil {
		t.Fatalf("Begin after the lock was released: %v", err)
	}
	if _, err := tx.Append(ctx, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "k", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	// The connection's busy timeout is back for its other statements.
	var ms int
	if err := patient.sql.QueryRow("PRAGMA busy_timeout").Scan(&ms); err != nil || ms != 5000 {
		t.Errorf("busy_timeout after Begin: %d, %v; want 5000", ms, err)
	}
}

// TestBulkWritersAlternate: a bulk writer waiting for the lock is seen by
// the one holding it, which then lets it go first, as with any other writer.
func TestBulkWritersAlternate(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	open := func() *DB { return openAt(t, path, Options{Bulk: true, BusyTimeout: 5 * time.Second}) }
	a, b := open(), open()
	tx, err := a.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	began := beginAsync(t, b)
	waitForOthers(t, a)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	next := beginAsync(t, a)
	var other *Tx
	select {
	case other = <-began:
	case tx = <-next:
		t.Fatal("the bulk writer took the lock back before the one waiting")
	}
	if other == nil {
		t.FailNow()
	}
	if _, err := other.Append(ctx, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "b", Text: "b"}); err != nil {
		t.Fatal(err)
	}
	if err := other.Commit(); err != nil {
		t.Fatal(err)
	}
	if tx = <-next; tx == nil {
		t.FailNow()
	}
	tx.Rollback()
}

// waitForOthers waits for bulk to see another writer waiting, a minute at
// most: a hang guard, not a measure of how soon (a busy machine may not run
// the other writer's goroutine for seconds).
func waitForOthers(t *testing.T, bulk *DB) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !bulk.OthersWaiting(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the bulk writer never saw the other writer waiting")
		}
	}
}

// beginAsync runs db.Begin on a goroutine of its own and sends the Tx (nil
// if Begin failed, which fails the test).
func beginAsync(t *testing.T, db *DB) <-chan *Tx {
	ch := make(chan *Tx)
	go func() {
		tx, err := db.Begin(context.Background())
		if err != nil {
			t.Error(err)
		}
		ch <- tx
	}()
	return ch
}

// TestBulkWriterYieldsHalfTheTime: under writers that keep a turn busy, a
// bulk writer waits its longest, then for as long waits only long enough to
// hand the lock over, rather than its longest before each transaction.
func TestBulkWriterYieldsHalfTheTime(t *testing.T) {
	defer func(d time.Duration) { maxYield = d }(maxYield)
	maxYield = time.Second
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	bulk := openAt(t, path, Options{Bulk: true})
	other := openAt(t, path, Options{})
	other.turn.take() // a writer inside its turn throughout
	defer other.turn.done()
	if !bulk.OthersWaiting() {
		t.Fatal("the bulk writer does not see the other writer's turn")
	}
	if waited := bulk.turn.yield(ctx); waited < maxYield {
		t.Fatalf("the first yield waited %v with the other writer inside its turn, want its longest, %v", waited, maxYield)
	}
	// The bound is a hundred times the hand-over: a hang guard, not a stopwatch.
	if waited := bulk.turn.yield(ctx); waited < handOver || waited >= maxYield {
		t.Errorf("the next yield waited %v, want the hand-over, %v: having waited its longest, the bulk writer goes first", waited, handOver)
	}
}

// TestBulkWriterHandsOverInItsWindow: a bulk writer going first after a long
// wait still lets a writer that waits for the lock take it between two of
// its transactions: committing early alone hands nothing over, the bulk
// writer beginning again before the other tries again.
func TestBulkWriterHandsOverInItsWindow(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	bulk := openAt(t, path, Options{Bulk: true})
	hook := openAt(t, path, Options{BusyTimeout: time.Minute})
	bulk.turn.free = time.Now().Add(time.Hour) // it has waited its longest
	const rounds = 300
	started, hookDone := make(chan struct{}), make(chan int, 1)
	var bulkRounds int
	go func() {
		<-started
		err := hook.Update(ctx, func(tx *Tx) error {
			_, err := tx.Append(ctx, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "hook", Text: "hook"})
			return err
		})
		if err != nil {
			t.Error(err)
		}
		hookDone <- 0
	}()
	for i := range rounds {
		tx, err := bulk.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Append(ctx, Event{Type: TypeUserPrompt, SessionID: "b", Project: "/p", DedupeKey: fmt.Sprint("bulk-", i), Text: "bulk"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // a transaction's work
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			close(started)
		}
		select {
		case <-hookDone:
			bulkRounds = i + 1
		default:
			continue
		}
		break
	}
	if bulkRounds == 0 {
		t.Errorf("the waiting writer never got the lock in %d of the bulk writer's transactions", rounds)
	}
}

// openAt opens the store at path for the test, closed when it ends.
func openAt(t *testing.T, path string, opt Options) *DB {
	t.Helper()
	db, err := Open(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

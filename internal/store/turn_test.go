package store

import (
	"context"
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
	bulk, err := Open(ctx, path, Options{Bulk: true})
	if err != nil {
		t.Fatal(err)
	}
	defer bulk.Close()
	hook, err := Open(ctx, path, Options{BusyTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer hook.Close()
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
		_, err := hook.Append(ctx, ev("hook"))
		done <- err
	}()
	for deadline := time.Now().Add(5 * time.Second); !bulk.OthersWaiting(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the bulk writer never saw the other writer waiting")
		}
	}
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

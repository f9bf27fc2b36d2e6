package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A store opened with KeepWAL leaves its committed writes in the WAL at
// close, and the next process reads them from there; a store opened without
// it checkpoints them into the database file and removes the WAL.
func TestKeepWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	// Created first: the process that creates or upgrades the schema copies
	// the WAL at close (TestKeepWALSmallMigrationCopied).
	created, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	created.Close()
	for i, key := range []string{"k1", "k2"} {
		db, err := Open(ctx, path, Options{KeepWAL: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Update(ctx, func(tx *Tx) error {
			_, err := tx.Append(ctx, Event{Type: TypeUserPrompt, DedupeKey: key, Text: "hello " + key})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path + "-wal")
		if err != nil || fi.Size() == 0 {
			t.Fatalf("after close %d the WAL is gone or empty (%v): the close checkpointed", i, err)
		}
		if _, err := os.Stat(path + "-shm"); err != nil {
			t.Fatalf("after close %d: %v", i, err)
		}
		if b, err := os.ReadFile(path); err != nil || bytes.Contains(b, []byte("hello "+key)) {
			t.Fatalf("after close %d the database file holds the write (%v): the close checkpointed", i, err)
		}
	}
	// A hook's page cache is small: it reads each page about once.
	db, err := Open(ctx, path, Options{KeepWAL: true})
	if err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := db.SQL().QueryRowContext(ctx, "PRAGMA cache_size").Scan(&pages); err != nil || pages != -256 {
		t.Errorf("cache_size = %d (%v), want -256", pages, err)
	}
	db.Close()
	// A read-only reader sees both writes through the WAL left behind.
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := ro.CountEvents(ctx, ""); err != nil || n != 2 {
		t.Fatalf("read-only: %d events (%v), want 2", n, err)
	}
	ro.Close()

	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := db.CountEvents(ctx, ""); err != nil || n != 2 {
		t.Fatalf("%d events (%v), want 2", n, err)
	}
	db.Close()
	if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
		t.Fatalf("a close without KeepWAL left the WAL (%v)", err)
	}
	db, err = Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, err := db.CountEvents(ctx, ""); err != nil || n != 2 {
		t.Fatalf("after the checkpoint: %d events (%v), want 2", n, err)
	}
}

// Processes that keep the WAL keep it short: a close that finds it past
// walLimit copies it into the database and truncates it, so no process
// starts by reading (and copying again) a WAL that only grows.
func TestKeepWALBounded(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	text := strings.Repeat("a long tool output line that fills pages ", 1000)
	n := 0
	truncated := false
	for i := range 40 {
		db, err := Open(ctx, path, Options{KeepWAL: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Update(ctx, func(tx *Tx) error {
			for j := range 5 {
				if _, err := tx.Append(ctx, Event{Type: TypeToolObservation, DedupeKey: fmt.Sprintf("k%d-%d", i, j), Text: fmt.Sprint(i, j, text)}); err != nil {
					return err
				}
				n++
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > walLimit {
			t.Fatalf("after close %d the WAL is %d bytes, past %d", i, fi.Size(), walLimit)
		}
		truncated = truncated || fi.Size() == 0
	}
	if !truncated {
		t.Fatal("the WAL never reached its limit: the test writes too little")
	}
	db, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, err := db.CountEvents(ctx, ""); err != nil || got != n {
		t.Fatalf("%d events (%v), want %d", got, err, n)
	}
}

// TestKeepWALReaderLeavesIt: a process that only read (the prompt hook)
// closes without copying a long WAL into the database, whoever grew it; the
// next writer's close does.
func TestKeepWALReaderLeavesIt(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	text := strings.Repeat("a long tool output line that fills pages ", 1000)
	// A writer that keeps its connection, as an import does, grows the WAL.
	importer, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer importer.Close()
	var evs []Event
	for i := range 100 {
		evs = append(evs, Event{Type: TypeToolObservation, DedupeKey: fmt.Sprint("k", i), Text: fmt.Sprint(i, text)})
	}
	if _, err := appendEvents(ctx, importer, evs...); err != nil {
		t.Fatal(err)
	}
	walSize := func() int64 {
		t.Helper()
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := walSize()
	if before <= walLimit {
		t.Fatalf("the WAL is %d bytes, not past %d: the test writes too little", before, walLimit)
	}
	reader, err := Open(ctx, path, Options{KeepWAL: true})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := reader.CountEvents(ctx, ""); err != nil || n != 100 {
		t.Fatalf("%d events (%v), want 100", n, err)
	}
	reader.Close()
	if after := walSize(); after != before {
		t.Errorf("a reader's close changed the WAL from %d to %d bytes", before, after)
	}
	writer, err := Open(ctx, path, Options{KeepWAL: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := appendEvents(ctx, writer, Event{Type: TypeUserPrompt, DedupeKey: "p", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	writer.Close()
	if after := walSize(); after > walLimit {
		t.Errorf("a writer's close left a WAL of %d bytes, past %d", after, walLimit)
	}
}

// TestKeepWALMigrationCopied: a hook that upgrades the schema of a large
// store leaves the WAL the migration wrote no longer than walLimit, though
// it stored no event: every later process would otherwise read it whole.
func TestKeepWALMigrationCopied(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Enough events that building the newest migration's index writes
	// more than walLimit to the WAL (checked below).
	if _, err := db.SQL().ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
		INSERT INTO events (ts, type, project, text, dedupe_key, checksum)
		SELECT printf('2026-01-01T00:00:%06dZ', i), 'user_prompt', '/home/dev/project-' || (i % 7), '', 'k' || i, 'c' FROM n`); err != nil {
		t.Fatal(err)
	}
	undoNewestMigration(t, db)
	db.Close()
	hook, err := Open(ctx, path, Options{KeepWAL: true})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := hook.Version(ctx); err != nil || v != SchemaVersion() {
		t.Fatalf("version %d (%v) after the upgrade, want %d", v, err, SchemaVersion())
	}
	// A later migration that writes little would leave nothing to copy.
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() <= walLimit {
		t.Fatalf("the migration left no WAL past %d bytes to copy (%v): the test needs a migration that writes more", walLimit, err)
	}
	hook.Close()
	if fi, err := os.Stat(path + "-wal"); err != nil {
		t.Fatal(err)
	} else if fi.Size() > walLimit {
		t.Errorf("the hook that migrated left a WAL of %d bytes, past %d", fi.Size(), walLimit)
	}
}

// TestKeepWALSmallMigrationCopied: a hook whose upgrade wrote less than
// walLimit leaves no WAL either; before, the migration's frames stayed until
// later writes grew the WAL past the limit, and every process read them at open.
func TestKeepWALSmallMigrationCopied(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `INSERT INTO events (ts, type, project, text, dedupe_key, checksum)
		VALUES ('2026-01-01T00:00:00.000000Z', 'user_prompt', '/home/dev/tiny', 'a note about the spare fan', 'k1', 'c')`); err != nil {
		t.Fatal(err)
	}
	undoNewestMigration(t, db)
	db.Close()
	hook, err := Open(ctx, path, Options{KeepWAL: true})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := hook.Version(ctx); err != nil || v != SchemaVersion() {
		t.Fatalf("version %d (%v) after the upgrade, want %d", v, err, SchemaVersion())
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 || fi.Size() > walLimit {
		t.Fatalf("the migration left a WAL of %v bytes (%v), want some under %d", fi.Size(), err, walLimit)
	}
	hook.Close()
	if fi, err := os.Stat(path + "-wal"); err != nil {
		t.Fatal(err)
	} else if fi.Size() != 0 {
		t.Errorf("the hook that migrated left a WAL of %d bytes, want it copied and truncated", fi.Size())
	}
}

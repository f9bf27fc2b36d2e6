package store

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

var updateV1 = flag.Bool("update-v1", false, "regenerate testdata/v1.db from migration 0001")

// v1Events is how many events testdata/v1.db holds.
const v1Events = 300

// writeV1 builds a store as the first release wrote it: migration 0001 only.
func writeV1(t *testing.T, path string) {
	os.Remove(path)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := migrations.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(b)); err != nil {
		t.Fatal(err)
	}
	for i := range v1Events {
		text := fmt.Sprintf("prompt %d: sign tokens with RS256 keys in ./keys, 토큰 %d", i, i)
		if _, err := db.Exec(`INSERT INTO events (ts, type, session_id, project, text, payload, dedupe_key, checksum) VALUES (?, 'user_prompt', ?, '/p', ?, '{}', ?, 'x')`,
			fmt.Sprintf("2026-01-01T00:%02d:00.000000Z", i%60), fmt.Sprintf("s%d", i/10), text, fmt.Sprintf("k%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO sessions (id, project, started_at, ingest_offset) VALUES ('s0', '/p', '2026-01-01T00:00:00.000000Z', 1234)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA user_version = 1`); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
}

// v1Copy copies testdata/v1.db to a temporary directory as memory.db and
// returns its path.
func v1Copy(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	copyFile(t, "testdata/v1.db", path)
	return path
}

// TestUpgradeFromV1 opens a database written by schema version 1: it migrates
// with every row intact, leaves a backup, and still finds its text.
func TestUpgradeFromV1(t *testing.T) {
	if *updateV1 {
		writeV1(t, "testdata/v1.db")
	}
	ctx := context.Background()
	path := v1Copy(t)
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.Version(ctx); v != SchemaVersion() {
		t.Fatalf("version %d after upgrade, want %d", v, SchemaVersion())
	}
	if n, _ := db.CountEvents(ctx, ""); n != v1Events {
		t.Fatalf("%d events after upgrade, want %d", n, v1Events)
	}
	s, err := db.Read().Session(ctx, "s0")
	if err != nil || s.Offset != 1234 {
		t.Fatalf("session after upgrade: %+v %v", s, err)
	}
	hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{"rs256"}, false), Limit: 1000})
	if err != nil || len(hits) != v1Events {
		t.Fatalf("search after upgrade: %d hits, %v", len(hits), err)
	}
	if _, err := os.Stat(path + ".v1.bak"); err != nil {
		t.Fatalf("no backup before the upgrade: %v", err)
	}
	var check string
	db.SQL().QueryRow("PRAGMA integrity_check").Scan(&check)
	if check != "ok" {
		t.Fatalf("integrity_check: %s", check)
	}
	ftsIntact(t, db)
	// The upgraded file takes new rows as this build writes them.
	if err := db.Update(ctx, func(tx *Tx) error {
		_, err := tx.Append(ctx, Event{Type: TypeUserPrompt, SessionID: "s0", Project: "/p", DedupeKey: "after-upgrade", Text: "rs256 after the upgrade"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{"rs256"}, false), Limit: 1000}); err != nil || len(hits) != v1Events+1 {
		t.Fatalf("search after a write: %d hits, %v", len(hits), err)
	}
	ftsIntact(t, db)
}

// TestFailedMigrationKeepsOldDatabase: when a migration fails, the database is
// left as it was, still usable by the old schema, and the backup exists.
func TestFailedMigrationKeepsOldDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := v1Copy(t)
	// Sabotage: a table that migration 0002 wants to create already exists.
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`CREATE TABLE entries (x)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	if _, err := Open(ctx, path, Options{}); err == nil {
		t.Fatal("migration over a conflicting table succeeded")
	}
	raw, _ = sql.Open("sqlite", "file:"+path)
	defer raw.Close()
	var v, n int
	raw.QueryRow("PRAGMA user_version").Scan(&v)
	raw.QueryRow("SELECT count(*) FROM events").Scan(&n)
	if v != 1 || n != v1Events {
		t.Fatalf("after a failed migration: version %d, %d events; want 1 and %d", v, n, v1Events)
	}
	if _, err := os.Stat(path + ".v1.bak"); err != nil {
		t.Fatalf("no backup: %v", err)
	}
}

// Before migration 0004 use_count counted injections: the upgrade moves those
// counts to inject_count and starts the use counts again from zero.
func TestUpgradeMovesInjectionCounts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "memory.db")
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"0001_init.sql", "0002_entries.sql", "0003_index_at_commit.sql"} {
		b, err := migrations.ReadFile("migrations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(string(b)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := raw.Exec(`INSERT INTO entries (cid, project, session_id, type, title, claim_key, created_at, last_used_at, use_count)
		VALUES ('mem:aaaaaa', '/p', 's', 'fact', 't', 'k', '2026-01-01T00:00:00.000000Z', '2026-02-01T00:00:00.000000Z', 3)`); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e, err := db.EntryByCID(context.Background(), "mem:aaaaaa")
	if err != nil {
		t.Fatal(err)
	}
	if e.InjectCount != 3 || e.UseCount != 0 || !e.LastUsed.IsZero() || e.LastInjected.Format("2006-01-02") != "2026-02-01" {
		t.Errorf("after upgrade: inject %d (last %v), use %d (last %v); want 3 (2026-02-01), 0 (never)", e.InjectCount, e.LastInjected, e.UseCount, e.LastUsed)
	}
}

// TestUpgradeKeepsNewestBackup: an upgrade's backup replaces those of earlier
// upgrades, which the newest copy holds all of; a store upgraded ten times
// does not keep ten copies of itself.
func TestUpgradeKeepsNewestBackup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := v1Copy(t)
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	undoNewestMigration(t, db) // the next upgrade
	db.Close()
	unrelated := path + ".v1.bak.note" // not a backup: left alone
	if err := os.WriteFile(unrelated, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if db, err = Open(ctx, path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.Backups()
	if want := fmt.Sprintf("%s.v%d.bak", path, SchemaVersion()-1); err != nil || len(got) != 1 || got[0] != want {
		t.Fatalf("backups after the second upgrade: %q (%v), want only %s", got, err, want)
	}
	if _, err := os.Stat(unrelated); err != nil {
		t.Errorf("a file that is not a backup was removed: %v", err)
	}
	// The copy is the store as it was before this upgrade.
	bak, err := sql.Open("sqlite", "file:"+got[0]+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer bak.Close()
	var v, n int
	bak.QueryRow("PRAGMA user_version").Scan(&v)
	if err := bak.QueryRow("SELECT count(*) FROM events").Scan(&n); err != nil || v != SchemaVersion()-1 || n != v1Events {
		t.Fatalf("the backup is at version %d and holds %d events (%v), want %d and %d", v, n, err, SchemaVersion()-1, v1Events)
	}
}

// undoNewestMigration makes a migration pending again, as a store written
// by the release before it is: it undoes what 0010_events_type.sql does,
// which is what tests of an upgrade in a hook need (it writes in proportion
// to the store). Migrations are recorded by name, so it need not be the
// newest one.
func undoNewestMigration(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	for _, q := range []string{`DROP INDEX events_type`, `DELETE FROM schema_migrations WHERE name = '0010_events_type'`,
		fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion()-1)} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenLeavesLargeUpgrade: an Open whose UpgradeUpTo the file is larger
// than neither copies nor migrates it, and says so with ErrOldSchema; one
// that allows the file's size upgrades it. A new file gets its schema
// whatever the limit: it holds nothing to copy.
func TestOpenLeavesLargeUpgrade(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := v1Copy(t)
	dir := filepath.Dir(path)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if db, err := Open(ctx, path, Options{UpgradeUpTo: fi.Size() - 1}); !errors.Is(err, ErrOldSchema) {
		if err == nil {
			db.Close()
		}
		t.Fatalf("Open of a file over its upgrade limit: %v, want ErrOldSchema", err)
	}
	if m, _ := filepath.Glob(path + ".v*"); len(m) > 0 {
		t.Errorf("an Open that did not upgrade left %q", m)
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var v int
	err = raw.QueryRow("PRAGMA user_version").Scan(&v)
	raw.Close()
	if err != nil || v != 1 {
		t.Fatalf("version %d (%v) after an Open that did not upgrade, want 1", v, err)
	}

	db, err := Open(ctx, path, Options{UpgradeUpTo: fi.Size()})
	if err != nil {
		t.Fatalf("Open within its upgrade limit: %v", err)
	}
	defer db.Close()
	if v, _ := db.Version(ctx); v != SchemaVersion() {
		t.Fatalf("version %d after an Open within its limit, want %d", v, SchemaVersion())
	}

	fresh, err := Open(ctx, filepath.Join(dir, "new.db"), Options{UpgradeUpTo: 1})
	if err != nil {
		t.Fatalf("Open of a new file with a limit of one byte: %v", err)
	}
	defer fresh.Close()
	if v, _ := fresh.Version(ctx); v != SchemaVersion() {
		t.Fatalf("new file at version %d, want %d", v, SchemaVersion())
	}
}

// TestUpgradesTakeTurns: while another process upgrades the store (here the
// test holds its upgrade lock), an Open waits rather than copy the store a
// second time, gives up with its context, and upgrades once the lock is free.
func TestUpgradesTakeTurns(t *testing.T) {
	t.Parallel()
	path := v1Copy(t)
	unlock, err := lockUpgrade(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if db, err := Open(ctx, path, Options{}); err == nil {
		db.Close()
		t.Fatal("Open upgraded the store while another process held the upgrade lock")
	}
	if m, _ := filepath.Glob(path + ".v*"); len(m) > 0 {
		t.Fatalf("Open copied the store while another process held the upgrade lock: %q", m)
	}
	unlock()
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("Open after the lock was let go: %v", err)
	}
	defer db.Close()
	if v, _ := db.Version(context.Background()); v != SchemaVersion() {
		t.Fatalf("version %d, want %d", v, SchemaVersion())
	}
}

// TestUpgradeOvertakenByANewerBuild: an upgrade waiting for the lock while a
// newer build upgrades the store further leaves the store as the newer
// build left it: its version, its backup. An old build's MCP server still
// running after a plugin update is such a waiter.
func TestUpgradeOvertakenByANewerBuild(t *testing.T) {
	t.Parallel()
	path := v1Copy(t)
	unlock, err := lockUpgrade(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	opened := make(chan error, 1)
	go func() {
		db, err := Open(context.Background(), path, Options{})
		if err == nil {
			db.Close()
		}
		opened <- err
	}()
	// Let the Open read version 1 and wait at the lock. (Should it be late,
	// it reads the newer version and returns before the unlock: checked.)
	waitForOpens(t, path+upgradeSuffix, 2)

	// The newer build: this build's migrations and one more, and its backup.
	newer := SchemaVersion() + 1
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := migrationNames()
	for _, name := range names[1:] {
		b, _ := migrations.ReadFile(name)
		if _, err := raw.Exec(string(b)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := raw.Exec(fmt.Sprintf("PRAGMA user_version = %d", newer)); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	backup := path + ".v1.bak"
	copyFile(t, "testdata/v1.db", backup)
	select {
	case err := <-opened:
		t.Fatalf("Open returned before the lock was let go (%v): it did not wait there, and the test proves nothing", err)
	default:
	}
	unlock()

	if err := <-opened; !errors.Is(err, ErrNewerSchema) {
		t.Errorf("Open after a newer build's upgrade: %v, want ErrNewerSchema", err)
	}
	raw, err = sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var v int
	if err := raw.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != newer {
		t.Errorf("version %d (%v), want the newer build's %d", v, err, newer)
	}
	if _, err := os.Stat(backup); err != nil {
		t.Errorf("the newer build's backup: %v", err)
	}
}

// waitForOpens waits until this process holds name open n times: for a
// lock file, the test's own hold and the lockers waiting at it, which open
// it only when they come to the lock. Where /proc cannot tell (not Linux),
// it gives the others a while instead. The bound is a hang guard.
func waitForOpens(t *testing.T, name string, n int) {
	t.Helper()
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		time.Sleep(300 * time.Millisecond)
		return
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(time.Millisecond) {
		fds, _ := os.ReadDir("/proc/self/fd")
		opens := 0
		for _, fd := range fds {
			if to, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && to == name {
				opens++
			}
		}
		if opens >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s open %d times, want %d: the waiter never came to the lock", name, opens, n)
		}
	}
}

// TestUpgradeRemovesUnfinishedBackups: the copy of an upgrade killed while
// copying is a whole store; forget lists it with the backups, and the next
// upgrade removes it, also when it finds its own backup already made.
func TestUpgradeRemovesUnfinishedBackups(t *testing.T) {
	t.Parallel()
	for _, made := range []bool{false, true} {
		path := v1Copy(t)
		if made {
			copyFile(t, "testdata/v1.db", path+".v1.bak")
		}
		cut := path + ".v1.bak.4242.tmp"
		writeCut := func() {
			if err := os.WriteFile(cut, []byte("half a store"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		writeCut()
		db, err := Open(context.Background(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := os.Stat(cut); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("backup made before: %v; the unfinished copy is still there after an upgrade: %v", made, err)
		}
		writeCut()
		if got, _ := db.Backups(); !slices.Contains(got, cut) {
			t.Errorf("Backups() = %q, leaves out %s, which forget must remove", got, cut)
		}
	}
}

// TestBackupsInAnyDirectory: the backups are found, and so removed by
// forget, whatever the data directory's path holds; a '[' in it made a
// glob of the whole path find nothing.
func TestBackupsInAnyDirectory(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data [ab]*")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "memory.db")
	copyFile(t, "testdata/v1.db", path)
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, err := db.RemoveBackups(); err != nil || len(got) != 1 || got[0] != path+".v1.bak" {
		t.Fatalf("RemoveBackups() = %q, %v; want the upgrade's backup", got, err)
	}
	if _, err := os.Stat(path + ".v1.bak"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the backup is still there: %v", err)
	}
}

// TestUpgradeRemovesUnfinishedJournal: a backup copy that ran out of disk
// left its rollback journal (memory.db.v<N>.bak.<pid>.tmp-journal), which
// nothing removed; the next upgrade removes it, and Backups lists it for
// forget until then.
func TestUpgradeRemovesUnfinishedJournal(t *testing.T) {
	t.Parallel()
	path := v1Copy(t)
	journal := path + ".v1.bak.4242.tmp-journal"
	if err := os.WriteFile(journal, []byte("part of a store"), 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := os.Stat(journal); !os.IsNotExist(err) {
		t.Errorf("the unfinished journal is still there after the upgrade: %v", err)
	}
	// One left later is among the copies forget removes.
	if err := os.WriteFile(journal, []byte("part of a store"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Backups(); !slices.Contains(got, journal) {
		t.Errorf("Backups = %q, want the unfinished journal among them", got)
	}
}

// TestCurrentNamesEveryMigration: a store is current when each migration
// this build knows is recorded by name, whatever else the table holds (a
// newer build's). An equivalence test of current's reading the table whole
// instead of matching the names in SQL: it passes on both.
func TestCurrentNamesEveryMigration(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	if !db.current(ctx) {
		t.Fatal("a fresh store is not current")
	}
	if _, err := db.SQL().ExecContext(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES ('9999_from_a_newer_build', '')`); err != nil {
		t.Fatal(err)
	}
	if !db.current(ctx) {
		t.Error("a store that also records a newer build's migration is not current")
	}
	if _, err := db.SQL().ExecContext(ctx, `DELETE FROM schema_migrations WHERE name = '0006_entry_roles'`); err != nil {
		t.Fatal(err)
	}
	if db.current(ctx) {
		t.Error("a store missing one migration's record is current")
	}
}

// Package store keeps the memory layer's SQLite file: the append-only event log, sessions, entries and their indexes.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"modernc.org/sqlite" // also registers the pure-Go "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrNotFound is returned when a looked-up row does not exist.
var ErrNotFound = errors.New("not found")

// timeFormat is fixed-width so that stored timestamps sort lexically.
const timeFormat = "2006-01-02T15:04:05.000000Z"

// FormatTime renders t as stored: UTC, microseconds, fixed width.
func FormatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeFormat)
}

// ParseTime parses a stored timestamp; an empty or malformed one is the zero time.
func ParseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	if t, ok := parseStored(s); ok {
		return t
	}
	t, err := time.Parse(timeFormat, s)
	if err != nil {
		t, _ = time.Parse(time.RFC3339Nano, s)
	}
	return t
}

// parseStored reads s when it is in timeFormat with every field in range,
// as FormatTime writes it: time.Parse, which reads any layout, was most of
// reading an event row back (SessionEnd reads a session's 1,000 messages).
// It reports false for anything else, which ParseTime leaves to time.Parse.
func parseStored(s string) (time.Time, bool) {
	if len(s) != len(timeFormat) || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
		s[16] != ':' || s[19] != '.' || s[26] != 'Z' {
		return time.Time{}, false
	}
	num := func(i, j int) int {
		n := 0
		for ; i < j; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return -1
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	year, month, day := num(0, 4), num(5, 7), num(8, 10)
	hour, minute, sec, micro := num(11, 13), num(14, 16), num(17, 19), num(20, 26)
	if year < 0 || month < 1 || month > 12 || day < 1 || day > 28 && day > daysIn(month, year) ||
		hour < 0 || hour > 23 || minute < 0 || minute > 59 || sec < 0 || sec > 59 || micro < 0 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, micro*1000, time.UTC), true
}

// daysIn is the number of days in month of year.
func daysIn(month, year int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// DB is an open store.
type DB struct {
	sql  *sql.DB
	path string
	// Now is the clock used for timestamps the store sets itself.
	Now func() time.Time
	// turn makes writers take turns at the write lock (nil when read-only);
	// bulk says this one lets the others go first (see turn).
	turn *turn
	bulk bool
	busy time.Duration // how long a write waits for the write lock
	// keepWAL: closing leaves the WAL unless it has grown (see closeWAL).
	keepWAL bool
	// wrote: a transaction of this process committed.
	wrote atomic.Bool
	// migrated: this process upgraded the schema (closeWAL copies the WAL
	// whatever its size).
	migrated bool
	// stmts are the reader's prepared statements (see readStmt).
	stmtMu sync.Mutex
	stmts  map[string]*sql.Stmt
}

// Options tune Open.
type Options struct {
	// BusyTimeout is how long a statement waits for another process's lock.
	// It must stay below the caller's deadline. Zero means 2 s.
	BusyTimeout time.Duration
	// ReadOnly opens the file read-only and skips migrations; the file must exist.
	ReadOnly bool
	// Bulk suits a caller that writes tens of MB per transaction (import):
	// a 64 MB page cache and a checkpoint every 64 MB of WAL rather than 4,
	// and other writers waiting for the write lock go first (see turn).
	// Hooks write a few pages and keep SQLite's defaults.
	Bulk bool
	// KeepWAL suits a short-lived process (a hook): closing leaves the WAL
	// and its index for the next process instead of checkpointing and
	// deleting them (see wal.go).
	KeepWAL bool
	// UpgradeUpTo is the largest file Open upgrades to this build's schema:
	// an upgrade copies the whole store first and can rebuild an index, so
	// it takes time in proportion to the store (0.8 s at 200 MB). Open
	// leaves a larger file at an older version as it is and returns
	// ErrOldSchema, for a caller whose deadline it could overrun (a hook)
	// to hand the upgrade to a process that has none. Zero means any size.
	UpgradeUpTo int64
}

// Open opens (creating if needed, mode 0600) the store at path and applies any
// pending migrations. Migrations run inside an immediate transaction, so
// concurrent first opens by several hook processes serialise safely.
func Open(ctx context.Context, path string, opt Options) (*DB, error) {
	if opt.BusyTimeout <= 0 {
		opt.BusyTimeout = 2 * time.Second
	}
	if !opt.ReadOnly {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
		// Create the file ourselves so it is 0600 from the first byte; SQLite
		// gives the -wal and -shm files the same mode as the database file.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NONBLOCK, 0o600)
		if err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
		fi, err := f.Stat()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("open store: %w", err)
		}
		if !fi.Mode().IsRegular() {
			// SQLite would block reading a FIFO or read a device forever.
			return nil, fmt.Errorf("open store: %s is not a regular file (%s)", path, fi.Mode().Type())
		}
	} else if fi, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("open store: %s is not a regular file (%s)", path, fi.Mode().Type())
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", opt.BusyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	// Statement and savepoint journals in memory: a large import otherwise
	// writes every page it changes to a temporary file first.
	q.Add("_pragma", "temp_store(MEMORY)")
	if opt.Bulk {
		// A transaction larger than the page cache spills pages to the WAL
		// early and writes them again; a checkpoint after every commit past
		// 4 MB of WAL copied the same pages into the file again and again.
		q.Add("_pragma", "cache_size(-65536)")
		q.Add("_pragma", "wal_autocheckpoint(16384)")
	}
	if opt.ReadOnly {
		q.Add("mode", "ro")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		// NORMAL is durable across application crashes in WAL mode; only a power
		// loss can drop the last transactions, which costs a memory, not data integrity.
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Add("_txlock", "immediate")
		if opt.KeepWAL {
			// Close checkpoints instead (see closeWAL): a commit's automatic
			// checkpoint leaves the WAL as long as it was, and the next
			// process, finding no -shm it can trust, takes every frame for
			// one not yet copied and copies them all again.
			q.Add("_pragma", "wal_autocheckpoint(0)")
			// A hook reads each page about once, so SQLite's 2 MB page cache
			// only adds to its resident size: 256 KB took the prompt hook
			// from 18.5 to 14.8 MB at 100k messages, no slower.
			q.Add("_pragma", "cache_size(-256)")
		}
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	var connector driver.Connector
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if opt.KeepWAL && !opt.ReadOnly {
		connector = keepWAL{connector}
	}
	sqldb := sql.OpenDB(connector)
	db := &DB{sql: sqldb, path: path, Now: time.Now, bulk: opt.Bulk, busy: opt.BusyTimeout, keepWAL: opt.KeepWAL && !opt.ReadOnly}
	if !opt.ReadOnly {
		db.turn = openTurn(path)
	}
	if err := db.connect(ctx, opt.BusyTimeout); err != nil {
		db.Close()
		return nil, err
	}
	if opt.ReadOnly {
		err = db.checkReadable(ctx)
	} else {
		err = db.migrate(ctx, opt.UpgradeUpTo)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// ErrNoSchema is returned by a read-only Open of a file no build has
// initialised yet (created by a process that died or is still migrating):
// it holds nothing, and readers may treat it as an empty store.
var ErrNoSchema = errors.New("store not initialised")

// ErrOldSchema is returned by a read-only Open of a file at an older schema
// version, and by an Open whose Options.UpgradeUpTo the file is larger
// than: any other read-write Open migrates it.
var ErrOldSchema = errors.New("store schema needs an upgrade")

func (db *DB) checkReadable(ctx context.Context) error {
	v, err := db.Version(ctx)
	switch {
	case err != nil:
		return err
	case v == 0:
		return ErrNoSchema
	case v > SchemaVersion():
		return newerSchema(v)
	case v < SchemaVersion() || !db.current(ctx):
		return fmt.Errorf("file at version %d, build knows %d: %w", v, SchemaVersion(), ErrOldSchema)
	}
	return nil
}

// connect makes the first connection. Setting WAL mode on a new file needs an
// exclusive lock and SQLite does not run the busy handler for it, so when
// several hooks open a fresh store at once, all but one get SQLITE_BUSY at
// once; they retry until the busy timeout instead of losing their event.
func (db *DB) connect(ctx context.Context, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for delay := 5 * time.Millisecond; ; delay = min(delay*2, 100*time.Millisecond) {
		_, err := db.Version(ctx)
		if err == nil || !isBusy(err) || time.Now().Add(delay).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (or an extended code of it).
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// Close closes the database.
func (db *DB) Close() error {
	db.stmtMu.Lock()
	for _, st := range db.stmts {
		st.Close()
	}
	db.stmts = nil
	db.stmtMu.Unlock()
	if db.keepWAL && db.wrote.Load() {
		db.closeWAL()
	}
	err := db.sql.Close()
	db.turn.close()
	return err
}

// Path is the database file's path.
func (db *DB) Path() string { return db.path }

// SQL exposes the handle to this package's tests and tools that need raw access
// (integrity checks); other packages use the typed methods.
func (db *DB) SQL() *sql.DB { return db.sql }

// migrationNames lists the embedded migrations in order.
func migrationNames() ([]string, error) {
	names, err := embeddedMigrations()
	return slices.Clone(names), err
}

// embeddedMigrations lists the embedded files once a process: every open
// asks (migrate, current), and they never change.
var embeddedMigrations = sync.OnceValues(func() ([]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
})

// SchemaVersion is the number of migrations this build knows. The file's
// user_version is set to it, for older builds to compare with theirs; which
// migrations a store has is recorded by name (see applied).
func SchemaVersion() int {
	names, _ := migrationNames()
	return len(names)
}

// Version reports the schema version recorded in the file.
func (db *DB) Version(ctx context.Context) (int, error) {
	var v int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// ErrNewerSchema is returned when the file was written by a newer build.
var ErrNewerSchema = errors.New("database schema is newer than this build")

// newerSchema is ErrNewerSchema for a file at version v.
func newerSchema(v int) error {
	return fmt.Errorf("file at version %d, build knows %d: %w", v, SchemaVersion(), ErrNewerSchema)
}

// migrate brings the file to this build's schema, unless it holds data, is
// at an older version and is larger than upTo (when upTo > 0).
func (db *DB) migrate(ctx context.Context, upTo int64) error {
	names, err := migrationNames()
	if err != nil {
		return fmt.Errorf("list migrations: %w", err)
	}
	// Fast path: every hook opens the store, and almost always nothing is pending.
	v, err := db.Version(ctx)
	if err != nil {
		return err
	}
	if v > len(names) {
		return fmt.Errorf("migrate: %w", newerSchema(v))
	}
	if v == len(names) && db.current(ctx) {
		return nil
	}
	if v > 0 && upTo > 0 {
		if fi, err := os.Stat(db.path); err == nil && fi.Size() > upTo {
			return fmt.Errorf("file at version %d, build knows %d, %d MB to upgrade: %w", v, len(names), fi.Size()>>20, ErrOldSchema)
		}
	}
	if v > 0 {
		// Another process may be upgrading this store now (the MCP server
		// starts with the session, as the hooks' upgrade does): one copy
		// of a large store at a time, and the second finds the work done.
		unlock, err := lockUpgrade(ctx, db.path)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		defer unlock()
		if v, err = db.Version(ctx); err != nil || (v == len(names) && db.current(ctx)) {
			return err
		}
		if v > len(names) {
			// A newer build upgraded it while this one waited.
			return fmt.Errorf("migrate: %w", newerSchema(v))
		}
		// An upgrade of a store that holds data: keep a copy first, so a failed
		// migration never costs the user their memories.
		if err := db.backup(ctx, v); err != nil {
			return fmt.Errorf("migrate: backup before upgrade: %w", err)
		}
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: begin: %w", err)
	}
	defer tx.Rollback()
	// Re-read under the write lock: another process may have migrated meanwhile.
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("migrate: read version: %w", err)
	}
	if v > len(names) {
		// Setting this build's version would hide the newer build's
		// migrations from it: it would run them again.
		return fmt.Errorf("migrate: %w", newerSchema(v))
	}
	done, err := applied(ctx, tx, names)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	now := time.Now().UTC().Format(timeFormat)
	for _, name := range names {
		id := migrationID(name)
		if !done[id] {
			b, err := migrations.ReadFile(name)
			if err != nil {
				return fmt.Errorf("migrate %s: %w", name, err)
			}
			if _, err := tx.ExecContext(ctx, string(b)); err != nil {
				return fmt.Errorf("migrate %s: %w", name, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO schema_migrations (name, applied_at) VALUES (?, ?)`, id, now); err != nil {
			return fmt.Errorf("migrate: record %s: %w", name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(names))); err != nil {
		return fmt.Errorf("migrate: set version: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	// A migration can leave tens of MB in the WAL, which every later process
	// would read whole at open (see wal.go): the hook that migrated copies it.
	// However little it wrote: a WAL under walLimit stays until writes grow
	// it past the limit, and the 85 frames a 10k store's upgrade left were
	// read again by every hook process until then.
	db.wrote.Store(true)
	db.migrated = true
	return nil
}

// IsConstraint reports whether err is SQLite refusing a value a CHECK,
// NOT NULL or UNIQUE constraint does not allow (SQLITE_CONSTRAINT or an
// extended code of it), as isBusy reads its code.
func IsConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

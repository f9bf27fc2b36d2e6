package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"os"
	"reflect"

	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// A hook is a process of a few milliseconds, and almost always the only
// connection to the store, so SQLite's default close (checkpoint the WAL into
// the database, fsync both, delete the -wal and -shm files, which the next
// hook creates again) cost every hook about as much as its work. Opened with
// KeepWAL, a connection leaves the WAL and its index in place: committed
// transactions stay in the WAL, as durable as they were, and the next process
// reads them from there. It rebuilds the WAL's index first, by reading the
// WAL whole: SQLite's unix VFS trusts no -shm a process finds without another
// connection open, and so also takes every frame for one not yet copied into
// the database. The WAL is therefore kept short: a KeepWAL close that wrote
// and finds it past walLimit copies it into the database and truncates it
// (closeWAL), and every close without KeepWAL (SessionEnd, the worker, the
// CLI) checkpoints and removes it. A process that only read (the prompt
// hook) leaves the copying to the writers: while an import runs, its WAL
// is tens of MB, and a reader's close would copy the importer's pages and
// fsync them on the prompt's time (10–20 ms an fsync, measured).

// keepWAL opens connections that neither checkpoint nor delete the WAL at close.
type keepWAL struct{ driver.Connector }

// Connect implements driver.Connector.
func (k keepWAL) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := k.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	// Both are only speed: a connection where either fails closes the
	// SQLite way, which is just as safe.
	if fc, ok := c.(sqlite.FileControl); ok {
		// Should a close checkpoint after all, it keeps the files.
		fc.FileControlPersistWAL("main", 1)
	}
	noCheckpointOnClose(c)
	return c, nil
}

// noCheckpointOnClose sets SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE on a
// modernc.org/sqlite connection. The driver exposes no call for it (nor for
// sqlite3_db_config), so the connection's handle is read from the driver's
// connection struct; if a driver version lays it out differently, nothing is
// set and the error says so (TestKeepWAL fails on such an upgrade).
func noCheckpointOnClose(c driver.Conn) error {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("no checkpoint on close: unexpected connection type %T", c)
	}
	db, tls := v.Elem().FieldByName("db"), v.Elem().FieldByName("tls")
	if !db.IsValid() || db.Kind() != reflect.Uintptr || !tls.IsValid() || tls.Type() != reflect.TypeFor[*libc.TLS]() || tls.IsNil() {
		return fmt.Errorf("no checkpoint on close: %T has no SQLite handle where expected", c)
	}
	t := (*libc.TLS)(tls.UnsafePointer())
	// The variadic arguments (int onoff, int *pRes) as libc.VaList packs
	// them: 8 bytes a slot.
	bp := libc.Xmalloc(t, 16)
	if bp == 0 {
		return fmt.Errorf("no checkpoint on close: out of memory")
	}
	defer libc.Xfree(t, bp)
	if rc := sqlite3.Xsqlite3_db_config(t, uintptr(db.Uint()), sqlite3.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, libc.VaList(bp, int32(1), uintptr(0))); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("no checkpoint on close: sqlite3_db_config: %d", rc)
	}
	return nil
}

// walLimit is the WAL size past which a KeepWAL close checkpoints: 256
// frames of 4 KB pages, a few hooks' writes. A longer WAL costs every process
// that opens the store the time to read it; checkpointing more often costs the
// hooks that do it a copy and two fsyncs.
const walLimit = 256 * (4096 + 24)

// closeWAL copies the WAL into the database and truncates it when it has
// grown past walLimit, or when this process migrated the schema. It never
// waits for a lock: with another connection writing, SQLite copies what it
// can (a passive checkpoint) and the WAL stays for a later close.
func (db *DB) closeWAL() {
	if fi, err := os.Stat(db.path + "-wal"); err != nil || fi.Size() == 0 || fi.Size() <= walLimit && !db.migrated {
		return
	}
	ctx := context.Background()
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA busy_timeout = 0"); err != nil {
		return
	}
	var busy, frames, copied int
	conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &copied)
}

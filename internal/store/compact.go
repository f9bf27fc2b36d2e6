package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"

	"modernc.org/sqlite"
)

// ErrCompactPending is returned by Compact when another connection kept the
// file from being rewritten; the deleted content is unreachable but may still
// be in the file's free pages until a later Compact succeeds.
var ErrCompactPending = errors.New("compaction pending: another connection is using the store")

// pendingSuffix names the file, next to the store, that marks a compaction
// owed by a forget that committed.
const pendingSuffix = "-compact-pending"

// CompactPending reports whether a forget committed and no Compact has
// succeeded since: the forgotten text may still be in the file's free pages,
// its full-text segments or its WAL.
func (db *DB) CompactPending() bool {
	_, err := os.Stat(db.path + pendingSuffix)
	return err == nil
}

// Compact makes deleted content unrecoverable from the file: it rebuilds both
// FTS5 indexes (their segments keep deleted tokens until merged), copies the
// WAL into the database and truncates it, and VACUUMs so that no free page
// keeps old bytes. VACUUM and the WAL reset need the other connections to be
// idle; Compact retries a few times and then returns ErrCompactPending.
func (db *DB) Compact(ctx context.Context) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	defer conn.Close()
	// VACUUM builds the new file in a temporary database; keep it in memory so
	// no copy of the content lands in a temporary file.
	if _, err := conn.ExecContext(ctx, "PRAGMA temp_store = MEMORY"); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA secure_delete = ON"); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	defer conn.ExecContext(ctx, "PRAGMA secure_delete = OFF")
	// Hooks hold the store for milliseconds: wait briefly for each attempt
	// and retry, rather than sit out the connection's long busy timeout while
	// something else keeps a read open.
	var busyMS int
	if err := conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busyMS); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("compact: begin: %w", err)
	}
	for _, t := range []string{"events_fts", "entries_fts"} {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("INSERT INTO %s(%s) VALUES('rebuild')", t, t)); err != nil {
			tx.Rollback()
			return fmt.Errorf("compact: rebuild %s: %w", t, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("compact: commit: %w", err)
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", min(busyMS, compactBusyMS))); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	defer conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", busyMS))
	var last error
	for attempt := range compactAttempts {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return fmt.Errorf("compact: %w", ctx.Err())
			case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
			}
		}
		last = compactOnce(ctx, conn)
		if last == nil {
			if err := os.Remove(db.path + pendingSuffix); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("compact: %w", err)
			}
			return nil
		}
		if !errors.Is(last, ErrCompactPending) {
			return last
		}
	}
	return last
}

// compactAttempts and compactBusyMS bound how long Compact waits for other
// connections: about 2.5 s in all.
const (
	compactAttempts = 5
	compactBusyMS   = 250
)

func compactOnce(ctx context.Context, conn *sql.Conn) error {
	if err := checkpoint(ctx, conn); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "VACUUM"); err != nil {
		if busy(err) {
			return fmt.Errorf("compact: vacuum: %w (%v)", ErrCompactPending, err)
		}
		return fmt.Errorf("compact: vacuum: %w", err)
	}
	return checkpoint(ctx, conn)
}

// checkpoint copies the WAL into the database file and truncates it to zero
// bytes, which needs every reader to be done with it.
func checkpoint(ctx context.Context, conn *sql.Conn) error {
	var blocked, logFrames, done int
	err := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&blocked, &logFrames, &done)
	if err != nil {
		if busy(err) {
			return fmt.Errorf("compact: checkpoint: %w (%v)", ErrCompactPending, err)
		}
		return fmt.Errorf("compact: checkpoint: %w", err)
	}
	if blocked != 0 {
		return fmt.Errorf("compact: checkpoint: %w", ErrCompactPending)
	}
	return nil
}

// busy reports whether err is SQLITE_BUSY or SQLITE_LOCKED (any extended code).
func busy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED
		return true
	}
	return false
}

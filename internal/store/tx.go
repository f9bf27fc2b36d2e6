package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// Tx is what the store's queries run on: a write transaction (Update,
// Begin), or a reader (Read) whose statements each run on their own, outside
// any transaction. A caller that writes a lot at once (import) runs many
// sessions' writes through one Tx: one commit for all of them, and each
// statement parsed once per transaction rather than once per use (SQL
// parsing was a tenth of an import's time).
type Tx struct {
	db    *DB
	tx    *sql.Tx         // nil in a reader
	ctx   context.Context // the transaction's, for the indexing Commit does
	stmts map[string]*sql.Stmt
	// unindexed maps a table with a full-text index to the largest id its
	// index held when this transaction first inserted into the table: rows
	// above it are not indexed yet, and Commit indexes them.
	unindexed map[string]int64
	// c is the connection Begin pinned, returned to the pool at the end,
	// when the transaction's turn ends too (a bulk store's ended at Begin).
	c *sql.Conn
	// folded are the spool's fold files Begin stored, removed at Commit.
	folded []string
	// spoolLeft is what the last fold left in the spool: files past its
	// bound, files it could not read, a spool it could not move.
	spoolLeft int64
	// rules are the forgets' standing rules (forget_rule.go), read once.
	rules     *ruleSet
	rulesRead bool
	// entryRules are rules without those of memory forgets, which the
	// entries a forget kept are held to (forgetRules).
	entryRules *ruleSet
	// looked keeps the rows of the role lookups rivalIDs made (by query
	// and arguments) since this transaction last wrote: placing a
	// session's claims and finding their conflicts ask the same lookups
	// again and again, and nothing changes in between. Any statement but
	// a SELECT clears it, a savepoint's rollback included. A reader's
	// statements each see the latest commit, so it keeps none.
	looked map[string][]roleRow
}

// Begin starts a write transaction. It takes the write lock at once (the
// store opens transactions IMMEDIATE), waiting up to the busy timeout, in a
// turn (see turn): a bulk store first lets any other writer that waits go
// first, and its turn ends once it has the lock, so that another bulk
// writer waiting meanwhile is seen too. Most writers want Update; Begin is
// for one that commits many units of work in batches of its choosing (import).
func (db *DB) Begin(ctx context.Context) (*Tx, error) {
	if db.bulk {
		db.turn.yield(ctx)
	}
	db.turn.take()
	c, err := db.sql.Conn(ctx)
	if err != nil {
		db.turn.done()
		return nil, fmt.Errorf("begin: %w", err)
	}
	tx, err := db.begin(ctx, c)
	if err != nil {
		c.Close()
		db.turn.done()
		return nil, fmt.Errorf("begin: %w", err)
	}
	if db.bulk {
		db.turn.done()
	}
	t := db.wrap(ctx, tx)
	t.c = c
	// What hooks spooled comes first: this transaction's writes, a forget
	// above all, follow it.
	if err := t.fold(ctx); err != nil {
		t.Rollback()
		return nil, fmt.Errorf("begin: %w", err)
	}
	return t, nil
}

// begin takes the write lock on c, trying again every millisecond up to the
// busy timeout rather than through SQLite's busy handler, whose sleeps grow
// to 100 ms: a writer that looks that seldom mostly misses the moment another
// commits, and others take the lock first. The connection keeps its busy
// timeout for everything else.
func (db *DB) begin(ctx context.Context, c *sql.Conn) (*sql.Tx, error) {
	restore := fmt.Sprintf("PRAGMA busy_timeout = %d", db.busy.Milliseconds())
	fail := func(err error) (*sql.Tx, error) {
		c.ExecContext(context.WithoutCancel(ctx), restore)
		return nil, err
	}
	if _, err := c.ExecContext(ctx, "PRAGMA busy_timeout = 0"); err != nil {
		return fail(err)
	}
	for deadline := time.Now().Add(db.busy); ; {
		tx, err := c.BeginTx(ctx, nil)
		if err == nil {
			if _, err = tx.ExecContext(ctx, restore); err == nil {
				return tx, nil
			}
			tx.Rollback()
		}
		if !isBusy(err) || time.Now().After(deadline) {
			return fail(err)
		}
		select {
		case <-ctx.Done():
			return fail(ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
}

// wrap makes a Tx of a transaction begun on the database.
func (db *DB) wrap(ctx context.Context, tx *sql.Tx) *Tx {
	return &Tx{db: db, tx: tx, ctx: ctx, stmts: map[string]*sql.Stmt{}, unindexed: map[string]int64{}}
}

// Commit adds the rows the transaction inserted to the full-text indexes
// and commits it. A reader has nothing to commit.
func (t *Tx) Commit() error {
	if t.tx == nil {
		return nil
	}
	if err := t.index(t.ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	t.closeStmts()
	defer t.end()
	if err := t.tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	t.db.wrote.Store(true)
	for _, name := range t.folded {
		os.Remove(name) // stored now; one left behind is skipped, its spool_folded mark stored
	}
	return nil
}

// Rollback abandons the transaction; after Commit, or on a reader, it does nothing.
func (t *Tx) Rollback() error {
	if t.tx == nil {
		return nil
	}
	t.closeStmts()
	defer t.end()
	return t.tx.Rollback()
}

// end returns the connection Begin pinned and ends its turn; a Tx made by
// wrap has neither.
func (t *Tx) end() {
	if t.c == nil {
		return
	}
	t.c.Close()
	t.c = nil
	if !t.db.bulk {
		t.db.turn.done()
	}
}

func (t *Tx) closeStmts() {
	for q, st := range t.stmts {
		st.Close()
		delete(t.stmts, q)
	}
}

// ftsInserts are the statements that index a table's rows above an id.
var ftsInserts = map[string]string{
	"events":  `INSERT INTO events_fts(rowid, text) SELECT id, text FROM events WHERE id > ?`,
	"entries": `INSERT INTO entries_fts(rowid, title, body, subject, questions) SELECT id, title, body, subject, questions FROM entries WHERE id > ?`,
}

// ftsIndexed are the queries for the largest id a table's full-text index
// holds: FTS5 keeps a row per indexed id in its docsize table.
var ftsIndexed = map[string]string{
	"events":  `SELECT coalesce(max(id), 0) FROM events_fts_docsize`,
	"entries": `SELECT coalesce(max(id), 0) FROM entries_fts_docsize`,
}

// inserting records, before the transaction's first insert into table,
// the largest id the table's index holds. The transaction holds the write
// lock, so every row it inserts gets a larger id. Asking the index rather
// than the table also picks up rows above it that nothing indexed: those a
// process of a build from before migration 0003, which indexed by trigger,
// inserted after another process had upgraded the file.
func (t *Tx) inserting(ctx context.Context, table string) error {
	if t.tx == nil {
		return ErrReadOnly
	}
	if _, ok := t.unindexed[table]; ok {
		return nil
	}
	var last int64
	if err := t.queryRow(ctx, ftsIndexed[table]).Scan(&last); err != nil {
		return fmt.Errorf("last indexed %s id: %w", table, err)
	}
	t.unindexed[table] = last
	return nil
}

// index adds the rows inserted so far to the full-text indexes.
func (t *Tx) index(ctx context.Context) error {
	for table, last := range t.unindexed {
		if _, err := t.exec(ctx, ftsInserts[table], last); err != nil {
			return fmt.Errorf("index %s: %w", table, err)
		}
		delete(t.unindexed, table)
	}
	return nil
}

// ErrReadOnly is returned by a write attempted through Read's Tx.
var ErrReadOnly = errors.New("write in a read-only view")

// Read returns a Tx for reading whose statements each run on their own
// against the database, outside any transaction: the store opens its
// transactions IMMEDIATE, so a read transaction would take the write lock
// and make hooks wait. It holds nothing to release. A write through it fails
// with ErrReadOnly; writes go through Update (or Begin).
func (db *DB) Read() *Tx { return &Tx{db: db} }

// Update runs fn in a write transaction of its own (see Begin) and commits
// it when fn returns nil; otherwise it rolls it back and returns fn's error.
func (db *DB) Update(ctx context.Context, fn func(t *Tx) error) error {
	t, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	defer t.Rollback()
	if err := fn(t); err != nil {
		return err
	}
	return t.Commit()
}

// readStmts bounds the reader's cache of prepared statements, for a
// long-lived process (the MCP server, the dashboard).
const readStmts = 128

// readStmt returns q prepared for readers, preparing it on first use: a
// prompt runs the same few queries again and again (an entry, its best
// quote, a message's neighbours, a word's count), and SQL parsing was a
// tenth of the prompt path's time. It returns nil for a query not worth
// keeping: one whose text varies with its arguments (an IN list), or any
// once the cache is full. A cached statement is never closed before the
// store: another goroutine may be about to run it.
func (db *DB) readStmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if strings.Contains(q, "?,?") {
		return nil, nil
	}
	db.stmtMu.Lock()
	defer db.stmtMu.Unlock()
	if st, ok := db.stmts[q]; ok {
		return st, nil
	}
	if len(db.stmts) >= readStmts {
		return nil, nil
	}
	st, err := db.sql.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if db.stmts == nil {
		db.stmts = map[string]*sql.Stmt{}
	}
	db.stmts[q] = st
	return st, nil
}

// stmt returns q prepared in this transaction, preparing it on first use.
func (t *Tx) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if !strings.HasPrefix(q, "SELECT ") {
		t.looked = nil // it may write (see Tx.looked)
	}
	if st, ok := t.stmts[q]; ok {
		return st, nil
	}
	st, err := t.tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	t.stmts[q] = st
	return st, nil
}

func (t *Tx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if t.tx == nil {
		return nil, ErrReadOnly
	}
	st, err := t.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

func (t *Tx) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if t.tx == nil {
		st, err := t.db.readStmt(ctx, q)
		if err != nil || st == nil {
			return t.db.sql.QueryContext(ctx, q, args...) // an error comes back from here too
		}
		return st.QueryContext(ctx, args...)
	}
	st, err := t.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (t *Tx) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if t.tx == nil {
		st, err := t.db.readStmt(ctx, q)
		if err != nil || st == nil {
			return t.db.sql.QueryRowContext(ctx, q, args...) // Scan returns an error
		}
		return st.QueryRowContext(ctx, args...)
	}
	st, err := t.stmt(ctx, q)
	if err != nil {
		// Row carries no error of its own here; the unprepared query returns
		// the same error from Scan.
		return t.tx.QueryRowContext(ctx, q, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// Savepoint runs fn inside a savepoint of the transaction: when fn fails,
// what it wrote is undone and the transaction goes on without it. Import
// opens one per session, so its statements go through the cache too.
func (t *Tx) Savepoint(ctx context.Context, fn func() error) error {
	if _, err := t.exec(ctx, "SAVEPOINT step"); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	if err := fn(); err != nil {
		if _, rerr := t.exec(ctx, "ROLLBACK TO step"); rerr != nil {
			return fmt.Errorf("%w (and undoing it: %v)", err, rerr)
		}
		t.exec(ctx, "RELEASE step")
		return err
	}
	if _, err := t.exec(ctx, "RELEASE step"); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	return nil
}

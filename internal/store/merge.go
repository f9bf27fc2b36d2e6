package store

import (
	"context"
	"errors"
	"fmt"
)

// ftsTables are the store's full-text indexes: each insert transaction adds
// a segment to one, and a term's lookup seeks every segment that holds it.
func ftsTables() []string { return []string{"events_fts", "entries_fts"} }

// MergePages is how many leaf pages a merge step writes at most, in one
// write transaction of its own: a hook that wants the write lock meanwhile
// waits for one step, not for the whole merge (200 pages: 20 ms with the
// system sqlite3 on the 100k-message bench store, whose events_fts has
// 2,500 pages).
const MergePages = 200

// Merged says what MergeIndexes did: Steps write transactions that merged
// something, and Done when a step found nothing left to merge in either index.
type Merged struct {
	Steps int  `json:"steps"`
	Done  bool `json:"done"`
}

// MergeIndexes merges the segments of the full-text indexes incrementally,
// the way FTS5 does it, a step of at most pages leaf pages per write
// transaction, and says how far it got. A full merge ('merge' with a
// negative page count, then positive ones) merges every segment, whatever
// its level, into one per index: it rewrites the whole index, which an
// import can afford once (segments written meanwhile stay for a later
// merge). Otherwise it merges only the levels that hold two segments or
// more (a positive count, with FTS5's usermerge set to 2): the small
// segments a session's transactions left are merged together, and the
// large old one is rewritten only when a level of its size fills up
// again, so a worker's merge after a session costs what the session
// wrote, not what the store holds (on the 100k bench store after 100
// transactions, with the system sqlite3: 2 ms to 2 segments, against 156
// ms to 1).
//
// It stops when a step merges nothing (FTS5 changes fewer than two rows)
// in both indexes, after maxSteps steps that merged something (0: no
// limit), when a full merge of an index has taken twice the steps its
// pages need (Done is false: hooks kept writing), or when ctx ends; a
// ctx that ends between steps is not an error, and the steps committed
// stay. Searches find the same rows in any layout: fewer segments only
// make each term's lookup seek fewer of them.
func (db *DB) MergeIndexes(ctx context.Context, full bool, pages, maxSteps int) (Merged, error) {
	return db.mergeIndexes(ctx, full, pages, maxSteps, nil)
}

// mergeIndexes is MergeIndexes, calling between (when not nil) after each
// step that merged something, with no transaction open.
func (db *DB) mergeIndexes(ctx context.Context, full bool, pages, maxSteps int, between func(Merged)) (Merged, error) {
	if pages <= 0 {
		pages = MergePages
	}
	rank := pages
	if full {
		rank = -pages
	}
	if err := db.Update(ctx, func(t *Tx) error {
		for _, table := range ftsTables() {
			// Kept in the index's own config: idempotent, and only the
			// 'merge' command reads it (automerge, on writes, does not).
			// A full merge's positive steps read it too: with FTS5's
			// default of 4, a level of two or three segments written
			// since its first step was no work for them, and the merge
			// stopped, Done, with all it had begun left unmerged.
			if _, err := t.exec(ctx, fmt.Sprintf("INSERT INTO %s(%s, rank) VALUES('usermerge', 2)", table, table)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		if ctx.Err() != nil {
			return Merged{}, nil
		}
		return Merged{}, fmt.Errorf("merge: %w", err)
	}
	var m Merged
	cut := false // a full merge stopped at maxTaken with work left
	for _, table := range ftsTables() {
		// A full merge is one 'merge' with a negative count, which puts
		// every segment on one level and begins merging them all into
		// one, then steps with a positive count, which go on with that
		// merge. A negative step begins it again when segments were
		// written since the last: under hooks committing one between
		// steps, a full merge of negative steps only rewrote the same
		// first pages, and an import ran until the killed sessions
		// stopped. Once it is done the positive steps merge what hooks
		// wrote meanwhile, small segments, until the steps a rewrite of
		// the index as it stands takes twice over (maxTaken): then the
		// worker's level merges go on.
		step, maxTaken := rank, 0
		if full {
			n, err := db.indexPages(ctx, table)
			if err != nil {
				if ctx.Err() != nil {
					return m, nil
				}
				return m, err
			}
			maxTaken = 2*(n/pages+1) + 2
		}
		for taken := 0; ; taken++ {
			if maxSteps > 0 && m.Steps >= maxSteps {
				return m, nil
			}
			if maxTaken > 0 && taken >= maxTaken {
				cut = true
				break // the next index has steps of its own
			}
			if ctx.Err() != nil {
				return m, nil
			}
			var changed int64
			err := db.Update(ctx, func(t *Tx) error {
				var err error
				changed, err = t.mergeStep(ctx, table, step)
				return err
			})
			if err != nil {
				if ctx.Err() != nil {
					return m, nil // the step rolled back whole; the steps before stay
				}
				return m, fmt.Errorf("merge %s: %w", table, err)
			}
			if changed < 2 {
				break
			}
			step = pages // a full merge, begun, goes on
			m.Steps++
			if between != nil {
				between(m)
			}
		}
	}
	m.Done = !cut
	return m, nil
}

// indexPages is the rows of table's %_data table: its leaf pages, and its
// doclist-index pages and structure records beside them, so at least as
// many as the leaf pages a full merge rewrites.
func (db *DB) indexPages(ctx context.Context, table string) (int, error) {
	var n int
	// The table name is one of ftsTables, never input.
	if err := db.sql.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FROM %s_data", table)).Scan(&n); err != nil {
		return 0, fmt.Errorf("merge %s: %w", table, err)
	}
	return n, nil
}

// mergeStep runs one incremental merge of table on t, FTS5's 'merge' with
// rank as its page count (negative: every level), and returns how many
// rows it changed: FTS5's documentation says that a difference in
// total_changes() under two means the merge did no work.
func (t *Tx) mergeStep(ctx context.Context, table string, rank int) (int64, error) {
	var before, after int64
	if err := t.queryRow(ctx, "SELECT total_changes()").Scan(&before); err != nil {
		return 0, err
	}
	// The table name is one of ftsTables, never input.
	if _, err := t.exec(ctx, fmt.Sprintf("INSERT INTO %s(%s, rank) VALUES('merge', ?)", table, table), rank); err != nil {
		return 0, err
	}
	if err := t.queryRow(ctx, "SELECT total_changes()").Scan(&after); err != nil {
		return 0, err
	}
	return after - before, nil
}

// IndexSegments returns how many segments the full-text indexes hold, both
// together: what a term's lookup may have to seek. It reads the count from
// each index's structure record (FTS5's %_data row 10: a four-byte cookie,
// an optional four-byte version-2 marker, then the number of levels and of
// segments as varints).
func (db *DB) IndexSegments(ctx context.Context) (int, error) {
	total := 0
	for _, table := range ftsTables() {
		var b []byte
		err := db.sql.QueryRowContext(ctx, fmt.Sprintf("SELECT block FROM %s_data WHERE id = 10", table)).Scan(&b)
		if err != nil {
			return 0, fmt.Errorf("index segments %s: %w", table, err)
		}
		n, err := structureSegments(b)
		if err != nil {
			return 0, fmt.Errorf("index segments %s: %w", table, err)
		}
		total += n
	}
	return total, nil
}

// errStructure is returned for a structure record IndexSegments cannot read.
var errStructure = errors.New("unreadable fts5 structure record")

// structureSegments reads the number of segments from an FTS5 structure record.
func structureSegments(b []byte) (int, error) {
	if len(b) < 4 {
		return 0, errStructure
	}
	b = b[4:]
	if len(b) >= 4 && b[0] == 0xff && b[1] == 0 && b[2] == 0 && b[3] == 1 {
		b = b[4:]
	}
	_, n := sqliteVarint(b) // levels
	if n == 0 {
		return 0, errStructure
	}
	segs, m := sqliteVarint(b[n:])
	if m == 0 {
		return 0, errStructure
	}
	return int(segs), nil
}

// sqliteVarint decodes SQLite's big-endian varint (seven bits a byte, the
// ninth byte whole) and returns it with its length, 0 for a short buffer.
func sqliteVarint(b []byte) (uint64, int) {
	var v uint64
	for i := range min(len(b), 9) {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

package store

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"strings"
	"sync"
)

// Which migrations a store has is recorded by name in schema_migrations.
// Before, the file's user_version counted them, and main once numbered its
// migration files differently from now (0004_vocab before 0004_citations,
// 0010_events_type before 0007..0009, a 0011_drop_vocab later undone): a
// store written then had a count that named the wrong files, and its
// upgrade failed at every open, or it counted as newer than every build.
// A store without the table is read for the objects each migration makes
// (legacyProbes), so every state main ever wrote upgrades to this one.

// migrationID is a migration's recorded name: its file name without ".sql".
func migrationID(file string) string {
	return strings.TrimSuffix(path.Base(file), ".sql")
}

// querier is what applied needs of a *sql.Tx or *sql.DB.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// current reports whether every migration this build knows is recorded in
// the store: false for a store written before they were recorded by name.
func (db *DB) current(ctx context.Context) bool {
	names, err := migrationNames()
	if err != nil {
		return false
	}
	// Only this build's names count: one a newer build recorded raises the
	// user_version, which the callers check first. Every hook asks at open,
	// so the table is read whole (a row a migration) and compared here: a
	// query that matched the names in SQL (json_each of their list) was
	// parsed and planned at every open.
	rows, err := db.sql.QueryContext(ctx, `SELECT name FROM schema_migrations`)
	if err != nil {
		return false
	}
	defer rows.Close()
	recorded := make(map[string]bool, len(names))
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return false
		}
		recorded[name] = true
	}
	if rows.Err() != nil {
		return false
	}
	for _, name := range names {
		if !recorded[migrationID(name)] {
			return false
		}
	}
	return true
}

// applied returns the recorded names of the migrations the store has: those
// in schema_migrations, or for a store without it those whose objects it
// holds.
func applied(ctx context.Context, q querier, names []string) (map[string]bool, error) {
	done := map[string]bool{}
	var table int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&table); err != nil {
		return nil, fmt.Errorf("read applied migrations: %w", err)
	}
	if table == 1 {
		rows, err := q.QueryContext(ctx, `SELECT name FROM schema_migrations`)
		if err != nil {
			return nil, fmt.Errorf("read applied migrations: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				return nil, err
			}
			done[name] = true
		}
		return done, rows.Err()
	}
	for _, name := range names {
		id := migrationID(name)
		probe, ok := legacyProbes()[id]
		if !ok {
			// Every migration newer than the table is recorded by name.
			continue
		}
		var has bool
		if err := q.QueryRowContext(ctx, "SELECT "+probe).Scan(&has); err != nil {
			return nil, fmt.Errorf("probe migration %s: %w", id, err)
		}
		done[id] = has
	}
	return done, nil
}

// legacyProbes says, for each migration older than schema_migrations, how to
// tell from the schema whether a store has it: an SQL condition. Built at
// first use: only a store without schema_migrations asks, and building it
// (a dozen Sprintf) was most of this package's start-up in every hook.
var legacyProbes = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"0001_init":               hasObject("table", "events"),
		"0002_entries":            hasObject("table", "entries"),
		"0003_index_at_commit":    hasObject("table", "events") + ` AND NOT ` + hasObject("trigger", "events_ai"),
		"0004_citations":          hasColumn("entries", "inject_count"),
		"0005_vocab":              hasObject("table", "events_vocab"),
		"0006_entry_roles":        hasObject("table", "entry_roles"),
		"0007_key_kind":           hasColumn("events", "key_kind"),
		"0008_evidence_best":      hasObject("index", "evidence_best"),
		"0009_entry_roles_recent": hasColumn("entry_roles", "created_at"),
		"0010_events_type":        hasObject("index", "events_type"),
		"0011_team":               hasObject("table", "team_state"),
	}
})

func hasObject(typ, name string) string {
	return fmt.Sprintf(`EXISTS (SELECT 1 FROM sqlite_master WHERE type = '%s' AND name = '%s')`, typ, name)
}

// hasColumn uses table_xinfo, which lists generated columns (key_kind) too.
func hasColumn(table, column string) string {
	return fmt.Sprintf(`EXISTS (SELECT 1 FROM pragma_table_xinfo('%s') WHERE name = '%s')`, table, column)
}

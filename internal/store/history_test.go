package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mainSchemas is every set of migration files main has had (git log
// --first-parent main -- internal/store/migrations), oldest first: the
// schemas stores were written with. A name with "@" is a file as it was at
// that commit, kept in testdata/history; the others are the embedded files
// (0004_vocab was 0005_vocab's text under another name). A store's
// user_version was the count of its files.
var mainSchemas = []struct {
	commit string
	files  []string
}{
	{"2107577", []string{"0001_init"}},
	{"d260502", []string{"0001_init", "0002_entries@d260502"}},
	{"64d9552", []string{"0001_init", "0002_entries"}},
	{"ac93128", []string{"0001_init", "0002_entries", "0003_index_at_commit"}},
	{"931efe3", []string{"0001_init", "0002_entries", "0003_index_at_commit", "0005_vocab"}},
	{"9802e18", []string{"0001_init", "0002_entries", "0003_index_at_commit", "0004_citations", "0005_vocab"}},
	{"1187be5", []string{"0001_init", "0002_entries", "0003_index_at_commit", "0004_citations", "0005_vocab", "0006_entry_roles"}},
	{"bf41d3e", []string{"0001_init", "0002_entries", "0003_index_at_commit", "0004_citations", "0005_vocab", "0006_entry_roles", "0010_events_type"}},
	{"cc15a82", []string{"0001_init", "0002_entries", "0003_index_at_commit", "0004_citations", "0005_vocab", "0006_entry_roles", "0007_key_kind", "0010_events_type"}},
	{"36cb097", []string{"0001_init", "0002_entries", "0003_index_at_commit", "0004_citations", "0005_vocab", "0006_entry_roles", "0007_key_kind", "0008_evidence_best", "0009_entry_roles_recent", "0010_events_type"}},
	{"6f2ecea", []string{"0001_init", "0002_entries", "0003_index_at_commit", "0004_citations", "0005_vocab", "0006_entry_roles", "0007_key_kind", "0008_evidence_best", "0009_entry_roles_recent", "0010_events_type", "0011_drop_vocab@6f2ecea"}},
	{"e2dc5b1", []string{"0001_init", "0002_entries", "0003_index_at_commit", "0004_citations", "0005_vocab", "0006_entry_roles", "0007_key_kind", "0008_evidence_best", "0009_entry_roles_recent", "0010_events_type", "0011_team"}},
}

// historicStore writes at path a store as the build at commit wrote it, with
// 50 prompts and one memory, indexed as that build indexed them.
func historicStore(t *testing.T, path string, files []string) {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, f := range files {
		var b []byte
		if strings.Contains(f, "@") {
			b, err = os.ReadFile(filepath.Join("testdata", "history", f+".sql"))
		} else {
			b, err = migrations.ReadFile("migrations/" + f + ".sql")
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(string(b)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := raw.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i := range 50 {
		exec(`INSERT INTO events (ts, type, session_id, project, text, payload, dedupe_key, checksum) VALUES (?, 'user_prompt', 's0', '/p', ?, '{}', ?, 'x')`,
			fmt.Sprintf("2026-01-01T00:%02d:00.000000Z", i), fmt.Sprintf("prompt %d: sign tokens with RS256", i), fmt.Sprintf("k%d", i))
	}
	var trigger bool
	raw.QueryRow(`SELECT ` + hasObject("trigger", "events_ai")).Scan(&trigger)
	if !trigger { // from 0003 on, Tx.Commit indexed the rows
		exec(`INSERT INTO events_fts(rowid, text) SELECT id, text FROM events`)
	}
	if slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, "0002_") }) {
		exec(`INSERT INTO entries (cid, project, session_id, type, title, body, claim_key, created_at) VALUES ('mem:aaaaaa', '/p', 's0', 'decision', 'Sign tokens with RS256', 'b', 'k', '2026-01-01T00:00:00.000000Z')`)
		if !trigger {
			exec(`INSERT INTO entries_fts(rowid, title, body, subject) SELECT id, title, body, subject FROM entries`)
		}
	}
	exec(fmt.Sprintf("PRAGMA user_version = %d", len(files)))
}

// schemaOf describes a store's schema: each table's, index's, trigger's
// and view's name, and each table's columns in order.
func schemaOf(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	var out, tables []string
	for rows.Next() {
		var typ, name string
		rows.Scan(&typ, &name)
		out = append(out, typ+" "+name)
		if typ == "table" {
			tables = append(tables, name)
		}
	}
	rows.Close()
	for _, tab := range tables {
		var cols []string
		rows, err := db.Query(`SELECT name FROM pragma_table_xinfo(?) ORDER BY cid`, tab)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var c string
			rows.Scan(&c)
			cols = append(cols, c)
		}
		rows.Close()
		out = append(out, tab+"("+strings.Join(cols, ",")+")")
	}
	return out
}

// TestUpgradeFromEveryMainSchema: a store written by any build main ever
// had upgrades to this build's schema, the same as a new store's, with its
// rows and indexes intact. Before migrations were recorded by name, the
// stores of 931efe3, bf41d3e and cc15a82 (23cfc40) failed to upgrade at
// every open, 6f2ecea's counted as newer than every build (and, with
// 0011_team, as having it), and d260502's never got the brief's indexes.
func TestUpgradeFromEveryMainSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fresh := MustOpen(t)
	want := schemaOf(t, fresh.SQL())
	for _, s := range mainSchemas {
		t.Run(fmt.Sprintf("%s_v%d", s.commit, len(s.files)), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "memory.db")
			historicStore(t, path, s.files)
			db, err := Open(ctx, path, Options{})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer db.Close()
			if v, _ := db.Version(ctx); v != SchemaVersion() || !db.current(ctx) {
				t.Fatalf("version %d after upgrade (all migrations recorded: %v), want %d", v, db.current(ctx), SchemaVersion())
			}
			if got := schemaOf(t, db.SQL()); !slices.Equal(got, want) {
				t.Errorf("schema after upgrade differs from a new store's:\n got %q\nwant %q", got, want)
			}
			if n, _ := db.CountEvents(ctx, ""); n != 50 {
				t.Errorf("%d events after upgrade, want 50", n)
			}
			ftsIntact(t, db)
			if err := db.Update(ctx, func(tx *Tx) error {
				_, err := tx.Append(ctx, Event{Type: TypeUserPrompt, SessionID: "s0", Project: "/p", DedupeKey: "after", Text: "rs256 after the upgrade"})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{"rs256"}, false), Limit: 100}); err != nil || len(hits) != 51 {
				t.Errorf("search after the upgrade: %d hits, %v; want 51", len(hits), err)
			}
			ftsIntact(t, db)
			var check string
			db.SQL().QueryRow("PRAGMA integrity_check").Scan(&check)
			if check != "ok" {
				t.Errorf("integrity_check: %s", check)
			}
			// A read-only open (recall, MCP, dashboard) reads it as is.
			ro, err := Open(ctx, path, Options{ReadOnly: true})
			if err != nil {
				t.Fatalf("read-only open after the upgrade: %v", err)
			}
			ro.Close()
		})
	}
}

// TestReadOnlyOpenOfUnrecordedStore: a store whose count matches this
// build's but whose migrations are not recorded by name (6f2ecea's, say)
// is an old one to readers, which leave it to the next writer to repair.
func TestReadOnlyOpenOfUnrecordedStore(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "memory.db")
	i := slices.IndexFunc(mainSchemas, func(s struct {
		commit string
		files  []string
	}) bool {
		return s.commit == "6f2ecea"
	})
	historicStore(t, path, mainSchemas[i].files)
	if _, err := Open(context.Background(), path, Options{ReadOnly: true}); err == nil || !errors.Is(err, ErrOldSchema) {
		t.Fatalf("read-only open of 6f2ecea's store: %v, want ErrOldSchema", err)
	}
}

package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// searchIDs returns the citation ids of project /p's entries matching
// every word.
func searchIDs(t *testing.T, db *DB, words ...string) []string {
	t.Helper()
	hits, err := db.SearchEntries(context.Background(), EntryQuery{Match: MatchAll(words, false), Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.CID)
	}
	return out
}

// TestUpgradeAddsQuestions: a store at the schema before questions
// (0001..0012, recorded by name) upgrades with its memory still found by
// its words; the memory, said again, gains its questions, and is found by
// them, with the full-text index consistent throughout.
func TestUpgradeAddsQuestions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	names, err := migrationNames()
	if err != nil {
		t.Fatal(err)
	}
	before := slices.IndexFunc(names, func(n string) bool { return strings.Contains(n, "0013_entry_questions") })
	if before < 0 {
		t.Fatal("no migration 0013_entry_questions")
	}
	if _, err := raw.Exec(`CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, n := range names[:before] {
		b, err := migrations.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(string(b)); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if _, err := raw.Exec(`INSERT INTO schema_migrations VALUES (?, '2026-11-01T00:00:00.000000Z')`, migrationID(n)); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`INSERT INTO entries (cid, project, session_id, type, title, body, subject, claim_key, stage, created_at)
			VALUES ('mem:aaaaaa', '/p', 's1', 'decision', 'We install with pnpm', 'b', 'package manager', 'package manager|install pnpm', 'verified', '2026-11-01T00:00:00.000000Z')`,
		`INSERT INTO entries_fts(rowid, title, body, subject) SELECT id, title, body, subject FROM entries`,
		fmt.Sprintf(`PRAGMA user_version = %d`, before),
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()

	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer db.Close()
	ftsIntact(t, db)
	if got := searchIDs(t, db, "pnpm"); !slices.Equal(got, []string{"mem:aaaaaa"}) {
		t.Fatalf("after the upgrade, pnpm finds %v, want [mem:aaaaaa]", got)
	}
	e, err := db.EntryByCID(ctx, "mem:aaaaaa")
	if err != nil || len(e.Questions) != 0 {
		t.Fatalf("upgraded entry: questions %q, err %v; want none", e.Questions, err)
	}
	// Said again in another session: the same claim gains its questions.
	again := Entry{Project: "/p", SessionID: "s2", Type: "decision", Title: "We install with pnpm", Subject: "package manager",
		ClaimKey: "package manager|install pnpm", Stage: StageVerified, Created: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC),
		Questions: []string{"Which package manager do we use?"},
		Evidence:  []Evidence{{SessionID: "s2", Quote: "We install with pnpm", Method: "exact", Confidence: 1}}}
	if _, created, err := db.PutEntry(ctx, again); err != nil || created {
		t.Fatalf("put again: created %v, err %v", created, err)
	}
	ftsIntact(t, db)
	if got := searchIDs(t, db, "package", "manager", "use"); !slices.Equal(got, []string{"mem:aaaaaa"}) {
		t.Errorf("its question's words find %v, want [mem:aaaaaa]", got)
	}
	if e, _ := db.EntryByCID(ctx, "mem:aaaaaa"); !slices.Equal(e.Questions, again.Questions) {
		t.Errorf("questions %q, want %q", e.Questions, again.Questions)
	}
}

// TestQuestionsOfANewEntryInOneTransaction: an entry made and said again
// in one transaction (reextract writes a project's sessions in one) keeps
// both sessions' questions, and the index stays consistent: the update
// of a row not yet indexed must not reach the index.
func TestQuestionsOfANewEntryInOneTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	put := func(session string, q string) EntryWrite {
		return EntryWrite{Entry: Entry{Project: "/p", SessionID: session, Type: "fact", Title: "The ledger listens on 7443",
			Subject: "ledger", ClaimKey: "ledger|7443 ledger listens", Stage: StageVerified, Questions: []string{q},
			Evidence: []Evidence{{SessionID: session, Quote: "The ledger listens on 7443", Method: "exact", Confidence: 1}}}}
	}
	err := db.Update(ctx, func(tx *Tx) error {
		if _, _, err := tx.PutEntries(ctx, []EntryWrite{put("s1", "What port does ledger use?")}); err != nil {
			return err
		}
		_, _, err := tx.PutEntries(ctx, []EntryWrite{put("s2", "Where does the ledger listen?")})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	ftsIntact(t, db)
	for _, w := range []string{"port", "where"} {
		if got := searchIDs(t, db, w); len(got) != 1 {
			t.Errorf("%q finds %v, want the one entry", w, got)
		}
	}
}

package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// forgetFixture is a small store: two sessions of one project and one of
// another, with entries whose quotes point into the messages.
type forgetFixture struct {
	db  *DB
	ids map[string]int64 // event ids by name
	cid map[string]string
}

func newForgetFixture(t *testing.T, opt Options) *forgetFixture {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.Now = func() time.Time { return t0.Add(48 * time.Hour) }
	f := &forgetFixture{db: db, ids: map[string]int64{}, cid: map[string]string{}}
	msgs := []struct {
		name, session, project, typ, text string
		at                                time.Duration
	}{
		{"q1", "s1", "/p", TypeUserPrompt, "Which queue should the billing worker use?", 0},
		{"a1", "s1", "/p", TypeAgentResponse, "We will use zanzibarqueue for billing jobs. Retries back off exponentially up to ten minutes.", time.Minute},
		{"q2", "s1", "/p", TypeUserPrompt, "Repeat it: We will use zanzibarqueue for billing jobs.", 2 * time.Minute},
		{"o1", "s1", "/p", TypeToolObservation, "Bash: make test\nok ./billing 0.41s", 3 * time.Minute},
		{"q3", "s2", "/p", TypeUserPrompt, "Tests run with the quokkarunner harness from now on.", 24 * time.Hour},
		{"a3", "s2", "/p", TypeAgentResponse, "Noted: the quokkarunner harness replaces make test in CI.", 24*time.Hour + time.Minute},
		{"q4", "s3", "/other", TypeUserPrompt, "Deploy the marmosetdeploy tool to staging.", 25 * time.Hour},
	}
	for _, m := range msgs {
		r, err := appendEvents(ctx, db, Event{Time: t0.Add(m.at), Type: m.typ, SessionID: m.session, Project: m.project, Text: m.text,
			SourceUUID: "uuid-" + m.name, DedupeKey: "k:" + m.name, Payload: json.RawMessage(fmt.Sprintf(`{"uuids":["uuid-%s"],"key":%q}`, m.name, m.text))})
		if err != nil || len(r.IDs) != 1 {
			t.Fatalf("append %s: %v", m.name, err)
		}
		f.ids[m.name] = r.IDs[0]
	}
	for _, s := range []string{"s1", "s2", "s3"} {
		p := "/p"
		if s == "s3" {
			p = "/other"
		}
		if err := db.Update(ctx, func(tx *Tx) error {
			return tx.TouchSession(ctx, Session{ID: s, Project: p, StartedAt: t0, TranscriptPath: "/t/" + s + ".jsonl"})
		}); err != nil {
			t.Fatal(err)
		}
		if err := db.Update(ctx, func(tx *Tx) error { return tx.SetSummary(ctx, s, "summary of "+s) }); err != nil {
			t.Fatal(err)
		}
	}
	a1 := "We will use zanzibarqueue for billing jobs. Retries back off exponentially up to ten minutes."
	span := func(text, quote string) (int, int) {
		i := strings.Index(text, quote)
		if i < 0 {
			t.Fatalf("%q not in %q", quote, text)
		}
		return i, i + len(quote)
	}
	entries := []struct {
		name, session, project, typ, title, quote, event, text string
	}{
		// The memory to forget, quoted from a1 (and repeated in q2).
		{"queue", "s1", "/p", "decision", "Use zanzibarqueue for billing jobs", "We will use zanzibarqueue for billing jobs.", "a1", a1},
		// Another memory from the same message, a different sentence: it survives.
		{"retries", "s1", "/p", "fact", "Retries back off up to ten minutes", "Retries back off exponentially up to ten minutes.", "a1", a1},
		// A memory quoting the same sentence: it goes with it.
		{"billing", "s1", "/p", "fact", "Billing jobs run on a queue", "zanzibarqueue for billing jobs", "a1", a1},
		{"runner", "s2", "/p", "decision", "Tests run with quokkarunner", "Tests run with the quokkarunner harness from now on.", "q3",
			"Tests run with the quokkarunner harness from now on."},
		{"deploy", "s3", "/other", "task", "Deploy marmosetdeploy to staging", "Deploy the marmosetdeploy tool to staging.", "q4",
			"Deploy the marmosetdeploy tool to staging."},
	}
	for _, e := range entries {
		s, end := span(e.text, e.quote)
		payload, _ := json.Marshal(map[string]any{"title": e.title, "claim_key": e.name, "evidence": []any{map[string]any{"quote": e.quote}}})
		got, _, err := db.PutEntry(ctx, Entry{Project: e.project, SessionID: e.session, Type: e.typ, Title: e.title, Body: e.quote,
			Subject: e.name, ClaimKey: e.name, Stage: StageVerified,
			Evidence: []Evidence{{EventID: f.ids[e.event], SessionID: e.session, SourceUUID: "uuid-" + e.event, Quote: e.quote,
				SpanStart: s, SpanEnd: end, Method: "exact", Confidence: 1}}},
			Event{Time: t0.Add(4 * time.Hour), Type: TypeEntryExtracted, SessionID: e.session, Project: e.project, Text: e.title, DedupeKey: "entry:" + e.name, Payload: payload},
			Event{Time: t0.Add(4 * time.Hour), Type: TypeEvidenceAligned, SessionID: e.session, Project: e.project, DedupeKey: "aligned:" + e.name,
				Payload: json.RawMessage(fmt.Sprintf(`{"claim_key":%q,"spans":[{"quote":%q}]}`, e.name, e.quote))})
		if err != nil {
			t.Fatalf("put %s: %v", e.name, err)
		}
		f.cid[e.name] = got.CID
	}
	// queue and runner contradict each other (for the test's sake).
	q, _ := db.EntryByCID(ctx, f.cid["queue"])
	r, _ := db.EntryByCID(ctx, f.cid["runner"])
	if _, err := db.AddConflict(ctx, Conflict{Older: q.ID, Newer: r.ID, Kind: "contradicts", Reason: "both about zanzibarqueue"},
		Event{Time: t0.Add(25 * time.Hour), Type: TypeConflict, SessionID: "s2", Project: "/p", DedupeKey: "conflict:1",
			Payload: json.RawMessage(fmt.Sprintf(`{"older":%q,"newer":%q,"kind":"contradicts","subject":"zanzibarqueue"}`, q.CID, r.CID))}); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkInjected(ctx, Event{Time: t0.Add(30 * time.Hour), Type: TypeMemoryInjected, SessionID: "s4", Project: "/p",
		DedupeKey: "inject:1", Payload: json.RawMessage(fmt.Sprintf(`{"memories":[%q,%q],"chars":420}`, q.CID, r.CID))}); err != nil {
		t.Fatal(err)
	}
	return f
}

// textColumns returns every TEXT (and BLOB) value of every table, FTS5 shadow
// tables included, as one string per row and column.
func textColumns(t *testing.T, db *DB) map[string][]string {
	t.Helper()
	ctx := context.Background()
	names, err := queryStrings(ctx, db.sql, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, n := range names {
		rows, err := db.sql.QueryContext(ctx, `SELECT * FROM "`+n+`"`)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				switch v := v.(type) {
				case string:
					out[n] = append(out[n], v)
				case []byte:
					out[n] = append(out[n], string(v))
				}
			}
		}
		rows.Close()
	}
	return out
}

func queryStrings(ctx context.Context, db *sql.DB, q string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// assertGone checks that word is in no column of any table, matches nothing
// in either FTS index, and is not in the bytes of the database file or its WAL.
// The FTS5 index stores porter stems ("quokkarunner" as "quokkarunn"), so
// word must be a lower-case root the stemmer leaves whole: "quokkarun".
func assertGone(t *testing.T, db *DB, word string) {
	t.Helper()
	ctx := context.Background()
	for table, vals := range textColumns(t, db) {
		for _, v := range vals {
			if strings.Contains(strings.ToLower(v), word) {
				t.Errorf("%q still in table %s: %q", word, table, clip(v))
			}
		}
	}
	if hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{word}, true)}); err != nil || len(hits) > 0 {
		t.Errorf("events_fts MATCH %q: %d hits, err %v", word, len(hits), err)
	}
	if hits, err := db.SearchEntries(ctx, EntryQuery{Match: MatchAny([]string{word}, true)}); err != nil || len(hits) > 0 {
		t.Errorf("entries_fts MATCH %q: %d hits, err %v", word, len(hits), err)
	}
	assertNotInFiles(t, db.Path(), word)
}

// assertNotInFiles greps the raw bytes of the database file, its WAL and its
// shared-memory index.
func assertNotInFiles(t *testing.T, path, word string) {
	t.Helper()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if i := bytes.Index(bytes.ToLower(b), []byte(word)); i >= 0 {
			t.Errorf("%q still in the bytes of %s at offset %d", word, filepath.Base(p), i)
		}
	}
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

func mustCount(t *testing.T, db *DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.sql.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPlanForgetChangesNothing(t *testing.T) {
	t.Parallel()
	f := newForgetFixture(t, Options{})
	ctx := context.Background()
	before := textColumns(t, f.db)
	for _, sel := range []ForgetSelector{{CID: f.cid["queue"]}, {SessionID: "s1"}, {Project: "/p"}, {Before: t0.Add(time.Hour)}, {Phrase: "quokkarunner"}} {
		p, err := f.db.PlanForget(ctx, sel)
		if err != nil {
			t.Fatalf("PlanForget(%+v): %v", sel, err)
		}
		if p.Empty() {
			t.Errorf("PlanForget(%+v) is empty", sel)
		}
	}
	after := textColumns(t, f.db)
	for table := range before {
		if strings.Join(before[table], "\x00") != strings.Join(after[table], "\x00") {
			t.Errorf("PlanForget changed table %s", table)
		}
	}
}

func TestForgetSelectorErrors(t *testing.T) {
	t.Parallel()
	f := newForgetFixture(t, Options{})
	ctx := context.Background()
	if _, err := f.db.Forget(ctx, ForgetSelector{}); !errors.Is(err, ErrEmptySelector) {
		t.Errorf("empty selector: %v, want ErrEmptySelector", err)
	}
	if _, err := f.db.Forget(ctx, ForgetSelector{CID: "mem:ffffff"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown cid: %v, want ErrNotFound", err)
	}
	if _, err := f.db.Forget(ctx, ForgetSelector{CID: f.cid["queue"], SessionID: "s1"}); err == nil {
		t.Error("cid with a filter: no error")
	}
	// A phrase full of FTS5 syntax is one harmless phrase.
	for _, q := range []string{`foo"bar`, `a OR b`, `-x`, `text:*`, "NEAR(a b)", "a\x00b"} {
		p, err := f.db.Forget(ctx, ForgetSelector{Phrase: q})
		if err != nil {
			t.Errorf("Phrase %q: %v", q, err)
		}
		if !p.Empty() {
			t.Errorf("Phrase %q removed %+v", q, p)
		}
	}
	// A phrase that matches nothing stored still leaves its rule: the words
	// may be in a transcript row no hook has read yet (forget_rule.go).
	if n := mustCount(t, f.db, `SELECT count(*) FROM events WHERE type = ?`, TypeForgotten); n != 6 {
		t.Errorf("%d tombstones after forgetting six phrases stored nowhere, want 6", n)
	}
}

func TestForgetMemory(t *testing.T) {
	t.Parallel()
	f := newForgetFixture(t, Options{})
	ctx := context.Background()
	db := f.db
	events := mustCount(t, db, `SELECT count(*) FROM events`)
	p, err := db.Forget(ctx, ForgetSelector{CID: f.cid["queue"], Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	// The memory, and (asked with Shared) the one quoting the same sentence, are gone.
	for _, name := range []string{"queue", "billing"} {
		if _, err := db.EntryByCID(ctx, f.cid[name]); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s still there: %v", name, err)
		}
	}
	// The other sentence of the same message is another memory: it stays.
	for _, name := range []string{"retries", "runner", "deploy"} {
		if _, err := db.EntryByCID(ctx, f.cid[name]); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// The source message and the prompt that repeated the quote are redacted, not deleted.
	for _, name := range []string{"a1", "q2"} {
		ev, err := db.Event(ctx, f.ids[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ev.Text != Redacted || string(ev.Payload) != "{}" {
			t.Errorf("%s = %q %s, want redacted", name, ev.Text, ev.Payload)
		}
		if ev.Checksum != checksum(ev, "{}") {
			t.Errorf("%s: checksum not recomputed", name)
		}
	}
	for _, name := range []string{"q1", "o1", "q3"} {
		if ev, err := db.Event(ctx, f.ids[name]); err != nil || ev.Text == Redacted {
			t.Errorf("%s: %q %v, want untouched", name, ev.Text, err)
		}
	}
	if got, want := len(p.Redact), 2; got != want {
		t.Errorf("redacted %d events, want %d", got, want)
	}
	// Extraction, alignment and conflict records of both entries are deleted (6),
	// the contested side is active again, the injection no longer names it.
	if got, want := mustCount(t, db, `SELECT count(*) FROM events`), events-5+1; got != want {
		t.Errorf("events after forget = %d, want %d (plan %+v)", got, want, p)
	}
	r, _ := db.EntryByCID(ctx, f.cid["runner"])
	if r.Status != StatusActive {
		t.Errorf("runner status %s, want active once its only conflict is gone", r.Status)
	}
	inj, _ := db.Read().Events(ctx, EventFilter{Types: []string{TypeMemoryInjected}})
	if len(inj) != 1 || strings.Contains(string(inj[0].Payload), f.cid["queue"]) || !strings.Contains(string(inj[0].Payload), f.cid["runner"]) {
		t.Errorf("injection payload = %s", inj[0].Payload)
	}
	if s, _ := db.Read().Session(ctx, "s1"); s.Summary != "" || s.Source == SessionForgotten {
		t.Errorf("s1 = %+v, want summary cleared and the session kept", s)
	}
	// One tombstone, with counts and hashes only.
	tomb, _ := db.Read().Events(ctx, EventFilter{Types: []string{TypeForgotten}})
	if len(tomb) != 1 {
		t.Fatalf("%d tombstones", len(tomb))
	}
	var key []byte
	if err := db.Update(ctx, func(tx *Tx) (err error) { key, err = tx.forgetKey(ctx, false); return err }); err != nil || key == nil {
		t.Fatalf("the store's forget key: %v %v", key, err)
	}
	if tomb[0].Text != "" || !strings.Contains(string(tomb[0].Payload), newRuleHasher(key).of(f.cid["queue"])) ||
		strings.Contains(string(tomb[0].Payload), f.cid["queue"]+`"`) || tomb[0].Project != "/p" {
		t.Errorf("tombstone = %+v %s", tomb[0], tomb[0].Payload)
	}
	assertGone(t, db, "zanzibarq")
}

func TestForgetSessionProjectBeforeMatch(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		sel     func(f *forgetFixture) ForgetSelector
		gone    string   // a word that must be gone
		kept    []string // entries that survive
		emptied []string
	}{
		{"session", func(*forgetFixture) ForgetSelector { return ForgetSelector{SessionID: "s2"} }, "quokkarun",
			[]string{"queue", "retries", "billing", "deploy"}, []string{"s2"}},
		{"project", func(*forgetFixture) ForgetSelector { return ForgetSelector{Project: "/other"} }, "marmosetd",
			[]string{"queue", "retries", "billing", "runner"}, []string{"s3"}},
		{"before", func(*forgetFixture) ForgetSelector { return ForgetSelector{Before: t0.Add(12 * time.Hour)} }, "zanzibarq",
			[]string{"runner", "deploy"}, []string{"s1"}},
		{"match", func(*forgetFixture) ForgetSelector { return ForgetSelector{Phrase: "Quokkarunner harness"} }, "quokkarun",
			[]string{"queue", "retries", "billing", "deploy"}, []string{"s2"}},
		{"match within project", func(*forgetFixture) ForgetSelector { return ForgetSelector{Phrase: "staging", Project: "/other"} },
			"marmosetd", []string{"queue", "retries", "billing", "runner"}, []string{"s3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newForgetFixture(t, Options{})
			db := f.db
			p, err := db.Forget(ctx, tt.sel(f))
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Compact(ctx); err != nil {
				t.Fatal(err)
			}
			assertGone(t, db, tt.gone)
			for _, name := range tt.kept {
				if _, err := db.EntryByCID(ctx, f.cid[name]); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
			if got := strings.Join(p.Emptied, ","); got != strings.Join(tt.emptied, ",") {
				t.Errorf("emptied sessions %q, want %q", got, strings.Join(tt.emptied, ","))
			}
			for _, s := range tt.emptied {
				sess, err := db.Read().Session(ctx, s)
				if err != nil || sess.Source != SessionForgotten || sess.Summary != "" {
					t.Errorf("session %s = %+v, %v: want a content-free marker", s, sess, err)
				}
			}
			if n := mustCount(t, db, `SELECT count(*) FROM events WHERE type = ?`, TypeForgotten); n != 1 {
				t.Errorf("%d tombstones, want 1", n)
			}
			// Nothing of the other project's or session's text went by mistake.
			if _, err := db.Event(ctx, f.ids["o1"]); err != nil && tt.name != "before" {
				t.Errorf("o1: %v", err)
			}
		})
	}
}

// TestCompactPending holds a read transaction open on a second connection,
// as a running hook might: the WAL cannot be reset, and Compact says so.
func TestCompactPending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newForgetFixture(t, Options{BusyTimeout: 20 * time.Millisecond})
	other, err := sql.Open("sqlite", "file:"+f.db.Path()+"?_pragma=busy_timeout(20)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Forget(ctx, ForgetSelector{SessionID: "s2"}); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Compact(ctx); !errors.Is(err, ErrCompactPending) {
		t.Fatalf("Compact with a reader: %v, want ErrCompactPending", err)
	}
	// The content is deleted and unsearchable already.
	if hits, _ := f.db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{"quokkarun"}, true)}); len(hits) != 0 {
		t.Errorf("%d hits before compaction", len(hits))
	}
	tx.Rollback()
	other.Close()
	if err := f.db.Compact(ctx); err != nil {
		t.Fatalf("Compact once the reader is gone: %v", err)
	}
	assertGone(t, f.db, "quokkarun")
}

func TestContainsPhrase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, phrase string
		want         bool
	}{
		{"the api key.", "api key", true},
		{"monkey business", "key", false},
		{"key", "key", true},
		{"a keys b", "key", false},
		{"mon key key", "key", true},
		{"ключ доступа", "ключ", true},
		{"x", "", false},
	}
	for _, tt := range tests {
		if got := containsPhrase(tt.text, tt.phrase); got != tt.want {
			t.Errorf("containsPhrase(%q, %q) = %v", tt.text, tt.phrase, got)
		}
	}
	f := newForgetFixture(t, Options{})
	if _, err := f.db.PlanForget(context.Background(), ForgetSelector{Phrase: " ... "}); !errors.Is(err, ErrEmptySelector) {
		t.Errorf("punctuation phrase: %v, want ErrEmptySelector", err)
	}
}

func TestRemoveBackups(t *testing.T) {
	t.Parallel()
	f := newForgetFixture(t, Options{})
	bak := f.db.Path() + ".v1.bak"
	if err := os.WriteFile(bak, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := f.db.RemoveBackups()
	if err != nil || len(got) != 1 || got[0] != bak {
		t.Fatalf("RemoveBackups = %v, %v", got, err)
	}
	if _, err := os.Stat(bak); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("backup still there: %v", err)
	}
}

func TestEntryEvents(t *testing.T) {
	t.Parallel()
	f := newForgetFixture(t, Options{})
	e, err := f.db.EntryByCID(context.Background(), f.cid["queue"])
	if err != nil {
		t.Fatal(err)
	}
	evs, err := f.db.EntryEvents(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type)
	}
	if got, want := strings.Join(types, ","), "entry_extracted,evidence_aligned,conflict_recorded,memory_injected"; got != want {
		t.Errorf("EntryEvents types = %s, want %s", got, want)
	}
}

func TestStats(t *testing.T) {
	t.Parallel()
	f := newForgetFixture(t, Options{})
	ctx := context.Background()
	st, err := f.db.Stats(ctx, "/p")
	if err != nil {
		t.Fatal(err)
	}
	if st.Events != mustCount(t, f.db, `SELECT count(*) FROM events WHERE project = '/p'`) || st.Entries != 4 || st.Sessions != 2 {
		t.Errorf("Stats(/p) = %+v", st)
	}
	if st.ByStage[StageVerified] != 4 || st.ByStatus[StatusContested] != 2 || st.ByType[TypeUserPrompt] != 3 {
		t.Errorf("Stats(/p) counts = %v %v %v", st.ByStage, st.ByStatus, st.ByType)
	}
	if st.Injections != 1 || st.InjectedChars != 420 || st.InjectedMemories != 2 {
		t.Errorf("Stats(/p) recall = %d %d %d", st.Injections, st.InjectedChars, st.InjectedMemories)
	}
	if !st.LastIngest.Equal(t0.Add(24*time.Hour + time.Minute)) {
		t.Errorf("LastIngest = %v", st.LastIngest)
	}
	all, err := f.db.Stats(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Projects) != 2 || all.Projects[0].Project != "/p" || all.Sessions != 3 {
		t.Errorf("Stats(all) = %+v", all)
	}
	if _, err := f.db.Forget(ctx, ForgetSelector{SessionID: "s3"}); err != nil {
		t.Fatal(err)
	}
	if all, _ = f.db.Stats(ctx, ""); all.Sessions != 2 || all.ForgottenSessions != 1 || all.Forgets != 1 {
		t.Errorf("after forget: sessions %d forgotten %d forgets %d", all.Sessions, all.ForgottenSessions, all.Forgets)
	}
	if n, err := f.db.Bytes(); err != nil || n <= 0 {
		t.Errorf("Bytes = %d, %v", n, err)
	}
}

// TestForgetMemoryKeepsShared checks that forgetting one memory leaves
// another that quotes the same sentence, unless asked, and names it.
func TestForgetMemoryKeepsShared(t *testing.T) {
	t.Parallel()
	f := newForgetFixture(t, Options{})
	ctx := context.Background()
	preview, err := f.db.PlanForget(ctx, ForgetSelector{CID: f.cid["queue"]})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(preview.Kept, ",") != f.cid["billing"] {
		t.Errorf("preview keeps %v, want %s", preview.Kept, f.cid["billing"])
	}
	p, err := f.db.Forget(ctx, ForgetSelector{CID: f.cid["queue"]})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Entries) != 1 {
		t.Errorf("forgot %d entries, want 1", len(p.Entries))
	}
	if _, err := f.db.EntryByCID(ctx, f.cid["queue"]); !errors.Is(err, ErrNotFound) {
		t.Errorf("queue still there: %v", err)
	}
	b, err := f.db.EntryByCID(ctx, f.cid["billing"])
	if err != nil || len(b.Evidence) == 0 {
		t.Errorf("billing gone or without evidence: %v", err)
	}
}

// TestForgetRule checks the rule a forget leaves: a phrase is refused in
// any later event, case and accents aside, as whole words only; a session
// forgotten refuses what it had said by then, not what it says afterwards.
func TestForgetRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	if _, err := db.Forget(ctx, ForgetSelector{Phrase: "Crème Brûlée recipe"}); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx *Tx) error {
		_, err := tx.Append(ctx, Event{Type: TypeUserPrompt, SessionID: "gone", Project: "/p", Text: "first", DedupeKey: "prompt:gone:1"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{SessionID: "gone"}); err != nil {
		t.Fatal(err)
	}
	forgotAt := db.Now()
	ev := func(session, text string, at time.Time) Event {
		return Event{Time: at, Type: TypeUserPrompt, SessionID: session, Project: "/p", Text: text, DedupeKey: Key(KeyPrompt, session, text)}
	}
	for _, tt := range []struct {
		ev   Event
		kept bool
	}{
		{ev("s", "the CREME brulee recipe is secret", forgotAt.Add(time.Hour)), false},
		{ev("s", `{"command":"cat creme-brulee-recipe.txt"}`, forgotAt.Add(-time.Hour)), false},
		{ev("s", "a crème brûlée recipes book", forgotAt), true},
		{ev("gone", "said before the forget", forgotAt.Add(-time.Minute)), false},
		{ev("gone", "said after the forget", forgotAt.Add(time.Minute)), true},
	} {
		var res AppendResult
		err := db.Update(ctx, func(tx *Tx) error {
			var err error
			res, err = tx.Append(ctx, tt.ev)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if kept := res.Added == 1; kept != tt.kept {
			t.Errorf("%s %q: stored %v, want %v (%+v)", tt.ev.SessionID, tt.ev.Text, kept, tt.kept, res)
		}
	}
}

// TestForgetRuleRefusesEntries checks that a memory holding forgotten words
// is not written back either (a worker's model or a restored backup can
// write one without any stored event saying them).
func TestForgetRuleRefusesEntries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	if _, err := db.Forget(ctx, ForgetSelector{Phrase: "quillfeather42"}); err != nil {
		t.Fatal(err)
	}
	put := func(title string) error {
		_, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s", Type: "fact", Title: title, Body: title, ClaimKey: title, Stage: StageCandidate})
		return err
	}
	if err := put("The deploy key is quillfeather42"); !errors.Is(err, ErrForgotten) {
		t.Errorf("an entry naming the forgotten words: %v, want ErrForgotten", err)
	}
	if err := put("The deploy key rotates monthly"); err != nil {
		t.Errorf("an entry of other words: %v", err)
	}
}

// TestForgetShortQuotesLeavesNoCatchAllRule checks that forgetting a memory
// whose quotes are all too short to search for ("use pnpm") does not leave
// a rule that refuses everything: a later prompt, in another project, about
// other things, is still stored, and so is a new memory.
func TestForgetShortQuotesLeavesNoCatchAllRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	r, err := appendEvents(ctx, db, Event{Type: TypeUserPrompt, SessionID: "s1", Project: "/p", Text: "use pnpm", DedupeKey: "prompt:s1:1"})
	if err != nil || len(r.IDs) != 1 {
		t.Fatalf("append: %v %+v", err, r)
	}
	m, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: "Use pnpm", Body: "use pnpm",
		ClaimKey: "pm", Stage: StageVerified, Evidence: []Evidence{{EventID: r.IDs[0], SessionID: "s1", Quote: "use pnpm",
			SpanStart: 0, SpanEnd: 8, Method: "exact", Confidence: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{CID: m.CID}); err != nil {
		t.Fatal(err)
	}
	tomb, _ := db.Read().Events(ctx, EventFilter{Types: []string{TypeForgotten}})
	if len(tomb) != 1 || strings.Contains(string(tomb[0].Payload), `"rule"`) {
		t.Errorf("tombstones %+v, want one without a rule", tomb)
	}
	later := Event{Type: TypeUserPrompt, SessionID: "s9", Project: "/elsewhere", Text: "Rename the billing table", DedupeKey: "prompt:s9:1"}
	if r, err := appendEvents(ctx, db, later); err != nil || r.Added != 1 || r.Forgotten != 0 {
		t.Errorf("a later unrelated prompt: %+v %v, want it stored", r, err)
	}
	if _, _, err := db.PutEntry(ctx, Entry{Project: "/elsewhere", SessionID: "s9", Type: "fact", Title: "Billing table renamed",
		Body: "Billing table renamed", ClaimKey: "billing", Stage: StageCandidate}); err != nil {
		t.Errorf("a later unrelated memory: %v, want it stored", err)
	}
}

// TestEmptyRuleRefusesNothing checks that a rule without phrases, session,
// project or date, as a forget of short quotes once wrote, refuses nothing.
func TestEmptyRuleRefusesNothing(t *testing.T) {
	s := newRuleSet([]forgetRule{{Until: t0}}, nil)
	if s.refuses(Event{Time: t0.Add(-time.Hour), Type: TypeUserPrompt, SessionID: "s", Project: "/p", Text: "anything"}) {
		t.Error("an empty rule refuses an event")
	}
}

// TestForgetRuleReadsPayloadValues checks that a rule matches the words of
// a payload's values, unescaped, and never its keys: forgetting the word
// "command" does not refuse every later tool call, and a forgotten word
// after a newline, or beside a character JSON escapes, is still refused.
func TestForgetRuleReadsPayloadValues(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	for _, phrase := range []string{"command", "tool use", "hunter2", "alpha beta"} {
		if _, err := db.Forget(ctx, ForgetSelector{Phrase: phrase}); err != nil {
			t.Fatal(err)
		}
	}
	for i, tt := range []struct {
		payload string
		kept    bool
	}{
		{`{"tool":"Bash","command":"ls -la","tool_use_id":"toolu_1","source":"hook"}`, true},
		{`{"tool":"Bash","stdout":"password:\nhunter2"}`, false},
		{`{"tool":"Bash","stdout":"alpha\u003cbeta"}`, false},
		{`{"tool":"Bash","input":{"args":["x","hunter2"]}}`, false},
	} {
		e := Event{Type: TypeToolObservation, SessionID: "s", Project: "/p", Text: "Bash",
			DedupeKey: fmt.Sprintf("tool:s:%d", i), Payload: json.RawMessage(tt.payload)}
		r, err := appendEvents(ctx, db, e)
		if err != nil {
			t.Fatal(err)
		}
		if kept := r.Added == 1; kept != tt.kept {
			t.Errorf("%s: stored %v, want %v (%+v)", tt.payload, kept, tt.kept, r)
		}
	}
}

// TestForgetRuleHashesAreKeyed checks that the tombstone of a forget cannot
// be read back by hashing guesses: its hashes of the phrase and of its first
// word are keyed with the store's own secret, so they are not those anyone
// can compute (sha256, FNV) and differ from store to store; the rule still
// refuses the words.
func TestForgetRuleHashesAreKeyed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var payloads []string
	for range 2 {
		db := MustOpen(t)
		if _, err := db.Forget(ctx, ForgetSelector{Phrase: "Hunter2 rotates"}); err != nil {
			t.Fatal(err)
		}
		tomb, err := db.Read().Events(ctx, EventFilter{Types: []string{TypeForgotten}})
		if err != nil || len(tomb) != 1 {
			t.Fatalf("tombstones %+v %v", tomb, err)
		}
		p := string(tomb[0].Payload)
		for _, guess := range []string{HashTarget("hunter2 rotates"), HashTarget("Hunter2 rotates"), fmt.Sprint(wordHash("hunter2"))} {
			if strings.Contains(p, guess) {
				t.Errorf("the tombstone holds %s, a hash anyone can compute: %s", guess, p)
			}
		}
		payloads = append(payloads, p)
		r, err := appendEvents(ctx, db, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", Text: "the hunter2 ROTATES weekly", DedupeKey: "prompt:s:1"})
		if err != nil || r.Added != 0 {
			t.Errorf("the forgotten words came back: %+v %v", r, err)
		}
	}
	if payloads[0] == payloads[1] {
		t.Errorf("two stores wrote the same tombstone for the same words: %s", payloads[0])
	}
}

// TestForgetRuleUnkeyedStillHolds checks that a rule written before the
// hashes were keyed still refuses its words.
func TestForgetRuleUnkeyedStillHolds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	rule := fmt.Sprintf(`{"rule":{"until":%q,"phrases":[{"n":1,"first":%d,"hash":%q}]}}`,
		FormatTime(db.Now()), wordHash("quillfeather42"), HashTarget("quillfeather42"))
	if _, err := appendEvents(ctx, db, Event{Type: TypeForgotten, Payload: json.RawMessage(rule), DedupeKey: "forgotten:old"}); err != nil {
		t.Fatal(err)
	}
	// A keyed rule beside it, so that both indexes are read.
	if _, err := db.Forget(ctx, ForgetSelector{Phrase: "hunter2"}); err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"the key is quillfeather42", "the password is hunter2"} {
		r, err := appendEvents(ctx, db, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", Text: text, DedupeKey: fmt.Sprintf("prompt:s:%d", i)})
		if err != nil || r.Added != 0 {
			t.Errorf("%q: %+v %v, want it refused", text, r, err)
		}
	}
}

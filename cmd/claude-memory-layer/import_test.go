package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/ingest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/synthetic"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/import")

// fixtureDir holds the repository's transcript fixtures (testdata/claude-code).
const fixtureDir = "../../testdata/claude-code/transcripts"

// needDir returns dir made absolute; a missing fixture fails the test.
func needDir(tb testing.TB, dir string) string {
	tb.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(abs); err != nil {
		tb.Fatalf("fixture missing: %v", err)
	}
	return abs
}

// conversation writes the import tests' multi-session directory: a seeded
// history of some forty sessions shaped like basic.jsonl, each in a project of
// its own among a few.
func conversation(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "conversation")
	if n, _ := generateHistory(tb, filepath.Join(needDir(tb, fixtureDir), "basic.jsonl"), dir, 40*24<<10, 26); n < 30 {
		tb.Fatalf("the history has %d sessions, want at least 30", n)
	}
	return dir
}

// fixedNow is the clock of every in-process test, so that output is stable.
var fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// testEnv is an env whose data directory, home and Claude Code directory are
// fresh temporary directories.
type testEnv struct {
	env            *env
	stdout, stderr *bytes.Buffer
	vars           map[string]string
}

func newTestEnv(tb testing.TB) *testEnv {
	tb.Helper()
	root := tb.TempDir()
	te := &testEnv{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, vars: map[string]string{
		"CLAUDE_MEMORY_DIR": filepath.Join(root, "data"),
		"HOME":              filepath.Join(root, "home"),
		"CLAUDE_CONFIG_DIR": filepath.Join(root, "claude"),
	}}
	te.env = &env{stdin: strings.NewReader(""), stdout: te.stdout, stderr: te.stderr,
		getenv: func(k string) string { return te.vars[k] }, now: func() time.Time { return fixedNow }, exe: "/nonexistent"}
	return te
}

// run runs the CLI with args and returns the exit code; output stays in the buffers.
func (te *testEnv) run(tb testing.TB, args ...string) int {
	tb.Helper()
	te.stdout.Reset()
	te.stderr.Reset()
	return run(context.Background(), args, te.env)
}

// mustRun runs the CLI and fails unless it exits 0.
func (te *testEnv) mustRun(tb testing.TB, args ...string) string {
	tb.Helper()
	if code := te.run(tb, args...); code != 0 {
		tb.Fatalf("%v: exit %d\nstdout: %s\nstderr: %s", args, code, te.stdout, te.stderr)
	}
	return te.stdout.String()
}

// root is the temporary directory the env's directories live in.
func (te *testEnv) root() string { return filepath.Dir(te.vars["CLAUDE_MEMORY_DIR"]) }

// projectsDir is the env's Claude Code projects directory.
func (te *testEnv) projectsDir() string {
	return filepath.Join(te.vars["CLAUDE_CONFIG_DIR"], "projects")
}

// openDB opens the env's store for inspection.
func (te *testEnv) openDB(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(te.vars["CLAUDE_MEMORY_DIR"], "memory.db"), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// normalize replaces the test's temporary directory and the shared fixtures'
// location, which differ between runs and machines, with fixed names.
func (te *testEnv) normalize(tb testing.TB, s string) string {
	tb.Helper()
	fixtures, _ := filepath.Abs(fixtureDir)
	s = strings.ReplaceAll(s, te.root(), "$TMP")
	return strings.ReplaceAll(s, fixtures, "$FIXTURES")
}

// golden compares got with testdata/import/<name>.golden; -update rewrites it.
func golden(tb testing.TB, name, got string) {
	tb.Helper()
	path := filepath.Join("testdata", "import", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		tb.Errorf("output differs from %s (go test -update accepts it)\n--- want\n%s--- got\n%s", path, want, got)
	}
}

// copyFile copies src to dst, creating dst's directory.
func copyFile(tb testing.TB, src, dst string) {
	tb.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		tb.Fatal(err)
	}
}

// eventKeys returns the dedupe key and checksum of every stored event.
func eventKeys(tb testing.TB, db *store.DB) map[string]string {
	tb.Helper()
	evs, err := db.Read().Events(context.Background(), store.EventFilter{})
	if err != nil {
		tb.Fatal(err)
	}
	out := make(map[string]string, len(evs))
	for _, e := range evs {
		out[e.DedupeKey] = e.Checksum
	}
	return out
}

func TestImportFlags(t *testing.T) {
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		args []string
		want importOptions
		err  string // a usage error containing this; "" for none
	}{
		{"transcripts", []string{"--transcript", "a.jsonl", "--transcript", "b,c.jsonl"}, importOptions{Transcripts: []string{"a.jsonl", "b,c.jsonl"}}, ""},
		{"dir json", []string{"--dir", "d", "--json"}, importOptions{Dir: "d", JSON: true}, ""},
		{"project alone", []string{"--project", "p"}, importOptions{Project: "p"}, ""},
		{"project with dir", []string{"--dir", "d", "--project", "p"}, importOptions{Dir: "d", Project: "p"}, ""},
		{"all since", []string{"--all", "--since", "2026-11-01"}, importOptions{All: true, Since: day}, ""},
		{"since rfc3339", []string{"--all", "--since", "2026-11-01T00:00:00Z"}, importOptions{All: true, Since: day}, ""},
		{"from export", []string{"--from-export", "x.jsonl"}, importOptions{FromExport: "x.jsonl"}, ""},
		{"nothing", nil, importOptions{}, "nothing to import"},
		{"json only", []string{"--json"}, importOptions{}, "nothing to import"},
		{"since yesterday", []string{"--all", "--since", "yesterday"}, importOptions{All: true, Since: time.Date(fixedNow.Year(), fixedNow.Month(), fixedNow.Day()-1, 0, 0, 0, 0, fixedNow.Location())}, ""},
		{"since 3d", []string{"--all", "--since", "3d"}, importOptions{All: true, Since: fixedNow.AddDate(0, 0, -3)}, ""},
		{"since 2 weeks ago", []string{"--all", "--since", "2 weeks ago"}, importOptions{All: true, Since: fixedNow.AddDate(0, 0, -14)}, ""},
		{"bad since", []string{"--all", "--since", "soonish"}, importOptions{}, "YYYY-MM-DD"},
		{"all and project", []string{"--all", "--project", "p"}, importOptions{}, "--all imports every project"},
		{"export and dir", []string{"--from-export", "x", "--dir", "d"}, importOptions{}, "--from-export takes no"},
		{"positional", []string{"a.jsonl"}, importOptions{}, "unexpected argument"},
		{"unknown flag", []string{"--bogus"}, importOptions{}, "unknown flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			te := newTestEnv(t)
			got, err := parseImportFlags(te.env, tt.args)
			if tt.err != "" {
				var u usageError
				if !errors.As(err, &u) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("parseImportFlags(%q) = %v, want a usage error with %q", tt.args, err, tt.err)
				}
				if code := te.run(t, append([]string{"import"}, tt.args...)...); code != exitUsage {
					t.Errorf("run: exit %d, want %d", code, exitUsage)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseImportFlags(%q): %v", tt.args, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseImportFlags(%q) = %+v, want %+v", tt.args, got, tt.want)
			}
		})
	}
	t.Run("help", func(t *testing.T) {
		te := newTestEnv(t)
		if code := te.run(t, "import", "--help"); code != exitOK {
			t.Fatalf("exit %d", code)
		}
		if !strings.Contains(te.stderr.String(), "--from-export") {
			t.Errorf("help lacks --from-export:\n%s", te.stderr)
		}
	})
}

func TestImportFixtures(t *testing.T) {
	t.Parallel()
	fx := needDir(t, fixtureDir)
	te := newTestEnv(t)
	args := []string{"import", "--transcript", filepath.Join(fx, "basic.jsonl"), "--transcript", filepath.Join(fx, "edge-cases.jsonl")}
	golden(t, "fixtures.txt", te.normalize(t, te.mustRun(t, args...)))
	if te.stderr.Len() > 0 {
		t.Errorf("stderr: %s", te.stderr)
	}
	db := te.openDB(t)
	ctx := context.Background()
	for _, id := range []string{"5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30", "9b3d6f12-4a8c-4e57-b1d9-6c2f8a0e4d73"} {
		sess, err := db.Read().Session(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if sess.Source != "import" || sess.EndedAt.IsZero() || sess.Summary == "" || sess.StartedAt.Year() != 2026 {
			t.Errorf("session %s = %+v, want source import, ended, summarised, started in 2026", id, sess)
		}
		n, err := db.Read().CountSessionMessages(ctx, id)
		if err != nil || n == 0 {
			t.Errorf("session %s: %d messages (%v), want some", id, n, err)
		}
		for _, typ := range []string{store.TypeSessionStarted, store.TypeSessionEnded, store.TypeSessionProcessed} {
			evs, err := db.Read().Events(ctx, store.EventFilter{SessionID: id, Types: []string{typ}})
			if err != nil || len(evs) != 1 {
				t.Errorf("session %s: %d %s events (%v), want 1", id, len(evs), typ, err)
			}
		}
	}
	basic, err := db.Read().Session(ctx, "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30")
	if err != nil {
		t.Fatal(err)
	}
	if basic.Project != "/home/dev/shop-api" || basic.Cwd != "/home/dev/shop-api" || basic.TranscriptPath != filepath.Join(fx, "basic.jsonl") {
		t.Errorf("basic session = %+v", basic)
	}
	entries, err := db.Read().Entries(ctx, store.EntryFilter{})
	if err != nil || len(entries) == 0 {
		t.Fatalf("%d entries (%v), want some", len(entries), err)
	}
	before := eventKeys(t, db)

	// Again: nothing new, and the summary says both were skipped.
	golden(t, "fixtures-again.json", te.normalize(t, te.mustRun(t, append(args, "--json")...)))
	if after := eventKeys(t, db); len(after) != len(before) {
		t.Errorf("re-import: %d events, want %d", len(after), len(before))
	}
}

func TestImportJSON(t *testing.T) {
	t.Parallel()
	fx := needDir(t, fixtureDir)
	te := newTestEnv(t)
	out := te.mustRun(t, "import", "--json", "--transcript", filepath.Join(fx, "basic.jsonl"), "--transcript", filepath.Join(fx, "edge-cases.jsonl"))
	golden(t, "fixtures.json", te.normalize(t, out))
	var sum ingest.Summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Imported != 2 || sum.Added == 0 || sum.Added+sum.Duplicates > sum.Messages || sum.Verified == 0 {
		t.Errorf("summary %+v, want 2 sessions imported with events and verified entries", sum)
	}
}

// TestImportSlowPathAddsNothing re-imports transcripts whose processed marker
// does not match (the file grew by a blank line), so the whole pipeline runs
// again, and checks that the dedupe keys keep it from adding anything.
func TestImportSlowPathAddsNothing(t *testing.T) {
	t.Parallel()
	fx := needDir(t, fixtureDir)
	te := newTestEnv(t)
	path := filepath.Join(te.root(), "t", "basic.jsonl")
	copyFile(t, filepath.Join(fx, "basic.jsonl"), path)
	te.mustRun(t, "import", "--transcript", path)
	db := te.openDB(t)
	before := eventKeys(t, db)
	entries, _ := db.Read().Entries(context.Background(), store.EntryFilter{Evidence: true})

	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n")
	f.Close()
	out := te.mustRun(t, "import", "--json", "--transcript", path)
	var sum ingest.Summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Imported != 1 || sum.Added != 0 {
		t.Errorf("grown transcript: %+v, want 1 imported, 0 events added", sum)
	}
	after := eventKeys(t, db)
	var added []string
	for k := range after {
		if _, ok := before[k]; !ok {
			added = append(added, k)
		}
	}
	// Only the marker for the new size may be new.
	if len(added) != 1 || !strings.HasPrefix(added[0], store.TypeSessionProcessed+":") {
		t.Errorf("events added on re-import: %q, want only the new processed marker", added)
	}
	entries2, _ := db.Read().Entries(context.Background(), store.EntryFilter{Evidence: true})
	if len(entries2) != len(entries) {
		t.Errorf("entries: %d, then %d", len(entries), len(entries2))
	}
	for i := range entries2 {
		if len(entries2[i].Evidence) != len(entries[i].Evidence) {
			t.Errorf("entry %s: %d evidence, then %d", entries[i].CID, len(entries[i].Evidence), len(entries2[i].Evidence))
		}
	}
}

// TestImportResume interrupts an import between sessions (as a kill between
// two transactions would) and after a session's ingest but before its
// processing, then runs it again: it completes, with what a clean import
// stores and nothing twice.
func TestImportResume(t *testing.T) {
	conv := conversation(t)
	clean := newTestEnv(t)
	clean.mustRun(t, "import", "--dir", conv)
	want := eventKeys(t, clean.openDB(t))
	wantEntries := entrySpans(t, clean.openDB(t))

	te := newTestEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := importOptions{Dir: conv, batch: 1} // a commit per session, so the cancel lands between two
	sum, err := importTranscripts(ctx, te.env, o, func(done int) {
		if done == 5 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || sum == nil || sum.Imported != 5 {
		t.Fatalf("interrupted import: %+v, %v; want 5 imported and context.Canceled", sum, err)
	}

	// A session cut short after its ingest: registered and ingested, never processed.
	paths, _ := transcript.Files(conv)
	db := te.openDB(t)
	var half string
	for _, p := range paths {
		info, err := ingest.ReadInfo(p, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Read().Session(context.Background(), info.SessionID); err == nil {
			continue
		}
		half = info.SessionID
		s := store.Session{ID: info.SessionID, Project: project.Identify(info.Cwd), Cwd: info.Cwd, TranscriptPath: p, Source: "import", StartedAt: info.Started}
		if err := db.Update(context.Background(), func(tx *store.Tx) error { return tx.TouchSession(context.Background(), s) }); err != nil {
			t.Fatal(err)
		}
		rec := &capture.Recorder{DB: db, Log: slog.New(slog.DiscardHandler)}
		if _, err := rec.Ingest(context.Background(), s, true); err != nil {
			t.Fatal(err)
		}
		break
	}

	out := te.mustRun(t, "import", "--json", "--dir", conv)
	if err := json.Unmarshal([]byte(out), sum); err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != 5 || sum.Imported != len(paths)-5 {
		t.Errorf("resumed import: %+v, want 5 skipped and %d imported", sum, len(paths)-5)
	}
	got := eventKeys(t, db)
	if len(got) != len(want) {
		t.Errorf("resumed store has %d events, a clean import %d", len(got), len(want))
	}
	for k, sum := range want {
		if got[k] != sum {
			t.Errorf("event %s: checksum %q, want %q", k, got[k], sum)
		}
	}
	if gotEntries := entrySpans(t, db); !reflect.DeepEqual(gotEntries, wantEntries) {
		t.Errorf("resumed store entries %v, want %v", gotEntries, wantEntries)
	}
	if sess, err := db.Read().Session(context.Background(), half); err != nil || sess.Summary == "" {
		t.Errorf("half-imported session %s: %+v, %v; want processed", half, sess, err)
	}
}

// TestImportFreshAndCapturedAgree imports a history twice: into an empty
// store, where every session takes the fast path (planned by a worker before
// its messages are stored), and into a store where every session's messages
// were captured first, as the hooks of a live session store them, where the
// writer plans each session from its stored messages. Both must store the
// same events, entries, evidence spans and conflicts.
func TestImportFreshAndCapturedAgree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "history")
	generateHistory(t, filepath.Join(needDir(t, fixtureDir), "basic.jsonl"), dir, 1500<<10, 3)
	fresh := newTestEnv(t)
	fresh.mustRun(t, "import", "--dir", dir)

	captured := newTestEnv(t)
	db := captured.openDB(t)
	paths, err := transcript.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	rec := &capture.Recorder{DB: db, Log: slog.New(slog.DiscardHandler)}
	for _, p := range paths {
		info, err := ingest.ReadInfo(p, false)
		if err != nil {
			t.Fatal(err)
		}
		s := store.Session{ID: info.SessionID, Project: project.Identify(info.Cwd), Cwd: info.Cwd, TranscriptPath: p, Source: "import", StartedAt: info.Date()}
		if err := db.Update(context.Background(), func(tx *store.Tx) error { return tx.TouchSession(context.Background(), s) }); err != nil {
			t.Fatal(err)
		}
		if _, err := rec.Ingest(context.Background(), s, true); err != nil {
			t.Fatal(err)
		}
	}
	captured.mustRun(t, "import", "--dir", dir)

	a, b := fresh.openDB(t), captured.openDB(t)
	if ka, kb := eventKeys(t, a), eventKeys(t, b); !reflect.DeepEqual(ka, kb) {
		t.Errorf("events differ: %d fresh, %d captured", len(ka), len(kb))
	}
	if ea, eb := entrySpans(t, a), entrySpans(t, b); !reflect.DeepEqual(ea, eb) {
		t.Errorf("entries differ:\nfresh    %v\ncaptured %v", ea, eb)
	} else if len(ea) == 0 {
		t.Fatal("the history produced no entries")
	}
	if ca, cb := conflictPairs(t, a), conflictPairs(t, b); len(ca) == 0 || !reflect.DeepEqual(ca, cb) {
		t.Errorf("conflicts differ or none:\nfresh    %v\ncaptured %v", ca, cb)
	}
}

// conflictPairs describes each recorded conflict by its entries' citation ids.
func conflictPairs(tb testing.TB, db *store.DB) []string {
	tb.Helper()
	ctx := context.Background()
	cs, err := db.Conflicts(ctx, nil, 0)
	if err != nil {
		tb.Fatal(err)
	}
	cid := func(id int64) string {
		e, err := db.Read().EntryByID(ctx, id)
		if err != nil {
			tb.Fatal(err)
		}
		return e.CID
	}
	var out []string
	for _, c := range cs {
		out = append(out, cid(c.Older)+" "+c.Kind+" "+cid(c.Newer))
	}
	sort.Strings(out)
	return out
}

// entrySpans describes each stored entry by its citation id, stage, status
// and where each quote was found (the event, transcript row and byte span).
func entrySpans(tb testing.TB, db *store.DB) []string {
	tb.Helper()
	es, err := db.Read().Entries(context.Background(), store.EntryFilter{Evidence: true})
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range es {
		var spans []string
		for _, v := range e.Evidence {
			var key string // the event the span points into
			if v.EventID != 0 {
				ev, err := db.Event(context.Background(), v.EventID)
				if err != nil {
					tb.Fatal(err)
				}
				key = ev.DedupeKey
			}
			spans = append(spans, fmt.Sprintf("%s@%s[%d:%d]%s", key, v.SourceUUID, v.SpanStart, v.SpanEnd, v.Method))
		}
		sort.Strings(spans)
		out = append(out, fmt.Sprintf("%s %s %s %v", e.CID, e.Stage, e.Status, spans))
	}
	sort.Strings(out)
	return out
}

func TestImportHistory(t *testing.T) {
	conv := conversation(t)
	te := newTestEnv(t)
	start := time.Now()
	out := te.mustRun(t, "import", "--json", "--dir", conv)
	took := time.Since(start)
	var sum ingest.Summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	paths, err := transcript.Files(conv)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("imported %d sessions, %d messages in %v (%.0f messages/s)", sum.Imported, sum.Messages, took, float64(sum.Messages)/took.Seconds())
	if sum.Imported != len(paths) || sum.Failed != 0 {
		t.Fatalf("summary %+v, want %d sessions imported", sum, len(paths))
	}
	db := te.openDB(t)
	ctx := context.Background()
	sessions, err := db.Sessions(ctx, "", 0)
	if err != nil || len(sessions) != len(paths) {
		t.Fatalf("%d sessions stored (%v), want %d", len(sessions), err, len(paths))
	}
	evs, err := db.Read().Events(ctx, store.EventFilter{})
	if err != nil {
		t.Fatal(err)
	}
	bySource := map[string]int{}
	for _, e := range evs {
		if e.SourceUUID != "" {
			bySource[e.SourceUUID]++
		}
	}
	rows := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var r struct {
				Type, UUID string
				Message    struct{ Content json.RawMessage }
			}
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if r.Type != "user" && r.Type != "assistant" {
				continue
			}
			// A tool call is one event, from its result's row.
			var blocks []struct{ Type string }
			if json.Unmarshal(r.Message.Content, &blocks) == nil && len(blocks) > 0 && !slices.ContainsFunc(blocks, func(b struct{ Type string }) bool { return b.Type != "tool_use" }) {
				if n := bySource[r.UUID]; n != 0 {
					t.Errorf("tool_use row %s of %s is the source of %d events, want 0", r.UUID, filepath.Base(p), n)
				}
				continue
			}
			rows++
			if n := bySource[r.UUID]; n != 1 {
				t.Errorf("row %s of %s is the source of %d events, want 1", r.UUID, filepath.Base(p), n)
			}
		}
	}
	if rows == 0 || rows != sum.Messages {
		t.Errorf("%d user/assistant rows, %d messages imported", rows, sum.Messages)
	}

	before := len(evs)
	out = te.mustRun(t, "import", "--json", "--dir", conv)
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	n, err := db.CountEvents(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if sum.Added != 0 || sum.Skipped != len(paths) || n != before {
		t.Errorf("second import: %+v, %d events (was %d); want all skipped, nothing added", sum, n, before)
	}
}

func TestImportFailures(t *testing.T) {
	t.Parallel()
	fx := needDir(t, fixtureDir)
	te := newTestEnv(t)
	dir := filepath.Join(te.root(), "in")
	copyFile(t, filepath.Join(fx, "basic.jsonl"), filepath.Join(dir, "a.jsonl"))
	if err := os.WriteFile(filepath.Join(dir, "b.jsonl"), []byte("this is not JSON\nnor this\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("ignored"), 0o600); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(fx, "basic.jsonl"), filepath.Join(dir, "s", "subagents", "agent-1.jsonl"))
	code := te.run(t, "import", "--dir", dir, "--transcript", filepath.Join(dir, "missing.jsonl"),
		"--transcript", filepath.Join(dir, "s", "subagents", "agent-1.jsonl"))
	if code != exitError {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitError, te.stdout, te.stderr)
	}
	golden(t, "failures.txt", te.normalize(t, te.stdout.String()+"--- stderr\n"+te.stderr.String()))
	db := te.openDB(t)
	if _, err := db.Read().Session(context.Background(), "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30"); err != nil {
		t.Errorf("the good transcript was not imported: %v", err)
	}
}

func TestImportProjectFolders(t *testing.T) {
	t.Parallel()
	fx := needDir(t, fixtureDir)
	te := newTestEnv(t)
	work := filepath.Join(te.root(), "work", "shop_api.v2")
	other := filepath.Join(te.root(), "work", "other")
	copyFile(t, filepath.Join(fx, "basic.jsonl"), filepath.Join(te.projectsDir(), project.Slug(work), "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30.jsonl"))
	copyFile(t, filepath.Join(fx, "edge-cases.jsonl"), filepath.Join(te.projectsDir(), project.Slug(other), "9b3d6f12-4a8c-4e57-b1d9-6c2f8a0e4d73.jsonl"))
	copyFile(t, filepath.Join(fx, "basic.jsonl"), filepath.Join(te.projectsDir(), project.Slug(work), "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30", "subagents", "agent-a1.jsonl"))

	var sum ingest.Summary
	if err := json.Unmarshal([]byte(te.mustRun(t, "import", "--json", "--project", work)), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Sessions != 1 || sum.Imported != 1 {
		t.Errorf("--project: %+v, want the one session of that folder", sum)
	}
	if err := json.Unmarshal([]byte(te.mustRun(t, "import", "--json", "--all")), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Sessions != 2 || sum.Imported != 1 || sum.Skipped != 1 {
		t.Errorf("--all: %+v, want 2 sessions, 1 new", sum)
	}
	if code := te.run(t, "import", "--project", filepath.Join(te.root(), "nowhere")); code != exitError {
		t.Errorf("--project without sessions: exit %d, want %d", code, exitError)
	}

	// Without CLAUDE_CONFIG_DIR the projects live under $HOME/.claude.
	te2 := newTestEnv(t)
	delete(te2.vars, "CLAUDE_CONFIG_DIR")
	copyFile(t, filepath.Join(fx, "basic.jsonl"), filepath.Join(te2.vars["HOME"], ".claude", "projects", "-x", "s.jsonl"))
	if err := json.Unmarshal([]byte(te2.mustRun(t, "import", "--json", "--all")), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Imported != 1 {
		t.Errorf("--all under HOME: %+v", sum)
	}

	// --project with --transcript files the session under that project.
	te3 := newTestEnv(t)
	te3.mustRun(t, "import", "--transcript", filepath.Join(fx, "basic.jsonl"), "--project", work)
	sess, err := te3.openDB(t).Read().Session(context.Background(), "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30")
	if err != nil || sess.Project != work {
		t.Errorf("session project %q (%v), want %q", sess.Project, err, work)
	}
}

// TestImportForgotten checks that a session the user had forgotten is not
// brought back by importing its transcript, which is still on disk.
func TestImportForgotten(t *testing.T) {
	t.Parallel()
	fx := needDir(t, fixtureDir)
	te := newTestEnv(t)
	path := filepath.Join(fx, "basic.jsonl")
	te.mustRun(t, "import", "--transcript", path)
	db := te.openDB(t)
	if _, err := db.Forget(context.Background(), store.ForgetSelector{SessionID: "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30"}); err != nil {
		t.Fatal(err)
	}
	before := eventKeys(t, db)
	var sum ingest.Summary
	if err := json.Unmarshal([]byte(te.mustRun(t, "import", "--json", "--transcript", path)), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Forgotten != 1 || sum.Imported != 0 {
		t.Errorf("import of a forgotten session: %+v, want it left forgotten", sum)
	}
	if after := eventKeys(t, db); !reflect.DeepEqual(after, before) {
		t.Errorf("import of a forgotten session stored %d events, had %d", len(after), len(before))
	}
}

func TestImportSince(t *testing.T) {
	t.Parallel()
	fx := needDir(t, fixtureDir)
	te := newTestEnv(t)
	dir := filepath.Join(te.root(), "in")
	copyFile(t, filepath.Join(fx, "basic.jsonl"), filepath.Join(dir, "a.jsonl"))
	copyFile(t, filepath.Join(fx, "edge-cases.jsonl"), filepath.Join(dir, "b.jsonl"))
	// a.jsonl was written (and, by its rows, started on 2026-11-20) before
	// the date; b.jsonl started before it too but was written after it.
	for name, at := range map[string]time.Time{"a.jsonl": time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), "b.jsonl": time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)} {
		if err := os.Chtimes(filepath.Join(dir, name), at, at); err != nil {
			t.Fatal(err)
		}
	}
	var sum ingest.Summary
	if err := json.Unmarshal([]byte(te.mustRun(t, "import", "--json", "--dir", dir, "--since", "2026-11-21")), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.BeforeSince != 1 || sum.Imported != 1 {
		t.Errorf("--since: %+v, want 1 imported, 1 before --since", sum)
	}
}

func TestProgressBar(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	p := &progressBar{w: &buf, on: true, total: 40}
	p.draw(12, 1234)
	if got, want := buf.String(), "\rimporting 12/40 sessions [######..............] 1,234 messages"; got != want {
		t.Errorf("draw = %q, want %q", got, want)
	}
	buf.Reset()
	p.clear()
	if got := buf.String(); !strings.HasPrefix(got, "\r ") || !strings.HasSuffix(got, "\r") {
		t.Errorf("clear = %q", got)
	}
	buf.Reset()
	off := &progressBar{w: &buf, total: 40}
	off.draw(1, 1)
	off.clear()
	if buf.Len() != 0 {
		t.Errorf("a bar off a terminal printed %q", buf.String())
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestBinary builds the CLI and runs import and list through it, checking
// the exit codes a script sees: 0 ok, 1 error, 2 usage.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	fx := needDir(t, fixtureDir)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go toolchain")
	}
	te := newTestEnv(t)
	bin := filepath.Join(te.root(), "claude-memory-layer")
	build := exec.Command(goBin, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	copyFile(t, filepath.Join(fx, "basic.jsonl"), filepath.Join(te.projectsDir(), "-home-dev-shop-api", "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30.jsonl"))
	cli := func(args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		for k, v := range te.vars {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("%v: %v", args, err)
		}
		return stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()
	}
	if out, errOut, code := cli("list"); code != 0 || !strings.Contains(out, " no") {
		t.Errorf("list: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code := cli("import", "--all")
	if code != 0 || !strings.HasPrefix(out, "imported 1 session of 1") {
		t.Errorf("import --all: exit %d\n%s%s", code, out, errOut)
	}
	if errOut != "" {
		t.Errorf("import piped to a file drew on stderr: %q", errOut)
	}
	if out, errOut, code := cli("list", "--json"); code != 0 || !strings.Contains(out, `"imported": "yes"`) {
		t.Errorf("list --json after import: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := cli("import", "--transcript", filepath.Join(te.root(), "missing.jsonl")); code != 1 || !strings.Contains(errOut, "missing.jsonl") {
		t.Errorf("import of a missing file: exit %d, %q; want 1", code, errOut)
	}
	if _, _, code := cli("import", "--bogus"); code != 2 {
		t.Errorf("import --bogus: exit %d, want 2", code)
	}
	if _, _, code := cli("import"); code != 2 {
		t.Errorf("import with no source: exit %d, want 2", code)
	}
	if _, _, code := cli("list", "--help"); code != 0 {
		t.Errorf("list --help: exit %d, want 0", code)
	}
}

// TestBinaryKilled kills an import with SIGKILL at several points and runs
// it again: whenever the kill lands (inside a transaction or between two),
// the second run completes with exactly what a clean import stores.
func TestBinaryKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	fx := needDir(t, fixtureDir)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go toolchain")
	}
	dir := filepath.Join(t.TempDir(), "history")
	files, _ := generateHistory(t, filepath.Join(fx, "basic.jsonl"), dir, 1<<20, 7)
	clean := newTestEnv(t)
	clean.mustRun(t, "import", "--dir", dir)
	want, wantEntries := eventKeys(t, clean.openDB(t)), entrySpans(t, clean.openDB(t))

	bin := filepath.Join(t.TempDir(), "claude-memory-layer")
	build := exec.Command(goBin, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, after := range []time.Duration{0, 30 * time.Millisecond, 100 * time.Millisecond, 300 * time.Millisecond} {
		te := newTestEnv(t)
		cmd := exec.Command(bin, "import", "--dir", dir)
		cmd.Env = []string{"CLAUDE_MEMORY_DIR=" + te.vars["CLAUDE_MEMORY_DIR"], "HOME=" + te.vars["HOME"]}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Not a wait for anything: the point at which the kill lands.
		time.Sleep(after)
		cmd.Process.Kill()
		cmd.Wait()
		out := te.mustRun(t, "import", "--json", "--dir", dir)
		var sum ingest.Summary
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatal(err)
		}
		if sum.Imported+sum.Skipped != files {
			t.Errorf("kill after %v: rerun %+v, want all %d sessions done", after, sum, files)
		}
		db := te.openDB(t)
		if got := eventKeys(t, db); !reflect.DeepEqual(got, want) {
			t.Errorf("kill after %v (%d sessions done by then): %d events after the rerun, a clean import %d", after, sum.Skipped, len(got), len(want))
		}
		if got := entrySpans(t, db); !reflect.DeepEqual(got, wantEntries) {
			t.Errorf("kill after %v: entries differ from a clean import", after)
		}
		t.Logf("kill after %v: %d of %d sessions had been imported", after, sum.Skipped, files)
	}
}

// generateHistory writes a seeded history shaped like the transcript src
// into dir (see synthetic.History).
func generateHistory(tb testing.TB, src, dir string, size int64, seed uint64) (int, int64) {
	tb.Helper()
	tmpl, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	n, total, err := synthetic.History(tmpl, dir, size, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return n, total
}

// BenchmarkImport measures import throughput with the offline extractor over
// a generated ~50 MB history of many sessions, into a fresh store each time:
//
//	go test -run '^$' -bench BenchmarkImport -benchtime 3x ./cmd/claude-memory-layer
func BenchmarkImport(b *testing.B) {
	src := filepath.Join(needDir(b, fixtureDir), "basic.jsonl")
	dir := filepath.Join(b.TempDir(), "history")
	files, size := generateHistory(b, src, dir, 50<<20, 1)
	b.SetBytes(size)
	var msgs int
	var elapsed, cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		te := newTestEnv(b)
		te.env.now = time.Now
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime(b)
		out := te.mustRun(b, "import", "--dir", dir, "--json")
		elapsed += time.Since(start)
		cpu += cpuTime(b) - cpu0
		var sum ingest.Summary
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			b.Fatal(err)
		}
		if sum.Imported != files {
			b.Fatalf("imported %d of %d sessions", sum.Imported, files)
		}
		msgs += sum.Messages
	}
	b.ReportMetric(float64(msgs)/elapsed.Seconds(), "msgs/s")
	// The process's CPU time: on a shared machine wall time also measures the neighbours.
	b.ReportMetric(float64(msgs)/cpu.Seconds(), "msgs/cpu-s")
	b.ReportMetric(float64(files), "sessions")
	b.ReportMetric(float64(msgs/b.N), "msgs")
}

// BenchmarkImportFloor is the floor under BenchmarkImport: the event rows
// that importing the same history stores, inserted into a fresh store with
// one prepared statement and indexed at each commit (every 20,000 messages,
// as import commits), and nothing else: no reading, no extraction, no
// entries, evidence or conflicts. "all" inserts every row import writes;
// "messages" only the prompts, answers and tool observations. Both report
// the history's messages per second, as BenchmarkImport does:
//
//	go test -run '^$' -bench BenchmarkImportFloor -benchtime 3x ./cmd/claude-memory-layer
func BenchmarkImportFloor(b *testing.B) {
	src := filepath.Join(needDir(b, fixtureDir), "basic.jsonl")
	dir := filepath.Join(b.TempDir(), "history")
	generateHistory(b, src, dir, 50<<20, 1)
	te := newTestEnv(b)
	te.env.now = time.Now
	te.mustRun(b, "import", "--dir", dir, "--json")
	db := te.openDB(b)
	rs, err := db.SQL().Query(`SELECT ts, type, session_id, project, source_uuid, text, payload, dedupe_key, content_hash, checksum FROM events ORDER BY id`)
	if err != nil {
		b.Fatal(err)
	}
	var rows []eventRow
	messages := 0
	for rs.Next() {
		var c [10]string
		if err := rs.Scan(&c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7], &c[8], &c[9]); err != nil {
			b.Fatal(err)
		}
		r := eventRow{args: make([]any, len(c)), message: store.Event{Type: c[1]}.Conversation()}
		for i := range c {
			r.args[i] = c[i]
		}
		rows = append(rows, r)
		if r.message {
			messages++
		}
	}
	if err := rs.Err(); err != nil {
		b.Fatal(err)
	}
	db.Close()
	for _, only := range []bool{false, true} {
		name := "all"
		if only {
			name = "messages"
		}
		b.Run(name, func(b *testing.B) {
			var elapsed time.Duration
			inserted := 0
			for range b.N {
				b.StopTimer()
				st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "memory.db"), store.Options{Bulk: true})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				inserted = insertRows(b, st.SQL(), rows, only)
				elapsed += time.Since(start)
				st.Close()
			}
			b.ReportMetric(float64(messages*b.N)/elapsed.Seconds(), "msgs/s")
			b.ReportMetric(float64(inserted), "rows")
		})
	}
}

// eventRow is a stored event's columns, as insertRows inserts them.
type eventRow struct {
	args    []any
	message bool // a prompt, answer or tool observation
}

// insertRows inserts events rows as BenchmarkImportFloor describes and
// returns how many it inserted.
func insertRows(b *testing.B, db *sql.DB, rows []eventRow, onlyMessages bool) int {
	var tx *sql.Tx
	var ins *sql.Stmt
	var last int64 // the largest id indexed
	n, inTx := 0, 0
	commit := func() {
		if _, err := tx.Exec(`INSERT INTO events_fts(rowid, text) SELECT id, text FROM events WHERE id > ?`, last); err != nil {
			b.Fatal(err)
		}
		if err := tx.QueryRow(`SELECT max(id) FROM events`).Scan(&last); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		tx, inTx = nil, 0
	}
	for _, r := range rows {
		if onlyMessages && !r.message {
			continue
		}
		if tx == nil {
			var err error
			if tx, err = db.Begin(); err != nil {
				b.Fatal(err)
			}
			if ins, err = tx.Prepare(`INSERT INTO events (ts, type, session_id, project, source_uuid, text, payload, dedupe_key, content_hash, checksum)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := ins.Exec(r.args...); err != nil {
			b.Fatal(err)
		}
		n++
		if r.message {
			inTx++
		}
		if inTx >= ingest.BatchMessages {
			commit()
		}
	}
	if tx != nil {
		commit()
	}
	return n
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestImportMergesIndexes imports a history a session per commit, each
// commit adding segments to the full-text indexes, and checks that the
// import leaves one segment per index: nothing left to merge.
func TestImportMergesIndexes(t *testing.T) {
	t.Parallel()
	conv := conversation(t)
	te := newTestEnv(t)
	if _, err := importTranscripts(context.Background(), te.env, importOptions{Dir: conv, batch: 1}, nil); err != nil {
		t.Fatal(err)
	}
	n, err := te.openDB(t).IndexSegments(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("IndexSegments()=%d after the import, want 2 (one per index)", n)
	}
}

// TestImportSubagentEdits: an import keeps a session's subagents' file
// edits, read from <session>/subagents/, as PostToolUse keeps them live, and
// not their reads; an agent file beside the sessions (an earlier layout) is
// no session of its own.
func TestImportSubagentEdits(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	work := filepath.Join(te.root(), "work", "shop")
	folder := filepath.Join(te.projectsDir(), project.Slug(work))
	const sid = "7d2e9c40-1a3b-4c5d-8e6f-0a1b2c3d4e5f"
	row := func(o map[string]any) string {
		o["sessionId"], o["cwd"] = sid, work
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	user := func(uuid, ts string, content any, side bool) string {
		return row(map[string]any{"type": "user", "uuid": uuid, "timestamp": ts, "isSidechain": side,
			"message": map[string]any{"role": "user", "content": content}})
	}
	assistant := func(uuid, id, ts string, side bool, blocks ...map[string]any) string {
		return row(map[string]any{"type": "assistant", "uuid": uuid, "timestamp": ts, "isSidechain": side,
			"message": map[string]any{"id": id, "role": "assistant", "model": "claude-sonnet-5", "content": blocks, "stop_reason": "end_turn"}})
	}
	use := func(id, name string, input map[string]any) map[string]any {
		return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
	}
	result := func(id, out string) []map[string]any {
		return []map[string]any{{"type": "tool_result", "tool_use_id": id, "content": out}}
	}
	main := user("u1", "2026-11-20T09:00:00Z", "Fix the retry docs with a subagent.", false) +
		assistant("a1", "m1", "2026-11-20T09:00:01Z", false, use("task1", "Task", map[string]any{"subagent_type": "docs", "description": "fix retry docs"})) +
		user("u2", "2026-11-20T09:05:00Z", result("task1", "Done: the retry docs now say 5 attempts."), false) +
		assistant("a2", "m2", "2026-11-20T09:05:01Z", false, map[string]any{"type": "text", "text": "The docs are fixed."})
	agent := user("s1", "2026-11-20T09:01:00Z", "fix retry docs", true) +
		assistant("s2", "sm1", "2026-11-20T09:02:00Z", true, use("r1", "Read", map[string]any{"file_path": "/shop/docs/retry.md"})) +
		user("s3", "2026-11-20T09:02:01Z", result("r1", "Retries: 3 attempts."), true) +
		assistant("s4", "sm2", "2026-11-20T09:03:00Z", true, use("e1", "Edit", map[string]any{"file_path": "/shop/docs/retry.md", "old_string": "3 attempts", "new_string": "5 attempts"})) +
		user("s5", "2026-11-20T09:03:01Z", result("e1", "edited"), true)
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The session imported before its subagent's file is there: the file
	// written later is read by the next import.
	write(filepath.Join(folder, sid+".jsonl"), main)
	te.mustRun(t, "import", "--project", work)
	write(filepath.Join(folder, sid, "subagents", "agent-a1.jsonl"), agent)
	write(filepath.Join(folder, "agent-b2.jsonl"), agent) // the earlier layout: not a session
	// A link to another session's transcript, and a link to itself, are
	// passed over.
	other := filepath.Join(te.root(), "other.jsonl")
	write(other, strings.ReplaceAll(agent, "retry.md", "other.md"))
	for name, target := range map[string]string{"agent-c3.jsonl": other, "agent-d4.jsonl": "agent-d4.jsonl"} {
		if err := os.Symlink(target, filepath.Join(folder, sid, "subagents", name)); err != nil {
			t.Fatal(err)
		}
	}
	if code := te.run(t, "import", "--project", work); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, te.stdout, te.stderr)
	}
	if !strings.Contains(te.stderr.String(), "agent-b2.jsonl: a subagent transcript") {
		t.Errorf("the agent file beside the sessions was not skipped as a subagent's:\n%s", te.stderr)
	}
	db := te.openDB(t)
	evs, err := db.Read().Events(context.Background(), store.EventFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, e := range evs {
		if e.Type == store.TypeToolObservation {
			tools = append(tools, strings.SplitN(e.Text, "\n", 2)[0])
		}
	}
	if want := []string{"Task: docs: fix retry docs", "Edit: /shop/docs/retry.md"}; !sameSet(tools, want) {
		t.Errorf("tool observations %q, want %q", tools, want)
	}
	sess, err := db.Read().Session(context.Background(), sid)
	if err != nil || sess.TranscriptPath != filepath.Join(folder, sid+".jsonl") {
		t.Errorf("session %+v, %v: want its own transcript's path", sess, err)
	}
	// A second import adds nothing.
	before := len(evs)
	te.mustRun(t, "import", "--project", work)
	if evs, _ := te.openDB(t).Read().Events(context.Background(), store.EventFilter{}); len(evs) != before {
		t.Errorf("a second import stored %d events, want %d", len(evs), before)
	}
}

// sameSet reports whether a and b hold the same strings, in any order.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

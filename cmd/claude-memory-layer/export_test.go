package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/export"
	"github.com/claude-memory-layer/claude-memory-layer/internal/ingest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

func TestExportFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want exportOptions
		err  string
	}{
		{nil, exportOptions{Format: "jsonl"}, ""},
		{[]string{"--project", "/p", "--output", "o.jsonl"}, exportOptions{Project: "/p", Format: "jsonl", Output: "o.jsonl"}, ""},
		{[]string{"--format", "jsonl"}, exportOptions{Format: "jsonl"}, ""},
		{[]string{"--format", "csv"}, exportOptions{}, "only jsonl"},
		{[]string{"x"}, exportOptions{}, "unexpected argument"},
	}
	for _, tt := range tests {
		te := newTestEnv(t)
		got, err := parseExportFlags(te.env, tt.args)
		if tt.err != "" {
			var u usageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseExportFlags(%q) = %v, want a usage error with %q", tt.args, err, tt.err)
			}
			if code := te.run(t, append([]string{"export"}, tt.args...)...); code != exitUsage {
				t.Errorf("export %q: exit %d, want %d", tt.args, code, exitUsage)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseExportFlags(%q) = %+v, %v; want %+v", tt.args, got, err, tt.want)
		}
	}
	te := newTestEnv(t)
	te.run(t, "export", "--help")
	if !strings.Contains(te.stderr.String(), "default: all projects") {
		t.Errorf("export --help does not say that all projects are the default:\n%s", te.stderr)
	}
}

// exportLines splits an export into its lines by kind, without the header.
func exportLines(tb testing.TB, b []byte) map[string][]string {
	tb.Helper()
	out := map[string][]string{}
	for i, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		var k struct{ Kind string }
		if err := json.Unmarshal(line, &k); err != nil {
			tb.Fatalf("line %d: %v", i+1, err)
		}
		out[k.Kind] = append(out[k.Kind], string(line))
	}
	return out
}

func TestExportRoundTrip(t *testing.T) {
	t.Parallel()
	fx := needDir(t, fixtureDir)
	conv := conversation(t)
	src := newTestEnv(t)
	src.mustRun(t, "import", "--transcript", filepath.Join(fx, "basic.jsonl"), "--transcript", filepath.Join(fx, "edge-cases.jsonl"), "--dir", conv)
	// A recorded conflict, so that the export is shown to carry the ledger
	// whether or not these transcripts yield one of their own.
	srcDB := src.openDB(t)
	ctx := context.Background()
	recordConflict(t, srcDB, "Sign JWTs with RS256 keys", "Keep /health open")
	file := filepath.Join(src.root(), "out", "export.jsonl")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	src.mustRun(t, "export", "--output", file)
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("export file mode %v, want 0600", fi.Mode().Perm())
	}
	exported, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := exportLines(t, exported)
	if len(lines["header"]) != 1 || !strings.HasPrefix(string(exported), `{"kind":"header","format":"claude-memory-layer-export","version":1,"schema":`) {
		t.Fatalf("export does not start with its header:\n%.300s", exported)
	}
	nEvents, _ := srcDB.CountEvents(ctx, "")
	sessions, _ := srcDB.Sessions(ctx, "", 0)
	entries, _ := srcDB.Read().Entries(ctx, store.EntryFilter{})
	if len(lines["event"]) != nEvents || len(lines["session"]) != len(sessions) || len(lines["entry"]) != len(entries) || len(entries) == 0 {
		t.Errorf("export has %d events, %d sessions, %d entries; the store %d, %d, %d",
			len(lines["event"]), len(lines["session"]), len(lines["entry"]), nEvents, len(sessions), len(entries))
	}
	// The questions the memories answer go with them (and come back below:
	// the restored store exports the same lines).
	if !strings.Contains(string(exported), `"questions":["`) {
		t.Errorf("no memory's questions are in the export")
	}
	if conflicts, _ := srcDB.Conflicts(ctx, nil, 0); len(conflicts) == 0 || !strings.Contains(string(exported), `"conflicts":[{"older":"mem:`) {
		t.Errorf("the source store's %d conflicts are not in the export", len(conflicts))
	}

	// Stdout gives the same export.
	if out := src.mustRun(t, "export"); out != string(exported) {
		t.Errorf("export to stdout differs from export --output")
	}

	dst := newTestEnv(t)
	var sum export.Summary
	if err := json.Unmarshal([]byte(dst.mustRun(t, "import", "--json", "--from-export", file)), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Added != nEvents || sum.Sessions != len(sessions) || sum.NewEntries != len(entries) || sum.FailedLines != 0 || sum.Mismatches != 0 {
		t.Errorf("restore: %+v; want %d events, %d sessions, %d new entries", sum, nEvents, len(sessions), len(entries))
	}
	dstDB := dst.openDB(t)
	if got, want := eventKeys(t, dstDB), eventKeys(t, srcDB); !reflect.DeepEqual(got, want) {
		t.Errorf("restored events (dedupe key -> checksum) differ: %d vs %d", len(got), len(want))
	}
	if got, want := entrySpans(t, dstDB), entrySpans(t, srcDB); !reflect.DeepEqual(got, want) {
		t.Errorf("restored entries differ:\n got %v\nwant %v", got, want)
	}
	// The restored store exports the same lines: ids, evidence links, spans,
	// conflicts, sessions and times all came across.
	again := exportLines(t, []byte(dst.mustRun(t, "export")))
	for _, kind := range []string{"event", "session", "entry"} {
		if !reflect.DeepEqual(again[kind], lines[kind]) {
			t.Errorf("the restored store exports other %s lines", kind)
			for i := range min(len(again[kind]), len(lines[kind])) {
				if again[kind][i] != lines[kind][i] {
					t.Errorf("first difference:\n got %.400s\nwant %.400s", again[kind][i], lines[kind][i])
					break
				}
			}
		}
	}
	// Importing the transcripts into the restored store finds them imported.
	var isum ingest.Summary
	if err := json.Unmarshal([]byte(dst.mustRun(t, "import", "--json", "--dir", conv)), &isum); err != nil {
		t.Fatal(err)
	}
	if isum.Imported != 0 || isum.Added != 0 {
		t.Errorf("importing the transcripts after a restore: %+v, want all skipped", isum)
	}

	// Twice: nothing new.
	if err := json.Unmarshal([]byte(dst.mustRun(t, "import", "--json", "--from-export", file)), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Added != 0 || sum.Duplicates != nEvents || sum.NewEntries != 0 || sum.Conflicts != 0 {
		t.Errorf("second restore: %+v, want nothing added", sum)
	}
	if n, _ := dstDB.CountEvents(ctx, ""); n != nEvents {
		t.Errorf("after a second restore: %d events, want %d", n, nEvents)
	}
}

func TestExportProject(t *testing.T) {
	t.Parallel()
	fx := needDir(t, fixtureDir)
	te := newTestEnv(t)
	te.mustRun(t, "import", "--transcript", filepath.Join(fx, "basic.jsonl"), "--transcript", filepath.Join(fx, "edge-cases.jsonl"))
	lines := exportLines(t, []byte(te.mustRun(t, "export", "--project", "/home/dev/shop-api")))
	if len(lines["event"]) == 0 || len(lines["session"]) != 1 {
		t.Fatalf("--project: %d events, %d sessions; want that project's", len(lines["event"]), len(lines["session"]))
	}
	for _, kind := range []string{"event", "session", "entry"} {
		for _, l := range lines[kind] {
			if !strings.Contains(l, `"project":"/home/dev/shop-api"`) {
				t.Errorf("--project exported another project's %s: %.200s", kind, l)
			}
		}
	}
	if !strings.Contains(lines["header"][0], `"project":"/home/dev/shop-api"`) {
		t.Errorf("header %s does not name the project", lines["header"][0])
	}
}

func TestRestoreErrors(t *testing.T) {
	fx := needDir(t, fixtureDir)
	src := newTestEnv(t)
	src.mustRun(t, "import", "--transcript", filepath.Join(fx, "basic.jsonl"))
	good := src.mustRun(t, "export")
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, content string
		code          int
		stderr        string
	}{
		{"empty", "", exitError, "the file is empty"},
		{"no header", strings.SplitN(good, "\n", 2)[1], exitError, "no export header"},
		{"newer format", strings.Replace(good, `"version":1`, `"version":9`, 1), exitError, "export format version 9"},
		{"bad line", strings.Replace(good, "\n", "\n{\"kind\":\"event\",\"type\":3}\nnot json\n", 1), exitError, "2 lines of"},
		{"tampered", strings.Replace(good, "Add JWT authentication", "Add OAuth authentication", 1), exitOK, "does not match its checksum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			te := newTestEnv(t)
			code := te.run(t, "import", "--from-export", write(strings.ReplaceAll(tt.name, " ", "-"), tt.content))
			if code != tt.code || !strings.Contains(te.stderr.String(), tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, te.stderr, tt.code, tt.stderr)
			}
		})
	}
	te := newTestEnv(t)
	if code := te.run(t, "import", "--from-export", filepath.Join(dir, "missing")); code != exitError {
		t.Errorf("missing export: exit %d", code)
	}
	if code := te.run(t, "export"); code != exitError || !strings.Contains(te.stderr.String(), "no memory store to export") {
		t.Errorf("export without a store: exit %d, %q", code, te.stderr)
	}
}

// recordConflict records that the entry titled newer supersedes the one
// titled older, the way the ledger records it (same dedupe key), so that a
// restore finds it already there.
func recordConflict(tb *testing.T, db *store.DB, older, newer string) {
	tb.Helper()
	ctx := context.Background()
	a, _ := db.EntryByCID(ctx, cidOf(tb, db, older))
	b, _ := db.EntryByCID(ctx, cidOf(tb, db, newer))
	if _, err := db.AddConflict(ctx, store.Conflict{Older: a.ID, Newer: b.ID, Kind: "supersedes", Reason: "test", Detected: testNow},
		store.Event{Time: testNow, Type: store.TypeConflict, SessionID: b.SessionID, Project: b.Project, DedupeKey: "conflict:" + a.CID + ":" + b.CID,
			Payload: json.RawMessage(`{"older":"` + a.CID + `","newer":"` + b.CID + `","kind":"supersedes","reason":"test"}`)}); err != nil {
		tb.Fatal(err)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestForgetResumesAfterInterruption: a forget killed after its delete
// committed, before compaction, leaves the forgotten bytes in the file.
// doctor now says so, and the next forget (a preview is enough) finishes
// the compaction first.
func TestForgetResumesAfterInterruption(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	const word = "zanzibarqueue"
	tp := filepath.Join(te.root(), "t.jsonl")
	os.WriteFile(tp, []byte(`{"type":"user","uuid":"u1","promptId":"p1","sessionId":"gone","cwd":"/p","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"billing jobs go to `+word+` from now on"}}`+"\n"+
		`{"type":"user","uuid":"u2","promptId":"p2","sessionId":"kept","cwd":"/p","timestamp":"2026-11-20T11:00:00.000Z","message":{"role":"user","content":"the ledger listens on port 7443"}}`+"\n"), 0o600)
	te.mustRun(t, "import", "--transcript", tp)

	// The interrupted forget: its transaction commits, compaction never runs.
	db := te.openDB(t)
	if _, err := db.Forget(context.Background(), store.ForgetSelector{SessionID: "gone"}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	path := filepath.Join(te.vars["CLAUDE_MEMORY_DIR"], "memory.db")
	// Whether the bytes are still in the file now depends on SQLite's pages
	// and checkpoints; the mark, not a scan, is what says compaction is owed.
	t.Logf("forgotten bytes present before resuming: %v", inFiles(path, word))

	te.run(t, "doctor", "--json")
	var rep struct {
		Checks []check `json:"checks"`
	}
	json.Unmarshal(te.stdout.Bytes(), &rep)
	var flagged bool
	for _, c := range rep.Checks {
		flagged = flagged || (c.Name == "forget" && c.Status == "fail")
	}
	if !flagged {
		t.Errorf("doctor does not report the unfinished forget: %s", te.stdout)
	}

	te.mustRun(t, "forget", "--match", "port 7443")
	if !strings.Contains(te.stderr.String(), "interrupted") {
		t.Errorf("the resumed compaction said nothing: %q", te.stderr)
	}
	if inFiles(path, word) {
		t.Errorf("%q still in %s or its WAL after the next forget", word, path)
	}
	te.run(t, "doctor", "--json")
	if strings.Contains(te.stdout.String(), `"forget"`) {
		t.Errorf("doctor still reports the forget: %s", te.stdout)
	}
}

func inFiles(path, word string) bool {
	for _, p := range []string{path, path + "-wal"} {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(word)) {
			return true
		}
	}
	return false
}

func TestCompactHint(t *testing.T) {
	t.Parallel()
	for _, err := range []error{context.Canceled, store.ErrCompactPending, errors.New("disk full")} {
		if got := compactHint(err, "/d/memory.db"); !errors.Is(got, err) || !strings.Contains(got.Error(), "forget --compact") {
			t.Errorf("compactHint(%v) = %v", err, got)
		}
	}
	if compactHint(nil, "x") != nil {
		t.Error("compactHint(nil) != nil")
	}
}

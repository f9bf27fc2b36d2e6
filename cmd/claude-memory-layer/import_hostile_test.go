package main

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/cmdargs"
)

// TestImportHugeLineBoundedMemory: a transcript whose first row is followed
// by 2 GB without a newline (sparse, so no disk) imports its row with memory
// bounded by the longest line kept, not by the file; before, the whole tail
// was read into one line and the import ran out of memory.
func TestImportHugeLineBoundedMemory(t *testing.T) {
	te := newTestEnv(t)
	p := filepath.Join(te.root(), "huge.jsonl")
	row := `{"type":"user","uuid":"u1","promptId":"p1","sessionId":"huge","cwd":"/p","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"we chose the ledger port 7443"}}` + "\n"
	if err := os.WriteFile(p, []byte(row), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, int64(len(row))+2<<30); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	code := te.run(t, "import", "--transcript", p)
	runtime.ReadMemStats(&after)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, te.stdout, te.stderr)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<30 {
		t.Errorf("importing allocated %d MB", alloc>>20)
	}
	db := te.openDB(t)
	if n, _ := db.Read().CountSessionMessages(t.Context(), "huge"); n != 1 {
		t.Errorf("%d messages stored, want the one row", n)
	}
}

// TestImportNotAFile: a FIFO, a device or a directory named as a transcript
// fails that transcript with a reason at once; before, a FIFO hung the import.
func TestImportNotAFile(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	fifo := filepath.Join(te.root(), "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero", te.root()} {
		code := te.run(t, "import", "--transcript", p)
		if out := te.stdout.String() + te.stderr.String(); code == 0 && !strings.Contains(out, "regular") && !strings.Contains(out, "fail") {
			t.Errorf("import %s: exit %d, output %q", p, code, out)
		}
	}
}

// TestImportExportFileAsTranscript: an export passed where a transcript is
// expected fails with a pointer to --from-export and creates no session;
// before, it "imported" as sessions of nothing.
func TestImportExportFileAsTranscript(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	tp := filepath.Join(te.root(), "t.jsonl")
	os.WriteFile(tp, []byte(`{"type":"user","uuid":"u1","promptId":"p1","sessionId":"real","cwd":"/p","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"we chose the ledger port 7443"}}`+"\n"), 0o600)
	te.mustRun(t, "import", "--transcript", tp)
	export := te.mustRun(t, "export")
	dir := filepath.Join(te.root(), "exports")
	os.Mkdir(dir, 0o700)
	ep := filepath.Join(dir, "backup.jsonl")
	os.WriteFile(ep, []byte(export), 0o600)

	fresh := newTestEnv(t)
	for _, args := range [][]string{{"import", "--transcript", ep}, {"import", "--dir", dir}} {
		code := fresh.run(t, args...)
		if out := fresh.stdout.String() + fresh.stderr.String(); code == 0 || !strings.Contains(out, "--from-export") {
			t.Errorf("%v: exit %d, output %q", args, code, out)
		}
	}
	if _, err := os.Stat(fresh.vars["CLAUDE_MEMORY_DIR"] + "/memory.db"); err == nil {
		db := fresh.openDB(t)
		if ss, _ := db.Sessions(t.Context(), "", 10); len(ss) != 0 {
			t.Errorf("phantom sessions: %+v", ss)
		}
	}
}

// TestImportPathWithControlByte: a transcript under a directory whose name
// holds byte 0x7f imports, and importing it again adds nothing; before, its
// marker payload was built with %q (Go quoting, not JSON) and every attempt
// failed.
func TestImportPathWithControlByte(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	dir := filepath.Join(te.root(), "odd\x7fname")
	os.Mkdir(dir, 0o700)
	tp := filepath.Join(dir, "t.jsonl")
	os.WriteFile(tp, []byte(`{"type":"user","uuid":"u1","promptId":"p1","sessionId":"odd","cwd":"/p","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"we chose the ledger port 7443"}}`+"\n"), 0o600)
	te.mustRun(t, "import", "--transcript", tp)
	te.mustRun(t, "import", "--transcript", tp)
	db := te.openDB(t)
	if n, _ := db.Read().CountSessionMessages(t.Context(), "odd"); n != 1 {
		t.Errorf("%d messages stored, want 1", n)
	}
}

// TestArgsFromPrompt: --args-from-prompt takes the text the hook saved for
// the session in $CLAUDE_CODE_SESSION_ID, once, and splits it without a shell.
func TestArgsFromPrompt(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	te.vars["CLAUDE_CODE_SESSION_ID"] = "35ef2068-8d1b-4eef-8ee9-014d49224857"
	if err := cmdargs.Save(te.vars["CLAUDE_MEMORY_DIR"], te.vars["CLAUDE_CODE_SESSION_ID"], "--limit 3 --type user_prompt 'a b'"); err != nil {
		t.Fatal(err)
	}
	got, _, err := expandStdinArgs(te.env, []string{"--args-from-prompt", "--json"})
	if want := []string{"--limit", "3", "--type", "user_prompt", "a b", "--json"}; err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("expandStdinArgs = %q, %v; want %q", got, err, want)
	}
	if _, _, err := expandStdinArgs(te.env, []string{"--args-from-prompt"}); !errors.Is(err, cmdargs.ErrNone) {
		t.Errorf("second take: %v, want ErrNone", err)
	}
}

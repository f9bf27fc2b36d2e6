package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestRestoreForgetRules checks what a restore elsewhere makes of the
// store's forgets: without --with-forget-key it says, on stderr and in
// its JSON, that they do not hold; with it they hold, and a transcript
// imported again does not bring back what they forgot.
func TestRestoreForgetRules(t *testing.T) {
	t.Parallel()
	fx := needDir(t, fixtureDir)
	transcript := filepath.Join(fx, "basic.jsonl")
	src := newTestEnv(t)
	src.mustRun(t, "import", "--transcript", transcript)
	src.mustRun(t, "forget", "--match", "RS256", "--yes")
	dir := t.TempDir()
	plain, keyed := filepath.Join(dir, "plain.jsonl"), filepath.Join(dir, "keyed.jsonl")
	src.mustRun(t, "export", "--output", plain)
	if strings.Contains(src.stderr.String(), "WARNING") {
		t.Errorf("export without the key warns: %s", src.stderr)
	}
	src.mustRun(t, "export", "--with-forget-key", "--output", keyed)
	if !strings.Contains(src.stderr.String(), "WARNING: the export holds the secret of this store's forget rules") {
		t.Errorf("export --with-forget-key does not warn: %s", src.stderr)
	}
	b, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"kind":"forget_key"`) {
		t.Errorf("an export without --with-forget-key holds the key")
	}

	restore := func(args ...string) (*testEnv, int) {
		te := newTestEnv(t)
		var s struct {
			NotCarried *int `json:"forget_rules_not_carried"`
		}
		if err := json.Unmarshal([]byte(te.mustRun(t, append([]string{"import", "--json", "--from-export"}, args...)...)), &s); err != nil || s.NotCarried == nil {
			t.Fatalf("import --json: %v, %+v", err, s)
		}
		return te, *s.NotCarried
	}
	te, n := restore(plain)
	if n != 1 || !strings.Contains(te.stderr.String(), "WARNING: 1 forget rule of the export could not be carried over") {
		t.Errorf("restore without the key: %d not carried, stderr %s", n, te.stderr)
	}
	// The key is taken only when asked for: a file's key becomes the
	// secret of every later forget here.
	te, n = restore(keyed)
	if n != 1 || !strings.Contains(te.stderr.String(), "--adopt-forget-key") {
		t.Errorf("restore with the key, not adopted: %d not carried, stderr %s", n, te.stderr)
	}
	te, n = restore(keyed, "--adopt-forget-key")
	if n != 0 || strings.Contains(te.stderr.String(), "WARNING") {
		t.Errorf("restore with the key: %d not carried, stderr %s", n, te.stderr)
	}
	te.mustRun(t, "import", "--transcript", transcript)
	db := te.openDB(t)
	if err := db.ScanEvents(context.Background(), "", func(ev store.Event, _ string) error {
		if strings.Contains(ev.Text+string(ev.Payload), "RS256") {
			t.Errorf("a transcript imported again into the restored store brought back what a forget removed: %s %.80q", ev.Type, ev.Text)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// The forget key is a secret: export writes it to a file of its own making
// (0600) only. A restore reads its file more than once: a pipe is copied
// first (next to the store, 0600, removed after), a directory refused.
func TestExportKeyAndRestoreFileRules(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	te.mustRun(t, "import", "--transcript", filepath.Join(needDir(t, fixtureDir), "basic.jsonl"))
	if code := te.run(t, "export", "--with-forget-key"); code != exitUsage || !strings.Contains(te.stderr.String(), "--output") {
		t.Errorf("export --with-forget-key to stdout: exit %d, stderr %s", code, te.stderr)
	}
	if code := te.run(t, "import", "--adopt-forget-key", "--all"); code != exitUsage {
		t.Errorf("--adopt-forget-key without --from-export: exit %d", code)
	}
	if code := te.run(t, "import", "--from-export", t.TempDir()); code != exitError || !strings.Contains(te.stderr.String(), "is a directory") {
		t.Errorf("--from-export DIR: exit %d, stderr %s", code, te.stderr)
	}
	file := filepath.Join(t.TempDir(), "backup.jsonl")
	te.mustRun(t, "export", "--output", file)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "windows" {
		return // no /dev/fd
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(b)
		w.Close()
	}()
	defer r.Close()
	dst := newTestEnv(t)
	var sum struct {
		Added int `json:"events_added"`
	}
	if err := json.Unmarshal([]byte(dst.mustRun(t, "import", "--json", "--from-export", fmt.Sprintf("/dev/fd/%d", r.Fd()))), &sum); err != nil || sum.Added == 0 {
		t.Errorf("restore from a pipe: %+v, %v", sum, err)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(dst.openDB(t).Path()), ".restore-*"))
	if len(left) > 0 {
		t.Errorf("the pipe's copy is left behind: %v", left)
	}
	// A stream that is no export is refused at its first line, before it
	// is copied.
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w2.Write([]byte("PNG not an export\n"))
		w2.Close()
	}()
	defer r2.Close()
	if code := dst.run(t, "import", "--from-export", fmt.Sprintf("/dev/fd/%d", r2.Fd())); code != exitError || !strings.Contains(dst.stderr.String(), "no export header") {
		t.Errorf("a pipe of no export: exit %d, stderr %s", code, dst.stderr)
	}
}

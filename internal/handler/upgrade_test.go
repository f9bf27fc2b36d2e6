package handler

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestLargeStoreUpgradesOutsideHooks: a store at an older schema and larger
// than a hook may upgrade (upgradeUpTo) is not copied or migrated by the
// hooks, which answer at once without it and start `claude-memory-layer
// upgrade`. That upgrade (here run once the test lets go of the worker
// lock, which stands for a worker still busy) brings the store to this
// build's schema and registers the session from the start mark SessionStart
// spooled, so SessionEnd's worker finds the transcript and loses nothing.
func TestLargeStoreUpgradesOutsideHooks(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	path := filepath.Join(data, "memory.db")
	oldLargeStore(t, path, upgradeUpTo+1<<20)
	unlock, err := pipeline.Lock(ctx, data, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { unlock() }()

	tp := filepath.Join(t.TempDir(), "big.jsonl")
	os.WriteFile(tp, []byte(`{"type":"user","uuid":"u1","promptId":"p1","sessionId":"big","timestamp":"2026-11-20T10:00:00.000000Z","message":{"role":"user","content":"For the cache, we decided to use Redis 7 with TLS for the cache layer."}}`+"\n"), 0o600)
	in := func(event, extra string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":"big","cwd":"/p","transcript_path":%q,"hook_event_name":%q%s}`, tp, event, extra))
	}
	for _, h := range []struct{ bin, event, extra string }{
		{"session-start", "SessionStart", `,"source":"startup"`},
		{"user-prompt-submit", "UserPromptSubmit", `,"prompt_id":"p1","prompt":"For the cache, we decided to use Redis 7 with TLS for the cache layer."`},
		{"stop", "Stop", `,"last_assistant_message":"Noted: Redis 7 with TLS."`},
	} {
		r := runBinary(t, h.bin, data, in(h.event, h.extra))
		validReply(t, r, h.event)
		if strings.TrimSpace(r.stdout) != "" {
			t.Errorf("%s replied from a store it cannot read yet: %s", h.bin, r.stdout)
		}
	}
	if v := fileVersion(t, path); v != 1 {
		t.Fatalf("the hooks took the store from version 1 to %d", v)
	}
	if m, _ := filepath.Glob(path + ".v*"); len(m) > 0 {
		t.Fatalf("the hooks copied the store: %q", m)
	}
	if log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log")); !strings.Contains(string(log), "store upgrading in the background") {
		t.Errorf("the log does not say why the hooks did without the store:\n%s", log)
	}

	unlock()
	unlock = func() {}
	cmd := exec.Command(binary(t, "claude-memory-layer"), "upgrade")
	cmd.Env = []string{"CLAUDE_MEMORY_DIR=" + data, "HOME=" + data, "PATH=" + os.Getenv("PATH")}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("upgrade: %v\n%s", err, out)
	}
	if v := fileVersion(t, path); v != store.SchemaVersion() {
		t.Fatalf("store at version %d after the upgrade, want %d", v, store.SchemaVersion())
	}
	if _, err := os.Stat(path + ".v1.bak"); err != nil {
		t.Errorf("no backup from the upgrade: %v", err)
	}
	if log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log")); !strings.Contains(string(log), "worker=upgrade") {
		t.Errorf("the log does not say how the upgrade went:\n%s", log)
	}
	db, err := store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.Read().Session(ctx, "big")
	db.Close()
	if err != nil || s.TranscriptPath != tp {
		t.Fatalf("session after the upgrade: %+v, %v; want it registered with its transcript", s, err)
	}

	// Now the hooks use the store again, and the session ends as usual.
	validReply(t, runBinary(t, "session-end", data, in("SessionEnd", `,"reason":"other"`)), "SessionEnd")
	db, err = store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, err := db.Read().CountSessionMessages(ctx, "big"); err != nil || n == 0 {
		t.Fatalf("the session's transcript was not stored after the upgrade: %d messages, %v", n, err)
	}
}

// oldLargeStore writes a store as the first release did (the store
// package's testdata/v1.db) padded to at least size bytes.
func oldLargeStore(t *testing.T, path string, size int64) {
	t.Helper()
	src, err := os.Open("../store/testdata/v1.db")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`CREATE TABLE pad (b BLOB); INSERT INTO pad VALUES (zeroblob(?))`, size); err != nil {
		t.Fatal(err)
	}
}

// fileVersion reads the schema version of the store at path without
// opening it as a store (which could upgrade it).
func fileVersion(t *testing.T, path string) int {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var v int
	if err := raw.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

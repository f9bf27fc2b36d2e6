package handler

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestLargeStoreUpgradesOutsideHooks: a store at an older schema and larger
// than a hook may upgrade (upgradeUpTo) is not copied or migrated by the
// hooks, which answer at once without it and start `claude-memory-layer
// upgrade`. While the test holds the worker lock (a worker still busy),
// those upgrades give way; once it lets go, the next hook's upgrade brings
// the store to this build's schema and registers the session from the start
// mark SessionStart spooled.
func TestLargeStoreUpgradesOutsideHooks(t *testing.T) {
	data, path, unlock := upgradingStore(t)
	tp := transcript(t)
	in := hookInput(tp)
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
	if log := readLog(t, data); !strings.Contains(log, "store upgrading in the background") {
		t.Errorf("the log does not say why the hooks did without the store:\n%s", log)
	}
	// The upgrades those three hooks started give way to the busy worker,
	// so the one the next prompt starts is the one that upgrades.
	waitFor(t, data, "the hooks' upgrades giving way to the busy worker", func() bool {
		return strings.Count(readLog(t, data), "another worker is running") >= 3
	})

	unlock()
	validReply(t, runBinary(t, "user-prompt-submit", data, in("UserPromptSubmit", `,"prompt_id":"p2","prompt":"What did we pick for the cache?"`)), "UserPromptSubmit")
	waitFor(t, data, "the upgrade the prompt hook started", func() bool { return fileVersion(t, path) == store.SchemaVersion() })
	if _, err := os.Stat(path + ".v1.bak"); err != nil {
		t.Errorf("no backup from the upgrade: %v", err)
	}
	log := readLog(t, data)
	if !strings.Contains(log, "worker=upgrade") || strings.Contains(log, "start the upgrade") {
		t.Errorf("the log does not say the hooks' upgrade ran, or says it could not start:\n%s", log)
	}
	waitFor(t, data, "the session registered from the spooled start mark", func() bool {
		s, ok := readSession(t, path)
		return ok && s.TranscriptPath == tp
	})
}

// TestSessionEndWhileUpgrading: a session whose every hook ran while a large
// store waited for its upgrade, down to SessionEnd, is stored whole and
// ended by the worker SessionEnd starts, once the upgrade is done; no
// earlier hook needs to have registered it (the spool may be unavailable).
func TestSessionEndWhileUpgrading(t *testing.T) {
	data, path, unlock := upgradingStore(t)
	tp := transcript(t)
	validReply(t, runBinary(t, "session-end", data, hookInput(tp)("SessionEnd", `,"reason":"logout"`)), "SessionEnd")
	if v := fileVersion(t, path); v != 1 {
		t.Fatalf("SessionEnd took the store from version 1 to %d", v)
	}
	unlock()
	// The worker records the end before it stores the transcript: wait for
	// both, not for the end alone, which on a busy machine came well before
	// the messages (the test then read 0 of them).
	waitFor(t, data, "the worker SessionEnd started storing the transcript", func() bool {
		s, ok := readSession(t, path)
		return ok && !s.EndedAt.IsZero() && sessionMessages(t, path) > 0
	})
	s, _ := readSession(t, path)
	if s.TranscriptPath != tp || s.EndReason != "logout" {
		t.Errorf("session after the worker: %+v, want its transcript and end reason", s)
	}
}

// sessionMessages counts session "big"'s messages in the store at path (0
// while it is not at this build's schema).
func sessionMessages(t *testing.T, path string) int {
	t.Helper()
	db, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		return 0
	}
	defer db.Close()
	n, _ := db.Read().CountSessionMessages(context.Background(), "big")
	return n
}

// upgradingStore makes a data directory whose store is older than this
// build and too large for a hook to upgrade, and holds its worker lock, as
// a worker still busy would: the upgrades the hooks start give way until
// the returned unlock (also run at cleanup).
func upgradingStore(t *testing.T) (data, path string, unlock func()) {
	t.Helper()
	data = workerDataDir(t)
	path = filepath.Join(data, "memory.db")
	storetest.OldStore(t, path, upgradeUpTo+1<<20)
	release, err := pipeline.Lock(context.Background(), data, 0)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	unlock = func() { once.Do(release) }
	t.Cleanup(unlock)
	return data, path, unlock
}

// workerDataDir is a data directory for hooks that start detached workers.
// A worker may still be writing in it when the test ends (an upgrade, then
// the extraction it queued), and t.TempDir's cleanup then failed with
// "directory not empty" on a busy machine. This one is removed under the
// worker lock, so that no worker writes while it goes; one started after
// finds no store and leaves.
func workerDataDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "cml-worker-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		unlock, err := pipeline.Lock(context.Background(), dir, detachedBound)
		if err != nil {
			t.Errorf("a worker still holds %s: %v", dir, err)
			return
		}
		defer unlock()
		if err := os.RemoveAll(dir); err != nil {
			t.Errorf("remove %s: %v", dir, err)
		}
	})
	return dir
}

// transcript writes session "big"'s transcript: one prompt.
func transcript(t *testing.T) string {
	t.Helper()
	tp := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(tp, []byte(`{"type":"user","uuid":"u1","promptId":"p1","sessionId":"big","timestamp":"2026-11-20T10:00:00.000000Z","message":{"role":"user","content":"For the cache, we decided to use Redis 7 with TLS for the cache layer."}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return tp
}

// hookInput returns the input of session "big"'s hook event, with extra
// fields (each led by a comma).
func hookInput(tp string) func(event, extra string) []byte {
	return func(event, extra string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":"big","cwd":"/p","transcript_path":%q,"hook_event_name":%q%s}`, tp, event, extra))
	}
}

// waitFor polls done until it holds, for as long as a detached worker may
// reasonably take here; past that it fails with data's log.
func waitFor(t *testing.T, data, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(detachedBound); !done(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not finish in %v; log:\n%s", what, detachedBound, readLog(t, data))
		}
	}
}

// readSession reads session "big" from the store at path, if the store is
// at this build's schema and holds it.
func readSession(t *testing.T, path string) (store.Session, bool) {
	t.Helper()
	db, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		return store.Session{}, false
	}
	defer db.Close()
	s, err := db.Read().Session(context.Background(), "big")
	return s, err == nil
}

func readLog(t *testing.T, data string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
	return string(b)
}

// fileVersion reads the schema version of the store at path without
// opening it as a store (which could upgrade it).
func fileVersion(t *testing.T, path string) int {
	t.Helper()
	// The busy timeout: while the upgrade commits, a reader of the file
	// waits for it (SQLITE_BUSY failed the test under load).
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(30000)")
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

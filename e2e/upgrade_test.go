package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestRealClientDuringUpgrade: a plugin update finds a store of an older
// schema, too large for a hook to upgrade (65 MB). The session goes on as
// usual while the upgrade runs in the background, every hook exits 0, and
// once it is done the session's prompts are in the upgraded store.
func TestRealClientDuringUpgrade(t *testing.T) {
	w := newWorld(t)
	if err := os.MkdirAll(w.dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(w.dataDir, "memory.db")
	storetest.OldStore(t, path, 65<<20)
	s1 := w.session("s1", nil,
		"The nightly export job writes to the s3 bucket acme-exports-eu in eu-west-1.",
		"SAY noted, the export bucket is acme-exports-eu")
	dbg := readFile(t, filepath.Join(s1, "debug.log"))
	for _, bad := range []string{"non-blocking status code", "Hook cancelled", "hook error", "blocking error"} {
		if strings.Contains(dbg, bad) && strings.Contains(dbg, "claude-memory-layer") {
			t.Errorf("debug log reports %q for a hook", bad)
		}
	}
	sid := strings.TrimSpace(readFile(t, filepath.Join(s1, "session_id")))
	logPath := filepath.Join(w.dataDir, "claude-memory-layer.log")
	var prompts int
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		prompts = storedPrompts(t, path, sid, "acme-exports-eu")
		if prompts > 0 || time.Now().After(deadline) {
			break
		}
	}
	log := readFile(t, logPath)
	if prompts == 0 {
		t.Fatalf("the session's prompt is not in the store after the upgrade; log:\n%s", log)
	}
	if !strings.Contains(log, "store upgrading in the background") || !strings.Contains(log, "worker=upgrade") {
		t.Errorf("the hooks did not leave the upgrade to the background (nothing was tested); log:\n%s", log)
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, "level=ERROR") && !strings.Contains(line, "store upgrading in the background") {
			t.Errorf("error in the log: %s", line)
		}
	}
}

// storedPrompts counts the session's stored prompts that hold want, once the
// store is at this build's schema (0 before).
func storedPrompts(t *testing.T, path, session, want string) int {
	t.Helper()
	db, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		return 0
	}
	defer db.Close()
	evs, err := db.Read().Events(context.Background(), store.EventFilter{SessionID: session, Types: []string{store.TypeUserPrompt}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if strings.Contains(e.Text, want) {
			n++
		}
	}
	return n
}

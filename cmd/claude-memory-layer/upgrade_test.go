package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestUpgradeRecordsOnlyFailures: an upgrade cut short (the machine
// shutting down) is not noted as failed, which would keep the hooks from
// starting another for ten minutes; one that completes clears an earlier
// failure.
func TestUpgradeRecordsOnlyFailures(t *testing.T) {
	te := newTestEnv(t)
	dir := te.vars["CLAUDE_MEMORY_DIR"]
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	storetest.OldStore(t, filepath.Join(dir, "memory.db"), 0)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code := run(ctx, []string{"upgrade"}, te.env); code == 0 {
		t.Fatalf("an interrupted upgrade exited 0: %s", te.stdout)
	}
	if why, _, failed := pipeline.UpgradeFailure(dir); failed {
		t.Errorf("an interrupted upgrade is noted as failed: %s", why)
	}

	pipeline.RecordUpgrade(dir, errors.New("disk is full"))
	te.mustRun(t, "upgrade")
	if why, _, failed := pipeline.UpgradeFailure(dir); failed {
		t.Errorf("the failure is still noted after an upgrade that worked: %s", why)
	}
	if v, err := te.openDB(t).Version(context.Background()); err != nil || v != store.SchemaVersion() {
		t.Errorf("version %d (%v) after the upgrade, want %d", v, err, store.SchemaVersion())
	}
}

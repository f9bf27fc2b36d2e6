package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpawnUpgradeWaitsOutAFailure: after an upgrade failed, SpawnUpgrade
// starts none and says why; once one succeeded it starts them again (here
// it then fails to find the CLI next to the test binary, a different error).
func TestSpawnUpgradeWaitsOutAFailure(t *testing.T) {
	dir := t.TempDir()
	RecordUpgrade(dir, errors.New("backup before upgrade: disk full"))
	err := SpawnUpgrade(dir, nil)
	if err == nil || !strings.Contains(err.Error(), "last upgrade failed") || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("SpawnUpgrade after a failed upgrade: %v, want it to wait and say why", err)
	}
	RecordUpgrade(dir, nil)
	if _, err := os.Stat(filepath.Join(dir, upgradeFailed)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a successful upgrade left the failure behind: %v", err)
	}
	if err := SpawnUpgrade(dir, nil); err == nil || strings.Contains(err.Error(), "last upgrade failed") {
		t.Fatalf("SpawnUpgrade after a successful upgrade: %v, want an attempt to start the CLI", err)
	}
}

//go:build unix

package claudemd

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadBounded: a huge file is read up to its cap, a FIFO (which would
// block an open) is skipped.
func TestReadBounded(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "CLAUDE.md"), strings.Repeat("x", 4*maxFile))
	if err := syscall.Mkfifo(filepath.Join(dir, "CLAUDE.local.md"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if got := Read(dir, ""); len(got) > maxFile+1 || len(got) < maxFile {
		t.Errorf("read %d bytes, want the cap %d", len(got), maxFile)
	}
}

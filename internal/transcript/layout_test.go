package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
)

// TestFoldersLongPath checks that a working directory whose folder name
// Claude Code cut and hashed is found by its prefix.
func TestFoldersLongPath(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	long := "/" + strings.Repeat("very-long-directory-name/", 12)
	slug := project.Slug(long)
	folder := filepath.Join(root, slug[:maxSlug]+"-1x2y3z")
	if err := os.MkdirAll(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	got, err := Folders(root, long)
	if err != nil || len(got) != 1 || got[0] != folder {
		t.Errorf("Folders(long) = %q, %v; want [%q]", got, err, folder)
	}
}

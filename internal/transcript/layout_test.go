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

func TestIsSubagent(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]bool{
		"/p/5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30.jsonl":                            false,
		"/p/5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30/subagents/agent-a3f9c2e17b.jsonl": true,
		"/p/agent-a3f9c2e1.jsonl":                                                  true,  // the earlier layout
		"/p/agent-review-notes.jsonl":                                              false, // a name of the user's
		"/p/agent-.jsonl":                                                          false,
		"/p/subagents-notes/agent-x.jsonl":                                         false,
	} {
		if got := IsSubagent(path); got != want {
			t.Errorf("IsSubagent(%q) = %v, want %v", path, got, want)
		}
	}
}

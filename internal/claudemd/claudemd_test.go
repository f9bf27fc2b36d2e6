package claudemd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRead(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	repo := filepath.Join(root, "repo")
	work := filepath.Join(repo, "services", "api")
	write(t, filepath.Join(home, ".claude", "CLAUDE.md"), "user: answer tersely")
	write(t, filepath.Join(root, "CLAUDE.md"), "above the repo: org rules")
	write(t, filepath.Join(repo, "CLAUDE.md"), "repo: we use pnpm")
	write(t, filepath.Join(repo, ".claude", "CLAUDE.md"), "repo dot-claude: tests with vitest")
	write(t, filepath.Join(work, "CLAUDE.local.md"), "local: my sandbox port is 4100")
	write(t, filepath.Join(repo, "services", "README.md"), "not a memory file")
	got := Read(work, home)
	for _, want := range []string{"answer tersely", "org rules", "we use pnpm", "tests with vitest", "sandbox port is 4100"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
	if strings.Contains(got, "not a memory file") {
		t.Error("read a file that is no memory file")
	}
	if Read("relative/dir", "") != "" {
		t.Error("a relative directory was read")
	}
}

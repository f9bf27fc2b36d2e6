package project

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

func TestIdentifyPlainDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, want := Identify(sub), sub; got != want {
		t.Fatalf("Identify(%q)=%q, want %q", sub, got, want)
	}
	if got := Identify(""); got != "" {
		t.Fatalf("Identify(\"\")=%q, want empty", got)
	}
}

func TestIdentifyGitAndWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(filepath.Join(repo, "src", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	git(repo, "init", "-q")
	if err := os.WriteFile(filepath.Join(repo, "src", "deep", "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(repo, "add", ".")
	git(repo, "commit", "-q", "-m", "init")
	wt := filepath.Join(root, "wt")
	git(repo, "worktree", "add", "-q", wt)

	for _, tt := range []struct{ cwd, want string }{
		{repo, repo},
		{filepath.Join(repo, "src", "deep"), repo},
		{wt, repo},
		{filepath.Join(wt, "src", "deep"), repo},
	} {
		if got := Identify(tt.cwd); got != tt.want {
			t.Errorf("Identify(%q)=%q, want %q", tt.cwd, got, tt.want)
		}
	}
}

// TestIdentifyHostileGit: a .git (or the commondir it leads to) that is a
// device, a FIFO or a symlink loop makes its directory the project at once;
// reading /dev/zero whole used to exhaust memory.
func TestIdentifyHostileGit(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/dev/zero", "/dev/urandom", fifo, "loop"} {
		dir := t.TempDir()
		if target == "loop" {
			target = filepath.Join(dir, ".git")
		}
		if err := os.Symlink(target, filepath.Join(dir, ".git")); err != nil {
			t.Fatal(err)
		}
		if got := Identify(dir); got != dir {
			t.Errorf(".git -> %s: Identify=%q, want %q", target, got, dir)
		}
	}
	// A worktree-style .git file whose gitdir's commondir is /dev/zero.
	dir := t.TempDir()
	gitdir := filepath.Join(dir, "gd")
	os.Mkdir(gitdir, 0o700)
	os.Symlink("/dev/zero", filepath.Join(gitdir, "commondir"))
	os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: "+gitdir+"\n"), 0o600)
	if got := Identify(dir); got != dir {
		t.Errorf("commondir -> /dev/zero: Identify=%q, want %q", got, dir)
	}
}

// TestIdentifyForeignCwd: a cwd recorded on another machine names no
// directory here. A Windows path (relative on Linux) was resolved against
// the directory the import ran from, and a missing directory inside a
// repository here was walked up to it: another machine's sessions became
// memories of an unrelated project. Each is now its own project.
func TestIdentifyForeignCwd(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	t.Chdir(repo)
	for _, cwd := range []string{`C:\Users\dev\shop-api`, filepath.Join(repo, "gone", "sub")} {
		if got := Identify(cwd); got != filepath.Clean(cwd) {
			t.Errorf("Identify(%q) = %q, want the path as recorded", cwd, got)
		}
	}
	// A directory that is there still belongs to its repository.
	sub := filepath.Join(repo, "here")
	os.Mkdir(sub, 0o755)
	if got := Identify(sub); got != repo {
		t.Errorf("Identify(%q) = %q, want %q", sub, got, repo)
	}
}

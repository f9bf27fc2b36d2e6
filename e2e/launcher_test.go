package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// freshCheckout copies the launcher and build script as a plugin installed
// from a fresh checkout has them: no bin/.
func freshCheckout(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	// The dictionaries and notices build.sh copies beside the binaries
	// come with a checkout too.
	tables, err := filepath.Glob(filepath.Join("..", "glosses", "*"))
	if err != nil || len(tables) == 0 {
		t.Fatalf("no glosses/ in the checkout: %v", err)
	}
	// The notices of the tables compiled in: every one build.sh copies.
	notices, err := filepath.Glob(filepath.Join("..", "internal", "*", "NOTICE*"))
	if err != nil || len(notices) == 0 {
		t.Fatalf("no internal/*/NOTICE in the checkout: %v", err)
	}
	files := []string{"hooks/run", "scripts/build.sh"}
	for _, p := range tables {
		files = append(files, filepath.Join("glosses", filepath.Base(p)))
	}
	for _, p := range notices {
		rel, err := filepath.Rel("..", p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, rel)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(root, f), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func runLauncher(t *testing.T, root, data, path string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(root, "hooks", "run"), "user-prompt-submit")
	cmd.Env = []string{"CLAUDE_PLUGIN_ROOT=" + root, "CLAUDE_MEMORY_DIR=" + data, "HOME=" + data, "PATH=" + path}
	cmd.Stdin = strings.NewReader(`{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"hi"}`)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("launcher failed: %v", err)
	}
	return out.String()
}

// TestLauncherWithoutBinaries: a hook of a plugin with no bin/ must not disturb
// the session: exit 0, no output, a hint in the log.
func TestLauncherWithoutBinaries(t *testing.T) {
	root, data := freshCheckout(t), t.TempDir()
	// PATH with the shell tools but no Go.
	if out := runLauncher(t, root, data, "/usr/bin:/bin"); out != "" {
		t.Fatalf("stdout %q", out)
	}
	log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
	if !bytes.Contains(log, []byte("Go is not installed")) {
		t.Fatalf("no hint logged: %q", log)
	}
}

// TestLauncherStartsOneBuild: with Go available, the first hook starts one
// background build and returns at once; a second hook meanwhile starts none.
// "At once" is shown without a stopwatch: the go on PATH waits until the
// test releases it, so a launcher that waited for its build would never
// return, and when both have returned no binary exists yet.
func TestLauncherStartsOneBuild(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	cache, err := exec.Command(goBin, "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	root, data := freshCheckout(t), t.TempDir()
	// The build script runs from the plugin root; give it a module with one
	// command so the background build is quick and real.
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/p\n\ngo 1.22\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "cmd", "user-prompt-submit"), 0o755)
	os.WriteFile(filepath.Join(root, "cmd", "user-prompt-submit", "main.go"), []byte("package main\n\nvar Version string\n\nfunc main() {}\n"), 0o644)
	// go, held until release exists; then the real one, with this
	// machine's build cache (the hook's HOME is a fresh directory).
	gate, release := t.TempDir(), filepath.Join(t.TempDir(), "release")
	wrapper := fmt.Sprintf("#!/bin/sh\nwhile [ ! -e %q ]; do sleep 0.05; done\nGOCACHE=%q exec %q \"$@\"\n",
		release, strings.TrimSpace(string(cache)), goBin)
	if err := os.WriteFile(filepath.Join(gate, "go"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	path := gate + ":/usr/bin:/bin"
	released := false
	open := func() {
		if !released {
			released = true
			os.WriteFile(release, nil, 0o644)
		}
	}
	defer open() // a failed test still lets its build finish
	if out := runLauncher(t, root, data, path); out != "" {
		t.Fatalf("stdout %q", out)
	}
	if _, err := os.Stat(filepath.Join(root, ".build.lock")); err != nil {
		t.Fatalf("no build started (no lock): %v", err)
	}
	runLauncher(t, root, data, path) // a second hook while the build runs
	if _, err := os.Stat(filepath.Join(root, "bin", "user-prompt-submit")); err == nil {
		t.Fatal("a binary exists before go was released: the launcher did not return at once")
	}
	open()
	// The detached build ends by removing its lock; go test's -timeout is
	// the guard should it never end.
	for {
		if _, err := os.Stat(filepath.Join(root, ".build.lock")); os.IsNotExist(err) {
			break
		}
		time.Sleep(50 * time.Millisecond) // waiting on a detached build; nothing to block on
	}
	if _, err := os.Stat(filepath.Join(root, "bin", "user-prompt-submit")); err != nil {
		b, _ := os.ReadFile(filepath.Join(data, "build.log"))
		t.Fatalf("background build produced no binary: %v\n%s", err, b)
	}
	log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
	if n := bytes.Count(log, []byte("building them in the background")); n != 1 {
		t.Errorf("%d builds started, want 1:\n%s", n, log)
	}
	// Now the launcher runs the binary.
	if out := runLauncher(t, root, data, path); out != "" {
		t.Errorf("built hook printed %q", out)
	}
}

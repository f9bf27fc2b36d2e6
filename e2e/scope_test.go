package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealClientRepositoryReadsTheFolderAbove: Claude launched in a folder
// of repositories works in one of them (reads its file, runs commands in
// it); launched later in that
// repository, a question about the file's setting gets the read, though
// the session that made it was filed under the folder. A sibling
// repository's question gets nothing of it.
func TestRealClientRepositoryReadsTheFolderAbove(t *testing.T) {
	w := newWorld(t)
	folder := filepath.Join(w.work, "hacknight")
	repo := filepath.Join(folder, "kiln-scheduler")
	other := filepath.Join(folder, "glaze-notes")
	for _, d := range []string{repo, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(repo, "scheduler.toml")
	if err := os.WriteFile(cfg, []byte("listen_port = 7431\nzones = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name, project string, prompts ...string) string {
		t.Helper()
		r := &sessionRun{claude: w.claude, plugin: w.plugin, dir: filepath.Join(w.work, name), project: project,
			env: []string{"CLAUDE_MEMORY_DIR=" + w.dataDir}}
		if _, err := r.run(prompts...); err != nil {
			t.Fatalf("session %s: %v", name, err)
		}
		return r.dir
	}
	// Work in the repository: a read, a command run in it, a listing.
	run("s1", folder, "Which port does the kiln scheduler listen on?\nREADFILE "+cfg+"\nREPLY It listens on 7431.",
		"Check the zones.\nRUNBASH cd "+repo+" && grep zones scheduler.toml\nREPLY Three zones.",
		"What else is there?\nRUNBASH ls "+repo+"\nREPLY Just the scheduler config.")
	got := lastInjection(t, run("s2", repo, "which port does the kiln scheduler listen on?"))
	if !strings.Contains(got, "listen_port = 7431") {
		t.Errorf("the repository's first session got nothing of the folder's work in it:\n%s", got)
	}
	if got := lastInjection(t, run("s3", other, "which port does the kiln scheduler listen on?")); got != "" {
		t.Errorf("a sibling repository got the folder's memories:\n%s", got)
	}
}

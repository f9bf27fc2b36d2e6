package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
)

func TestListFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want listOptions
		err  string
	}{
		{nil, listOptions{}, ""},
		{[]string{"--json"}, listOptions{JSON: true}, ""},
		{[]string{"--project", "/p", "--json"}, listOptions{Project: "/p", JSON: true}, ""},
		{[]string{"extra"}, listOptions{}, "unexpected argument"},
		{[]string{"--all"}, listOptions{}, "unknown flag"},
	}
	for _, tt := range tests {
		te := newTestEnv(t)
		got, err := parseListFlags(te.env, tt.args)
		if tt.err != "" {
			var u usageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseListFlags(%q) = %v, want a usage error with %q", tt.args, err, tt.err)
			}
			if code := te.run(t, append([]string{"list"}, tt.args...)...); code != exitUsage {
				t.Errorf("list %q: exit %d, want %d", tt.args, code, exitUsage)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseListFlags(%q) = %+v, %v; want %+v", tt.args, got, err, tt.want)
		}
	}
}

func TestProjectSlug(t *testing.T) {
	t.Parallel()
	for dir, want := range map[string]string{
		"/home/dev/shop_api.v2":   "-home-dev-shop-api-v2",
		"/home/dev/shop-api":      "-home-dev-shop-api",
		"/Users/민지/work":          "-Users----work",
		"/tmp/🙂":                  "-tmp---",
		`C:\Users\dev\My Project`: "C--Users-dev-My-Project",
	} {
		if got := project.Slug(dir); got != want {
			t.Errorf("project.Slug(%q) = %q, want %q", dir, got, want)
		}
	}
}

// setUpProjects lays out Claude Code's projects folder: a session imported in
// full, one imported before it grew, one never imported, a subagent
// transcript and a file that is no transcript.
func setUpProjects(t *testing.T, te *testEnv) {
	t.Helper()
	fx := needDir(t, fixtureDir)
	shop := filepath.Join(te.projectsDir(), "-home-dev-shop-api")
	pay := filepath.Join(te.projectsDir(), "-Users-minji-work-payment-api")
	copyFile(t, filepath.Join(fx, "basic.jsonl"), filepath.Join(shop, "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30.jsonl"))
	basic, err := os.ReadFile(filepath.Join(fx, "basic.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	other := bytes.ReplaceAll(basic, []byte("5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30"), []byte("0e1e2e3e-0000-4000-8000-000000000001"))
	if err := os.WriteFile(filepath.Join(shop, "0e1e2e3e-0000-4000-8000-000000000001.jsonl"), other, 0o600); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(fx, "basic.jsonl"), filepath.Join(shop, "0e1e2e3e-0000-4000-8000-000000000001", "subagents", "agent-a1.jsonl"))
	edge, err := os.ReadFile(filepath.Join(fx, "edge-cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	half := bytes.Index(edge[len(edge)/2:], []byte("\n")) + len(edge)/2 + 1
	edgePath := filepath.Join(pay, "9b3d6f12-4a8c-4e57-b1d9-6c2f8a0e4d73.jsonl")
	if err := os.MkdirAll(pay, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edgePath, edge[:half], 0o600); err != nil {
		t.Fatal(err)
	}
	te.mustRun(t, "import", "--transcript", filepath.Join(shop, "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30.jsonl"), "--transcript", edgePath)
	if err := os.WriteFile(edgePath, edge, 0o600); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(te.projectsDir(), "-tmp-x", "broken.jsonl")
	if err := os.MkdirAll(filepath.Dir(broken), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte("not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	setUpProjects(t, te)
	out := te.mustRun(t, "list")
	golden(t, "list.txt", te.normalize(t, out+"--- stderr\n"+te.stderr.String()))
	out = te.mustRun(t, "list", "--json")
	golden(t, "list.json", te.normalize(t, out))
	var got struct {
		Sessions []listedSession `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	imported := map[string]string{}
	for _, s := range got.Sessions {
		imported[s.SessionID] = s.Imported
	}
	want := map[string]string{"5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30": "yes", "9b3d6f12-4a8c-4e57-b1d9-6c2f8a0e4d73": "partial", "0e1e2e3e-0000-4000-8000-000000000001": "no"}
	if !reflect.DeepEqual(imported, want) {
		t.Errorf("imported = %v, want %v", imported, want)
	}

	// One project: only its folder.
	out = te.mustRun(t, "list", "--json", "--project", "/home/dev/shop-api")
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Sessions) != 2 {
		t.Errorf("--project: %d sessions, want 2", len(got.Sessions))
	}
	out = te.mustRun(t, "list", "--project", "/home/dev/nothing-here")
	if !strings.HasPrefix(out, "no Claude Code sessions in ") {
		t.Errorf("--project without sessions: %q", out)
	}

	// After importing everything, all are imported in full (broken.jsonl fails).
	if code := te.run(t, "import", "--all"); code != exitError {
		t.Errorf("import --all: exit %d, want %d for broken.jsonl\n%s", code, exitError, te.stderr)
	}
	out = te.mustRun(t, "list", "--json")
	if strings.Contains(out, `"partial"`) || strings.Contains(out, `"no"`) {
		t.Errorf("after import --all:\n%s", out)
	}
}

func TestListWithoutStore(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	fx := needDir(t, fixtureDir)
	copyFile(t, filepath.Join(fx, "basic.jsonl"), filepath.Join(te.projectsDir(), "-home-dev-shop-api", "s.jsonl"))
	out := te.mustRun(t, "list", "--json")
	if !strings.Contains(out, `"imported": "no"`) {
		t.Errorf("list without a store:\n%s", out)
	}
	if _, err := os.Stat(te.vars["CLAUDE_MEMORY_DIR"]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("list created the data directory: %v", err)
	}
	empty := newTestEnv(t)
	if out := empty.mustRun(t, "list", "--json"); out != "{\n  \"sessions\": []\n}\n" {
		t.Errorf("list with no projects: %q", out)
	}
}

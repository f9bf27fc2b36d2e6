package llm

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/scripttest"
)

// fakeClaudeHead records how the fake claude was run into $FAKE_CLAUDE_DIR
// (args one per line, env, cwd, stdin) and fails unless it was run the way
// the backend must run the real one: with our hooks made no-ops and all
// hooks disabled, no tools, one turn, no saved session.
const fakeClaudeHead = `#!/bin/sh
d="$FAKE_CLAUDE_DIR"
printf '%s\n' "$@" > "$d/args"
env > "$d/env"
pwd > "$d/cwd"
cat > "$d/stdin"
[ "$CLAUDE_MEMORY_DISABLE" = 1 ] || { echo "CLAUDE_MEMORY_DISABLE is not 1" >&2; exit 90; }
[ -z "$CLAUDECODE" ] || { echo "CLAUDECODE leaked into the child" >&2; exit 91; }
case " $* " in *' --settings {"disableAllHooks":true} '*) ;; *) echo "hooks not disabled" >&2; exit 92;; esac
case " $* " in *' --tools  --max-turns 1 '*) ;; *) echo "tools not disabled" >&2; exit 93;; esac
case " $* " in *' --no-session-persistence '*) ;; *) echo "session persists" >&2; exit 94;; esac
sid=; prev=
for a in "$@"; do [ "$prev" = --session-id ] && sid=$a; prev=$a; done
`

// envelopeJSON is a result envelope as claude -p --output-format json prints it.
func envelopeJSON(t *testing.T, result string, isError bool) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"type": "result", "subtype": "success", "is_error": isError, "result": result,
		"session_id": "d69eaac3-0c41-4bea-aa30-f0d5f2117c13", "num_turns": 1, "total_cost_usd": 0.01,
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type fakeClaude struct {
	c    *Claude
	dir  string // where the script records its run
	home string
	work string // TempDir of the backend
}

// newFakeClaude writes a fake claude whose behaviour after fakeClaudeHead is
// tail, and a backend that runs it.
func newFakeClaude(t *testing.T, tail string) *fakeClaude {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake claude is a shell script")
	}
	root := t.TempDir()
	f := &fakeClaude{dir: filepath.Join(root, "rec"), home: filepath.Join(root, "home"), work: filepath.Join(root, "work")}
	for _, d := range []string{f.dir, f.home, f.work} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(root, "claude")
	scripttest.Write(t, bin, fakeClaudeHead+tail, 0o700)
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + f.home,
		"FAKE_CLAUDE_DIR=" + f.dir,
		"CLAUDE_MEMORY_DISABLE=0",
		"CLAUDECODE=1",
		"CLAUDE_PROJECT_DIR=/home/someone/their-project",
		"CLAUDE_CODE_SESSION_ID=11111111-1111-4111-8111-111111111111",
		"ANTHROPIC_BASE_URL=http://127.0.0.1:9",
	}
	c, err := NewClaude(config.LLM{ClaudeBin: bin, Model: "sonnet", MaxOutputTok: 999, TimeoutSeconds: 10}, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.TempDir = f.work
	f.c = c
	return f
}

func (f *fakeClaude) read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestClaudeInvocation(t *testing.T) {
	t.Parallel()
	f := newFakeClaude(t, "cat <<'EOF'\n"+envelopeJSON(t, goodReply, false)+"\nEOF\n")
	entries, err := f.c.Extract(context.Background(), session())
	if err != nil {
		t.Fatalf("%v (stderr of the fake: see exit code)", err)
	}
	if len(entries) != 1 || entries[0].Type != "decision" {
		t.Fatalf("entries = %+v", entries)
	}

	args := strings.Split(strings.TrimSuffix(f.read(t, "args"), "\n"), "\n")
	sid := args[slices.Index(args, "--session-id")+1]
	want := []string{
		"-p", "--output-format", "json", "--tools", "", "--max-turns", "1", "--no-session-persistence",
		"--session-id", sid, "--strict-mcp-config", "--disable-slash-commands", "--safe-mode",
		"--settings", `{"disableAllHooks":true}`, "--system-prompt", systemPrompt, "--model", "sonnet",
	}
	if !slices.Equal(args, want) {
		t.Errorf("args =\n%q\nwant\n%q", args, want)
	}
	if len(sid) != 36 || sid[14] != '4' {
		t.Errorf("session id %q is not a v4 UUID", sid)
	}

	env := strings.Split(f.read(t, "env"), "\n")
	for _, kv := range []string{"CLAUDE_MEMORY_DISABLE=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_MAX_OUTPUT_TOKENS=999",
		"HOME=" + f.home, "ANTHROPIC_BASE_URL=http://127.0.0.1:9"} {
		if !slices.Contains(env, kv) {
			t.Errorf("child env lacks %s", kv)
		}
	}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "CLAUDECODE", "CLAUDE_PROJECT_DIR", "CLAUDE_CODE_SESSION_ID":
			t.Errorf("child env has the parent session's %s", kv)
		}
		if kv == "CLAUDE_MEMORY_DISABLE=0" {
			t.Error("child env kept CLAUDE_MEMORY_DISABLE=0")
		}
	}

	stdin := f.read(t, "stdin")
	if !strings.HasPrefix(stdin, instructions) || !strings.Contains(stdin, "[0] user:\nWe decided") {
		t.Errorf("stdin is not the prompt: %.200q", stdin)
	}
	cwd := strings.TrimSpace(f.read(t, "cwd"))
	if filepath.Dir(cwd) != f.work || !strings.HasPrefix(filepath.Base(cwd), "cml-extract-") {
		t.Errorf("ran in %s, want a fresh directory under %s", cwd, f.work)
	}
	if left, _ := os.ReadDir(f.work); len(left) != 0 {
		t.Errorf("working directory left behind: %v", left)
	}
}

func TestClaudeRemovesTranscript(t *testing.T) {
	t.Parallel()
	// A CLI that ignores --no-session-persistence: it writes the transcript
	// where 2.1.330 would, plus a memory/ directory.
	f := newFakeClaude(t, `slug=$(pwd | sed 's/[^a-zA-Z0-9]/-/g')
p="$HOME/.claude/projects/$slug"
mkdir -p "$p/memory" "$p/$sid/subagents"
echo '{"type":"user"}' > "$p/$sid.jsonl"
echo '{}' > "$p/$sid/subagents/agent-1.jsonl"
echo "$p" > "$d/project"
cat <<'EOF'
`+envelopeJSON(t, goodReply, false)+"\nEOF\n")
	other := filepath.Join(f.home, ".claude", "projects", "-home-someone-their-project")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(other, "11111111-1111-4111-8111-111111111111.jsonl")
	if err := os.WriteFile(keep, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.Extract(context.Background(), session()); err != nil {
		t.Fatal(err)
	}
	project := strings.TrimSpace(f.read(t, "project"))
	if _, err := os.Stat(project); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("project directory %s left behind (stat err %v)", project, err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("another project's transcript was touched: %v", err)
	}
}

func TestClaudeFailures(t *testing.T) {
	tests := []struct {
		name  string
		tail  string
		check func(t *testing.T, err error)
	}{
		{"fenced result", "cat <<'EOF'\n" + envelopeJSON(t, "```json\n"+goodReply+"\n```", false) + "\nEOF\n", func(t *testing.T, err error) {
			if err != nil {
				t.Fatal(err)
			}
		}},
		{"result not json", "cat <<'EOF'\n" + envelopeJSON(t, "FAKE-ANSWER: ok (tool_rounds=0)", false) + "\nEOF\n", func(t *testing.T, err error) {
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "FAKE-ANSWER") {
				t.Fatalf("err=%v, want ErrMalformed quoting the result", err)
			}
		}},
		{"api error", "cat <<'EOF'\n" + `{"type":"result","subtype":"success","is_error":true,"api_error_status":404,"result":"There's an issue with the selected model"}` + "\nEOF\nexit 1\n", func(t *testing.T, err error) {
			var ce *ClaudeError
			if !errors.As(err, &ce) || ce.ExitCode != 1 || ce.APIStatus != 404 || !strings.Contains(ce.Detail, "selected model") {
				t.Fatalf("err=%v, want a ClaudeError with exit 1 and api status 404", err)
			}
		}},
		{"max turns", "cat <<'EOF'\n" + `{"type":"result","subtype":"error_max_turns","is_error":true,"errors":["Reached maximum number of turns (1)"]}` + "\nEOF\nexit 1\n", func(t *testing.T, err error) {
			var ce *ClaudeError
			if !errors.As(err, &ce) || ce.Subtype != "error_max_turns" || !strings.Contains(ce.Detail, "maximum number of turns") {
				t.Fatalf("err=%v, want a ClaudeError error_max_turns", err)
			}
		}},
		{"is_error exit 0", "cat <<'EOF'\n" + envelopeJSON(t, "Credit balance is too low", true) + "\nEOF\n", func(t *testing.T, err error) {
			var ce *ClaudeError
			if !errors.As(err, &ce) || ce.ExitCode != 0 || !strings.Contains(ce.Detail, "Credit balance") {
				t.Fatalf("err=%v, want a ClaudeError", err)
			}
		}},
		{"crash", "echo 'Error: not logged in' >&2; exit 2\n", func(t *testing.T, err error) {
			var ce *ClaudeError
			if !errors.As(err, &ce) || ce.ExitCode != 2 || !strings.Contains(ce.Detail, "not logged in") {
				t.Fatalf("err=%v, want a ClaudeError quoting stderr", err)
			}
		}},
		{"stdout not json", "echo 'Welcome to Claude Code'\n", func(t *testing.T, err error) {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err=%v, want ErrMalformed", err)
			}
		}},
		{"wrong envelope type", `echo '{"type":"assistant","result":"x"}'` + "\n", func(t *testing.T, err error) {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err=%v, want ErrMalformed", err)
			}
		}},
		{"huge output", "head -c 9000000 /dev/zero | tr '\\0' x\n", func(t *testing.T, err error) {
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err=%v, want ErrTooLarge", err)
			}
		}},
		// A child that outlives the timeout by an hour: an Extract that did
		// not kill it would hang, which go test's -timeout reports; no
		// stopwatch needed.
		{"slow", "exec sleep 3600\n", func(t *testing.T, err error) {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err=%v, want context.DeadlineExceeded", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeClaude(t, tt.tail)
			if tt.name == "slow" {
				f.c.Limits.Timeout = fastTimeout
			}
			_, err := f.c.Extract(context.Background(), session())
			tt.check(t, err)
			if left, _ := os.ReadDir(f.work); len(left) != 0 {
				t.Errorf("working directory left behind: %v", left)
			}
		})
	}
}

func TestNewClaudeMissingBinary(t *testing.T) {
	t.Parallel()
	_, err := NewClaude(config.LLM{ClaudeBin: filepath.Join(t.TempDir(), "no-such-claude")}, nil, nil)
	if err == nil {
		t.Fatal("a missing binary was accepted")
	}
}

func TestProjectSlug(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"/tmp/llmexpB/cwd", "-tmp-llmexpB-cwd"},
		{"/tmp/cml-extract-123/x.y_z", "-tmp-cml-extract-123-x-y-z"},
		{"/tmp/é😀", "-tmp----"},
	} {
		if got := project.Slug(tt.in); got != tt.want {
			t.Errorf("project.Slug(%q)=%q, want %q", tt.in, got, tt.want)
		}
	}
}

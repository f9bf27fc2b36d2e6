package llm

import (
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/fakeapi"
)

// TestClaudeRealCLI runs the claude backend through the real Claude Code CLI
// (pinned 2.1.330, installed by scripts/setup-claude.sh; scripts/e2e.sh passes
// its path in CML_CLAUDE) against internal/fakeapi on a loopback port. It
// needs CML_E2E=1; then a missing CLI fails it.
//
// HOME is a fresh directory holding a settings hook and an MCP server that
// would each leave a file if run and a CLAUDE.md that must not be sent, and
// one message carries the fake model's tool directives, which it acts on only
// when tools are offered.
func TestClaudeRealCLI(t *testing.T) {
	if os.Getenv("CML_E2E") != "1" {
		t.Skip("set CML_E2E=1 to run the real claude CLI")
	}
	claudeBin := os.Getenv("CML_CLAUDE")
	if claudeBin == "" {
		t.Fatal("CML_CLAUDE is not set: run scripts/e2e.sh, which installs Claude Code with scripts/setup-claude.sh")
	}
	if _, err := os.Stat(claudeBin); err != nil {
		t.Fatalf("the Claude Code CLI: %v", err)
	}
	ctx := t.Context()

	root := t.TempDir()
	home, tmp, work := filepath.Join(root, "home"), filepath.Join(root, "tmp"), filepath.Join(root, "work")
	for _, d := range []string{filepath.Join(home, ".claude"), tmp, work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	mark := func(name string) string { return filepath.Join(root, name) }
	hook := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "touch " + mark("HOOK-RAN")}}}
	writeJSON(t, filepath.Join(home, ".claude", "settings.json"), map[string]any{"hooks": map[string]any{
		"SessionStart": []any{hook}, "UserPromptSubmit": []any{hook}, "Stop": []any{hook}, "SessionEnd": []any{hook},
	}})
	if err := os.WriteFile(filepath.Join(home, ".claude", "CLAUDE.md"), []byte("USER-CLAUDE-MD-MARKER: answer in French.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, filepath.Join(home, ".claude.json"), map[string]any{"mcpServers": map[string]any{
		"probe": map[string]any{"type": "stdio", "command": "sh", "args": []string{"-c", "touch " + mark("MCP-RAN") + "; sleep 5"}},
	}})

	apiLog := filepath.Join(root, "api.jsonl")
	base := startFakeAPI(t, apiLog)

	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
		"ANTHROPIC_BASE_URL=" + base,
		"ANTHROPIC_API_KEY=sk-ant-fake-key",
		// As if the worker had been started from a hook of a live session.
		"CLAUDECODE=1",
		"CLAUDE_PROJECT_DIR=" + root,
	}
	const maxOut = 2048
	c, err := NewClaude(config.LLM{ClaudeBin: claudeBin, MaxOutputTok: maxOut, TimeoutSeconds: 120}, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.TempDir = work
	var logBuf strings.Builder
	c.Log = slog.New(slog.NewTextHandler(&logBuf, nil))
	msgs := append(session(), extract.Message{Index: 3, Role: "user",
		Text: "READFILE /etc/hostname\nRUNBASH touch " + mark("TOOL-RAN") + "\n"})

	_, err = c.Extract(ctx, msgs)

	// The CLI ran, exited 0 and printed an envelope whose result (the fake
	// model's plain-text answer) is not the entries JSON: Extract fails, so
	// the pipeline falls back to the offline extractor.
	var ce *ClaudeError
	if errors.As(err, &ce) {
		t.Fatalf("claude failed: %v", err)
	}
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "FAKE-ANSWER") {
		t.Fatalf("err=%v, want ErrMalformed quoting the FAKE-ANSWER result", err)
	}

	// One headless turn: exactly one POST /v1/messages, carrying our prompt
	// and system prompt, no tools and our max_tokens, answered with text.
	recs := readAPILog(t, apiLog)
	if len(recs) != 1 {
		for _, r := range recs {
			t.Logf("request %s %s -> %s", r.Method, r.Path, r.Reply)
		}
		t.Fatalf("fakeapi got %d requests, want 1", len(recs))
	}
	r := recs[0]
	if r.Method != "POST" || r.Path != "/v1/messages" {
		t.Errorf("request %s %s, want POST /v1/messages", r.Method, r.Path)
	}
	if len(r.Body.Tools) != 0 {
		t.Errorf("%d tools offered, want none", len(r.Body.Tools))
	}
	if r.Body.MaxTokens != maxOut {
		t.Errorf("max_tokens=%d, want %d", r.Body.MaxTokens, maxOut)
	}
	if len(r.Body.Messages) == 0 || r.Body.Messages[0].Role != "user" {
		t.Fatalf("messages = %+v", r.Body.Messages)
	}
	if got := textOf(r.Body.Messages[0].Content); !strings.HasPrefix(got, instructions) || !strings.Contains(got, "[0] user:\nWe decided to use SQLite") {
		t.Errorf("first message is not our prompt: %.300q", got)
	}
	if got := textOf(r.Body.System); !strings.Contains(got, systemPrompt) {
		t.Errorf("system prompt lacks ours: %.300q", got)
	}
	if raw, _ := os.ReadFile(apiLog); strings.Contains(string(raw), "USER-CLAUDE-MD-MARKER") {
		t.Error("the user's CLAUDE.md was sent")
	}
	if !strings.HasPrefix(r.Reply, "sse: FAKE-ANSWER") || strings.Contains(r.Reply, "tool_use") {
		t.Errorf("fakeapi replied %q, want a plain FAKE-ANSWER", r.Reply)
	}

	for _, m := range []string{"HOOK-RAN", "MCP-RAN", "TOOL-RAN"} {
		if _, err := os.Stat(mark(m)); err == nil {
			t.Errorf("%s: isolation failed", m)
		}
	}
	// --no-session-persistence: no transcript was written, so cleanup had
	// nothing to remove (it would log it), and nothing is left.
	if strings.Contains(logBuf.String(), "removed") {
		t.Errorf("the run wrote a transcript that cleanup had to remove: %s", logBuf.String())
	}
	_ = filepath.WalkDir(filepath.Join(home, ".claude", "projects"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("left under ~/.claude/projects: %s", p)
		}
		return nil
	})
	if left, _ := os.ReadDir(work); len(left) != 0 {
		t.Errorf("working directory left behind: %v", left)
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// startFakeAPI serves the fake Messages API on a loopback port, logging each
// request to logPath, and returns its base URL.
func startFakeAPI(t *testing.T, logPath string) string {
	t.Helper()
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&fakeapi.Server{Log: f})
	t.Cleanup(func() {
		srv.Close()
		f.Close()
	})
	return srv.URL
}

type apiRecord struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Reply  string `json:"reply"`
	Body   struct {
		MaxTokens int               `json:"max_tokens"`
		Tools     []json.RawMessage `json:"tools"`
		System    json.RawMessage   `json:"system"`
		Messages  []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	} `json:"body"`
}

func readAPILog(t *testing.T, path string) []apiRecord {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []apiRecord
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var r apiRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("api log line %q: %v", line, err)
		}
		recs = append(recs, r)
	}
	return recs
}

// textOf joins the text of a Messages API content or system field: a string
// or an array of blocks.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.Text)
	}
	return b.String()
}

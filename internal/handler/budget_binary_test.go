package handler

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/spend/spendtest"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// TestBudgetAcrossProcesses runs the real binaries: three sessions are
// processed by `claude-memory-layer process` with the anthropic extractor
// against a local fake Messages API reporting 800 tokens a call, under a
// daily cap of 1,000 tokens. The first two call the API; the third is
// extracted offline. The log says so once, and of the two SessionStart
// hooks that follow only the first brief carries the notice.
func TestBudgetAcrossProcesses(t *testing.T) {
	t.Parallel()
	api := spendtest.Serve(t, 500, 300)
	data := t.TempDir()
	cfg := fmt.Sprintf(`{"extractor":"anthropic","llm":{"base_url":%q,"budget":{"daily_tokens":1000}}}`, api.URL)
	if err := os.WriteFile(filepath.Join(data, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	key := "ANTHROPIC_API_KEY=test-key"
	for i := range 3 {
		sid := fmt.Sprintf("budget-%d", i)
		var b strings.Builder
		fmt.Fprintf(&b, `{"type":"user","uuid":"%s-u","sessionId":"%s","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"We decided to keep the orders table in Postgres %d."}}`+"\n", sid, sid, i)
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"%s-a","sessionId":"%s","timestamp":"2026-11-20T10:00:01Z","message":{"id":"m-%s","role":"assistant","content":[{"type":"text","text":"Done: orders stay in Postgres."}],"stop_reason":"end_turn"}}`+"\n", sid, sid, sid)
		tp := filepath.Join(t.TempDir(), sid+".jsonl")
		if err := os.WriteFile(tp, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(binary(t, "claude-memory-layer"), "process", "--session", sid, "--transcript", tp, "--cwd", "/home/dev/shop-api")
		cmd.Env = []string{"CLAUDE_MEMORY_DIR=" + data, "HOME=" + data, "PATH=" + os.Getenv("PATH"), key}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("process %s: %v: %s", sid, err, out)
		}
	}
	if n := api.Calls(); n != 2 {
		t.Errorf("%d API calls, want 2", n)
	}
	log, err := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "LLM budget reached"); n != 1 {
		t.Errorf("the log says the budget was reached %d times, want once:\n%s", n, log)
	}
	start := func(sid string) string {
		t.Helper()
		in, err := sjson.SetBytes(fixture(t, "session-start.json", ""), "session_id", sid)
		if err != nil {
			t.Fatal(err)
		}
		r := runBinary(t, "session-start", data, in)
		validReply(t, r, "SessionStart")
		return gjson.Get(r.stdout, "hookSpecificOutput.additionalContext").String()
	}
	const notice = "LLM extraction budget reached: 1600 of 1000 tokens today (llm.budget.daily_tokens); sessions are extracted offline until tomorrow."
	if got := start("next-1"); !strings.Contains(got, notice) {
		t.Errorf("the next brief lacks the notice:\n%s", got)
	}
	if got := start("next-2"); strings.Contains(got, "budget") {
		t.Errorf("the brief after it says it again:\n%s", got)
	}
}

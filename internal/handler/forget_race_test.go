package handler

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
)

// TestForgetDuringWorkerExtraction is the race with real binaries: the
// SessionEnd hook starts the detached worker, the worker waits on the model
// (a local server that answers only when told), the user runs
// `claude-memory-layer forget --session ID --yes` meanwhile, then the model
// answers with an entry quoting the forgotten message. Nothing of it may be
// written back. Before, the worker stored the entry, its events and the
// session summary.
func TestForgetDuringWorkerExtraction(t *testing.T) {
	const word = "zanzibarqueue"
	asked := make(chan struct{}, 4)
	answer := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		asked <- struct{}{}
		<-answer
		entries := `{"entries":[{"type":"decision","title":"Billing jobs go to ` + word + `","body":"Billing uses ` + word + `.","subject":"billing queue","evidence":[{"messageIndex":0,"quote":"billing jobs go to ` + word + ` from now on"}]}]}`
		json.NewEncoder(w).Encode(map[string]any{"content": []map[string]string{{"type": "text", "text": entries}}, "stop_reason": "end_turn"})
	}))
	defer srv.Close()
	defer close(answer)

	data := t.TempDir()
	t.Cleanup(func() { waitForWorker(data) }) // before the directory goes: cleanups run last first
	tp := filepath.Join(t.TempDir(), "w.jsonl")
	os.WriteFile(tp, []byte(`{"type":"user","uuid":"u1","promptId":"p1","sessionId":"w","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"From today billing jobs go to `+word+` from now on."}}`+"\n"), 0o600)
	env := []string{"CLAUDE_MEMORY_EXTRACTOR=anthropic", "CLAUDE_MEMORY_LLM_BASE_URL=" + srv.URL, "ANTHROPIC_API_KEY=sk-test"}
	in := func(event string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":"w","cwd":"/p","transcript_path":%q,"hook_event_name":%q,"reason":"other"}`, tp, event))
	}
	validReply(t, runBinary(t, "session-start", data, in("SessionStart"), env...), "SessionStart")
	validReply(t, runBinary(t, "session-end", data, in("SessionEnd"), env...), "SessionEnd")
	select {
	case <-asked:
	case <-time.After(detachedBound):
		log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
		t.Fatalf("the worker never asked the model; log:\n%s", log)
	}

	forget := exec.Command(binary(t, "claude-memory-layer"), "forget", "--session", "w", "--yes")
	forget.Env = append([]string{"CLAUDE_MEMORY_DIR=" + data, "HOME=" + data, "PATH=" + os.Getenv("PATH")}, env...)
	if out, err := forget.CombinedOutput(); err != nil {
		t.Fatalf("forget: %v\n%s", err, out)
	}
	answer <- struct{}{}
	// The worker holds its lock until it exits.
	unlock, err := pipeline.Lock(context.Background(), data, 30*time.Second)
	if err != nil {
		t.Fatalf("worker still running: %v", err)
	}
	unlock()
	// Compact, so that what is left in the file is what the store holds.
	c := exec.Command(binary(t, "claude-memory-layer"), "forget", "--compact")
	c.Env = forget.Env
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("compact: %v\n%s", err, out)
	}
	for _, p := range []string{"memory.db", "memory.db-wal"} {
		if b, err := os.ReadFile(filepath.Join(data, p)); err == nil && strings.Contains(string(b), word) {
			t.Errorf("%q is back in %s after the worker finished", word, p)
		}
	}
}

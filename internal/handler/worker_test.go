package handler

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestSessionEndHandsOverToWorker: with an LLM extractor configured, SessionEnd
// does not extract in the hook; it starts the detached worker, which asks the
// model (a local server here), aligns the model's quotes and stores entries.
func TestSessionEndHandsOverToWorker(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path != "/v1/messages" || !strings.Contains(string(body), "Redis 7") {
			http.Error(w, "unexpected request", 400)
			return
		}
		entries := `{"entries":[{"type":"decision","title":"Use Redis 7 with TLS for the cache","body":"The cache layer uses Redis 7 with TLS.","subject":"cache","evidence":[{"messageIndex":0,"quote":"we decided to use Redis 7 with TLS for the cache layer"}]},` +
			`{"type":"fact","title":"Invented","body":"x","subject":"y","evidence":[{"messageIndex":0,"quote":"the billing ledger moved to Cassandra"}]}]}`
		json.NewEncoder(w).Encode(map[string]any{"content": []map[string]string{{"type": "text", "text": entries}}, "stop_reason": "end_turn"})
	}))
	defer srv.Close()

	data := t.TempDir()
	t.Cleanup(func() { waitForWorker(data) }) // before the directory goes: cleanups run last first
	tp := filepath.Join(t.TempDir(), "w.jsonl")
	os.WriteFile(tp, []byte(`{"type":"user","uuid":"u1","promptId":"p1","sessionId":"w","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"For the cache, we decided to use Redis 7 with TLS for the cache layer."}}`+"\n"), 0o600)
	env := []string{"CLAUDE_MEMORY_EXTRACTOR=anthropic", "CLAUDE_MEMORY_LLM_BASE_URL=" + srv.URL, "ANTHROPIC_API_KEY=sk-test"}
	in := func(event string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":"w","cwd":"/p","transcript_path":%q,"hook_event_name":%q,"reason":"other"}`, tp, event))
	}
	validReply(t, runBinary(t, "session-start", data, in("SessionStart"), env...), "SessionStart")
	validReply(t, runBinary(t, "session-end", data, in("SessionEnd"), env...), "SessionEnd")

	// The worker runs detached; wait for its result, bounded.
	var es []store.Entry
	deadline := time.Now().Add(detachedBound)
	for time.Now().Before(deadline) {
		db, err := store.Open(context.Background(), filepath.Join(data, "memory.db"), store.Options{ReadOnly: true})
		if err == nil {
			es, _ = db.Read().Entries(context.Background(), store.EntryFilter{Evidence: true})
			db.Close()
		}
		if len(es) == 2 {
			break
		}
		time.Sleep(50 * time.Millisecond) // polling a detached process; there is nothing to wait on
	}
	if len(es) != 2 || calls.Load() == 0 {
		log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
		t.Fatalf("worker stored %d entries after %d model calls; log:\n%s", len(es), calls.Load(), log)
	}
	for _, e := range es {
		switch e.Title {
		case "Use Redis 7 with TLS for the cache":
			if e.Stage != store.StageVerified || e.Evidence[0].Method != "exact" || e.Evidence[0].SourceUUID != "u1" {
				t.Errorf("model's true quote: %+v", e)
			}
		case "Invented":
			if e.Stage != store.StageCandidate || !strings.Contains(e.PromotionBlocked, "not_found") {
				t.Errorf("model's invented quote was not blocked: %+v", e)
			}
		}
	}
}

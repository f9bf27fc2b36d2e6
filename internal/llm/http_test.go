package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
)

const fakeKey = "sk-test-SECRET-key-123"

// recorder is a fake API: it answers every request with reply and keeps the
// requests it got.
type recorder struct {
	mu    sync.Mutex
	reqs  []recorded
	reply func(w http.ResponseWriter, r *http.Request)
}

type recorded struct {
	method, path string
	header       http.Header
	body         map[string]any
	raw          []byte
}

func (rec *recorder) requests() []recorded {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]recorded(nil), rec.reqs...)
}

// serve starts a fake API answering with reply.
func serve(t *testing.T, reply func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{reply: reply}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, recorded{r.Method, r.URL.Path, r.Header.Clone(), body, raw})
		rec.mu.Unlock()
		rec.reply(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

// jsonReply answers with status and v encoded as JSON.
func jsonReply(status int, v any) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
}

// hang answers only when the client gives up.
func hang(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// huge answers with a 2xx body over the response cap.
func huge(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"pad":"`)
	chunk := strings.Repeat("x", 1<<16)
	for n := 0; n <= maxResponseBytes; n += len(chunk) {
		if _, err := io.WriteString(w, chunk); err != nil {
			return
		}
	}
	_, _ = io.WriteString(w, `"}`)
}

// bigSession is a session far over a 30 KB input limit: 30 user and
// assistant messages of 9 KB with a tool message of 9 KB after each.
func bigSession() []extract.Message {
	var msgs []extract.Message
	for i := range 60 {
		role := "tool"
		if i%2 == 0 {
			role = []string{"user", "assistant"}[i/2%2]
		}
		msgs = append(msgs, extract.Message{Index: i, Role: role, Text: fmt.Sprintf("message %d: ", i) + strings.Repeat("lorem ipsum ", 750)})
	}
	return msgs
}

// checkCapped checks a prompt sent for bigSession under a 30,000-byte limit.
func checkCapped(t *testing.T, prompt string) {
	t.Helper()
	if got := len(prompt) + len(systemPrompt); got > 30_000 {
		t.Errorf("prompt is %d bytes, cap 30000", got)
	}
	if strings.Contains(prompt, "] tool:") {
		t.Error("a tool message was sent although others were dropped for space")
	}
	if !strings.Contains(prompt, "[58] user:") && !strings.Contains(prompt, "[58] assistant:") {
		t.Error("the newest message was not sent")
	}
	if strings.Contains(prompt, "[0] user:") {
		t.Error("the oldest message was sent")
	}
	if !strings.Contains(prompt, "bytes cut ...]") {
		t.Error("messages were not cut to the per-message cap")
	}
}

// fastTimeout is the request timeout of the slow-server tests.
const fastTimeout = 200 * time.Millisecond

// Package spendtest serves a fake Anthropic Messages API for budget tests:
// every answer is an empty entries list with fixed usage.
package spendtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/llm"
)

// API is a fake Messages API that counts its calls.
type API struct {
	URL   string
	calls atomic.Int32
}

// Calls is how many requests it has answered.
func (a *API) Calls() int { return int(a.calls.Load()) }

// Serve starts an API reporting in input and out output tokens a call; it
// stops when the test ends.
func Serve(tb testing.TB, in, out int) *API {
	tb.Helper()
	a := &API{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
			"content": []map[string]any{{"type": "text", "text": `{"entries":[]}`}}, "stop_reason": "end_turn",
			"usage": map[string]any{"input_tokens": in, "output_tokens": out}})
	}))
	tb.Cleanup(srv.Close)
	a.URL = srv.URL
	return a
}

// Anthropic is the Anthropic backend pointed at the API, as a user's
// config would build it.
func (a *API) Anthropic(tb testing.TB) *llm.Anthropic {
	tb.Helper()
	c, err := llm.NewAnthropic(config.LLM{BaseURL: a.URL, TimeoutSeconds: 5}, "test-key", nil)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

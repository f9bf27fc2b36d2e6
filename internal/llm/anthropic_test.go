package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
)

func anthropicText(text, stop string) func(http.ResponseWriter, *http.Request) {
	return jsonReply(200, map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
		"content":     []map[string]any{{"type": "text", "text": text}},
		"stop_reason": stop,
	})
}

func newTestAnthropic(t *testing.T, url string) *Anthropic {
	t.Helper()
	a, err := NewAnthropic(config.LLM{BaseURL: url + "/", Model: "claude-test", MaxOutputTok: 777, TimeoutSeconds: 5}, fakeKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAnthropicRequest(t *testing.T) {
	srv, rec := serve(t, anthropicText(goodReply, "end_turn"))
	a := newTestAnthropic(t, srv.URL)
	entries, err := a.Extract(context.Background(), session())
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Evidence[0].Quote != "We decided to use SQLite with the modernc driver" {
		t.Fatalf("entries = %+v", entries)
	}
	reqs := rec.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.method != "POST" || r.path != "/v1/messages" {
		t.Errorf("request %s %s, want POST /v1/messages", r.method, r.path)
	}
	for k, want := range map[string]string{"X-Api-Key": fakeKey, "Anthropic-Version": "2023-06-01", "Content-Type": "application/json"} {
		if got := r.header.Get(k); got != want {
			t.Errorf("header %s=%q, want %q", k, got, want)
		}
	}
	if got, want := r.body["model"], "claude-test"; got != want {
		t.Errorf("model=%v, want %v", got, want)
	}
	if got, want := r.body["max_tokens"], 777.0; got != want {
		t.Errorf("max_tokens=%v, want %v", got, want)
	}
	if _, ok := r.body["stream"]; ok {
		t.Error("request asks for streaming")
	}
	if got, want := r.body["system"], systemPrompt; got != want {
		t.Errorf("system=%v, want %v", got, want)
	}
	msgs, _ := r.body["messages"].([]any)
	if len(msgs) != 1 {
		t.Fatalf("messages = %v", r.body["messages"])
	}
	m, _ := msgs[0].(map[string]any)
	content, _ := m["content"].(string)
	if m["role"] != "user" || !strings.HasPrefix(content, instructions) || !strings.Contains(content, "[0] user:\nWe decided") {
		t.Errorf("message = %v", m)
	}
}

func TestAnthropicCapsInput(t *testing.T) {
	srv, rec := serve(t, anthropicText(`{"entries":[]}`, "end_turn"))
	a := newTestAnthropic(t, srv.URL)
	a.Limits.MaxInputBytes = 30_000
	if _, err := a.Extract(context.Background(), bigSession()); err != nil {
		t.Fatal(err)
	}
	m := rec.requests()[0].body["messages"].([]any)[0].(map[string]any)
	checkCapped(t, m["content"].(string))
}

func TestAnthropicReplies(t *testing.T) {
	tests := []struct {
		name    string
		reply   func(http.ResponseWriter, *http.Request)
		entries int
		err     error
	}{
		{"json", anthropicText(goodReply, "end_turn"), 1, nil},
		{"fenced", anthropicText("```json\n"+goodReply+"\n```", "end_turn"), 1, nil},
		{"nothing", anthropicText(`{"entries":[]}`, "end_turn"), 0, nil},
		{"garbage", anthropicText("Sure! Here are some memories: ...", "end_turn"), 0, ErrMalformed},
		{"all invalid", anthropicText(`{"entries":[{"type":"fact","title":"t","evidence":[{"messageIndex":9,"quote":"q"}]}]}`, "end_turn"), 0, ErrNoValidEntry},
		{"truncated", anthropicText(goodReply[:50], "max_tokens"), 0, ErrTruncated},
		{"not json", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("<html>")) }, 0, nil},
		{"500", jsonReply(500, map[string]any{"type": "error", "error": map[string]any{"type": "api_error", "message": "boom"}}), 0, nil},
		{"slow", hang, 0, context.DeadlineExceeded},
		{"huge", huge, 0, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serve(t, tt.reply)
			a := newTestAnthropic(t, srv.URL)
			if tt.name == "slow" {
				a.Limits.Timeout = fastTimeout
			}
			entries, err := a.Extract(context.Background(), session())
			switch tt.name {
			case "500":
				var se *StatusError
				if !errors.As(err, &se) || se.StatusCode != 500 || !strings.Contains(se.Body, "boom") {
					t.Fatalf("err=%v, want a StatusError 500 quoting the body", err)
				}
				return
			case "not json":
				if err == nil || !strings.Contains(err.Error(), "decode response") {
					t.Fatalf("err=%v, want a decode error", err)
				}
				return
			}
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err=%v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(entries), tt.entries; got != want {
				t.Errorf("entries=%d, want %d", got, want)
			}
		})
	}
}

func TestAnthropicRedactsKeyAndRefusesRedirects(t *testing.T) {
	t.Parallel()
	srv, _ := serve(t, jsonReply(401, map[string]any{"error": map[string]any{"message": "invalid x-api-key " + fakeKey}}))
	_, err := newTestAnthropic(t, srv.URL).Extract(context.Background(), session())
	if err == nil || strings.Contains(err.Error(), fakeKey) || !strings.Contains(err.Error(), "status 401") {
		t.Fatalf("err=%v: want status 401 without the key", err)
	}

	var leaked atomic.Bool
	target, _ := serve(t, func(w http.ResponseWriter, r *http.Request) { leaked.Store(r.Header.Get("X-Api-Key") != "") })
	redirect, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/v1/messages", http.StatusTemporaryRedirect)
	})
	_, err = newTestAnthropic(t, redirect.URL).Extract(context.Background(), session())
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusTemporaryRedirect || leaked.Load() {
		t.Fatalf("err=%v leaked=%v: want the redirect refused", err, leaked.Load())
	}
}

func TestAnthropicCostCapSendsNothing(t *testing.T) {
	srv, rec := serve(t, anthropicText(goodReply, "end_turn"))
	a := newTestAnthropic(t, srv.URL)
	a.Limits.MaxInputBytes = 1000
	if _, err := a.Extract(context.Background(), session()); !errors.Is(err, ErrCostCap) {
		t.Fatalf("err=%v, want ErrCostCap", err)
	}
	if n := len(rec.requests()); n != 0 {
		t.Errorf("%d requests sent over the cost cap", n)
	}
}

func TestNewAnthropic(t *testing.T) {
	if _, err := NewAnthropic(config.LLM{}, " ", nil); !errors.Is(err, ErrNoAPIKey) {
		t.Errorf("no key: err=%v, want ErrNoAPIKey", err)
	}
	if _, err := NewAnthropic(config.LLM{BaseURL: "ftp://example.com"}, fakeKey, nil); err == nil {
		t.Error("ftp base URL accepted")
	}
	a, err := NewAnthropic(config.LLM{}, fakeKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.BaseURL != AnthropicBaseURL || a.Model != AnthropicModel || a.Name() != "anthropic" {
		t.Errorf("defaults: %q %q %q", a.BaseURL, a.Model, a.Name())
	}
	if a.Limits != (Limits{DefaultTimeout, DefaultMaxInputBytes, DefaultMaxOutputTok}) {
		t.Errorf("limits = %+v", a.Limits)
	}
}

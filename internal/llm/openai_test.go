package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
)

func openaiText(content any, finish string) func(http.ResponseWriter, *http.Request) {
	return jsonReply(200, map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion",
		"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": content}, "finish_reason": finish}},
	})
}

func newTestOpenAI(t *testing.T, url, key string) *OpenAI {
	t.Helper()
	o, err := NewOpenAI(config.LLM{BaseURL: url + "/v1", Model: "llama3.1:8b", MaxOutputTok: 555, TimeoutSeconds: 5}, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOpenAIRequest(t *testing.T) {
	t.Parallel()
	for _, key := range []string{fakeKey, ""} {
		t.Run("key="+key, func(t *testing.T) {
			srv, rec := serve(t, openaiText(goodReply, "stop"))
			entries, err := newTestOpenAI(t, srv.URL, key).Extract(context.Background(), session())
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 {
				t.Fatalf("entries = %+v", entries)
			}
			r := rec.requests()[0]
			if r.method != "POST" || r.path != "/v1/chat/completions" {
				t.Errorf("request %s %s, want POST /v1/chat/completions", r.method, r.path)
			}
			wantAuth := ""
			if key != "" {
				wantAuth = "Bearer " + key
			}
			if got := r.header.Get("Authorization"); got != wantAuth {
				t.Errorf("Authorization=%q, want %q", got, wantAuth)
			}
			if got, want := r.body["model"], "llama3.1:8b"; got != want {
				t.Errorf("model=%v, want %v", got, want)
			}
			if got, want := r.body["max_tokens"], 555.0; got != want {
				t.Errorf("max_tokens=%v, want %v", got, want)
			}
			if rf, _ := r.body["response_format"].(map[string]any); rf["type"] != "json_object" {
				t.Errorf("response_format=%v, want json_object", r.body["response_format"])
			}
			msgs, _ := r.body["messages"].([]any)
			if len(msgs) != 2 {
				t.Fatalf("messages = %v", r.body["messages"])
			}
			sys, _ := msgs[0].(map[string]any)
			user, _ := msgs[1].(map[string]any)
			content, _ := user["content"].(string)
			if sys["role"] != "system" || sys["content"] != systemPrompt || user["role"] != "user" ||
				!strings.HasPrefix(content, instructions) || !strings.Contains(content, "[1] assistant:\nUnderstood") {
				t.Errorf("messages = %v", msgs)
			}
		})
	}
}

func TestOpenAICapsInput(t *testing.T) {
	t.Parallel()
	srv, rec := serve(t, openaiText(`{"entries":[]}`, "stop"))
	o := newTestOpenAI(t, srv.URL, "")
	o.Limits.MaxInputBytes = 30_000
	if _, err := o.Extract(context.Background(), bigSession()); err != nil {
		t.Fatal(err)
	}
	m := rec.requests()[0].body["messages"].([]any)[1].(map[string]any)
	checkCapped(t, m["content"].(string))
}

func TestOpenAIReplies(t *testing.T) {
	tests := []struct {
		name    string
		reply   func(http.ResponseWriter, *http.Request)
		entries int
		err     error
	}{
		{"json", openaiText(goodReply, "stop"), 1, nil},
		{"fenced", openaiText("```json\n"+goodReply+"\n```", "stop"), 1, nil},
		{"garbage", openaiText("I cannot help with that.", "stop"), 0, ErrMalformed},
		{"truncated", openaiText(goodReply[:40], "length"), 0, ErrTruncated},
		{"null content", openaiText(nil, "stop"), 0, nil},
		{"no choices", jsonReply(200, map[string]any{"choices": []any{}}), 0, nil},
		{"500", jsonReply(500, map[string]any{"error": map[string]any{"message": "model not loaded"}}), 0, nil},
		{"slow", hang, 0, context.DeadlineExceeded},
		{"huge", huge, 0, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serve(t, tt.reply)
			o := newTestOpenAI(t, srv.URL, fakeKey)
			if tt.name == "slow" {
				o.Limits.Timeout = fastTimeout
			}
			entries, err := o.Extract(context.Background(), session())
			switch tt.name {
			case "500":
				var se *StatusError
				if !errors.As(err, &se) || se.StatusCode != 500 || !strings.Contains(se.Body, "model not loaded") {
					t.Fatalf("err=%v, want a StatusError 500 quoting the body", err)
				}
				return
			case "null content", "no choices":
				if err == nil || !strings.Contains(err.Error(), "no message content") {
					t.Fatalf("err=%v, want no message content", err)
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

func TestNewOpenAI(t *testing.T) {
	t.Parallel()
	if _, err := NewOpenAI(config.LLM{}, fakeKey, nil); !errors.Is(err, ErrNoModel) {
		t.Errorf("no model: err=%v, want ErrNoModel", err)
	}
	if _, err := NewOpenAI(config.LLM{Model: "m", BaseURL: "localhost:11434"}, "", nil); err == nil {
		t.Error("base URL without scheme accepted")
	}
	o, err := NewOpenAI(config.LLM{Model: "m"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.BaseURL != OpenAIBaseURL || o.APIKey != "" || o.Name() != "openai" {
		t.Errorf("defaults: %q %q %q", o.BaseURL, o.APIKey, o.Name())
	}
}

// TestModelNoiseScreened checks that a model's entries pass the offline
// extractor's noise rules: tool output as a fact and a task of the work in
// hand are dropped, a reply of only such entries is an empty answer rather
// than a failure, and a title with words its quote lacks is replaced.
func TestModelNoiseScreened(t *testing.T) {
	t.Parallel()
	noise := `{"type":"fact","title":"Tests pass","evidence":[{"messageIndex":2,"quote":"ok"}]},` +
		`{"type":"task","title":"Run the tests","evidence":[{"messageIndex":0,"quote":"We decided to use SQLite with the modernc driver"}]}`
	invented := `{"type":"decision","title":"Adopt a pure-Go database layer","evidence":[{"messageIndex":0,"quote":"We decided to use SQLite with the modernc driver"}]}`
	for _, tt := range []struct {
		name, reply string
		titles      []string
	}{
		{"noise dropped", `{"entries":[` + noise + `,` + strings.TrimSuffix(strings.TrimPrefix(goodReply, `{"entries":[`), `]}`) + `]}`, []string{"Use the modernc SQLite driver"}},
		{"only noise", `{"entries":[` + noise + `]}`, nil},
		{"invented title", `{"entries":[` + invented + `]}`, []string{"We decided to use SQLite with the modernc driver"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serve(t, openaiText(tt.reply, "stop"))
			entries, err := newTestOpenAI(t, srv.URL, "").Extract(context.Background(), session())
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, e := range entries {
				titles = append(titles, e.Title)
			}
			if strings.Join(titles, "|") != strings.Join(tt.titles, "|") {
				t.Errorf("titles %q, want %q", titles, tt.titles)
			}
		})
	}
}

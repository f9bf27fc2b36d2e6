package llm

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
)

// reported runs extract with a reporter and returns what was reported.
func reported(t *testing.T, extract func(ctx context.Context) error) []spend.Usage {
	t.Helper()
	var got []spend.Usage
	ctx := spend.WithReporter(context.Background(), func(u spend.Usage) { got = append(got, u) })
	if err := extract(ctx); err != nil {
		t.Fatal(err)
	}
	return got
}

// Each backend reports the usage its API returned: Anthropic's tokens with
// the cached input counted, OpenAI's prompt and completion tokens, and the
// claude CLI's usage with its total_cost_usd.
func TestUsageReported(t *testing.T) {
	t.Parallel()
	ant, _ := serve(t, jsonReply(200, map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
		"content": []map[string]any{{"type": "text", "text": goodReply}}, "stop_reason": "end_turn",
		"usage": map[string]any{"input_tokens": 900, "cache_creation_input_tokens": 50, "cache_read_input_tokens": 50, "output_tokens": 120},
	}))
	oai, _ := serve(t, jsonReply(200, map[string]any{
		"choices": []map[string]any{{"message": map[string]any{"role": "assistant", "content": goodReply}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 700, "completion_tokens": 80, "total_tokens": 780},
	}))
	o, err := NewOpenAI(config.LLM{BaseURL: oai.URL, Model: "m", TimeoutSeconds: 5}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	env, err := json.Marshal(map[string]any{
		"type": "result", "subtype": "success", "is_error": false, "result": goodReply, "session_id": "d69eaac3-0c41-4bea-aa30-f0d5f2117c13",
		"total_cost_usd": 0.0123, "usage": map[string]any{"input_tokens": 10, "cache_creation_input_tokens": 2000, "cache_read_input_tokens": 3000, "output_tokens": 150},
	})
	if err != nil {
		t.Fatal(err)
	}
	cl := newFakeClaude(t, "cat <<'EOF'\n"+string(env)+"\nEOF\n")
	for _, tt := range []struct {
		name    string
		extract func(ctx context.Context) error
		want    spend.Usage
	}{
		{"anthropic", func(ctx context.Context) error {
			_, err := newTestAnthropic(t, ant.URL).Extract(ctx, session())
			return err
		},
			spend.Usage{InputTokens: 1000, OutputTokens: 120}},
		{"openai", func(ctx context.Context) error { _, err := o.Extract(ctx, session()); return err },
			spend.Usage{InputTokens: 700, OutputTokens: 80}},
		{"claude", func(ctx context.Context) error { _, err := cl.c.Extract(ctx, session()); return err },
			spend.Usage{InputTokens: 5010, OutputTokens: 150, CostUSD: 0.0123}},
	} {
		if got := reported(t, tt.extract); len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s reported %+v, want [%+v]", tt.name, got, tt.want)
		}
	}
}

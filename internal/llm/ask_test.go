package llm

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestAsk: Ask sends the caller's system prompt, not extraction's, and
// returns the model's text as given; a prompt over the input limit is
// refused without a request.
func TestAsk(t *testing.T) {
	t.Parallel()
	const system, prompt, answer = "You judge answers.", "Did it answer? Reply in JSON.", `{"answered":true}`
	t.Run("openai", func(t *testing.T) {
		srv, rec := serve(t, openaiText(answer, "stop"))
		got, err := newTestOpenAI(t, srv.URL, "").Ask(context.Background(), system, prompt)
		if err != nil || got != answer {
			t.Fatalf("Ask = %q, %v; want %q", got, err, answer)
		}
		msgs, _ := rec.requests()[0].body["messages"].([]any)
		if len(msgs) != 2 || msgs[0].(map[string]any)["content"] != system || msgs[1].(map[string]any)["content"] != prompt {
			t.Errorf("messages = %v", msgs)
		}
	})
	t.Run("anthropic", func(t *testing.T) {
		srv, rec := serve(t, anthropicText(answer, "end_turn"))
		got, err := newTestAnthropic(t, srv.URL).Ask(context.Background(), system, prompt)
		if err != nil || got != answer {
			t.Fatalf("Ask = %q, %v; want %q", got, err, answer)
		}
		if b := rec.requests()[0].body; b["system"] != system {
			t.Errorf("system = %v, want %q", b["system"], system)
		}
	})
	t.Run("claude", func(t *testing.T) {
		f := newFakeClaude(t, "cat <<'EOF'\n"+envelopeJSON(t, answer, false)+"\nEOF\n")
		got, err := f.c.Ask(context.Background(), system, prompt)
		if err != nil || got != answer {
			t.Fatalf("Ask = %q, %v; want %q", got, err, answer)
		}
		args := strings.Split(strings.TrimSuffix(f.read(t, "args"), "\n"), "\n")
		if i := slices.Index(args, "--system-prompt"); i < 0 || args[i+1] != system {
			t.Errorf("args %q lack --system-prompt %q", args, system)
		}
		if stdin := f.read(t, "stdin"); stdin != prompt {
			t.Errorf("stdin %q, want the prompt", stdin)
		}
	})
	t.Run("over the input limit", func(t *testing.T) {
		srv, rec := serve(t, openaiText(answer, "stop"))
		o := newTestOpenAI(t, srv.URL, "")
		o.Limits.MaxInputBytes = 100
		_, err := o.Ask(context.Background(), system, strings.Repeat("x", 100))
		if !errors.Is(err, ErrCostCap) {
			t.Errorf("err = %v, want ErrCostCap", err)
		}
		if n := len(rec.requests()); n != 0 {
			t.Errorf("%d requests sent, want none", n)
		}
	})
}

package llm

import (
	"context"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
)

// TestModelGetsPlanTasks: an LLM extractor returns the plan's open steps as
// tasks like the offline one, whatever the model answered, and does not
// repeat one the model quoted itself.
func TestModelGetsPlanTasks(t *testing.T) {
	t.Parallel()
	msgs := append(session(), extract.Message{Index: 3, Role: "tool",
		Text: "TodoWrite: [completed] Switch to the modernc driver; [pending] Drop the cgo build tags"})
	for _, reply := range []string{
		goodReply,
		`{"entries":[{"type":"task","title":"Drop the cgo build tags","evidence":[{"messageIndex":3,"quote":"Drop the cgo build tags"}]}]}`,
	} {
		srv, _ := serve(t, openaiText(reply, "stop"))
		entries, err := newTestOpenAI(t, srv.URL, "").Extract(context.Background(), msgs)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range entries {
			if e.Type == extract.Task && e.Evidence[0].Quote == "Drop the cgo build tags" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("reply %s: %d tasks for the pending step, want 1 (entries %+v)", reply, n, entries)
		}
	}
}

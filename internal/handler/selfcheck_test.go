package handler

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// prompt is the fixture prompt of the given id.
func prompt(t *testing.T, id string) []byte {
	t.Helper()
	b, err := sjson.SetBytes(fixture(t, "user-prompt-submit.json", ""), "prompt_id", id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSelfCheckShownOnce: the session's verdict reaches the user as the
// next prompt's systemMessage, once; with the self-check off it is not
// shown.
func TestSelfCheckShownOnce(t *testing.T) {
	const line = "Memory self-check of the last answer: answered; not grounded in the memories shown; contradicts mem:ab12cd"
	for _, on := range []bool{true, false} {
		h := newHarness(t)
		if on {
			h.env = map[string]string{"CLAUDE_MEMORY_SELF_CHECK": "true"}
		}
		h.run(UserPromptSubmit(nil), prompt(t, "p1"))
		db := h.db()
		ctx := context.Background()
		verdict := store.Event{Time: h.now, Type: store.TypeSelfCheck, SessionID: sid, Project: "/home/dev/shop-api",
			DedupeKey: "self_check:" + sid + ":1", Payload: json.RawMessage(`{"prompt_id":"p1","line":"` + line + `"}`)}
		if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, verdict); return err }); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, id := range []string{"p2", "p3", "p4"} {
			got = append(got, gjson.Get(h.run(UserPromptSubmit(nil), prompt(t, id)), "systemMessage").String())
		}
		want := []string{line, "", ""}
		if !on {
			want = []string{"", "", ""}
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("self-check on=%v: the prompts' systemMessages are %q, want %q", on, got, want)
		}
	}
}

// TestSelfCheckWithoutLLM: with the self-check on and the offline
// extractor, Stop starts no worker and says so in the log once.
func TestSelfCheckWithoutLLM(t *testing.T) {
	h := newHarness(t)
	h.env = map[string]string{"CLAUDE_MEMORY_SELF_CHECK": "1"}
	tp := copyTranscript(t, "basic.jsonl")
	for range 2 {
		h.run(UserPromptSubmit(nil), fixture(t, "user-prompt-submit.json", tp))
		if out := h.run(Stop, fixture(t, "stop.json", tp)); out != "" {
			t.Errorf("Stop replied %q", out)
		}
	}
	b, err := os.ReadFile(filepath.Join(h.dir, "claude-memory-layer.log"))
	if err != nil {
		t.Fatal(err)
	}
	logs := string(b)
	if n := strings.Count(logs, "no LLM is available"); n != 1 {
		t.Errorf("said %d times that no LLM is available, want once:\n%s", n, logs)
	}
	if strings.Contains(logs, "start the self-check") {
		t.Errorf("Stop tried to start a worker:\n%s", logs)
	}
}

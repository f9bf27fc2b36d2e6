package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// manyMessages writes a transcript of the fixtures, then invented turns
// whose prompts open a private section and close it prompts later, and
// whose answers and tool calls hold a key the filter masks, repeated past
// minClean messages.
func manyMessages(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	for _, f := range []string{"basic.jsonl", "edge-cases.jsonl"} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "claude-code", "transcripts", f))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(raw)
	}
	prompts := []string{"Set up the queue. <private>the vault code is 4411", "still between the markers", "</private> Now wire the worker.", "Plain request again."}
	line := func(v any) {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(raw)
		b.WriteByte('\n')
	}
	for i := range 3 * minClean {
		p := prompts[i%len(prompts)]
		line(map[string]any{"type": "user", "uuid": fmt.Sprintf("u-%d", i), "promptId": fmt.Sprintf("p-%d", i),
			"timestamp": "2026-01-02T03:04:05Z", "message": map[string]any{"role": "user", "content": p}})
		line(map[string]any{"type": "assistant", "uuid": fmt.Sprintf("a-%d", i), "timestamp": "2026-01-02T03:04:06Z",
			"message": map[string]any{"id": fmt.Sprintf("m-%d", i), "role": "assistant", "content": []any{
				map[string]any{"type": "text", "text": "Done; the token AKIAIOSFODNN7EXAMPLE stays out of the notes."},
				map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", i), "name": "Bash", "input": map[string]any{"command": "make test"}},
			}}})
		line(map[string]any{"type": "user", "uuid": fmt.Sprintf("r-%d", i), "timestamp": "2026-01-02T03:04:07Z",
			"message": map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": fmt.Sprintf("toolu_%d", i), "content": "ok\npassword=hunter2hunter2", "is_error": i%5 == 0},
			}}})
	}
	path := filepath.Join(t.TempDir(), "many.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCleanAllSame: a step's events are the same whether its messages are
// cleaned on the caller's goroutine or by a pool, a private section open
// across prompts included. An equivalence test.
func TestCleanAllSame(t *testing.T) {
	t.Parallel()
	path := manyMessages(t)
	sess := store.Session{ID: "s-1", Project: "/p", TranscriptPath: path}
	want, err := (&Recorder{Log: quiet}).read(sess, true, false, "", math.MaxInt64)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Events) < minClean {
		t.Fatalf("%d events: too few for a pool", len(want.Events))
	}
	var private, masked bool
	for _, ev := range want.Events {
		private = private || strings.Contains(string(ev.Payload), `"private_open":true`)
		masked = masked || ev.Type == store.TypeAgentResponse && !strings.Contains(ev.Text, "AKIAIOSFODNN7EXAMPLE") && strings.Contains(ev.Text, "stays out")
	}
	if !private || !masked {
		t.Fatalf("the transcript tests too little: a private section open %v, a key masked %v", private, masked)
	}
	for _, workers := range []int{2, 3, 4, 9} {
		got, err := (&Recorder{Log: quiet, Workers: workers}).read(sess, true, false, "", math.MaxInt64)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers: the step differs", workers)
		}
	}
}

// TestCleanAllPanic: a panic while cleaning one message is logged as the
// hook logs its own, and the other messages are cleaned.
func TestCleanAllPanic(t *testing.T) {
	t.Parallel()
	batch, err := transcript.ReadFileN(manyMessages(t), 0, true, math.MaxInt64)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	cs := cleanAll(batch.Messages, 2, log, func(m transcript.Message) cleaned {
		if m.UUID == "u-3" {
			panic("invented failure")
		}
		return cleanMessage(m)
	})
	if got := buf.String(); !strings.Contains(got, "msg=panic") || !strings.Contains(got, "invented failure") || !strings.Contains(got, "stack=") {
		t.Errorf("log = %q, want the panic and its stack", got)
	}
	for i, m := range batch.Messages {
		if got, want := cs[i].done, m.UUID != "u-3"; got != want {
			t.Errorf("message %d (%s) cleaned %v, want %v", i, m.UUID, got, want)
		}
	}
}

package llm

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
)

// session is a small session with one quotable decision.
func session() []extract.Message {
	return []extract.Message{
		{Index: 0, Role: "user", Text: "We decided to use SQLite with the modernc driver because it is pure Go."},
		{Index: 1, Role: "assistant", Text: "Understood: modernc.org/sqlite it is, no cgo."},
		{Index: 2, Role: "tool", Text: "Bash: go test ./...\nok"},
	}
}

func TestPrepareRendersNumberedBlocks(t *testing.T) {
	t.Parallel()
	p, err := prepare(session(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		instructions,
		"[0] user:\nWe decided to use SQLite with the modernc driver because it is pure Go.\n\n",
		"[1] assistant:\nUnderstood: modernc.org/sqlite it is, no cgo.\n\n",
		"[2] tool:\nBash: go test ./...\nok\n\n",
		closing,
	} {
		if !strings.Contains(p.text, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if !strings.HasPrefix(p.text, instructions) || !strings.HasSuffix(p.text, closing) {
		t.Error("prompt is not instructions + messages + closing")
	}
	if got, want := p.n, 3; got != want {
		t.Errorf("n=%d, want %d", got, want)
	}
	for i, want := range []bool{true, true, true, false} {
		if got := p.shown(i); got != want {
			t.Errorf("shown(%d)=%v, want %v", i, got, want)
		}
	}
}

func TestPromptAsksForQuotesNotOffsets(t *testing.T) {
	t.Parallel()
	for _, want := range []string{
		`{"entries":[{"type":"decision","title":"...","body":"...","subject":"...","questions":["..."],"evidence":[{"messageIndex":0,"quote":"..."}]}]}`,
		`"questions": 1 to 3 short questions`, "decision:", "fact:", "preference:", "constraint:", "lesson:", "task:", "reference:",
		"verbatim", "Never give character offsets", "JSON object and nothing else",
	} {
		if !strings.Contains(instructions, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
}

func TestPrepareSkipsEmptyMessages(t *testing.T) {
	t.Parallel()
	p, err := prepare([]extract.Message{{Index: 0, Role: "user", Text: "  \n"}}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if p.n != 0 || p.shown(0) {
		t.Fatalf("n=%d shown(0)=%v, want nothing rendered", p.n, p.shown(0))
	}
}

func TestPrepareCapsInput(t *testing.T) {
	t.Parallel()
	// 40 messages of 10 KB (tool output every third) against a 40 KB limit:
	// each is cut to 4 KB, then tool messages go first, then the oldest.
	var msgs []extract.Message
	for i := range 40 {
		role := []string{"user", "assistant", "tool"}[i%3]
		msgs = append(msgs, extract.Message{Index: i, Role: role, Text: fmt.Sprintf("m%02d ", i) + strings.Repeat("é", 5000)})
	}
	l := Limits{MaxInputBytes: 40_000}
	p, err := prepare(msgs, l)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(systemPrompt) + len(p.text); got > l.MaxInputBytes {
		t.Errorf("prompt is %d bytes, cap %d", got, l.MaxInputBytes)
	}
	if !utf8.ValidString(p.text) {
		t.Error("prompt is not valid UTF-8: a cut split a rune")
	}
	for i := range msgs {
		if msgs[i].Role == "tool" && p.shown(i) {
			t.Errorf("tool message %d kept", i)
		}
	}
	if !p.shown(39) || p.shown(0) {
		t.Errorf("shown(39)=%v shown(0)=%v: want the newest kept and the oldest dropped", p.shown(39), p.shown(0))
	}
	// The kept messages are the newest non-tool ones, contiguous.
	first := -1
	for i := range msgs {
		if p.shown(i) && first < 0 {
			first = i
		}
		if first >= 0 && msgs[i].Role != "tool" && !p.shown(i) {
			t.Errorf("message %d dropped after %d was kept", i, first)
		}
	}
	body := strings.TrimSuffix(strings.TrimPrefix(p.text, instructions), closing)
	for _, b := range strings.SplitAfter(body, "\n\n") {
		if len(b) > maxMessageBytes {
			t.Errorf("a block is %d bytes, per-message cap %d", len(b), maxMessageBytes)
		}
	}
	if !strings.Contains(p.text, "bytes cut ...]") {
		t.Error("no cut marker in the prompt")
	}
}

func TestPrepareDropsToolMessagesFirst(t *testing.T) {
	t.Parallel()
	msgs := []extract.Message{
		{Index: 0, Role: "user", Text: "keep " + strings.Repeat("a", 3000)},
		{Index: 1, Role: "tool", Text: "drop " + strings.Repeat("b", 3000)},
		{Index: 2, Role: "assistant", Text: "keep " + strings.Repeat("c", 3000)},
	}
	budget := len(systemPrompt) + len(instructions) + len(closing) + 6500
	p, err := prepare(msgs, Limits{MaxInputBytes: budget})
	if err != nil {
		t.Fatal(err)
	}
	if !p.shown(0) || p.shown(1) || !p.shown(2) {
		t.Fatalf("shown = %v %v %v, want true false true", p.shown(0), p.shown(1), p.shown(2))
	}
}

func TestPrepareCostCap(t *testing.T) {
	t.Parallel()
	_, err := prepare(session(), Limits{MaxInputBytes: 2000})
	if !errors.Is(err, ErrCostCap) {
		t.Fatalf("err=%v, want ErrCostCap", err)
	}
}

func TestCut(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		s    string
		n    int
	}{
		{"short", "hello", 10},
		{"ascii", strings.Repeat("x", 5000), 1000},
		{"two-byte", strings.Repeat("é", 3000), 1001},
		{"three-byte", strings.Repeat("한", 3000), 997},
		{"four-byte", strings.Repeat("😀", 3000), 999},
		{"invalid", strings.Repeat("\x80", 3000), 500},
		{"tiny", strings.Repeat("x", 100), 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cut(tt.s, tt.n)
			if len(got) > tt.n {
				t.Errorf("len=%d, want <= %d", len(got), tt.n)
			}
			if utf8.ValidString(tt.s) && !utf8.ValidString(got) {
				t.Errorf("cut split a rune: %q", got)
			}
			if len(tt.s) <= tt.n && got != tt.s {
				t.Errorf("cut changed a short string")
			}
		})
	}
}

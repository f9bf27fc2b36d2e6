package torture

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// This file generates sessions: the turns of a conversation, the transcript
// rows Claude Code would write for them, and the hook inputs it would send.

var (
	components = []string{"ledger", "billing", "auth", "orders", "inventory", "search", "gateway", "scheduler",
		"mailer", "exporter", "indexer", "webhooks", "reports", "cache", "uploader", "notifier"}
	libraries = []string{"pgx", "sqlc", "chi", "zap", "slog", "testify", "goose", "redis", "nats", "grpc",
		"protobuf", "viper", "cobra", "pflag", "otel", "prometheus"}
	verbs = []string{"refactor", "fix", "document", "benchmark", "profile", "split", "rename", "test",
		"review", "migrate", "harden", "simplify"}
	words = []string{"retry", "timeout", "budget", "queue", "batch", "cursor", "offset", "schema", "index",
		"shard", "replica", "snapshot", "journal", "lease", "token", "window", "buffer", "backoff", "quota", "ticket"}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// turn is one exchange: a prompt, an intro and a tool call in one assistant
// message, the tool's result, and the final answer in a second message.
type turn struct {
	PromptID, Prompt       string
	IntroMsgID, Intro      string
	ToolID, Command        string
	ToolOutput             string
	AnswerMsgID, Answer    string
	uPrompt, uIntro, uTool string // row uuids
	uResult, uAnswer       string
}

// conversation is one generated session.
type conversation struct {
	ID    string
	Cwd   string
	Turns []turn
	start time.Time
}

func uuid(r *rand.Rand) string {
	return fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", r.Uint32(), r.IntN(1<<16), r.IntN(1<<12), r.IntN(1<<12), r.Uint64()&(1<<48-1))
}

// newConversation generates n turns for session id. Every text carries the
// session tag and turn number, so no two messages of a session are equal;
// some turns state a decision or ask to remember a fact, which the offline
// extractor turns into entries. pad adds that many bytes of tool output per
// turn, to make big transcripts.
func newConversation(r *rand.Rand, id, tag, cwd string, n, pad int) *conversation {
	c := &conversation{ID: id, Cwd: cwd, start: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(1000)) * time.Hour)}
	for i := range n {
		comp, lib, other := pick(r, components), pick(r, libraries), pick(r, libraries)
		w1, w2 := pick(r, words), pick(r, words)
		t := turn{
			PromptID:    uuid(r),
			IntroMsgID:  fmt.Sprintf("msg_%s%05dA%x", tag, i, r.Uint32()),
			AnswerMsgID: fmt.Sprintf("msg_%s%05dB%x", tag, i, r.Uint32()),
			ToolID:      fmt.Sprintf("toolu_%s%05d%x", tag, i, r.Uint64()),
			uPrompt:     uuid(r), uIntro: uuid(r), uTool: uuid(r), uResult: uuid(r), uAnswer: uuid(r),
		}
		switch i % 5 {
		case 0:
			t.Prompt = fmt.Sprintf("Remember that the %s service of %s listens on port %d in turn %d; keep the %s %s.", comp, tag, 2000+r.IntN(50000), i, w1, w2)
		case 2:
			t.Prompt = fmt.Sprintf("From now on in %s, the %s %s must stay under %d ms (turn %d).", tag, comp, w1, 10+r.IntN(990), i)
		default:
			t.Prompt = fmt.Sprintf("Please %s the %s %s handling in %s (turn %d): the %s looks wrong.", pick(r, verbs), comp, w1, tag, i, w2)
		}
		t.Intro = fmt.Sprintf("I'll look at how %s handles the %s first (%s, turn %d).", comp, w1, tag, i)
		t.Command = fmt.Sprintf("go test ./internal/%s/... -run Test%s%d", comp, strings.ToUpper(w1[:1])+w1[1:], i)
		out := fmt.Sprintf("ok  \tgithub.com/example/%s/internal/%s\t0.%03ds (%s turn %d)", tag, comp, r.IntN(1000), tag, i)
		if pad > 0 {
			var b strings.Builder
			b.WriteString(out)
			for b.Len() < pad {
				fmt.Fprintf(&b, "\n=== RUN   Test%s%d/%s_%d\n--- PASS: Test%s%d/%s_%d (0.%02ds)", comp, i, pick(r, words), r.IntN(1e6), comp, i, pick(r, words), r.IntN(1e6), r.IntN(100))
			}
			out = b.String()
		}
		t.ToolOutput = out
		if i%3 == 1 {
			t.Answer = fmt.Sprintf("Done with turn %d of %s. Decision: we will use %s for the %s %s instead of %s, because the %s path was flaky.", i, tag, lib, comp, w1, other, w2)
		} else {
			t.Answer = fmt.Sprintf("Done with turn %d of %s: the %s %s now handles the %s correctly and the tests pass.", i, tag, comp, w1, w2)
		}
		c.Turns = append(c.Turns, t)
	}
	return c
}

func (c *conversation) ts(i, step int) string {
	return c.start.Add(time.Duration(i)*time.Minute + time.Duration(step)*time.Second).Format("2006-01-02T15:04:05.000Z")
}

func row(v map[string]any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

func (c *conversation) base(i, step int, typ, uuid, parent string) map[string]any {
	m := map[string]any{"type": typ, "uuid": uuid, "parentUuid": parent, "isSidechain": false, "userType": "external",
		"entrypoint": "cli", "cwd": c.Cwd, "sessionId": c.ID, "version": "2.1.330", "gitBranch": "main", "timestamp": c.ts(i, step)}
	if parent == "" {
		m["parentUuid"] = nil
	}
	return m
}

func assistant(id string, stop any, content ...map[string]any) map[string]any {
	return map[string]any{"id": id, "type": "message", "role": "assistant", "model": "claude-sonnet-5",
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 4, "output_tokens": 96}}
}

// promptRows is the user row of turn i.
func (c *conversation) promptRows(i int) []byte {
	t := c.Turns[i]
	parent := ""
	if i > 0 {
		parent = c.Turns[i-1].uAnswer
	}
	m := c.base(i, 0, "user", t.uPrompt, parent)
	m["promptId"] = t.PromptID
	m["message"] = map[string]any{"role": "user", "content": t.Prompt}
	return row(m)
}

// toolRows are the assistant rows (intro text, then tool_use, sharing one
// message id) and the tool_result row of turn i.
func (c *conversation) toolRows(i int) []byte {
	t := c.Turns[i]
	a := c.base(i, 1, "assistant", t.uIntro, t.uPrompt)
	a["requestId"] = "req_" + t.IntroMsgID
	a["apiBlockIndex"] = 0
	a["message"] = assistant(t.IntroMsgID, nil, map[string]any{"type": "text", "text": t.Intro})
	u := c.base(i, 2, "assistant", t.uTool, t.uIntro)
	u["requestId"] = "req_" + t.IntroMsgID
	u["apiBlockIndex"] = 1
	u["message"] = assistant(t.IntroMsgID, "tool_use", map[string]any{"type": "tool_use", "id": t.ToolID, "name": "Bash",
		"input": map[string]any{"command": t.Command, "description": "run the tests"}})
	res := c.base(i, 3, "user", t.uResult, t.uTool)
	res["message"] = map[string]any{"role": "user", "content": []map[string]any{{"tool_use_id": t.ToolID, "type": "tool_result", "content": t.ToolOutput}}}
	res["toolUseResult"] = map[string]any{"stdout": t.ToolOutput, "stderr": "", "interrupted": false}
	res["sourceToolAssistantUUID"] = t.uTool
	return append(append(row(a), row(u)...), row(res)...)
}

// answerRows is the final answer of turn i.
func (c *conversation) answerRows(i int) []byte {
	t := c.Turns[i]
	a := c.base(i, 4, "assistant", t.uAnswer, t.uResult)
	a["requestId"] = "req_" + t.AnswerMsgID
	a["apiBlockIndex"] = 0
	a["message"] = assistant(t.AnswerMsgID, "end_turn", map[string]any{"type": "text", "text": t.Answer})
	return row(a)
}

// transcript is the whole conversation as JSONL.
func (c *conversation) transcript() []byte {
	var b []byte
	for i := range c.Turns {
		b = append(b, c.promptRows(i)...)
		b = append(b, c.toolRows(i)...)
		b = append(b, c.answerRows(i)...)
	}
	return b
}

func (c *conversation) write(t testing.TB, path string) {
	t.Helper()
	if err := os.WriteFile(path, c.transcript(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// hookInput renders one hook's stdin.
func hookInput(event, session, transcriptPath, cwd string, fields map[string]any) []byte {
	m := map[string]any{"session_id": session, "transcript_path": transcriptPath, "cwd": cwd,
		"hook_event_name": event, "permission_mode": "default"}
	for k, v := range fields {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

func (c *conversation) promptInput(tp string, i int) []byte {
	t := c.Turns[i]
	return hookInput("UserPromptSubmit", c.ID, tp, c.Cwd, map[string]any{"prompt_id": t.PromptID, "prompt": t.Prompt})
}

func (c *conversation) toolInput(tp string, i int) []byte {
	t := c.Turns[i]
	return hookInput("PostToolUse", c.ID, tp, c.Cwd, map[string]any{"prompt_id": t.PromptID, "tool_name": "Bash",
		"tool_input":    map[string]any{"command": t.Command, "description": "run the tests"},
		"tool_response": map[string]any{"stdout": t.ToolOutput, "stderr": "", "interrupted": false, "isImage": false},
		"tool_use_id":   t.ToolID, "duration_ms": 40})
}

func (c *conversation) stopInput(tp string, i int) []byte {
	t := c.Turns[i]
	return hookInput("Stop", c.ID, tp, c.Cwd, map[string]any{"prompt_id": t.PromptID, "stop_hook_active": false,
		"last_assistant_message": t.Answer})
}

func (c *conversation) startInput(tp string) []byte {
	return hookInput("SessionStart", c.ID, tp, c.Cwd, map[string]any{"source": "startup", "model": "claude-sonnet-5"})
}

func (c *conversation) endInput(tp string) []byte {
	return hookInput("SessionEnd", c.ID, tp, c.Cwd, map[string]any{"reason": "prompt_input_exit"})
}

package handler

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// fixtures is the repository's folder of realistic Claude Code hook inputs.
const fixtures = "../../testdata/claude-code"

// fixture loads a hook input, pointing transcript_path at an absolute copy.
func fixture(t *testing.T, name, transcriptPath string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, name))
	if err != nil {
		t.Fatalf("fixture missing: %v", err)
	}
	if transcriptPath != "" {
		b, err = sjson.SetBytes(b, "transcript_path", transcriptPath)
		if err != nil {
			t.Fatal(err)
		}
	}
	return b
}

type harness struct {
	t    *testing.T
	dir  string
	now  time.Time
	logs *bytes.Buffer
	env  map[string]string // more of the hooks' environment
}

func newHarness(t *testing.T) *harness {
	return &harness{t: t, dir: t.TempDir(), now: time.Date(2026, 11, 20, 9, 14, 0, 0, time.UTC), logs: &bytes.Buffer{}}
}

func (h *harness) getenv(k string) string {
	if k == "CLAUDE_MEMORY_DIR" {
		return h.dir
	}
	return h.env[k]
}

// run feeds one input to a handler through hook.Run and returns stdout.
func (h *harness) run(hd hook.Handler, in []byte) string {
	h.t.Helper()
	var out bytes.Buffer
	h.now = h.now.Add(time.Second)
	now := h.now
	code := hook.Run(bytes.NewReader(in), &out, h.logs, hook.Options{Name: "test", Budget: 5 * time.Second, Getenv: h.getenv, Now: func() time.Time { return now }}, hd)
	if code != 0 {
		h.t.Fatalf("exit %d", code)
	}
	return out.String()
}

func (h *harness) db() *store.DB {
	h.t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(h.dir, "memory.db"), store.Options{})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { db.Close() })
	return db
}

func (h *harness) events(db *store.DB, session string) []store.Event {
	h.t.Helper()
	evs, err := db.Read().Events(context.Background(), store.EventFilter{SessionID: session})
	if err != nil {
		h.t.Fatal(err)
	}
	return evs
}

func countTypes(evs []store.Event) map[string]int {
	m := map[string]int{}
	for _, e := range evs {
		m[e.Type]++
	}
	return m
}

func copyTranscript(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, "transcripts", name))
	if err != nil {
		t.Fatalf("fixture missing: %v", err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const sid = "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30"

// TestSessionLifecycle drives every hook with the fixtures in the order Claude
// Code fires them and checks what was stored, then re-runs everything and
// checks nothing was added.
func TestSessionLifecycle(t *testing.T) {
	h := newHarness(t)
	tp := copyTranscript(t, "basic.jsonl")
	steps := []struct {
		name    string
		handler hook.Handler
		input   []byte
	}{
		{"SessionStart", SessionStart, fixture(t, "session-start.json", tp)},
		{"UserPromptSubmit", UserPromptSubmit(nil), fixture(t, "user-prompt-submit.json", tp)},
		{"PostToolUse", PostToolUse, fixture(t, "post-tool-use.json", tp)},
		{"Stop", Stop, fixture(t, "stop.json", tp)},
		{"PreCompact", SessionEnd, fixture(t, "pre-compact.json", tp)},
		{"SessionEnd", SessionEnd, fixture(t, "session-end.json", tp)},
	}
	for _, s := range steps {
		if out := h.run(s.handler, s.input); out != "" {
			t.Errorf("%s replied %q on a new project, want nothing", s.name, out)
		}
	}
	db := h.db()
	first := h.events(db, sid)
	got := countTypes(first)
	want := map[string]int{
		store.TypeSessionStarted:  1,
		store.TypeUserPrompt:      2, // both prompts of basic.jsonl, the first from the hook and the transcript as one
		store.TypeAgentResponse:   6, // text answers; the Stop copy of answer 1 matches its transcript row
		store.TypeToolObservation: 6, // Read, Write, Edit, Bash, Edit, Bash; the hook's Edit is the transcript's (same tool_use_id)
		store.TypeSessionEnded:    1,
	}
	for typ, n := range want {
		if got[typ] != n {
			t.Errorf("%s: %d stored, want %d (all: %v)", typ, got[typ], n, got)
		}
	}
	for _, e := range first {
		if e.Project != "/home/dev/shop-api" {
			t.Errorf("event %d project=%q", e.ID, e.Project)
		}
	}
	s, err := db.Read().Session(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(tp); s.Offset != fi.Size() || s.EndReason != "prompt_input_exit" || s.EndedAt.IsZero() {
		t.Errorf("session after end: %+v (transcript %d bytes)", s, fi.Size())
	}

	// Re-running every hook with the same input stores nothing again. The one
	// new event allowed is the prompt's memory injection: the session's own
	// memories exist now, and recalling them is new information, not a copy.
	for _, s := range steps {
		h.run(s.handler, s.input)
	}
	again := countTypes(h.events(db, sid))
	again[store.TypeMemoryInjected] = 0
	for typ, n := range again {
		if n != got[typ] {
			t.Errorf("re-run: %s went from %d to %d", typ, got[typ], n)
		}
	}
}

func TestRecallAcrossSessions(t *testing.T) {
	h := newHarness(t)
	tp := copyTranscript(t, "basic.jsonl")
	h.run(SessionStart, fixture(t, "session-start.json", tp))
	h.run(UserPromptSubmit(nil), fixture(t, "user-prompt-submit.json", tp))
	h.run(Stop, fixture(t, "stop.json", tp))
	h.run(SessionEnd, fixture(t, "session-end.json", tp))

	// A new session in the same project: the brief says what the last
	// session changed and decided, and a related prompt gets the earlier
	// decision.
	start, _ := sjson.SetBytes(fixture(t, "session-start.json", ""), "session_id", "second")
	out := h.run(SessionStart, start)
	checkReply(t, out, "SessionStart", "Changed src/middleware/requireJwt.js")
	checkReply(t, out, "SessionStart", "RS256")
	prompt, _ := sjson.SetBytes(fixture(t, "user-prompt-submit.json", ""), "session_id", "second")
	prompt, _ = sjson.SetBytes(prompt, "prompt_id", "p2")
	prompt, _ = sjson.SetBytes(prompt, "prompt", "How do we sign the JWT tokens, which keys?")
	checkReply(t, h.run(UserPromptSubmit(nil), prompt), "UserPromptSubmit", "RS256")

	// Another project sees nothing of it.
	other, _ := sjson.SetBytes(prompt, "cwd", "/home/dev/other-project")
	other, _ = sjson.SetBytes(other, "session_id", "third")
	if out := h.run(UserPromptSubmit(nil), other); out != "" {
		t.Errorf("another project got %q", out)
	}
}

// TestRecallAcrossDriveLetterCases: Claude Code reports a Windows session's
// working directory as "c:\…" and "C:\…" by turns. A session recorded under
// one spelling is recalled from a prompt under the other, and the new
// session is filed under the spelling the store holds; another directory,
// and a path of another system in another case, are other projects.
func TestRecallAcrossDriveLetterCases(t *testing.T) {
	h := newHarness(t)
	tp := copyTranscript(t, "basic.jsonl")
	const small, big = `c:\Users\dev\shop-api`, `C:\Users\dev\shop-api`
	at := func(name, cwd string, kv ...string) []byte {
		b, _ := sjson.SetBytes(fixture(t, name, tp), "cwd", cwd)
		for i := 0; i < len(kv); i += 2 {
			b, _ = sjson.SetBytes(b, kv[i], kv[i+1])
		}
		return b
	}
	h.run(SessionStart, at("session-start.json", small))
	h.run(UserPromptSubmit(nil), at("user-prompt-submit.json", small))
	h.run(Stop, at("stop.json", small))
	h.run(SessionEnd, at("session-end.json", small))

	ask := func(session, cwd string) string {
		return h.run(UserPromptSubmit(nil), at("user-prompt-submit.json", cwd, "session_id", session, "prompt_id", session,
			"transcript_path", "", "prompt", "How do we sign the JWT tokens, which keys?"))
	}
	checkReply(t, ask("second", big), "UserPromptSubmit", "RS256")
	h.run(Stop, at("stop.json", big, "session_id", "second", "transcript_path", ""))
	db := h.db()
	if s, err := db.Read().Session(context.Background(), "second"); err != nil || s.Project != small {
		t.Errorf("the second session was filed under %q (%v), want %q", s.Project, err, small)
	}
	db.Close()
	if out := ask("third", `C:\Users\dev\other-project`); out != "" {
		t.Errorf("another directory got %q", out)
	}
}

func checkReply(t *testing.T, out, event, contains string) {
	t.Helper()
	if !gjson.Valid(out) {
		t.Fatalf("%s reply is not JSON: %q", event, out)
	}
	r := gjson.Parse(out)
	if got := r.Get("hookSpecificOutput.hookEventName").String(); got != event {
		t.Errorf("hookEventName=%q, want %q", got, event)
	}
	ctx := r.Get("hookSpecificOutput.additionalContext").String()
	if !strings.HasPrefix(ctx, privacy.FenceOpen) || !strings.HasSuffix(ctx, privacy.FenceClose) {
		t.Errorf("%s context not fenced: %q", event, ctx)
	}
	if !strings.Contains(ctx, contains) {
		t.Errorf("%s context lacks %q: %q", event, contains, ctx)
	}
	var keys map[string]json.RawMessage
	json.Unmarshal([]byte(out), &keys)
	if len(keys) != 1 {
		t.Errorf("reply has top-level keys %v, want only hookSpecificOutput", keys)
	}
}

func TestPrivacyOnEveryPath(t *testing.T) {
	h := newHarness(t)
	const secret = "sk-ant-api03-SECRETSECRETSECRETSECRET0123456789abcdef"
	const private = "my-private-diary-words"
	tp := filepath.Join(t.TempDir(), "t.jsonl")
	row := `{"type":"user","uuid":"u1","promptId":"pp","sessionId":"s","timestamp":"2026-11-20T09:14:03.112Z","message":{"role":"user","content":"transcript says <private>` + private + `</private> and key ` + secret + `"}}` + "\n"
	os.WriteFile(tp, []byte(row), 0o600)
	in := func(event string, kv ...string) []byte {
		b := []byte(`{"session_id":"s","cwd":"/p","transcript_path":"` + tp + `","hook_event_name":"` + event + `"}`)
		for i := 0; i < len(kv); i += 2 {
			b, _ = sjson.SetBytes(b, kv[i], kv[i+1])
		}
		return b
	}
	h.run(UserPromptSubmit(nil), in("UserPromptSubmit", "prompt", "use <private>"+private+"</private> with ANTHROPIC_API_KEY="+secret, "prompt_id", "p1"))
	h.run(PostToolUse, in("PostToolUse", "tool_name", "Bash", "tool_input.command", "curl -H 'Authorization: Bearer "+secret+"' x", "tool_response.stdout", "token "+secret, "tool_use_id", "t1"))
	h.run(PostToolUse, in("PostToolUseFailure", "tool_name", "Bash", "tool_input.command", "echo", "error", "failed with "+secret, "tool_use_id", "t2"))
	h.run(Stop, in("Stop", "last_assistant_message", "I saw <private>"+private+"</private> and "+secret))
	h.run(SessionEnd, in("SessionEnd", "reason", "other"))
	db := h.db()
	evs := h.events(db, "s")
	if len(evs) < 5 {
		t.Fatalf("only %d events stored", len(evs))
	}
	db.Close()
	for _, f := range []string{"memory.db", "memory.db-wal"} {
		b, _ := os.ReadFile(filepath.Join(h.dir, f))
		for _, s := range []string{secret, private} {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%q found in %s", s, f)
			}
		}
	}
}

// TestPromptGlossesMissing: a hook whose dictionaries are missing searches a
// prompt in another language by its own words and says so in the log; an
// English prompt asks no table, so it neither reads one nor warns.
func TestPromptGlossesMissing(t *testing.T) {
	const warning = "searched by its own words only"
	for _, c := range []struct {
		name   string
		dict   *glosses.Dict
		prompt string
		warns  bool
	}{
		{"spanish, no tables", glosses.Open(t.TempDir()), "¿Con qué llaves firmamos los tokens de la API?", true},
		{"spanish, tables", glosses.Open(filepath.Join("..", "..", "glosses")), "¿Con qué llaves firmamos los tokens de la API?", false},
		{"english, no tables", glosses.Open(t.TempDir()), "Which keys sign the API tokens?", false},
		{"spanish, no dictionary", nil, "¿Con qué llaves firmamos los tokens de la API?", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			tp := copyTranscript(t, "basic.jsonl")
			in, _ := sjson.SetBytes(fixture(t, "user-prompt-submit.json", tp), "prompt", c.prompt)
			h.run(UserPromptSubmit(c.dict), in)
			log, _ := os.ReadFile(filepath.Join(h.dir, "claude-memory-layer.log"))
			log = append(log, h.logs.Bytes()...)
			if got := strings.Contains(string(log), warning); got != c.warns {
				t.Errorf("warned %v, want %v; log:\n%s", got, c.warns, log)
			}
		})
	}
}

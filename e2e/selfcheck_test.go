package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

// fakeJudge is the self-check's LLM: an OpenAI-compatible endpoint that
// finds a shown memory contradicted when it and the answer both name
// numbers and share none (the memory says port 7443, the answer 9000).
// Every other request (session end's extraction) gets a 500, so that
// extraction falls back to the offline extractor.
type fakeJudge struct {
	mu     sync.Mutex
	checks []string // the user messages of self-check requests
}

var (
	numberRE = regexp.MustCompile(`\d{3,}`)
	memoryRE = regexp.MustCompile(`(?m)^(mem:[0-9a-z]+): (.*)$`)
)

func (j *fakeJudge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	system := gjson.GetBytes(b, "messages.0.content").String()
	user := gjson.GetBytes(b, "messages.1.content").String()
	if !strings.Contains(system, "check an assistant's answer") {
		http.Error(w, "this fake only judges answers", http.StatusInternalServerError)
		return
	}
	j.mu.Lock()
	j.checks = append(j.checks, user)
	j.mu.Unlock()
	answer := user[strings.LastIndex(user, "<answer>"):]
	said := numberRE.FindAllString(answer, -1)
	var contradicts []string
	for _, m := range memoryRE.FindAllStringSubmatch(user, -1) {
		nums := numberRE.FindAllString(m[2], -1)
		if len(nums) > 0 && len(said) > 0 && !slices.ContainsFunc(nums, func(n string) bool { return slices.Contains(said, n) }) {
			contradicts = append(contradicts, m[1])
		}
	}
	verdict, _ := json.Marshal(map[string]any{"answered": true, "grounded": len(contradicts) == 0, "contradicts": contradicts})
	json.NewEncoder(w).Encode(map[string]any{
		"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": string(verdict)}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": len(user) / 4, "completion_tokens": 20},
	})
}

// notices counts how many times a run's Claude Code showed the user a
// hook's systemMessage ending in text: in the stream-json output, a system
// notice "UserPromptSubmit says: …"; each also in the transcript, a
// hook_system_message attachment.
func notices(t *testing.T, dir, text string) int {
	t.Helper()
	count := func(file, typ, path string) int {
		n := 0
		for _, l := range strings.Split(readFile(t, file), "\n") {
			if gjson.Get(l, "type").String() == typ && strings.HasSuffix(gjson.Get(l, path).String(), text) {
				n++
			}
		}
		return n
	}
	shown := count(filepath.Join(dir, "stream.jsonl"), "system", "content")
	sid := strings.TrimSpace(readFile(t, filepath.Join(dir, "session_id")))
	if kept := count(filepath.Join(dir, "transcripts", sid+".jsonl"), "attachment", "attachment.content"); kept != shown {
		t.Errorf("the stream shows the line %d times, the transcript %d", shown, kept)
	}
	return shown
}

// TestRealClientSelfCheck: with llm.self_check on and an LLM extractor (a
// local fake endpoint), an answer that contradicts the memory shown for
// its prompt gets a verdict naming that memory, shown to the user as the
// next prompt's systemMessage, once; with the self-check off there is no
// such line and no LLM call.
func TestRealClientSelfCheck(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "Remember that "+fact+".")

	judge := &fakeJudge{}
	srv := httptest.NewServer(judge)
	defer srv.Close()
	const (
		ask    = "Which port and handshake does the billing service use for the ledger? SAY The ledger is reached on port 9000."
		thanks = "Thanks, noted. SAY ok"
		again  = "And the handshake name? SAY FLAMINGO-42"
	)
	run := func(name string, on bool) (dir string, checks []store.Event) {
		t.Helper()
		env := []string{"CLAUDE_MEMORY_DIR=" + w.dataDir, "CLAUDE_MEMORY_EXTRACTOR=openai",
			"CLAUDE_MEMORY_LLM_BASE_URL=" + srv.URL, "CLAUDE_MEMORY_LLM_MODEL=fake-judge"}
		if on {
			env = append(env, "CLAUDE_MEMORY_SELF_CHECK=1")
		}
		dir = filepath.Join(w.work, name)
		r := &sessionRun{claude: w.claude, plugin: w.plugin, dir: dir, project: filepath.Join(w.work, "project"), env: env}
		// The verdict comes from a detached worker; the next prompt is sent
		// once it is stored (or, with the self-check off, at once).
		r.beforePrompt = func(i int) error {
			if !on || i != 1 {
				return nil
			}
			sid := strings.TrimSpace(readFile(t, filepath.Join(dir, "session_id")))
			for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
				if len(selfChecks(t, w, sid)) > 0 {
					return nil
				}
				if time.Now().After(deadline) {
					return fmt.Errorf("no self-check verdict stored for %s; log:\n%s", sid, readFile(t, filepath.Join(w.dataDir, "claude-memory-layer.log")))
				}
			}
		}
		sid, err := r.run(ask, thanks, again)
		if err != nil {
			t.Fatalf("session %s: %v", name, err)
		}
		return dir, selfChecks(t, w, sid)
	}

	dir, checks := run("s2", true)
	if len(checks) == 0 {
		t.Fatal("no self-check verdict stored")
	}
	first := checks[0]
	contradicted := gjson.GetBytes(first.Payload, "contradicts").Array()
	line := gjson.GetBytes(first.Payload, "line").String()
	if len(contradicted) == 0 || !strings.Contains(line, "contradicts "+contradicted[0].String()) {
		t.Fatalf("the first verdict %s does not name the contradicted memory", first.Payload)
	}
	judge.mu.Lock()
	asked := judge.checks[0]
	judge.mu.Unlock()
	if !strings.Contains(asked, "7443") || !strings.Contains(asked, "port 9000") {
		t.Errorf("the judge was not shown the memory and the answer:\n%s", asked)
	}
	// The footer: the next prompt's hook replied with it, Claude Code
	// showed it, once.
	// The footer: Claude Code showed the next prompt's systemMessage to the
	// user (a notice in the stream, an attachment in the transcript), once.
	if got := notices(t, dir, line); got != 1 {
		t.Errorf("the verdict %q was shown %d times, want once", line, got)
	}
	db := w.openStore()
	marks, err := db.Read().Events(context.Background(), store.EventFilter{SessionID: first.SessionID, Types: []string{store.TypeSelfCheckShown}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range marks {
		if gjson.GetBytes(m.Payload, "check").Int() == first.ID {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the verdict was recorded shown %d times, want once", n)
	}
	// The footer is the plugin's own news, not part of the conversation.
	all, err := db.Read().Events(context.Background(), store.EventFilter{SessionID: first.SessionID})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range all {
		if ev.Conversation() && strings.Contains(ev.Text, "Memory self-check") {
			t.Errorf("the footer was stored as a %s: %q", ev.Type, ev.Text)
		}
	}
	db.Close()

	judge.mu.Lock()
	before := len(judge.checks)
	judge.mu.Unlock()
	dir, checks = run("s3", false)
	if len(checks) != 0 {
		t.Errorf("verdicts stored with the self-check off: %v", checks)
	}
	judge.mu.Lock()
	after := len(judge.checks)
	judge.mu.Unlock()
	if after != before {
		t.Errorf("the judge was asked %d times with the self-check off", after-before)
	}
	if strings.Contains(readFile(t, filepath.Join(dir, "stream.jsonl")), "Memory self-check") {
		t.Error("a self-check line was shown with the self-check off")
	}
	if _, err := os.Stat(filepath.Join(w.dataDir, "selfcheck.unavailable")); err == nil {
		t.Error("the self-check said no LLM was available, though one was")
	}
}

// selfChecks are the verdicts stored for a session.
func selfChecks(t *testing.T, w *world, sid string) []store.Event {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(w.dataDir, "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	evs, err := db.Read().Events(context.Background(), store.EventFilter{SessionID: sid, Types: []string{store.TypeSelfCheck}})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

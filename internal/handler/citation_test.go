package handler

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/sjson"
)

// Stop reads the answer's citations: an injected memory it cites is counted
// as used; an id the turn never showed, or that names nothing, is flagged in
// a memory_cited event and the log.
func TestStopChecksCitations(t *testing.T) {
	h := newHarness(t)
	tp := copyTranscript(t, "basic.jsonl")
	h.run(SessionStart, fixture(t, "session-start.json", tp))
	h.run(UserPromptSubmit(nil), fixture(t, "user-prompt-submit.json", tp))
	h.run(Stop, fixture(t, "stop.json", tp))
	h.run(SessionEnd, fixture(t, "session-end.json", tp))

	// A short brief, which shows the first memory only: the prompt, which is
	// not given again what the brief showed, then injects others.
	if err := os.WriteFile(filepath.Join(h.dir, "config.json"), []byte(`{"recall": {"brief_tokens": 170}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	start, _ := sjson.SetBytes(fixture(t, "session-start.json", ""), "session_id", "second")
	brief := h.run(SessionStart, start)
	prompt, _ := sjson.SetBytes(fixture(t, "user-prompt-submit.json", ""), "session_id", "second")
	prompt, _ = sjson.SetBytes(prompt, "prompt_id", "p2")
	prompt, _ = sjson.SetBytes(prompt, "prompt", "How do we sign the JWT tokens, which keys?")
	reply := h.run(UserPromptSubmit(nil), prompt)
	injected := regexp.MustCompile(`\[(mem:[0-9a-f]+)\]`).FindStringSubmatch(reply)
	if injected == nil {
		t.Fatalf("nothing injected; brief:\n%s", brief)
	}
	// A memory the brief showed but this turn did not.
	var briefOnly string
	for _, m := range regexp.MustCompile(`\[(mem:[0-9a-f]+)\]`).FindAllStringSubmatch(brief, -1) {
		if !strings.Contains(reply, m[0]) {
			briefOnly = m[1]
		}
	}
	answer := "RS256, keys in ./keys [" + injected[1] + "].\nMemories used: [" + injected[1] + "] [mem:dead0000]"
	if briefOnly == "" {
		t.Fatalf("the brief shows no memory that the prompt's injection leaves out:\n%s\n%s", brief, reply)
	}
	answer += " [" + briefOnly + "]"
	stop, _ := sjson.SetBytes(fixture(t, "stop.json", ""), "session_id", "second")
	stop, _ = sjson.SetBytes(stop, "prompt_id", "p2")
	stop, _ = sjson.SetBytes(stop, "last_assistant_message", answer)
	if out := h.run(Stop, stop); out != "" {
		t.Errorf("Stop replied %q; any reply would keep Claude working", out)
	}
	h.run(Stop, stop) // a retried hook counts nothing twice

	db := h.db()
	ctx := context.Background()
	e, err := db.EntryByCID(ctx, injected[1])
	if err != nil {
		t.Fatal(err)
	}
	if e.UseCount != 1 || e.InjectCount != 1 {
		t.Errorf("%s: used %d, injected %d; want 1 and 1", e.CID, e.UseCount, e.InjectCount)
	}
	evs, err := db.Read().Events(ctx, store.EventFilter{SessionID: "second", Types: []string{store.TypeMemoryCited}})
	if err != nil || len(evs) != 1 {
		t.Fatalf("memory_cited events: %d, %v", len(evs), err)
	}
	var p struct{ Used, Unshown, Earlier, Unknown []string }
	json.Unmarshal(evs[0].Payload, &p)
	// The brief stays in the model's context for the session: citing a
	// memory it showed is a use, like one the prompt's injection showed.
	if strings.Join(p.Used, " ") != injected[1]+" "+briefOnly || strings.Join(p.Unknown, " ") != "mem:dead0000" ||
		len(p.Unshown) != 0 || len(p.Earlier) != 0 {
		t.Errorf("memory_cited = %s, want %s and %s used, mem:dead0000 unknown", evs[0].Payload, injected[1], briefOnly)
	}
	logs := h.logs.String()
	if b, err := os.ReadFile(filepath.Join(h.dir, "claude-memory-layer.log")); err == nil {
		logs += string(b)
	}
	if !strings.Contains(logs, "answer cites memories it was not shown") || !strings.Contains(logs, "mem:dead0000") {
		t.Errorf("the flagged citation is not logged:\n%s", logs)
	}
}

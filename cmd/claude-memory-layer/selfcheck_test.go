package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/ingest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/tidwall/gjson"
)

// storeTurn registers session s1 and stores a memory and a turn that was
// shown it, with the given answer; it returns the memory's id.
func storeTurn(t *testing.T, te *testEnv, answer string) string {
	t.Helper()
	ctx := context.Background()
	db := te.openDB(t)
	x := storetest.QuotedEntry(t, db, "/p", "the ledger listens on port 7443", 1, func(int) string { return "the ledger listens on port 7443" })
	evs := []store.Event{
		{Time: fixedNow, Type: store.TypeUserPrompt, SessionID: "s1", Project: "/p", DedupeKey: "prompt:s1:p1",
			Text: "Which port does the ledger use?", Payload: json.RawMessage(`{"prompt_id":"p1"}`)},
		{Time: fixedNow, Type: store.TypeMemoryInjected, SessionID: "s1", Project: "/p", DedupeKey: "inject:s1:p1",
			Payload: json.RawMessage(`{"prompt_id":"p1","memories":["` + x.CID + `"]}`)},
		{Time: fixedNow, Type: store.TypeAgentResponse, SessionID: "s1", Project: "/p", DedupeKey: "stop:s1:p1",
			Text: answer, Payload: json.RawMessage(`{"prompt_id":"p1"}`)},
	}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		if _, err := ingest.Register(ctx, tx, store.Session{ID: "s1", Project: "/p", Cwd: "/p", StartedAt: fixedNow}); err != nil {
			return err
		}
		_, err := tx.Append(ctx, evs...)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return x.CID
}

// TestSelfCheckCommand: the Stop hook's worker asks the configured
// OpenAI-compatible endpoint about the turn and stores its verdict; without
// an LLM it fails, saying so in the log once, and doctor warns.
func TestSelfCheckCommand(t *testing.T) {
	te := newTestEnv(t)
	cid := storeTurn(t, te, "The ledger uses port 9000.")
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		asked = append(asked, gjson.GetBytes(b, "messages.1.content").String())
		content := `{"answered":true,"grounded":false,"contradicts":["` + cid + `"]}`
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": content}}}})
	}))
	defer srv.Close()
	te.vars["CLAUDE_MEMORY_SELF_CHECK"] = "1"
	te.vars["CLAUDE_MEMORY_EXTRACTOR"] = "openai"
	te.vars["CLAUDE_MEMORY_LLM_BASE_URL"] = srv.URL
	te.vars["CLAUDE_MEMORY_LLM_MODEL"] = "judge"

	out := te.mustRun(t, "selfcheck", "--session", "s1", "--prompt-id", "p1")
	if !strings.Contains(out, "contradicts "+cid) {
		t.Errorf("selfcheck printed %q, want the verdict naming %s", out, cid)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "The ledger uses port 9000.") || !strings.Contains(asked[0], cid+": the ledger listens on port 7443") {
		t.Errorf("the model was asked %q", asked)
	}
	evs, err := te.openDB(t).Read().Events(context.Background(), store.EventFilter{SessionID: "s1", Types: []string{store.TypeSelfCheck}})
	if err != nil || len(evs) != 1 {
		t.Fatalf("self_check events %v, %v; want one", evs, err)
	}
	if h := te.mustRun(t, "history", "--all-projects", "--type", "self_check"); !strings.Contains(h, "contradicts "+cid) {
		t.Errorf("history --type self_check lacks the verdict:\n%s", h)
	}
	if c := doctorCheck(t, te, "self-check"); c.Status != "ok" {
		t.Errorf("doctor's self-check %+v, want ok", c)
	}

	te.vars["CLAUDE_MEMORY_EXTRACTOR"] = "offline"
	for range 2 {
		if code := te.run(t, "selfcheck", "--session", "s1", "--prompt-id", "p1"); code == 0 {
			t.Error("selfcheck exited 0 without an LLM")
		}
	}
	logs, _ := os.ReadFile(filepath.Join(te.vars["CLAUDE_MEMORY_DIR"], "claude-memory-layer.log"))
	if n := strings.Count(string(logs), "no LLM is available"); n != 1 {
		t.Errorf("the log says %d times that no LLM is available, want once:\n%s", n, logs)
	}
	if c := doctorCheck(t, te, "self-check"); c.Status != "warn" || !strings.Contains(c.Detail, "offline") {
		t.Errorf("doctor's self-check %+v, want a warning that the extractor is offline", c)
	}
	delete(te.vars, "CLAUDE_MEMORY_SELF_CHECK")
	if c := doctorCheck(t, te, "self-check"); c.Name != "" {
		t.Errorf("doctor reports %+v with the self-check off", c)
	}
}

// doctorCheck is doctor's check of the given name; zero when it has none.
func doctorCheck(t *testing.T, te *testEnv, name string) check {
	t.Helper()
	te.run(t, "doctor", "--json")
	var rep struct {
		Checks []check `json:"checks"`
	}
	if err := json.Unmarshal(te.stdout.Bytes(), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, te.stdout)
	}
	for _, c := range rep.Checks {
		if c.Name == name {
			return c
		}
	}
	return check{}
}

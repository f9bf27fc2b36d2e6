package e2e

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// The plugin's MCP tools are named by Claude Code as mcp__plugin_<plugin>_<server>__<tool>.
const tool = "mcp__plugin_memory-layer_memory__"

// noToolSearch makes Claude Code offer MCP tools to the model directly
// rather than behind its ToolSearch tool, which the fake model cannot use.
var noToolSearch = []string{"ENABLE_TOOL_SEARCH=false"}

// citations returns the memory_cited events of a session.
func citations(t *testing.T, db *store.DB, session string) []struct{ Cited, Used, Unshown, Unknown, Shown []string } {
	t.Helper()
	evs, err := db.Read().Events(context.Background(), store.EventFilter{SessionID: session, Types: []string{store.TypeMemoryCited}})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]struct{ Cited, Used, Unshown, Unknown, Shown []string }, len(evs))
	for i, ev := range evs {
		if err := json.Unmarshal(ev.Payload, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestRealClientMemoryTools: the model saves a memory with remember, a later
// session finds it with search, reads it with get and cites it, and the
// citation is counted as a use; an id the model was never shown is flagged.
func TestRealClientMemoryTools(t *testing.T) {
	w := newWorld(t)
	const said = "We deploy the orders service with blue-green releases only."
	s1 := w.session("s1", noToolSearch,
		said+` CALLTOOL `+tool+`remember {"title":"Orders service deploys blue-green only","type":"decision","subject":"orders deploys","quote":"`+said+`"}`,
		"done")
	offered := strings.Join(requests(t, s1), "\n")
	for _, name := range []string{"search", "timeline", "get", "remember", "conflicts", "tasks"} {
		if !strings.Contains(offered, `"name":"`+tool+name+`"`) {
			t.Errorf("the model was not offered %s%s", tool, name)
		}
	}
	if !strings.Contains(readFile(t, filepath.Join(s1, "stream.jsonl")), "Saved [mem:") {
		t.Fatalf("remember did not save; the session's output:\n%s", readFile(t, filepath.Join(s1, "stream.jsonl")))
	}
	db := w.openStore()
	ctx := context.Background()
	es, err := db.Read().Entries(ctx, store.EntryFilter{Evidence: true})
	if err != nil {
		t.Fatal(err)
	}
	var saved store.Entry
	for _, e := range es {
		if e.Title == "Orders service deploys blue-green only" {
			saved = e
		}
	}
	if saved.CID == "" || saved.Stage != store.StageVerified || len(saved.Evidence) == 0 || saved.Evidence[0].EventID == 0 {
		t.Fatalf("the remembered memory: %+v", saved)
	}
	quoted, err := db.Event(ctx, saved.Evidence[0].EventID)
	if err != nil || quoted.Type != store.TypeUserPrompt || quoted.Text[saved.Evidence[0].SpanStart:saved.Evidence[0].SpanEnd] != said {
		t.Errorf("its evidence is not the user's words: %+v in %+v (%v)", saved.Evidence[0], quoted, err)
	}

	// A later session: the model searches, reads the memory with get, and
	// cites it. A last turn gives the async Stop hook of the cited turn time to finish.
	s2 := w.session("s2", noToolSearch,
		// One directive a line: the fake model reads a CALLTOOL's JSON to the end of its line.
		"How do we ship the orders service?\nCALLTOOL "+tool+`search {"query":"orders service releases"}`+"\nCALLTOOL "+tool+`get {"ids":["`+saved.CID+`"]}`+"\nCITEMEM",
		"thanks")
	sid2 := strings.TrimSpace(readFile(t, filepath.Join(s2, "session_id")))
	out := readFile(t, filepath.Join(s2, "stream.jsonl"))
	if !strings.Contains(out, "Memories used: ") || !strings.Contains(out, "Evidence 1:") {
		t.Errorf("session 2: the get result or the citation line is missing:\n%s", out)
	}
	cs := citations(t, db, sid2)
	if len(cs) != 1 || !contains(cs[0].Used, saved.CID) || len(cs[0].Unshown)+len(cs[0].Unknown) != 0 {
		t.Fatalf("session 2: memory_cited = %+v, want one use of %s and nothing flagged", cs, saved.CID)
	}
	got, err := db.EntryByCID(ctx, saved.CID)
	if err != nil {
		t.Fatal(err)
	}
	if got.UseCount != 1 {
		t.Errorf("%s: use_count %d after one citing answer, want 1 (injected %d times)", saved.CID, got.UseCount, got.InjectCount)
	}

	// A third session cites, in its second turn, the stored memory and an id
	// that names nothing, neither of them shown in that turn: both flagged.
	// No SessionStart brief in it: a memory the brief lists counts as shown.
	s3 := w.session("s3", append(slices.Clone(noToolSearch), "CLAUDE_MEMORY_BRIEF=false"), "hello", "What is the weather like? [mem:"+strings.TrimPrefix(saved.CID, "mem:")+"] [mem:dead0000] CITEMEM", "bye")
	sid3 := strings.TrimSpace(readFile(t, filepath.Join(s3, "session_id")))
	cs = citations(t, db, sid3)
	// (Recall may show this turn an earlier message that also said
	// "CITEMEM"; citing that is a use. The two below were never shown.)
	if len(cs) != 1 || contains(cs[0].Used, saved.CID) || !contains(cs[0].Unshown, saved.CID) || !contains(cs[0].Unknown, "mem:dead0000") {
		t.Fatalf("session 3: memory_cited = %+v, want %s not shown and mem:dead0000 unknown", cs, saved.CID)
	}
	if got, _ := db.EntryByCID(ctx, saved.CID); got.UseCount != 1 {
		t.Errorf("%s: use_count %d after a flagged citation, want still 1", saved.CID, got.UseCount)
	}
	if log := readFile(t, filepath.Join(w.dataDir, "claude-memory-layer.log")); !strings.Contains(log, "answer cites memories it was not shown") {
		t.Errorf("the flagged citation is not in the log:\n%s", log)
	}
	stats := string(w.cli("stats"))
	// Uses count cited messages the turns were shown too, not only the
	// saved memory: at least its one use.
	if !regexp.MustCompile(`[1-9]\d* times? cited by answers`).MatchString(stats) || !strings.Contains(stats, "2 citations of memories not shown or not stored") {
		t.Errorf("stats:\n%s", stats)
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

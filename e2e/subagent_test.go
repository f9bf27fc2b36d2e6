package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/tidwall/gjson"
)

// TestRealClientSubagentEdits: a subagent started with the Agent tool reads
// a file and writes another. PostToolUse fires for both with the subagent's
// agent_id; the store keeps the file it wrote, as its edits change the
// project, and not the file it read, which its report sums up. The main
// agent's own read is kept.
func TestRealClientSubagentEdits(t *testing.T) {
	w := newWorld(t)
	mainRead := w.projectFile("main-notes.txt", "kiln notes\n")
	agentRead := w.projectFile("agent-notes.txt", "kiln notes\n")
	agentWrote := filepath.Join(filepath.Dir(mainRead), "agent-output.txt")
	dir := w.session("s1", nil,
		"READFILE "+mainRead+` CALLTOOL Agent {"subagent_type":"general-purpose","description":"write the kiln output","prompt":"READFILE `+agentRead+` WRITEFILE `+agentWrote+`"}`)
	if _, err := os.Stat(agentWrote); err != nil {
		t.Fatalf("the subagent wrote no file (%v); hooks fired: %v", err, fired(t, dir))
	}
	tools := storetest.ToolHeads(t, w.openStore())
	has := func(prefix string) bool {
		for _, l := range tools {
			if strings.HasPrefix(l, prefix) {
				return true
			}
		}
		return false
	}
	if !has("Read: " + mainRead) {
		t.Errorf("the main agent's read is not stored: %q", tools)
	}
	if !has("Write: " + agentWrote) {
		t.Errorf("the subagent's write is not stored: %q", tools)
	}
	if has("Read: " + agentRead) {
		t.Errorf("the subagent's read is stored: %q", tools)
	}

	// An import of the session's transcript, whose subagent Claude Code
	// wrote to <session>/subagents/, stores the same calls.
	agents, _ := filepath.Glob(filepath.Join(dir, "home", ".claude", "projects", "*", "*", "subagents", "agent-*.jsonl"))
	if len(agents) == 0 {
		t.Fatalf("no subagent transcript under %s", filepath.Join(dir, "home", ".claude", "projects"))
	}
	fresh := t.TempDir()
	cmd := exec.Command(filepath.Join(w.plugin, "bin", "claude-memory-layer"), "import", "--dir", filepath.Dir(filepath.Dir(filepath.Dir(agents[0]))))
	cmd.Env = append(os.Environ(), "CLAUDE_MEMORY_DIR="+fresh)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	idb, err := store.Open(context.Background(), filepath.Join(fresh, "memory.db"), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer idb.Close()
	imported := storetest.ToolHeads(t, idb)
	slices.Sort(tools)
	slices.Sort(imported)
	if !slices.Equal(tools, imported) {
		t.Errorf("the import stored %q, the live session %q", imported, tools)
	}
}

// TestRealClientSubagentReport: PostToolUse stores a subagent's report,
// the text of its result's content blocks, not the tool response's JSON
// cut to a few hundred bytes, which began with the prompt Claude wrote for
// the subagent and held little or none of the report; and a report of two
// kilobytes whole, where a command's output keeps its head and tail. The
// next session's question about a detail inside it gets it.
func TestRealClientSubagentReport(t *testing.T) {
	w := newWorld(t)
	// The detail is deep inside the report, past what a command's output
	// keeps of its head.
	var long strings.Builder
	long.WriteString("Reviewed the kiln controller firmware and its settings screens.")
	for i := range 12 {
		fmt.Fprintf(&long, " Screen %d lists its fields in the order the manual gives and needs no change.", i+1)
	}
	long.WriteString(" A firing program holds at most 14 ramp segments; the controller rejects a fifteenth with E-SEG.")
	for i := range 12 {
		fmt.Fprintf(&long, " Relay check %d passed on the bench rig with the door closed.", i+1)
	}
	report := long.String()
	// The fake model says what a SAY directive in its prompt says: the
	// subagent's prompt is written in JSON escapes, so that the words of
	// its report reach the store only as the report, not in the user's
	// prompt that starts the subagent.
	var escaped strings.Builder
	for _, r := range "SAY " + report {
		fmt.Fprintf(&escaped, `\u%04x`, r)
	}
	w.session("s1", nil, `Please review the kiln firmware. CALLTOOL Agent {"subagent_type":"general-purpose","description":"review the kiln firmware","run_in_background":false,"prompt":"`+escaped.String()+`"}`)

	db := w.openStore()
	evs, err := db.Read().Events(context.Background(), store.EventFilter{})
	if err != nil {
		t.Fatal(err)
	}
	stored := ""
	for _, e := range evs {
		if e.Type == store.TypeToolObservation && strings.HasPrefix(e.Text, "Agent: ") {
			stored = e.Text
		}
	}
	if stored == "" {
		t.Fatalf("no Agent observation stored: %q", storetest.ToolHeads(t, db))
	}
	if !strings.Contains(stored, report) {
		t.Errorf("the stored observation lacks the subagent's report:\n%s", stored)
	}
	if strings.Contains(stored, `"status"`) || strings.Contains(stored, `"prompt"`) {
		t.Errorf("the stored observation is the tool response's JSON:\n%s", stored)
	}

	// A question about what the review found: the report is tool output,
	// which opens the gate for a question about the project's past.
	dir := w.session("s2", nil, "What did the kiln firmware review find about ramp segments?")
	reqs := requests(t, dir)
	if len(reqs) == 0 {
		t.Fatal("no request reached the model")
	}
	if !strings.Contains(reqs[0], "at most 14 ramp segments") {
		t.Errorf("the question about the report's detail did not get it:\n%.3000s", reqs[0])
	}
}

// TestRealClientBackgroundAgentNotice: a subagent started in the background
// reports in a <task-notification>, which Claude Code submits as a prompt
// of its own. The user asked nothing there: no memory is injected for it,
// though the notice's words match an earlier session's notice (its
// boilerplate) and what the user said. The same words typed by the user
// are answered.
func TestRealClientBackgroundAgentNotice(t *testing.T) {
	w := newWorld(t)
	fact := "The kiln relay board is wired to GPIO pin 17 on the controller."
	background := func(description, report string) string {
		var escaped strings.Builder
		for _, r := range "SAY " + report {
			fmt.Fprintf(&escaped, `\u%04x`, r)
		}
		return `CALLTOOL Agent {"subagent_type":"general-purpose","description":"` + description + `","run_in_background":true,"prompt":"` + escaped.String() + `"}`
	}
	w.session("s1", nil, fact, background("check the relay wiring", "Checked the kiln relay board: "+fact))
	report := "Checked the kiln door interlock: it cuts the relay board's supply when opened."
	w.session("s2", nil, background("check the door interlock", report))
	w.session("s3", nil, "Which GPIO pin is the kiln relay board wired to on the controller?")

	db := w.openStore()
	evs, err := db.Read().Events(context.Background(), store.EventFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var notices []string
	typed := ""
	injected := map[string]bool{}
	for _, e := range evs {
		id := gjson.GetBytes(e.Payload, "prompt_id").String()
		switch {
		case e.Type == store.TypeUserPrompt && strings.HasPrefix(e.Text, "<task-notification>"):
			notices = append(notices, id)
		case e.Type == store.TypeUserPrompt && strings.HasPrefix(e.Text, "Which GPIO pin"):
			typed = id
		case e.Type == store.TypeMemoryInjected:
			injected[id] = true
		}
	}
	if len(notices) != 2 {
		t.Fatalf("%d background agents' notices reached the prompt hook, want 2", len(notices))
	}
	for _, id := range notices {
		if injected[id] {
			t.Errorf("memories were injected for a background agent's notice (prompt %s)", id)
		}
	}
	if !injected[typed] {
		t.Errorf("nothing was injected for the user's question")
	}
}

package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// taskTools makes Claude Code offer its task list tools (TaskCreate,
// TaskUpdate) to the model directly, as an interactive session has them;
// the fake model cannot reach them through ToolSearch.
var taskTools = []string{"CLAUDE_CODE_ENABLE_TODO_TOOLS=1", "ENABLE_TOOL_SEARCH=false"}

// briefOf is the SessionStart brief a session's first request carried: the
// text from the brief's heading to its fence's end.
func briefOf(t *testing.T, dir string) string {
	t.Helper()
	reqs := requests(t, dir)
	if len(reqs) == 0 {
		t.Fatalf("%s made no API request", filepath.Base(dir))
	}
	var body struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		System json.RawMessage `json:"system"`
	}
	if err := json.Unmarshal([]byte(reqs[0]), &body); err != nil {
		t.Fatal(err)
	}
	// The brief is in the conversation as JSON-escaped text; unescaping the
	// whole request is enough to find it.
	var all strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			all.WriteString(x + "\n")
		case []any:
			for _, y := range x {
				walk(y)
			}
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	var v any
	json.Unmarshal([]byte(reqs[0]), &v)
	walk(v)
	text := all.String()
	start := strings.Index(text, "Project memory (claude-memory-layer):")
	if start < 0 {
		return ""
	}
	end := strings.Index(text[start:], "\n\n")
	if end < 0 {
		end = len(text) - start
	}
	return text[start : start+end]
}

// TestRealClientOpenTasks: a plan step left pending and work the user put
// off in one session appear in the next session's brief; that session
// finishes both (the task list marks the step completed, the user reports
// the other done), and the session after it is no longer told of them.
func TestRealClientOpenTasks(t *testing.T) {
	w := newWorld(t)
	const (
		step     = "Write the export format guide"
		deferred = "audit log retention"
	)
	w.session("s1", taskTools,
		"Plan the export work.\n"+
			`CALLTOOL TaskCreate {"subject":"Add CSV export to the reports page","description":"CSV export","activeForm":"Adding CSV export"}`+"\n"+
			`CALLTOOL TaskCreate {"subject":"`+step+`","description":"Document the CSV columns","activeForm":"Writing the guide"}`,
		`CALLTOOL TaskUpdate {"taskId":"1","status":"completed"}`,
		"Good. Let's leave the "+deferred+" for tomorrow.")

	s2 := w.session("s2", taskTools,
		"What was left to do?",
		`CALLTOOL TaskCreate {"subject":"`+step+`","description":"Document the CSV columns","activeForm":"Writing the guide"}`,
		`CALLTOOL TaskUpdate {"taskId":"1","status":"completed"}`,
		"Thanks. The "+deferred+" is done too.")
	brief := briefOf(t, s2)
	t.Logf("session 2's brief:\n%s", brief)
	open, _, _ := strings.Cut(brief[strings.Index(brief, "Open tasks:")+1:], "Key memories:")
	if !strings.Contains(brief, "Open tasks:") || !strings.Contains(open, step) || !strings.Contains(open, deferred) {
		t.Fatalf("session 2's brief does not list both open tasks:\n%s", brief)
	}
	if strings.Contains(open, "Add CSV export") {
		t.Errorf("session 2's brief lists the step session 1 completed:\n%s", brief)
	}

	s3 := w.session("s3", nil, "hello", "/memory-layer:memory-tasks --all")
	if brief := briefOf(t, s3); strings.Contains(brief, step) || strings.Contains(brief, deferred) {
		t.Errorf("session 3's brief still lists a task session 2 finished:\n%s", brief)
	}
	// The slash command's listing reaches the model, the closed tasks in it.
	reqs := requests(t, s3)
	if last := reqs[len(reqs)-1]; !strings.Contains(last, step) || !strings.Contains(last, "0 open tasks, 2 closed") {
		t.Errorf("/memory-layer:memory-tasks --all did not reach the model; request tail: %.800s", last[max(0, len(last)-800):])
	}
	var got struct {
		Tasks []struct {
			Title  string `json:"title"`
			Open   bool   `json:"open"`
			Closed *struct {
				How   string `json:"how"`
				Quote string `json:"quote"`
			} `json:"closed"`
		} `json:"tasks"`
	}
	out := w.cli("tasks", "--all", "--json", "--project", filepath.Join(w.work, "project"))
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("tasks --json: %v\n%s", err, out)
	}
	closed := 0
	for _, x := range got.Tasks {
		if x.Open {
			t.Errorf("task still open: %q", x.Title)
		} else if x.Closed.How == "done" && x.Closed.Quote != "" {
			closed++
		}
	}
	t.Logf("tasks --all --json after session 3:\n%s", out)
	if closed != 2 {
		t.Errorf("tasks --all: %s\nwant both tasks closed as done with the quote that closed them", out)
	}
}

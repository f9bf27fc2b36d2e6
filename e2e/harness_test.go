package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestHarness checks the test harness itself against the real client, with
// only the capture plugin loaded: fakeapi's directives drive real tool calls,
// its answers stream back as the final result, the capture plugin records
// every hook, and both session modes work.
func TestHarness(t *testing.T) {
	claude := claudeBin(t)
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("harness notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &sessionRun{claude: claude, dir: filepath.Join(dir, "stream")}
	sid, err := r.run("Read READFILE "+notes+" and RUNBASH echo harness-bash\nSAY hello from the harness\nCITEMEM [mem:abc123]", "second turn")
	if err != nil {
		t.Fatal(err)
	}

	var results []string
	for _, line := range strings.Split(readFile(t, filepath.Join(r.dir, "stream.jsonl")), "\n") {
		if gjson.Get(line, "type").String() == "result" {
			results = append(results, gjson.Get(line, "result").String())
		}
	}
	want := []string{
		"FAKE-ANSWER: ok (tool_rounds=2 marker_seen=false marker_in_turn=false)\nhello from the harness\nMemories used: [mem:abc123]",
		"FAKE-ANSWER: ok (tool_rounds=0 marker_seen=false marker_in_turn=false)",
	}
	if strings.Join(results, "|") != strings.Join(want, "|") {
		t.Errorf("results %q, want %q", results, want)
	}

	hooks := fired(t, r.dir)
	for _, h := range []string{"SessionStart-1", "UserPromptSubmit-1", "UserPromptSubmit-2", "PreToolUse-1", "PostToolUse-1", "PostToolUse-2", "Stop-1", "Stop-2", "SessionEnd-1"} {
		if !hooks[h] {
			t.Errorf("hook %s not captured (got %v)", h, hooks)
		}
	}
	tools := map[string]string{}
	for _, n := range []string{"1", "2"} {
		in := readFile(t, filepath.Join(r.dir, "hooks", "PostToolUse-"+n+".json"))
		tools[gjson.Get(in, "tool_name").String()] = in
	}
	if got := gjson.Get(tools["Read"], "tool_response.file.content").String(); got != "harness notes\n" {
		t.Errorf("Read returned %q", got)
	}
	if got := gjson.Get(tools["Bash"], "tool_response.stdout").String(); got != "harness-bash" {
		t.Errorf("Bash returned %q", got)
	}
	if env := readFile(t, filepath.Join(r.dir, "hooks", "SessionStart-1.env")); !strings.Contains(env, "CLAUDE_PROJECT_DIR=") {
		t.Errorf("the hook environment was not captured: %q", env)
	}
	if tr := readFile(t, filepath.Join(r.dir, "transcripts", sid+".jsonl")); !strings.Contains(tr, "hello from the harness") {
		t.Errorf("the transcript copy lacks the answer")
	}
	reqs := requests(t, r.dir)
	if len(reqs) < 4 {
		t.Errorf("%d Messages API requests, want at least 4 (two tool rounds, two answers)", len(reqs))
	}
	if raw := readFile(t, filepath.Join(r.dir, "api-requests.jsonl")); strings.Contains(raw, "sk-ant-fake-key") {
		t.Error("the API key is in the request log")
	}

	// Resume mode: one process per prompt, so SessionStart (resume) and
	// SessionEnd fire on each.
	rr := &sessionRun{claude: claude, dir: filepath.Join(dir, "resume"), env: []string{"CLAUDE_REAL_MODE=resume"}}
	if _, err := rr.run("first", "SAY again"); err != nil {
		t.Fatal(err)
	}
	var turn2 struct{ Result string }
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(rr.dir, "turn-2.json"))), &turn2); err != nil || !strings.HasSuffix(turn2.Result, "\nagain") {
		t.Errorf("turn 2 result %q (%v)", turn2.Result, err)
	}
	if src := gjson.Get(readFile(t, filepath.Join(rr.dir, "hooks", "SessionStart-2.json")), "source").String(); src != "resume" {
		t.Errorf("second SessionStart source %q, want resume", src)
	}
	if !fired(t, rr.dir)["SessionEnd-2"] {
		t.Error("no SessionEnd for the second turn")
	}
}

package handler

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/tidwall/gjson"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binary builds the hook binaries from cmd/ once per test run and returns the path of one.
func binary(t testing.TB, name string) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "cml-bin-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", binDir+"/", "../../cmd/session-start", "../../cmd/user-prompt-submit",
			"../../cmd/stop", "../../cmd/session-end", "../../cmd/post-tool-use", "../../cmd/claude-memory-layer")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, name)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binaryBudget is the hooks' budget in runBinary: well under its one-minute
// limit, far over what any hook needs on an idle machine.
const binaryBudget = 40 * time.Second

// detachedBound bounds a test's wait for what a detached worker does: a
// hang guard, far past what a busy machine takes.
const detachedBound = 5 * time.Minute

type result struct {
	code   int
	stdout string
	took   time.Duration
}

func runBinary(t testing.TB, name, dataDir string, stdin []byte, extraEnv ...string) result {
	t.Helper()
	// Far above every hook's budget: a hook still running then is hung, and
	// the test says so instead of hanging with it.
	// The binaries are built first: on a busy machine the build alone can
	// take most of a minute, which must not count against the hook.
	bin := binary(t, name)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	// A generous budget (hook.BudgetEnv), so that what a test checks does
	// not depend on how busy the machine is; a test of what a hook does when
	// its own budget runs out passes hook.BudgetEnv+"=" in extraEnv, which
	// wins (the last value of a key is the one used).
	cmd.Env = append([]string{"CLAUDE_MEMORY_DIR=" + dataDir, "HOME=" + dataDir, "PATH=" + os.Getenv("PATH"), hook.BudgetEnv + "=" + binaryBudget.String()}, extraEnv...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	logPath := filepath.Join(dataDir, "claude-memory-layer.log")
	logged := fileSize(logPath)
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), took: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// A hook out of time exits 0 with nothing on stdout, which validReply
	// takes for a hook that had nothing to say: a test would then fail
	// later, on what the hook did not store, and blame the code. Said here,
	// unless the test gave the hook its real budget (the last value wins).
	if generous := !slices.ContainsFunc(extraEnv, func(kv string) bool { return strings.HasPrefix(kv, hook.BudgetEnv+"=") }); generous {
		if b, err := os.ReadFile(logPath); err == nil && int64(len(b)) >= logged && bytes.Contains(b[logged:], []byte("deadline exceeded; no reply")) {
			t.Fatalf("%s ran out of the test's budget of %v (the machine is overloaded, or the hook hung): %s", name, binaryBudget, b[logged:])
		}
	}
	return r
}

// fileSize is the size of the file at path, 0 for none.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// validReply fails unless stdout is empty or exactly one JSON object naming the event.
func validReply(t testing.TB, r result, event string) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d, stdout %q", r.code, r.stdout)
	}
	s := strings.TrimSpace(r.stdout)
	if s == "" {
		return
	}
	if !gjson.Valid(s) || strings.Count(s, "\n") > 0 {
		t.Fatalf("stdout is not one JSON object: %q", s)
	}
	if got := gjson.Get(s, "hookSpecificOutput.hookEventName").String(); got != event {
		t.Fatalf("hookEventName=%q, want %q", got, event)
	}
}

func TestBinariesWithFixtures(t *testing.T) {
	tp := copyTranscript(t, "basic.jsonl")
	data := t.TempDir()
	for _, tt := range []struct{ bin, fixture, event string }{
		{"session-start", "session-start.json", "SessionStart"},
		{"user-prompt-submit", "user-prompt-submit.json", "UserPromptSubmit"},
		{"post-tool-use", "post-tool-use.json", "PostToolUse"},
		{"stop", "stop.json", "Stop"},
		{"session-end", "pre-compact.json", "PreCompact"},
		{"session-end", "session-end.json", "SessionEnd"},
	} {
		r := runBinary(t, tt.bin, data, fixture(t, tt.fixture, tp))
		validReply(t, r, tt.event)
		if tt.event != "SessionStart" && tt.event != "UserPromptSubmit" && r.stdout != "" {
			t.Errorf("%s printed %q; it must print nothing", tt.event, r.stdout)
		}
	}
	db, err := store.Open(context.Background(), filepath.Join(data, "memory.db"), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	evs, _ := db.Read().Events(context.Background(), store.EventFilter{})
	got := countTypes(evs)
	if got[store.TypeUserPrompt] != 2 || got[store.TypeAgentResponse] != 6 || got[store.TypeToolObservation] != 6 || got[store.TypeSessionEnded] != 1 {
		t.Errorf("stored %v", got)
	}
}

// TestBadInput feeds every hook binary input it must survive: each exits 0
// with valid or empty stdout, logs a line, and loses nothing already stored.
func TestBadInput(t *testing.T) {
	big := `{"session_id":"s","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt_id":"big","prompt":"` + strings.Repeat("a long prompt line ", 10<<20/19) + `"}`
	cases := []struct {
		name, input string
		wantLog     bool
	}{
		{"empty", "", true},
		{"not json", "this is not json", true},
		{"json array", "[]", true},
		{"missing fields", `{"hook_event_name":"UserPromptSubmit"}`, true},
		{"invalid utf8", "{\"session_id\":\"s\",\"cwd\":\"/p\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt_id\":\"u\",\"prompt\":\"caf\xe9 \xff\xfe ok\"}", false},
		{"missing transcript", `{"session_id":"s","cwd":"/p","hook_event_name":"Stop","transcript_path":"/nonexistent/t.jsonl","last_assistant_message":"ok"}`, false},
		{"10 MB prompt", big, false},
	}
	for _, bin := range []string{"session-start", "user-prompt-submit", "post-tool-use", "stop", "session-end"} {
		for _, tt := range cases {
			t.Run(bin+"/"+tt.name, func(t *testing.T) {
				data := t.TempDir()
				r := runBinary(t, bin, data, []byte(tt.input))
				validReply(t, r, gjson.Get(tt.input, "hook_event_name").String())
				if tt.wantLog {
					log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
					if !bytes.Contains(log, []byte("level=ERROR")) {
						t.Errorf("nothing logged for %s", tt.name)
					}
				}
			})
		}
	}
	t.Run("10 MB prompt is stored, cut and filtered", func(t *testing.T) {
		data := t.TempDir()
		r := runBinary(t, "user-prompt-submit", data, []byte(big))
		validReply(t, r, "UserPromptSubmit")
		evs := storedEvents(t, data, store.EventFilter{Types: []string{store.TypeUserPrompt}})
		if len(evs) != 1 || len(evs[0].Text) > 300<<10 || !strings.Contains(string(evs[0].Payload), `"truncated":true`) {
			t.Fatalf("stored %d prompts; %+v", len(evs), evs)
		}
		t.Logf("10 MB prompt handled in %v", r.took)
	})
	t.Run("invalid utf8 is stored as valid text", func(t *testing.T) {
		data := t.TempDir()
		runBinary(t, "user-prompt-submit", data, []byte(cases[4].input))
		evs := storedEvents(t, data, store.EventFilter{Types: []string{store.TypeUserPrompt}})
		if len(evs) != 1 || !strings.Contains(evs[0].Text, "ok") {
			t.Fatalf("stored %+v", evs)
		}
	})
}

// storedEvents returns the events of the store in data that f selects,
// after storing what the hooks spooled, as the next writer would.
func storedEvents(t *testing.T, data string, f store.EventFilter) []store.Event {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(data, "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(ctx, func(*store.Tx) error { return nil }); err != nil { // Begin folds the spool
		t.Fatal(err)
	}
	evs, err := db.Read().Events(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestLockedAndReadOnlyStore: a store another process holds locked, or one on
// a read-only directory, costs the memory but never the prompt.
func TestLockedAndReadOnlyStore(t *testing.T) {
	data := t.TempDir()
	prompt := func(id string) []byte {
		return []byte(`{"session_id":"s","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt_id":"` + id + `","prompt":"remember the ledger port 7443"}`)
	}
	validReply(t, runBinary(t, "user-prompt-submit", data, prompt("one")), "UserPromptSubmit")

	// Hold the write lock from another connection for longer than the hook's budget.
	lock, err := sql.Open("sqlite", "file:"+filepath.Join(data, "memory.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	conn, err := lock.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	// Without a spool the hook waits for the lock until its deadline, gives
	// up and logs it (checked below): the real budget, so as not to wait the
	// test's. With one, the hook must not wait at all, which the test's
	// budget shows as well (a wait for the lock would end in the store's
	// busy timeout and an error logged); the real budget, 1 s, would also
	// end a hook that a busy machine kept from running, and log that.
	var budget []string
	if !store.SpoolSupported {
		budget = []string{hook.BudgetEnv + "="}
	}
	r := runBinary(t, "user-prompt-submit", data, prompt("two"), budget...)
	validReply(t, r, "UserPromptSubmit")
	conn.ExecContext(context.Background(), "ROLLBACK")
	conn.Close()
	// The prompt hook only reads the database and spools what it stores, so
	// a lock costs it nothing; without a spool it waits, gives up and logs.
	log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
	if locked := bytes.Contains(log, []byte("level=ERROR")); locked == store.SpoolSupported {
		t.Errorf("spool %v, errors logged %v:\n%s", store.SpoolSupported, locked, log)
	}
	if store.SpoolSupported {
		if evs := storedEvents(t, data, store.EventFilter{Types: []string{store.TypeUserPrompt}}); len(evs) != 2 {
			t.Errorf("%d prompts stored after the lock, want 2: %+v", len(evs), evs)
		}
	}

	// Read-only data directory and file.
	if os.Geteuid() == 0 {
		t.Log("running as root: file modes do not stop writes; checking a read-only open instead")
	}
	os.Chmod(filepath.Join(data, "memory.db"), 0o400)
	os.Chmod(data, 0o500)
	defer os.Chmod(data, 0o700)
	validReply(t, runBinary(t, "user-prompt-submit", data, prompt("three")), "UserPromptSubmit")
	os.Chmod(data, 0o700)
	os.Chmod(filepath.Join(data, "memory.db"), 0o600)

	evs := storedEvents(t, data, store.EventFilter{Types: []string{store.TypeUserPrompt}})
	if len(evs) == 0 || evs[0].Text != "remember the ledger port 7443" {
		t.Fatalf("the first prompt was lost: %+v", evs)
	}
}

// TestConcurrentSessions runs many hook processes for different sessions at
// once and checks every event is stored exactly once.
func TestConcurrentSessions(t *testing.T) {
	sessions, turns := 8, 200
	if testing.Short() {
		turns = 20
	}
	data := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan string, sessions*turns)
	for s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range turns {
				in := fmt.Sprintf(`{"session_id":"sess-%d","cwd":"/proj/%d","hook_event_name":"UserPromptSubmit","prompt_id":"p-%d","prompt":"turn %d of session %d about ledger ports"}`, s, s%2, i, i, s)
				r := runBinary(t, "user-prompt-submit", data, []byte(in))
				if r.code != 0 || (r.stdout != "" && !gjson.Valid(r.stdout)) {
					errs <- fmt.Sprintf("session %d turn %d: exit %d stdout %q", s, i, r.code, r.stdout)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for s := range sessions {
		evs := storedEvents(t, data, store.EventFilter{SessionID: fmt.Sprintf("sess-%d", s), Types: []string{store.TypeUserPrompt}})
		if len(evs) != turns {
			t.Errorf("session %d: %d prompts stored, want %d", s, len(evs), turns)
		}
	}
	log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
	if bytes.Contains(log, []byte("level=ERROR")) {
		t.Errorf("errors under concurrency:\n%s", log)
	}
}

// TestToolCallSpooled checks that PostToolUse spools the tool call instead
// of opening the database, that the turn's Stop stores it, once, and that a
// spool it cannot write to sends it to the database directly.
func TestToolCallSpooled(t *testing.T) {
	if !store.SpoolSupported {
		t.Skip("no spool on this platform")
	}
	data := t.TempDir()
	in := func(event, extra string) []byte {
		return []byte(`{"session_id":"sp","cwd":"/p","transcript_path":"/nonexistent/sp.jsonl","hook_event_name":"` + event + `"` + extra + `}`)
	}
	tool := func(id string) []byte {
		return in("PostToolUse", `,"tool_name":"Bash","tool_input":{"command":"make test"},"tool_response":{"stdout":"ok `+id+`"},"tool_use_id":"`+id+`"`)
	}
	stored := func() map[string]int {
		t.Helper()
		db, err := store.Open(context.Background(), filepath.Join(data, "memory.db"), store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		evs, _ := db.Read().Events(context.Background(), store.EventFilter{})
		return countTypes(evs)
	}
	validReply(t, runBinary(t, "session-start", data, in("SessionStart", `,"source":"startup"`)), "SessionStart")
	validReply(t, runBinary(t, "post-tool-use", data, tool("t1")), "PostToolUse")
	validReply(t, runBinary(t, "post-tool-use", data, tool("t1")), "PostToolUse") // a retry
	if fi, err := os.Stat(filepath.Join(data, "memory.db-spool")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("spool: %v, %v; want a 0600 file", fi, err)
	}
	if n := stored()[store.TypeToolObservation]; n != 0 {
		t.Fatalf("%d tool observations in the database before Stop, want 0", n)
	}
	validReply(t, runBinary(t, "stop", data, in("Stop", `,"stop_hook_active":false,"last_assistant_message":"Done."`)), "Stop")
	if n := stored()[store.TypeToolObservation]; n != 1 {
		t.Errorf("%d tool observations after Stop, want 1", n)
	}

	// A directory where the spool goes: the call is stored directly.
	if err := os.Mkdir(filepath.Join(data, "memory.db-spool"), 0o700); err != nil {
		t.Fatal(err)
	}
	validReply(t, runBinary(t, "post-tool-use", data, tool("t2")), "PostToolUse")
	if n := stored()[store.TypeToolObservation]; n != 2 {
		t.Errorf("%d tool observations with no spool to write, want 2", n)
	}
	log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
	if !bytes.Contains(log, []byte("spool the tool call")) {
		t.Errorf("the fallback was not logged:\n%s", log)
	}
}

// TestBackgroundFailureStoredAsError: a background command's failure is in
// its response's status and exit code, not in the hook's event name; the
// observation stored says it failed, as an import of the transcript reads
// the same run.
func TestBackgroundFailureStoredAsError(t *testing.T) {
	data := t.TempDir()
	in := func(event, extra string) []byte {
		return []byte(`{"session_id":"bg","cwd":"/p","transcript_path":"/nonexistent/bg.jsonl","hook_event_name":"` + event + `"` + extra + `}`)
	}
	validReply(t, runBinary(t, "session-start", data, in("SessionStart", `,"source":"startup"`)), "SessionStart")
	for id, resp := range map[string]string{
		"t1": `{"shellId":"b1","command":"uvicorn app:main","status":"failed","exitCode":2,"stdout":"","stderr":"ImportError: zelkova"}`,
		"t2": `{"shellId":"b2","command":"npm test","status":"completed","exitCode":0,"stdout":"ok","stderr":""}`,
	} {
		validReply(t, runBinary(t, "post-tool-use", data, in("PostToolUse", `,"tool_name":"BashOutput","tool_input":{"bash_id":"b1"},"tool_response":`+resp+`,"tool_use_id":"`+id+`"`)), "PostToolUse")
	}
	validReply(t, runBinary(t, "stop", data, in("Stop", `,"stop_hook_active":false,"last_assistant_message":"Done."`)), "Stop")
	db, err := store.Open(context.Background(), filepath.Join(data, "memory.db"), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	evs, _ := db.Read().Events(context.Background(), store.EventFilter{})
	var failed, ok int
	for _, e := range evs {
		if e.Type != store.TypeToolObservation {
			continue
		}
		head, _, _ := strings.Cut(e.Text, "\n")
		switch {
		case strings.Contains(e.Text, "zelkova") && strings.Contains(head, "(error)"):
			failed++
		case strings.Contains(e.Text, "ok") && !strings.Contains(head, "(error)"):
			ok++
		}
	}
	if failed != 1 || ok != 1 {
		t.Errorf("stored %d failed and %d completed background runs as such, want 1 and 1: %v", failed, ok, evs)
	}
}

// TestSubagentToolCalls checks that PostToolUse keeps a sub-agent's file
// edits and leaves out its reads and runs (observation.BySubagentKept), as
// an import of the same session does.
func TestSubagentToolCalls(t *testing.T) {
	data := t.TempDir()
	in := func(event, extra string) []byte {
		return []byte(`{"session_id":"sa","cwd":"/p","transcript_path":"/nonexistent/sa.jsonl","hook_event_name":"` + event + `"` + extra + `}`)
	}
	call := func(id, tool, input, agent string) []byte {
		extra := `,"tool_name":"` + tool + `","tool_input":` + input + `,"tool_response":"done ` + id + `","tool_use_id":"` + id + `"`
		if agent != "" {
			extra += `,"agent_id":"` + agent + `","agent_type":"Explore"`
		}
		return in("PostToolUse", extra)
	}
	validReply(t, runBinary(t, "session-start", data, in("SessionStart", `,"source":"startup"`)), "SessionStart")
	for _, c := range [][]byte{
		call("t1", "Read", `{"file_path":"/p/main.go"}`, ""),                                       // the main agent's read: kept
		call("t2", "Read", `{"file_path":"/p/util.go"}`, "a1"),                                     // a sub-agent's read: left out
		call("t3", "Bash", `{"command":"go test ./..."}`, "a1"),                                    // a sub-agent's run: left out
		call("t4", "Edit", `{"file_path":"/p/docs.md","old_string":"v1","new_string":"v2"}`, "a1"), // a sub-agent's edit: kept
		// The main thread run as an agent (--agent) names its type, no id: kept.
		in("PostToolUse", `,"tool_name":"Read","tool_input":{"file_path":"/p/agent.go"},"tool_response":"x","tool_use_id":"t5","agent_type":"reviewer"`),
	} {
		validReply(t, runBinary(t, "post-tool-use", data, c), "PostToolUse")
	}
	validReply(t, runBinary(t, "stop", data, in("Stop", `,"stop_hook_active":false,"last_assistant_message":"Done."`)), "Stop")
	db, err := store.Open(context.Background(), filepath.Join(data, "memory.db"), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := storetest.ToolHeads(t, db)
	if want := []string{"Read: /p/main.go", "Edit: /p/docs.md", "Read: /p/agent.go"}; !slices.Equal(got, want) {
		t.Errorf("tool observations %q, want %q", got, want)
	}
}

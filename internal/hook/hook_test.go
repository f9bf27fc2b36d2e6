package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func testOptions(t *testing.T, budget time.Duration) (Options, string) {
	dir := t.TempDir()
	return Options{Name: "test", Budget: budget, Getenv: func(k string) string {
		if k == "CLAUDE_MEMORY_DIR" {
			return dir
		}
		return ""
	}}, dir
}

func echo(text string) Handler {
	return func(ctx context.Context, env *Env, ev *Event) (Reply, error) {
		return Reply{AdditionalContext: text}, nil
	}
}

func TestRunReplyShapes(t *testing.T) {
	for _, tt := range []struct {
		event string
		want  bool // a reply is written
	}{
		{"SessionStart", true},
		{"UserPromptSubmit", true},
		{"Stop", false}, // additionalContext would continue the turn
		{"PreCompact", false},
		{"SessionEnd", false},
		{"PostToolUse", false},
	} {
		t.Run(tt.event, func(t *testing.T) {
			opt, _ := testOptions(t, time.Second)
			var out, errb bytes.Buffer
			in := `{"session_id":"s","hook_event_name":"` + tt.event + `","new_field":{"x":1}}`
			if code := Run(strings.NewReader(in), &out, &errb, opt, echo("remembered")); code != 0 {
				t.Fatalf("exit %d", code)
			}
			if !tt.want {
				if out.Len() != 0 {
					t.Fatalf("stdout=%q, want nothing", out.String())
				}
				return
			}
			var got struct {
				HookSpecificOutput struct {
					HookEventName     string `json:"hookEventName"`
					AdditionalContext string `json:"additionalContext"`
				} `json:"hookSpecificOutput"`
			}
			dec := json.NewDecoder(&out)
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("stdout not JSON: %v", err)
			}
			if dec.More() {
				t.Fatal("more than one JSON object on stdout")
			}
			if got.HookSpecificOutput.HookEventName != tt.event || got.HookSpecificOutput.AdditionalContext != "remembered" {
				t.Fatalf("reply=%+v", got)
			}
		})
	}
}

// TestRunSystemMessage: a reply's system message is the top-level
// systemMessage field, alone or beside the context, on UserPromptSubmit; on
// Stop nothing is written.
func TestRunSystemMessage(t *testing.T) {
	for _, tt := range []struct {
		event string
		reply Reply
		want  string
	}{
		{"UserPromptSubmit", Reply{SystemMessage: "checked"}, `{"systemMessage":"checked"}`},
		{"UserPromptSubmit", Reply{AdditionalContext: "remembered", SystemMessage: "checked"},
			`{"systemMessage":"checked","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"remembered"}}`},
		{"Stop", Reply{SystemMessage: "checked"}, ""},
	} {
		opt, _ := testOptions(t, time.Second)
		var out, errb bytes.Buffer
		in := `{"session_id":"s","hook_event_name":"` + tt.event + `"}`
		Run(strings.NewReader(in), &out, &errb, opt, func(context.Context, *Env, *Event) (Reply, error) { return tt.reply, nil })
		if got := strings.TrimSpace(out.String()); got != tt.want {
			t.Errorf("%s %+v: stdout %s, want %s", tt.event, tt.reply, got, tt.want)
		}
	}
}

func TestRunBadInputExitsZeroAndLogs(t *testing.T) {
	for name, in := range map[string]string{
		"empty":      "",
		"not json":   "hello",
		"array":      `[1,2]`,
		"truncated":  `{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"abc`,
		"bad utf8":   "{\"session_id\":\"s\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"\xff\xfe\"}",
		"null bytes": "\x00\x00",
	} {
		t.Run(name, func(t *testing.T) {
			opt, dir := testOptions(t, time.Second)
			var out, errb bytes.Buffer
			called := false
			h := func(ctx context.Context, env *Env, ev *Event) (Reply, error) {
				called = true
				return Reply{}, errors.New("handler saw it")
			}
			if code := Run(strings.NewReader(in), &out, &errb, opt, h); code != 0 {
				t.Fatalf("exit %d", code)
			}
			if out.Len() != 0 {
				t.Fatalf("stdout=%q, want nothing", out.String())
			}
			log, _ := os.ReadFile(filepath.Join(dir, "claude-memory-layer.log"))
			if !strings.Contains(string(log), "level=ERROR") {
				t.Fatalf("no error logged; log=%q called=%v", log, called)
			}
			if fi, err := os.Stat(filepath.Join(dir, "claude-memory-layer.log")); err != nil || fi.Mode().Perm() != 0o600 {
				t.Fatalf("log file mode: %v %v", fi, err)
			}
		})
	}
}

// A malformed input is often a prompt cut short; its text never passed the
// privacy filter, so none of it may reach the log.
func TestRunBadInputNotLogged(t *testing.T) {
	t.Parallel()
	opt, dir := testOptions(t, time.Second)
	in := `{"prompt":"deploy with AKIAIOSFODNN7EXAMPLE now","session_id":"s"`
	var out, errb bytes.Buffer
	Run(strings.NewReader(in), &out, &errb, opt, echo("x"))
	log, _ := os.ReadFile(filepath.Join(dir, "claude-memory-layer.log"))
	if !strings.Contains(string(log), "truncated or malformed JSON object") {
		t.Errorf("log does not describe the input: %q", log)
	}
	if strings.Contains(string(log), "AKIA") || strings.Contains(string(log), "deploy") {
		t.Errorf("log quotes the input: %q", log)
	}
}

type failingWriter struct{ calls int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.calls++
	return 0, errors.New("no space left on device")
}

func (w *failingWriter) Close() error { return nil }

// On a full disk the log file opens but every write fails; the lines must
// then go to the fallback rather than nowhere.
func TestLogWriterFallsBack(t *testing.T) {
	t.Parallel()
	file := &failingWriter{}
	var fallback bytes.Buffer
	w := &logWriter{file: file, fallback: &fallback}
	w.Write([]byte("first\n"))
	w.Write([]byte("second\n"))
	got := fallback.String()
	if !strings.Contains(got, "no space left on device") || !strings.Contains(got, "first\n") || !strings.Contains(got, "second\n") {
		t.Errorf("fallback got %q", got)
	}
	if file.calls != 1 {
		t.Errorf("file written %d times after failing, want 1", file.calls)
	}
}

func TestRunRecoversPanic(t *testing.T) {
	t.Parallel()
	opt, dir := testOptions(t, time.Second)
	var out, errb bytes.Buffer
	code := Run(strings.NewReader(`{"hook_event_name":"UserPromptSubmit"}`), &out, &errb, opt,
		func(ctx context.Context, env *Env, ev *Event) (Reply, error) { panic("boom") })
	if code != 0 || out.Len() != 0 {
		t.Fatalf("code=%d stdout=%q", code, out.String())
	}
	log, _ := os.ReadFile(filepath.Join(dir, "claude-memory-layer.log"))
	if !strings.Contains(string(log), "boom") {
		t.Fatalf("panic not logged: %q", log)
	}
}

// TestRunDeadline: a handler that never returns costs the hook its reply,
// not its exit. The proof is structural, not a stopwatch: Run returns while
// the handler is still blocked (it can return only when the test ends), and
// the log says the deadline path was taken. Were the deadline not kept, Run
// would never return and go test's -timeout would report the hang.
func TestRunDeadline(t *testing.T) {
	opt, dir := testOptions(t, 50*time.Millisecond)
	var out, errb bytes.Buffer
	block := make(chan struct{})
	defer close(block)
	var returned atomic.Bool
	code := Run(strings.NewReader(`{"hook_event_name":"UserPromptSubmit"}`), &out, &errb, opt,
		func(ctx context.Context, env *Env, ev *Event) (Reply, error) {
			<-block // ignores ctx, like a stuck syscall
			returned.Store(true)
			return Reply{AdditionalContext: "late"}, nil
		})
	if code != 0 || out.Len() != 0 || returned.Load() {
		t.Fatalf("code=%d stdout=%q handler returned=%v", code, out.String(), returned.Load())
	}
	log, _ := os.ReadFile(filepath.Join(dir, "claude-memory-layer.log"))
	if !strings.Contains(string(log), "deadline exceeded") || !strings.Contains(string(log), "budget=50ms") {
		t.Fatalf("deadline path not logged: %q", log)
	}
	if !regexp.MustCompile(`cpu=[0-9.]+[mµn]?s\b`).Match(log) {
		t.Fatalf("deadline logged without the process's CPU time: %q", log)
	}
	if _, ok := cpuWait(); ok && !regexp.MustCompile(`cpu_wait=[0-9.]+[mµn]?s\b`).Match(log) {
		t.Fatalf("deadline logged without the time waited for a CPU: %q", log)
	}
}

// A handler that returns as its deadline passes (its calls cut short by
// ctx) may be seen either way by Run: replied late or not at all. Either
// way the deadline is logged once, with what tells a slow hook from a
// starved one, so the errors the handler logged on the way have a cause.
func TestRunDeadlineLoggedOnce(t *testing.T) {
	for i := range 20 {
		opt, dir := testOptions(t, 20*time.Millisecond)
		var out, errb bytes.Buffer
		Run(strings.NewReader(`{"hook_event_name":"UserPromptSubmit","session_id":"s"}`), &out, &errb, opt,
			func(ctx context.Context, env *Env, ev *Event) (Reply, error) {
				<-ctx.Done()
				return Reply{AdditionalContext: "late"}, ctx.Err()
			})
		log, _ := os.ReadFile(filepath.Join(dir, "claude-memory-layer.log"))
		if n := strings.Count(string(log), `msg="deadline exceeded;`); n != 1 || !strings.Contains(string(log), " cpu=") {
			t.Fatalf("run %d: %d deadline lines, want 1 with the CPU time: %s", i, n, log)
		}
	}
}

// cpuTime reads the process's CPU time, which work adds to.
func TestCPUTime(t *testing.T) {
	before, ok := cpuTime()
	if !ok {
		t.Fatal("no CPU time")
	}
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	after, ok := cpuTime()
	if !ok || after <= before || x == 0 {
		t.Fatalf("CPU time %v, then %v after a busy loop", before, after)
	}
}

// A handler left behind at the deadline may log on its way out after Run
// closed the log: the line is dropped, not written to stderr as if the log
// file had failed (the process is exiting; its reason is logged already).
func TestRunLateLogNotOnStderr(t *testing.T) {
	opt, dir := testOptions(t, 50*time.Millisecond)
	var out, errb bytes.Buffer
	release, logged := make(chan struct{}), make(chan struct{})
	Run(strings.NewReader(`{"hook_event_name":"UserPromptSubmit","session_id":"s"}`), &out, &errb, opt,
		func(ctx context.Context, env *Env, ev *Event) (Reply, error) {
			<-release
			env.Log.Error("store prompt", "err", ctx.Err())
			close(logged)
			return Reply{}, nil
		})
	close(release)
	<-logged
	if errb.Len() != 0 {
		t.Errorf("a line logged after the deadline reached stderr: %q", errb.String())
	}
	log, _ := os.ReadFile(filepath.Join(dir, "claude-memory-layer.log"))
	if !strings.Contains(string(log), "deadline exceeded") {
		t.Errorf("deadline not logged: %q", log)
	}
}

// The log may be closed while a handler left behind writes to it: under
// -race, the two must not touch the writer's state at once.
func TestLogWriterCloseWhileWriting(t *testing.T) {
	t.Parallel()
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	var fallback bytes.Buffer
	w := &logWriter{file: f, fallback: &fallback}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 1000 {
			w.Write([]byte("line\n"))
		}
	}()
	w.close()
	<-done
	if fallback.Len() != 0 {
		t.Errorf("a write after close reached the fallback: %q", fallback.String())
	}
}

// A stdin that is never closed must not keep the hook alive past its budget.
func TestRunStdinNeverClosed(t *testing.T) {
	t.Parallel()
	opt, _ := testOptions(t, 50*time.Millisecond)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	var out, errb bytes.Buffer
	if code := Run(r, &out, &errb, opt, echo("x")); code != 0 || out.Len() != 0 {
		t.Fatalf("code=%d stdout=%q", code, out.String())
	}
}

func TestRunDisabled(t *testing.T) {
	opt, _ := testOptions(t, time.Second)
	get := opt.Getenv
	opt.Getenv = func(k string) string {
		if k == "CLAUDE_MEMORY_DISABLE" {
			return "1"
		}
		return get(k)
	}
	var out, errb bytes.Buffer
	called := false
	Run(strings.NewReader(`{"hook_event_name":"UserPromptSubmit"}`), &out, &errb, opt,
		func(ctx context.Context, env *Env, ev *Event) (Reply, error) { called = true; return Reply{}, nil })
	if called || out.Len() != 0 {
		t.Fatalf("disabled hook ran: called=%v out=%q", called, out.String())
	}
}

func TestRunOversizedReplyDropped(t *testing.T) {
	t.Parallel()
	opt, _ := testOptions(t, time.Second)
	var out, errb bytes.Buffer
	Run(strings.NewReader(`{"hook_event_name":"UserPromptSubmit"}`), &out, &errb, opt, echo(strings.Repeat("é", MaxContext+1)))
	if out.Len() != 0 {
		t.Fatalf("reply over %d characters was written", MaxContext)
	}
	out.Reset()
	Run(strings.NewReader(`{"hook_event_name":"UserPromptSubmit"}`), &out, &errb, opt, echo(strings.Repeat("é", MaxContext)))
	if out.Len() == 0 {
		t.Fatalf("reply of exactly %d characters was dropped", MaxContext)
	}
}

func TestRunMissingDataDir(t *testing.T) {
	// The data directory cannot be created (its parent is a file): the hook
	// still exits 0, logs to stderr, and writes nothing to stdout.
	parent := filepath.Join(t.TempDir(), "file")
	os.WriteFile(parent, nil, 0o600)
	opt := Options{Name: "t", Budget: time.Second, Getenv: func(k string) string {
		if k == "CLAUDE_MEMORY_DIR" {
			return filepath.Join(parent, "data")
		}
		return ""
	}}
	var out, errb bytes.Buffer
	if code := Run(strings.NewReader(`{"hook_event_name":"Stop"}`), &out, &errb, opt, echo("x")); code != 0 || out.Len() != 0 {
		t.Fatalf("code=%d out=%q", code, out.String())
	}
	if !strings.Contains(errb.String(), "log file unavailable") {
		t.Fatalf("stderr=%q", errb.String())
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{``, `{}`, `[]`, `null`, `{"hook_event_name":"Stop","session_id":1}`, "{\"prompt\":\"\xff\"}", `{"a":{"b":[1,2,{"c":"d"}]}}`} {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("../../testdata/claude-code/*.json")
	if len(files) == 0 {
		f.Fatal("no hook input fixtures in testdata/claude-code")
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		ev, err := Decode(in)
		if err != nil {
			return
		}
		_ = ev.Get("tool_input.file_path").String()
		var out bytes.Buffer
		if err := writeReply(&out, ev.Name, Reply{AdditionalContext: ev.SessionID}); err != nil {
			return
		}
		if out.Len() > 0 && !json.Valid(out.Bytes()) {
			t.Fatalf("reply not valid JSON: %q", out.String())
		}
	})
}

// TestRunBudgetFromEnvironment: CLAUDE_MEMORY_HOOK_BUDGET replaces the
// hook's budget (tests run the real binaries with a generous one on a busy
// machine); a value that is not a positive duration keeps the default and
// says so in the log.
func TestRunBudgetFromEnvironment(t *testing.T) {
	for _, tt := range []struct {
		value   string
		want    time.Duration
		warning bool
	}{
		{"", time.Second, false},
		{"1h", time.Hour, false},
		{"soon", time.Second, true},
		{"-5s", time.Second, true},
	} {
		opt, dir := testOptions(t, time.Second)
		get := opt.Getenv
		opt.Getenv = func(k string) string {
			if k == BudgetEnv {
				return tt.value
			}
			return get(k)
		}
		var deadline time.Time
		start := time.Now()
		Run(strings.NewReader(`{"hook_event_name":"UserPromptSubmit"}`), io.Discard, io.Discard, opt,
			func(ctx context.Context, env *Env, ev *Event) (Reply, error) {
				deadline = env.Deadline
				return Reply{}, nil
			})
		// The deadline is start + budget, taken between start and the
		// handler's call: bounded on both sides by the budget alone.
		if got := deadline.Sub(start); got < tt.want || got > tt.want+time.Since(start) {
			t.Errorf("%s=%q: deadline %v after start, want %v", BudgetEnv, tt.value, got, tt.want)
		}
		log, _ := os.ReadFile(filepath.Join(dir, "claude-memory-layer.log"))
		if warned := strings.Contains(string(log), BudgetEnv); warned != tt.warning {
			t.Errorf("%s=%q: warning logged %v, want %v: %s", BudgetEnv, tt.value, warned, tt.warning, log)
		}
	}
}

// A hook's GC setting is the process's GOGC unless the environment sets one.
func TestTune(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	none := func(string) string { return "" }
	set := func(k string) string { return map[string]string{"GOGC": "150"}[k] }
	for _, tt := range []struct {
		gc     int
		getenv func(string) string
		want   int
	}{
		{0, none, 100},
		{400, set, 100},
		{400, none, 400},
	} {
		debug.SetGCPercent(100)
		tune(Options{GC: tt.gc}, tt.getenv)
		if got := debug.SetGCPercent(100); got != tt.want {
			t.Errorf("GC %d: GOGC %d, want %d", tt.gc, got, tt.want)
		}
	}
}

func TestTuneMemory(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	none := func(string) string { return "" }
	set := func(k string) string { return map[string]string{"GOMEMLIMIT": "64MiB"}[k] }
	for _, tt := range []struct {
		memory int64
		getenv func(string) string
		want   int64
	}{
		{0, none, math.MaxInt64},
		{12 << 20, set, math.MaxInt64}, // GOMEMLIMIT set: left as it was
		{12 << 20, none, 12 << 20},
	} {
		debug.SetMemoryLimit(math.MaxInt64)
		tune(Options{Memory: tt.memory}, tt.getenv)
		if got := debug.SetMemoryLimit(-1); got != tt.want {
			t.Errorf("Memory %d: limit %d, want %d", tt.memory, got, tt.want)
		}
	}
}

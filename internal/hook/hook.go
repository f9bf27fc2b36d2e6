// Package hook runs one Claude Code hook invocation: read the event, call a handler under a deadline, write at most one reply, exit 0.
package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/jsondepth"
	"github.com/tidwall/gjson"
)

// MaxInput caps the bytes read from stdin. A 10 MB prompt fits; anything larger
// is not a hook event we can use, and reading it would only cost time.
const MaxInput = 64 << 20

// MaxContext is Claude Code's cap on additionalContext, in characters. Longer text
// is moved to a file and only previewed, so a reply above it is dropped instead.
const MaxContext = 10_000

// Event is one hook invocation's input. Fields are read leniently: a missing
// field is empty, unknown fields are ignored.
type Event struct {
	Raw            []byte
	Name           string // hook_event_name
	SessionID      string
	TranscriptPath string
	Cwd            string
	PromptID       string
}

// Get returns the field at a gjson path of the raw input.
func (e *Event) Get(path string) gjson.Result { return gjson.GetBytes(e.Raw, path) }

// ErrBadInput is returned by Decode for input that is not a JSON object.
var ErrBadInput = errors.New("hook input is not a JSON object")

// Decode parses a hook's stdin. Invalid UTF-8 inside strings is tolerated
// (gjson passes it through; callers sanitise text they store). Input nested
// deeper than jsondepth.Max is refused before gjson, which recurses, sees it.
func Decode(in []byte) (*Event, error) {
	if !jsondepth.Within(in, jsondepth.Max) {
		return nil, fmt.Errorf("decode %d bytes: nested deeper than %d: %w", len(in), jsondepth.Max, ErrBadInput)
	}
	if !gjson.ValidBytes(in) {
		return nil, fmt.Errorf("decode %d bytes: %w", len(in), ErrBadInput)
	}
	r := gjson.ParseBytes(in)
	if !r.IsObject() {
		return nil, fmt.Errorf("decode: %w", ErrBadInput)
	}
	return &Event{
		Raw:            in,
		Name:           r.Get("hook_event_name").String(),
		SessionID:      r.Get("session_id").String(),
		TranscriptPath: r.Get("transcript_path").String(),
		Cwd:            r.Get("cwd").String(),
		PromptID:       r.Get("prompt_id").String(),
	}, nil
}

// Reply is what a handler wants to tell Claude. Only SessionStart and
// UserPromptSubmit replies are ever written: on Stop additionalContext would
// continue the turn, and PreCompact and SessionEnd reject hookSpecificOutput.
type Reply struct {
	AdditionalContext string
	// SystemMessage is shown to the user, not to Claude: one line of the
	// plugin's own news, such as the last answer's self-check.
	SystemMessage string
}

// Env is what a handler gets besides the event.
type Env struct {
	Config config.Config
	Log    *slog.Logger
	Now    func() time.Time
	// Deadline is when the hook must be done; handlers size lock waits by it.
	Deadline time.Time
}

// Handler handles one event. Its error is logged; it never changes the exit code.
type Handler func(ctx context.Context, env *Env, ev *Event) (Reply, error)

// Options configure Run.
type Options struct {
	Name   string        // binary name, for the log
	Budget time.Duration // internal deadline, well under the timeout in hooks.json
	Getenv func(string) string
	Now    func() time.Time
	// GC, when not 0, is the garbage collector's GOGC for the process
	// (Main sets it unless GOGC is set): a hook that allocates much and
	// keeps little collects less often at a larger one.
	GC int
	// Memory, when not 0, is the process's soft memory limit in bytes
	// (Main sets it unless GOMEMLIMIT is set): at a large GOGC the heap of
	// a hook that allocates much before it first collects grows to all it
	// allocated; the limit makes the collector run before that.
	Memory int64
}

// replyable lists the events whose reply may carry additionalContext.
var replyable = map[string]bool{"SessionStart": true, "UserPromptSubmit": true}

// Main is a hook binary's main: Run on the process's own stdin, stdout and
// stderr, exiting with its code. A hook's work is one goroutine's (SQLite's
// included); with one P the runtime wakes no other threads to run the few
// goroutines around it: the prompt hook 13.8 → 13.1 ms at 10k messages,
// 16.9 → 16.2 at 100k (bench.sh -compare, 2 cores), the others unchanged.
// Set here, not through the environment, which the worker SessionEnd
// starts would inherit.
func Main(opt Options, h Handler) {
	runtime.GOMAXPROCS(1)
	tune(opt, os.Getenv)
	os.Exit(Run(os.Stdin, os.Stdout, os.Stderr, opt, h))
}

// tune sets opt.GC and opt.Memory for the process unless the environment
// sets GOGC or GOMEMLIMIT.
func tune(opt Options, getenv func(string) string) {
	if opt.GC != 0 && getenv("GOGC") == "" {
		debug.SetGCPercent(opt.GC)
	}
	if opt.Memory != 0 && getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(opt.Memory)
	}
}

// Run is a hook binary's work (Main runs it). It reads one event from stdin,
// runs h under opt.Budget, writes at most one JSON object to stdout and returns
// 0, whatever happens: a failing hook loses a memory, never the user's prompt.
// Diagnostics go to the log file in the data directory (stderr if that fails).
func Run(stdin io.Reader, stdout, stderr io.Writer, opt Options, h Handler) (code int) {
	start := time.Now()
	// A write to stdout or stderr after the reader went away would kill the
	// process with SIGPIPE (Go's default for fds 1 and 2), an exit no
	// recover sees; ignored, the write returns EPIPE and is logged. Run is
	// the process's entry point, so the process-wide setting is its own.
	signal.Ignore(syscall.SIGPIPE)
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	budget, budgetErr := Budget(opt.Getenv, opt.Budget)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	deadline, _ := ctx.Deadline()

	log := slog.New(slog.NewTextHandler(stderr, nil))
	defer func() {
		// Last line of defence: nothing in here may turn into exit code 2.
		if r := recover(); r != nil {
			log.Error("panic", "hook", opt.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		}
		code = 0
	}()

	cfg, cfgErr := config.Load(opt.Getenv)
	var closeLog func()
	if cfgErr == nil {
		log, closeLog = OpenLog(cfg, stderr)
		defer closeLog()
	}
	log = log.With("hook", opt.Name)
	for _, w := range cfg.Warnings {
		log.Warn("config", "warning", w)
	}
	if budgetErr != nil {
		log.Warn("config", "warning", budgetErr.Error())
	}

	in, err := readInput(ctx, stdin)
	if err != nil {
		log.Error("read stdin", "err", err)
		return 0
	}
	if cfgErr != nil {
		log.Error("config", "err", cfgErr)
		return 0
	}
	if cfg.Disabled {
		return 0
	}
	ev, err := Decode(in)
	if err != nil {
		// No bytes of the input in the log: it may be a prompt with secrets
		// that the privacy filter never saw.
		log.Error("decode", "err", err, "bytes", len(in), "shape", shape(in))
		return 0
	}
	log = log.With("event", ev.Name, "session", ev.SessionID)
	env := &Env{Config: cfg, Log: log, Now: opt.Now, Deadline: deadline}

	type result struct {
		reply Reply
		err   error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("panic: %v\n%s", r, debug.Stack())}
			}
		}()
		growStack(0)
		rep, err := h(ctx, env, ev)
		done <- result{rep, err}
	}()
	var res result
	select {
	case res = <-done:
		if ctx.Err() != nil {
			// What the handler logged of its calls cut short follows from
			// this line, which says why.
			log.Error("deadline exceeded; replying late", deadlineArgs(budget)...)
		}
	case <-ctx.Done():
		// The handler may be stuck in a call that ignores ctx; we leave it behind.
		// Returning exits the process, which ends it.
		log.Error("deadline exceeded; no reply", deadlineArgs(budget)...)
		return 0
	}
	if res.err != nil {
		log.Error("handler", "err", res.err, "elapsed", time.Since(start))
	}
	if err := writeReply(stdout, ev.Name, res.reply); err != nil {
		log.Error("write reply", "err", err)
	}
	if opt.Getenv("CLAUDE_MEMORY_DEBUG") != "" {
		log.Info("done", "elapsed", time.Since(start), "context_chars", utf8.RuneCountInString(res.reply.AdditionalContext))
	}
	return 0
}

// deadlineArgs are the log attributes of a deadline passed: the budget, the
// process's CPU time (its start and its runtime's threads included), which
// tells a slow hook, near the budget, from one that waited, and the time it
// waited for a CPU (Linux), which tells a busy machine from a lock or a disk.
func deadlineArgs(budget time.Duration) []any {
	args := []any{"budget", budget}
	if cpu, ok := cpuTime(); ok {
		args = append(args, "cpu", cpu.Round(time.Millisecond))
	}
	if w, ok := cpuWait(); ok {
		args = append(args, "cpu_wait", w.Round(time.Millisecond))
	}
	return args
}

// BudgetEnv names the environment variable that replaces every hook's
// internal deadline (a Go duration: "30s"). It is for tests that run the
// real binaries on a busy machine, where a hook's work can take longer than
// its budget and the test would then measure the machine instead of the
// hook. Claude Code's own timeout in hooks.json still applies.
const BudgetEnv = "CLAUDE_MEMORY_HOOK_BUDGET"

// Budget returns the hook's internal deadline: BudgetEnv's if it is set
// to a positive duration, else def (and an error saying why when it is set
// to anything else).
func Budget(getenv func(string) string, def time.Duration) (time.Duration, error) {
	v := getenv(BudgetEnv)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return def, fmt.Errorf("%s=%q is not a positive duration such as 30s; using %v", BudgetEnv, v, def)
	}
	return d, nil
}

// readInput reads stdin up to MaxInput and drains the rest, so Claude Code
// never sees a closed pipe; it gives up at the deadline.
func readInput(ctx context.Context, stdin io.Reader) ([]byte, error) {
	type read struct {
		b   []byte
		err error
	}
	ch := make(chan read, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(stdin, MaxInput+1))
		if err == nil && len(b) > MaxInput {
			io.Copy(io.Discard, stdin)
			err = fmt.Errorf("input larger than %d bytes", MaxInput)
		}
		ch <- read{b, err}
	}()
	select {
	case r := <-ch:
		return r.b, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("stdin not closed before the deadline: %w", ctx.Err())
	}
}

func writeReply(w io.Writer, event string, r Reply) error {
	if !replyable[event] || r.AdditionalContext == "" && r.SystemMessage == "" {
		return nil
	}
	for _, t := range []string{r.AdditionalContext, r.SystemMessage} {
		if n := utf8.RuneCountInString(t); n > MaxContext {
			return fmt.Errorf("reply of %d characters is over Claude Code's %d cap: dropped", n, MaxContext)
		}
	}
	type specific struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	}
	out := struct {
		SystemMessage      string    `json:"systemMessage,omitempty"`
		HookSpecificOutput *specific `json:"hookSpecificOutput,omitempty"`
	}{SystemMessage: r.SystemMessage}
	if r.AdditionalContext != "" {
		out.HookSpecificOutput = &specific{event, r.AdditionalContext}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// shape describes undecodable input without quoting it: where it broke off
// and how it starts, which is enough to tell a truncated object from text.
func shape(b []byte) string {
	t := bytes.TrimSpace(b)
	switch {
	case len(t) == 0:
		return "empty"
	case !jsondepth.Within(t, jsondepth.Max):
		return "nested too deep"
	case t[0] == '{' && !gjson.ValidBytes(t):
		return "truncated or malformed JSON object"
	case t[0] == '{':
		return "JSON object"
	case t[0] == '[':
		return "JSON array"
	case !utf8.Valid(t):
		return "not UTF-8"
	}
	return "not JSON"
}

// handlerStack is the stack a handler's goroutine is given before it
// starts. A goroutine starts with a few KB and doubles its stack whenever
// a call needs more, copying it and fixing every frame on it; SQLite's
// statements run deep, so a prompt's handler grew its stack a few times
// in the middle of a query, at a cost that grows with the frames copied
// (perf: 1.8 % of a prompt hook process in newstack, 0.6 % with this).
// Grown here, the copy holds two frames.
const handlerStack = 32 << 10

// growStack grows the calling goroutine's stack to at least handlerStack
// bytes: its frame is that large. i is 0; it makes the frame's use one the
// compiler cannot drop.
//
//go:noinline
func growStack(i int) byte {
	var b [handlerStack]byte
	b[i] = 1
	return b[(i+1)%len(b)]
}

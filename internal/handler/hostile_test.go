package handler

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline/workertest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// hostile is one input a hook must survive: exit 0, at most one JSON
// object on stdout.
type hostile struct {
	name  string
	hooks []string // binaries to run it through; nil means all five
	// input returns the hook's stdin; dir is a fresh directory for files the
	// case needs, data the data directory the hook will use.
	input func(t *testing.T, dir, data string) []byte
	env   []string // added to the hook's environment
}

var hookNames = []string{"session-start", "user-prompt-submit", "post-tool-use", "stop", "session-end"}

// eventOf is the hook event each binary is run for here.
var eventOf = map[string]string{"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit",
	"post-tool-use": "PostToolUse", "stop": "Stop", "session-end": "SessionEnd"}

// event renders a hook input for bin with the given fields over defaults.
func event(bin string, fields map[string]any) []byte {
	m := map[string]any{"session_id": "hostile", "cwd": "/tmp", "hook_event_name": eventOf[bin],
		"prompt": "hello", "prompt_id": "p1", "tool_name": "Bash", "tool_input": map[string]any{"command": "ls"},
		"tool_response": map[string]any{"stdout": "ok"}, "last_assistant_message": "done", "reason": "other", "source": "startup"}
	for k, v := range fields {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}

// withTranscript is a case whose transcript_path is what path returns.
func withTranscript(name string, path func(t *testing.T, dir string) string) hostile {
	return hostile{name: name, input: func(t *testing.T, dir, _ string) []byte {
		return []byte(`{"session_id":"hostile","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi","transcript_path":` +
			quote(path(t, dir)) + `,"last_assistant_message":"done","reason":"other"}`)
	}}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func deep(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// hostileCases are the attacks of the hardening review and the next ones
// along: nesting, paths that are not files, files that never end or keep
// growing, bytes that are not text, stores that are not files.
func hostileCases() []hostile {
	return []hostile{
		{name: "10M levels of nesting (20 MB)", input: func(*testing.T, string, string) []byte {
			return []byte(`{"session_id":"hostile","hook_event_name":"%EVENT%","cwd":"/tmp","prompt":` + deep(10_000_000) + `}`)
		}},
		{name: "nesting at the limit", input: func(*testing.T, string, string) []byte {
			return []byte(`{"session_id":"hostile","hook_event_name":"%EVENT%","cwd":"/tmp","prompt":"x","tool_input":` + deep(9_999) + `}`)
		}},
		withTranscript("transcript /dev/zero", func(*testing.T, string) string { return "/dev/zero" }),
		withTranscript("transcript /dev/urandom", func(*testing.T, string) string { return "/dev/urandom" }),
		withTranscript("transcript FIFO without writer", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
			return p
		}),
		withTranscript("transcript socket", func(t *testing.T, dir string) string {
			// Short path: unix socket names are limited to about 100 bytes.
			f, err := os.CreateTemp("", "s")
			if err != nil {
				t.Fatal(err)
			}
			p := f.Name()
			f.Close()
			os.Remove(p)
			l, err := net.Listen("unix", p)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close(); os.Remove(p) })
			return p
		}),
		withTranscript("transcript is a directory", func(_ *testing.T, dir string) string { return dir }),
		withTranscript("transcript symlink loop", func(_ *testing.T, dir string) string {
			p := filepath.Join(dir, "loop")
			os.Symlink(p, p)
			return p
		}),
		withTranscript("transcript 2 GB sparse, no newline", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "sparse.jsonl")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			f.Truncate(2 << 30)
			f.Close()
			return p
		}),
		withTranscript("transcript row nested 1M levels", func(_ *testing.T, dir string) string {
			p := filepath.Join(dir, "deep.jsonl")
			os.WriteFile(p, []byte(`{"type":"user","uuid":"u","message":{"role":"user","content":`+deep(1_000_000)+"}}\n"), 0o600)
			return p
		}),
		withTranscript("transcript of NULs and invalid UTF-8", func(_ *testing.T, dir string) string {
			p := filepath.Join(dir, "bytes.jsonl")
			row := "{\"type\":\"user\",\"uuid\":\"u\x00\xff\",\"promptId\":\"\xfe\",\"message\":{\"role\":\"user\",\"content\":\"caf\xe9 \x00\x00 \xed\xa0\x80 ok\"}}\n"
			os.WriteFile(p, []byte("\x00\x00\xff\n"+row+strings.Repeat("\x00", 1<<16)+"\n"), 0o600)
			return p
		}),
		withTranscript("transcript growing while read", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "growing.jsonl")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			row := []byte(`{"type":"user","uuid":"u","promptId":"p","message":{"role":"user","content":"` + strings.Repeat("grow ", 200) + `"}}` + "\n")
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					f.Write(row)
				}
			}()
			t.Cleanup(func() { close(stop); <-done; f.Close() })
			return p
		}),
		withTranscript("transcript of 5M empty objects", func(_ *testing.T, dir string) string {
			p := filepath.Join(dir, "tiny.jsonl")
			os.WriteFile(p, []byte(strings.Repeat("{}\n", 5_000_000)), 0o600)
			return p
		}),
		withTranscript("transcript row with a 20 MB prompt", func(_ *testing.T, dir string) string {
			p := filepath.Join(dir, "big-row.jsonl")
			os.WriteFile(p, []byte(`{"type":"user","uuid":"u","promptId":"p","message":{"role":"user","content":"`+strings.Repeat("a long line ", 20<<20/12)+`"}}`+"\n"), 0o600)
			return p
		}),
		withTranscript("transcript is /proc/self/mem", func(*testing.T, string) string { return "/proc/self/mem" }),
		withTranscript("transcript path with NUL", func(_ *testing.T, dir string) string { return dir + "/a\x00b.jsonl" }),
		{name: "NUL and invalid UTF-8 in every field", input: func(*testing.T, string, string) []byte {
			bad := "a\x00b\xff\xfe\xed\xa0\x80c"
			return []byte(strings.NewReplacer("BAD", bad).Replace(
				`{"session_id":"BAD","cwd":"/tmp/BAD","hook_event_name":"%EVENT%","prompt":"BAD","prompt_id":"BAD",` +
					`"transcript_path":"/tmp/BAD","tool_name":"BAD","tool_use_id":"BAD","tool_input":{"BAD":"BAD"},` +
					`"tool_response":"BAD","last_assistant_message":"BAD","reason":"BAD","source":"BAD","model":"BAD"}`))
		}},
		{name: "escaped NUL and lone surrogates in every field", input: func(*testing.T, string, string) []byte {
			bad := `a\u0000b\ud800\udfffc\u0000`
			return []byte(strings.NewReplacer("BAD", bad).Replace(
				`{"session_id":"BAD","cwd":"/tmp/BAD","hook_event_name":"%EVENT%","prompt":"BAD","prompt_id":"BAD",` +
					`"transcript_path":"/tmp/BAD","tool_name":"BAD","tool_use_id":"BAD","tool_input":{"BAD":"BAD"},` +
					`"tool_response":"BAD","last_assistant_message":"BAD","reason":"BAD","source":"BAD"}`))
		}},
		{name: "fields of the wrong type", input: func(*testing.T, string, string) []byte {
			return []byte(`{"session_id":12,"cwd":["/tmp"],"hook_event_name":"%EVENT%","prompt":{"a":1},"prompt_id":null,` +
				`"transcript_path":true,"tool_name":[],"tool_input":"x","tool_response":7,"last_assistant_message":{}}`)
		}},
		{name: "session_id with path traversal", input: func(*testing.T, string, string) []byte {
			return []byte(`{"session_id":"../../../../etc/passwd","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi","transcript_path":"../../../../etc/passwd"}`)
		}},
		{name: "cwd whose .git is /dev/zero", input: func(t *testing.T, dir, _ string) []byte {
			os.Symlink("/dev/zero", filepath.Join(dir, ".git"))
			return []byte(`{"session_id":"hostile","cwd":` + quote(dir) + `,"hook_event_name":"%EVENT%","prompt":"hi"}`)
		}},
		{name: "cwd whose .git is a FIFO", input: func(t *testing.T, dir, _ string) []byte {
			syscall.Mkfifo(filepath.Join(dir, ".git"), 0o600)
			return []byte(`{"session_id":"hostile","cwd":` + quote(dir) + `,"hook_event_name":"%EVENT%","prompt":"hi"}`)
		}},
		{name: "cwd is /dev/zero", input: func(*testing.T, string, string) []byte {
			return []byte(`{"session_id":"hostile","cwd":"/dev/zero","hook_event_name":"%EVENT%","prompt":"hi"}`)
		}},
		{name: "store file is a directory", input: func(t *testing.T, _, data string) []byte {
			os.MkdirAll(filepath.Join(data, "memory.db"), 0o700)
			return []byte(`{"session_id":"hostile","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi"}`)
		}},
		{name: "store file is /dev/zero", input: func(t *testing.T, _, data string) []byte {
			os.MkdirAll(data, 0o700)
			os.Symlink("/dev/zero", filepath.Join(data, "memory.db"))
			return []byte(`{"session_id":"hostile","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi"}`)
		}},
		{name: "store file is garbage", input: func(t *testing.T, _, data string) []byte {
			os.MkdirAll(data, 0o700)
			os.WriteFile(filepath.Join(data, "memory.db"), []byte(strings.Repeat("not a database ", 1000)), 0o600)
			return []byte(`{"session_id":"hostile","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi"}`)
		}},
		{name: "log file is a directory", input: func(t *testing.T, _, data string) []byte {
			os.MkdirAll(filepath.Join(data, "claude-memory-layer.log"), 0o700)
			return []byte(`{"session_id":"hostile","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi"}`)
		}},
		{name: "config.json is /dev/zero", input: dataFile("config.json", "/dev/zero")},
		{name: "config.json is a FIFO", input: dataFile("config.json", "fifo")},
		{name: "config.json nested 1M levels", input: func(t *testing.T, _, data string) []byte {
			os.MkdirAll(data, 0o700)
			os.WriteFile(filepath.Join(data, "config.json"), []byte(`{"extractor":`+deep(1_000_000)+`}`), 0o600)
			return []byte(`{"session_id":"hostile","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi"}`)
		}},
		{name: "log file is a FIFO", input: dataFile("claude-memory-layer.log", "fifo")},
		{name: "log file is /dev/full", input: dataFile("claude-memory-layer.log", "/dev/full")},
		{name: "store file is a FIFO", input: dataFile("memory.db", "fifo")},
		{name: "store WAL is a directory", input: func(t *testing.T, _, data string) []byte {
			os.MkdirAll(filepath.Join(data, "memory.db-wal"), 0o700)
			return []byte(`{"session_id":"hostile","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi"}`)
		}},
		{name: "data directory is a file", input: func(t *testing.T, _, data string) []byte {
			os.WriteFile(data, []byte("x"), 0o600)
			return []byte(`{"session_id":"hostile","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi"}`)
		}},
		{name: "environment: bogus settings", env: []string{"CLAUDE_MEMORY_EXTRACTOR=\xffbogus", "CLAUDE_MEMORY_LLM_BASE_URL=http://127.0.0.1:1",
			"CLAUDE_MEMORY_DEBUG=1", "CLAUDE_MEMORY_RECALL_LIMIT=-99999999999999999999"}, input: func(*testing.T, string, string) []byte {
			return []byte(`{"session_id":"hostile","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi","transcript_path":"/nonexistent"}`)
		}},
		{name: "stdin over the 64 MB cap", input: func(*testing.T, string, string) []byte {
			return []byte(`{"session_id":"hostile","hook_event_name":"%EVENT%","prompt":"` + strings.Repeat("x", 65<<20) + `"}`)
		}},
		{name: "100,000 keys", input: func(*testing.T, string, string) []byte {
			var b strings.Builder
			b.WriteString(`{"session_id":"hostile","hook_event_name":"%EVENT%","cwd":"/tmp"`)
			for i := range 100_000 {
				fmt.Fprintf(&b, `,"k%d":%d`, i, i)
			}
			b.WriteString(`,"prompt":"last"}`)
			return []byte(b.String())
		}},
		{name: "truncated mid-string", input: func(*testing.T, string, string) []byte {
			return []byte(`{"session_id":"hostile","hook_event_name":"%EVENT%","prompt":"unterminated \`)
		}},
	}
}

// dataFile is a case whose data directory holds name as target: a path
// (a device), or "fifo" for a FIFO nobody writes or reads.
func dataFile(name, target string) func(t *testing.T, dir, data string) []byte {
	return func(t *testing.T, _, data string) []byte {
		os.MkdirAll(data, 0o700)
		p := filepath.Join(data, name)
		if target == "fifo" {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return []byte(`{"session_id":"hostile","cwd":"/tmp","hook_event_name":"%EVENT%","prompt":"hi"}`)
	}
}

// hostileRow is one line of the table TestHostileInputs prints.
type hostileRow struct {
	hook, name string
	code       int
	took       time.Duration
}

// TestHostileInputs runs every hostile case through every hook binary built
// from cmd/ and requires exit 0 and at most one JSON object on stdout. It
// prints the table scripts/hostile.sh reports: cases, exit codes, wall time.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the hook binaries about 150 times")
	}
	var rows []hostileRow
	for _, c := range hostileCases() {
		hooks := c.hooks
		if hooks == nil {
			hooks = hookNames
		}
		for _, bin := range hooks {
			t.Run(bin+"/"+c.name, func(t *testing.T) {
				data := filepath.Join(t.TempDir(), "data")
				// SessionEnd may hand the rest to the detached worker, which
				// writes into data after the hook exits: the temporary
				// directory goes only once it is done (cleanups run last
				// registered first).
				t.Cleanup(func() { waitForWorker(data) })
				in := c.input(t, t.TempDir(), data)
				in = []byte(strings.Replace(string(in), "%EVENT%", eventOf[bin], 1))
				// The hook's real budget: some of these (a FIFO for a
				// file) hold a hook until its deadline, which is the point;
				// what is checked (exit 0, one JSON object or nothing)
				// holds however fast the machine is.
				r := runBinary(t, bin, data, in, append([]string{hook.BudgetEnv + "="}, c.env...)...)
				rows = append(rows, hostileRow{bin, c.name, r.code, r.took})
				validReply(t, r, eventOf[bin])
			})
		}
	}
	printHostileTable(t, rows)
}

func printHostileTable(t *testing.T, rows []hostileRow) {
	worst := map[string]time.Duration{}
	codes := map[int]int{}
	cases := map[string]bool{}
	for _, r := range rows {
		worst[r.hook] = max(worst[r.hook], r.took)
		codes[r.code]++
		cases[r.name] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-20s %-45s %4s %9s\n", "hook", "case", "exit", "wall")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-20s %-45s %4d %8.0fms\n", r.hook, r.name, r.code, float64(r.took.Microseconds())/1000)
	}
	fmt.Fprintf(&b, "\n%d cases, %d runs; exit codes:", len(cases), len(rows))
	var cs []int
	for c := range codes {
		cs = append(cs, c)
	}
	sort.Ints(cs)
	for _, c := range cs {
		fmt.Fprintf(&b, " %d×%d", codes[c], c)
	}
	b.WriteString("\nmax wall time per hook:")
	for _, h := range hookNames {
		fmt.Fprintf(&b, " %s %.0fms;", h, float64(worst[h].Microseconds())/1000)
	}
	t.Log(b.String())
}

// TestSessionEndStoresBigTranscriptInSteps: a never-ingested transcript far
// larger than what SessionEnd can store in its budget loses nothing. The
// hook stores what fits, records the end and hands the rest to the worker
// (one far larger than its budget, all of it, first thing: on a busy machine
// the hook's budget held no step before its end mark); before, it stored none
// of it (one transaction that ran out of time), made no end mark and started
// no worker.
func TestSessionEndStoresBigTranscriptInSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and ingests a 30 MB transcript")
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	t.Cleanup(func() { waitForWorker(data) }) // the worker extracts after it stored the transcript
	tp := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(tp)
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Repeat("the billing worker retries jobs with exponential backoff ", 16)
	var size, n int
	for size < 30<<20 {
		u := fmt.Sprintf(`{"type":"user","uuid":"u%d","promptId":"p%d","sessionId":"big","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"prompt %d: %s"}}`+"\n", n, n, n, words)
		a := fmt.Sprintf(`{"type":"assistant","uuid":"a%d","sessionId":"big","timestamp":"2026-11-20T10:00:01.000Z","message":{"id":"m%d","role":"assistant","content":[{"type":"text","text":"answer %d: %s"}],"stop_reason":"end_turn"}}`+"\n", n, n, n, words)
		f.WriteString(u)
		f.WriteString(a)
		size += len(u) + len(a)
		n++
	}
	f.Close()
	in := fmt.Sprintf(`{"session_id":"big","cwd":%s,"transcript_path":%s,"hook_event_name":"SessionEnd","reason":"other"}`, quote(dir), quote(tp))
	// The test's budget: the hook leaves a transcript this size to the
	// worker by its size (handOver), whatever its budget; its real 1.2 s
	// only measured whether a busy machine let it open a new store and make
	// the end mark in time, and without the end mark nothing started the
	// worker either.
	validReply(t, runBinary(t, "session-end", data, []byte(in)), "SessionEnd")
	if log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log")); !strings.Contains(string(log), "handing the rest to the worker") {
		t.Errorf("SessionEnd did not hand the transcript to the worker; log:\n%s", log)
	}

	ctx := context.Background()
	count := func() (messages int, ended bool) {
		db, err := store.Open(ctx, filepath.Join(data, "memory.db"), store.Options{ReadOnly: true})
		if err != nil {
			return 0, false
		}
		defer db.Close()
		messages, _ = db.Read().CountSessionMessages(ctx, "big")
		s, _ := db.Read().Session(ctx, "big")
		return messages, !s.EndedAt.IsZero()
	}
	if _, ended := count(); !ended {
		t.Errorf("SessionEnd recorded no end")
	}
	// The worker runs detached; wait for it, bounded (a hang guard, not a
	// timing check: a busy machine may take minutes for 30 MB).
	deadline := time.Now().Add(detachedBound)
	got := 0
	for time.Now().Before(deadline) {
		if got, _ = count(); got == 2*n {
			return
		}
		time.Sleep(100 * time.Millisecond) // polling a detached process; there is nothing to wait on
	}
	log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
	t.Fatalf("%d of %d messages stored; log:\n%s", got, 2*n, log)
}

// TestSessionStartRecoversUnstoredTranscript: a session that ended with its
// transcript only partly stored (its SessionEnd ran out of budget and the
// worker it started was killed) is picked up by the next SessionStart in the
// project, which starts the worker; before, nothing ever stored the rest.
func TestSessionStartRecoversUnstoredTranscript(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	t.Cleanup(func() { waitForWorker(data) }) // the worker extracts after it stored the transcript
	tp := filepath.Join(dir, "old.jsonl")
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, `{"type":"user","uuid":"u%d","promptId":"p%d","sessionId":"old","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"prompt %d about the ledger"}}`+"\n", i, i, i)
	}
	os.WriteFile(tp, []byte(b.String()), 0o600)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(tp, old, old)
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(data, "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// What the killed SessionEnd left: the session ended, nothing stored.
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: "old", Project: dir, Cwd: dir, TranscriptPath: tp})
	}); err != nil {
		t.Fatal(err)
	}
	db.Update(ctx, func(tx *store.Tx) error { return tx.EndSession(ctx, "old", "other", old) })
	db.Close()

	in := fmt.Sprintf(`{"session_id":"new","cwd":%s,"hook_event_name":"SessionStart","source":"startup"}`, quote(dir))
	validReply(t, runBinary(t, "session-start", data, []byte(in)), "SessionStart")
	deadline := time.Now().Add(detachedBound)
	n := 0
	for time.Now().Before(deadline) {
		if db, err := store.Open(ctx, filepath.Join(data, "memory.db"), store.Options{ReadOnly: true}); err == nil {
			n, _ = db.Read().CountSessionMessages(ctx, "old")
			db.Close()
		}
		if n == 50 {
			return
		}
		time.Sleep(100 * time.Millisecond) // polling a detached process; there is nothing to wait on
	}
	log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
	t.Fatalf("%d of 50 messages stored; log:\n%s", n, log)
}

// TestReplyToClosedStdout: a hook whose reader has gone (Claude Code closed
// the pipe) used to die of SIGPIPE writing its reply, a non-zero exit. The
// brief here comes from an earlier session of the project.
func TestReplyToClosedStdout(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	tp := filepath.Join(dir, "old.jsonl")
	os.WriteFile(tp, []byte(`{"type":"user","uuid":"u1","promptId":"p1","sessionId":"old","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"For JWT signing we decided to use RS256 keys stored in ./keys."}}`+"\n"), 0o600)
	end := fmt.Sprintf(`{"session_id":"old","cwd":%s,"transcript_path":%s,"hook_event_name":"SessionEnd","reason":"other"}`, quote(dir), quote(tp))
	validReply(t, runBinary(t, "session-end", data, []byte(end)), "SessionEnd")
	start := []byte(fmt.Sprintf(`{"session_id":"new","cwd":%s,"hook_event_name":"SessionStart","source":"startup"}`, quote(dir)))
	if r := runBinary(t, "session-start", data, start); !strings.Contains(r.stdout, "RS256") {
		t.Fatalf("no brief to write, so nothing to test: %q", r.stdout)
	}
	for _, closed := range []string{"stdout", "stderr"} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		cmd := exec.Command(binary(t, "session-start"))
		// The data directory is unwritable for the stderr case, so the hook
		// logs to stderr.
		d := data
		if closed == "stderr" {
			d = "/proc/nonexistent"
		}
		cmd.Env = []string{"CLAUDE_MEMORY_DIR=" + d, "HOME=" + dir, "PATH=" + os.Getenv("PATH")}
		cmd.Stdin = strings.NewReader(string(start))
		if closed == "stdout" {
			cmd.Stdout = w
		} else {
			cmd.Stderr = w
		}
		err = cmd.Run()
		w.Close()
		if err != nil {
			t.Errorf("%s closed: %v", closed, err)
		}
	}
}

// waitForWorker waits, bounded, for the detached workers started on
// dataDir to finish (workertest.Wait).
func waitForWorker(dataDir string) { workertest.Wait(dataDir, detachedBound) }

// TestSessionEndHandsOverAnEndItCannotMark: a SessionEnd whose end the
// store refuses (out of time on a busy machine; here a trigger refuses the
// session's end until the hook is done) starts the worker, which records
// the end and distils the session. Before, nothing did, and the session
// waited for a resume. The worker records exactly one end, at the time the
// hook saw it: the hook's refused end leaves no mark of its own (the mark
// and the session's end are one transaction), and the hook passes its time
// on. The test holds the worker lock while the hook runs, so the worker's
// own time comes after the hook's exit.
func TestSessionEndHandsOverAnEndItCannotMark(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	t.Cleanup(func() { waitForWorker(data) })
	tp := filepath.Join(dir, "t.jsonl")
	rows := `{"type":"user","uuid":"u1","promptId":"p1","sessionId":"s","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"We deploy the kiln service with blue-green releases from now on."}}` + "\n" +
		`{"type":"assistant","uuid":"a1","sessionId":"s","timestamp":"2026-11-20T10:00:01.000Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Noted: blue-green releases for the kiln service."}],"stop_reason":"end_turn"}}` + "\n"
	if err := os.WriteFile(tp, []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	in := func(event string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":"s","cwd":%s,"transcript_path":%s,"hook_event_name":%q,"source":"startup","reason":"other"}`, quote(dir), quote(tp), event))
	}
	validReply(t, runBinary(t, "session-start", data, in("SessionStart")), "SessionStart")
	waitForWorker(data) // what SessionStart started holds no lock the trigger waits on
	dbPath := filepath.Join(data, "memory.db")
	execSQL := func(q string) {
		t.Helper()
		raw, err := sql.Open("sqlite", "file:"+dbPath+"?_pragma=busy_timeout(5000)")
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	execSQL(`CREATE TRIGGER refuse_end BEFORE UPDATE OF ended_at ON sessions BEGIN SELECT RAISE(ABORT, 'the end refused'); END`)
	ctx := context.Background()
	unlock, err := pipeline.Lock(ctx, data, 0)
	if err != nil {
		t.Fatal(err)
	}
	locked := true
	defer func() {
		if locked {
			unlock()
		}
	}()
	before := time.Now()
	validReply(t, runBinary(t, "session-end", data, in("SessionEnd")), "SessionEnd")
	after := time.Now()
	execSQL(`DROP TRIGGER refuse_end`)
	unlock()
	locked = false
	waitForWorker(data)
	db, err := store.Open(ctx, dbPath, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := db.Read().Session(ctx, "s")
	distilled, _ := db.Read().Events(ctx, store.EventFilter{SessionID: "s", Types: []string{store.TypeEntryExtracted}})
	if err != nil || s.EndedAt.IsZero() || len(distilled) == 0 {
		log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
		t.Fatalf("session ended %v, %d memories distilled (%v); log:\n%s", !s.EndedAt.IsZero(), len(distilled), err, log)
	}
	marks, err := db.Read().Events(ctx, store.EventFilter{SessionID: "s", Types: []string{store.TypeSessionEnded}})
	if err != nil {
		t.Fatal(err)
	}
	if len(marks) != 1 {
		t.Errorf("%d session_ended marks, want 1", len(marks))
	}
	// Stored to the microsecond.
	if s.EndedAt.Before(before.Truncate(time.Microsecond)) || s.EndedAt.After(after) {
		t.Errorf("session ended at %v, want the hook's time, between %v and %v", s.EndedAt, before, after)
	}
	for _, m := range marks {
		if !m.Time.Equal(s.EndedAt) {
			t.Errorf("session_ended marked at %v, want the session's end %v", m.Time, s.EndedAt)
		}
	}
}

// Package torture drives the real hook and CLI binaries as processes against
// real SQLite files: concurrency, crashes, broken disks, secrets and deadlines.
// The tests are slow and run only with CML_TORTURE=1 (see .ci/run).
package torture

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline/workertest"
	"github.com/tidwall/gjson"
	_ "modernc.org/sqlite" // the pure-Go driver the store uses
)

// binDir holds the binaries TestMain built; empty when the tests are disabled.
var binDir string

func enabled() bool { return os.Getenv("CML_TORTURE") == "1" }

// binaries are the commands the tests drive.
var binaries = []string{"claude-memory-layer", "session-start", "user-prompt-submit", "post-tool-use", "stop", "session-end"}

func TestMain(m *testing.M) {
	if !enabled() {
		os.Exit(m.Run()) // every test skips itself
	}
	dir, err := os.MkdirTemp("", "cml-torture-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	start := time.Now()
	args := []string{"build", "-o", dir + "/"}
	for _, b := range binaries {
		args = append(args, "./cmd/"+b)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "torture: built %d binaries in %v\n", len(binaries), time.Since(start).Round(time.Millisecond))
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// need skips the test unless the torture tests are enabled.
func need(t *testing.T) {
	t.Helper()
	if !enabled() {
		t.Skip("torture tests run only with CML_TORTURE=1")
	}
	if binDir == "" {
		t.Fatal("binaries were not built")
	}
}

func bin(name string) string { return filepath.Join(binDir, name) }

// result is what one process did.
type result struct {
	code           int
	stdout, stderr string
	took           time.Duration
	cpu            time.Duration // user and system time the process used
	killed         bool          // killed by the test (SIGKILL or the safety timeout)
	err            error
}

// cmdEnv is the environment of every process: nothing from the test's own
// environment except PATH, so a developer's real data directory is never touched.
func cmdEnv(dataDir string, extra ...string) []string {
	return append([]string{
		"CLAUDE_MEMORY_DIR=" + dataDir,
		"HOME=" + filepath.Join(os.TempDir(), "cml-torture-home"),
		"PATH=" + os.Getenv("PATH"),
	}, extra...)
}

// proc describes one process to run.
type proc struct {
	bin     string
	args    []string
	dataDir string
	stdin   []byte
	env     []string      // extra variables
	dir     string        // working directory; "" is the test's
	limit   time.Duration // safety timeout; 0 means 2 minutes
}

func (p proc) command() *exec.Cmd {
	cmd := exec.Command(bin(p.bin), p.args...)
	cmd.Env = cmdEnv(p.dataDir, p.env...)
	cmd.Dir = p.dir
	cmd.Stdin = bytes.NewReader(p.stdin)
	return cmd
}

// run runs p to completion (or to its safety timeout, which kills it).
func run(p proc) result {
	return runKill(p, -1)
}

// runKill runs p and sends it SIGKILL after killAfter (never if negative);
// the process may finish first.
func runKill(p proc, killAfter time.Duration) result {
	cmd := p.command()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	limit := p.limit
	if limit == 0 {
		limit = 2 * time.Minute
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{code: -1, err: err}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var kill <-chan time.Time
	if killAfter >= 0 {
		tm := time.NewTimer(killAfter)
		defer tm.Stop()
		kill = tm.C
	}
	safety := time.NewTimer(limit)
	defer safety.Stop()
	var r result
	var err error
	select {
	case err = <-done:
	case <-kill:
		cmd.Process.Signal(syscall.SIGKILL)
		err = <-done
		r.killed = true
	case <-safety.C:
		cmd.Process.Signal(syscall.SIGKILL)
		err = <-done
		r.killed = true
		r.err = fmt.Errorf("%s did not finish within %v", p.bin, limit)
	}
	r.took = time.Since(start)
	if ps := cmd.ProcessState; ps != nil {
		r.cpu = ps.UserTime() + ps.SystemTime()
	}
	r.stdout, r.stderr = out.String(), errb.String()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode() // -1 when killed by a signal
	default:
		r.code = -1
		if r.err == nil {
			r.err = err
		}
	}
	if r.killed && r.code == 0 && err == nil {
		// Finished just before the signal.
		r.killed = false
	}
	return r
}

// hookProblem describes what is wrong with a hook's behaviour as Claude Code
// sees it, or returns "": exit 0, stdout empty or one JSON object naming the
// event, nothing about a locked database anywhere.
func hookProblem(r result, event string) string {
	if r.err != nil {
		return r.err.Error()
	}
	if r.code != 0 {
		return fmt.Sprintf("exit %d (stderr %q)", r.code, clip(r.stderr, 300))
	}
	for _, s := range []string{r.stdout, r.stderr} {
		l := strings.ToLower(s)
		if strings.Contains(l, "database is locked") || strings.Contains(l, "sqlite_busy") {
			return fmt.Sprintf("lock error shown to the user: stdout %q stderr %q", clip(r.stdout, 200), clip(r.stderr, 300))
		}
	}
	s := strings.TrimSpace(r.stdout)
	if s == "" {
		return ""
	}
	if !gjson.Valid(s) || !gjson.Parse(s).IsObject() || strings.Contains(s, "\n") {
		return fmt.Sprintf("stdout is not one JSON object: %q", clip(s, 300))
	}
	if got := gjson.Get(s, "hookSpecificOutput.hookEventName").String(); got != event {
		return fmt.Sprintf("hookEventName=%q, want %q", got, event)
	}
	if event != "SessionStart" && event != "UserPromptSubmit" {
		return fmt.Sprintf("%s must print nothing, printed %q", event, clip(s, 200))
	}
	return ""
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// hookBin maps an event to the binary that handles it.
func hookBin(event string) string {
	switch event {
	case "SessionStart":
		return "session-start"
	case "UserPromptSubmit":
		return "user-prompt-submit"
	case "PostToolUse", "PostToolUseFailure":
		return "post-tool-use"
	case "Stop":
		return "stop"
	case "SessionEnd", "PreCompact":
		return "session-end"
	}
	panic("no binary for " + event)
}

// openRO opens a store read-only for inspection, with a generous busy timeout.
func openRO(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(20000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func dbPath(dataDir string) string  { return filepath.Join(dataDir, "memory.db") }
func logPath(dataDir string) string { return filepath.Join(dataDir, "claude-memory-layer.log") }

// integrity runs PRAGMA integrity_check on the store at path and returns its
// verdict ("ok" when sound).
func integrity(path string) (string, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(20000)")
	if err != nil {
		return "", err
	}
	defer db.Close()
	rows, err := db.Query("PRAGMA integrity_check")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return "", err
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "; "), rows.Err()
}

// queryInt runs a one-number query.
func queryInt(t testing.TB, db *sql.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// logLines returns the lines of the data directory's log (and its rotated
// copy) at the given level ("ERROR", "WARN").
func logLines(dataDir, level string) []string {
	var out []string
	for _, p := range []string{logPath(dataDir) + ".1", logPath(dataDir)} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "level="+level) {
				out = append(out, l)
			}
		}
	}
	return out
}

// logSummary groups log lines by their msg and counts them, for a report.
func logSummary(lines []string) string {
	counts := map[string]int{}
	sample := map[string]string{}
	for _, l := range lines {
		msg := l
		if i := strings.Index(l, " msg="); i >= 0 {
			msg = l[i+5:]
			if msg != "" && msg[0] == '"' {
				if q, err := strconv.QuotedPrefix(msg); err == nil {
					msg = q
				}
			} else if j := strings.IndexByte(msg, ' '); j >= 0 {
				msg = msg[:j]
			}
		}
		counts[msg]++
		if _, ok := sample[msg]; !ok {
			sample[msg] = l
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %d × %s\n      e.g. %s\n", counts[k], k, clip(sample[k], 600))
	}
	return b.String()
}

// poll calls cond until it reports true or the bound passes; it returns the
// last description cond gave.
func poll(bound, every time.Duration, cond func() (bool, string)) (bool, string) {
	deadline := time.Now().Add(bound)
	for {
		ok, why := cond()
		if ok || time.Now().After(deadline) {
			return ok, why
		}
		time.Sleep(every)
	}
}

// workers lists the pids of the processes running against dataDir once
// the hooks are done: the workers hooks start detached (`process`, and
// `digest`, which SessionEnd also starts to merge the full-text indexes),
// and any command a test runs.
func workers(dataDir string) []int {
	pids, _ := workertest.Running(dataDir)
	return pids
}

// waitWorkers waits (bounded) until no worker runs against dataDir
// (workertest.Wait), and ends those left once it has reported them.
func waitWorkers(t testing.TB, dataDir string, bound time.Duration) {
	t.Helper()
	if left := workertest.Wait(dataDir, bound); len(left) > 0 {
		t.Errorf("after %v: workers still running: %v", bound, left)
		workertest.Kill(dataDir)
	}
}

// newDataDir makes a data directory whose stray workers are ended before the
// directory is removed.
func newDataDir(t *testing.T) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "data")
	t.Cleanup(func() {
		workertest.Kill(d)
		workertest.Wait(d, 5*time.Second)
	})
	return d
}

// durations collects timings per name, safely from many goroutines.
type durations struct {
	mu        sync.Mutex
	wall, cpu map[string][]time.Duration
}

// add records one run of name: its wall time and the CPU time it used.
func (d *durations) add(name string, r result) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.wall == nil {
		d.wall, d.cpu = map[string][]time.Duration{}, map[string][]time.Duration{}
	}
	d.wall[name] = append(d.wall[name], r.took)
	d.cpu[name] = append(d.cpu[name], r.cpu)
}

// report prints each name's percentiles of wall time, then of CPU time: a
// wall time far above the CPU time is time spent waiting (CPU, disk, lock).
func (d *durations) report() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	names := make([]string, 0, len(d.wall))
	for n := range d.wall {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		for _, kind := range []struct {
			label string
			v     []time.Duration
		}{{"wall", d.wall[n]}, {"cpu", d.cpu[n]}} {
			v := slices.Sorted(slices.Values(kind.v))
			q := func(p float64) time.Duration { return v[min(len(v)-1, int(p*float64(len(v))))].Round(time.Millisecond) }
			fmt.Fprintf(&b, "  %-20s %-4s n=%-5d p50=%-8v p90=%-8v p99=%-8v max=%v\n", n, kind.label, len(v), q(0.5), q(0.9), q(0.99), v[len(v)-1].Round(time.Millisecond))
		}
	}
	return b.String()
}

// errorList collects failures from many goroutines, keeping the first few.
type errorList struct {
	mu    sync.Mutex
	n     int
	first []string
}

func (e *errorList) add(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.n++
	if len(e.first) < 20 {
		e.first = append(e.first, fmt.Sprintf(format, args...))
	}
}

func (e *errorList) report(t *testing.T, what string) {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.n > 0 {
		t.Errorf("%d %s; first %d:\n  %s", e.n, what, len(e.first), strings.Join(e.first, "\n  "))
	}
}

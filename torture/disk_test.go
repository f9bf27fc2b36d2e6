package torture

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline/workertest"
)

// hookRound fires one turn's hooks (SessionStart, UserPromptSubmit,
// PostToolUse, Stop, PreCompact, SessionEnd) for turn i of c and checks what
// Claude Code would see: exit 0, valid or empty stdout, within budget plus
// margin. It returns the runs, for the caller to check logging.
func hookRound(t *testing.T, data string, c *conversation, tp string, i int, timing *[]string) []result {
	t.Helper()
	pre := hookInput("PreCompact", c.ID, tp, c.Cwd, map[string]any{"trigger": "auto", "custom_instructions": ""})
	var out []result
	for _, dc := range []deadlineCase{
		{"SessionStart", c.startInput(tp)},
		{"UserPromptSubmit", c.promptInput(tp, i)},
		{"PostToolUse", c.toolInput(tp, i)},
		{"Stop", c.stopInput(tp, i)},
		{"PreCompact", pre},
		{"SessionEnd", c.endInput(tp)},
	} {
		r := run(proc{bin: hookBin(dc.event), dataDir: data, stdin: dc.input, limit: time.Minute})
		if p := hookProblem(r, dc.event); p != "" {
			t.Errorf("%s: %s", dc.event, p)
		}
		if b := budgets[dc.event]; r.took > b+overrunMargin {
			t.Errorf("%s took %v, budget %v", dc.event, r.took, b)
		}
		*timing = append(*timing, fmt.Sprintf("%s %v", dc.event, r.took.Round(time.Millisecond)))
		out = append(out, r)
	}
	return out
}

// mustMount runs mount(8) and returns the unmount, which also runs at
// cleanup if not called before; it skips the test when mounting is not
// permitted here.
func mustMount(t *testing.T, target string, args ...string) (unmount func()) {
	t.Helper()
	out, err := exec.Command("mount", append(args, target)...).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount here (mount %s %s: %v: %s): not tested", strings.Join(args, " "), target, err, out)
	}
	var once sync.Once
	unmount = func() {
		once.Do(func() {
			if out, err := exec.Command("umount", target).CombinedOutput(); err != nil {
				t.Errorf("umount %s: %v: %s", target, err, out)
			}
		})
	}
	t.Cleanup(unmount)
	return unmount
}

func stderrHasError(rs []result) int {
	n := 0
	for _, r := range rs {
		if strings.Contains(r.stderr, "level=ERROR") {
			n++
		}
	}
	return n
}

// TestDisk runs every hook against data directories that cannot be used as
// they should: missing, uncreatable, read-only, immutable, and on a full disk.
// Each hook must still exit 0 quickly with valid or empty stdout, the problem
// must be logged (to the log file, or to stderr when that cannot be written),
// and nothing already stored may be lost.
func TestDisk(t *testing.T) {
	need(t)
	const seed = 4242
	began := time.Now()
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	os.MkdirAll(proj, 0o755)
	conv := func(name string) (*conversation, string) {
		c := newConversation(rand.New(rand.NewPCG(seed, uint64(len(name)))), "disk-"+name, "D"+name, proj, 6, 0)
		tp := filepath.Join(root, c.ID+".jsonl")
		c.write(t, tp)
		return c, tp
	}
	t.Logf("seed %d", seed)

	t.Run("missing-parent", func(t *testing.T) {
		data := filepath.Join(root, "not", "yet", "there", "data")
		t.Cleanup(func() { workertest.Kill(data) })
		c, tp := conv("missing")
		var timing []string
		hookRound(t, data, c, tp, 0, &timing)
		waitWorkers(t, data, time.Minute)
		fi, err := os.Stat(data)
		if err != nil {
			t.Fatalf("data directory not created: %v", err)
		}
		if fi.Mode().Perm() != 0o700 {
			t.Errorf("data directory mode %v, want 0700", fi.Mode().Perm())
		}
		if n := countEvents(t, data); n == 0 {
			t.Errorf("nothing stored")
		}
		if errs := logLines(data, "ERROR"); len(errs) > 0 {
			t.Errorf("errors logged:\n%s", logSummary(errs))
		}
		t.Logf("timings: %s", strings.Join(timing, ", "))
	})

	t.Run("parent-is-a-file", func(t *testing.T) {
		file := filepath.Join(root, "plain-file")
		if err := os.WriteFile(file, []byte("not a directory\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		data := filepath.Join(file, "data")
		c, tp := conv("file")
		var timing []string
		rs := hookRound(t, data, c, tp, 0, &timing)
		if n := stderrHasError(rs); n != len(rs) {
			t.Errorf("%d of %d hooks said nothing on stderr although the log cannot be written", len(rs)-n, len(rs))
		}
		t.Logf("stderr of UserPromptSubmit: %s", clip(rs[1].stderr, 400))
		t.Logf("timings: %s", strings.Join(timing, ", "))
	})

	// seeded returns a data directory holding a finished session, and its event count.
	seeded := func(t *testing.T, data string, name string) int {
		t.Helper()
		c, tp := conv(name)
		var timing []string
		for i := range 3 {
			hookRound(t, data, c, tp, i, &timing)
		}
		waitWorkers(t, data, time.Minute)
		return countEvents(t, data)
	}
	checkKept := func(t *testing.T, data string, before int) {
		t.Helper()
		if v, err := integrity(dbPath(data)); err != nil || v != "ok" {
			t.Errorf("integrity_check = %q, %v", v, err)
		}
		if got := countEvents(t, data); got < before {
			t.Errorf("events went from %d to %d: stored data lost", before, got)
		} else {
			t.Logf("events before %d, after %d", before, got)
		}
	}

	t.Run("read-only-mount", func(t *testing.T) {
		data := newDataDir(t)
		before := seeded(t, data, "ro")
		logBefore := len(logLines(data, "ERROR"))
		unmount := mustMount(t, data, "--bind", data)
		if out, err := exec.Command("mount", "-o", "remount,ro,bind", data).CombinedOutput(); err != nil {
			t.Skipf("cannot remount read-only (%v: %s): not tested", err, out)
		}
		if err := os.WriteFile(filepath.Join(data, "probe"), nil, 0o600); !errors.Is(err, syscall.EROFS) {
			t.Fatalf("the data directory is not read-only: write gave %v", err)
		}
		c, tp := conv("ro2")
		var timing []string
		rs := hookRound(t, data, c, tp, 0, &timing)
		logged := len(logLines(data, "ERROR")) - logBefore
		if n := stderrHasError(rs); n+logged < len(rs) {
			t.Errorf("only %d of %d hooks logged the read-only store (stderr %d, log %d)", n+logged, len(rs), n, logged)
		}
		t.Logf("stderr of UserPromptSubmit: %s", clip(rs[1].stderr, 400))
		s := run(proc{bin: "claude-memory-layer", args: []string{"search", "ledger port", "--json", "--all-projects"}, dataDir: data})
		t.Logf("search on the read-only store: exit %d, stdout %s, stderr %q", s.code, clip(strings.Join(strings.Fields(s.stdout), " "), 200), clip(s.stderr, 300))
		t.Logf("timings: %s", strings.Join(timing, ", "))
		unmount()
		checkKept(t, data, before)
	})

	t.Run("immutable-store", func(t *testing.T) {
		if _, err := exec.LookPath("chattr"); err != nil {
			t.Skip("no chattr: not tested")
		}
		data := newDataDir(t)
		before := seeded(t, data, "imm")
		logBefore := len(logLines(data, "ERROR"))
		if out, err := exec.Command("chattr", "+i", dbPath(data)).CombinedOutput(); err != nil {
			t.Skipf("chattr +i not permitted (%v: %s): not tested", err, out)
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", dbPath(data)).Run() })
		c, tp := conv("imm2")
		var timing []string
		rs := hookRound(t, data, c, tp, 0, &timing)
		logged := logLines(data, "ERROR")[logBefore:]
		// PostToolUse does not open the store: it spools the tool call,
		// which the first writer after the store is writable again stores.
		want := len(rs) - 1
		if fi, err := os.Stat(dbPath(data) + "-spool"); err != nil || fi.Size() == 0 {
			t.Errorf("the tool call is not in the spool: %v", err)
		}
		if n := stderrHasError(rs); n+len(logged) < want {
			t.Errorf("only %d of %d hooks logged the immutable store", n+len(logged), want)
		}
		t.Logf("log:\n%s", logSummary(logged))
		t.Logf("timings: %s", strings.Join(timing, ", "))
		exec.Command("chattr", "-i", dbPath(data)).Run()
		checkKept(t, data, before)
	})

	t.Run("full-disk", func(t *testing.T) {
		mnt := filepath.Join(root, "small")
		os.MkdirAll(mnt, 0o755)
		// Big enough for a seeded store (about 200 kB with its WAL), then filled up.
		mustMount(t, mnt, "-t", "tmpfs", "-o", "size=4m", "tmpfs")
		data := filepath.Join(mnt, "data")
		t.Cleanup(func() { workertest.Kill(data) })
		before := seeded(t, data, "full")
		logBefore := len(logLines(data, "ERROR"))
		filler := filepath.Join(mnt, "filler")
		fill(t, filler)
		c, tp := conv("full2")
		var timing []string
		rs := hookRound(t, data, c, tp, 0, &timing)
		// A prompt big enough to need new pages in any case.
		big := hookInput("UserPromptSubmit", c.ID, tp, c.Cwd, map[string]any{"prompt_id": "big", "prompt": strings.Repeat("the ledger port is 7443 and the budget is tight ", 2000)})
		rb := run(proc{bin: "user-prompt-submit", dataDir: data, stdin: big})
		if p := hookProblem(rb, "UserPromptSubmit"); p != "" {
			t.Errorf("big prompt on a full disk: %s", p)
		}
		timing = append(timing, fmt.Sprintf("UserPromptSubmit(100 kB) %v", rb.took.Round(time.Millisecond)))
		rs = append(rs, rb)
		waitWorkers(t, data, time.Minute)
		logged := logLines(data, "ERROR")[logBefore:]
		t.Logf("on the full disk: %d ERROR lines reached the log, %d hooks wrote ERROR to stderr:\n%s", len(logged), stderrHasError(rs), logSummary(logged))
		if len(logged)+stderrHasError(rs) == 0 {
			t.Errorf("the full disk was not reported anywhere (log or stderr)")
		}
		t.Logf("timings: %s", strings.Join(timing, ", "))
		if err := os.Remove(filler); err != nil {
			t.Fatal(err)
		}
		checkKept(t, data, before)
		// With space again, the store works.
		c3, tp3 := conv("full-3")
		var t3 []string
		hookRound(t, data, c3, tp3, 0, &t3)
		waitWorkers(t, data, time.Minute)
		db := openRO(t, dbPath(data))
		if n := queryInt(t, db, `SELECT count(*) FROM events WHERE dedupe_key = ?`, "prompt:"+c3.ID+":"+c3.Turns[0].PromptID); n != 1 {
			t.Errorf("after freeing space: the new prompt was not stored")
		}
		db.Close()
	})

	// A disk that is full before the first hook runs: the store cannot be
	// created, and neither can the log grow.
	t.Run("full-disk-from-the-start", func(t *testing.T) {
		mnt := filepath.Join(root, "tiny")
		os.MkdirAll(mnt, 0o755)
		mustMount(t, mnt, "-t", "tmpfs", "-o", "size=256k", "tmpfs")
		fill(t, filepath.Join(mnt, "filler"))
		data := filepath.Join(mnt, "data")
		t.Cleanup(func() { workertest.Kill(data) })
		c, tp := conv("tiny")
		var timing []string
		rs := hookRound(t, data, c, tp, 0, &timing)
		waitWorkers(t, data, time.Minute)
		logged := logLines(data, "ERROR")
		t.Logf("timings: %s", strings.Join(timing, ", "))
		t.Logf("%d ERROR lines in the log, %d hooks wrote ERROR to stderr", len(logged), stderrHasError(rs))
		if len(logged)+stderrHasError(rs) == 0 {
			size := fileSize(logPath(data))
			t.Errorf("on a full disk no hook reported its failure anywhere (log file %d bytes, %d hooks, memory.db %d bytes)", size, len(rs), fileSize(dbPath(data)))
		}
	})
	t.Logf("total %v", time.Since(began).Round(time.Millisecond))
}

// fill writes to path until the file system is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling: %v", err)
			}
			break
		}
	}
	// Whatever is left in partial pages: one byte at a time.
	for {
		if _, err := f.Write(buf[:1]); err != nil {
			break
		}
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(path), &st); err == nil {
		t.Logf("file system full: %d blocks free", st.Bavail)
	}
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return fi.Size()
}

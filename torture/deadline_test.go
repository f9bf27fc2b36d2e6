package torture

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// budgets are the hooks' internal deadlines (internal/handler: PromptBudget,
// StartBudget, AsyncBudget, EndBudget).
var budgets = map[string]time.Duration{
	"SessionStart":     2 * time.Second,
	"UserPromptSubmit": 1 * time.Second,
	"PostToolUse":      10 * time.Second,
	"Stop":             10 * time.Second,
	"SessionEnd":       1200 * time.Millisecond,
	"PreCompact":       1200 * time.Millisecond,
}

// overrunMargin is how far past its budget a hook may end on this noisy
// machine: process start, exit, and scheduling.
const overrunMargin = 500 * time.Millisecond

// seedHistory fills a fresh store with one finished session of c's project,
// so that hooks have something to recall and brief.
func seedHistory(t *testing.T, data, root string, c *conversation) {
	t.Helper()
	tp := filepath.Join(root, c.ID+".jsonl")
	c.write(t, tp)
	for _, in := range [][]byte{c.startInput(tp), c.stopInput(tp, len(c.Turns)-1), c.endInput(tp)} {
		ev := gjson.GetBytes(in, "hook_event_name").String()
		if p := hookProblem(run(proc{bin: hookBin(ev), dataDir: data, stdin: in}), ev); p != "" {
			t.Fatalf("seeding %s: %s", ev, p)
		}
	}
	waitWorkers(t, data, time.Minute)
	db := openRO(t, dbPath(data))
	if n := queryInt(t, db, `SELECT count(*) FROM entries WHERE stage = 'verified'`); n == 0 {
		t.Fatal("seeding: no verified entries")
	}
	db.Close()
}

// lockStore takes the store's write lock from another connection and holds it
// until the returned func is called. With exclusive, the connection also uses
// locking_mode=EXCLUSIVE, which in WAL mode shuts out readers too.
func lockStore(t *testing.T, path string, exclusive bool) func() {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{"BEGIN EXCLUSIVE"}
	if exclusive {
		stmts = []string{"PRAGMA locking_mode=EXCLUSIVE", "BEGIN EXCLUSIVE",
			"UPDATE sessions SET summary = summary WHERE id IN (SELECT id FROM sessions LIMIT 1)"}
	}
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	var once sync.Once
	release := func() {
		once.Do(func() {
			conn.ExecContext(ctx, "ROLLBACK")
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// deadlineCase is one hook run under a lock.
type deadlineCase struct {
	event string
	input []byte
}

func deadlineCases(c *conversation, tp string, rep int) []deadlineCase {
	i := rep % len(c.Turns)
	pre := hookInput("PreCompact", c.ID, tp, c.Cwd, map[string]any{"trigger": "auto", "custom_instructions": ""})
	return []deadlineCase{
		{"SessionStart", c.startInput(tp)},
		{"UserPromptSubmit", c.promptInput(tp, i)},
		{"PostToolUse", c.toolInput(tp, i)},
		{"Stop", c.stopInput(tp, i)},
		{"PreCompact", pre},
		{"SessionEnd", c.endInput(tp)},
	}
}

// TestHookDeadlines runs every hook while another connection holds the
// store's lock and checks each ends within its budget plus a small margin.
func TestHookDeadlines(t *testing.T) {
	need(t)
	const seed = 5150
	const reps = 2
	began := time.Now()
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	os.MkdirAll(proj, 0o755)
	history := newConversation(rand.New(rand.NewPCG(seed, 1)), "deadline-history", "H", proj, 20, 0)
	next := newConversation(rand.New(rand.NewPCG(seed, 2)), "deadline-next", "N", proj, 10, 0)
	t.Logf("seed %d; budgets %v; margin %v; %d runs of each hook per lock kind, in parallel", seed, budgets, overrunMargin, reps)

	var maxOver time.Duration
	var maxWho string
	for _, kind := range []struct {
		name      string
		exclusive bool
	}{{"write lock (BEGIN EXCLUSIVE)", false}, {"exclusive locking mode (readers shut out too)", true}} {
		t.Run(strings.Fields(kind.name)[0]+"-"+fmt.Sprint(kind.exclusive), func(t *testing.T) {
			data := newDataDir(t)
			seedHistory(t, data, root, history)
			tp := filepath.Join(root, next.ID+".jsonl")
			next.write(t, tp)
			before := countEvents(t, data)
			release := lockStore(t, dbPath(data), kind.exclusive)
			var mu sync.Mutex
			var lines []string
			var wg sync.WaitGroup
			for rep := range reps {
				for _, dc := range deadlineCases(next, tp, rep) {
					wg.Add(1)
					go func() {
						defer wg.Done()
						r := run(proc{bin: hookBin(dc.event), dataDir: data, stdin: dc.input, limit: time.Minute})
						budget := budgets[dc.event]
						over := r.took - budget
						mu.Lock()
						defer mu.Unlock()
						lines = append(lines, fmt.Sprintf("%-17s took %-7v budget %-6v ratio %.2f", dc.event, r.took.Round(time.Millisecond), budget, float64(r.took)/float64(budget)))
						if over > maxOver {
							maxOver, maxWho = over, dc.event+" ("+kind.name+")"
						}
						if p := hookProblem(r, dc.event); p != "" {
							t.Errorf("%s: %s", dc.event, p)
						}
						if r.took > budget+overrunMargin {
							t.Errorf("%s took %v: over its %v budget by %v (margin %v)", dc.event, r.took, budget, over, overrunMargin)
						}
					}()
				}
			}
			wg.Wait()
			release()
			t.Logf("%s:\n  %s", kind.name, strings.Join(sortedCopy(lines), "\n  "))
			if got := countEvents(t, data); got < before {
				t.Errorf("events went from %d to %d", before, got)
			}
			if errs := logLines(data, "ERROR"); len(errs) == 0 {
				t.Errorf("nothing logged about the locked store")
			} else {
				t.Logf("log:\n%s", logSummary(errs))
			}
		})
	}

	// A hook whose stdin is never closed gives up at its deadline.
	t.Run("stdin-open", func(t *testing.T) {
		data := newDataDir(t)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var lines []string
		for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(bin(hookBin(ev)))
				cmd.Env = cmdEnv(data)
				w, err := cmd.StdinPipe()
				if err != nil {
					t.Error(err)
					return
				}
				defer w.Close()
				var out strings.Builder
				cmd.Stdout = &out
				start := time.Now()
				if err := cmd.Start(); err != nil {
					t.Error(err)
					return
				}
				io.WriteString(w, `{"session_id":"open","hook_event_name":"`+ev+`"`) // and never close it
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				var err2 error
				select {
				case err2 = <-done:
				case <-time.After(budgets[ev] + 10*time.Second):
					cmd.Process.Kill()
					err2 = fmt.Errorf("still running after %v", budgets[ev]+10*time.Second)
					<-done
				}
				took := time.Since(start)
				mu.Lock()
				defer mu.Unlock()
				lines = append(lines, fmt.Sprintf("%-17s took %-7v budget %v", ev, took.Round(time.Millisecond), budgets[ev]))
				if took-budgets[ev] > maxOver {
					maxOver, maxWho = took-budgets[ev], ev+" (stdin open)"
				}
				if err2 != nil || out.String() != "" {
					t.Errorf("%s with stdin open: err %v, stdout %q", ev, err2, out.String())
				}
				if took > budgets[ev]+overrunMargin {
					t.Errorf("%s with stdin open took %v, budget %v", ev, took, budgets[ev])
				}
			}()
		}
		wg.Wait()
		t.Logf("stdin never closed:\n  %s", strings.Join(sortedCopy(lines), "\n  "))
	})
	t.Logf("max overrun past budget: %v (%s); total %v", maxOver.Round(time.Millisecond), maxWho, time.Since(began).Round(time.Millisecond))
}

func countEvents(t *testing.T, data string) int {
	t.Helper()
	db := openRO(t, dbPath(data))
	defer db.Close()
	return queryInt(t, db, `SELECT count(*) FROM events`)
}

func sortedCopy(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

// TestRecallWhileWriteLocked: with another process holding the store's write
// lock (an import or the worker in a long transaction), reads still work in
// WAL mode, so a prompt should still get its memories even though storing it
// fails — the UserPromptSubmit handler says "recall does not depend on this
// prompt being stored".
func TestRecallWhileWriteLocked(t *testing.T) {
	need(t)
	const seed = 5151
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	os.MkdirAll(proj, 0o755)
	data := newDataDir(t)
	seedHistory(t, data, root, newConversation(rand.New(rand.NewPCG(seed, 1)), "locked-history", "LH", proj, 20, 0))
	db := openRO(t, dbPath(data))
	var title string
	if err := db.QueryRow(`SELECT title FROM entries WHERE stage = 'verified' ORDER BY id LIMIT 1`).Scan(&title); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ask := func(id string) (result, string) {
		// A session of its own for each ask: a session is not injected again
		// what an earlier prompt of it was shown.
		in := hookInput("UserPromptSubmit", "locked-next-"+id, "", proj, map[string]any{"prompt_id": id, "prompt": "What did we settle about this: " + title + "?"})
		r := run(proc{bin: "user-prompt-submit", dataDir: data, stdin: in})
		if p := hookProblem(r, "UserPromptSubmit"); p != "" {
			t.Fatalf("%s: %s", id, p)
		}
		return r, gjson.Get(r.stdout, "hookSpecificOutput.additionalContext").String()
	}
	r, ctx := ask("unlocked")
	if ctx == "" {
		t.Fatalf("control: no memory recalled for %q without a lock", title)
	}
	t.Logf("unlocked: %d characters injected in %v", len(ctx), r.took.Round(time.Millisecond))
	logBefore := len(logLines(data, "ERROR"))
	release := lockStore(t, dbPath(data), false)
	r, ctx = ask("locked")
	release()
	t.Logf("locked: %d characters injected in %v", len(ctx), r.took.Round(time.Millisecond))
	if ctx == "" {
		logged := logLines(data, "ERROR")[logBefore:]
		t.Errorf("with the write lock held by another connection, UserPromptSubmit injected nothing although reads work; took %v; log:\n%s",
			r.took.Round(time.Millisecond), logSummary(logged))
	}
}

package torture

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// quick scales the tests down for a fast look (CML_TORTURE_QUICK=1).
func quick() bool { return os.Getenv("CML_TORTURE_QUICK") == "1" }

// TestConcurrentHooks runs 8 sessions of 300 turns at once, each turn firing
// UserPromptSubmit, PostToolUse and Stop as separate processes while the
// transcript grows, with an import of other transcripts and repeated searches
// running alongside; then ends every session. Every prompt, tool call and
// answer must be stored exactly once and no hook may show the user an error.
func TestConcurrentHooks(t *testing.T) {
	need(t)
	const seed = 20261122
	sessions, turns, importFiles, importTurns := 8, 300, 6, 80
	if quick() {
		turns, importTurns = 30, 10
	}
	t.Logf("seed %d: %d sessions × %d turns, import of %d transcripts × %d turns", seed, sessions, turns, importFiles, importTurns)
	began := time.Now()
	root := t.TempDir()
	data := newDataDir(t)
	projects := []string{filepath.Join(root, "proj-a"), filepath.Join(root, "proj-b")}
	importDir := filepath.Join(root, "import")
	for _, d := range append(projects, importDir, filepath.Join(root, "transcripts")) {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	live := make([]*conversation, sessions)
	for s := range live {
		r := rand.New(rand.NewPCG(seed, uint64(s)))
		live[s] = newConversation(r, fmt.Sprintf("live-%d-%s", s, uuid(r)), fmt.Sprintf("s%d", s), projects[s%2], turns, 0)
	}
	imported := make([]*conversation, importFiles)
	for k := range imported {
		r := rand.New(rand.NewPCG(seed, uint64(100+k)))
		imported[k] = newConversation(r, fmt.Sprintf("imp-%d-%s", k, uuid(r)), fmt.Sprintf("i%d", k), projects[k%2], importTurns, 2000)
		imported[k].write(t, filepath.Join(importDir, imported[k].ID+".jsonl"))
	}

	var times durations
	var hookErrs, stderrs errorList
	fire := func(c *conversation, event string, in []byte) result {
		r := run(proc{bin: hookBin(event), dataDir: data, stdin: in, limit: time.Minute})
		times.add(event, r)
		if p := hookProblem(r, event); p != "" {
			hookErrs.add("%s %s: %s", event, c.ID, p)
		}
		if strings.TrimSpace(r.stderr) != "" {
			stderrs.add("%s %s: stderr %q", event, c.ID, clip(r.stderr, 300))
		}
		return r
	}

	// The import and the searches run until the sessions are done.
	stop := make(chan struct{})
	var side sync.WaitGroup
	var imports []result
	side.Add(1)
	go func() {
		defer side.Done()
		for range 2 { // the second run finds everything imported
			at := time.Now()
			r := run(proc{bin: "claude-memory-layer", args: []string{"import", "--dir", importDir, "--json"}, dataDir: data, limit: 5 * time.Minute})
			times.add("import", r)
			t.Logf("import ran from %s to %s", at.UTC().Format("15:04:05.000"), time.Now().UTC().Format("15:04:05.000"))
			imports = append(imports, r)
		}
	}()
	var searches, badSearches atomic.Int64
	var searchErrs errorList
	// Searches start once the store exists: a search racing the very first
	// open is TestSearchFreshStore's subject.
	started := make(chan struct{})
	var startOnce sync.Once
	side.Add(1)
	go func() {
		defer side.Done()
		select {
		case <-started:
		case <-stop:
			return
		}
		r := rand.New(rand.NewPCG(seed, 999))
		for {
			select {
			case <-stop:
				return
			default:
			}
			q := pick(r, components) + " " + pick(r, words)
			res := run(proc{bin: "claude-memory-layer", args: []string{"search", q, "--json", "--all-projects", "--limit", "5"}, dataDir: data, limit: time.Minute})
			times.add("search", res)
			searches.Add(1)
			if res.code != 0 || !gjson.Valid(res.stdout) || !gjson.Get(res.stdout, "results").IsArray() {
				badSearches.Add(1)
				searchErrs.add("search %q: exit %d stdout %q stderr %q", q, res.code, clip(res.stdout, 200), clip(res.stderr, 300))
			}
		}
	}()

	var wg sync.WaitGroup
	for _, c := range live {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tp := filepath.Join(root, "transcripts", c.ID+".jsonl")
			f, err := os.OpenFile(tp, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err != nil {
				hookErrs.add("%v", err)
				return
			}
			defer f.Close()
			write := func(b []byte) {
				if _, err := f.Write(b); err != nil {
					hookErrs.add("append to transcript: %v", err)
				}
			}
			fire(c, "SessionStart", c.startInput(tp))
			startOnce.Do(func() { close(started) })
			// PostToolUse and Stop are async in hooks.json: each may still run
			// while the next turn starts; at most one of each is in flight.
			toolDone, stopDone := make(chan struct{}), make(chan struct{})
			close(toolDone)
			close(stopDone)
			async := func(prev chan struct{}, event string, in []byte) chan struct{} {
				<-prev
				done := make(chan struct{})
				go func() { defer close(done); fire(c, event, in) }()
				return done
			}
			for i := range c.Turns {
				fire(c, "UserPromptSubmit", c.promptInput(tp, i))
				write(c.promptRows(i))
				write(c.toolRows(i))
				toolDone = async(toolDone, "PostToolUse", c.toolInput(tp, i))
				write(c.answerRows(i))
				stopDone = async(stopDone, "Stop", c.stopInput(tp, i))
			}
			<-toolDone
			<-stopDone
		}()
	}
	wg.Wait()
	close(stop)
	side.Wait()
	t.Logf("turns done in %v", time.Since(began).Round(time.Millisecond))

	endStart := time.Now()
	for _, c := range live {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fire(c, "SessionEnd", c.endInput(filepath.Join(root, "transcripts", c.ID+".jsonl")))
		}()
	}
	wg.Wait()
	t.Logf("session ends returned in %v", time.Since(endStart).Round(time.Millisecond))

	db := openRO(t, dbPath(data))
	all := append(append([]*conversation(nil), live...), imported...)
	ok, why := poll(5*time.Minute, 50*time.Millisecond, func() (bool, string) {
		var pending []string
		for _, c := range all {
			var summary string
			if err := db.QueryRow(`SELECT summary FROM sessions WHERE id = ?`, c.ID).Scan(&summary); err != nil || summary == "" {
				pending = append(pending, c.ID)
			}
		}
		if len(pending) > 0 {
			return false, fmt.Sprintf("%d sessions not processed: %v", len(pending), pending)
		}
		w := workers(data)
		return len(w) == 0, fmt.Sprintf("workers still running: %v", w)
	})
	if !ok {
		t.Errorf("processing did not finish within 5 minutes: %s", why)
	}
	t.Logf("processing finished %v after the session ends", time.Since(endStart).Round(time.Millisecond))

	hookErrs.report(t, "hook runs misbehaved")
	stderrs.report(t, "hook runs wrote to stderr")
	searchErrs.report(t, "searches failed")
	t.Logf("%d searches, %d bad", searches.Load(), badSearches.Load())
	for i, r := range imports {
		if r.code != 0 || r.err != nil || !gjson.Valid(r.stdout) {
			t.Errorf("import run %d: exit %d err %v stdout %q stderr %q", i+1, r.code, r.err, clip(r.stdout, 500), clip(r.stderr, 500))
			continue
		}
		got := gjson.Parse(r.stdout)
		if n := got.Get("sessions_failed").Int(); n != 0 {
			t.Errorf("import run %d: %d sessions failed: %s", i+1, n, got.Get("failures").Raw)
		}
		if n := got.Get("sessions_imported").Int() + got.Get("sessions_skipped").Int(); n != int64(importFiles) {
			t.Errorf("import run %d: imported+skipped = %d, want %d: %s", i+1, n, importFiles, r.stdout)
		}
		t.Logf("import run %d in %v: %s", i+1, r.took.Round(time.Millisecond), strings.Join(strings.Fields(r.stdout), " "))
	}

	for _, c := range all {
		checkStoredOnce(t, db, c)
		if n := queryInt(t, db, `SELECT count(*) FROM evidence WHERE session_id = ?`, c.ID); n == 0 {
			t.Errorf("session %s: no entry evidence: the session was not distilled", c.ID)
		}
	}
	for _, c := range live {
		if n := queryInt(t, db, `SELECT count(*) FROM sessions WHERE id = ? AND ended_at <> ''`, c.ID); n != 1 {
			t.Errorf("session %s: not recorded as ended", c.ID)
		}
	}
	if n := queryInt(t, db, `SELECT count(*) FROM (SELECT 1 FROM events
		WHERE type IN ('user_prompt', 'agent_response', 'tool_observation')
		GROUP BY session_id, type, text HAVING count(*) > 1)`); n != 0 {
		t.Errorf("%d (session, type, text) groups are stored more than once", n)
	}
	// Which copy won: the hook's or the transcript's. A prompt filed from the
	// transcript is one whose UserPromptSubmit failed to store it in time.
	rows, err := db.Query(`SELECT type, json_extract(payload, '$.source'), count(*) FROM events
		WHERE session_id LIKE 'live-%' AND type IN ('user_prompt', 'agent_response', 'tool_observation') GROUP BY 1, 2 ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	var sources []string
	for rows.Next() {
		var typ, src string
		var n int
		if err := rows.Scan(&typ, &src, &n); err != nil {
			t.Fatal(err)
		}
		sources = append(sources, fmt.Sprintf("%s from %s: %d", typ, src, n))
	}
	rows.Close()
	t.Logf("live sessions, stored copies by source: %s", strings.Join(sources, "; "))
	t.Logf("store: %d events, %d entries, %d evidence rows",
		queryInt(t, db, `SELECT count(*) FROM events`), queryInt(t, db, `SELECT count(*) FROM entries`), queryInt(t, db, `SELECT count(*) FROM evidence`))

	// Under this load (about 25 processes on 2 cores) a hook may wait for the
	// write lock or the CPU past its busy timeout or budget and give up: that
	// costs the hook's copy of a memory (the transcript brings the prompt in
	// anyway, as checkStoredOnce shows) or one reply's injected memories.
	// Lock errors, and deadlines a hook spent computing or sleeping on a
	// lock or a disk, are the store's and the hooks' doing: tolerated up to
	// loadErrorShare of the runs. A deadline a hook spent mostly waiting for
	// a CPU is the machine's (this test's load, and CI's other jobs):
	// reported, not counted. Any other error fails the test.
	var load, starved, other []string
	errs := logLines(data, "ERROR")
	passed := deadlinesPassed(errs)
	cut := 0 // handler errors of calls a deadline cut short, which its line accounts for
	for _, l := range errs {
		switch {
		case isStarved(l):
			starved = append(starved, l)
		case strings.Contains(l, "context deadline exceeded") && passed.explains(l):
			cut++
		case isLoadError(l):
			load = append(load, l)
		default:
			other = append(other, l)
		}
	}
	runs := len(live) * (2 + 3*turns)
	if len(other) > 0 {
		t.Errorf("%d ERROR lines in the log:\n%s", len(other), logSummary(other))
	}
	if cut > 0 {
		t.Logf("%d ERROR lines of calls cut short by a deadline their hook logged", cut)
	}
	if len(starved) > 0 {
		t.Logf("%d hook runs (%.2f%% of %d) passed their deadline having waited half of it for a CPU: the machine was busy:\n%s",
			len(starved), 100*float64(len(starved))/float64(runs), runs, logSummary(starved))
	}
	if len(load) > 0 {
		t.Logf("%d ERROR lines in the log from lock or deadline waits under load (%.2f%% of %d hook runs; tolerated up to %.1f%%):\n%s",
			len(load), 100*float64(len(load))/float64(runs), runs, 100*loadErrorShare, logSummary(load))
	}
	if float64(len(load)) > loadErrorShare*float64(runs) {
		t.Errorf("%d lock/deadline errors in %d hook runs: more than %.1f%%", len(load), runs, 100*loadErrorShare)
	}
	if warns := logLines(data, "WARN"); len(warns) > 0 {
		t.Logf("%d WARN lines in the log:\n%s", len(warns), logSummary(warns))
	}
	t.Logf("timings:\n%s", times.report())
	t.Logf("total %v", time.Since(began).Round(time.Millisecond))
}

// loadErrorShare is the share of hook runs that may give up on a lock, or
// on a deadline they spent mostly computing, under TestConcurrentHooks' load.
// Writers have taken turns and polled the write lock every millisecond
// (store.DB.Begin); before, 6 to 8 runs in 7,216 (0.08-0.11%) gave up, after,
// 0 or 1. Deadlines passed waiting for a CPU are not counted (isStarved):
// CI beside other jobs saw 74 (1.03%), each prompt hook using about 100 ms of
// CPU time and taking 850 ms.
const loadErrorShare = 0.005

// isLoadError reports whether a log line is a hook giving up on the store's
// lock, its deadline, or its stdin under CPU starvation.
func isLoadError(line string) bool {
	for _, s := range []string{"database is locked", "SQLITE_BUSY", "deadline exceeded", "interrupted"} {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

// isStarved reports whether a log line is a hook's deadline passing while
// the hook spent at least half of its budget waiting, runnable, for a CPU
// (hook.Run logs cpu_wait on Linux): the machine was busy. A hook that
// waited on a lock or a disk slept instead, and counts. Where the wait is
// not known, a hook that used under half its budget in CPU time is taken
// for starved.
func isStarved(line string) bool {
	if !strings.Contains(line, "deadline exceeded") {
		return false
	}
	budget, ok := logDuration(line, "budget")
	if !ok {
		return false
	}
	if wait, ok := logDuration(line, "cpu_wait"); ok {
		return wait >= budget/2
	}
	cpu, ok := logDuration(line, "cpu")
	return ok && cpu < budget/2
}

// deadlines holds, by hook and session, when hook.Run logged a deadline
// passed.
type deadlines map[string][]time.Time

// deadlinesPassed reads hook.Run's deadline lines of a log.
func deadlinesPassed(lines []string) deadlines {
	d := deadlines{}
	for _, l := range lines {
		if strings.Contains(l, `msg="deadline exceeded;`) {
			if at, ok := logTime(l); ok {
				k := logField(l, "hook") + " " + logField(l, "session")
				d[k] = append(d[k], at)
			}
		}
	}
	return d
}

// explains reports a deadline line of the same hook and session logged at
// most a few seconds after line: the hook's handler logged what the
// deadline cut short before Run said so, or in the instant before Run
// closed the log (a session's prompts come one at a time, each hook
// starting after the last one's line).
func (d deadlines) explains(line string) bool {
	at, ok := logTime(line)
	if !ok {
		return false
	}
	for _, t := range d[logField(line, "hook")+" "+logField(line, "session")] {
		if after := t.Sub(at); after > -100*time.Millisecond && after < 3*time.Second {
			return true
		}
	}
	return false
}

// logTime reads a log line's time.
func logTime(line string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, logField(line, "time"))
	return t, err == nil
}

// logField reads the value logged as key=value in line ("" if none).
func logField(line, key string) string {
	_, v, ok := strings.Cut(" "+line, " "+key+"=")
	if !ok {
		return ""
	}
	v, _, _ = strings.Cut(v, " ")
	return v
}

// logDuration reads the duration logged as key=value in line.
func logDuration(line, key string) (time.Duration, bool) {
	d, err := time.ParseDuration(logField(line, key))
	return d, err == nil
}

// checkStoredOnce checks that each prompt, tool call, intro and answer of c
// is stored exactly once, with the keys hooks and transcripts share.
func checkStoredOnce(t *testing.T, db *sql.DB, c *conversation) {
	t.Helper()
	rows, err := db.Query(`SELECT type, dedupe_key, text FROM events WHERE session_id = ?
		AND type IN ('user_prompt', 'agent_response', 'tool_observation')`, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	keys := map[string]string{} // dedupe key → text
	texts := map[string]int{}   // type + text → count
	counts := map[string]int{}
	for rows.Next() {
		var typ, key, text string
		if err := rows.Scan(&typ, &key, &text); err != nil {
			t.Fatal(err)
		}
		keys[key] = text
		texts[typ+"\x00"+text]++
		counts[typ]++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	n := len(c.Turns)
	if counts["user_prompt"] != n || counts["tool_observation"] != n || counts["agent_response"] != 2*n {
		t.Errorf("session %s: stored %v, want %d prompts, %d tool observations, %d answers", c.ID, counts, n, n, 2*n)
	}
	var missing []string
	for _, tr := range c.Turns {
		if got, ok := keys["prompt:"+c.ID+":"+tr.PromptID]; !ok || got != tr.Prompt {
			missing = append(missing, "prompt "+tr.PromptID)
		}
		if _, ok := keys["tool:"+c.ID+":"+tr.ToolID]; !ok {
			missing = append(missing, "tool "+tr.ToolID)
		}
		if texts["agent_response\x00"+tr.Intro] != 1 {
			missing = append(missing, fmt.Sprintf("intro %s ×%d", tr.IntroMsgID, texts["agent_response\x00"+tr.Intro]))
		}
		if texts["agent_response\x00"+tr.Answer] != 1 {
			missing = append(missing, fmt.Sprintf("answer %s ×%d", tr.AnswerMsgID, texts["agent_response\x00"+tr.Answer]))
		}
	}
	if len(missing) > 0 {
		t.Errorf("session %s: %d messages not stored exactly once, e.g. %v", c.ID, len(missing), missing[:min(len(missing), 10)])
	}
}

// TestSearchFreshStore: the CLI's read commands on a store file that exists
// but has no schema yet — the moment between a hook creating memory.db and
// migrating it, or after a hook killed in between — should read as empty, as
// a missing store does. TestConcurrentHooks saw `search` fail this way once
// when it started together with the first hooks.
func TestSearchFreshStore(t *testing.T) {
	need(t)
	data := newDataDir(t)
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	missing := run(proc{bin: "claude-memory-layer", args: []string{"search", "ledger", "--json", "--all-projects"}, dataDir: data})
	if missing.code != 0 {
		t.Fatalf("search without a store: exit %d: %s", missing.code, missing.stderr)
	}
	if err := os.WriteFile(dbPath(data), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, args := range [][]string{
		{"search", "ledger", "--json", "--all-projects"},
		{"entries", "--json", "--all-projects"},
		{"history", "--json", "--all-projects"},
		{"stats", "--json", "--all-projects"},
	} {
		r := run(proc{bin: "claude-memory-layer", args: args, dataDir: data})
		if r.code != 0 || !gjson.Valid(r.stdout) {
			failed = append(failed, fmt.Sprintf("%s: exit %d, stderr %q", strings.Join(args, " "), r.code, strings.TrimSpace(r.stderr)))
		}
	}
	if len(failed) > 0 {
		t.Errorf("on an empty memory.db (created, not yet migrated) the read commands fail instead of reading an empty store:\n  %s",
			strings.Join(failed, "\n  "))
	}
}

// isStarved reads hook.Run's deadline line: a wait for a CPU of half the
// budget is the machine's; a sleep on a lock, or CPU spent, is not.
func TestIsStarved(t *testing.T) {
	const head = `time=2026-12-02T00:04:35.127Z level=ERROR msg="deadline exceeded; no reply" hook=user-prompt-submit budget=1s`
	for _, tc := range []struct {
		line string
		want bool
	}{
		{head + " cpu=115ms cpu_wait=760ms", true},
		{head + " cpu=20ms cpu_wait=30ms", false}, // slept: a lock or a disk
		{head + " cpu=900ms cpu_wait=80ms", false},
		{head + " cpu=115ms", true}, // no wait known: little CPU used
		{head + " cpu=700ms", false},
		{head, false},
		{`level=ERROR msg="store prompt" err="database is locked" cpu_wait=900ms budget=1s`, false},
	} {
		if got := isStarved(tc.line); got != tc.want {
			t.Errorf("isStarved(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
	// A handler's error of a call the deadline cut short is explained by
	// the deadline line of its hook and session, seconds apart.
	d := deadlinesPassed([]string{head + " session=s1 cpu=115ms cpu_wait=760ms"})
	for _, tc := range []struct {
		line string
		want bool
	}{
		{`time=2026-12-02T00:04:34.900Z level=ERROR msg=recall hook=user-prompt-submit session=s1 err="adjacent events: context deadline exceeded"`, true},
		{`time=2026-12-02T00:04:35.400Z level=ERROR msg=recall hook=user-prompt-submit session=s1 err="adjacent events: context deadline exceeded"`, false},
		{`time=2026-12-02T00:04:34.900Z level=ERROR msg=recall hook=user-prompt-submit session=s2 err="adjacent events: context deadline exceeded"`, false},
		{`time=2026-12-02T00:04:34.900Z level=ERROR msg=recall hook=stop session=s1 err="context deadline exceeded"`, false},
		{`time=2026-12-02T00:04:55.000Z level=ERROR msg=recall hook=user-prompt-submit session=s1 err="context deadline exceeded"`, false},
	} {
		if got := d.explains(tc.line); got != tc.want {
			t.Errorf("explains(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/align"
	"github.com/claude-memory-layer/claude-memory-layer/internal/synthetic"
)

// extras measures what is not a per-prompt hook: import throughput,
// SessionEnd on a 1,000-message transcript, and alignment throughput.
func extras(binDir, tmp string, runs int) error {
	r := rand.New(rand.NewPCG(7, 7))
	if err := importRealistic(binDir, tmp); err != nil {
		return err
	}
	// Import: two 50 MB histories. Long sessions of short messages (1,000
	// each, a decision every tenth turn), and many short sessions shaped
	// like the shared fixture transcript (14 messages and 7 entries each),
	// where the per-session work dominates.
	long := filepath.Join(tmp, "history-long")
	os.MkdirAll(long, 0o755)
	for i, size := 0, 0; size < 50<<20; i++ {
		b, _ := transcript(r, fmt.Sprintf("imp-%04d", i), 500)
		os.WriteFile(filepath.Join(long, fmt.Sprintf("imp-%04d.jsonl", i)), b, 0o600)
		size += len(b)
	}
	if err := importLine(binDir, tmp, long, "long sessions of short messages"); err != nil {
		return err
	}
	if tmpl, err := os.ReadFile(fixtureTranscript); err == nil {
		short := filepath.Join(tmp, "history-short")
		if _, _, err := synthetic.History(tmpl, short, 50<<20, 1); err != nil {
			return err
		}
		if err := importLine(binDir, tmp, short, "short sessions shaped like the fixture"); err != nil {
			return err
		}
		if err := promptsDuringImport(binDir, tmp, short); err != nil {
			return err
		}
	} else {
		fmt.Printf("- import of fixture-shaped sessions: skipped (%v)\n", err)
	}

	if err := sessionEnd(r, binDir, tmp, runs); err != nil {
		return err
	}

	// Alignment: 100 quotes against a 2,000-message session.
	msgs := make([]string, 2000)
	size := 0
	for i := range msgs {
		msgs[i] = sentence(r) + " " + sentence(r) + " " + sentence(r) + " In " + pick(r, files) + " we changed line " + fmt.Sprint(i) + "."
		size += len(msgs[i])
	}
	quotes := make([]string, 100)
	cited := make([]int, 100)
	for i := range quotes {
		cited[i] = r.IntN(len(msgs))
		m := msgs[cited[i]]
		switch i % 4 {
		case 0:
			quotes[i] = m[:min(len(m), 120)]
		case 1:
			quotes[i] = strings.ToUpper(m[:min(len(m), 80)])
		case 2:
			q := []byte(m[:min(len(m), 150)])
			q[10], q[40] = 'x', 'y'
			quotes[i] = string(q)
		default:
			quotes[i] = "this sentence was never said in the session at all, " + sentence(r)
		}
	}
	var at []time.Duration
	for range 5 {
		st := time.Now()
		s := align.NewSession(msgs)
		for i, q := range quotes {
			s.Quote(q, (cited[i]+1)%len(msgs))
		}
		at = append(at, time.Since(st))
	}
	slices.Sort(at)
	fmt.Printf("- align: 100 quotes (exact, normalized, fuzzy, absent; cited message wrong on purpose) against 2,000 messages (%.1f MB): median %s = %.0f quotes/s\n",
		float64(size)/(1<<20), ms(at[2]), 100/at[2].Seconds())
	return nil
}

// fixtureTranscript is the shared fixture the short-session history copies;
// bench.sh runs from the repository root.
const fixtureTranscript = "testdata/claude-code/transcripts/basic.jsonl"

// importLine imports the transcripts in dir into a fresh store with the CLI
// and prints the throughput.
func importLine(binDir, tmp, dir, what string) error {
	var files, size int
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			files++
			size += int(fi.Size())
		}
	}
	data, err := os.MkdirTemp(tmp, "import-store-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(data)
	cmd := exec.Command(filepath.Join(binDir, "claude-memory-layer"), "import", "--dir", dir, "--json")
	cmd.Env = []string{"CLAUDE_MEMORY_DIR=" + data, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("import: %v\n%s", err, errOut.Bytes())
	}
	el := time.Since(start)
	var sum struct {
		Messages int `json:"messages"`
		Verified int `json:"entries_verified"`
	}
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		return fmt.Errorf("import summary: %v", err)
	}
	fmt.Printf("- import, %s: %s messages in %d sessions (%.1f MB of transcripts, %s entries verified) in %.2f s = %s messages/s, %.1f MB/s; offline extractor, extraction and alignment included\n",
		what, thousands(sum.Messages), files, float64(size)/(1<<20), thousands(sum.Verified), el.Seconds(), thousands(int(float64(sum.Messages)/el.Seconds())), float64(size)/(1<<20)/el.Seconds())
	return nil
}

// promptsDuringImport runs UserPromptSubmit, a new prompt every 20 ms, while
// the CLI imports dir into the same store, and prints the hook's wall times
// and how many prompts it could not store.
func promptsDuringImport(binDir, tmp, dir string) error {
	data, err := os.MkdirTemp(tmp, "import-hooks-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(data)
	env := []string{"CLAUDE_MEMORY_DIR=" + data, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
	start := []byte(`{"session_id":"live","cwd":"/home/dev/shop-api","transcript_path":"/nonexistent/live.jsonl","hook_event_name":"SessionStart","source":"startup"}`)
	if _, err := measure(filepath.Join(binDir, "session-start"), env, start, 1); err != nil {
		return err
	}
	imp := exec.Command(filepath.Join(binDir, "claude-memory-layer"), "import", "--dir", dir, "--json")
	imp.Env = env
	if err := imp.Start(); err != nil {
		return err
	}
	finished := make(chan error, 1)
	go func() { finished <- imp.Wait() }()
	time.Sleep(300 * time.Millisecond) // into the import's steady state
	var times []time.Duration
	var importErr error
	for running := true; running; {
		in := fmt.Sprintf(`{"session_id":"live","cwd":"/home/dev/shop-api","transcript_path":"/nonexistent/live.jsonl","hook_event_name":"UserPromptSubmit","prompt_id":"p%d","prompt":"How do we validate tokens for the payments API, take %d?"}`, len(times), len(times))
		c := exec.Command(filepath.Join(binDir, "user-prompt-submit"))
		c.Env = env
		c.Stdin = strings.NewReader(in)
		st := time.Now()
		if err := c.Run(); err != nil {
			return err
		}
		times = append(times, time.Since(st))
		select {
		case importErr = <-finished:
			running = false
		case <-time.After(20 * time.Millisecond):
		}
	}
	if importErr != nil {
		return fmt.Errorf("import: %v", importErr)
	}
	log, _ := os.ReadFile(filepath.Join(data, "claude-memory-layer.log"))
	lost := bytes.Count(log, []byte(`msg="store prompt"`))
	slices.Sort(times)
	fmt.Printf("- UserPromptSubmit while the fixture-shaped history imports into the same store: %d prompts, median %s, p95 %s, max %s; %d not stored\n",
		len(times), ms(times[len(times)/2]), ms(times[len(times)*95/100]), ms(times[len(times)-1]), lost)
	return nil
}

// thousands formats n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// transcript writes a seeded Claude Code transcript of turns prompt/answer pairs.
func transcript(r *rand.Rand, sid string, turns int) ([]byte, int) {
	var b bytes.Buffer
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range turns {
		ts := t0.Add(time.Duration(i) * time.Minute).Format("2006-01-02T15:04:05.000Z")
		fmt.Fprintf(&b, `{"type":"user","uuid":"%s-u%d","promptId":"%s-p%d","sessionId":"%s","cwd":"/home/dev/shop-api","timestamp":"%s","message":{"role":"user","content":%q}}`+"\n",
			sid, i, sid, i, sid, ts, "Please look at "+pick(r, files)+": "+sentence(r))
		answer := sentence(r) + " " + sentence(r)
		if i%10 == 0 {
			answer += " We'll use " + pick(r, objects) + " for " + pick(r, subjects) + "."
		}
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"%s-a%d","sessionId":"%s","cwd":"/home/dev/shop-api","timestamp":"%s","message":{"id":"msg-%s-%d","role":"assistant","content":[{"type":"text","text":%q}],"stop_reason":"end_turn"}}`+"\n",
			sid, i, sid, ts, sid, i, answer)
	}
	return b.Bytes(), turns * 2
}

// The session SessionEnd is measured on: its id, and its turns (two
// messages each).
const (
	endSession = "end-1000"
	endTurns   = 500
)

// sessionEnd prints SessionEnd's time on a live session of 1,000 messages
// whose transcript the hook ingests whole, then extracts and aligns, each
// run on a fresh store.
func sessionEnd(r *rand.Rand, binDir, tmp string, runs int) error {
	b, _ := transcript(r, endSession, endTurns)
	tpath := filepath.Join(tmp, "end-1000.jsonl")
	if err := os.WriteFile(tpath, b, 0o600); err != nil {
		return err
	}
	var times []time.Duration
	for i := range min(runs, 10) {
		d := filepath.Join(tmp, fmt.Sprintf("end-%d", i))
		if err := os.RemoveAll(d); err != nil {
			return err
		}
		env := []string{"CLAUDE_MEMORY_DIR=" + d, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
		in := fmt.Sprintf(`{"session_id":"end-1000","cwd":"/home/dev/shop-api","transcript_path":%q,"hook_event_name":"%%s","source":"startup","reason":"other"}`, tpath)
		if _, err := measure(filepath.Join(binDir, "session-start"), env, []byte(fmt.Sprintf(in, "SessionStart")), 1); err != nil {
			return err
		}
		c := exec.Command(filepath.Join(binDir, "session-end"))
		c.Env = env
		c.Stdin = bytes.NewReader([]byte(fmt.Sprintf(in, "SessionEnd")))
		st := time.Now()
		if err := c.Run(); err != nil {
			return err
		}
		times = append(times, time.Since(st))
		if log, _ := os.ReadFile(filepath.Join(d, "claude-memory-layer.log")); bytes.Contains(log, []byte("level=ERROR")) || bytes.Contains(log, []byte("handing over")) {
			fmt.Printf("  (session-end log: %s)\n", strings.TrimSpace(string(log)))
		}
	}
	slices.Sort(times)
	fmt.Printf("- session-end on a 1,000-message transcript (ingest + extract + align + store, in the hook): median %s, max %s over %d runs (%s)\n",
		ms(times[len(times)/2]), ms(times[len(times)-1]), len(times), binDir)
	return nil
}

// sessionEndCompare runs SessionEnd of two builds alternately, run by run,
// each on a fresh data directory, in two cases: the transcript stored by
// SessionEnd whole (as sessionEnd measures: a session whose Stop hooks did
// not run), and stored by a Stop first (the whole of it: its last answer
// is complete), so that SessionEnd, as at the usual end of a session,
// stores what is left (here nothing) and extracts the whole session.
// Untimed hooks run first: SessionStart, and Stop in the second case. As compare does, it reports wall time and user+system
// CPU per process, and the median of each pair's old/new ratio: on a
// machine other work shares, the same run of the two builds one after the
// other drifts least.
func sessionEndCompare(r *rand.Rand, oldBin, newBin, tmp string, runs int) error {
	b, _ := transcript(r, endSession, endTurns)
	tpath := filepath.Join(tmp, "end-1000.jsonl")
	if err := os.WriteFile(tpath, b, 0o600); err != nil {
		return err
	}
	in := fmt.Sprintf(`{"session_id":"end-1000","cwd":"/home/dev/shop-api","transcript_path":%q,"hook_event_name":"%%s","source":"startup","reason":"other","stop_hook_active":false}`, tpath)
	cases := []struct {
		name   string
		before []string // the untimed hooks before SessionEnd
	}{
		{"whole transcript", []string{"SessionStart"}},
		{"after Stop", []string{"SessionStart", "Stop"}},
	}
	binOf := map[string]string{"SessionStart": "session-start", "Stop": "stop"}
	type key struct{ bin, name string }
	wall := map[key][]time.Duration{}
	cpu := map[key][]time.Duration{}
	rounds := min(runs, 30)
	before := loadAvg()
	for i := range rounds {
		for _, c := range cases {
			order := []string{oldBin, newBin}
			if i%2 != 0 {
				order = []string{newBin, oldBin}
			}
			for _, bin := range order {
				d := filepath.Join(tmp, "end-cmp")
				if err := os.RemoveAll(d); err != nil {
					return err
				}
				env := []string{"CLAUDE_MEMORY_DIR=" + d, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
				for _, h := range c.before {
					cmd := exec.Command(filepath.Join(bin, binOf[h]))
					cmd.Env = env
					cmd.Stdin = bytes.NewReader([]byte(fmt.Sprintf(in, h)))
					if err := cmd.Run(); err != nil {
						return fmt.Errorf("%s: %v", cmd.Path, err)
					}
				}
				cmd := exec.Command(filepath.Join(bin, "session-end"))
				cmd.Env = env
				cmd.Stdin = bytes.NewReader([]byte(fmt.Sprintf(in, "SessionEnd")))
				st := time.Now()
				if err := cmd.Run(); err != nil {
					return fmt.Errorf("%s: %v", cmd.Path, err)
				}
				k := key{bin, c.name}
				wall[k] = append(wall[k], time.Since(st))
				cpu[k] = append(cpu[k], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
				if log, _ := os.ReadFile(filepath.Join(d, "claude-memory-layer.log")); bytes.Contains(log, []byte("level=ERROR")) || bytes.Contains(log, []byte("handing over")) {
					fmt.Printf("  (%s, %s: session-end log: %s)\n", bin, c.name, strings.TrimSpace(string(log)))
				}
			}
		}
	}
	median := func(ds []time.Duration) time.Duration { return slices.Sorted(slices.Values(ds))[len(ds)/2] }
	fmt.Printf("SessionEnd on a 1,000-message transcript: old build %s and new build %s, run by run, %d rounds; load %s before, %s after.\n\n", oldBin, newBin, rounds, before, loadAvg())
	fmt.Println("| case | old wall | new wall | old/new wall | old CPU | new CPU | old/new CPU |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for _, c := range cases {
		o, nw := key{oldBin, c.name}, key{newBin, c.name}
		fmt.Printf("| %s | %s | %s | %.3f | %s | %s | %.3f |\n", c.name, ms(median(wall[o])), ms(median(wall[nw])), pairRatio(wall[o], wall[nw]),
			ms(median(cpu[o])), ms(median(cpu[nw])), pairRatio(cpu[o], cpu[nw]))
	}
	return nil
}

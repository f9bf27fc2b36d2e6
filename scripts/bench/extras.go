package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/align"
)

// extras measures what is not a per-prompt hook: import throughput,
// SessionEnd on a 1,000-message transcript, and alignment throughput.
func extras(binDir, tmp string, runs int) error {
	r := rand.New(rand.NewPCG(7, 7))
	// Import: 40 sessions of 1,000 messages each.
	dir := filepath.Join(tmp, "transcripts")
	os.MkdirAll(dir, 0o755)
	var total, bytesTotal int
	for i := range 40 {
		b, n := transcript(r, fmt.Sprintf("imp-%03d", i), 500)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("imp-%03d.jsonl", i)), b, 0o600)
		total += n
		bytesTotal += len(b)
	}
	data := filepath.Join(tmp, "import-store")
	cmd := exec.Command(filepath.Join(binDir, "claude-memory-layer"), "import", "--dir", dir)
	cmd.Env = []string{"CLAUDE_MEMORY_DIR=" + data, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("import: %v\n%s", err, out)
	}
	el := time.Since(start)
	fmt.Printf("- import: %d messages (%.1f MB of transcripts, 40 sessions) in %.2f s = %.0f messages/s, offline extractor, extraction and alignment included\n",
		total, float64(bytesTotal)/(1<<20), el.Seconds(), float64(total)/el.Seconds())

	// SessionEnd: a live session of 1,000 messages whose transcript the hook ingests whole, then extracts and aligns.
	b, _ := transcript(r, "end-1000", 500)
	tpath := filepath.Join(tmp, "end-1000.jsonl")
	os.WriteFile(tpath, b, 0o600)
	var times []time.Duration
	for i := range min(runs, 10) {
		d := filepath.Join(tmp, fmt.Sprintf("end-%d", i))
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
	fmt.Printf("- session-end on a 1,000-message transcript (ingest + extract + align + store, in the hook): median %s, max %s over %d runs\n",
		ms(times[len(times)/2]), ms(times[len(times)-1]), len(times))

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

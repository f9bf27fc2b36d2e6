//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"
)

// benchPrompts are the prompts compare and teamBench take turns with: one
// asks about a fact said a few times, the others about what the project
// discusses all the time, whose words are in thousands of messages (the
// prompt path's costliest case).
var benchPrompts = []string{
	"Which port does the staging pgbouncer listen on behind haproxy?",
	"How did we configure retries for the payment webhook consumer?",
	"Why did the CI pipeline fail on the orders API?",
	"What did we decide about the JWT middleware keys?",
	"run the tests again",
}

// upgrade upgrades the store in data directory dir to binDir's schema
// (claude-memory-layer upgrade), and checks that it did: an upgrade that
// found another worker running says so and leaves the store as it was.
func upgrade(binDir, dir string) error {
	up := exec.Command(filepath.Join(binDir, "claude-memory-layer"), "upgrade", "--wait", "1m")
	up.Env = []string{"CLAUDE_MEMORY_DIR=" + dir, "HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	if out, err := up.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("store at schema version")) {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}

// compare runs the hooks of two builds alternately, call by call, each on
// its own copy of one realistic store of n messages. The old build seeds
// it, since it cannot read a newer schema; the new build upgrades its copy
// before the first timed call. On a machine other work shares, wall times
// drift from minute to minute; alternating exposes both builds to the same
// drift. The calls follow a session: a prompt, three tool calls, the
// answer, the prompts taking turns (benchPrompts).
func compare(oldBin, newBin, tmp string, n, rounds int) error {
	seeded := filepath.Join(tmp, "compare-seed")
	if err := seedRealistic(oldBin, seeded, n); err != nil {
		return err
	}
	dirs := map[string]string{}
	for _, b := range []string{oldBin, newBin} {
		d, err := os.MkdirTemp(tmp, "compare-")
		if err != nil {
			return err
		}
		if out, err := exec.Command("cp", "-a", seeded+"/.", d).CombinedOutput(); err != nil {
			return fmt.Errorf("copy store: %v: %s", err, out)
		}
		dirs[b] = d
	}
	// A hook does not upgrade a large store itself: it starts a detached
	// upgrade and skips recall until that is done, so timed then the new
	// build's prompts would measure nothing (at 100k messages the upgrade
	// outlasts the warm-up turns). Upgraded here, and checked: an upgrade
	// that found another worker running says so and leaves the store as
	// it was.
	began := time.Now()
	if err := upgrade(newBin, dirs[newBin]); err != nil {
		return fmt.Errorf("upgrade the new build's copy: %w", err)
	}
	fmt.Printf("The new build upgraded its copy in %s.\n", time.Since(began).Round(time.Millisecond))
	calls := []struct{ name, bin, in string }{
		{"UserPromptSubmit", "user-prompt-submit", `{"session_id":"cmp-%d","cwd":"/home/dev/shop-api","hook_event_name":"UserPromptSubmit","prompt_id":"p%d","prompt":%q}`},
		{"PostToolUse", "post-tool-use", `{"session_id":"cmp-%d","cwd":"/home/dev/shop-api","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"npm test %d a"},"tool_response":{"stdout":"PASS","stderr":""},"tool_use_id":"ta"}`},
		{"PostToolUse", "post-tool-use", `{"session_id":"cmp-%d","cwd":"/home/dev/shop-api","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"npm test %d b"},"tool_response":{"stdout":"PASS","stderr":""},"tool_use_id":"tb"}`},
		{"PostToolUse", "post-tool-use", `{"session_id":"cmp-%d","cwd":"/home/dev/shop-api","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"npm test %d c"},"tool_response":{"stdout":"PASS","stderr":""},"tool_use_id":"tc"}`},
		{"Stop", "stop", `{"session_id":"cmp-%d","cwd":"/home/dev/shop-api","transcript_path":"/nonexistent/x.jsonl","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done, take %d."}`},
	}
	prompts := benchPrompts
	type key struct{ bin, hook string }
	times := map[key][]time.Duration{}
	cpu := map[key][]time.Duration{} // user+system, from the process's rusage
	start := `{"session_id":"cmp-%d","cwd":"/home/dev/shop-api","hook_event_name":"SessionStart","source":"startup"}`
	before := loadAvg()
	for r := -2; r < rounds; r++ {
		sess := max(r, 0) / 5 // a session of five turns
		for _, c := range append([]struct{ name, bin, in string }{{"SessionStart", "session-start", start}}, calls...) {
			if c.name == "SessionStart" && r%5 != 0 {
				continue
			}
			order := []string{oldBin, newBin}
			if r%2 != 0 {
				order = []string{newBin, oldBin} // neither build always runs second, on a warmer cache
			}
			for _, b := range order {
				cmd := exec.Command(filepath.Join(b, c.bin))
				cmd.Env = []string{"CLAUDE_MEMORY_DIR=" + dirs[b], "HOME=" + dirs[b], "PATH=" + os.Getenv("PATH")}
				in := fmt.Appendf(nil, c.in, sess, r+2)
				name := c.name
				if c.name == "UserPromptSubmit" {
					p := prompts[(r+len(prompts))%len(prompts)]
					in = fmt.Appendf(nil, c.in, sess, r+2, p)
					name = fmt.Sprintf("%s %q", c.name, p)
				}
				cmd.Stdin = bytes.NewReader(in)
				st := time.Now()
				if err := cmd.Run(); err != nil {
					return fmt.Errorf("%s: %v", cmd.Path, err)
				}
				if r >= 0 {
					took, used := time.Since(st), cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime()
					for _, k := range []key{{b, c.name}, {b, name}} {
						times[k] = append(times[k], took)
						cpu[k] = append(cpu[k], used)
						if name == c.name {
							break
						}
					}
				}
			}
		}
	}
	fmt.Printf("Old build %s and new build %s, call by call on copies of one realistic store of %d messages, %d turns; load %s before, %s after.\n\n", oldBin, newBin, n, rounds, before, loadAvg())
	fmt.Println("| hook | old median | new median | old p90 | new p90 |")
	fmt.Println("|---|---:|---:|---:|---:|")
	hooks := []string{"SessionStart", "UserPromptSubmit"}
	for _, p := range prompts {
		hooks = append(hooks, fmt.Sprintf("UserPromptSubmit %q", p))
	}
	for _, h := range append(hooks, "PostToolUse", "Stop") {
		o, nw := times[key{oldBin, h}], times[key{newBin, h}]
		slices.Sort(o)
		slices.Sort(nw)
		fmt.Printf("| %s | %s | %s | %s | %s |\n", h, ms(o[len(o)/2]), ms(nw[len(nw)/2]), ms(o[len(o)*9/10]), ms(nw[len(nw)*9/10]))
	}
	// CPU per process varies less than wall time with the machine's other
	// work; the ratio of each pair (the same call, one after the other)
	// cancels what drift is left.
	fmt.Println("\nCPU (user+system) per process:\n\n| hook | calls | old median | new median | old/new, median of pairs |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, h := range append(hooks, "PostToolUse", "Stop") {
		o, nw := cpu[key{oldBin, h}], cpu[key{newBin, h}]
		r := pairRatio(o, nw)
		o, nw = slices.Sorted(slices.Values(o)), slices.Sorted(slices.Values(nw))
		fmt.Printf("| %s | %d | %.2f ms | %.2f ms | %.3f |\n", h, len(o), float64(o[len(o)/2].Microseconds())/1000, float64(nw[len(nw)/2].Microseconds())/1000, r)
	}
	return nil
}

// pairRatio is the median of o[i]/nw[i]: each pair ran one after the
// other, so the ratio cancels most of the machine's drift.
func pairRatio(o, nw []time.Duration) float64 {
	rs := make([]float64, len(o))
	for i := range o {
		rs[i] = float64(o[i]) / float64(max(nw[i], 1))
	}
	slices.Sort(rs)
	return rs[len(rs)/2]
}

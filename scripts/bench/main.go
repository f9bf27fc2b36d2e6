//go:build linux

// Command bench measures the hook binaries' wall time, process start to exit,
// on seeded synthetic stores, next to a trivial static Go binary measured in the
// same run, and prints one markdown table. Run it through scripts/bench.sh.
// It reads peak RSS from Linux's rusage, in KB, so it builds on Linux only.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

func main() {
	bin := flag.String("bin", "bin", "directory with the built hook binaries")
	runs := flag.Int("runs", 50, "timed runs per measurement")
	sizes := flag.String("events", "0,10000,100000", "store sizes in events")
	seedOnly := flag.String("seed", "", "only write a seeded store of the first -events size into this data directory")
	compareWith := flag.String("compare", "", "only compare the hooks of the build in this directory (old) with -bin's (new), alternately, on copies of one realistic store of the last -events size")
	historyOnly := flag.String("history", "", "only write realistic transcripts of the first -events size (messages) into this directory")
	mcpOnly := flag.Bool("mcp", false, "only measure the MCP server, on a store of the last -events size")
	teamOnly := flag.Bool("team", false, "only compare the prompt hook on a store of n/10 own and n teammates' memories with one of n + n/10 own, alternately, n the last -events size (100000: the issue's 10k + 100k against 110k)")
	endOnly := flag.Bool("sessionend", false, "only measure SessionEnd on a 1,000-message transcript, with -bin's build; with -compare, both builds run by run, also after a Stop stored the transcript, with CPU and the old/new ratio of each pair")
	endTranscript := flag.String("endtranscript", "", "only write the 1,000-message transcript -sessionend measures into this file (for handler's BenchmarkSessionEnd)")
	rssStore := flag.String("rss", "", "only measure the prompt hook's peak RSS, once for each prompt of -prompts, on copies of this data directory (a real project's store)")
	rssPrompts := flag.String("prompts", "", "with -rss: a file of prompts, one a line")
	rssCwd := flag.String("cwd", "", "with -rss: the directory the prompts are sent from (the project's)")
	flag.BoolVar(&hooksOnly, "hooks", false, "only the hook table and store sizes (no MCP server, import or SessionEnd lines)")
	flag.StringVar(&shape, "shape", "realistic", "store shape: realistic (imported 100-message sessions whose claims recur, evidence-dense) or uniform (appended events, one single-quote entry per ten)")
	flag.Parse()
	if *runs < 1 {
		// Every measurement reports a median of its runs.
		fmt.Fprintln(os.Stderr, "bench: -runs must be at least 1")
		os.Exit(2)
	}
	if *rssStore != "" {
		inTemp(func(tmp string) error { return promptRSS(*bin, tmp, *rssStore, *rssPrompts, *rssCwd) })
		return
	}
	if *mcpOnly {
		inTemp(func(tmp string) error {
			sz := parseSizes(*sizes)
			return mcpBench(*bin, tmp, sz[len(sz)-1], *runs)
		})
		return
	}
	if *endTranscript != "" {
		b, _ := transcript(rand.New(rand.NewPCG(7, 7)), endSession, endTurns)
		if err := os.WriteFile(*endTranscript, b, 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *endOnly {
		inTemp(func(tmp string) error {
			if *compareWith != "" {
				return sessionEndCompare(rand.New(rand.NewPCG(7, 7)), *compareWith, *bin, tmp, *runs)
			}
			for range 3 {
				if err := sessionEnd(rand.New(rand.NewPCG(7, 7)), *bin, tmp, *runs); err != nil {
					return err
				}
			}
			return nil
		})
		return
	}
	if *compareWith != "" {
		inTemp(func(tmp string) error {
			sz := parseSizes(*sizes)
			return compare(*compareWith, *bin, tmp, sz[len(sz)-1], *runs)
		})
		return
	}
	if *teamOnly {
		// With -seed DIR it only writes the two stores, as DIR/team-own and
		// DIR/team-team (for BenchmarkHooks' CML_BENCH_DIR).
		tmp, err := *seedOnly, error(nil)
		if tmp == "" {
			tmp, err = os.MkdirTemp("", "cml-bench-")
		}
		if err == nil {
			sz := parseSizes(*sizes)
			err = teamBench(*bin, tmp, sz[len(sz)-1], *runs, *seedOnly == "")
			if *seedOnly == "" {
				os.RemoveAll(tmp)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *historyOnly != "" {
		if _, err := realisticSessions(rand.New(rand.NewPCG(9, 9)), *historyOnly, parseSizes(*sizes)[0], 0); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *seedOnly != "" {
		if err := seed(*bin, *seedOnly, parseSizes(*sizes)[0]); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*bin, *runs, parseSizes(*sizes)); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseSizes(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		var n int
		fmt.Sscan(f, &n)
		out = append(out, n)
	}
	return out
}

// shape is the -shape flag (how seeded stores are made), hooksOnly the -hooks flag.
var (
	shape     string
	hooksOnly bool
)

// seed writes a store of n messages of the chosen shape into data directory dir.
func seed(binDir, dir string, n int) error {
	if shape == "uniform" {
		return seedStore(filepath.Join(dir, "memory.db"), n)
	}
	if n == 0 {
		return os.MkdirAll(dir, 0o700)
	}
	return seedRealistic(binDir, dir, n)
}

type sample struct{ median, p95 time.Duration }

// measure runs bin with stdin runs times (after two warm-ups) and reports the
// median and 95th percentile wall time.
func measure(bin string, env []string, stdin []byte, runs int) (sample, error) {
	var times []time.Duration
	for i := range runs + 2 {
		cmd := exec.Command(bin)
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return sample{}, fmt.Errorf("%s: %v", bin, err)
		}
		el := time.Since(start)
		if i >= 2 {
			times = append(times, el)
		}
	}
	slices.Sort(times)
	return sample{median: times[len(times)/2], p95: times[len(times)*95/100]}, nil
}

func run(binDir string, runs int, sizes []int) error {
	tmp, err := os.MkdirTemp("", "cml-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	floor, err := buildFloor(tmp)
	if err != nil {
		return err
	}
	wrap, err := buildRSSWrapper(tmp)
	if err != nil {
		return err
	}
	var storeSizes, loads []string
	fmt.Printf("Hook wall time, process start to exit; %d runs each after 2 warm-ups; %s; %s stores; floor = a trivial static Go binary that reads stdin, interleaved.\n", runs, time.Now().UTC().Format("2006-01-02"), shape)
	fmt.Printf("Peak RSS is each hook process's own (ru_maxrss of a small wrapper's one child, max of 3 runs).\n\n")
	fmt.Println("| hook | store (messages; events / entries / evidence) | median | p95 | floor median | ratio | peak RSS |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|")
	for _, n := range sizes {
		data := filepath.Join(tmp, fmt.Sprintf("store-%d", n))
		if err := seed(binDir, data, n); err != nil {
			return err
		}
		var c storeCounts
		if n > 0 {
			if c, err = countStore(filepath.Join(data, "memory.db")); err != nil {
				return err
			}
		}
		before := loadAvg()
		env := []string{"CLAUDE_MEMORY_DIR=" + data, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
		for _, h := range hookInputs(n) {
			fl, err := measure(floor, env, h.input, runs)
			if err != nil {
				return err
			}
			s, err := measure(filepath.Join(binDir, h.bin), env, h.input, runs)
			if err != nil {
				return err
			}
			rss, err := hookRSS(wrap, filepath.Join(binDir, h.bin), env, h.input)
			if err != nil {
				return err
			}
			fmt.Printf("| %s | %d; %d / %d / %d | %s | %s | %s | %.1f× | %.1f MB |\n", h.name, n, c.events, c.entries, c.evidence, ms(s.median), ms(s.p95), ms(fl.median),
				float64(s.median)/float64(fl.median), float64(rss)/1024)
		}
		loads = append(loads, fmt.Sprintf("%d messages: %s before, %s after", n, before, loadAvg()))
		if n > 0 {
			fi, err := os.Stat(filepath.Join(data, "memory.db"))
			if err != nil {
				return err
			}
			storeSizes = append(storeSizes, fmt.Sprintf("%.0f KB per 1,000 messages (store of %d messages: %d events, %d entries, %d evidence rows, %d conflicts: %.1f MB)",
				float64(fi.Size())/1024/float64(n)*1000, n, c.events, c.entries, c.evidence, c.conflicts, float64(fi.Size())/(1<<20)))
		}
	}
	fmt.Println()
	for _, line := range loads {
		fmt.Println("- load average (1, 5, 15 min) during the runs at", line)
	}
	for _, line := range storeSizes {
		fmt.Println("- store size:", line)
	}
	if hooksOnly {
		return nil
	}
	if err := mcpBench(binDir, tmp, sizes[len(sizes)-1], runs); err != nil {
		return err
	}
	return extras(binDir, tmp, runs)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func buildFloor(dir string) (string, error) {
	return buildProgram(dir, "floor", "package main\n\nimport (\n\t\"io\"\n\t\"os\"\n)\n\nfunc main() { io.Copy(io.Discard, os.Stdin) }\n")
}

// buildRSSWrapper builds a small static program that runs its argument with
// its own stdin and prints the child's ru_maxrss (KB) on stderr. The bench
// process itself cannot: a child forked from it starts with the bench's
// (large) address space, and Linux keeps that mm's high-water mark as the
// child's maxrss across exec.
func buildRSSWrapper(dir string) (string, error) {
	return buildProgram(dir, "rsswrap", `package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	c := exec.Command(os.Args[1])
	c.Stdin, c.Stdout = os.Stdin, os.Stdout
	if err := c.Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Fprint(os.Stderr, c.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
}
`)
}

// inTemp runs one of the bench's modes in a temporary directory, removed
// after; on an error it exits, printing it.
func inTemp(mode func(tmp string) error) {
	tmp, err := os.MkdirTemp("", "cml-bench-")
	if err == nil {
		err = mode(tmp)
		os.RemoveAll(tmp)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// hookRSS is the largest ru_maxrss, in KB, of three runs of bin.
func hookRSS(wrap, bin string, env []string, stdin []byte) (int64, error) {
	var peak int64
	for range 3 {
		kb, _, err := rssRun(wrap, bin, env, stdin)
		if err != nil {
			return 0, err
		}
		peak = max(peak, kb)
	}
	return peak, nil
}

// rssRun runs bin once through the wrapper: its ru_maxrss, in KB, and
// what it printed.
func rssRun(wrap, bin string, env []string, stdin []byte) (int64, []byte, error) {
	cmd := exec.Command(wrap, bin)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return 0, nil, fmt.Errorf("%s: %v: %s", bin, err, errOut.Bytes())
	}
	var kb int64
	fmt.Sscan(errOut.String(), &kb)
	return kb, out.Bytes(), nil
}

// loadAvg is the machine's load average, from /proc/loadavg.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if err != nil || len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func buildProgram(dir, name, src string) (string, error) {
	srcDir := filepath.Join(dir, name)
	os.MkdirAll(srcDir, 0o755)
	os.WriteFile(filepath.Join(srcDir, "go.mod"), []byte("module "+name+"\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(srcDir, "main.go"), []byte(src), 0o644)
	out := filepath.Join(dir, name+"-bin")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	cmd.Dir = srcDir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build %s: %v\n%s", name, err, b)
	}
	return out, nil
}

type hookInput struct {
	name, bin string
	input     []byte
}

// hookInputs are realistic inputs for each hook in a session of the seeded project.
// The prompt ids vary per size so the prompt is new to each store.
func hookInputs(n int) []hookInput {
	base := fmt.Sprintf(`"session_id":"bench-%d","cwd":"/home/dev/shop-api","transcript_path":"/nonexistent/bench.jsonl"`, n)
	return []hookInput{
		{"SessionStart", "session-start", []byte(`{` + base + `,"hook_event_name":"SessionStart","source":"startup"}`)},
		{"UserPromptSubmit", "user-prompt-submit", []byte(`{` + base + `,"hook_event_name":"UserPromptSubmit","prompt_id":"bench-prompt","prompt":"Which port does the staging pgbouncer listen on behind haproxy?"}`)},
		{"PostToolUse", "post-tool-use", []byte(`{` + base + `,"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"npm test -- test/orders.test.js"},"tool_response":{"stdout":"PASS test/orders.test.js\nTests: 4 passed","stderr":""},"tool_use_id":"toolu_bench"}`)},
		{"Stop", "stop", []byte(`{` + base + `,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done. The orders API now verifies RS256 tokens with the public key in ./keys."}`)},
		{"SessionEnd", "session-end", []byte(`{` + base + `,"hook_event_name":"SessionEnd","reason":"other"}`)},
	}
}

// Vocabulary for seeded, realistic coding-session text.
var (
	subjects = []string{"the orders API", "the payment service", "the JWT middleware", "the migration script", "the CI pipeline", "the React dashboard", "the Postgres schema", "the test suite", "the webhook handler", "the cache layer", "the auth flow", "the build config"}
	verbs    = []string{"fails on", "needs", "should use", "now calls", "was refactored to use", "breaks with", "times out on", "depends on", "was moved to", "logs errors from"}
	objects  = []string{"RS256 keys in ./keys", "a shared HS256 secret", "vitest instead of jest", "pnpm workspaces", "Redis 7 with TLS", "the retry queue", "src/app.js", "test/orders.test.js", "port 8443", "node 20", "the feature flag LEDGER_V2", "docker compose", "GitHub Actions", "the staging cluster"}
	tails    = []string{"after the last deploy.", "when the token expires.", "under load.", "in CI only.", "since we upgraded.", "on the first request.", "for large payloads.", "because of a race."}
	files    = []string{"src/app.js", "src/middleware/requireJwt.js", "test/orders.test.js", "migrations/0042_orders.sql", "package.json", ".github/workflows/ci.yml", "src/routes/orders.js"}
)

func sentence(r *rand.Rand) string {
	return fmt.Sprintf("%s %s %s %s", pick(r, subjects), pick(r, verbs), pick(r, objects), pick(r, tails))
}

func pick(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }

// seedStore fills a store with n events spread over sessions of 50 events,
// in the same shape the hooks write: prompts, answers and tool observations.
func seedStore(path string, n int) error {
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	r := rand.New(rand.NewPCG(42, uint64(n)))
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	const batch = 5000
	evs := make([]store.Event, 0, batch)
	for i := range n {
		sess := fmt.Sprintf("seed-%d", i/50)
		ev := store.Event{Time: t0.Add(time.Duration(i) * time.Minute), SessionID: sess, Project: "/home/dev/shop-api", DedupeKey: fmt.Sprintf("seed:%d", i)}
		switch i % 3 {
		case 0:
			ev.Type, ev.Text = store.TypeUserPrompt, "Please look at "+pick(r, files)+": "+sentence(r)
		case 1:
			ev.Type, ev.Text = store.TypeAgentResponse, sentence(r)+" "+sentence(r)+" I changed "+pick(r, files)+"."
		default:
			ev.Type, ev.Text = store.TypeToolObservation, "Bash: npm test -- "+pick(r, files)+"\n"+sentence(r)
		}
		if i%997 == 1 {
			// A real history also holds specific facts, said once or a few
			// times; the benchmark prompt asks about one, so that recall
			// does its whole work instead of abstaining.
			ev.Text += fmt.Sprintf(" The staging pgbouncer listens on port %d behind haproxy on db-gw-%d.", 6400+i%97, i%13)
		}
		evs = append(evs, ev)
		if len(evs) == batch {
			if err := appendEvents(ctx, db, evs); err != nil {
				return err
			}
			evs = evs[:0]
		}
	}
	if err := appendEvents(ctx, db, evs); err != nil {
		return err
	}
	// One verified entry per ten events, as a real store holds after extraction.
	types := []string{"decision", "fact", "constraint", "preference", "lesson", "task"}
	for i := range n / 10 {
		title := sentence(r)
		_, _, err := db.PutEntry(ctx, store.Entry{Project: "/home/dev/shop-api", SessionID: fmt.Sprintf("seed-%d", i*10/50),
			Type: types[i%len(types)], Title: title, Subject: pick(r, subjects), ClaimKey: fmt.Sprintf("claim-%d", i),
			Stage: store.StageVerified, Created: t0.Add(time.Duration(i*10) * time.Minute),
			Evidence: []store.Evidence{{SessionID: fmt.Sprintf("seed-%d", i*10/50), Quote: title, Method: "exact", Confidence: 1, SpanEnd: len(title)}}})
		if err != nil {
			return err
		}
	}
	return nil
}

// appendEvents stores evs in one transaction.
func appendEvents(ctx context.Context, db *store.DB, evs []store.Event) error {
	return db.Update(ctx, func(tx *store.Tx) error {
		_, err := tx.Append(ctx, evs...)
		return err
	})
}

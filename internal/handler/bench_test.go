package handler

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// BenchmarkHooks runs the prompt path and SessionStart in-process, as the
// hook binaries do (config, open, recall, write, close), against the data
// directory in CML_BENCH_DIR: a store seeded with
// `go run ./scripts/bench -seed DIR -events N`. With -cpuprofile it shows
// where a hook's time goes at that size. Each prompt is new (its own
// prompt_id); the prompts take turns, as in `bench -compare`, in sessions of
// five, since a session is not shown a memory twice (a long session of one
// prompt soon recalls nothing new and measures nothing).
// CML_BENCH_PROMPT replaces them with one prompt.
//
//	CML_BENCH_DIR=/tmp/s100k go test -run '^$' -bench Hooks -cpuprofile cpu.out ./internal/handler
func BenchmarkHooks(b *testing.B) {
	dir := os.Getenv("CML_BENCH_DIR")
	if dir == "" {
		b.Skip("CML_BENCH_DIR names no seeded data directory")
	}
	getenv := func(k string) string {
		if k == "CLAUDE_MEMORY_DIR" {
			return dir
		}
		return ""
	}
	base := `"session_id":"bench-inproc","cwd":"/home/dev/shop-api","transcript_path":"/nonexistent/bench.jsonl"`
	run := func(b *testing.B, name string, h hook.Handler, input func(i int) string) {
		var out bytes.Buffer
		recalled := false
		var cpu time.Duration
		for i := 0; b.Loop(); i++ {
			out.Reset()
			before := cpuTime(b)
			hook.Run(bytes.NewReader([]byte(input(i))), &out, io.Discard, hook.Options{Name: name, Budget: PromptBudget, Getenv: getenv}, h)
			cpu += cpuTime(b) - before
			recalled = recalled || bytes.Contains(out.Bytes(), []byte("mem:"))
			// A session's Stop stores what a turn spooled; untimed here, so
			// that the spool stays as short as a session keeps it.
			b.StopTimer()
			foldSpool(b, dir)
			b.StartTimer()
		}
		// CPU time is what other work on the machine changes least: wall
		// time under load measures the load.
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		if name == "user-prompt-submit" && !recalled {
			b.Errorf("no prompt recalled anything: %s", out.Bytes())
		}
	}
	// The prompts of scripts/bench/compare.go's benchPrompts.
	prompts := []string{
		"Which port does the staging pgbouncer listen on behind haproxy?",
		"How did we configure retries for the payment webhook consumer?",
		"Why did the CI pipeline fail on the orders API?",
		"What did we decide about the JWT middleware keys?",
		"run the tests again",
	}
	if p := os.Getenv("CML_BENCH_PROMPT"); p != "" {
		prompts = []string{p}
	}
	b.Run("UserPromptSubmit", func(b *testing.B) {
		run(b, "user-prompt-submit", UserPromptSubmit(nil), func(i int) string {
			sess := fmt.Sprintf(`"session_id":"bench-inproc-%d","cwd":"/home/dev/shop-api","transcript_path":"/nonexistent/bench.jsonl"`, i/5)
			return fmt.Sprintf(`{%s,"hook_event_name":"UserPromptSubmit","prompt_id":"bench-%d","prompt":%q}`, sess, i, prompts[i%len(prompts)])
		})
	})
	b.Run("Stop", func(b *testing.B) {
		run(b, "stop", Stop, func(i int) string {
			return fmt.Sprintf(`{%s,"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done, take %d."}`, base, i)
		})
	})
	b.Run("SessionStart", func(b *testing.B) {
		run(b, "session-start", SessionStart, func(int) string {
			return `{` + base + `,"hook_event_name":"SessionStart","source":"startup"}`
		})
	})
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// foldSpool stores what the hooks spooled into the store in dir.
func foldSpool(b *testing.B, dir string) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "memory.db"), store.Options{KeepWAL: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.Fold(ctx); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSessionEnd runs SessionStart and then SessionEnd in-process on a
// fresh data directory, the end timed, for the transcript in
// CML_BENCH_TRANSCRIPT: the 1,000-message session `go run ./scripts/bench
// -sessionend` measures, written by `go run ./scripts/bench -endtranscript
// FILE`. With -cpuprofile it shows where SessionEnd's time goes. The budget
// is a minute, so that a slow machine still does the work in the hook
// rather than handing it to a worker process.
//
//	CML_BENCH_TRANSCRIPT=/tmp/end-1000.jsonl go test -run '^$' -bench SessionEnd -cpuprofile cpu.out ./internal/handler
func BenchmarkSessionEnd(b *testing.B) {
	path := os.Getenv("CML_BENCH_TRANSCRIPT")
	if path == "" {
		b.Skip("CML_BENCH_TRANSCRIPT names no transcript")
	}
	in := fmt.Sprintf(`{"session_id":"end-1000","cwd":"/home/dev/shop-api","transcript_path":%q,"hook_event_name":"%%s","source":"startup","reason":"other"}`, path)
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		getenv := func(k string) string {
			if k == "CLAUDE_MEMORY_DIR" {
				return dir
			}
			return ""
		}
		var out bytes.Buffer
		hook.Run(bytes.NewReader(fmt.Appendf(nil, in, "SessionStart")), &out, io.Discard, hook.Options{Name: "session-start", Budget: time.Minute, Getenv: getenv}, SessionStart)
		b.StartTimer()
		hook.Run(bytes.NewReader(fmt.Appendf(nil, in, "SessionEnd")), &out, io.Discard, hook.Options{Name: "session-end", Budget: time.Minute, Getenv: getenv}, SessionEnd)
		b.StopTimer()
		if log, _ := os.ReadFile(filepath.Join(dir, "claude-memory-layer.log")); bytes.Contains(log, []byte("level=ERROR")) || bytes.Contains(log, []byte("handing over")) {
			b.Fatalf("session-end did not store the session itself: %s", log)
		}
		b.StartTimer()
	}
}

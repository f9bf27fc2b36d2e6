//go:build linux

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpBench measures the MCP server (claude-memory-layer mcp) on a store of
// n events: its start, process start to the initialize answer; a search call's
// round trip; and the server's peak resident set size after the searches.
func mcpBench(binDir, tmp string, n, runs int) error {
	data := filepath.Join(tmp, fmt.Sprintf("mcp-store-%d", n))
	if _, err := os.Stat(filepath.Join(data, "memory.db")); err != nil {
		if err := seedStore(filepath.Join(data, "memory.db"), n); err != nil {
			return err
		}
	}
	bin := filepath.Join(binDir, "claude-memory-layer")
	ctx := context.Background()
	start := func() (*mcp.ClientSession, *exec.Cmd, time.Duration, error) {
		cmd := exec.Command(bin, "mcp", "--project", "/home/dev/shop-api")
		cmd.Env = []string{"CLAUDE_MEMORY_DIR=" + data, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		t0 := time.Now()
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		return cs, cmd, time.Since(t0), err
	}
	var starts []time.Duration
	for i := range runs + 2 {
		cs, _, d, err := start()
		if err != nil {
			return fmt.Errorf("mcp start: %w", err)
		}
		cs.Close()
		if i >= 2 {
			starts = append(starts, d)
		}
	}
	cs, cmd, _, err := start()
	if err != nil {
		return fmt.Errorf("mcp start: %w", err)
	}
	defer cs.Close()
	r := rand.New(rand.NewPCG(7, uint64(n)))
	cpu0 := cpuTime(cmd.Process.Pid)
	var searches []time.Duration
	var hits int
	for i := range runs + 2 {
		q := pick(r, subjects) + " " + pick(r, objects)
		t0 := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": q}})
		d := time.Since(t0)
		if err != nil || res.IsError {
			return fmt.Errorf("search %q: %v %v", q, err, res)
		}
		if i >= 2 {
			searches = append(searches, d)
			if tc, ok := res.Content[0].(*mcp.TextContent); ok && strings.HasPrefix(tc.Text, "Results") {
				hits++
			}
		}
	}
	cpu := (cpuTime(cmd.Process.Pid) - cpu0) / time.Duration(runs+2)
	rss := peakRSS(cmd.Process.Pid)
	load, _ := os.ReadFile("/proc/loadavg")
	slices.Sort(starts)
	slices.Sort(searches)
	fmt.Printf("\nMCP server (claude-memory-layer mcp), store of %d events and %d entries, %d runs each after 2 warm-ups:\n\n", n, n/10, runs)
	fmt.Println("| what | median | p95 | target |")
	fmt.Println("|---|---:|---:|---:|")
	fmt.Printf("| start: process start to the initialize answer | %s | %s | ≤ 50 ms |\n", ms(starts[len(starts)/2]), ms(starts[len(starts)*95/100]))
	fmt.Printf("| search round trip (%d of %d with results) | %s | %s | ≤ 20 ms |\n", hits, len(searches), ms(searches[len(searches)/2]), ms(searches[len(searches)*95/100]))
	fmt.Printf("| search: the server's CPU time (user+sys) per call | %s | | |\n", ms(cpu))
	fmt.Printf("| server peak RSS after the searches | %s | | ≤ 40 MB |\n", rss)
	fmt.Printf("\nLoad average during the run: %s (the machine's other work inflates wall times; CPU time does not count it).\n", strings.Join(strings.Fields(string(load))[:3], " "))
	return nil
}

// cpuTime reads a live process's user+system CPU time from /proc (clock
// ticks of 10 ms; summed over many calls, the mean per call is still fine).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// peakRSS reads a live process's peak resident set size (VmHWM) from /proc.
func peakRSS(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			return fmt.Sprintf("%.1f MB", float64(kb)/1024)
		}
	}
	return "unknown"
}

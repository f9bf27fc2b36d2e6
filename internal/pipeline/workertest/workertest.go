// Package workertest finds the detached workers that hooks start against a
// data directory, for tests that must outlive them: a worker still writing
// when t.TempDir's cleanup removes the directory fails the test ("directory
// not empty") however well the product behaved.
package workertest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
)

// Running lists the pids of the other processes whose environment names
// dataDir (CLAUDE_MEMORY_DIR): a hook passes its own environment to the
// workers it starts, so once the hooks have exited these are the workers,
// and any they started. ok is false where there is no /proc to look in.
func Running(dataDir string) (pids []int, ok bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		return nil, false
	}
	want := filepath.Clean(dataDir)
	names := func(kv string) bool {
		v, ok := strings.CutPrefix(kv, "CLAUDE_MEMORY_DIR=")
		return ok && v != "" && filepath.Clean(v) == want
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if cl, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err != nil || len(cl) == 0 {
			continue // gone, or a zombie: it writes nothing more
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && slices.ContainsFunc(strings.Split(string(env), "\x00"), names) {
			pids = append(pids, pid)
		}
	}
	return pids, true
}

// Wait waits up to bound for the workers running against dataDir to exit,
// and returns the pids of those still running after it. Without /proc
// (macOS, Windows) it takes the worker lock once a worker had time to take
// it first, which a busy machine may not have given it, and reports none:
// there it can only make a leftover unlikely, not find one.
func Wait(dataDir string, bound time.Duration) []int {
	if _, err := os.Stat(dataDir); err != nil {
		return nil
	}
	deadline := time.Now().Add(bound)
	for {
		pids, ok := Running(dataDir)
		if !ok {
			time.Sleep(200 * time.Millisecond)
			if unlock, err := pipeline.Lock(context.Background(), dataDir, bound); err == nil {
				unlock()
			}
			return nil
		}
		if len(pids) == 0 || time.Now().After(deadline) {
			return pids
		}
		time.Sleep(20 * time.Millisecond) // polling a detached process: there is nothing to wait on
	}
}

// Kill ends the processes running against dataDir (Running) with SIGKILL:
// what a test leaves behind once it has reported them.
func Kill(dataDir string) {
	pids, _ := Running(dataDir)
	for _, pid := range pids {
		if p, err := os.FindProcess(pid); err == nil {
			p.Kill()
		}
	}
}

package workertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for a detached worker: with
// WORKERTEST_SLEEP set it sleeps that long and exits.
func TestMain(m *testing.M) {
	if d := os.Getenv("WORKERTEST_SLEEP"); d != "" {
		nap, _ := time.ParseDuration(d)
		time.Sleep(nap)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestWaitOutlivesAWorker(t *testing.T) {
	if _, ok := Running(t.TempDir()); !ok {
		t.Skip("no /proc here")
	}
	dir := filepath.Join(t.TempDir(), "data")
	for _, d := range []string{dir, dir + "-other"} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	start := func(nap string, data string) *exec.Cmd {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "WORKERTEST_SLEEP="+nap, "CLAUDE_MEMORY_DIR="+data)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	worker := start("1m", dir)
	other := start("10m", dir+"-other") // another directory's worker is not waited on
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	pids, _ := Running(dir + "/") // the same directory, spelled another way
	if !slices.Equal(pids, []int{worker.Process.Pid}) {
		t.Fatalf("Running = %v, want the worker %d alone", pids, worker.Process.Pid)
	}
	var ended atomic.Bool
	go func() {
		time.Sleep(300 * time.Millisecond) // while Wait polls
		ended.Store(true)
		worker.Process.Kill()
		worker.Wait() // reaps it, as init reaps a detached worker
	}()
	if left := Wait(dir, time.Minute); len(left) > 0 {
		t.Fatalf("Wait left %v running", left)
	}
	if !ended.Load() {
		t.Error("Wait returned while the worker ran")
	}
	if left := Wait(dir, 0); !slices.Equal(left, []int(nil)) {
		t.Errorf("Wait with nothing running = %v", left)
	}
	if left := Wait(dir+"-other", 0); !slices.Equal(left, []int{other.Process.Pid}) {
		t.Errorf("Wait(0) on a running worker = %v, want %d", left, other.Process.Pid)
	}
	Kill(dir + "-other")
	if left := Wait(dir+"-other", 10*time.Second); len(left) > 0 {
		t.Errorf("Kill left %v running", left)
	}
}

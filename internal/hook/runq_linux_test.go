package hook

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// More busy threads than CPUs wait for one in turn: cpuWait grows.
func TestCPUWait(t *testing.T) {
	before, ok := cpuWait()
	if !ok {
		t.Fatal("no run-queue time in /proc/self/task/*/schedstat")
	}
	n := 4 * runtime.NumCPU()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	var wg sync.WaitGroup
	stop := time.Now().Add(300 * time.Millisecond)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread() // a thread of its own, left to the scheduler
			for x := 0; time.Now().Before(stop); x++ {
			}
		}()
	}
	wg.Wait()
	if after, ok := cpuWait(); !ok || after <= before {
		t.Fatalf("CPU wait %v, then %v after %d busy threads on %d CPUs", before, after, n, runtime.NumCPU())
	}
}

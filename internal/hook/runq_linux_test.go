package hook

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// More busy threads than CPUs wait for one in turn: cpuWait grows. The
// threads stay alive until it is read, as an exited one's time goes with it.
func TestCPUWait(t *testing.T) {
	before, ok := cpuWait()
	if !ok {
		t.Fatal("no run-queue time in /proc/self/task/*/schedstat")
	}
	n := 4 * runtime.NumCPU()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	var spun sync.WaitGroup
	release := make(chan struct{})
	stop := time.Now().Add(300 * time.Millisecond)
	for range n {
		spun.Add(1)
		go func() {
			runtime.LockOSThread() // a thread of its own, left to the scheduler
			defer runtime.UnlockOSThread()
			for x := 0; time.Now().Before(stop); x++ {
			}
			spun.Done()
			<-release
		}()
	}
	spun.Wait()
	after, ok := cpuWait()
	close(release)
	if !ok || after <= before {
		t.Fatalf("CPU wait %v, then %v after %d busy threads on %d CPUs", before, after, n, runtime.NumCPU())
	}
}

func TestParseSchedstat(t *testing.T) {
	for _, tc := range []struct {
		in        string
		run, wait time.Duration
		ok        bool
	}{
		{"2789033 1200 17\n", 2789033, 1200, true},
		{"0 0 0\n", 0, 0, true},
		{"12", 0, 0, false},
		{"x 5 1", 0, 0, false},
		{"", 0, 0, false},
	} {
		run, wait, ok := parseSchedstat(tc.in)
		if run != tc.run || wait != tc.wait || ok != tc.ok {
			t.Errorf("parseSchedstat(%q) = %v, %v, %v; want %v, %v, %v", tc.in, run, wait, ok, tc.run, tc.wait, tc.ok)
		}
	}
}

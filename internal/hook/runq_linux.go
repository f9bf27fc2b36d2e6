package hook

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cpuWait returns how long the process's live threads have waited,
// runnable, for a CPU (Linux's run-queue time, /proc/self/task/*/schedstat;
// a thread that exited takes its time with it). A hook that passed its
// deadline having waited so most of its budget was starved by the machine;
// one that waited on a lock or a disk slept instead, which this does not
// count. Not known (ok false) when the kernel keeps no such statistics.
func cpuWait() (time.Duration, bool) {
	files, err := filepath.Glob("/proc/self/task/*/schedstat")
	if err != nil || len(files) == 0 {
		return 0, false
	}
	var total time.Duration
	kept := false
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a thread that exited
		}
		run, wait, ok := parseSchedstat(string(b))
		if !ok {
			return 0, false
		}
		total += wait
		kept = kept || run > 0 || wait > 0
	}
	return total, kept
}

// parseSchedstat reads a schedstat line: the time spent on a CPU, the time
// spent waiting for one (nanoseconds), and the number of times run. A
// kernel built without scheduler statistics writes zeros.
func parseSchedstat(s string) (run, wait time.Duration, ok bool) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return 0, 0, false
	}
	r, err1 := strconv.ParseInt(f[0], 10, 64)
	w, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil || r < 0 || w < 0 {
		return 0, 0, false
	}
	return time.Duration(r), time.Duration(w), true
}

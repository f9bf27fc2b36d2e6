package hook

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cpuWait returns how long the process's threads have waited, runnable,
// for a CPU: the second field of each thread's schedstat (Linux's
// run-queue time). A hook that passed its deadline having waited so most
// of its budget was starved by the machine; one that waited on a lock or a
// disk slept instead, which this does not count.
func cpuWait() (time.Duration, bool) {
	files, err := filepath.Glob("/proc/self/task/*/schedstat")
	if err != nil || len(files) == 0 {
		return 0, false
	}
	var total int64
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a thread that exited
		}
		fields := strings.Fields(string(b))
		if len(fields) < 2 {
			return 0, false
		}
		ns, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil {
			return 0, false
		}
		total += ns
	}
	return time.Duration(total), true
}

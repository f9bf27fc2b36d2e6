//go:build !linux

package hook

import "time"

// cpuWait is known on Linux only (runq_linux.go).
func cpuWait() (time.Duration, bool) { return 0, false }

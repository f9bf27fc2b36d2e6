package team

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/team/pgtest"
)

// TestTeamScale pushes and pulls CML_TEAM_BENCH memories (100,000 is the
// issue's figure) through a real server and reports the rates. It runs only
// when CML_TEAM_BENCH is set: scripts/bench.sh territory, not the suite's.
//
//	CML_TEAM_BENCH=100000 go test ./internal/team/ -run TestTeamScale -count=1 -v -timeout 30m
//
// Besides the wall time it reports the processor time of this process and
// of the server: on a machine other work loads, the wall time measures the
// load as much as the sync, and memories per processor second (client and
// server together) are what an idle machine would come near.
func TestTeamScale(t *testing.T) {
	var n int
	if _, err := fmt.Sscan(os.Getenv("CML_TEAM_BENCH"), &n); err != nil || n <= 0 {
		t.Skip("set CML_TEAM_BENCH=100000 to measure push and pull")
	}
	w := newWorld(t)
	w.remember(t, n, func(i int) string {
		return fmt.Sprintf("Service %d listens on port %d and logs to bucket b%d", i, 10000+i%50000, i)
	})
	measure := func(name string, sync func() Result, moved func(Result) int) {
		t.Helper()
		cpu0, srv0, start := pgtest.ProcCPU("self"), w.srv.CPU(), time.Now()
		res := sync()
		wall := time.Since(start)
		cpu, srv := pgtest.ProcCPU("self")-cpu0, w.srv.CPU()-srv0
		if moved(res) != n {
			t.Fatalf("%s: %+v, want %d", name, res, n)
		}
		t.Logf("%s %d memories: wall %v, %.0f/s; processor: client %v, server %v, %.0f memories per processor second",
			name, n, wall.Round(time.Millisecond), float64(n)/wall.Seconds(), cpu.Round(10*time.Millisecond),
			srv.Round(10*time.Millisecond), float64(n)/(cpu+srv).Seconds())
	}
	measure("push (and alice's pull of her own)", func() Result { return w.sync(t, w.alice, w.aDir, w.aConf) },
		func(r Result) int { return r.Pushed })
	measure("pull", func() Result { return w.sync(t, w.bob, w.bDir, w.bConf) }, func(r Result) int { return r.Pulled })
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("load average: %s", load)
}

package main

import (
	"runtime/debug"
	"testing"
)

// TestTuneForImport: only the import command changes the collector's
// settings, and not when the environment sets them.
func TestTuneForImport(t *testing.T) {
	prevGC, prevMem := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	defer func() { debug.SetGCPercent(prevGC); debug.SetMemoryLimit(prevMem) }()
	none := func(string) string { return "" }
	for _, tt := range []struct {
		args   []string
		getenv func(string) string
		want   int
	}{
		{[]string{"search", "import"}, none, 100},
		{[]string{"import", "--dir", "x"}, func(k string) string { return map[string]string{"GOGC": "200"}[k] }, 100},
		{[]string{"import", "--dir", "x"}, none, importGC},
	} {
		debug.SetGCPercent(100)
		tuneForImport(tt.args, tt.getenv)
		if got := debug.SetGCPercent(100); got != tt.want {
			t.Errorf("%v: GOGC %d, want %d", tt.args, got, tt.want)
		}
	}
}

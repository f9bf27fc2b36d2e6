package main

import (
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestCheckSpool: doctor says nothing waits, that records wait for the next
// write, or warns when they have waited long or fill the spool.
func TestCheckSpool(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		st     store.SpoolState
		status string
	}{
		{store.SpoolState{}, "ok"},
		{store.SpoolState{Bytes: 900, Since: now.Add(-time.Minute)}, "ok"},
		{store.SpoolState{Bytes: 900, Since: now.Add(-3 * time.Hour)}, "warn"},
		{store.SpoolState{Bytes: 3 << 20, Since: now.Add(-time.Minute), Full: true}, "warn"},
		{store.SpoolState{Bytes: 900, FoldFiles: 1, Since: now.Add(-2 * time.Hour)}, "warn"},
	} {
		if c := checkSpool(tt.st, now); c.Status != tt.status {
			t.Errorf("%+v: %s %q, want %s", tt.st, c.Status, c.Detail, tt.status)
		}
	}
}

package when

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	now := time.Date(2026, 3, 10, 15, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"2026-01-02", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
		{" 2026-01-02 ", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
		{"2026-01-02T10:00:00Z", time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)},
		{"today", time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)},
		{"Yesterday", time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)},
		{"12h", now.Add(-12 * time.Hour)},
		{"3d", time.Date(2026, 3, 7, 15, 30, 0, 0, time.UTC)},
		{"2w", time.Date(2026, 2, 24, 15, 30, 0, 0, time.UTC)},
		{"1 week ago", time.Date(2026, 3, 3, 15, 30, 0, 0, time.UTC)},
		{"3 days ago", time.Date(2026, 3, 7, 15, 30, 0, 0, time.UTC)},
		{"3days ago", time.Date(2026, 3, 7, 15, 30, 0, 0, time.UTC)},
		{"1 month ago", time.Date(2026, 2, 10, 15, 30, 0, 0, time.UTC)},
		{"2 hours ago", now.Add(-2 * time.Hour)},
	} {
		got, err := Parse(c.in, now)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "soon", "3", "d", "3 fortnights", "-3d", "2026-13-01", "ago", "99999999999999999999d"} {
		if got, err := Parse(bad, now); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", bad, got)
		}
	}
}

package store

import (
	"testing"
	"time"
)

// parseTimeOld is ParseTime before parseStored, kept to compare with.
func parseTimeOld(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(timeFormat, s)
	if err != nil {
		t, _ = time.Parse(time.RFC3339Nano, s)
	}
	return t
}

// An equivalence test: ParseTime returns what time.Parse returned, location
// included (==, not Equal), for stored times and malformed ones.
func TestParseTimeSame(t *testing.T) {
	ins := []string{"", "2026-11-30T07:08:09.123456Z", "2024-02-29T23:59:59.999999Z", "2023-02-29T00:00:00.000000Z",
		"2026-04-31T00:00:00.000000Z", "2026-13-01T00:00:00.000000Z", "2026-00-01T00:00:00.000000Z",
		"2026-01-00T00:00:00.000000Z", "2026-01-01T24:00:00.000000Z", "2026-01-01T00:60:00.000000Z",
		"2026-01-01T00:00:60.000000Z", "0000-01-01T00:00:00.000000Z", "9999-12-31T23:59:59.999999Z",
		"2026-01-01T00:00:00.00000aZ", "2026-01-01T00:00:00.000000+", "2026-1-01T00:00:00.0000000Z",
		"2026-01-01T00:00:00Z", "2026-01-01T00:00:00.123+02:00", "+026-01-01T00:00:00.000000Z",
		"2026-01-01 00:00:00.000000Z", "1900-02-29T12:00:00.000000Z", "2000-02-29T12:00:00.000000Z"}
	for d := range 800 {
		tm := time.Date(1999, 12, 31, 23, 59, 58, 999999000, time.UTC).Add(time.Duration(d) * 37 * time.Hour)
		ins = append(ins, FormatTime(tm))
	}
	for _, in := range ins {
		if got, want := ParseTime(in), parseTimeOld(in); got != want {
			t.Errorf("ParseTime(%q)=%v, want %v", in, got, want)
		}
	}
}

func FuzzParseTimeSame(f *testing.F) {
	f.Add("2026-11-30T07:08:09.123456Z")
	f.Add("2023-02-29T00:00:00.000000Z")
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := ParseTime(in), parseTimeOld(in); got != want {
			t.Errorf("ParseTime(%q)=%v, want %v", in, got, want)
		}
	})
}

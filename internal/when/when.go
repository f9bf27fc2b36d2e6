// Package when parses the points in time that --since, --before and the MCP
// tools' since/until/date take: a date or RFC 3339 time, or what people and
// models write instead ("yesterday", "3d", "2 weeks ago").
package when

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Help names the accepted forms, for flag help and error messages.
const Help = `YYYY-MM-DD, RFC 3339, "today", "yesterday", "12h", "3d", "2w" or "3 days ago"`

// Parse returns the instant s names, relative to now. A date or a day word
// ("today", "yesterday") is the start of that day (a date in UTC, as stored
// dates are; a day word in now's location); "3d", "12h", "2w" and "3 days
// ago" count back from now, and "1 month ago" by calendar months.
func Parse(s string, now time.Time) (time.Time, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, strings.ToUpper(s)); err == nil {
		return t, nil
	}
	y, m, d := now.Date()
	switch s {
	case "today":
		return time.Date(y, m, d, 0, 0, 0, 0, now.Location()), nil
	case "yesterday":
		return time.Date(y, m, d-1, 0, 0, 0, 0, now.Location()), nil
	}
	if t, ok := ago(s, now); ok {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q: want %s", s, Help)
}

// ago parses "<n><unit>", "<n> <unit>" and either followed by "ago".
func ago(s string, now time.Time) (time.Time, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(s, "ago"))
	i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) })
	if i <= 0 {
		return time.Time{}, false
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || n > 100000 {
		return time.Time{}, false
	}
	switch unit := strings.TrimSpace(s[i:]); unit {
	case "h", "hr", "hrs", "hour", "hours":
		return now.Add(-time.Duration(n) * time.Hour), true
	case "d", "day", "days":
		return now.AddDate(0, 0, -n), true
	case "w", "wk", "wks", "week", "weeks":
		return now.AddDate(0, 0, -7*n), true
	case "mo", "month", "months":
		return now.AddDate(0, -n, 0), true
	case "y", "yr", "yrs", "year", "years":
		return now.AddDate(-n, 0, 0), true
	}
	return time.Time{}, false
}

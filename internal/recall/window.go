package recall

import (
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
)

// window is a span of time a prompt names; zero means none.
type window struct{ from, to time.Time }

func (w window) zero() bool { return w.from.IsZero() && w.to.IsZero() }

func (w window) contains(t time.Time) bool {
	return !t.IsZero() && !t.Before(w.from) && t.Before(w.to)
}

var (
	monthNames = map[string]time.Month{
		"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
		"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
		"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
	}
	// "in May", "May 2023", "during March", "last June": a month name is read
	// as a month only next to such a word or a year ("may" is also a verb).
	monthRE   = lazyregexp.New(`(?i)\b(?:(in|during|since|from|last|this|early|mid|late|of)\s+)?(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b\.?(?:\s+(?:of\s+)?((?:19|20)\d\d))?`)
	yearRE    = lazyregexp.New(`(?i)(?:^|[^\w.])((?:19|20)\d\d)(?:[^\w.]|$)`)
	agoRE     = lazyregexp.New(`(?i)\b(\d+|a|an|one|two|three|four|five|six)\s+(day|week|month|year)s?\s+ago\b`)
	koMonthRE = lazyregexp.New(`(\d{1,2})월`)
	koAgoRE   = lazyregexp.New(`(\d+)\s*(일|주|달|개월|년)\s*전`)
)

var smallNumbers = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}

// timeWindow finds the span of time a prompt refers to ("yesterday", "last
// week", "in May", "2023", "3 days ago", "지난주"), relative to now. Recall
// prefers items from that span. The first expression found wins.
func timeWindow(prompt string, now time.Time) window {
	p := strings.ToLower(prompt)
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	days := func(from, to int) window { return window{day.AddDate(0, 0, from), day.AddDate(0, 0, to)} }
	switch {
	case strings.Contains(p, "yesterday"), strings.Contains(p, "어제"):
		return days(-1, 0)
	case strings.Contains(p, "today"), strings.Contains(p, "this morning"), strings.Contains(p, "오늘"):
		return days(0, 1)
	case strings.Contains(p, "last week"), strings.Contains(p, "지난주"), strings.Contains(p, "지난 주"):
		return days(-14, 1)
	case strings.Contains(p, "this week"), strings.Contains(p, "이번 주"), strings.Contains(p, "이번주"):
		return days(-7, 1)
	case strings.Contains(p, "last month"), strings.Contains(p, "지난달"), strings.Contains(p, "지난 달"):
		return window{day.AddDate(0, -2, 0), day.AddDate(0, 0, 1)}
	case strings.Contains(p, "last year"), strings.Contains(p, "작년"):
		return window{time.Date(now.Year()-1, 1, 1, 0, 0, 0, 0, now.Location()), time.Date(now.Year(), 1, 1, 0, 0, 0, 0, now.Location())}
	}
	// Each expression is compiled by the hook process that first uses it:
	// one that cannot match is not used ("ago" absent, Korean in ASCII).
	ascii := isASCII(p)
	if m := submatchIf(strings.Contains(p, "ago"), agoRE, p); m != nil {
		n, ok := smallNumbers[m[1]]
		if !ok {
			n, _ = strconv.Atoi(m[1])
		}
		unit := map[string]int{"day": 1, "week": 7, "month": 30, "year": 365}[m[2]]
		back := n * unit
		slack := max(1, back/4)
		return days(-back-slack, -back+slack+1)
	}
	if m := submatchIf(!ascii, koAgoRE, p); m != nil {
		n, _ := strconv.Atoi(m[1])
		unit := map[string]int{"일": 1, "주": 7, "달": 30, "개월": 30, "년": 365}[m[2]]
		back := n * unit
		slack := max(1, back/4)
		return days(-back-slack, -back+slack+1)
	}
	for _, m := range monthRE.FindAllStringSubmatch(prompt, -1) {
		name, lead, year := strings.ToLower(m[2]), strings.ToLower(m[1]), m[3]
		if lead == "" && year == "" && (len(name) <= 3 || name == "march" || name == "sept") {
			continue // "may" the verb, or an abbreviation on its own
		}
		return monthWindow(monthNames[name], year, now)
	}
	if m := submatchIf(!ascii, koMonthRE, p); m != nil {
		if n, _ := strconv.Atoi(m[1]); n >= 1 && n <= 12 {
			return monthWindow(time.Month(n), "", now)
		}
	}
	if m := yearRE.FindStringSubmatch(p); m != nil {
		y, _ := strconv.Atoi(m[1])
		if y <= now.Year() {
			return window{time.Date(y, 1, 1, 0, 0, 0, 0, now.Location()), time.Date(y+1, 1, 1, 0, 0, 0, 0, now.Location())}
		}
	}
	return window{}
}

// submatchIf is re's leftmost match in s and its groups when cond holds;
// otherwise nil, and re is not compiled.
func submatchIf(cond bool, re *lazyregexp.Regexp, s string) []string {
	if !cond {
		return nil
	}
	return re.FindStringSubmatch(s)
}

// monthWindow is the named month of the given year, or the latest such month
// not after now.
func monthWindow(m time.Month, year string, now time.Time) window {
	y := now.Year()
	if year != "" {
		y, _ = strconv.Atoi(year)
	} else if m > now.Month() {
		y--
	}
	from := time.Date(y, m, 1, 0, 0, 0, 0, now.Location())
	return window{from, from.AddDate(0, 1, 0)}
}

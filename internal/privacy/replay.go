package privacy

import "strings"

// The recall renderer writes each injected memory as a line of its own:
//
//	[mem:3f2a1c] decision, 2026-03-01: Use PostgreSQL 16 — for the orders service
//	  quoted: "We'll use PostgreSQL 16 for the orders service."
//
// and each conflict warning as "- HIGH superseded: [mem:…] (date) "…" …".
// The fence around them is removed as injected context; but a model often
// repeats such lines in its answer, outside any fence, and an answer is
// evidence: stored, the repeat would verify the memory by quoting itself.
// removeReplays drops these lines wherever they appear. A memory merely
// cited in a sentence ("as [mem:3f2a1c] says") is kept.

// removeReplays removes the lines of s that repeat injected memories or
// warnings, and reports whether it removed any.
func removeReplays(s string, r *Report) (string, bool) {
	if !strings.Contains(s, "[mem:") {
		return s, false
	}
	var b strings.Builder
	removed, afterMemory := false, false
	for rest := s; rest != ""; {
		line := rest
		next := ""
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, next = rest[:i+1], rest[i+1:]
		}
		body := strings.TrimRight(line, "\r\n")
		switch {
		case isMemoryLine(body), isWarningLine(body):
			r.Injected++
			removed, afterMemory = true, true
		case afterMemory && strings.HasPrefix(strings.TrimSpace(body), `quoted: "`):
			removed = true
		default:
			afterMemory = false
			b.WriteString(line)
		}
		rest = next
	}
	return b.String(), removed
}

// isMemoryLine reports whether line is an injected memory line, possibly
// as a list item or in bold: "[mem:ID] TYPE, DATE: …".
func isMemoryLine(line string) bool {
	l := strings.TrimLeft(line, " \t-*>•")
	if !strings.HasPrefix(l, "[mem:") {
		return false
	}
	e := strings.IndexByte(l, ']')
	if e < 0 || e > 48 {
		return false
	}
	rest := strings.TrimLeft(l[e+1:], "* \t")
	c := strings.IndexByte(rest, ',')
	if c <= 0 || c > 24 || !isWordy(rest[:c]) {
		return false
	}
	rest = strings.TrimLeft(rest[c+1:], " ")
	switch {
	case strings.HasPrefix(rest, "undated:"):
		return true
	case len(rest) >= 11 && rest[10] == ':' && isDate(rest[:10]):
		return true
	}
	return false
}

// isWarningLine reports whether line is a conflict warning line:
// "- HIGH superseded: [mem:…] …".
func isWarningLine(line string) bool {
	l := strings.TrimLeft(line, " \t-*•")
	for _, sev := range [...]string{"LOW ", "MEDIUM ", "HIGH "} {
		if rest, ok := strings.CutPrefix(l, sev); ok {
			c := strings.IndexByte(rest, ':')
			return c > 0 && c < 16 && isWordy(rest[:c]) && strings.Contains(rest[c:], "[mem:")
		}
	}
	return false
}

// isDate reports whether v is YYYY-MM-DD.
func isDate(v string) bool {
	for i := 0; i < len(v); i++ {
		if i == 4 || i == 7 {
			if v[i] != '-' {
				return false
			}
		} else if !isDigit(v[i]) {
			return false
		}
	}
	return len(v) == 10
}

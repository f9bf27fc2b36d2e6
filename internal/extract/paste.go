package extract

import (
	"strings"
	"unicode"
)

// A prompt is often a line of the user's own followed by what a terminal,
// a build log or a file printed: "the release fails again, see below:" and forty
// timestamped log lines, "make doctor" and its report. Sentences of
// the pasted part that read like choices ("Use 'make fix-deps'
// to review", "(in module 'billing' of workspace 'app')") are the
// tool's words, not the user's. A paste is told by its shape: most of its
// lines are not prose.

// minPastedLines is the fewest lines after the first that make a paste.
const minPastedLines = 4

// pastedOutput reports where the pasted output of a user message starts:
// after its first line, when most of the lines after it are not prose
// (proseLine) and at least two show a sign that a program printed them
// (outputLine). Short lines alone are no sign: a user's own "Decisions:"
// followed by "Use Postgres", "Port 5432" is theirs.
func pastedOutput(text string) (int, bool) {
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	nl := strings.IndexByte(text, '\n')
	if nl < 0 {
		return 0, false
	}
	lines, signs, output := 0, 0, 0
	for _, l := range strings.Split(text[nl+1:], "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		lines++
		switch {
		case outputLine(l):
			signs++
			output++
		case !proseLine(t):
			output++
		}
	}
	return nl + 1, lines >= minPastedLines && signs >= 2 && output*5 >= lines*3
}

// proseLine reports a line a person wrote: a markdown list item, or a line
// with twelve letters or more that is mostly letters.
func proseLine(t string) bool {
	if bulletLen(t) > 0 {
		return true // a list the user wrote: "- Keep: Express, cors"
	}
	letters, other := letterShare(t)
	return letters >= 12 && letters*10 >= (letters+other)*8
}

// letterShare counts a line's letters and its other characters that are
// neither spaces nor ordinary punctuation.
func letterShare(t string) (letters, other int) {
	for _, r := range t {
		switch {
		case unicode.IsLetter(r):
			letters++
		case !unicode.IsSpace(r) && !strings.ContainsRune(".,;:!?'\"-()", r):
			other++
		}
	}
	return letters, other
}

// outputLine reports a line with a sign that a program printed it: it
// opens like a compiler's or a test runner's line, with a timestamp or a
// number (not a list's), is indented (a stack frame, a report's detail), or
// is mostly symbols and digits rather than letters. A markdown list item
// is the user's own.
func outputLine(l string) bool {
	t := strings.TrimSpace(l)
	if bulletLen(t) > 0 {
		return false // "- Keep: Express, cors", "1. Use port 4100"
	}
	if isToolLine(leadText(lowerASCII(t))) || startsWithDigit(t) || strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "\t") {
		return true
	}
	letters, other := letterShare(t)
	return letters*10 < (letters+other)*6
}

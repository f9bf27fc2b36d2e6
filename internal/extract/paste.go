package extract

import (
	"strings"
	"unicode"
)

// A prompt is often a line of the user's own followed by what a terminal,
// a build log or a file printed: "Its error, can't deploy:" and forty
// timestamped log lines, "npx expo-doctor" and its report. Sentences of
// the pasted part that read like choices ("Use 'npx expo install --check'
// to review", "(in target 'hermes-engine' from project 'Pods')") are the
// tool's words, not the user's. A paste is told by its shape: most of its
// lines are not prose.

// minPastedLines is the fewest lines after the first that make a paste.
const minPastedLines = 4

// pastedOutput reports where the pasted output of a user message starts:
// after its first line, when most of the lines after it show signs of a
// tool's output (outputLine). Short lines alone are no sign: a user's own
// "Decisions:" followed by "Use Postgres", "Port 5432" is theirs.
func pastedOutput(text string) (int, bool) {
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	nl := strings.IndexByte(text, '\n')
	if nl < 0 {
		return 0, false
	}
	lines, output := 0, 0
	for _, l := range strings.Split(text[nl+1:], "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lines++
		if outputLine(l) {
			output++
		}
	}
	return nl + 1, lines >= minPastedLines && output*5 >= lines*3
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
	letters, other := 0, 0
	for _, r := range t {
		switch {
		case unicode.IsLetter(r):
			letters++
		case !unicode.IsSpace(r) && !strings.ContainsRune(".,;:!?'\"-()", r):
			other++
		}
	}
	return letters*10 < (letters+other)*6
}

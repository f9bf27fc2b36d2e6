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
// after its first line, when most of the lines after it are output rather
// than prose (tool lines, log lines, code).
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
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		lines++
		if !proseLine(t) {
			output++
		}
	}
	return nl + 1, lines >= minPastedLines && output*5 >= lines*3
}

// proseLine reports a line a person wrote: a markdown list item or
// heading, or a line of three words or more (or a run of unspaced script)
// that is mostly letters, not opening like a tool's line or a timestamp.
func proseLine(t string) bool {
	if isToolLine(leadText(lowerASCII(t))) || startsWithDigit(t) && bulletLen(t) == 0 {
		return false
	}
	if bulletLen(t) > 0 {
		return true // a list the user wrote: "- Keep: Express, cors"
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
	return letters >= 12 && letters*10 >= (letters+other)*8
}

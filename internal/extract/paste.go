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

// PastedOutput is pastedOutput, for readers of a message's decisions
// elsewhere: what a program printed decides nothing.
func PastedOutput(text string) (int, bool) { return pastedOutput(text) }

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

// introducesFailure marks the last sentence of the user's line right
// before the paste at text[paste:] as a report when the paste shows a
// failure: "the weekly import died on the build box:" over a log with an
// error in it, "here's what I get when I run the suite:" over a failed test.
// The sentence says what went wrong and where; the paste is its evidence.
// Whatever role its words name (a host, a tool, a command), it chooses none
// of them, so it is no decision, constraint or preference. The sentences
// before it on the line are the user's own statements ("We moved the API to
// the new host. This is what the old one printed:"), and a sentence that
// directs ("from now on we deploy with the script, this is why:") or
// commands a change ("switch to the script, the old one drops work:")
// chooses something and is not marked, nor is one that says it holds on
// ("always", "from now on"). The paste starts with output: lines of the
// user's own prose at its top ("the job kept hitting a LeaseTimeoutError")
// are theirs, and the last of them is the line that introduces what follows.
func introducesFailure(text string, paste int, ss []*sent) {
	start := len(text)
	for ln := range linesFrom(text, paste) {
		if l := text[ln.start:ln.end]; strings.TrimSpace(l) != "" && !ownSentence(l) {
			start = ln.start
			break
		}
	}
	paste = start
	if paste >= len(text) || !showsFailure(text[paste:]) {
		return
	}
	head := strings.TrimRight(text[:paste], " \t\r\n")
	from := strings.LastIndexByte(head, '\n') + 1
	var last *sent
	for _, s := range ss {
		if s.off < len(head) && (last == nil || s.off > last.off) {
			last = s
		}
	}
	if last == nil || last.off < from {
		return
	}
	if low := lowerASCII(straightQuotes(last.text)); directs(low) || commands(leadText(low)) || containsPhrase(low, standing) {
		return
	}
	last.report = true
}

// ownSentence reports a line the user wrote rather than one a program
// printed: prose (proseLine) that opens with a word of letters, not with an
// error's name ("TypeError: …"), a failure's lead ("error:", "fatal:"), a
// tag ("[dev] …", "E/app (4012): …") or a number, and that holds no
// failure's message (failureScore) once the names of error classes it
// mentions are left out: "the job kept hitting a LeaseTimeoutError on slow
// nights:" names one in the user's own words.
func ownSentence(l string) bool {
	t := strings.TrimSpace(l)
	w := firstWord(t)
	if w == "" || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' }) >= 0 ||
		!proseLine(t) || outputLine(l) || pastedError(w) || startsWithPhrase(lowerASCII(t), failureLeads) {
		return false
	}
	var words []string
	for _, w := range strings.Fields(t) {
		if !pastedError(w) {
			words = append(words, w)
		}
	}
	return failureScore(strings.Join(words, " ")) == 0
}

// showsFailure reports pasted output with a line of a failure in it: an
// error or an exception, a failed test, an exit status (failureScore), an
// error message at a place in a file (pastedError), a verb of failing
// ("Publish failed", "2 failed, 40 passed"), or a line that opens with a
// failure's word, as a compiler's or a package manager's does.
func showsFailure(paste string) bool {
	if len(paste) > maxScan {
		paste = paste[:maxScan]
	}
	for l := range strings.SplitSeq(paste, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if low := lowerASCII(t); failureScore(t) > 0 || pastedError(t) || failing(low) || startsWithPhrase(leadText(low), failureLeads) {
			return true
		}
	}
	return false
}

// failureLeads open a line that reports a failure: "error[E0432]: …",
// "npm ERR! code ERESOLVE", "fatal: not a git repository", "Traceback (most
// recent call last):", "Uncaught TypeError: …".
var failureLeads = []string{"error", "err!", "npm err", "fatal", "failed", "failure", "traceback", "panic", "uncaught"}

package observation

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits of the error lines kept from the part of an output that Truncate
// cuts: a build log's compiler error often sits in its middle, before a
// summary that fills the tail, and the error is what a later question asks.
const (
	maxErrors    = 800  // bytes of error lines kept from one output
	maxErrorLine = 320  // bytes of one kept line
	scanLine     = 1024 // bytes of a line read to judge it: a diagnostic says so early
	maxFollow    = 2    // indented lines kept after an error line (symbol:, the failing test's line)
)

// spanCost is what a kept line costs of the budget beyond its bytes: the
// marker before it ("\n[… 1048576 bytes cut …]\n") and the "…" of a
// clipped line, so that markers count towards the bound too.
const spanCost = 32

// unreadMargin is how much of the end of a filtered prefix no error line
// is taken from when the filter read only a prefix of the text: a secret
// the prefix's end cuts in two is not recognised as one, so a line near
// the cut may still hold part of it (capture drops the same margin).
const unreadMargin = 64 << 10

// truncate is Truncate that also keeps, from the part it cuts, up to
// budget bytes of the lines that report an error or failure
// (ReportsError), in order, each run of them between markers saying how
// much was cut around it. Lines in the last unread bytes before the
// tail are not read. The work is one pass over s; the output is at most
// head+tail+budget bytes and one marker: each kept line's marker is
// charged to budget at spanCost, which fits counts of cut bytes below
// 10 MB (a longer count makes its marker a few bytes longer).
func truncate(s string, head, tail, budget, unread int) string {
	if len(s) <= head+tail+40 {
		return s
	}
	h := runeStart(s, head)
	t := len(s)
	if tail > 0 {
		t = runeStart(s, len(s)-tail)
	}
	var b strings.Builder
	b.WriteString(s[:h])
	from := h // start of what is not yet written
	clipped := false
	for _, sp := range errorSpans(s, h, max(h, t-unread), budget, s[t:]) {
		if gap := s[from:sp.start]; len(gap) < spanCost && !clipped {
			b.WriteString(gap) // shorter than the marker that would replace it
		} else {
			writeCut(&b, gap)
		}
		b.WriteString(s[sp.start:sp.end])
		if clipped = sp.clipped; clipped {
			b.WriteString("…")
		}
		from = sp.end
	}
	writeCut(&b, s[from:t])
	b.WriteString(s[t:])
	return b.String()
}

// writeCut writes the marker for the cut text, or the cut text itself
// when it is at most a line break.
func writeCut(b *strings.Builder, cut string) {
	if cut == "" || cut == "\n" {
		b.WriteString(cut)
		return
	}
	fmt.Fprintf(b, "\n[… %d bytes cut …]\n", len(cut))
}

// span is a kept part of a line of s; clipped when the line goes on.
type span struct {
	start, end int
	clipped    bool
}

// errorSpans returns the error lines of s[from:to] that fit in budget, and
// up to maxFollow indented lines after each, skipping lines cut at to and
// lines already said (in an earlier kept line or in tail). A line that
// from cuts is judged whole and, when kept, goes on from from.
func errorSpans(s string, from, to, budget int, tail string) []span {
	var spans []span
	seen := map[string]bool{}
	follow := 0 // indented lines still kept after the last error line
	for i := from; i < to && budget >= spanCost+40; {
		nl := strings.IndexByte(s[i:to], '\n')
		if nl < 0 {
			break // the line goes on past to
		}
		ls := i
		if i == from {
			ls = strings.LastIndexByte(s[:from], '\n') + 1
		}
		line := s[ls : i+nl]
		start := i
		i += nl + 1
		indented := line != "" && (line[0] == ' ' || line[0] == '\t') && strings.TrimSpace(line) != ""
		keep := follow > 0 && indented
		if keep {
			follow--
		} else {
			follow = 0
			key := strings.TrimSpace(line)
			if !ReportsError(line) || seen[key] {
				continue
			}
			seen[key] = true // before the tail is searched: a line repeated many times searches it once
			if strings.Contains(tail, key) {
				continue
			}
			follow = maxFollow
		}
		part := s[start : ls+len(line)] // what the head has not shown
		n := runeStart(part, min(len(part), maxErrorLine, budget-spanCost))
		spans = append(spans, span{start, start + n, n < len(part)})
		budget -= n + spanCost
	}
	return spans
}

// ReportsError reports whether line reads as a report of an error or a
// failure, judged by its shape: a compiler or linter diagnostic
// (path:line:col:, File.java:[12,5], file.ts(12,5)) of no lesser
// severity (warning, note), a severity word
// (error, fatal, panic, exception, failed, FAIL, ERR…) or an identifier
// naming one (TypeError, NullPointerException), a stack trace's head
// (Traceback), or a non-zero exit status. Counts of none ("0 errors",
// "Failures: 0") are not reports. Only the line's first scanLine bytes
// are read.
func ReportsError(line string) bool {
	if len(line) > scanLine {
		line = line[:scanLine]
	}
	lesser := false   // a severity below error: a warning's position is no failure
	labelled := false // the line is labelled with that severity ("warning:", "[INFO]")
	for i := 0; i < len(line); {
		if !isLetter(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && isLetter(line[j]) {
			j++
		}
		w := line[i:j]
		if partOfName(line, i, j) && strings.ToLower(w) == w {
			// error_count, err2: a variable's name, not a report. An
			// upper-case one is an error code (ERROR_FILE_NOT_FOUND,
			// HTTP_ERROR) and reads as a report.
			i = j
			continue
		}
		switch lw := strings.ToLower(w); {
		case severe(lw):
			// After a "warning:" label the line reports that lesser
			// severity, and the word is what the warning is about; a
			// warning merely counted before it ("1 warning and 2 errors")
			// takes nothing from it.
			if !labelled && !zeroCount(line, i, j) {
				return true
			}
		case lw == "exit" || lw == "exited":
			if nonZeroAfter(line[j:]) {
				return true
			}
		case lw == "warning" || lw == "warn" || lw == "note" || lw == "info" || lw == "hint" || lw == "debug":
			lesser = true
			labelled = labelled || j < len(line) && (line[j] == ':' || line[j] == ']')
		default:
			if w == "ERR" || camelSuffix(w, "Error") || camelSuffix(w, "Exception") {
				return true
			}
		}
		i = j
	}
	if lesser {
		return false
	}
	start, _ := SourcePosition(line)
	return start >= 0
}

// severe reports whether lower-case word w is a severity word of an
// error or a failure.
func severe(w string) bool {
	switch w {
	case "error", "errors", "exception", "failed", "failure", "failures", "fail", "fatal", "panic", "panicked", "traceback", "aborted":
		return true
	}
	return false
}

// StatesError reports whether line states an error itself, as the line
// heading a failure's report does ("Error: listen EADDRINUSE: address
// already in use", "TypeError: x is not a function", "error[E0432]:
// unresolved import", "FAILED tests/test_api.py::test_login", "fatal: not
// a git repository", "java.lang.IllegalStateException: closed"): its first
// word, past what holds no letter before it (a timestamp, a bracket, a
// bullet), is a severity word (ReportsError's) labelling the line (a colon,
// a bracket or an exclamation mark after it, or an upper-case word), or an
// identifier naming an error or an exception. A stack frame or a line
// quoting the word ("throw er; // Unhandled 'error' event") mentions an
// error; this line says which. Only the line's first scanLine bytes are
// read.
func StatesError(line string) bool {
	if len(line) > scanLine {
		line = line[:scanLine]
	}
	i := 0
	for i < len(line) && !isLetter(line[i]) {
		i++
	}
	j := i
	for j < len(line) && (isLetter(line[j]) || isDigit(line[j]) || line[j] == '_' || line[j] == '.' || line[j] == '$') {
		j++
	}
	name := strings.TrimRight(line[i:j], ".")
	j = i + len(name)
	w := name[strings.LastIndexByte(name, '.')+1:] // java.lang.IllegalStateException
	after := byte(0)
	if j < len(line) {
		after = line[j]
	}
	if camelSuffix(w, "Error") || camelSuffix(w, "Exception") {
		return after == 0 || after == ':' || after == ' ' || after == '\n' || after == '\r'
	}
	if w != name || !severe(strings.ToLower(w)) || zeroCount(line, i, j) || partOfName(line, i, j) && strings.ToLower(w) == w {
		return false
	}
	switch after {
	case ':', '[', ']', '!':
		return true
	case ' ', '\t', 0, '\n', '\r':
		return w == strings.ToUpper(w) // ERROR, FAILED, FATAL: a label in capitals
	}
	return false
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// camelSuffix reports whether w is an identifier ending in the word suf,
// as TypeError or IllegalStateException are.
func camelSuffix(w, suf string) bool {
	return len(w) > len(suf) && strings.HasSuffix(w, suf) && w[len(w)-len(suf)-1] >= 'a' && w[len(w)-len(suf)-1] <= 'z'
}

// partOfName reports whether the word line[i:j] is part of a longer
// identifier joined by an underscore or a digit (error_count, err2).
func partOfName(line string, i, j int) bool {
	glued := func(c byte) bool { return c == '_' || isDigit(c) }
	return i > 0 && glued(line[i-1]) || j < len(line) && glued(line[j])
}

// zeroCount reports whether the word line[i:j] is counted as zero:
// "0 errors", "Errors: 0", "failed=0", "no errors", "without errors".
func zeroCount(line string, i, j int) bool {
	k := i
	for k > 0 && line[k-1] == ' ' {
		k--
	}
	if k > 0 && line[k-1] == '0' && (k == 1 || !isDigit(line[k-2])) {
		return true
	}
	w := k
	for w > 0 && isLetter(line[w-1]) {
		w--
	}
	if prev := strings.ToLower(line[w:k]); k < i && (prev == "no" || prev == "without" || prev == "zero") {
		return true
	}
	k = j
	for k < len(line) && (line[k] == ' ' || line[k] == ':' || line[k] == '=') {
		k++
	}
	return k < len(line) && line[k] == '0' && (k+1 == len(line) || !isDigit(line[k+1]))
}

// nonZeroAfter reports whether the first number within a few bytes of the
// start of rest ("exit code 1", "exited with status 2") is not zero.
func nonZeroAfter(rest string) bool {
	for k := 0; k < len(rest) && k < 16; k++ {
		if isDigit(rest[k]) {
			for k < len(rest) && rest[k] == '0' {
				k++
			}
			return k < len(rest) && isDigit(rest[k])
		}
	}
	return false
}

// SourcePosition finds a source position the way compilers and linters
// print one: a file name with an extension followed by line and column, as
// path:12:5:, File.java:[12,5] or file.ts(12,5). One number alone (grep
// -n's path:12:) is not enough. It returns where the file's name (without
// its directory) starts and where the position ends, or -1, -1. Capture
// keeps such lines of a cut output and extraction quotes them, so both
// read positions by this one rule.
func SourcePosition(line string) (start, end int) {
	for i := 1; i < len(line); i++ {
		c := line[i]
		if c != ':' && c != '(' {
			continue
		}
		if !fileName(line[:i]) {
			continue
		}
		at := i + 1
		if c == ':' && strings.HasPrefix(line[at:], "[") {
			at++
		}
		rest := line[at:]
		a := digits(rest)
		if a == 0 || a == len(rest) || rest[a] != ':' && rest[a] != ',' {
			continue
		}
		b := digits(rest[a+1:])
		if b == 0 {
			continue
		}
		end = at + a + 1 + b
		if end < len(line) && (line[end] == ']' || line[end] == ')') {
			end++
		}
		start = i
		for start > 0 && nameByte(line[start-1]) {
			start--
		}
		return start, end
	}
	return -1, -1
}

// nameByte reports whether c can be part of a file's name: a letter, a
// digit, '_', '-', '.' or a byte of a non-ASCII letter.
func nameByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c >= 0x80
}

// fileName reports whether s ends in a file name with an extension: a dot
// followed by one to eight letters or digits, after a name character.
func fileName(s string) bool {
	k := len(s)
	for k > 0 && len(s)-k < 8 && (isLetter(s[k-1]) || isDigit(s[k-1])) {
		k--
	}
	if k == len(s) || k < 2 || s[k-1] != '.' {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:k-1])
	return r == '_' || r == '-' || r >= 0x80 || isLetter(byte(r)) || isDigit(byte(r))
}

// digits is the length of the run of ASCII digits that starts s.
func digits(s string) int {
	k := 0
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	return k
}

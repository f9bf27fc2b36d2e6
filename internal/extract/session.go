package extract

import (
	"iter"
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A user message can be a terminal session pasted whole: the command the
// user ran, then what it printed. A build tool prints English ("Pass --trace
// for the full trace", "Use the --legacy-link option to link with the
// previous linker") and marks its sections with "* " and "> ", so line by
// line (pastedOutput) much of it reads as prose and as the user's own list.
// Taken together its lines still show what printed them: positions in files,
// task paths, timings, status words in capitals, rules of dashes, lines
// padded to the terminal's width. A list the user typed under a command
// shows none of that.

// Kinds of output marks (outputMarks).
const (
	markTool      = 1 << iota // a compiler's or a logger's lead, a timestamp, a line of symbols (outputLine)
	markIndent                // an indented "> " line: a nested detail (other indented lines are outputLine's)
	markPosition              // a file with a line and column: "src/app.kt:3:22"
	markTaskPath              // a task's colon path: ":core:linkRelease"
	markQualified             // a qualified name: "org.example.Runner$Worker", "pkg::Type"
	markMeasure               // a timing, a count or a share: "17s", "0.8ms", "12/14", "45%"
	markStatus                // a status word in capitals: "FAILED", "ALL GREEN", "WARN:"
	markRule                  // a line of punctuation only: "-----", "====="
	markColumns               // padded to the terminal's width, or laid out in columns
	markProgress              // a step in progress: "Packing release..."
	markGlyph                 // a status glyph in front: "✖ ", "✔ "

	// softMarks are also common in a user's own prose: "it takes 40s",
	// "100% of deploys", "see vite.config.ts:14", a line trailing off "...".
	softMarks = markMeasure | markPosition | markProgress
)

// Thresholds of pastedSession.
const (
	minSessionMarked = 3 // output lines in a session, at the fewest
	minSessionKinds  = 2 // kinds of mark among them
	maxSessionLead   = 3 // the command is one of a message's first lines: the user's own may come before it
)

// pastedSession reports the part of a user message, text[from:to], that is
// a terminal session pasted whole. It opens with a command (ranCommand) on
// one of the message's first lines and runs to the last line after it with
// a mark of a program's output (outputMarks). It is a session when, of its
// lines after the command up to there, at least half are marked, by at least
// two kinds of mark, one of them not soft (softMarks): the lines are judged
// together, as one line alone of a build log reads like prose. A line of
// prose with only soft marks ("From now on we run it first, it takes 40s.")
// counts among the session's marked lines but does not carry the session on
// to it: it may well be the user's, and so may the lines before it, unless
// it opens with a word in capitals ("APPLIED 2 files in 0.03s"). A line in
// the user's voice with no mark (userVoice) ends the session, whatever
// marked lines come after it. What the user typed after the session is
// theirs; a user's line over output with no command is pastedOutput's.
func pastedSession(text string) (from, to int, ok bool) {
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	from = -1
	seen, lines, marked, kinds := 0, 0, 0, 0
	markedAtLast, kindsAtLast, linesAtLast := 0, 0, 0
	for ln := range linesFrom(text, 0) {
		pos, end, l := ln.start, ln.end, ln.text
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if from < 0 {
			if seen++; seen > maxSessionLead {
				return 0, 0, false
			}
			if ranCommand(t) {
				from = pos + strings.Index(l, t)
			}
			continue
		}
		lines++
		m := outputMarks(l)
		if m == 0 {
			if userVoice(t) {
				break // the user writes again: the session, if any, is over
			}
			continue
		}
		marked++
		kinds |= m
		if w := firstWord(t); m&^softMarks != 0 || !proseLine(t) || len(w) >= 4 && capitals(w) {
			to, markedAtLast, kindsAtLast, linesAtLast = end, marked, kinds, lines
		}
	}
	if from < 0 || markedAtLast < minSessionMarked || bits.OnesCount(uint(kindsAtLast)) < minSessionKinds ||
		kindsAtLast&^softMarks == 0 || markedAtLast*2 < linesAtLast {
		return 0, 0, false
	}
	return from, to, true
}

// userVoice reports a line of prose in the first person ("We run it before
// every push.", "I tried it twice:"): the user's, between what programs
// printed, which speak of themselves in the third person or the imperative
// ("The store could not be opened", "Use --trace for the full trace").
func userVoice(t string) bool {
	return proseLine(t) && startsWithPhrase(leadText(lowerASCII(t)), firstPersons)
}

// userWritesAgain returns where, after the paste that starts at off, the
// user writes again: the first line after off's own that carries no output
// mark and is in the user's voice (userVoice), or len(text). A prompt that
// pastes an error and then says what to do about it ("From now on we build
// with --strict.") is the paste, then the user's own words.
func userWritesAgain(text string, off int) int {
	if off >= len(text) {
		return len(text)
	}
	nl := strings.IndexByte(text[off:], '\n')
	if nl < 0 {
		return len(text)
	}
	for ln := range linesFrom(text, off+nl+1) {
		if t := strings.TrimSpace(ln.text); t != "" && outputMarks(ln.text) == 0 && userVoice(t) {
			return ln.start
		}
	}
	return len(text)
}

// textLine is a line of a text: text[start:end], its break left out, and its
// text without a carriage return before the break.
type textLine struct {
	start, end int
	text       string
}

// linesFrom yields the lines of text from pos on.
func linesFrom(text string, pos int) iter.Seq[textLine] {
	return func(yield func(textLine) bool) {
		for end := 0; pos < len(text); pos = end + 1 {
			end = strings.IndexByte(text[pos:], '\n')
			if end < 0 {
				end = len(text)
			} else {
				end += pos
			}
			if !yield(textLine{pos, end, strings.TrimRight(text[pos:end], "\r")}) {
				return
			}
		}
	}
}

// firstPersons open a sentence in the first person.
var firstPersons = []string{"i", "i'm", "i've", "i'd", "i'll", "we", "we're", "we've", "we'd", "we'll", "let's", "my", "our", "from now on"}

// ranCommand reports a line that is a command someone ran: one after a
// shell prompt's sign ("$ make", "~/app ❯ make", "dev@box:~/app$ make"), or a
// program's name followed only by arguments, at least one of them a flag, a
// path or a value ("brickle assemble --offline", "npx some-tool").
func ranCommand(t string) bool {
	if rest, ok := afterPrompt(t); ok {
		f := strings.Fields(rest)
		return len(f) > 0 && programName(f[0])
	}
	if strings.ContainsAny(t[len(t)-1:], ".?!:,;") || outputLine(t) {
		return false // a sentence, a label, a line of output ("at Main.run (main.js:3:9)")
	}
	f := strings.Fields(t)
	if len(f) < 2 || len(f) > 12 || !programName(f[0]) {
		return false
	}
	// "tool run" could be words of a sentence; a flag, a path or a value
	// ("tool run -v", "tool ./app", "some-tool run") makes it a command.
	argued := strings.ContainsAny(f[0], "./-")
	for _, a := range f[1:] {
		switch {
		case strings.Trim(a, "=:|&<>") == "":
			return false // "key = value": an assignment, not arguments
		case a[0] == '-' || a[0] == '"' || a[0] == '\'' || strings.ContainsAny(a, "/.=:~@"):
			argued = true
		case word(a):
			argued = argued || strings.ContainsAny(a, "-_0123456789")
		default:
			return false // "Use", "it's", "(maybe)": words of a sentence
		}
	}
	return argued
}

// afterPrompt returns what follows a shell prompt's sign at the start of a
// line: "$ ", "% ", "❯ ", "➜ " alone, or after a prompt's path or host
// ("~/app ❯ ", "dev@box:~/app$ ", "PS C:\app> ").
func afterPrompt(t string) (string, bool) {
	for _, sign := range []string{"$ ", "% ", "❯ ", "➜ ", "> ", "# "} {
		k := strings.Index(t, sign)
		if k < 0 || k > 80 {
			continue
		}
		head := strings.TrimSpace(t[:k])
		switch {
		case head == "" && (sign == "> " || sign == "# "):
			continue // a quote, a heading
		case head == "":
		case len(strings.Fields(head)) <= 3 && strings.ContainsAny(lastField(head), "/~@\\"):
		default:
			continue
		}
		return t[k+len(sign):], true
	}
	return "", false
}

// lastField is the last of s's fields, or "".
func lastField(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// progress reports a line of a step in progress: it ends in an ellipsis,
// maybe before a timing ("Fetching the index...", "Linking...   2.1s").
func progress(t string) bool {
	if f := strings.Fields(t); len(f) > 1 && measure(f[len(f)-1]) {
		t = strings.TrimSpace(t[:strings.LastIndex(t, f[len(f)-1])])
	}
	return strings.HasSuffix(t, "...") || strings.HasSuffix(t, "…")
}

// programName reports a word shaped like a program's name or path: lower
// case letters, digits and "._/-", opening with a letter or "./", "~/".
func programName(w string) bool {
	if w == "" || !(w[0] >= 'a' && w[0] <= 'z' || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "~/")) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || isDigit(c) || strings.IndexByte("._/-~", c) >= 0) {
			return false
		}
	}
	return !strings.ContainsAny(w[len(w)-1:], ".-")
}

// word reports an argument that is a bare word: letters, digits, "-" and "_"
// ("run", "assembleRelease", "A001", "dry_run").
func word(a string) bool {
	for _, r := range a {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_')) {
			return false
		}
	}
	return unicode.IsLower(rune(a[0])) || strings.ContainsAny(a, "0123456789")
}

// outputMarks returns the kinds of mark that a program printed line l (raw,
// with its indentation and trailing spaces).
func outputMarks(l string) int {
	t := strings.TrimSpace(l)
	m := 0
	if outputLine(l) || logTag(t) {
		m |= markTool
	}
	if (l[0] == ' ' || l[0] == '\t') && t[0] == '>' {
		m |= markIndent
	}
	if strings.HasSuffix(l, "   ") || strings.Contains(t, "     ") {
		m |= markColumns
	}
	if progress(t) {
		m |= markProgress
	}
	if r, _ := utf8.DecodeRuneInString(t); r >= 0x2190 && !unicode.IsLetter(r) && !unicode.IsDigit(r) && len(t) > utf8.RuneLen(r) && t[utf8.RuneLen(r)] == ' ' {
		m |= markGlyph
	}
	letters := false
	for _, r := range t {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			letters = true
			break
		}
	}
	if !letters && len(t) >= 3 {
		m |= markRule
	}
	if statusWord(t) {
		m |= markStatus
	}
	for _, w := range strings.FieldsFunc(t, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("()[]'\"`,", r) }) {
		w = strings.TrimRight(w, ".;")
		switch {
		case filePosition(w):
			m |= markPosition
		case taskPath(w):
			m |= markTaskPath
		case qualified(w):
			m |= markQualified
		case measure(w):
			m |= markMeasure
		}
	}
	return m
}

// logTag reports a line that opens with a logger's level in lower case,
// then a colon or a word that is not plain lower-case prose: "info Fetching
// the index...", "warn pkg@2.0.1: …", "ok Added 1 package". "ok so that
// works" is a user's.
func logTag(t string) bool {
	k := strings.IndexAny(t, " \t:")
	if k <= 0 {
		return false
	}
	switch t[:k] {
	case "info", "warn", "warning", "ok", "error", "debug", "notice", "verbose":
	default:
		return false
	}
	if t[k] == ':' {
		return true
	}
	f := strings.Fields(t[k:])
	if len(f) == 0 {
		return false
	}
	for _, r := range strings.TrimRight(f[0], ",.;!?") {
		if r < 'a' || r > 'z' {
			return true
		}
	}
	return false
}

// statusWord reports a line that opens with a word of four capitals or more
// followed by a colon, another word in capitals, or nothing: "FAILURE: …",
// "ALL GREEN in 2s", "DONE".
func statusWord(t string) bool {
	f := strings.Fields(t)
	if len(f) == 0 {
		return false
	}
	w := strings.TrimSuffix(f[0], ":")
	if len(w) < 4 || !capitals(w) {
		return false
	}
	return len(f) == 1 || len(w) < len(f[0]) || capitals(strings.TrimRight(f[1], ":!."))
}

// capitals reports a word of ASCII capitals only.
func capitals(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'A' || w[i] > 'Z' {
			return false
		}
	}
	return true
}

// filePosition reports a file's name or path with a line number, and maybe
// a column, after it: "main.kt:3:22", "file:///src/app.ts:10", "lib/a.go:7:".
func filePosition(w string) bool {
	w = strings.TrimRight(w, ":")
	k := strings.IndexByte(w, ':')
	for k >= 0 && (strings.HasPrefix(w[k:], "://") || k+1 < len(w) && !isDigit(w[k+1])) {
		n := strings.IndexByte(w[k+1:], ':')
		if n < 0 {
			return false
		}
		k += n + 1
	}
	if k <= 0 || k+1 >= len(w) {
		return false
	}
	path := w[:k]
	if i := strings.Index(path, "://"); i >= 0 {
		path = path[i+3:]
	}
	slash := strings.LastIndexByte(path, '/')
	name := path[slash+1:]
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 || dot+1 >= len(name) || !unicode.IsLetter(rune(name[dot+1])) {
		return false
	}
	nums := strings.Split(w[k+1:], ":")
	for _, n := range nums {
		if n == "" || strings.Trim(n, "0123456789") != "" {
			return false
		}
	}
	// "main.kt:3:22", "src/app.ts:10"; a bare "host.example.com:443" is an address
	return len(nums) == 2 || slash >= 0
}

// taskPath reports a build tool's task path: ":kiosk:linkShell",
// ":lib:test".
func taskPath(w string) bool {
	if len(w) < 4 || w[0] != ':' {
		return false
	}
	parts := strings.Split(w[1:], ":")
	for _, p := range parts {
		if p == "" || !word(p) {
			return false
		}
	}
	return len(parts) >= 2
}

// qualified reports a qualified name of a language: three dots or more
// between lower-case names and a capitalised type ("org.example.core.Runner"),
// a "$" of a nested class, or a "::" path ("engine::io::Reader").
func qualified(w string) bool {
	if strings.Contains(w, "::") && !strings.Contains(w, "/") {
		return len(w) > 4 && !strings.HasPrefix(w, "::") && !strings.HasSuffix(w, "::")
	}
	if strings.Contains(w, "/") || strings.Count(w, ".") < 3 {
		return false
	}
	for _, p := range strings.Split(w, ".") {
		if p == "" || !(unicode.IsLetter(rune(p[0])) || p[0] == '_') {
			return false // a version "1.16.3.2", an ellipsis
		}
	}
	return strings.ContainsRune(w, '$') || unicode.IsUpper(rune(w[strings.LastIndexByte(w, '.')+1]))
}

// measure reports a timing, a count of a total or a share: "17s", "1.5s",
// "820ms", "12/14", "45%".
func measure(w string) bool {
	i := 0
	for i < len(w) && (isDigit(w[i]) || w[i] == '.') {
		i++
	}
	if i == 0 || !isDigit(w[0]) {
		return false
	}
	switch rest := w[i:]; {
	case rest == "s" || rest == "ms" || rest == "µs" || rest == "%":
		return true
	case strings.HasPrefix(rest, "/") && len(rest) > 1:
		for _, c := range []byte(rest[1:]) {
			if !isDigit(c) {
				return false
			}
		}
		return true
	}
	return false
}

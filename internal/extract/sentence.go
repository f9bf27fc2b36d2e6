package extract

import (
	"strings"
	"unicode/utf8"
)

// span is a sentence or bullet of a message: Text[start:end], trimmed.
type span struct {
	start, end int
	shape      shape
}

// shape says how a span sat in its message: what the markdown around it
// makes of it. A heading names a section and claims nothing; a whole line
// without a full stop may be a label; a table row holds a fact in cells.
type shape uint8

const (
	shapeLine    shape = 1 << iota // the span is its line's only sentence
	shapeHeading                   // the line was a markdown heading
	shapeBullet                    // the line was a list item
	shapeTable                     // the span is a table row's cells
	shapeCode                      // the span is the only line of a fenced block
	shapeBlock                     // with shapeCode: one line of a short fenced block
)

// maxCodeLines is the longest fenced block whose lines are read as
// commands; a longer one is a program or a log.
const maxCodeLines = 8

// abbreviations end with a period that does not end a sentence.
var abbreviations = []string{"e.g", "i.e", "etc", "vs", "cf", "approx", "mr", "mrs", "dr", "fig"}

// sentences splits text into sentences and bullets, each with its shape.
// A fenced code block yields its line when it has only one (a command),
// and its lines, each marked as one of a block, when it has a few;
// a markdown table yields its body rows, cells and all, and no header or
// separator row; a period inside a `code span`, a URL, a path
// like ./keys or src/app.js, a version like 1.4.0 or an abbreviation like
// "e.g." does not end a sentence. Korean sentences end the same way ("다.",
// "요."), so they need no rule of their own.
func sentences(text string) []span {
	var out []span
	fence := ""
	var code []span // the current fenced block's lines
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		start := pos
		pos = end + 1

		trimmed := strings.TrimLeft(line, " \t")
		if f := fenceMarker(trimmed); f != "" {
			switch {
			case fence == "":
				fence, code = f, code[:0]
			case strings.HasPrefix(f, fence):
				fence = ""
				switch {
				case len(code) == 1:
					out = append(out, code[0])
				case len(code) <= maxCodeLines:
					// a short block may be a few commands; each line is
					// judged alone, and only a command is kept
					for _, c := range code {
						c.shape = shapeCode | shapeBlock
						out = append(out, c)
					}
				}
			}
			continue
		}
		if fence != "" {
			if n := len(out); strings.TrimSpace(line) != "" {
				if out = appendSpan(text, start, end, out); len(out) > n {
					code = append(code, span{out[n].start, out[n].end, shapeCode | shapeLine})
					out = out[:n]
				}
			}
			continue
		}
		if strings.HasPrefix(trimmed, "|") {
			out = tableRow(text, start+len(line)-len(trimmed), end, out)
			continue
		}
		start += len(line) - len(trimmed)
		end -= continuation(line)
		var sh shape
		if b := bulletLen(trimmed); b > 0 {
			if trimmed[0] == '#' {
				sh = shapeHeading
			} else {
				sh = shapeBullet
			}
			start += b
		}
		n := len(out)
		out = splitLine(text, start, end, out)
		for k := n; k < len(out); k++ {
			out[k].shape |= sh
		}
		if len(out) == n+1 {
			out[n].shape |= shapeLine
		}
	}
	return out
}

// continuation returns the length of the line-continuation mark a line
// ends with, and of the blanks before it: a backslash typed at the end of a
// line to go on to the next one ("it fails on deploy:\"), as a shell or a
// prompt's input box takes it. It is not part of the sentence, and left in it
// hides the colon that says the line introduces what follows. Two
// backslashes are one escaped backslash, not a mark.
func continuation(line string) int {
	t := strings.TrimRight(line, " \t\r")
	if !strings.HasSuffix(t, `\`) || strings.HasSuffix(t, `\\`) {
		return 0
	}
	return len(line) - len(t) + 1
}

// tableRow appends the cells of one markdown table row, from its first to
// its last pipe, as one span. A separator row ("|---|:--|") yields nothing
// and takes back the row before it, which was the header.
func tableRow(text string, start, end int, out []span) []span {
	row := strings.TrimRight(text[start:end], " \t\r")
	if strings.Trim(row, "|-: \t") == "" {
		if n := len(out); n > 0 && out[n-1].shape&shapeTable != 0 && out[n-1].end <= start {
			out = out[:n-1]
		}
		return out
	}
	a := start + 1
	b := start + len(row)
	if b > a && text[b-1] == '|' {
		b--
	}
	n := len(out)
	out = appendSpan(text, a, b, out)
	if len(out) > n {
		out[n].shape = shapeTable | shapeLine
	}
	return out
}

// fenceMarker returns the run of backticks or tildes opening a fenced code
// block, or "".
func fenceMarker(line string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(line) && line[n] == c {
			n++
		}
		if n >= 3 {
			return line[:n]
		}
	}
	return ""
}

// bulletLen is the length of a markdown list, quote, heading or checkbox
// marker at the start of line, with the space after it.
func bulletLen(line string) int {
	n := 0
	for {
		rest := line[n:]
		switch {
		case strings.HasPrefix(rest, "- [ ] "), strings.HasPrefix(rest, "- [x] "), strings.HasPrefix(rest, "- [X] "):
			n += 6
		case len(rest) >= 2 && (rest[0] == '-' || rest[0] == '*' || rest[0] == '+' || rest[0] == '>') && (rest[1] == ' ' || rest[1] == '\t'):
			n += 2
		case strings.HasPrefix(rest, "• "):
			n += len("• ")
		case len(rest) > 0 && rest[0] == '#':
			h := 0
			for h < len(rest) && rest[h] == '#' {
				h++
			}
			if h > 6 || h >= len(rest) || rest[h] != ' ' {
				return n
			}
			n += h + 1
		default:
			if numbered(rest) {
				n += strings.IndexAny(rest, ".)") + 2
				continue
			}
			if numbered(strings.TrimPrefix(rest, "**")) && strings.HasPrefix(rest, "**") {
				// "**1. Cart total fix**": the number is the list's, not a
				// sentence. Only the marker is read here: a call of bulletLen
				// on the rest, which loops back over it, took time doubling
				// with each "**1. " of a line.
				n += 2
				continue
			}
			return n
		}
		for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
			n++
		}
	}
}

// numbered reports a list number at the start of s: one to three digits,
// then "." or ")" and a space.
func numbered(s string) bool {
	d := 0
	for d < len(s) && d < 3 && s[d] >= '0' && s[d] <= '9' {
		d++
	}
	return d > 0 && d+1 < len(s) && (s[d] == '.' || s[d] == ')') && s[d+1] == ' '
}

// splitLine appends the sentences of text[start:end], one line, to out.
func splitLine(text string, start, end int, out []span) []span {
	s := start
	tick := 0 // length of the backtick run that opened the current code span
	for i := start; i < end; {
		c := text[i]
		switch {
		case c == '`':
			n := 1
			for i+n < end && text[i+n] == '`' {
				n++
			}
			switch {
			case tick == 0:
				tick = n
			case tick == n:
				tick = 0
			}
			i += n
			continue
		case tick > 0:
			i++
			continue
		case (c == 'h' || c == 'H') && hasURLPrefix(text[i:end]):
			i = urlEnd(text, i, end)
			continue
		case c == '.' || c == '!' || c == '?':
			j := i + 1
			for j < end && (text[j] == '.' || text[j] == '!' || text[j] == '?') {
				j++
			}
			j = skipClosers(text, j, end)
			if j < end && text[j] != ' ' && text[j] != '\t' && text[j] != '\r' {
				i = j
				continue
			}
			if c == '.' && j == i+1 && isAbbreviation(text[s:i]) {
				i = j
				continue
			}
			out = appendSpan(text, s, j, out)
			s = j
			i = j
			continue
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(text[i:end])
			if r == '。' || r == '！' || r == '？' {
				j := skipClosers(text, i+size, end)
				out = appendSpan(text, s, j, out)
				s = j
				i = j
				continue
			}
			i += size
			continue
		}
		i++
	}
	return appendSpan(text, s, end, out)
}

func hasURLPrefix(s string) bool {
	return len(s) > 8 && (strings.EqualFold(s[:7], "http://") || strings.EqualFold(s[:8], "https://"))
}

// urlEnd returns the end of the URL starting at i, leaving trailing
// punctuation outside so that it can still end the sentence.
func urlEnd(text string, i, end int) int {
	j := i
	for j < end && !isSpaceByte(text[j]) && text[j] != '`' && text[j] != '<' && text[j] != '>' && text[j] != '"' {
		j++
	}
	for j > i && strings.IndexByte(".,;:!?)]'", text[j-1]) >= 0 {
		j--
	}
	if j == i {
		j = i + 1
	}
	return j
}

// skipClosers steps over closing quotes, brackets and emphasis after a
// sentence terminator.
func skipClosers(text string, j, end int) int {
	for j < end {
		switch text[j] {
		case ')', ']', '"', '\'', '*', '_':
			j++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[j:end])
		if r == '”' || r == '’' || r == '」' || r == '』' {
			j += size
			continue
		}
		break
	}
	return j
}

func isAbbreviation(before string) bool {
	k := len(before)
	for k > 0 && (isASCIILetter(before[k-1]) || before[k-1] == '.') {
		k--
	}
	w := strings.ToLower(before[k:])
	if w == "" {
		return false
	}
	if len(w) == 1 {
		return before[k] >= 'A' && before[k] <= 'Z' // an initial ("J. Smith"), not chat's "k."
	}
	for _, a := range abbreviations {
		if w == a {
			return true
		}
	}
	return false
}

// appendSpan appends text[s:e] trimmed, if it holds a letter or digit.
func appendSpan(text string, s, e int, out []span) []span {
	for s < e && isSpaceByte(text[s]) {
		s++
	}
	for e > s && isSpaceByte(text[e-1]) {
		e--
	}
	for k := s; k < e; k++ {
		c := text[k]
		if isASCIILetter(c) || (c >= '0' && c <= '9') || c >= utf8.RuneSelf {
			return append(out, span{start: s, end: e})
		}
	}
	return out
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

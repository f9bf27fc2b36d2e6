package claim

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/korean"
)

// token is one word of a text: a Latin/digit run with its inner connectors
// ("src/api/client.ts", "ap-south-1", "06:15", "render.com"), or a Hangul run.
type token struct {
	s          string // lower-case, "'s" dropped
	start, end int    // byte span in the text
	sent       int    // index of its statement
	hangul     bool
	// particle is Hangul written onto a Latin or digit token ("Fly.io로" has
	// "로", "10초로" has "초로"): Korean particles and counters attach
	// without a space.
	particle string
	// arrow is a "to" read from an arrow ("→", "->").
	arrow bool
}

// statement is a sentence or clause: the unit a cue applies to.
type statement struct {
	start, end int
	first, n   int // its tokens: toks[first:first+n]
}

func isHangul(r rune) bool { return r >= 0x1100 && unicode.Is(unicode.Hangul, r) }

func isWord(r rune) bool {
	if r < 0x80 {
		return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsDigit(r) || (unicode.IsLetter(r) && !isHangul(r))
}

// connector runes join two word runs into one token when a word rune follows.
func isConnector(r rune) bool {
	switch r {
	case '.', '/', '-', ':', '@', '+', '#', '\'', '~':
		return true
	}
	return false
}

// tokenize splits text into tokens and statements. Statements end at . ! ?
// followed by a space or the end, at ; and at line breaks, but not inside a
// code span. It allocates only
// the lower-cased token strings and the two slices.
func tokenize(text string) ([]token, []statement) {
	toks := make([]token, 0, len(text)/5+1)
	sents := make([]statement, 0, len(text)/60+1)
	sentStart, sentFirst := -1, 0
	// code is set inside a code span ("`f(a, ...)`"), whose punctuation
	// ends no statement.
	code := false
	lineEnd, runs := -1, [3]int{} // the line's backtick runs of one and two
	opened := 0                   // the length of the run that opened the span
	closeSent := func(end int) {
		if sentStart >= 0 {
			sents = append(sents, statement{start: sentStart, end: end, first: sentFirst, n: len(toks) - sentFirst})
		}
		sentStart, sentFirst = -1, len(toks)
	}
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWord(r) || ((r == '.' || r == '/' || r == '~') && i+size < len(text) && startsWord(text[i+size:]) && (i == 0 || !isWord(lastRune(text[:i])))):
			if sentStart < 0 {
				sentStart = i
			}
			j := scanWord(text, i)
			t := token{start: i, end: j, sent: len(sents)}
			t.s = lower(text[i:j])
			// Hangul written onto the word is its particle or counter.
			k := j
			for k < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[k:])
				if !isHangul(r2) {
					break
				}
				k += s2
			}
			if k > j {
				t.particle = text[j:k]
				t.end = k
				j = k
			}
			toks = append(toks, t)
			i = j
		case isHangul(r):
			if sentStart < 0 {
				sentStart = i
			}
			j := i
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !isHangul(r2) {
					break
				}
				j += s2
			}
			toks = append(toks, token{s: text[i:j], start: i, end: j, sent: len(sents), hangul: true})
			i = j
		case r == '`':
			// A fence ("```bash") opens a block, not a span: read
			// joined onto one line with the text around it (an
			// excerpt's "…"), it would hide every statement's end.
			//
			// A span closes on a run as long as the one that opened it.
			// A run standing alone between spaces, on a line holding an
			// odd count of runs as long, is a stray backtick ("the ` key"),
			// which opens nothing: it would hide the line's ends.
			if i > lineEnd {
				lineEnd = len(text)
				if k := strings.IndexAny(text[i:], "\r\n"); k >= 0 {
					lineEnd = i + k
				}
				runs = backtickRuns(text[i:lineEnd])
			}
			n := backticks(text[i:])
			switch {
			case n >= 3:
			case code:
				code = n != opened
			case runs[n]%2 == 1 && (i == 0 || isSpace(text[i-1])) && (i+n == len(text) || isSpace(text[i+n])):
			default:
				code, opened = true, n
			}
			i += n
		case r == '\n' || r == '\r':
			code = false // a span is on one line: a stray backtick ends with it
			closeSent(i)
			i += size
		case (r == ';' || r == '。') && !code:
			closeSent(i)
			i += size
		case arrowAt(text, i) > 0:
			// "PostgreSQL → Chroma", "webpack -> vite": an arrow says
			// where a change goes, as "to" does.
			if sentStart < 0 {
				sentStart = i
			}
			n := arrowAt(text, i)
			toks = append(toks, token{s: "to", start: i, end: i + n, sent: len(sents), arrow: true})
			i += n
		case r == '.' || r == '!' || r == '?':
			i += size
			if !code && (i >= len(text) || text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '"' || text[i] == ')') {
				closeSent(i)
			}
		default:
			i += size
		}
	}
	closeSent(len(text))
	return toks, sents
}

// isSpace reports a byte of white space.
func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// backticks is the length of the run of backticks s opens with.
func backticks(s string) int { return len(s) - len(strings.TrimLeft(s, "`")) }

// backtickRuns counts the runs of one and of two backticks in line.
func backtickRuns(line string) (runs [3]int) {
	for {
		k := strings.IndexByte(line, '`')
		if k < 0 {
			return runs
		}
		m := backticks(line[k:])
		if m < 3 {
			runs[m]++
		}
		line = line[k+m:]
	}
}

// arrowAt returns the length of the arrow at text[i:] ("→", "⟶", "->",
// "=>"), or 0.
func arrowAt(text string, i int) int {
	switch {
	case strings.HasPrefix(text[i:], "->"), strings.HasPrefix(text[i:], "=>"):
		return 2
	case strings.HasPrefix(text[i:], "→"):
		return len("→")
	case strings.HasPrefix(text[i:], "⟶"):
		return len("⟶")
	}
	return 0
}

func startsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWord(r)
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// scanWord returns the end of the word starting at i: word runes, joined by
// connectors that a word rune follows ("http://" keeps its slashes).
func scanWord(text string, i int) int {
	j := i
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		if isWord(r) {
			j += size
			continue
		}
		query := inURL(r) && strings.Contains(text[i:j], "://")
		if isConnector(r) || (j == i && (r == '.' || r == '/' || r == '~')) || query {
			rest := text[j+size:]
			if startsWord(rest) || query && strings.HasPrefix(rest, "%") {
				j += size
				continue
			}
			if r == ':' && strings.HasPrefix(rest, "//") && len(rest) > 2 && startsWord(rest[2:]) {
				j += size + 2
				continue
			}
			if r == '/' && j > i && (len(rest) == 0 || !startsWord(rest)) {
				// "config/env/": the trailing slash marks a directory.
				j += size
			}
		}
		break
	}
	return j
}

// inURL reports a rune that joins the parts of a URL past its scheme, its
// query ("?code=abc&next=%2F") and escapes: they belong to the address, and
// read on their own "code=abc" would be a setting.
func inURL(r rune) bool { return r == '?' || r == '=' || r == '&' || r == '%' }

// lower lower-cases s and drops a possessive "'s"; ASCII-only input that is
// already lower-case is returned without copying.
func lower(s string) string {
	s = strings.TrimSuffix(strings.TrimSuffix(s, "'s"), "'S")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return strings.ToLower(s)
		}
	}
	return s
}

// koreanParticles end Korean words ("타임아웃은", "저장소를"); stripped to find
// the stem.
var koreanParticles = korean.Particles

// stem is the form of a word used to compare scopes: English loses a plural
// "s", Korean keeps its first two syllables (stems conjugate: 배포는,
// 배포합니다).
func stem(w string, hangul bool) string {
	if hangul {
		n := 0
		for i := range w {
			if n == 2 {
				return w[:i]
			}
			n++
		}
		return w
	}
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// stripParticle removes a trailing Korean particle from a Hangul word.
func stripParticle(w string) string {
	for _, p := range koreanParticles {
		if len(w) > len(p) && strings.HasSuffix(w, p) {
			return w[:len(w)-len(p)]
		}
	}
	return w
}

package align

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// normText is a message in normalized form together with a map from every
// normalized rune back to the bytes of the original message it came from.
type normText struct {
	s     string // the normalized text (valid UTF-8)
	runes []rune // s as runes, for the fuzzy search
	// start[k] and end[k] are the byte range of the original text that
	// normalized rune k was produced from. Several runes share a range when
	// one source segment expands ("…" becomes "..."), and a collapsed white
	// space run covers the whole run. Both slices are non-decreasing and
	// start[k] < end[k].
	start, end []int32
	// grams[p] is the key of the trigram at rune p, and present the set of
	// keys (folded to presenceBits; nil when the text is long enough to
	// fill it). Both are built on first use by indexGrams.
	grams   []uint16
	present *presence
}

// normalizer builds the normalized form of a text, rune by rune. See the
// package comment for the rules.
type normalizer struct {
	buf        []byte
	maps       bool // whether to record runes, start and end
	runes      []rune
	start, end []int32
	space      bool // a white space run is pending
	sp0, sp1   int  // its source range
	seg        []byte
}

// normalizeQuote returns the normalized form of s with the white space at
// both ends removed. It is the form quotes are matched in.
func normalizeQuote(s string) string {
	var n normalizer
	n.buf = make([]byte, 0, len(s))
	n.run(s)
	return strings.Trim(string(n.buf), " ")
}

// normalizeText returns the normalized form of a message with its position
// map. The caller guarantees len(s) <= math.MaxInt32.
func normalizeText(s string) *normText {
	n := normalizer{
		maps:  true,
		buf:   make([]byte, 0, len(s)),
		runes: make([]rune, 0, len(s)),
		start: make([]int32, 0, len(s)),
		end:   make([]int32, 0, len(s)),
	}
	n.run(s)
	n.flushSpace()
	return &normText{s: string(n.buf), runes: n.runes, start: n.start, end: n.end}
}

// maxNormBytes is the longest message that gets a normalized form; the
// position map uses int32 offsets. Longer messages are searched exactly only.
const maxNormBytes = math.MaxInt32

func (n *normalizer) run(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		// An ASCII byte followed by another ASCII byte (or the end) is a
		// normalization segment of its own: NFKC leaves it alone and nothing
		// composes with it. This is the hot path for code and English.
		if c < utf8.RuneSelf && (i+1 == len(s) || s[i+1] < utf8.RuneSelf) {
			switch {
			case 'A' <= c && c <= 'Z':
				n.add(rune(c+'a'-'A'), i, i+1)
			case c == '`':
				// ignorable
			case c == ' ' || '\t' <= c && c <= '\r':
				n.addSpace(i, i+1)
			default:
				n.add(rune(c), i, i+1)
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			// Invalid UTF-8 is one segment per byte, as in a range loop.
			n.emit(utf8.RuneError, i, i+1)
			i++
			continue
		}
		// Extend the segment over every following rune that may combine
		// with it, so that segments normalize independently of each other.
		j := i + w
		for j < len(s) {
			r2, w2 := utf8.DecodeRuneInString(s[j:])
			if r2 == utf8.RuneError && w2 == 1 {
				break
			}
			if norm.NFKC.PropertiesString(s[j:]).BoundaryBefore() {
				break
			}
			j += w2
		}
		if j == i+w && r < utf8.RuneSelf {
			n.emit(r, i, j)
		} else {
			n.seg = norm.NFKC.AppendString(n.seg[:0], s[i:j])
			for _, r := range string(n.seg) {
				n.emit(r, i, j)
			}
		}
		i = j
	}
}

// emit folds one NFKC output rune and adds it, drops it, or extends the
// pending white space run.
func (n *normalizer) emit(r rune, s0, s1 int) {
	r = unicode.ToLower(r)
	switch r {
	case '‘', '’', '‚', '‛':
		r = '\''
	case '“', '”', '„', '‟':
		r = '"'
	case '‐', '‑', '‒', '–', '—', '―', '−':
		r = '-'
	case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '`':
		return
	}
	if unicode.IsSpace(r) {
		n.addSpace(s0, s1)
		return
	}
	n.add(r, s0, s1)
}

func (n *normalizer) addSpace(s0, s1 int) {
	if !n.space {
		n.space = true
		n.sp0 = s0
	}
	n.sp1 = s1
}

func (n *normalizer) flushSpace() {
	if !n.space {
		return
	}
	n.space = false
	n.put(' ', n.sp0, n.sp1)
}

func (n *normalizer) add(r rune, s0, s1 int) {
	n.flushSpace()
	n.put(r, s0, s1)
}

func (n *normalizer) put(r rune, s0, s1 int) {
	n.buf = utf8.AppendRune(n.buf, r)
	if n.maps {
		n.runes = append(n.runes, r)
		n.start = append(n.start, int32(s0))
		n.end = append(n.end, int32(s1))
	}
}

// onBoundary reports whether byte offset p of s is a rune boundary as a
// range loop over s sees it: not strictly inside a valid multi-byte
// sequence. Invalid bytes are runes of their own.
func onBoundary(s string, p int) bool {
	if p <= 0 || p >= len(s) {
		return p == 0 || p == len(s)
	}
	if utf8.RuneStart(s[p]) {
		return true
	}
	for q := p - 1; q >= 0 && q >= p-(utf8.UTFMax-1); q-- {
		if utf8.RuneStart(s[q]) {
			_, w := utf8.DecodeRuneInString(s[q:])
			return q+w <= p
		}
	}
	return true
}

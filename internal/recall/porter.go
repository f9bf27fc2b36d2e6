package recall

import (
	"strings"
	"sync"
)

// stem reduces an English word to its Porter stem, the algorithm SQLite's
// porter tokenizer applies to every indexed word (M.F. Porter, "An algorithm
// for suffix stripping", 1980). Recall matches a prompt's words against stored
// text in Go with the same stems the full-text index used, so "jobs" finds
// "job" and "detection" finds "detected". The input must be lower-case ASCII;
// anything else (Korean, digits mixed with symbols) is returned unchanged, as
// the tokenizer leaves it.
func stem(w string) string {
	if !stemmed(len(w)) {
		return w
	}
	stemMu.Lock()
	s, ok := stems[w]
	stemMu.Unlock()
	if ok {
		return s
	}
	// A copy: w may be a slice of a long text, which the cache would
	// otherwise keep alive (and porter's stem is mostly a slice of it).
	return keepStem(strings.Clone(w))
}

// stemLower is stem of the ASCII word b lower-cased (b is lower-cased in
// place). A word seen before, short ones included, costs no allocation:
// the map lookup does not copy b.
func stemLower(b []byte) string {
	lowerASCII(b)
	stemMu.Lock()
	s, ok := stems[string(b)]
	stemMu.Unlock()
	if ok {
		return s
	}
	return keepStem(string(b))
}

// keepStem returns the stem of w, the caller's own copy, and keeps it while
// the cache has room: a word porter does not stem too (itself), which
// stemLower looks up to lower-case it without allocating.
func keepStem(w string) string {
	s := w
	if stemmed(len(w)) {
		s = porter(w)
	}
	stemMu.Lock()
	if len(stems) < maxStems {
		stems[w] = s
	}
	stemMu.Unlock()
	return s
}

// stemmed reports whether SQLite's porter tokenizer stems a token of n
// bytes: 3 to 64.
func stemmed(n int) bool { return n >= 3 && n <= 64 }

// stems caches stem: a prompt's candidates repeat most of their words, and
// stemming them is a good share of the prompt path. A plain map under a
// mutex, which the MCP server's and the dashboard's concurrent requests
// share: the sync.Map it replaced, looked up through interface keys, was
// nearly all of stem's time in a prompt's profile. Bounded, so a
// long-running process (the MCP server) does not grow without end.
var (
	stemMu sync.Mutex
	stems  = map[string]string{}
)

const maxStems = 1 << 16

func porter(w string) string {
	for i := 0; i < len(w); i++ {
		// Digits count as consonants, as in SQLite's porter ("k8s" → "k8").
		if (w[i] < 'a' || w[i] > 'z') && (w[i] < '0' || w[i] > '9') {
			return w
		}
	}
	b := []byte(w)
	b = step1a(b)
	b = step1b(b)
	b = step1c(b)
	b = step2(b)
	b = step3(b)
	b = step4(b)
	b = step5(b)
	return string(b)
}

// cons reports whether b[i] is a consonant: not a vowel, and y only after a vowel.
func cons(b []byte, i int) bool {
	switch b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !cons(b, i-1)
	}
	return true
}

// measure is m in [C](VC)^m[V] for b.
func measure(b []byte) int {
	n, i := 0, 0
	for i < len(b) && cons(b, i) {
		i++
	}
	for i < len(b) {
		for i < len(b) && !cons(b, i) {
			i++
		}
		if i >= len(b) {
			break
		}
		n++
		for i < len(b) && cons(b, i) {
			i++
		}
	}
	return n
}

func hasVowel(b []byte) bool {
	for i := range b {
		if !cons(b, i) {
			return true
		}
	}
	return false
}

// doubleCons: b ends with a double consonant.
func doubleCons(b []byte) bool {
	n := len(b)
	return n >= 2 && b[n-1] == b[n-2] && cons(b, n-1)
}

// cvc: b ends consonant-vowel-consonant, the last not w, x or y.
func cvc(b []byte) bool {
	n := len(b)
	if n < 3 || !cons(b, n-1) || cons(b, n-2) || !cons(b, n-3) {
		return false
	}
	c := b[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

// replace swaps suffix s for r when the stem before s has a measure above m.
func replace(b []byte, s, r string, m int) ([]byte, bool) {
	if !hasSuffix(b, s) {
		return b, false
	}
	base := b[:len(b)-len(s)]
	if measure(base) > m {
		return append(base, r...), true
	}
	return b, true
}

func step1a(b []byte) []byte {
	switch {
	case hasSuffix(b, "sses"), hasSuffix(b, "ies"):
		return b[:len(b)-2]
	case hasSuffix(b, "ss"):
		return b
	case hasSuffix(b, "s"):
		return b[:len(b)-1]
	}
	return b
}

func step1b(b []byte) []byte {
	if hasSuffix(b, "eed") {
		if measure(b[:len(b)-3]) > 0 {
			return b[:len(b)-1]
		}
		return b
	}
	var base []byte
	switch {
	case hasSuffix(b, "ed") && hasVowel(b[:len(b)-2]):
		base = b[:len(b)-2]
	case hasSuffix(b, "ing") && hasVowel(b[:len(b)-3]):
		base = b[:len(b)-3]
	default:
		return b
	}
	switch {
	case hasSuffix(base, "at"), hasSuffix(base, "bl"), hasSuffix(base, "iz"):
		return append(base, 'e')
	case doubleCons(base):
		if c := base[len(base)-1]; c != 'l' && c != 's' && c != 'z' {
			return base[:len(base)-1]
		}
		return base
	case measure(base) == 1 && cvc(base):
		return append(base, 'e')
	}
	return base
}

func step1c(b []byte) []byte {
	if hasSuffix(b, "y") && hasVowel(b[:len(b)-1]) {
		b[len(b)-1] = 'i'
	}
	return b
}

var step2Rules = [][2]string{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
	{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
	{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
	{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

func step2(b []byte) []byte {
	for _, r := range step2Rules {
		if out, hit := replace(b, r[0], r[1], 0); hit {
			return out
		}
	}
	return b
}

var step3Rules = [][2]string{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

func step3(b []byte) []byte {
	for _, r := range step3Rules {
		if out, hit := replace(b, r[0], r[1], 0); hit {
			return out
		}
	}
	return b
}

var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
	"ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
}

func step4(b []byte) []byte {
	for _, s := range step4Suffixes {
		if !hasSuffix(b, s) {
			continue
		}
		base := b[:len(b)-len(s)]
		if s == "ion" && (len(base) == 0 || (base[len(base)-1] != 's' && base[len(base)-1] != 't')) {
			return b
		}
		if measure(base) > 1 {
			return base
		}
		return b
	}
	return b
}

func step5(b []byte) []byte {
	if hasSuffix(b, "e") {
		base := b[:len(b)-1]
		if m := measure(base); m > 1 || (m == 1 && !cvc(base)) {
			b = base
		}
	}
	if hasSuffix(b, "ll") && measure(b) > 1 {
		b = b[:len(b)-1]
	}
	return b
}

// lowerASCII lowers b's ASCII capitals in place, byte for byte.
func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

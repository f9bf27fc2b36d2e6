package korean

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Korean writes the English words of computing in Hangul by their sound
// ("버전" version, "템플릿" template, "페이지네이션" pagination, "엔드포인트"
// endpoint), by the rules of its loanword orthography: a consonant English
// closes a syllable with takes the vowel ㅡ ("스", "트"), r after a vowel is
// not written ("서버" server), b and v are both ㅂ, p and f both ㅍ, l and r
// both ㄹ. A prompt asking in Korean names things by these words, a session
// held in English by the English ones. Key and EnglishKeys bring both to
// one consonant skeleton, under which a table holds the English words
// (glosses/kor.txt); Distance tells the likeliest of those alike.

// Consonant classes of the skeleton: labials (b p f v), dentals (t d),
// velars (k g, hard c), sibilants (s z j ch sh, soft c and g), l and r,
// m, n and h. A word starting with a vowel starts with 'V'.
var (
	// initialClass is the class of each initial consonant, ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ
	// ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ; ㅇ writes no consonant.
	initialClass = [19]byte{'K', 'K', 'N', 'T', 'T', 'L', 'M', 'B', 'B', 'S', 'S', 0, 'S', 'S', 'S', 'K', 'T', 'B', 'H'}
	// finalClass is the class of each final consonant (none first): a
	// final ㅅ is an English t ("커밋" commit, "로봇" robot), ㅇ the ng of
	// "링크" link.
	finalClass = [28]byte{0, 'K', 'K', 'K', 'N', 'N', 'N', 'T', 'L', 'L', 'L', 'L', 'L', 'L', 'L', 'L', 'M', 'B', 'B', 'T', 'T', 'N', 'T', 'T', 'K', 'T', 'B', 0}
)

// Key is the consonant skeleton of Hangul word w ("버전" BSN, "템플릿"
// TMBLT), a class written once where two follow each other; "" when w
// holds anything but Hangul syllables.
func Key(w string) string {
	var b []byte
	for i, r := range w {
		on, _, co, ok := syllable(r)
		if !ok {
			return ""
		}
		if c := initialClass[on]; c != 0 {
			b = appendClass(b, c)
		} else if i == 0 {
			b = append(b, 'V')
		}
		if c := finalClass[co]; c != 0 {
			b = appendClass(b, c)
		}
	}
	return string(b)
}

func appendClass(b []byte, c byte) []byte {
	if len(b) > 0 && b[len(b)-1] == c {
		return b
	}
	return append(b, c)
}

// maxVariants bounds the skeletons of one English word: each letter read
// two ways (th, ch, a soft or hard g) doubles them.
const maxVariants = 4

// EnglishKeys are the consonant skeletons lower-case English word w may be
// written in Hangul by: "version" BSN, "template" TMBLT; "thread" both SLT
// and TLT ("스레드"), "get" both ST and KT. nil for a word of anything but
// the letters a to z.
func EnglishKeys(w string) []string {
	if w == "" {
		return nil
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return nil
		}
	}
	keys := [][]byte{nil}
	add := func(opts ...string) {
		var next [][]byte
		for _, k := range keys {
			for _, o := range opts {
				if len(next) == maxVariants {
					break
				}
				n := append([]byte(nil), k...)
				for j := 0; j < len(o); j++ {
					n = appendClass(n, o[j])
				}
				next = append(next, n)
			}
		}
		keys = next
	}
	vowel := func(c byte) bool { return strings.IndexByte("aeiouy", c) >= 0 }
	if strings.IndexByte("aeiouwy", w[0]) >= 0 {
		add("V")
	}
	for i := 0; i < len(w); {
		c, next := w[i], byte(0)
		if i+1 < len(w) {
			next = w[i+1]
		}
		rest := w[i:]
		switch {
		case strings.HasPrefix(rest, "tion"), strings.HasPrefix(rest, "sion"):
			add("SN")
			i += 4
		case strings.HasPrefix(rest, "sch"):
			add("SK")
			i += 3
		case strings.HasPrefix(rest, "tch"):
			add("S")
			i += 3
		case strings.HasPrefix(rest, "sh"):
			add("S")
			i += 2
		case strings.HasPrefix(rest, "ch"):
			add("S", "K")
			i += 2
		case strings.HasPrefix(rest, "th"):
			add("S", "T")
			i += 2
		case strings.HasPrefix(rest, "ph"):
			add("B")
			i += 2
		case strings.HasPrefix(rest, "ck"), strings.HasPrefix(rest, "qu"):
			add("K")
			i += 2
		case strings.HasPrefix(rest, "gh"):
			if i == 0 {
				add("K")
			}
			i += 2
		case strings.HasPrefix(rest, "wh"):
			i += 2
		case strings.HasPrefix(rest, "ng") && (i+2 == len(w) || !vowel(w[i+2])):
			add("N") // "링크" link, "스트링" string
			i += 2
		case vowel(c) || c == 'w':
			i++
		case c == 'r':
			if next != 0 && vowel(next) {
				add("L")
			} // after a vowel r is not written ("서버" server)
			i++
		case c == 'c':
			if next == 'e' || next == 'i' || next == 'y' {
				add("S")
			} else {
				add("K")
			}
			i++
		case c == 'g':
			if next == 'e' || next == 'i' || next == 'y' {
				add("S", "K")
			} else {
				add("K")
			}
			i++
		case c == 'x':
			add("KS")
			i++
		default:
			add(string(letterClass[c-'a']))
			i++
		}
	}
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		if s := string(k); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// letterClass is the class of each consonant letter a to z the cases of
// EnglishKeys leave (vowels, c, g, r, w, x and y never reach it).
var letterClass = [26]byte{
	'a' - 'a': 0, 'b' - 'a': 'B', 'd' - 'a': 'T', 'f' - 'a': 'B', 'h' - 'a': 'H', 'j' - 'a': 'S', 'k' - 'a': 'K',
	'l' - 'a': 'L', 'm' - 'a': 'M', 'n' - 'a': 'N', 'p' - 'a': 'B', 'q' - 'a': 'K', 's' - 'a': 'S', 't' - 'a': 'T',
	'v' - 'a': 'B', 'z' - 'a': 'S',
}

// LoanStem is Hangul word w without what Korean writes onto a noun beyond
// its particles, after two syllables or more: the plural 들 ("컬럼들") or
// a syllable of 하다 making it a verb (하, 해, 했, 한, 할, 함, 합: "커밋해",
// "배포했"). A loanword ending in such a syllable ("그래들", gradle) loses it.
func LoanStem(w string) string {
	if utf8.RuneCountInString(w) < 3 {
		return w
	}
	last, n := utf8.DecodeLastRuneInString(w)
	if last == '들' || strings.ContainsRune("하해했한할함합", last) {
		return w[:len(w)-n]
	}
	return w
}

// Loanlike reports whether Hangul word w may be a loanword: two syllables
// or more, written as the loanword orthography writes (no tense consonant
// ㄲ ㄸ ㅃ ㅆ ㅉ, no final consonant but ㄱ ㄴ ㄹ ㅁ ㅂ ㅅ ㅇ: native words
// write them, "했어", "어떤", "맞아"), one syllable of which no Chinese
// character is read as. Most nouns of Korean are Sino-Korean ("설치"
// install, "배포" deploy, "오류" error), made of the readings of Chinese
// characters (hanjaReadings), and a skeleton of theirs matches English
// words at random ("설치" cells); a loanword writes syllables no character
// is read as ("버", "템", "플", "릿", "스", "트"). One written only in
// syllables characters are read as ("시나리오", "모니터", "파라미터") is
// missed; a native word that is written as loanwords are ("나머지") passes.
func Loanlike(w string) bool {
	n, foreign := 0, false
	for _, r := range w {
		on, _, co, ok := syllable(r)
		if !ok || tenseInitial[on] || !loanFinal[co] {
			return false
		}
		n++
		foreign = foreign || !strings.ContainsRune(hanjaReadings, r)
	}
	return n >= 2 && foreign
}

var (
	// tenseInitial marks ㄲ ㄸ ㅃ ㅆ ㅉ among the initial consonants.
	tenseInitial = [19]bool{1: true, 4: true, 8: true, 10: true, 13: true}
	// loanFinal marks the finals the loanword orthography writes: none,
	// ㄱ ㄴ ㄹ ㅁ ㅂ ㅅ ㅇ.
	loanFinal = [28]bool{0: true, 1: true, 4: true, 8: true, 16: true, 17: true, 19: true, 21: true}
)

// Distance is how unlike Hangul word h sounds to lower-case English word
// e, per consonant of h: 0 for "테스트" and "test", 0.1 for "버전" and
// "version". Both are written in one alphabet (roman, latin) and compared
// by an edit distance in which a vowel costs less than a consonant, and a
// consonant voiced for one unvoiced (b, p) less than another.
func Distance(h, e string) float64 {
	a := roman(h)
	n := 0
	for i := 0; i < len(a); i++ {
		if !isVowel(a[i]) {
			n++
		}
	}
	d := editCost(a, latin(e))
	if strings.Contains(e, "ch") {
		// English writes two sounds ch: "브랜치" branch, "캐싱" caching.
		d = min(d, editCost(a, latin(strings.ReplaceAll(e, "ch", "sh"))))
	}
	return d / float64(max(n, 1))
}

// Sounds of the common alphabet roman and latin write: the consonants b d
// g h j k l m n p s t and the vowels a e i o u.
var (
	initialRoman = [19]string{"g", "k", "n", "d", "t", "l", "m", "b", "p", "s", "s", "", "j", "j", "j", "k", "t", "p", "h"}
	vowelRoman   = [21]string{"a", "e", "ia", "ie", "e", "e", "ie", "ie", "o", "a", "e", "e", "io", "u", "o", "e", "i", "iu", "", "i", "i"}
	finalRoman   = [28]string{"", "k", "k", "k", "n", "n", "n", "t", "l", "l", "l", "l", "l", "l", "l", "l", "m", "b", "b", "t", "t", "n", "t", "t", "k", "t", "p", ""}
)

// roman is Hangul word h in the common alphabet: its jamo's sounds, ㅡ
// (the vowel a loanword adds after a closing consonant) none.
func roman(h string) string {
	var b []byte
	for _, r := range h {
		on, nu, co, ok := syllable(r)
		if !ok {
			continue
		}
		b = append(b, initialRoman[on]...)
		b = append(b, vowelRoman[nu]...)
		b = append(b, finalRoman[co]...)
	}
	return undouble(b)
}

// latin is English word e in the common alphabet, as Korean hears it:
// "-tion" and "-ssion" are "sion" ("세션" session), "-sion" after a vowel or
// r is "jion" ("버전" version, "비전" vision), f is p, v is b, r after a
// vowel is not written and otherwise l, a final e is silent, a run of
// vowels is its first.
func latin(e string) string {
	if i := strings.Index(e, "sion"); i > 0 && (isVowel(e[i-1]) || e[i-1] == 'r') {
		e = e[:i] + "jion" + e[i+4:]
	}
	e = latinDigraphs.Replace(e)
	var b []byte
	for i := 0; i < len(e); i++ {
		c, next := e[i], byte(0)
		if i+1 < len(e) {
			next = e[i+1]
		}
		soft := next == 'e' || next == 'i' || next == 'y'
		switch {
		case c == 'c' && soft:
			c = 's'
		case c == 'c':
			c = 'k'
		case c == 'g' && soft:
			c = 'j'
		case c == 'r' && (next == 0 || !isVowel(next) && next != 'y'):
			continue
		case c == 'n' && next == 'g' && (i+2 == len(e) || !isVowel(e[i+2])):
			b = append(b, 'n')
			i++
			continue
		case c == 'e' && i == len(e)-1 && i > 0:
			continue
		}
		if r := latinLetter[c]; r != 0 {
			c = r
		}
		if isVowel(c) && len(b) > 0 && isVowel(b[len(b)-1]) {
			continue
		}
		b = append(b, c)
	}
	return undouble(b)
}

// latinDigraphs are the English spellings of one sound, read first.
var latinDigraphs = strings.NewReplacer("tion", "sion", "cion", "sion", "sch", "sk", "tch", "j", "ch", "j", "ph", "p", "ck", "k", "qu", "ku", "x", "ks", "sh", "s", "th", "s", "wh", "w")

// latinLetter is the common alphabet's letter of an English one that
// differs.
var latinLetter = [256]byte{'f': 'p', 'v': 'b', 'z': 'j', 'w': 'u', 'y': 'i', 'r': 'l', 'q': 'k'}

func isVowel(c byte) bool { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' }

// undouble writes each run of one letter once.
func undouble(b []byte) string {
	out := b[:0]
	for _, c := range b {
		if len(out) == 0 || out[len(out)-1] != c {
			out = append(out, c)
		}
	}
	return string(out)
}

// editCost is the edit distance of a and b in which a vowel costs 0.4 to
// add or drop and 0.3 to change, a consonant 1 to add or drop and to
// change, 0.3 for its voiced or unvoiced twin (b p, d t, g k, j s), and a
// vowel changed for a consonant 1.2.
func editCost(a, b string) float64 {
	indel := func(c byte) float64 {
		if isVowel(c) {
			return 0.4
		}
		return 1
	}
	prev := make([]float64, len(b)+1)
	cur := make([]float64, len(b)+1)
	for j := 1; j <= len(b); j++ {
		prev[j] = prev[j-1] + indel(b[j-1])
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = prev[0] + indel(a[i-1])
		for j := 1; j <= len(b); j++ {
			cur[j] = min(prev[j]+indel(a[i-1]), cur[j-1]+indel(b[j-1]), prev[j-1]+substCost(a[i-1], b[j-1]))
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// twin is each consonant's voiced or unvoiced twin.
var twin = [256]byte{'b': 'p', 'p': 'b', 'd': 't', 't': 'd', 'g': 'k', 'k': 'g', 'j': 's', 's': 'j'}

func substCost(x, y byte) float64 {
	switch {
	case x == y:
		return 0
	case isVowel(x) && isVowel(y):
		return 0.3
	case isVowel(x) || isVowel(y):
		return 1.2
	case twin[x] == y:
		return 0.3
	}
	return 1
}

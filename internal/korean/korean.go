// Package korean gives what the packages that read Korean share: the
// particles written onto its words, and telling a Korean word.
package korean

import (
	"strings"
	"unicode"
)

// Hangul reports whether s holds a Hangul letter.
func Hangul(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Hangul, r) })
}

// Particles are the particles Korean writes onto the end of a word
// ("토큰을", "키는", "설정으로는"), longest first, so that a caller stripping
// the first one that ends a word strips the whole particle. Each caller
// decides how much of a word may go (claim, extract, recall, question).
var Particles = []string{
	"대신에", "에서는", "으로는",
	"으로", "에서", "에게", "까지", "부터", "처럼", "보다", "하고", "이랑", "이나",
	"은", "는", "이", "가", "을", "를", "에", "의", "로", "와", "과", "도", "만", "나",
}

// hangulBase is the first Hangul syllable, 가; a syllable is
// hangulBase + (initial*21 + vowel)*28 + final.
const hangulBase = 0xAC00

// syllable is Hangul syllable r's initial consonant, vowel and final
// consonant, as indices of Unicode's order of the jamo (no final is 0);
// ok is false for another rune.
func syllable(r rune) (initial, vowel, final int, ok bool) {
	i := int(r - hangulBase)
	if i < 0 || i >= 19*21*28 {
		return 0, 0, 0, false
	}
	return i / (21 * 28), i % (21 * 28) / 28, i % 28, true
}

// finalSsangSiot is the index of the final consonant ㅆ.
const finalSsangSiot = 20

// ClosedBySsangSiot reports a Hangul syllable whose final consonant is ㅆ
// ("했", "었", "됐", and "있", "겠"): the past tense puts it on the
// syllable carrying the tense.
func ClosedBySsangSiot(r rune) bool {
	_, _, f, ok := syllable(r)
	return ok && f == finalSsangSiot
}

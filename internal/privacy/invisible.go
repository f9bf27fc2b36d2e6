package privacy

import (
	"strings"
	"unicode/utf8"
)

// A secret can be hidden from the rules by an invisible character inside
// it (ghp_<U+200B>…): a reader still sees the token whole. dropInvisible
// removes zero-width characters, word joiners, soft hyphens and byte order
// marks that stand between two ASCII letters, digits, '_' or '-'. Elsewhere
// (joining emoji, between words of other scripts) they stay.

// invisibleLead holds the first bytes of the UTF-8 forms of the invisible
// characters dropInvisible removes.
const invisibleLead = "\u00ad\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff"

// isInvisible reports whether r is one dropInvisible removes.
func isInvisible(r rune) bool {
	return r == 0xAD || r >= 0x200B && r <= 0x200F || r >= 0x2060 && r <= 0x2064 || r == 0xFEFF
}

// dropInvisible removes the invisible characters that stand inside a word
// of ASCII token bytes.
func dropInvisible(s string) string {
	if !strings.ContainsAny(s, invisibleLead) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isInvisible(r) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		j := i + n // past the run of invisible characters
		for j < len(s) {
			r2, n2 := utf8.DecodeRuneInString(s[j:])
			if !isInvisible(r2) {
				break
			}
			j += n2
		}
		if i > 0 && isToken(s[i-1]) && j < len(s) && isToken(s[j]) {
			i = j
			continue
		}
		b.WriteString(s[i:j])
		i = j
	}
	return b.String()
}

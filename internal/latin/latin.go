// Package latin folds the diacritics of Latin-script words, as the
// store's full-text tokenizer does (remove_diacritics 2).
package latin

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Fold strips the diacritics of a word whose letters beyond ASCII are
// Latin ("café" → "cafe", "auprès" → "aupres", "déjà-vu" → "deja-vu"); a
// word holding any other script beyond ASCII is returned as it is
// (decomposing Korean would split its syllables).
func Fold(w string) string {
	ascii := true
	for _, r := range w {
		if r < utf8.RuneSelf {
			continue
		}
		ascii = false
		if !unicode.Is(unicode.Latin, r) && !unicode.IsDigit(r) {
			return w
		}
	}
	if ascii {
		return w
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(w) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

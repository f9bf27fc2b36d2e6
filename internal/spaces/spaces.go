// Package spaces folds runs of white space into one space.
package spaces

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fold is strings.Join(strings.Fields(s), " "): s without leading and
// trailing white space, each run of white space inside it one space. Most
// texts a hook folds (a message's sentences, an event's text) are folded
// already, and Fold returns those without allocating.
func Fold(s string) string {
	if folded(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// folded reports whether Fold would return s itself: no white space at
// either end, and none inside but single ASCII spaces. White space is
// unicode.IsSpace's, as for strings.Fields.
func folded(s string) bool {
	space := true // as if s followed white space: a leading space is not folded
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case ' ':
				if space {
					return false
				}
				space = true
			case '\t', '\n', '\v', '\f', '\r':
				return false
			default:
				space = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return false
		}
		space = false
		i += size
	}
	return !space || s == ""
}

// Package plural handles English plural endings: counts for messages and pages, and the singulars a word may stand for.
package plural

import (
	"strconv"
	"strings"
)

// Of is n and word, in the plural unless n is 1: "1 entry", "3 entries",
// "2 quotes". A word ending in "y" takes "ies".
func Of(n int, word string) string {
	s := strconv.Itoa(n) + " "
	switch {
	case n == 1:
		return s + word
	case strings.HasSuffix(word, "y"):
		return s + strings.TrimSuffix(word, "y") + "ies"
	}
	return s + word + "s"
}

// minStem is the shortest singular Singulars returns: below it a dropped
// "s" is more often part of the word ("bus", "gas", "its") than a plural.
const minStem = 3

// Singulars returns the words a lower-case word is a regular English plural
// of, when it may be one: "proxies" gives "proxy"; "buses" gives "buse" and
// "bus"; "flags" gives "flag". A word that does not end in "s", ends in
// "ss", or would leave fewer than three letters gives none. It guesses from
// the spelling alone, so it also returns non-words ("buse"); callers compare
// its results with words they know.
func Singulars(word string) []string {
	if !strings.HasSuffix(word, "s") || strings.HasSuffix(word, "ss") || len(word) <= minStem {
		return nil
	}
	out := []string{word[:len(word)-1]}
	if stem, ok := strings.CutSuffix(word, "es"); ok && len(stem) >= minStem {
		out = append(out, stem)
	}
	if stem, ok := strings.CutSuffix(word, "ies"); ok && len(stem) >= minStem-1 {
		out = append(out, stem+"y")
	}
	return out
}

// Same reports whether lower-case words a and b are one word, either in the
// singular or in a regular plural: "proxy" and "proxies", "bus" and
// "buses", "flag" and "flags".
func Same(a, b string) bool {
	if a == b {
		return true
	}
	for _, s := range Singulars(b) {
		if s == a {
			return true
		}
	}
	for _, s := range Singulars(a) {
		if s == b {
			return true
		}
	}
	return false
}

// Package plural words counts in English for messages and pages.
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

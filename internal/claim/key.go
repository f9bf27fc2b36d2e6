package claim

import (
	"sort"
	"strings"
	"unicode"
)

// claimStopwords do not distinguish one claim from another.
var claimStopwords = map[string]bool{"the": true, "a": true, "an": true, "to": true, "of": true, "in": true, "for": true,
	"and": true, "or": true, "is": true, "are": true, "we": true, "use": true, "with": true, "on": true, "be": true, "our": true}

// Key is the normalised identity of a claim: its subject and the set of
// content words of its title, so that the same claim phrased a little
// differently in another session is recognised as the same.
func Key(subject, title string) string {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '/' && r != '_' && r != '-'
	}) {
		w = strings.Trim(w, ".-/")
		if w != "" && !claimStopwords[w] {
			words[w] = true
		}
	}
	list := make([]string, 0, len(words))
	for w := range words {
		list = append(list, w)
	}
	sort.Strings(list)
	return strings.Join(strings.Fields(strings.ToLower(subject)), " ") + "|" + strings.Join(list, " ")
}

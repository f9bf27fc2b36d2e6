package extract

import "strings"

// The forms in which an entry states its evidence.
const (
	Stated    = "stated"    // the body is one of its quotes, word for word (markdown aside)
	Distilled = "distilled" // the body restates or combines its quotes in other words
)

// Form tells whether body states its quotes verbatim or distils them. Both
// can be verified, since verification checks the quotes, not the body; the
// form says how far the body itself can be taken as what was said.
// Markdown emphasis, code ticks, case, spacing and end punctuation are
// ignored.
func Form(body string, quotes []string) string {
	b := formText(body)
	if b == "" {
		return Distilled
	}
	for _, q := range quotes {
		if strings.Contains(formText(q), b) {
			return Stated
		}
	}
	return Distilled
}

func formText(s string) string {
	s = strings.ToLower(clean(s))
	s = strings.NewReplacer("’", "'", "‘", "'", "“", "\"", "”", "\"").Replace(s)
	return strings.TrimRight(s, " .!:;,")
}

package glosses

import (
	"slices"
	"testing"
)

func TestEnglish(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang, word string
		want       string // one gloss it must give; "" for none
	}{
		{"spa", "rama", "branch"},
		{"spa", "mostramos", "show"},    // a form of "mostrar"
		{"spa", "resultados", "result"}, // a form of "resultado"
		{"spa", "demo", ""},             // no form of "democracia"
		{"spa", "zzzz", ""},
		{"eng", "rama", ""}, // no dictionary
		{"por", "ramo", "branch"},
	} {
		got := English(c.lang, c.word)
		if c.want == "" && len(got) > 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("English(%q, %q) = %q, want it to hold %q", c.lang, c.word, got, c.want)
		}
	}
}

// TestTablesSorted: the lookup searches each table in place, so its lines
// must be sorted by byte, one headword each.
func TestTablesSorted(t *testing.T) {
	t.Parallel()
	for lang, rows := range tables {
		prev := ""
		for _, line := range splitLines(rows) {
			head := line
			for i := range line {
				if line[i] == ' ' {
					head = line[:i]
					break
				}
			}
			if head <= prev {
				t.Fatalf("%s: %q after %q", lang, head, prev)
			}
			prev = head
		}
	}
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

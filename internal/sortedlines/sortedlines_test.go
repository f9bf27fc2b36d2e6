package sortedlines

import (
	"strings"
	"testing"
)

func TestSearch(t *testing.T) {
	t.Parallel()
	rows := "alpha 1\nbeta 2 two\ndelta 4\nepsilon"
	for _, c := range []struct {
		k, want string // want: the line found, "" past the end
	}{
		{"alpha", "alpha 1"},
		{"a", "alpha 1"},
		{"beta", "beta 2 two"},
		{"c", "delta 4"},
		{"epsilon", "epsilon"},
		{"zeta", ""},
	} {
		i := Search(rows, c.k)
		got := ""
		if i < len(rows) {
			got, _ = Line(rows, i)
		}
		if got != c.want {
			t.Errorf("Search(%q) found %q, want %q", c.k, got, c.want)
		}
	}
	if i := Search("", "x"); i != 0 {
		t.Errorf("Search of no rows = %d, want 0", i)
	}
}

// FuzzSearch: on any sorted table and key, Search stops at a line start,
// every line before it has a smaller key and the one at it does not.
func FuzzSearch(f *testing.F) {
	f.Add("alpha 1\nbeta 2\ndelta 4", "c")
	f.Add("", "")
	f.Add("\n\n", "a")
	f.Fuzz(func(t *testing.T, rows, k string) {
		lines := strings.Split(rows, "\n")
		for i := 1; i < len(lines); i++ {
			a, _, _ := strings.Cut(lines[i-1], " ")
			b, _, _ := strings.Cut(lines[i], " ")
			if a > b {
				return // not sorted: no promise
			}
		}
		i := Search(rows, k)
		if i < 0 || i > len(rows) || i > 0 && i < len(rows) && rows[i-1] != '\n' {
			t.Fatalf("Search(%q, %q) = %d, no line start", rows, k, i)
		}
		for j := 0; j < i; {
			line, next := Line(rows, j)
			if key, _, _ := strings.Cut(line, " "); key >= k {
				t.Fatalf("Search(%q, %q) = %d passed line %q", rows, k, i, line)
			}
			j = next
		}
		if i < len(rows) {
			line, _ := Line(rows, i)
			if key, _, _ := strings.Cut(line, " "); key < k {
				t.Fatalf("Search(%q, %q) = %d stops at line %q", rows, k, i, line)
			}
		}
	})
}

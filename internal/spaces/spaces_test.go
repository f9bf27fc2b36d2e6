package spaces

import (
	"strings"
	"testing"
)

// TestFoldSame is an equivalence test: Fold against the expression it
// replaces, on texts folded already and not.
func TestFoldSame(t *testing.T) {
	texts := []string{
		"", " ", "  ", "a", " a", "a ", "a b", "a  b", "a\tb", "a\nb", "a\r\nb", "\va\f",
		"one two three", "one two three ", "one two  three", "naïve café", "a\u00a0b", "a\u0085b",
		"a\u2003b", "a\u3000b", "\u00a0", "\xff", "a \xff b", "a\xffb", "\xc2", "x\xc2\xa0y",
		"탭 없는 문장", "탭 없는  문장", "already folded text, with punctuation.",
	}
	for _, s := range texts {
		if got, want := Fold(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("Fold(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzFoldSame(f *testing.F) {
	for _, s := range []string{"", "a b", " a", "a\u00a0b", "\xff b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Fold(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("Fold(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestFoldKeeps checks that a folded text comes back as itself, not a copy.
func TestFoldKeeps(t *testing.T) {
	s := strings.Repeat("word ", 10) + "end"
	if got := Fold(s); got != s || testing.AllocsPerRun(10, func() { Fold(s) }) != 0 {
		t.Errorf("Fold allocated for a folded text")
	}
}

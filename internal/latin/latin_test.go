package latin

import (
	"testing"
	"unicode/utf8"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"café": "cafe", "auprès": "aupres", "déjà": "deja", "ñandú": "nandu", "straße": "straße",
		"plain": "plain", "버전": "버전", "версия": "версия", "café버전": "café버전", "v1.2": "v1.2",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// A fold is valid UTF-8 when its word is, and folding it again changes
// nothing.
func FuzzFold(f *testing.F) {
	for _, s := range []string{"café", "auprès", "e\u0301", "\xff", "버전é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Fold(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Fold(%q) = %q, not valid UTF-8", s, got)
		}
		if again := Fold(got); utf8.ValidString(s) && again != got {
			t.Fatalf("Fold(Fold(%q)) = %q, not %q", s, again, got)
		}
	})
}

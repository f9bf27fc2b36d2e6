package cmdargs

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSplit checks shell-like splitting without expansion.
func TestSplit(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  a  b\tc\n", []string{"a", "b", "c"}},
		{`'it''s' "a \"b\" \\" c\ d`, []string{"its", `a "b" \`, "c d"}},
		{`$(rm -rf /) ~ *`, []string{"$(rm", "-rf", "/)", "~", "*"}},
		{`'open to the end`, []string{"open to the end"}},
		{`"x\y"`, []string{`x\y`}},
		{`''`, []string{""}},
	} {
		if got := Split(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Split(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzSplit checks that Split never panics and that valid UTF-8 words
// without quotes, backslashes or blanks come back as they went in (invalid
// bytes become U+FFFD).
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"a b", `'x`, `"a\"b"`, "\\", "\x00", "한국어 'quoted'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Split(s)
		if utf8.ValidString(s) && !strings.ContainsAny(s, "'\"\\ \t\n\r") && s != "" && !slices.Equal(got, []string{s}) {
			t.Errorf("Split(%q) = %q, want the word itself", s, got)
		}
	})
}

package extract

import (
	"strings"
	"testing"
)

// trimSets are the byte sets with the cutsets they stand for.
var trimSets = []struct {
	set    *byteSet
	cutset string
}{
	{&pathTrim, "`'\"(),;:!?"}, {&addressTrim, "()[]<>,;`'\""}, {&addressEndTrim, ".:!?"},
	{&proseTrim, ".,;:!?()\"'`*"}, {&nameTrim, ".,;:()[]\"'*!?"}, {&conversedTrim, ",;:()\"'"},
	{&contentTrim, ".-/'"}, {&colourTrim, ".,;:()[]\"'*"}, {&errorWordTrim, ":.;"}, {&valueWordTrim, ":,;.!?"},
}

// checkTrims compares each set's trims with strings.Trim and its kin on s.
func checkTrims(t *testing.T, s string) {
	t.Helper()
	for _, ts := range trimSets {
		if got, want := ts.set.trim(s), strings.Trim(s, ts.cutset); got != want {
			t.Fatalf("trim(%q) by %q = %q, want %q", s, ts.cutset, got, want)
		}
		if got, want := ts.set.trimLeft(s), strings.TrimLeft(s, ts.cutset); got != want {
			t.Fatalf("trimLeft(%q) by %q = %q, want %q", s, ts.cutset, got, want)
		}
		if got, want := ts.set.trimRight(s), strings.TrimRight(s, ts.cutset); got != want {
			t.Fatalf("trimRight(%q) by %q = %q, want %q", s, ts.cutset, got, want)
		}
	}
}

// TestTrimSame is an equivalence test: each byte set holds its cutset's
// bytes and no other, and trims as strings.Trim does with the cutset, on
// the test sessions' words and invented ones.
func TestTrimSame(t *testing.T) {
	for _, ts := range trimSets {
		for c := 0; c < 256; c++ {
			if got, want := ts.set[c], c < 0x80 && strings.IndexByte(ts.cutset, byte(c)) >= 0; got != want {
				t.Errorf("set of %q holds %q: %v, want %v", ts.cutset, rune(c), got, want)
			}
		}
	}
	for _, sess := range testSessions(t) {
		for _, m := range sess.Messages {
			for w := range strings.FieldsSeq(m.Text) {
				checkTrims(t, w)
			}
		}
	}
	for _, w := range []string{"", "(`src/a.ts`),", "\"x\"", "...", "’quoted’", "\xff.\xff", "a-/.'", "[1]:", "**bold**!?"} {
		checkTrims(t, w)
	}
}

// FuzzTrimSame is TestTrimSame on arbitrary words.
func FuzzTrimSame(f *testing.F) {
	for _, seed := range []string{"", "(x)", "`a`;", "\xff)"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) { checkTrims(t, s) })
}

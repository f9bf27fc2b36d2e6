package claim

import (
	"strings"
	"testing"
)

// TestNotPathsHaveSlash: isPath asks notPaths only of a word with a slash,
// which is right while every word of it has one.
func TestNotPathsHaveSlash(t *testing.T) {
	for w := range notPaths {
		if !strings.Contains(w, "/") {
			t.Errorf("notPaths holds %q, which has no slash: isPath would not look it up", w)
		}
	}
}

// TestCuePairFirst is an equivalence test: cuePairFirst holds the first
// word of each of cuePairs, and no other.
func TestCuePairFirst(t *testing.T) {
	want := map[string]bool{}
	for p := range cuePairs() {
		f, _, _ := strings.Cut(p, "_")
		want[f] = true
	}
	for _, w := range []string{"no", "more", "rather", "stop", "now", "instead", "", "x", "longer", "stopped", "phase"} {
		if got := cuePairFirst().Has(w); got != want[w] {
			t.Errorf("cuePairFirst().Has(%q) = %v, want %v", w, got, want[w])
		}
	}
	for w := range want {
		if !cuePairFirst().Has(w) {
			t.Errorf("cuePairFirst lacks %q", w)
		}
	}
}

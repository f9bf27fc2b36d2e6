package korean

import (
	"testing"
	"unicode/utf8"
)

// TestParticlesLongestFirst: a caller strips the first particle that ends a
// word, so a longer particle must come before any particle it ends with
// ("으로는" before "는").
func TestParticlesLongestFirst(t *testing.T) {
	for i, p := range Particles {
		for _, q := range Particles[i+1:] {
			if utf8.RuneCountInString(q) > utf8.RuneCountInString(p) {
				t.Errorf("%q comes after the shorter %q", q, p)
			}
		}
	}
	seen := map[string]bool{}
	for _, p := range Particles {
		if seen[p] {
			t.Errorf("%q listed twice", p)
		}
		seen[p] = true
	}
}

// TestClosedBySsangSiot: a syllable whose final consonant is ㅆ, the past
// tense's mark, and no other rune.
func TestClosedBySsangSiot(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		r    rune
		want bool
	}{{'했', true}, {'었', true}, {'있', true}, {'겠', true}, {'해', false}, {'갔', true}, {'간', false}, {'a', false}, {'ㅆ', false}, {'\uD7A3', false}} {
		if got := ClosedBySsangSiot(tt.r); got != tt.want {
			t.Errorf("ClosedBySsangSiot(%q)=%v, want %v", tt.r, got, tt.want)
		}
	}
}

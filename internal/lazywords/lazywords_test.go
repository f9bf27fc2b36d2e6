package lazywords

import (
	"reflect"
	"testing"
)

// TestSet: the set holds each word split at any white space, once, and
// the same map on every call (compared by identity: callers never write to
// it). An equivalence test: the code moved here
// from claim and recall unchanged.
func TestSet(t *testing.T) {
	s := Set("alpha beta\n\tgamma  beta")
	want := map[string]bool{"alpha": true, "beta": true, "gamma": true}
	if got := s(); !reflect.DeepEqual(got, want) {
		t.Errorf("Set() = %v, want %v", got, want)
	}
	if reflect.ValueOf(s()).UnsafePointer() != reflect.ValueOf(s()).UnsafePointer() {
		t.Error("a second call built a new map")
	}
}

// TestWordsHas is an equivalence test: Has answers what the set's map
// does, for the set's words, words one byte off them, other lengths and
// the empty word.
func TestWordsHas(t *testing.T) {
	words := "a an the and or but of to 대신 너무 end-of-life can't x y z deprecated supersedes"
	m := Set(words)()
	ws := Lookup(words)()
	var probes []string
	for w := range m {
		probes = append(probes, w, w+"s", w[1:], "x"+w, w[:len(w)-1]+"q", w+w)
	}
	probes = append(probes, "", "q", "zz", "THE", "the ", "endoflife")
	for _, w := range probes {
		if got, want := ws.Has(w), m[w]; got != want {
			t.Errorf("Has(%q) = %v, the map says %v", w, got, want)
		}
	}
	if of := LookupOf("", "one")(); !of.Has("") || !of.Has("one") || of.Has("two") {
		t.Error("LookupOf: the empty word or one is missing, or two is there")
	}
}

// FuzzWordsHas is TestWordsHas on arbitrary words and sets.
func FuzzWordsHas(f *testing.F) {
	f.Add("alpha beta gamma", "beta")
	f.Add("a b", "")
	f.Fuzz(func(t *testing.T, words, w string) {
		m := Set(words)()
		if got, want := Lookup(words)().Has(w), m[w]; got != want {
			t.Errorf("Has(%q) of %q = %v, the map says %v", w, words, got, want)
		}
	})
}

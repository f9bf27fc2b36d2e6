package claim

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// naiveVocab builds the vocabulary as it was built before buildVocab sized
// its maps and shared its role lists: the reference buildVocab must equal.
func naiveVocab() *vocabulary {
	v := &vocabulary{phrases: map[string]*tool{}, byValue: map[string][]string{}}
	add := func(phrase, canon, role string) {
		phrase = strings.TrimSpace(phrase)
		if phrase == "" {
			return
		}
		t := v.phrases[phrase]
		if t == nil {
			t = &tool{value: canon}
			v.phrases[phrase] = t
		}
		if slices.Contains(t.roles, role) {
			return
		}
		t.roles = append(t.roles, role)
		if !slices.Contains(v.byValue[canon], role) {
			v.byValue[canon] = append(v.byValue[canon], role)
		}
		v.maxLen = max(v.maxLen, strings.Count(phrase, " ")+1)
	}
	for _, r := range roleTable {
		for _, item := range strings.Split(r.tools, "|") {
			names := strings.Split(item, ",")
			canon, hidden := strings.CutPrefix(names[0], "=")
			if hidden {
				names = names[1:]
			}
			for _, n := range names {
				add(n, canon, r.role)
			}
		}
	}
	return v
}

// TestBuildVocabSame is an equivalence test: the vocabulary is the one the
// plain construction gives, phrase by phrase, role by role, in order.
func TestBuildVocabSame(t *testing.T) {
	got, want := buildVocab(), naiveVocab()
	if got.maxLen != want.maxLen {
		t.Errorf("maxLen=%d, want %d", got.maxLen, want.maxLen)
	}
	if !reflect.DeepEqual(got.byValue, want.byValue) {
		t.Errorf("byValue differs")
	}
	if len(got.phrases) != len(want.phrases) {
		t.Fatalf("%d phrases, want %d", len(got.phrases), len(want.phrases))
	}
	for p, w := range want.phrases {
		if g := got.phrases[p]; g == nil || !reflect.DeepEqual(*g, *w) {
			t.Errorf("phrases[%q]=%+v, want %+v", p, g, *w)
		}
	}
}

func BenchmarkBuildVocab(b *testing.B) {
	b.Run("naive", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			naiveVocab()
		}
	})
	b.Run("sized", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buildVocab()
		}
	})
}

// TestFirstWordsSame is an equivalence test: firstWords holds the first word
// of every phrase of more than one word, as split the plain way.
func TestFirstWordsSame(t *testing.T) {
	want := map[string]bool{}
	for _, r := range roleTable {
		for _, item := range strings.Split(r.tools, "|") {
			for _, n := range strings.Split(item, ",") {
				if f, _, ok := strings.Cut(strings.TrimPrefix(n, "="), " "); ok {
					want[f] = true
				}
			}
		}
	}
	if got := firstWords(); !reflect.DeepEqual(got, want) {
		t.Errorf("firstWords()=%v, want %v", got, want)
	}
}

package task

import (
	"strings"
	"testing"
)

// settledOld is settled before holdsCompletion, kept to compare with.
func settledOld(sentence string) (string, bool) {
	s := strings.ToLower(sentence)
	if strings.HasSuffix(strings.TrimSpace(s), "?") || strings.Contains(s, "n't") {
		return s, false
	}
	complete := false
	for _, f := range fields(s) {
		if negation[f] {
			return s, false
		}
		complete = complete || completion[stem(f)]
	}
	return s, complete
}

var settledCases = []string{"", "Done.", "done", "DONE", "It's done now", "the login page is finished", "not done yet",
	"Fixed the flaky test", "fixes", "FIXING it", "the PR got merged", "merge it", "shipped!", "we shipped it", "landed",
	"the deploy landed in prod", "tests passing", "passes", "implemented the cache", "closed #12", "closes the issue",
	"Is it done?", "isn't finished", "still not fixed", "almost done", "nearly complete", "completed", "Completion",
	"resolve the conflict", "resolved", "-done-", "_done_", "'done'", "donE", "don", "do ne", "the undone work",
	"fİxed", "ﬁxed", "Kelvin \u212a done", "the don't-fix list", "clos", "closing", "passing grade", "impassable road",
	"mergesort is done, i did it myself", "완료했습니다 done", "a\xffdone", "landing page copy"}

// An equivalence test: settled returns what it returned before
// holdsCompletion, on invented sentences.
func TestSettledSame(t *testing.T) {
	for _, in := range settledCases {
		gs, gok := settled(in)
		ws, wok := settledOld(in)
		if gs != ws || gok != wok {
			t.Errorf("settled(%q)=%q, %v, want %q, %v", in, gs, gok, ws, wok)
		}
	}
}

func FuzzSettledSame(f *testing.F) {
	for _, in := range settledCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		gs, gok := settled(in)
		ws, wok := settledOld(in)
		if gs != ws || gok != wok {
			t.Errorf("settled(%q)=%q, %v, want %q, %v", in, gs, gok, ws, wok)
		}
	})
}

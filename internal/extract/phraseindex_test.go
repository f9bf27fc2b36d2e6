package extract

import "testing"

// indexedLists are the phrase lists with an index, each with it.
func indexedLists() []struct {
	ps []phrase
	ix func() *phraseIndex
} {
	return []struct {
		ps []phrase
		ix func() *phraseIndex
	}{
		{rememberPhrases, rememberPhrasesIndex}, {createVerbs, createVerbsIndex}, {hedges, hedgesIndex},
		{preferencePhrases, preferencePhrasesIndex}, {modalHedges, modalHedgesIndex}, {causePhrases, causePhrasesIndex},
		{failureWords, failureWordsIndex}, {fixPhrases, fixPhrasesIndex}, {negDecisionPhrases, negDecisionPhrasesIndex},
		{decisionPhrases, decisionPhrasesIndex}, {constraintPhrases, constraintPhrasesIndex}, {taskPhrases, taskPhrasesIndex},
		{commitments, commitmentsIndex}, {factPhrases, factPhrasesIndex}, {configWords, configWordsIndex},
		{contrasts, contrastsIndex}, {referenceWords, referenceWordsIndex}, {ticketPointers, ticketPointersIndex},
		{ruleMarkers, ruleMarkersIndex}, {problemWords, problemWordsIndex}, {rules, rulesIndex},
	}
}

// checkIndexed compares matchIn and hasIn with matchIf and has for every
// indexed list on the sentences of text, said by either speaker, with and
// without a test of the occurrence, and returns how many matched.
func checkIndexed(t *testing.T, text string) int {
	t.Helper()
	found := 0
	// A test that refuses some occurrences, so that a later phrase of the
	// list is the answer.
	odd := func(p phrase, at int) bool { return (len(p.s)+at)%2 == 1 }
	for _, user := range []bool{true, false} {
		for _, sp := range sentences(text) {
			s := newSent(0, sp.start, text[sp.start:limit(text, sp.start, sp.end)], user)
			for _, l := range indexedLists() {
				for _, ok := range []func(phrase, int) bool{nil, odd} {
					gp, gat := s.matchIn(l.ix, ok)
					wp, wat := s.matchIf(l.ps, ok)
					if gp != wp || gat != wat {
						t.Fatalf("matchIn(%q) = %q at %d, matchIf %q at %d", s.low, gp.s, gat, wp.s, wat)
					}
					if gat >= 0 {
						found++
					}
				}
				if got, want := s.hasIn(l.ix), s.has(l.ps); got != want {
					t.Fatalf("hasIn(%q) = %v, has %v", s.low, got, want)
				}
			}
		}
	}
	return found
}

// TestIndexedSame is an equivalence test: matching a sentence against an
// indexed list gives what matching it against the list does, on the test
// sessions' messages and invented lines (Korean ones among them).
func TestIndexedSame(t *testing.T) {
	found := 0
	for _, sess := range testSessions(t) {
		for _, m := range sess.Messages {
			found += checkIndexed(t, m.Text)
		}
	}
	for _, text := range []string{
		"We decided to use Quillstore. From now on, never edit gen/ by hand; maybe later.",
		"Going forward we'll always run the linter — it fails otherwise, because of the cache.",
		"TODO: switch the queue to Brindle instead of Kestrel next sprint.",
		"앞으로는 Render 대신 Fly로 배포합니다. 나중에 다시 확인할게요.",
		"(see ticket ABC-12) -- must keep the 'legacy' flag; I prefer tabs.",
	} {
		found += checkIndexed(t, text)
	}
	if found == 0 {
		t.Fatal("no phrase matched: the comparison checked only misses")
	}
}

// FuzzIndexedSame is TestIndexedSame on arbitrary text.
func FuzzIndexedSame(f *testing.F) {
	for _, seed := range []string{"", "We decided to use X.", "maybe we'll", "\xff 대신 never", "- [ ] todo: fix it later"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) { checkIndexed(t, text) })
}

// The unindexed forms matchIn and hasIn must equal: every phrase of a list
// asked in list order.

// match returns the first phrase of ps, in list order, that the sentence's
// speaker may use and that occurs in it, with its offset; -1 when none does.
func (s *sent) match(ps []phrase) (phrase, int) {
	return s.matchIf(ps, nil)
}

// matchIf is match with a further test of each occurrence.
func (s *sent) matchIf(ps []phrase, ok func(p phrase, at int) bool) (phrase, int) {
	for _, p := range ps {
		if p.by == userOnly && !s.user || p.by == assistantOnly && s.user {
			continue
		}
		if at := s.find(p); at >= 0 && (ok == nil || ok(p, at)) {
			return p, at
		}
	}
	return phrase{}, -1
}

// has reports whether any phrase of ps occurs as a whole word.
func (s *sent) has(ps []phrase) bool {
	for _, p := range ps {
		if s.find(phrase{s: p.s}) >= 0 {
			return true
		}
	}
	return false
}

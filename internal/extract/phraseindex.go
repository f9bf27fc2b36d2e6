package extract

import (
	"math/bits"
	"sync"
	"unicode/utf8"
)

// phraseIndex is a phrase list with its phrases grouped by the two bytes
// they start a word with (startHash): a sentence is matched against the
// phrases its word starts allow, not against every phrase of the list. On
// the bench session the extractor asked 709,643 phrases of its lists, 13 %
// of them allowed by the sentence's word starts.
type phraseIndex struct {
	ps    []phrase
	start [256][]uint64 // startHash -> bits of the phrases starting with a word byte and those two bytes
	has   [4]uint64     // the startHash values whose start entry is not nil
	other []uint64      // bits of the phrases starting with an ASCII byte that is no word byte
	wide  []uint64      // bits of the phrases starting with a non-ASCII byte
}

// indexed returns ps's index, built at the first call: most processes that
// link the extractor never run it.
func indexed(ps []phrase) func() *phraseIndex {
	return sync.OnceValue(func() *phraseIndex { return newPhraseIndex(ps) })
}

func newPhraseIndex(ps []phrase) *phraseIndex {
	n := (len(ps) + 63) / 64
	x := &phraseIndex{ps: ps, other: make([]uint64, n), wide: make([]uint64, n)}
	for i, p := range ps {
		c := p.s[0]
		switch {
		case c >= utf8.RuneSelf:
			x.wide[i/64] |= 1 << (i % 64)
		case isWordByte(c):
			var c1 byte
			if len(p.s) > 1 {
				c1 = p.s[1]
			}
			h := startHash(c, c1)
			if x.start[h] == nil {
				x.start[h] = make([]uint64, n)
				x.has[h/64] |= 1 << (h % 64)
			}
			x.start[h][i/64] |= 1 << (i % 64)
		default:
			x.other[i/64] |= 1 << (i % 64)
		}
	}
	return x
}

// allowed returns, in buf, the bits of the phrases of x that mayStart
// allows in a text with these word starts.
func (x *phraseIndex) allowed(starts *[4]uint64, ascii bool, buf []uint64) []uint64 {
	m := append(buf[:0], x.other...)
	if !ascii {
		for w := range m {
			m[w] |= x.wide[w]
		}
	}
	// Only the word starts some phrase of x has: a sentence has dozens, a
	// list's phrases a few.
	for k, b := range starts {
		b &= x.has[k]
		for b != 0 {
			ps := x.start[k*64+bits.TrailingZeros64(b)]
			b &= b - 1
			for w := range m {
				m[w] |= ps[w]
			}
		}
	}
	return m
}

// each calls f with the phrases of x the sentence's word starts allow, in
// list order, until f returns true; it reports whether one did.
func (x *phraseIndex) each(s *sent, f func(p phrase) bool) bool {
	var buf [4]uint64
	for w, b := range x.allowed(&s.starts, s.ascii, buf[:0]) {
		for b != 0 {
			p := x.ps[w*64+bits.TrailingZeros64(b)]
			b &= b - 1
			if f(p) {
				return true
			}
		}
	}
	return false
}

// matchIn returns the first phrase of the list, in list order, that the
// sentence's speaker may use, that occurs in it and that ok (when not nil)
// accepts at its offset, with that offset; -1 when none does. Only the
// phrases the sentence's word starts allow are asked (phraseindex_test.go
// holds the unindexed form it must equal).
func (s *sent) matchIn(ix func() *phraseIndex, ok func(p phrase, at int) bool) (phrase, int) {
	hit, at := phrase{}, -1
	ix().each(s, func(p phrase) bool {
		if p.by == userOnly && !s.user || p.by == assistantOnly && s.user {
			return false
		}
		if k := s.find(p); k >= 0 && (ok == nil || ok(p, k)) {
			hit, at = p, k
			return true
		}
		return false
	})
	return hit, at
}

// hasIn reports whether any phrase of the list occurs as a whole word,
// whoever may say it.
func (s *sent) hasIn(ix func() *phraseIndex) bool {
	return ix().each(s, func(p phrase) bool { return s.find(phrase{s: p.s}) >= 0 })
}

// The indexes of the phrase lists a sentence is matched against.
var (
	rememberPhrasesIndex    = indexed(rememberPhrases)
	createVerbsIndex        = indexed(createVerbs)
	hedgesIndex             = indexed(hedges)
	preferencePhrasesIndex  = indexed(preferencePhrases)
	modalHedgesIndex        = indexed(modalHedges)
	causePhrasesIndex       = indexed(causePhrases)
	failureWordsIndex       = indexed(failureWords)
	fixPhrasesIndex         = indexed(fixPhrases)
	negDecisionPhrasesIndex = indexed(negDecisionPhrases)
	decisionPhrasesIndex    = indexed(decisionPhrases)
	constraintPhrasesIndex  = indexed(constraintPhrases)
	taskPhrasesIndex        = indexed(taskPhrases)
	commitmentsIndex        = indexed(commitments)
	factPhrasesIndex        = indexed(factPhrases)
	configWordsIndex        = indexed(configWords)
	contrastsIndex          = indexed(contrasts)
	referenceWordsIndex     = indexed(referenceWords)
	ticketPointersIndex     = indexed(ticketPointers)
	ruleMarkersIndex        = indexed(ruleMarkers)
	problemWordsIndex       = indexed(problemWords)
	rulesIndex              = indexed(rules)
)

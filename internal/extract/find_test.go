package extract

import (
	"testing"
)

// findPlain is sent.find before it asked the hashes of word prefixes: only
// the two-byte filter, then a scan.
func findPlain(s *sent, p phrase) int {
	if !s.mayHave(p.s) {
		return -1
	}
	return s.scan(p)
}

// allPhrases are the extractor's phrase lists, each phrase at every place.
func allPhrases() []phrase {
	var out []phrase
	for _, ps := range [][]phrase{contrasts, problemWords, rules, rememberPhrases, ruleMarkers, anaphors,
		causePhrases, fixPhrases, failureWords, decisionPhrases, negDecisionPhrases, preferencePhrases,
		constraintPhrases, taskPhrases, factPhrases, configWords, createVerbs, referenceWords, ticketPointers,
		commitments, choosers, hedges, modalHedges} {
		for _, p := range ps {
			for _, at := range []where{anywhere, atStart, atClause} {
				out = append(out, phrase{s: p.s, at: at})
			}
		}
	}
	return out
}

// checkFind compares find with findPlain for every phrase in the sentences
// of text, before and after a cut, and returns how many matched.
func checkFind(t *testing.T, text string, ps []phrase) int {
	t.Helper()
	found := 0
	for _, sp := range sentences(text) {
		s := newSent(0, sp.start, text[sp.start:limit(text, sp.start, sp.end)], true)
		for round := range 2 {
			for _, p := range ps {
				got, want := s.find(p), findPlain(s, p)
				if got != want {
					t.Fatalf("find(%q, %q at %d) = %d, want %d", s.low, p.s, p.at, got, want)
				}
				if got >= 0 {
					found++
				}
			}
			if round == 0 && len(s.norm) > 4 {
				s.cut(len(s.norm) / 2)
			}
		}
	}
	return found
}

// TestFindSame is an equivalence test: find against its old form for every
// phrase list on the test sessions' messages and invented lines.
func TestFindSame(t *testing.T) {
	ps := allPhrases()
	found := 0
	for _, sess := range testSessions(t) {
		for _, m := range sess.Messages {
			found += checkFind(t, m.Text, ps)
		}
	}
	for _, text := range []string{
		"We decided to use Quillstore for the cache. From now on, never edit gen/ by hand.",
		"the decision is final: we'll use port 7410 instead of 7400.",
		"Note: it fails on CI, because the token expired; rather than retry, we chose Brindle.",
		"e.g. we picked x.y/z.v but the-decision is not. decided on",
		"앞으로는 Render 대신 Fly로 배포합니다. 너무 느려요.",
		"a b c de def defg we wee weed",
	} {
		found += checkFind(t, text, ps)
	}
	if found == 0 {
		t.Fatal("no phrase matched: the comparison checked only misses")
	}
}

// FuzzFindSame is TestFindSame on arbitrary text and phrases.
func FuzzFindSame(f *testing.F) {
	for _, seed := range [][2]string{{"We decided to use X.", "decided to"}, {"the  the", "the t"}, {"abcde fgh", "abcdz"}, {"\xff we'll", "we'll"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, text, p string) {
		if p == "" {
			return
		}
		ps := []phrase{{s: lowerASCII(p)}, {s: lowerASCII(p), at: atStart}, {s: lowerASCII(p), at: atClause}}
		checkFind(t, text, append(ps, allPhrases()[:60]...))
	})
}

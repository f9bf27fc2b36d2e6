package recall

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/korean"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
)

// A Korean prompt names the things of computing by loanwords ("week3 템플릿
// pom에 mapstruct 버전 뭐로 고정해놨었지?": template, version), a session held
// in English by the English words, which no Korean dictionary here gives.
// The English words a Hangul word's sound may be written from (the
// glosses' loanword table, korean.Key) are asked of the store, and the one
// its messages hold most becomes a form of the word's concept.

// maxLoans is how many English words of a Hangul word's skeleton are asked
// of the store at most, the likeliest first (korean.Distance).
const maxLoans = 64

// loanDistance is the most an English word may sound unlike a Hangul word,
// per consonant (korean.Distance), to be read as its loanword: "버전" and
// "version" are 0.1 apart, "페이지네이션" and "pagination" 0.36, "데이터베이스"
// and "database" 0.42.
const loanDistance = 0.45

// loanPenalty weighs a candidate's distance against how many messages hold
// it (loanwords): 0.1 more unlike takes as much as holding it in e^2,
// about 7, times as many messages. A skeleton's words sound alike ("버전":
// version and begin 0.1, person 0.3); of those the project writes, the one
// it writes much and sounds near is the loanword.
const loanPenalty = 20

// minLoanConsonants is the fewest consonants (korean.Key's classes) a
// Hangul word read as a loanword has: the skeleton of a shorter one fits
// too many English words, and as many of the native words of two
// syllables a prompt writes ("들어" try, "그냥"), to tell its loanword
// ("서버" server, "캐시" cache are left out).
const minLoanConsonants = 3

// countedAsAnother reports an English word whose index key, its stem, is
// another word, an everyday one, it only begins with ("personation",
// "person"): how many messages hold the key counts that word's.
func countedAsAnother(e string) bool {
	k := indexKey(e)
	return len(k)+4 <= len(e) && wordfreq.Zipf(k) > 0
}

// loan is an English word a Hangul word may be a loanword of, and how
// unlike it sounds (korean.Distance).
type loan struct {
	word string
	d    float64
}

// loanCandidates are the English words Hangul word w may be a loanword of,
// likeliest first: at most maxLoans, none farther than loanDistance, no
// English function word. A Korean function word ("그래서", "어디") is none,
// nor a word a loanword is not written as (korean.Loanlike). A plural's
// 들 and a verbal noun's 하다 ("커밋해", "업데이트했") are read without.
func loanCandidates(w string, dict *glosses.Dict, stops stopSet) []loan {
	w = loanStem(w)
	key := korean.Key(w)
	if !korean.Loanlike(w) || stops.has(w) || len(strings.Trim(key, "V")) < minLoanConsonants {
		return nil
	}
	var ls []loan
	for _, e := range dict.Loans(key) {
		if d := korean.Distance(w, e); d <= loanDistance && !stops.has(e) && !countedAsAnother(e) {
			ls = append(ls, loan{e, d})
		}
	}
	slices.SortStableFunc(ls, func(a, b loan) int { return cmp.Compare(a.d, b.d) })
	return ls[:min(len(ls), maxLoans):min(len(ls), maxLoans)]
}

// loanStem is Hangul word w without what Korean writes onto a noun beyond
// its particles (stripParticle), after two syllables or more: the plural
// 들 ("컬럼들") or a syllable of 하다 making it a verb (하, 해, 했, 한, 할,
// 함, 합: initial ㅎ, vowel ㅏ or ㅐ; "커밋해", "배포했").
func loanStem(w string) string {
	rs := []rune(w)
	if len(rs) < 3 {
		return w
	}
	last := rs[len(rs)-1]
	i := int(last - 0xAC00)
	if last == '들' || i >= 0 && i < 11172 && i/(21*28) == 18 && i%(21*28)/28 <= 1 {
		return string(rs[:len(rs)-1])
	}
	return w
}

// loanwords adds to each concept with loanword candidates (concept.loans)
// the one the store's messages hold that ranks first by how many hold it
// and how near it sounds (loanPenalty). The index's own term counts are
// read, in one query for all (store.VocabDocs): a skeleton may have dozens
// of candidates, most of which no message holds.
func (tc *termCounts) loanwords(ctx context.Context, cs []concept) ([]concept, error) {
	var keys []string
	for _, c := range cs {
		for _, l := range c.loans {
			keys = append(keys, indexKey(l.word))
		}
	}
	if len(keys) == 0 {
		return cs, nil
	}
	docs, err := tc.db.VocabDocs(ctx, keys)
	if err != nil {
		return nil, err
	}
	at := 0
	for i := range cs {
		best, bestRank := -1, 0.0
		for j, l := range cs[i].loans {
			n := docs[at+j]
			if n == 0 {
				continue
			}
			if rank := math.Log1p(float64(n)) - loanPenalty*l.d; best < 0 || rank > bestRank {
				best, bestRank = j, rank
			}
		}
		if best >= 0 {
			cs[i] = withForm(cs[i], cs[i].loans[best].word)
		}
		at += len(cs[i].loans)
	}
	return cs, nil
}

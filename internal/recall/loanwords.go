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

// countedAsAnother reports an English word e whose index key k, its stem, is
// another word, an everyday one, it only begins with ("personation",
// "person"): how many messages hold the key counts that word's. An
// inflection ("logging", "mapped", "settings") is counted with its word,
// as a search finds it.
func countedAsAnother(e, k string) bool {
	if len(k)+4 > len(e) || wordfreq.Zipf(k) == 0 {
		return false
	}
	for _, end := range []string{"ing", "ings", "ed", "es", "s"} {
		if rest, ok := strings.CutSuffix(e, end); ok && (rest == k || len(rest) == len(k)+1 && rest[:len(k)] == k && rest[len(k)] == k[len(k)-1]) {
			return false // "setting" of "set", with its consonant doubled
		}
	}
	return true
}

// loanLead is how far ahead of the next the first of a Hangul word's
// candidates must rank (loanwords): ln 2, as if the store held it twice as
// often, the two sounding alike.
const loanLead = math.Ln2

// loan is an English word a Hangul word may be a loanword of, its index
// key, and how unlike it sounds (korean.Distance).
type loan struct {
	word, key string
	d         float64
}

// loanCandidates are the English words Hangul word w may be a loanword of,
// likeliest first: at most maxLoans, none farther than loanDistance, no
// English function word. A Korean function word ("그래서", "어디") is none,
// nor a word a loanword is not written as (korean.Loanlike). A plural's
// 들 and a verbal noun's 하다 ("커밋해", "업데이트했") are read without.
func loanCandidates(w string, dict *glosses.Dict, stops stopSet) []loan {
	w = korean.LoanStem(w)
	key := korean.Key(w)
	if !korean.Loanlike(w) || stops.has(w) || len(strings.TrimPrefix(key, "V")) < minLoanConsonants {
		return nil
	}
	var ls []loan
	for _, e := range dict.Loans(key) {
		if d := korean.Distance(w, e); d <= loanDistance && !stops.has(e) {
			// Nor one the index counts as a function word ("canned"
			// as "can"): every message holds it.
			if k := indexKey(e); !countedAsAnother(e, k) && !stops.has(k) {
				ls = append(ls, loan{e, k, d})
			}
		}
	}
	slices.SortStableFunc(ls, func(a, b loan) int { return cmp.Compare(a.d, b.d) })
	// Words the index keys alike are one word to the store, which could
	// not tell them apart (loanLead): the nearer stands for both.
	seen := map[string]bool{}
	ls = slices.DeleteFunc(ls, func(l loan) bool {
		dup := seen[l.key]
		seen[l.key] = true
		return dup
	})
	return ls[:min(len(ls), maxLoans):min(len(ls), maxLoans)]
}

// loanwords adds to each concept with loanword candidates (concept.loans)
// the one the store's messages hold that ranks first by how many hold it
// and how near it sounds (loanPenalty), when it ranks ahead of the next by
// loanLead: of two alike ("메서드": method and merged, both 0.1 away), the
// store must hold one much more to tell. The index's own term counts are
// read, in one query for all (store.VocabDocs): a skeleton may have dozens
// of candidates, most of which no message holds.
func (tc *termCounts) loanwords(ctx context.Context, cs []concept) ([]concept, error) {
	var keys []string
	for _, c := range cs {
		for _, l := range c.loans {
			keys = append(keys, l.key)
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
		best, bestRank, next := -1, 0.0, math.Inf(-1)
		for j, l := range cs[i].loans {
			n := docs[at+j]
			if n == 0 {
				continue
			}
			rank := math.Log1p(float64(n)) - loanPenalty*l.d
			switch {
			case best < 0 || rank > bestRank:
				if best >= 0 {
					next = bestRank
				}
				best, bestRank = j, rank
			case rank > next:
				next = rank
			}
		}
		if best >= 0 && bestRank-next >= loanLead {
			cs[i] = withForm(cs[i], cs[i].loans[best].word)
		}
		at += len(cs[i].loans)
	}
	return cs, nil
}

package recall

import (
	"context"
	"math"

	"github.com/claude-memory-layer/claude-memory-layer/internal/thesaurus"
)

// Tuning of the thesaurus bridge (related): how many of a word's related
// words are looked for in the store, and the share of its weight a concept
// that matches only through one keeps.
const (
	maxRelated   = 6
	relatedShare = 0.5
)

// related gives each concept of an English prompt whose word the store
// never wrote the first word the thesaurus relates to it (th) that the
// store holds, as another way of writing it: a follow-up may ask in other
// words than the session used, and an unseen word finds nothing. The
// concept then weighs what that word weighs in the store, times
// relatedShare: a bridge of meaning is weaker evidence than the word
// itself. The table is read only when a concept qualifies, and the store is
// asked once for all the candidates.
func (tc *termCounts) related(ctx context.Context, cs []concept, th *thesaurus.Table, stops stopSet, total int) ([]concept, error) {
	type cand struct {
		concept int
		word    string
	}
	var cands []cand
	var words []string
	for i, c := range cs {
		if c.df > 0 || c.foreign || c.glued || c.parts != nil || len(c.keys) != 1 || !plainWord(c.forms[0]) {
			continue
		}
		n := 0
		for _, w := range th.Related(c.forms[0]) {
			if n == maxRelated {
				break
			}
			if k := indexKey(w); k == c.keys[0] || stops.has(w) {
				continue
			}
			n++
			cands = append(cands, cand{i, w})
			words = append(words, w)
		}
	}
	if len(cands) == 0 {
		return cs, nil
	}
	docs, _, err := tc.count(ctx, words)
	if err != nil {
		return nil, err
	}
	n := float64(max(total, 1))
	rarest := math.Log(1 + (n-0.5)/1.5)
	done := make([]bool, len(cs))
	for j, cd := range cands {
		if done[cd.concept] || docs[j] == 0 {
			continue
		}
		done[cd.concept] = true
		c := &cs[cd.concept]
		df := min(docs[j], max(total, 1))
		c.forms = append(c.forms, cd.word)
		c.keys = append(c.keys, indexKey(cd.word))
		c.df = df
		c.weight = math.Log(1+(n-float64(df)+0.5)/(float64(df)+0.5)) * relatedShare
		c.specific = 0
		if !isGeneric(c.forms[0]) && !isGeneric(cd.word) {
			c.specific = c.weight / rarest
		}
	}
	return cs, nil
}

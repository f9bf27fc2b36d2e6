package recall

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
)

// Acronyms: a prompt spells out a phrase ("late write quarantine") that the
// session wrote by its initials ("LWQ"), or the other way round. The index
// holds each as it was written, so neither finds the other.

// minAcronymWords and maxAcronymWords bound the runs of a prompt's words
// whose initials are read as an acronym. Two words make two letters, which
// a store of code holds by chance ("ls", "db", "ui"): most two-letter
// tokens name something else.
const minAcronymWords, maxAcronymWords = 3, 5

// acronymRun is a run of adjacent content words of a prompt and the token
// their initials make.
type acronymRun struct {
	words []string // lower-case, as concepts' forms
	token string
}

// acronymRuns are the runs of minAcronymWords to maxAcronymWords adjacent
// words of prompt, each a concept of cs, whose initials make a token that is
// no everyday English word (wordfreq: "the new api test" makes "nat", which
// any text may hold as itself). Words are adjacent when only spaces or a
// hyphen stand between them: a comma or a full stop ends a phrase.
func acronymRuns(prompt string, cs []concept) []acronymRun {
	isConcept := func(w string) bool {
		return slices.ContainsFunc(cs, func(c concept) bool { return slices.Contains(c.forms, w) })
	}
	var runs []acronymRun
	var seg []string // the current run of adjacent content words
	flush := func() {
		for i := range seg {
			for n := minAcronymWords; n <= maxAcronymWords && i+n <= len(seg); n++ {
				var b strings.Builder
				for _, w := range seg[i : i+n] {
					b.WriteByte(w[0])
				}
				tok := b.String()
				if wordfreq.Zipf(tok) > 0 || slices.ContainsFunc(runs, func(r acronymRun) bool { return r.token == tok }) {
					continue
				}
				runs = append(runs, acronymRun{words: seg[i : i+n], token: tok})
			}
		}
		seg = nil
	}
	i := 0
	for i < len(prompt) {
		// A word of ASCII letters, and what separates it from the next.
		j := i
		for j < len(prompt) && isLetter(prompt[j]) {
			j++
		}
		if j == i {
			flush()
			i++
			continue
		}
		w := strings.ToLower(prompt[i:j])
		if j < len(prompt) && (prompt[j] >= utf8.RuneSelf || isDigit(prompt[j]) || prompt[j] == '_') {
			// Part of an identifier or of a word in another script.
			flush()
			for j < len(prompt) && prompt[j] != ' ' {
				j++
			}
			i = j
			continue
		}
		if isConcept(w) {
			seg = append(seg, w)
		} else {
			flush()
		}
		k := j
		for k < len(prompt) && (prompt[k] == ' ' || prompt[k] == '-') {
			k++
		}
		if k == j || strings.Count(prompt[j:k], "-") > 1 {
			flush()
		}
		i = k
	}
	flush()
	return runs
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// acronymSample is how many of the newest messages holding a candidate
// token are read for how they write it (writtenAsAcronym).
const acronymSample = 20

// writtenAsAcronym reports whether the store's newest messages holding tok
// write it in capitals ("LWQ") at least as often as in lower case: then
// it is an acronym there. Initials make short tokens that a store of code
// holds by chance as something else ("tqs", a variable; "nrp", a path).
func writtenAsAcronym(ctx context.Context, db *store.DB, tok string) (bool, error) {
	hits, err := db.SearchEvents(ctx, store.EventQuery{Match: store.MatchAny([]string{tok}, false), Limit: acronymSample, Newest: true})
	if err != nil {
		return false, err
	}
	up := strings.ToUpper(tok)
	caps, lower := 0, 0
	for _, h := range hits {
		for w := range strings.FieldsFuncSeq(h.Text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			switch {
			case w == up:
				caps++
			case strings.EqualFold(w, tok):
				lower++
			}
		}
	}
	return caps > 0 && caps >= lower, nil
}

// acronyms adds to the concepts of each run of a prompt's words whose
// initials make a token the store holds written as an acronym ("late write
// quarantine" and "LWQ") that token as one more way of writing each of them:
// a message naming LWQ then matches all three words, as one spelling them
// out does. The token is weighed as any key of a concept is, by its
// documents.
func (tc *termCounts) acronyms(ctx context.Context, cs []concept, prompt string) ([]concept, error) {
	runs := acronymRuns(head(prompt), cs)
	if len(runs) == 0 {
		return cs, nil
	}
	toks := make([]string, len(runs))
	for i, r := range runs {
		toks[i] = r.token
	}
	// Most runs make tokens no message holds: one query says so for all of
	// them. A token only entries' questions hold is not read as an acronym
	// either (writtenAsAcronym reads messages), so nothing else is asked.
	if ok, err := tc.db.AnyHolds(ctx, toks); err != nil || !ok {
		return cs, err
	}
	docs, _, err := tc.count(ctx, toks)
	if err != nil {
		return nil, err
	}
	for i, r := range runs {
		if docs[i] == 0 {
			continue
		}
		ok, err := writtenAsAcronym(ctx, tc.db, r.token)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		k := indexKey(r.token)
		for j := range cs {
			if slices.ContainsFunc(cs[j].forms, func(f string) bool { return slices.Contains(r.words, f) }) && !slices.Contains(cs[j].keys, k) {
				cs[j].forms = append(cs[j].forms, r.token)
				cs[j].keys = append(cs[j].keys, k)
			}
		}
	}
	return cs, nil
}

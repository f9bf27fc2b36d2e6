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

// Spellings: a prompt spells out a phrase ("late write quarantine") that the
// session wrote by its initials ("LWQ"), or the other way round; or spells
// as words ("the main activity") an identifier the session wrote glued
// ("MainActivity"). The index holds each as it was written, so neither
// finds the other.

// minAcronymWords and maxAcronymWords bound the runs of a prompt's words
// whose initials are read as an acronym. Two words make two letters, which
// a store of code holds by chance ("ls", "db", "ui"): most two-letter
// tokens name something else.
const minAcronymWords, maxAcronymWords = 3, 5

// wordRun is a run of adjacent content words of a prompt and a token they
// make: their initials (an acronym) or the words glued (an identifier).
type wordRun struct {
	words   []string // lower-case, as concepts' forms
	token   string
	acronym bool
}

// acronymRuns are the runs of minAcronymWords to maxAcronymWords adjacent
// words of prompt, each a concept of cs, whose initials make a token that is
// no everyday English word (wordfreq: "the new api test" makes "nat", which
// any text may hold as itself).
func acronymRuns(prompt string, cs []concept) []wordRun {
	runs := wordRuns(prompt, cs, minAcronymWords, maxAcronymWords, func(ws []string) string {
		var b strings.Builder
		for _, w := range ws {
			b.WriteByte(w[0])
		}
		return b.String()
	})
	for i := range runs {
		runs[i].acronym = true
	}
	return runs
}

// wordRuns are the runs of minWords to maxWords adjacent words of prompt,
// each a concept of cs, with the token join makes of each when the English
// word list holds no such word (wordfreq). Words are adjacent when only
// spaces or a hyphen stand between them: a comma or a full stop ends a
// phrase.
func wordRuns(prompt string, cs []concept, minWords, maxWords int, join func([]string) string) []wordRun {
	isConcept := func(w string) bool {
		return slices.ContainsFunc(cs, func(c concept) bool { return slices.Contains(c.forms, w) })
	}
	var runs []wordRun
	var seg []string // the current run of adjacent content words
	flush := func() {
		for i := range seg {
			for n := minWords; n <= maxWords && i+n <= len(seg); n++ {
				tok := join(seg[i : i+n])
				if wordfreq.Zipf(tok) > 0 || slices.ContainsFunc(runs, func(r wordRun) bool { return r.token == tok }) {
					continue
				}
				runs = append(runs, wordRun{words: seg[i : i+n], token: tok})
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

// identifierRuns are the runs of two or three adjacent words of prompt,
// each a concept of cs, glued into one token that is no English word:
// "main activity" makes "mainactivity", which the index holds where the
// session wrote MainActivity. The index keeps a camelCase identifier whole,
// so a prompt spelling it as words finds it no other way.
func identifierRuns(prompt string, cs []concept) []wordRun {
	return wordRuns(prompt, cs, 2, 3, func(ws []string) string { return strings.Join(ws, "") })
}

// spellingSample is how many of the newest messages holding a candidate
// token are read for how they write it (written).
const spellingSample = 20

// written reports whether the store's newest messages holding r's token
// write it as r stands for its words, at least as often as otherwise:
//   - an acronym in capitals ("LWQ"), not in lower case: initials make
//     short tokens that a store of code holds by chance as something else
//     ("tqs", a variable; "nrp", a path);
//   - an identifier with a capital opening each word after the first
//     (camelJoins: "MainActivity", "baseURL"), not glued in lower case,
//     where it is some other word ("underscore" is no "under score").
func written(ctx context.Context, db *store.DB, r wordRun) (bool, error) {
	hits, err := db.SearchEvents(ctx, store.EventQuery{Match: store.MatchAny([]string{r.token}, false), Limit: spellingSample, Newest: true})
	if err != nil {
		return false, err
	}
	up := strings.ToUpper(r.token)
	as, other := 0, 0
	for _, h := range hits {
		for w := range strings.FieldsFuncSeq(h.Text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if !strings.EqualFold(w, r.token) {
				continue
			}
			if r.acronym && w == up || !r.acronym && camelJoins(w, r.words) {
				as++
			} else {
				other++
			}
		}
	}
	return as > 0 && as >= other, nil
}

// camelJoins reports whether w, which is words glued, opens each word after
// the first with a capital, the rest of it in lower case or all in
// capitals as Go writes an initialism ("MainActivity", "mainActivity",
// "baseURL" for base and url); not all in capitals ("MAINACTIVITY"), nor
// in lower case. w must be as long as the words: a letter that folds to
// another's case in more bytes ("ſ" for "s") is no spelling of them.
func camelJoins(w string, words []string) bool {
	if len(w) != len(strings.Join(words, "")) || strings.ToUpper(w) == w {
		return false
	}
	at := 0
	for i, word := range words {
		part := w[at : at+len(word)]
		at += len(word)
		rest := part[1:]
		if i > 0 && !(isUpper(part[0]) && (strings.ToLower(rest) == rest || strings.ToUpper(rest) == rest)) {
			return false
		}
	}
	return true
}

func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }

// spellings adds to the concepts of a prompt's words another way the store
// writes them, as one more form of each: a word's American spelling
// (american), the English word a Korean one is a loanword of (loanwords:
// "템플릿" template), the initials of a run of them written as an acronym ("late
// write quarantine" and "LWQ"), or a run of them glued into an identifier
// ("main activity" and "MainActivity"). A message naming LWQ or
// MainActivity then matches each word, as one spelling them out does. The
// token is weighed as any key of a concept is, by its documents.
func (tc *termCounts) spellings(ctx context.Context, cs []concept, prompt string) ([]concept, error) {
	cs, err := tc.american(ctx, cs)
	if err != nil {
		return nil, err
	}
	if cs, err = tc.loanwords(ctx, cs); err != nil {
		return nil, err
	}
	p := head(prompt)
	runs := acronymRuns(p, cs)
	// A glued run the prompt writes as one word too ("light-mode" is
	// lightmode already, a concept of its own) is that word's.
	runs = append(runs, slices.DeleteFunc(identifierRuns(p, cs), func(r wordRun) bool {
		return slices.ContainsFunc(cs, func(c concept) bool { return slices.Contains(c.forms, r.token) })
	})...)
	if len(runs) == 0 {
		return cs, nil
	}
	toks := make([]string, len(runs))
	for i, r := range runs {
		toks[i] = r.token
	}
	// Most runs make tokens no message holds: one query says so for all of
	// them. A token only entries' questions hold is not read either
	// (written reads messages), so nothing else is asked.
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
		ok, err := written(ctx, tc.db, r)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		for j := range cs {
			if slices.ContainsFunc(cs[j].forms, func(f string) bool { return slices.Contains(r.words, f) }) {
				cs[j] = withForm(cs[j], r.token)
			}
		}
	}
	return cs, nil
}

// american adds to each concept whose word is spelled the British way
// ("colour", "initialise", "centre") its American spelling, when the store
// writes that more often: code, its tools and most of what a session says
// about them spell "color" and "initialize", and a prompt written the
// British way found none of it. The word is left alone where the store
// writes it as the prompt does.
func (tc *termCounts) american(ctx context.Context, cs []concept) ([]concept, error) {
	type variant struct {
		c        int
		american string
	}
	var vs []variant
	var toks []string // each variant's prompt word and its American spelling
	for i, c := range cs {
		for _, a := range americanSpellings(c.forms[0]) {
			vs = append(vs, variant{i, a})
			toks = append(toks, c.forms[0], a)
		}
	}
	if len(vs) == 0 {
		return cs, nil
	}
	docs, _, err := tc.count(ctx, toks)
	if err != nil {
		return nil, err
	}
	for k, v := range vs {
		if docs[2*k+1] <= docs[2*k] {
			continue
		}
		cs[v.c] = withForm(cs[v.c], v.american)
	}
	return cs, nil
}

// withForm is c with one more way of writing it, form, unless the index
// reads form as one of c's keys already.
func withForm(c concept, form string) concept {
	if key := indexKey(form); !slices.Contains(c.keys, key) {
		c.forms = append(c.forms, form)
		c.keys = append(c.keys, key)
	}
	return c
}

// americanSpellings are the American spellings w may have if it is written
// the British way, by the regular differences of the two spellings:
// "-our" before an ending ("colour", "behaviours", "favourite"), "-ise" and
// "-isation" ("initialised", "normalisation"), "-yse" ("analyse"), "-tre"
// ("centre"), "-ogue" ("catalogue") and "-ence" ("licence"). A doubled l
// ("cancelled") needs none: the index's stem is the same. A spelling no
// English word list holds, of a word one does ("differense" of
// "difference"), is none; most words of such a shape are spelled so in
// both ("difference", "promise"), and the store tells the rest apart
// (american).
func americanSpellings(w string) []string {
	if !isASCII(w) {
		return nil
	}
	known := wordfreq.Zipf(w) > 0
	var out []string
	add := func(a string) {
		if !known || wordfreq.Zipf(a) > 0 {
			out = append(out, a)
		}
	}
	// "-our" after three letters or more ("colour"; not "scoured", "flour"),
	// before an ending or none ("resources" and "encourage" have none).
	if i := strings.LastIndex(w, "our"); i >= 3 && slices.Contains(ourEndings, w[i+3:]) {
		add(w[:i] + "or" + w[i+3:])
	}
	for _, r := range britishEndings {
		if stem, ok := strings.CutSuffix(w, r[0]); ok && len(stem) >= 3 {
			add(stem + r[1])
		}
	}
	return out
}

// ourEndings are what may follow a British "-our": "colour", "colours",
// "coloured", "colouring", "favourite", "honourable", "flavourful".
var ourEndings = []string{"", "s", "ed", "ing", "ite", "ites", "able", "ably", "ful", "less", "ist", "ists"}

// britishEndings are word endings spelled one way in British English and
// another in American, each pair (British, American).
var britishEndings = [][2]string{
	{"isation", "ization"}, {"isations", "izations"},
	{"ise", "ize"}, {"ised", "ized"}, {"ises", "izes"}, {"ising", "izing"}, {"iser", "izer"}, {"isers", "izers"},
	{"yse", "yze"}, {"ysed", "yzed"}, {"yses", "yzes"}, {"ysing", "yzing"}, {"yser", "yzer"},
	{"tre", "ter"}, {"tres", "ters"},
	{"ogue", "og"}, {"ogues", "ogs"},
	{"ence", "ense"},
}

package claim

import (
	"slices"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
)

// Denial is a statement that a fault does not hold: "there is no version
// mismatch", "the cache is not the problem". Said after a statement that
// named that fault as found, it corrects it (Denies finds that statement):
// an investigation that reports the opposite of an earlier finding.
type Denial struct {
	Fault string   // the fault noun as written, lower-case: "mismatch"
	What  string   // the words naming the fault, as written: "version mismatch", "the cache"
	Words []string // their content-word stems other than the fault noun, sorted
	Start int      // byte span of the statement in the text
	End   int

	// where holds the stems of the complement that says where the fault is
	// ("in the resizer"): a statement naming the same fault somewhere else
	// is about another one.
	where []string
}

var (
	// faultNouns name something found wrong: the cause nouns, and the faults
	// a review or an audit reports. Singular only; Denies also reads their
	// plurals in the statement denied.
	faultNouns = lazywords.Lookup(`problem issue cause bug culprit bottleneck mismatch conflict leak race deadlock
		regression blocker vulnerability incompatibility inconsistency misconfiguration collision`)
	// fixWords say the fault went away, not that it never held: "there is
	// no race any more", "no conflict now that the port moved", "no leak
	// left after the fix", or name the change that removed it.
	fixWords = lazywords.Set(`anymore more longer now left remaining after since once until ` + fixChangeWords)
	// fixChanges, the part of fixWords that names the change, are read in
	// the statement before a denial too: "I put a lock around the pick.
	// There is no race". A word of time there is the account's own ("Now
	// let me look closer. There is no race").
	fixChanges = lazywords.Set(fixChangeWords)
	// inquiries before a fault noun make it a thing looked for, not found:
	// "let me check for a version mismatch".
	inquiries = lazywords.Lookup(`check checking verify verifying investigate investigating look looking test testing
		see rule ruling suspect whether any`)
	// denialLinks are the forms of "be" a denial is written with.
	denialLinks = lazywords.Lookup(`is was are were`)
	// negatedLinks deny with the link: "the cache isn't the problem".
	negatedLinks = lazywords.Lookup(`isn't wasn't aren't weren't`)
)

// fixChangeWords name a change that removed a fault: "with the patch in
// place", "I added a lock".
const fixChangeWords = `fixed resolved solved fix fixes fixing patch patched patching added adding put applied applying
	place workaround`

// maxFaultWords bounds the words naming a fault: a noun phrase.
const maxFaultWords = 5

// maxPlaceWords bounds the words of a fault's complement ("in the sync
// worker of the mobile app"): the place it is in.
const maxPlaceWords = 8

// maxStatementWords bounds the words of one statement Denials and Denies
// read: each reading of a fault looks across its statement, so a run-on
// paste with no sentence break would cost the square of its length.
const maxStatementWords = 200

// capped is s cut to its first maxStatementWords words.
func capped(toks []token, s statement) statement {
	if s.n > maxStatementWords {
		s.n = maxStatementWords
		s.end = toks[s.first+s.n-1].end
	}
	return s
}

// Denials returns the faults text says do not hold, in order. A denial
// opens its clause ("there is no …", "<subject> is not the problem"): one
// inside a clause of purpose or condition ("so there is no conflict", "make
// sure there is no leak") says what a change is for. Asked, hedged, believed
// before, or said of a fault that went away ("no longer", "any more",
// "fixed"), it is no denial.
func Denials(text string) []Denial {
	if len(text) > maxText {
		text = text[:maxText]
	}
	toks, sents := tokenize(text)
	var out []Denial
	for si, s := range sents {
		s = capped(toks, s)
		if fixed(toks, s, fixWords()) || si > 0 && fixed(toks, capped(toks, sents[si-1]), fixChanges()) {
			// "I put a lock around the pick. There is no race": the
			// fault went away.
			continue
		}
		end := s.first + s.n
		for k := s.first; k < end; k++ {
			if k > s.first && !clauseGap(text[toks[k-1].end:toks[k].start]) {
				continue // a denial opens its clause
			}
			d, ok := denialAt(text, toks, s, k)
			if !ok {
				continue
			}
			out = append(out, d)
			break
		}
	}
	return out
}

// fixed reports whether statement s holds one of words: it says a fault
// went away, or names the change that removed it.
func fixed(toks []token, s statement, words map[string]bool) bool {
	for k := s.first; k < s.first+s.n; k++ {
		if words[toks[k].s] {
			return true
		}
	}
	return false
}

// denialAt reads a denial opening at token k of statement s.
func denialAt(text string, toks []token, s statement, k int) (Denial, bool) {
	end := s.first + s.n
	switch {
	case toks[k].s == "there" && k+2 < end && denialLinks().Has(toks[k+1].s) && toks[k+2].s == "no",
		toks[k].s == "there" && k+1 < end && toks[k+1].s == "no" && contracted(text[toks[k].start:toks[k].end]):
		// "there is no version mismatch", "there's no version mismatch"
		first, noun := k+2, -1
		if toks[k+1].s != "no" {
			first++
		}
		for j := first; j < end && j < first+maxFaultWords; j++ {
			if j > first && clauseGap(text[toks[j-1].end:toks[j].start]) {
				break
			}
			if faultNouns().Has(toks[j].s) {
				noun = j
				break
			}
		}
		if noun < 0 || !head(text, toks, s, noun) {
			// "there is no issue tracker": the fault noun qualifies
			// another.
			return Denial{}, false
		}
		last, cut := complement(text, toks, s, noun)
		return denial(text, toks, s, first, last, cut, toks[noun].s)
	default:
		// "the cache is not the problem", "the cache isn't the real issue"
		v := -1
		for j := k; j < end && j <= k+maxFaultWords; j++ {
			if j > k && clauseGap(text[toks[j-1].end:toks[j].start]) {
				break
			}
			if negatedLinks().Has(toks[j].s) || denialLinks().Has(toks[j].s) && j+1 < end && toks[j+1].s == "not" {
				v = j
				break
			}
		}
		if v <= k {
			return Denial{}, false
		}
		j := v + 1
		if toks[v].s == "is" || toks[v].s == "was" || toks[v].s == "are" || toks[v].s == "were" {
			j++ // past "not"
		}
		for j < end && (toks[j].s == "the" || toks[j].s == "a" || toks[j].s == "an" || realQualifiers().Has(toks[j].s)) {
			j++
		}
		if j >= end || !causeNouns().Has(toks[j].s) || j+1 < end && !clauseGap(text[toks[j].end:toks[j+1].start]) && toks[j+1].s != "here" {
			// "X is not the problem" ends there: "X is not the problem
			// we saw yesterday" names another one.
			return Denial{}, false
		}
		return denial(text, toks, s, k, v-1, false, toks[j].s)
	}
}

// head reports whether noun i ends its noun phrase: the statement or its
// clause ends after it, or a function word follows ("no leak in the
// resizer"), not another noun it qualifies ("no issue tracker").
func head(text string, toks []token, s statement, i int) bool {
	return i+1 == s.first+s.n || clauseGap(text[toks[i].end:toks[i+1].start]) || scopeStop().Has(toks[i+1].s) ||
		causeStops().Has(toks[i+1].s) || prepositions().Has(toks[i+1].s)
}

// prepositions open a fault's complement: "no leak in the resizer".
var prepositions = lazywords.Lookup(`in on of between with for at from inside across under over into through during within via`)

// complement returns the last token of the words naming a fault whose noun
// is at i: the noun, or the end of a short complement after a preposition
// ("a version mismatch between the client and the server"). The complement
// ends before another preposition ("in the sync worker under load"); cut is
// true when it ran on past maxPlaceWords and was cut there.
func complement(text string, toks []token, s statement, i int) (last int, cut bool) {
	end := s.first + s.n
	if i+1 >= end || clauseGap(text[toks[i].end:toks[i+1].start]) || !prepositions().Has(toks[i+1].s) {
		return i, false
	}
	last = i
	for j := i + 1; j < end; j++ {
		if clauseGap(text[toks[j-1].end:toks[j].start]) || causeStops().Has(toks[j].s) && toks[j].s != "and" ||
			j > i+1 && prepositions().Has(toks[j].s) {
			break // "and" joins the two sides of "between"
		}
		if j > i+maxPlaceWords {
			return last, true
		}
		last = j
	}
	return last, false
}

// denial builds the Denial of statement s whose fault is named by
// toks[first:last+1], checking the statement says the fault never held;
// cut marks words naming it that run on past last.
func denial(text string, toks []token, s statement, first, last int, cut bool, fault string) (Denial, bool) {
	if first > last || !asserted(text, toks, s, first) {
		return Denial{}, false
	}
	d := Denial{Fault: fault, What: strings.ToLower(text[toks[first].start:toks[last].end]), Start: s.start, End: s.end}
	if cut {
		d.What += " …"
	}
	inWhere := false
	for k := first; k <= last; k++ {
		inWhere = inWhere || k > first && toks[k-1].s == fault && prepositions().Has(toks[k].s)
		d.Words = append(d.Words, faultStems(toks[k])...)
		if inWhere {
			d.where = append(d.where, placeStems(toks[k])...)
		}
	}
	if len(d.Words) == 0 {
		return Denial{}, false // "there is no problem": nothing to tell which
	}
	slices.Sort(d.Words)
	d.Words = slices.Compact(d.Words)
	return d, true
}

// contracted reports a word written with "'s" ("there's"), which the
// tokens drop.
func contracted(word string) bool {
	return strings.HasSuffix(word, "'s") || strings.HasSuffix(word, "\u2019s")
}

// faultStems are the stems of a token's content words other than a fault
// noun.
func faultStems(t token) []string {
	return tokenStems(t, func(w string) bool {
		return len(w) < 3 || scopeStop().Has(w) || prepositions().Has(w) || faultNouns().Has(w) || realQualifiers().Has(w) || w == "not"
	})
}

// placeStems are the stems of a token's words that name a place: all but
// articles and the like, so that "the build host" and "the preview host"
// differ by "build", which faultStems drops as a common word.
func placeStems(t token) []string {
	return tokenStems(t, func(w string) bool {
		return determiners().Has(w) || w == "and" || w == "or" || prepositions().Has(w) || faultNouns().Has(w)
	})
}

// tokenStems are the stems of a token's words that skip does not leave
// out; a token joined by "/" or "-" ("auth/session") holds several.
func tokenStems(t token, skip func(w string) bool) []string {
	var out []string
	for _, w := range strings.FieldsFunc(t.s, func(r rune) bool { return r == '/' || r == '-' }) {
		if !skip(w) {
			out = append(out, stem(w, t.hangul))
		}
	}
	return out
}

// within reports whether every word of a is in b.
func within(a, b []string) bool {
	for _, w := range a {
		if !slices.Contains(b, w) {
			return false
		}
	}
	return true
}

// samePlace reports whether two places' words name one place: the smaller
// is within the other ("the app" and "the mobile app"), not only a word in
// common ("the web app" and "the mobile app" are two apps).
func samePlace(a, b []string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return within(a, b)
}

// faultWindow is how far from a fault noun Denies looks for the words
// naming which fault it is: its noun phrase and a short complement.
const faultWindow = 4

// Denies returns the span of the first statement of older text that names
// as found the fault d denies: its fault noun (or the plural) with at least
// half of d's words beside it, in a clause that does not itself deny, ask, hedge or look
// for it. ok is false when none does.
func Denies(older string, d Denial) (start, end int, ok bool) {
	if len(older) > maxText {
		older = older[:maxText]
	}
	toks, sents := tokenize(older)
	denying := make(map[int]bool) // statements that deny a fault themselves
	for i, t := range toks {
		if t.s != d.Fault && t.s != d.Fault+"s" && t.s != d.Fault+"es" {
			continue
		}
		s := capped(toks, sents[t.sent])
		if i >= s.first+s.n {
			continue
		}
		denies, seen := denying[t.sent]
		if !seen {
			denies = len(Denials(older[s.start:s.end])) > 0
			denying[t.sent] = denies
		}
		if denies || !asserted(older, toks, s, i) {
			continue
		}
		lo, hi := i, i
		for lo > s.first && lo > i-faultWindow && !clauseGap(older[toks[lo-1].end:toks[lo].start]) {
			lo--
		}
		for hi < s.first+s.n-1 && hi < i+faultWindow {
			if gap := older[toks[hi].end:toks[hi+1].start]; clauseGap(gap) && (hi > i || strings.TrimSpace(strings.Trim(gap, "*_")) != ":") {
				// A label's colon ("Bottleneck: the report query")
				// opens what it names.
				break
			}
			hi++
		}
		denied := false
		for k := i - 1; k >= s.first; k-- {
			// Denied or looked for anywhere in the clause before the
			// noun: "we could not reproduce the version mismatch", "let
			// me check for a payload version mismatch".
			if clauseGap(older[toks[k].end:toks[k+1].start]) {
				break
			}
			if w := toks[k].s; w == "no" || w == "not" || w == "never" || w == "without" || strings.HasSuffix(w, "n't") || inquiries().Has(w) {
				denied = true
			}
		}
		var near, nearPlace, where []string
		for k := lo; k <= hi; k++ {
			near = append(near, faultStems(toks[k])...)
			if k > i+1 && prepositions().Has(toks[i+1].s) {
				where = append(where, placeStems(toks[k])...)
			}
		}
		// A place named before the fault may take more words than its
		// noun phrase: "the mobile app has a version mismatch".
		for k := i - 1; k >= s.first && k >= i-maxPlaceWords && !clauseGap(older[toks[k].end:toks[k+1].start]); k-- {
			nearPlace = append(nearPlace, placeStems(toks[k])...)
		}
		for k := i + 1; k <= hi; k++ {
			nearPlace = append(nearPlace, placeStems(toks[k])...)
		}
		if len(d.where) > 0 && (len(where) > 0 && !samePlace(where, d.where) || len(where) == 0 && !within(d.where, nearPlace)) {
			// The same fault somewhere else: "a leak in the web app",
			// "the renderer has a leak", then "no leak in the parser".
			continue
		}
		shared := 0
		for _, w := range d.Words {
			if slices.Contains(near, w) {
				shared++
			}
		}
		if 2*shared >= len(d.Words) && shared > 0 && !denied {
			// At least half of the words naming the denied fault: "no
			// issue with the token refresh endpoint" does not deny "the
			// issue is that the token expires".
			return s.start, s.end, true
		}
	}
	return 0, 0, false
}

package claim

import (
	"slices"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
)

// Diagnosis is what a statement names as the cause of a problem: "the
// problem is X", "root cause: X", "X is the real bottleneck". Its value is
// free text, not a named tool, so it is kept apart from Claim: two causes
// are compared by their words, not by an equal value.
type Diagnosis struct {
	Cause string   // the cause's words as written, lower-case
	Words []string // the cause's content-word stems, sorted
	// Revised is set when the statement says this is the real cause ("the
	// real problem", "the actual cause", "root cause"): a correction of
	// whatever was named before.
	Revised    bool
	Start, End int // byte span of the statement in the text (of a listed cause, its heading through the item)
	// Said is the content-word stems of the whole statement, sorted: what
	// it says around the cause ("… the glaze step's header … `$vault` …").
	Said []string
}

var (
	// causeNouns name the cause of a problem. Their plurals are read only
	// as a heading over a list ("## Root causes of the delay:"): in prose,
	// "the problems are" opens a list, not one cause.
	causeNouns = lazywords.Lookup(`problem issue cause bug culprit reason bottleneck`)
	// realQualifiers qualify a cause as the one that holds, after others.
	realQualifiers = lazywords.Lookup(`real actual true root underlying core`)
	// causeLinks may stand between a cause noun and the word before the
	// colon that opens the cause ("the real issue here is: …"): forms of
	// "be" and "have", and adverbs of place and time. The word right before
	// the colon may be any.
	causeLinks = lazywords.Lookup(`has have been was is here now`)
	// causeStops end the cause's words: a clause that explains or qualifies
	// it follows.
	causeStops = lazywords.Lookup(`because since which so when where while as but and that`)
	// hedges before a cause noun make it a possibility, not a finding: "if
	// the real problem is …", "maybe the root cause was …".
	hedges = lazywords.Lookup(`if whether unless maybe perhaps possibly might could`)
	// beliefs anywhere in the statement make its cause one held before, or
	// guessed: "at first I thought the real problem was …".
	beliefs = lazywords.Lookup(`thought assumed suspected believed guessed`)
	// statusWords say how the problem stands, not what caused it: "the root
	// cause is still unclear", "the real issue is now fixed".
	statusWords = lazywords.Lookup(`fixed resolved solved unclear unknown same still gone known different clear`)
)

// CauseNoun reports whether lower-case word w names the cause of a problem
// ("issue", "culprit"): the one table of them, shared with extraction.
func CauseNoun(w string) bool { return causeNouns().Has(w) }

// RealQualifier reports whether lower-case word w says a cause is the one
// that holds ("the real problem", "the root cause").
func RealQualifier(w string) bool { return realQualifiers().Has(w) }

// AsksCause reports whether text asks what caused a problem, in a
// statement ending in a question mark (text with none asks nothing): it
// asks what caused it ("what caused the crash?", "what's causing it?"),
// names the cause as a noun ("what was the cause?", "the culprit?"), or a
// cause noun qualified as the one that holds, as Diagnoses reads it ("the
// real reason", "the root cause"). Such a question is answered by a
// statement naming a cause, in whatever words it names the problem. A verb
// of causing without "what" forecasts ("will this cause a regression?",
// "how do I cause a panic?"); a bare "reason" ("the reason we chose X") or
// "why" asks as often why something was chosen; a word in a code span
// (a field named cause, in backquotes) names code.
func AsksCause(text string) bool {
	return asksWord(text, func(toks []token, s statement, i int) bool {
		w := toks[i].s
		switch {
		case w == "root-cause":
			return true
		case causeVerbs().Has(w):
			for j := max(s.first, i-3); j < i; j++ {
				if toks[j].s == "what" || toks[j].s == "what's" {
					return true // "what caused", "what could have caused", "what's causing"
				}
			}
		}
		// "the cause", "the culprit"; any cause noun qualified as the one
		// that holds ("the real reason", "the root cause").
		return (w == "cause" || w == "culprit") && i > s.first && determiners().Has(toks[i-1].s) || causeNouns().Has(w) && qualified(toks, s, i)
	})
}

// asksWord reports whether asks holds for a word i of a statement s of
// text ending in a question mark (text with none asks nothing), not in a
// code span: a word in backquotes names code.
func asksWord(text string, asks func(toks []token, s statement, i int) bool) bool {
	if len(text) > maxText {
		text = text[:maxText]
	}
	toks, sents := tokenize(text)
	for _, s := range sents {
		if !question(text, s) {
			continue
		}
		for i := s.first; i < s.first+s.n; i++ {
			if !strings.HasSuffix(text[:toks[i].start], "`") && asks(toks, s, i) {
				return true
			}
		}
	}
	return false
}

// failureWords name a failure: an error, something that broke, failed or
// crashed, or went wrong ("what was wrong with it?"). Every form is listed:
// they are few, and a stem would take "breakpoint" and "failover".
var failureWords = lazywords.Lookup(`error errors broke broken break breaks breaking fail fails failed failing failure
	failures crash crashes crashed crashing exception exceptions panic panicked traceback wrong`)

// FailureWord reports whether lower-case word w names a failure.
func FailureWord(w string) bool { return failureWords().Has(w) }

// AsksFailure reports whether text asks about a failure, in a statement
// ending in a question mark: one naming an error, or something that broke,
// failed or crashed ("what error came out of the type check?", "what broke
// the build?"), not in a code span. Such a question is answered by the
// failed run's output, in whatever words it names what ran.
func AsksFailure(text string) bool {
	return asksWord(text, func(toks []token, s statement, i int) bool {
		// "The wrong approach", "a wrong branch": a choice judged, not a
		// failure.
		return failureWords().Has(toks[i].s) && !(toks[i].s == "wrong" && i > s.first && determiners().Has(toks[i-1].s))
	})
}

// question reports statement s of text ending in a question mark, past
// closing quotes and emphasis.
func question(text string, s statement) bool {
	q := strings.TrimRight(text[s.start:s.end], ` "')*_`)
	return strings.HasSuffix(q, "?") || strings.HasSuffix(q, "？")
}

// causeVerbs ask what brought a problem about, after "what".
var causeVerbs = lazywords.Lookup(`cause causes causing caused`)

// qualified reports cause noun i of statement s qualified as the one that
// holds: a qualifier right before it ("the real problem", "the root
// cause").
func qualified(toks []token, s statement, i int) bool {
	return i > s.first && realQualifiers().Has(toks[i-1].s)
}

// maxCauseWords bounds a cause's words: the head of the clause names it.
const maxCauseWords = 8

// Diagnoses returns the causes text names, in order.
func Diagnoses(text string) []Diagnosis {
	if len(text) > maxText {
		text = text[:maxText]
	}
	toks, sents := tokenize(text)
	var out []Diagnosis
	for i, t := range toks {
		if t.hangul {
			continue
		}
		plural := !causeNouns().Has(t.s)
		if base, ok := strings.CutSuffix(t.s, "s"); plural && (!ok || !causeNouns().Has(base)) {
			continue
		}
		s := sents[t.sent]
		revised := qualified(toks, s, i)
		det := i > s.first && toks[i-1].s == "the" || revised && i-1 > s.first && toks[i-2].s == "the"
		if !revised && !det {
			continue // "a problem", "no issue": no cause named
		}
		if !asserted(text, toks, s, i) {
			continue
		}
		k, found := causeStart(text, toks, s, i)
		if item, ok := listed(text, toks, sents, t.sent); ok && !found && headsHeading(toks, s, i) {
			// "## Root causes of the delay:" over a list: its first item
			// names the cause, up to its label's colon. A list of causes
			// corrects no earlier one: only a single cause so headed is
			// claimed as the real one.
			first, last := item.first, labelEnd(text, toks, item)
			if d, ok := diagnosis(text, toks, first, last, revised && !plural, s.start, item.end); ok {
				out = append(out, d)
			}
			continue
		}
		if plural {
			continue // "the problems are": a list in prose, not one cause
		}
		var first, last int
		if found {
			k = passiveCause(toks, s, k)
			first, last = k, causeEnd(text, toks, s, k)
		} else if revised && det {
			// "X is the real bottleneck": the cause is the subject.
			v := i - 3
			if v < s.first || toks[v].s != "is" && toks[v].s != "was" {
				continue
			}
			first, last = max(s.first, v-maxCauseWords), v-1
			for k := v - 1; k >= first; k-- {
				if causeStops().Has(toks[k].s) || clauseGap(text[toks[k].end:toks[k+1].start]) {
					first = k + 1
					break
				}
			}
		} else {
			continue
		}
		if first < s.first || last >= s.first+s.n {
			continue // the cause lies outside the statement
		}
		if d, ok := diagnosis(text, toks, first, last, revised, s.start, s.end); ok {
			out = append(out, d)
		}
	}
	return out
}

// diagnosis is the cause toks[first:last+1] names, stated in text[start:end],
// if it names one.
func diagnosis(text string, toks []token, first, last int, revised bool, start, end int) (Diagnosis, bool) {
	for last > first && scopeStop().Has(toks[last].s) {
		last-- // "the node has": the cause ends at its last content word
	}
	if first > last || !namesCause(toks[first:last+1]) {
		return Diagnosis{}, false
	}
	cause := strings.ToLower(text[toks[first].start:toks[last].end])
	if strings.Contains(cause, "…") {
		// An excerpt's or a quote's elision lies inside: the words on its
		// two sides were apart ("the root cause was simply … the kiln
		// queue runs again").
		return Diagnosis{}, false
	}
	if strings.Count(cause, "`")%2 == 1 {
		cause = strings.ReplaceAll(cause, "`", "") // a code span cut in two
	}
	d := Diagnosis{Cause: cause, Revised: revised, Start: start, End: end}
	for k := first; k <= last; k++ {
		w := toks[k].s
		if len(w) < 3 || scopeStop().Has(w) || causeNouns().Has(w) || realQualifiers().Has(w) {
			continue
		}
		d.Words = append(d.Words, stem(w, toks[k].hangul))
	}
	if len(d.Words) == 0 || pronounOnly(toks[first:last+1]) {
		return Diagnosis{}, false // "this is the real bottleneck": the cause is elsewhere
	}
	slices.Sort(d.Words)
	d.Words = slices.Compact(d.Words)
	for _, t := range toks {
		if t.start < start || t.end > end {
			continue
		}
		// An identifier's parts are words of their own: "`$vault.KILN_TOKEN`"
		// says "vault" as "through `$vault`" does.
		for _, w := range strings.FieldsFunc(t.s, func(r rune) bool { return r == '.' || r == '_' }) {
			if len(w) >= 3 && !scopeStop().Has(w) && !causeNouns().Has(w) && !realQualifiers().Has(w) {
				d.Said = append(d.Said, stem(w, t.hangul))
			}
		}
	}
	slices.Sort(d.Said)
	d.Said = slices.Compact(d.Said)
	return d, true
}

// passiveCause is where the cause starts in a clause starting at k that
// names the effect and then its cause ("the build error is caused by a
// stale lockfile"): after the "caused by" within maxCauseWords, else k.
func passiveCause(toks []token, s statement, k int) int {
	end := min(s.first+s.n, k+maxCauseWords)
	for j := k; j < end && j+2 < s.first+s.n; j++ {
		if causeVerbs().Has(toks[j].s) && toks[j+1].s == "by" {
			return j + 2
		}
	}
	return k
}

// labelEnd is the last token of the label that opens list item s
// ("**Duplicate `requireUser()` calls**: Layout calls it once"): up to its
// colon, comma or long dash, at most maxCauseWords. A call's parentheses are
// part of the label.
func labelEnd(text string, toks []token, s statement) int {
	end := min(s.first+s.n, s.first+maxCauseWords)
	last := s.first
	for j := s.first + 1; j < end; j++ {
		if strings.ContainsAny(text[toks[j-1].end:toks[j].start], ",:—–") || causeStops().Has(toks[j].s) {
			break
		}
		last = j
	}
	return last
}

// maxHeadingWords bounds a heading over a list of causes ("Root causes of
// the 2-3 second delay:").
const maxHeadingWords = 12

// listed returns the first item of the list that statement h heads: h is a
// short line ending in a colon, and the next line opens a list ("1.", "-",
// "*"), its number a statement of its own.
func listed(text string, toks []token, sents []statement, h int) (statement, bool) {
	s := sents[h]
	if s.n > maxHeadingWords || !strings.HasSuffix(strings.TrimRight(text[s.start:s.end], "*_ "), ":") || h+1 >= len(sents) {
		return statement{}, false
	}
	item, gap := sents[h+1], text[s.end:sents[h+1].start]
	if marker := strings.TrimSpace(text[item.start:item.end]); len(marker) <= 3 && strings.HasSuffix(marker, ".") && item.n == 1 && isDigits(toks[item.first].s) {
		// "1." read as a statement of its own: the item is the next one.
		if h+2 >= len(sents) || strings.Contains(text[item.end:sents[h+2].start], "\n") {
			return statement{}, false
		}
		return sents[h+2], true
	}
	// A bullet and a space: "**Bold**" opening the line is no bullet.
	line := strings.TrimLeft(gap[strings.LastIndexByte(gap, '\n')+1:], " \t")
	if !strings.HasPrefix(line, "- ") && !strings.HasPrefix(line, "* ") && !strings.HasPrefix(line, "• ") {
		return statement{}, false
	}
	return item, true
}

// headsHeading reports cause noun i of heading s as the heading's head: its
// last word, or followed by "of" or "behind" ("Root causes of the delay:").
// "The real problem with this plan:" heads a list of steps, "The reasons we
// chose Postgres:" and "The actual reason for the rewrite:" lists of merits.
func headsHeading(toks []token, s statement, i int) bool {
	return i == s.first+s.n-1 || i+1 < s.first+s.n && (toks[i+1].s == "of" || toks[i+1].s == "behind")
}

// causeStart finds where the cause named after noun i begins: after "is",
// "was", "turned out to be", or a colon (possibly after a few linking words).
func causeStart(text string, toks []token, s statement, i int) (int, bool) {
	end := s.first + s.n
	for k := i; k < end-1 && k <= i+4; k++ {
		if strings.Contains(text[toks[k].end:toks[k+1].start], ":") {
			return k + 1, true
		}
		if k > i && !causeLinks().Has(toks[k].s) {
			break
		}
	}
	j := i + 1
	if j+4 < end && toks[j].s == "turned" && toks[j+1].s == "out" && toks[j+2].s == "to" && toks[j+3].s == "be" {
		return j + 4, true
	}
	if j+1 < end && (toks[j].s == "is" || toks[j].s == "was") {
		k := j + 1
		if toks[k].s == "that" && k+1 < end {
			k++
		}
		return k, true
	}
	return 0, false
}

// asserted reports whether the statement holding cause noun i states its
// cause as found: not asked ("?"), not a hedge just before the noun, and not
// a belief held before.
func asserted(text string, toks []token, s statement, i int) bool {
	if question(text, s) {
		return false
	}
	for k := i - 1; k >= s.first && k >= i-5; k-- {
		if clauseGap(text[toks[k].end:toks[k+1].start]) {
			break // "if it fails again, the real problem is …"
		}
		if hedges().Has(toks[k].s) {
			return false
		}
	}
	for k := s.first; k < s.first+s.n; k++ {
		if beliefs().Has(toks[k].s) || toks[k].s == "first" && k > s.first && toks[k-1].s == "at" {
			return false
		}
	}
	return true
}

// namesCause reports whether a cause's tokens name something: not a
// negation ("not the cache", "no longer the DNS") and not a status ("still
// unclear", "now fixed", "resolved by a restart").
func namesCause(ts []token) bool {
	k := 0
	for k < len(ts)-1 && (ts[k].s == "the" || ts[k].s == "a" || ts[k].s == "an" || ts[k].s == "now") {
		k++
	}
	negated := ts[0].s == "not" || ts[0].s == "no" && len(ts) > 1 && ts[1].s == "longer"
	return !negated && !statusWords().Has(ts[k].s)
}

// causeEnd is the last token of a cause starting at k.
func causeEnd(text string, toks []token, s statement, k int) int {
	end := min(s.first+s.n, k+maxCauseWords)
	last := k
	// A cause set in bold ("is caused by **invalid model name** in the
	// notifier") ends where the bold does.
	bold := strings.HasSuffix(text[:toks[k].start], "**")
	for j := k + 1; j < end; j++ {
		gap := text[toks[j-1].end:toks[j].start]
		if causeStops().Has(toks[j].s) || clauseGap(gap) || bold && strings.Contains(gap, "**") {
			break
		}
		last = j
	}
	return last
}

// clauseGap reports punctuation between two words that ends a clause.
func clauseGap(gap string) bool { return strings.ContainsAny(gap, ",:()—–") }

func pronounOnly(ts []token) bool {
	return len(ts) == 1 && (ts[0].s == "this" || ts[0].s == "that" || ts[0].s == "it")
}

// Revises reports whether a later diagnosis n corrects an earlier one o: it
// says it names the real cause, and the cause it names is another one, with
// at most half of its words in common ("fonts downloaded for every page" then
// "the real problem is the API throttling us"); the same cause restated in
// other words shares most of them. Half, not none: two causes of one
// component's failure both name the component.
//
// A newer statement that says most of what the older one said is the
// older diagnosis told again, whatever its subject ("kiln secrets are not
// readable through `$vault` in the glaze step's header", then "the core
// issue: the kiln pipeline's glaze step has a header that reads `$vault`,
// which never resolves"): at least minRestated of the older statement's
// words, and half.
func Revises(o, n Diagnosis) bool {
	return n.Revised && 2*Shared(o, n) <= min(len(o.Words), len(n.Words)) && !restated(o, n)
}

// minRestated is the fewest words of an older statement a newer one must
// say again to restate it: a few words of a project's component are shared
// by any two statements about it.
const minRestated = 4

// restated reports a newer diagnosis n that tells the older o again: its
// statement says at least minRestated of the older statement's words, and
// half of them, and the older statement names half of the cause n names.
// A revision that names the cause it drops ("the real issue is the stale
// DNS cache, not the API's rate limit") says the older's words too, but
// its own cause is one the older statement never named.
func restated(o, n Diagnosis) bool {
	said := func(ws, in []string) int {
		k := 0
		for _, w := range ws {
			if _, ok := slices.BinarySearch(in, w); ok {
				k++
			}
		}
		return k
	}
	common := said(o.Said, n.Said)
	return common >= minRestated && 2*common >= len(o.Said) && 2*said(n.Words, o.Said) >= len(n.Words)
}

// Shared counts the words two causes have in common.
func Shared(o, n Diagnosis) int {
	shared := 0
	for _, w := range n.Words {
		if slices.Contains(o.Words, w) {
			shared++
		}
	}
	return shared
}

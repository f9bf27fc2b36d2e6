package claim

import (
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
)

// A count of a thing no table knows ("12 agents", "5 focused agents") is a
// value only where a statement changes it: "from 12 agents down to 5",
// "5 agents (down from 12)", "consolidated 12 agents into 5", "12 → 5
// agents". A text states many counts of different things ("3 files
// changed"), so a count said alone is no claim; the statement that stated
// the replaced count is found by Counts, once a change names it.

// countPrefix starts the role of a counted thing: "number of agents".
const countPrefix = "number of "

// CountRole reports whether role is the count of a thing read from the
// sentence ("number of agents").
func CountRole(role string) bool { return strings.HasPrefix(role, countPrefix) }

// countLinks are the words between a count and the number it changes to
// ("down to 5", "into 5") or from ("down from 12").
var (
	countTo   = wordSet(`to into`)
	countFrom = wordSet(`from`)
	countWay  = wordSet(`down up back`)
)

// nounStop are words that are not the counted thing nor a word describing
// it: a count followed by one of them counts nothing named.
var nounStop = wordSet(`a an the and or but of to in on at for from with by as is are was were be been it its this that
	these those than then into onto down up back per vs versus out over under via each every all more less most fewer`)

// countedNoun returns the thing counted by the number at token i: the first
// plural word within three words after it, the words before it describing
// it ("5 highly-focused agents"), and that word's index; -1 if none.
func (p *parser) countedNoun(i int) (string, int) {
	for k, n := i+1, 0; k < len(p.toks) && n < 3; k, n = k+1, n+1 {
		t := p.toks[k]
		if t.sent != p.toks[i].sent || t.hangul || t.particle != "" || p.clauseBreak(k-1) || !letterWord(t.s) || nounStop[t.s] {
			return "", -1
		}
		if _, set := countNouns[t.s]; set || t.s == "requests" {
			return "", -1 // a setting count reads it ("5 retries")
		}
		if plural.Singulars(t.s) != nil && durationOf("1"+t.s, "") == "" && units[t.s] == 0 {
			return t.s, k
		}
	}
	return "", -1
}

// letterWord: lower-case letters, inner hyphens allowed ("highly-focused").
func letterWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c == '-' && i > 0 && i < len(s)-1) {
			return false
		}
	}
	return s != ""
}

// arrowBetween reports an arrow ("→", "->") between tokens k and k+1.
func (p *parser) arrowBetween(k int) bool {
	if k < 0 || k+1 >= len(p.toks) {
		return false
	}
	gap := p.text[p.toks[k].end:p.toks[k+1].start]
	return strings.Contains(gap, "→") || strings.Contains(gap, "->")
}

// countEnd checks the number at token k as the other side of a change of
// the count of noun: a bare number that ends its clause or that a function
// word follows, or one counting
// the same thing ("into 5 focused agents"). It returns the last token of
// that side, -1 if the number counts something else ("to 5 teams").
func (p *parser) countEnd(k int, noun string) int {
	if k >= len(p.toks) || !isDigits(p.toks[k].s) || p.toks[k].particle != "" || p.owner[k] != 0 {
		return -1
	}
	if w, last := p.countedNoun(k); last >= 0 {
		if plural.Same(w, noun) {
			return last
		}
		return -1
	}
	if k+1 == len(p.toks) || p.toks[k+1].sent != p.toks[k].sent || p.clauseBreak(k) || nounStop[p.toks[k+1].s] {
		return k // "down to 5", "down to 5 to save time"
	}
	return -1
}

// countChange reads a change of a count starting at token i, a number:
// "12 agents down to 5", "5 agents (down from 12)", "from 12 to 5 agents",
// "12 → 5 agents". It adds both sides as mentions, the older marked old.
func (p *parser) countChange(i int) bool {
	if !isDigits(p.toks[i].s) || p.toks[i].particle != "" {
		return false
	}
	sent := p.toks[i].sent
	word := func(k int) string {
		if k < len(p.toks) && p.toks[k].sent == sent {
			return p.toks[k].s
		}
		return ""
	}
	both := func(noun string, oldF, oldL, newF, newL int) bool {
		role := countPrefix + noun
		n := len(p.ms)
		first, firstL, second, secondL := oldF, oldL, newF, newL
		if newF < oldF {
			first, firstL, second, secondL = newF, newL, oldF, oldL
		}
		p.add(role, countValue(p.toks[first].s), first, firstL)
		p.add(role, countValue(p.toks[second].s), second, secondL)
		if len(p.ms) != n+2 || p.ms[n].value == p.ms[n+1].value {
			// A side overlapped another mention: keep neither.
			for _, m := range p.ms[n:] {
				for k := m.first; k <= m.last; k++ {
					p.owner[k] = 0
				}
			}
			p.ms = p.ms[:n]
			return false
		}
		o, nw := n, n+1
		if newF < oldF {
			o, nw = n+1, n
		}
		p.ms[o].old = true
		p.ms[nw].new = true
		return true
	}
	noun, last := p.countedNoun(i)
	if last < 0 {
		// "from 12 to 5 agents", "12 → 5 agents": the thing named once, after the newer.
		k := i + 1
		if p.arrowBetween(i) {
		} else if countTo[word(k)] && !p.clauseBreak(i) {
			k++
		} else {
			return false
		}
		if w, l := p.countedNoun(k); l >= 0 && isDigits(word(k)) && p.toks[k].particle == "" && p.owner[k] == 0 {
			return both(w, i, i, k, l)
		}
		return false
	}
	k := last + 1
	if p.arrowBetween(last) {
		// "12 agents → 5"
		if e := p.countEnd(k, noun); e >= 0 {
			return both(noun, i, last, k, e)
		}
		return false
	}
	if countWay[word(k)] {
		k++
	}
	switch w := word(k); {
	case countTo[w]:
		if e := p.countEnd(k+1, noun); e >= 0 {
			return both(noun, i, last, k+1, e)
		}
	case countFrom[w]:
		if e := p.countEnd(k+1, noun); e >= 0 {
			return both(noun, k+1, e, i, last)
		}
	}
	return false
}

func countValue(s string) string {
	if s = strings.TrimLeft(s, "0"); s == "" {
		return "0"
	}
	return s
}

// Counts returns the span of the first statement of text that counts the
// thing of a count role with value ("12 parallel agents", "a 12-agent
// plan"), and whether there is one: the older side of a change of count,
// which is no claim on its own.
func Counts(text, role, value string) (start, end int, ok bool) {
	noun, isCount := strings.CutPrefix(role, countPrefix)
	if !isCount || value == "" {
		return 0, 0, false
	}
	if len(text) > maxText {
		text = text[:maxText]
	}
	toks, sents := tokenize(text)
	p := parser{text: text, toks: toks, sents: sents, owner: make([]int16, len(toks))}
	for i, t := range toks {
		hit := false
		if n, w, joined := strings.Cut(t.s, "-"); joined && n == value && letterWord(w) {
			hit = plural.Same(w, noun) // "a 12-agent plan"
		} else if isDigits(t.s) && countValue(t.s) == value {
			w, last := p.countedNoun(i)
			hit = last >= 0 && plural.Same(w, noun)
		}
		if hit {
			s := sents[t.sent]
			return s.start, s.end, true
		}
	}
	return 0, 0, false
}

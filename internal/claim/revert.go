package claim

import (
	"slices"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
)

// Reversion is a statement that a change was undone: "I've reverted the
// buttons back to scroll behavior", "Rolled back the schema migration".
// What it undid was said before it, by whoever made the change; Reverts
// finds that statement by the words the two share.
type Reversion struct {
	// Words are the content-word stems naming what was undone, sorted: the
	// verb's clause, up to the state it went back to ("back to scroll
	// behavior", "→ 30s"), which the statement undone never named.
	Words      []string
	Start, End int // byte span of the statement in the text
}

var (
	// revertVerbs are the past forms that say a change was undone on their
	// own. Not "undone": "two tasks are still undone" is the adjective.
	revertVerbs = lazywords.Lookup(`reverted undid`)
	// revertBack say it with "back" after them: "rolled back the
	// migration", "changed the buttons back to scroll". Other verbs with
	// "back" mostly move about ("went back to the logs", "put back in the
	// queue", "set us back a day").
	revertBack = lazywords.Lookup(`rolled changed switched`)
	// intents make a statement one of what is meant: "let me update the
	// buttons", "we need to point them at checkout".
	intents = lazywords.Lookup(`let let's lets need needs want wants going please`)
	// notDone before an undoing's verb say it was not done, is wanted, or
	// is asked to be checked (parser.done reads negation, modals and
	// conditions): "no files were reverted", "none of them were reverted",
	// "you want the buttons reverted", "make sure the buttons were reverted".
	notDone = lazywords.Lookup(`to cannot no none without sure want wants need needs`)
	// subjectWords may stand before the verb as who undid it, or make it
	// passive ("the buttons were reverted"): a third party's "Postgres
	// rolled the transaction back" reports no change of the session's.
	subjectWords = lazywords.Lookup(`i we you i've we've you've have has had is are was were been be`)
	// koreanReverts are the past stems of undoing in Korean, and the
	// endings that state them as done ("되돌렸습니다", "롤백했어요"), not
	// asked or supposed ("되돌렸는지", "되돌렸다면").
	koreanReverts = []string{"되돌렸", "롤백했"}
	koreanStated  = []string{"습니다", "어요", "다", "고", "음"}
)

// maxBackGap bounds the words between a verb of revertBack and its "back":
// an object ("changed the pricing buttons back").
const maxBackGap = 4

// Reversions returns the statements of text that report a change undone,
// in order: a past verb of undoing (revertAt) that reports what was done
// (parser.done: asked, negated, modal or conditional is not), not meant
// (meant) and said by the session (bySession). Fenced code is a log
// or a file, not a report. A statement naming nothing but the undoing
// ("Reverted.") names nothing to find.
func Reversions(text string) []Reversion {
	if len(text) > maxText {
		text = text[:maxText]
	}
	text = unfenced(text)
	toks, sents := tokenize(text)
	p := &parser{text: text, toks: toks, sents: sents}
	var out []Reversion
	for _, s := range sents {
		s = capped(toks, s)
		v := revertAt(p, s)
		if v < 0 || !p.done(v) || meant(p, s, v) || !bySession(p, s, v) {
			continue
		}
		r := Reversion{Words: undoneWords(p, s, v), Start: s.start, End: s.end}
		if len(r.Words) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// revertAt returns the token of statement s that says a change was undone,
// or -1.
func revertAt(p *parser, s statement) int {
	end := s.first + s.n
	for k := s.first; k < end; k++ {
		t := p.toks[k]
		if t.hangul {
			for _, stem := range koreanReverts {
				if i := strings.Index(t.s, stem); i >= 0 && slices.ContainsFunc(koreanStated, func(e string) bool {
					return strings.HasPrefix(t.s[i+len(stem):], e)
				}) {
					return k
				}
			}
			continue
		}
		if revertVerbs().Has(t.s) {
			return k
		}
		if !revertBack().Has(t.s) {
			continue
		}
		for j := k + 1; j < end && j <= k+maxBackGap && !p.clauseBreak(j-1); j++ {
			if p.toks[j].s == "back" {
				if j > k+1 || t.s == "rolled" {
					// "changed back in Go 1.22", "switched back to main":
					// nothing named was put back.
					return k
				}
				break
			}
		}
	}
	return -1
}

// meant reports a wish, a check or a denial before the verb at token v in
// its clause ("you want them reverted", "verify the migration was rolled
// back", "no files were reverted"), or a negation written with a curly
// apostrophe, which the tokenizer splits ("haven’t": "haven", "t").
func meant(p *parser, s statement, v int) bool {
	for k := v - 1; k >= s.first; k-- {
		w := p.toks[k].s
		if notDone().Has(w) || inquiries().Has(w) || w == "t" && k > s.first && p.text[p.toks[k-1].end:p.toks[k].start] == "\u2019" {
			return true
		}
		if p.clauseBreak(k - 1) {
			break
		}
	}
	return false
}

// bySession reports whether the undoing at token v is the session's: its
// verb opens its clause, after at most one adverb ("Reverted the
// buttons", "Also rolled back the migration"), or a person or a form of
// "be" comes within three words before it ("I've reverted", "the buttons
// were reverted"). Korean leaves the subject out.
func bySession(p *parser, s statement, v int) bool {
	if p.toks[v].hangul {
		return true
	}
	start := clauseStart(p, s, v)
	switch {
	case start == v:
		return true
	case start == v-1 && (strings.HasSuffix(p.toks[start].s, "ly") || p.toks[start].s == "also" || p.toks[start].s == "then"):
		return true
	}
	for k := v - 1; k >= start && k >= v-3; k-- {
		if subjectWords().Has(p.toks[k].s) {
			return true
		}
	}
	return false
}

// undoneWords are the stems naming what the undoing at token v undid: its
// clause's words, up to a "back" after it, an arrow or "but" ("reverted
// the header but not the buttons"), without the verb, persons and common
// words.
func undoneWords(p *parser, s statement, v int) []string {
	start := clauseStart(p, s, v)
	var words []string
	for k := start; k < s.first+s.n; k++ {
		if k > start && p.clauseBreak(k-1) || p.toks[k].arrow || p.toks[k].s == "but" {
			break
		}
		if k > v && p.toks[k].s == "back" {
			if k > v+1 || k+1 < s.first+s.n && p.toks[k+1].s == "to" {
				break // "the buttons back to scroll", "rolled back to 1.2": what holds again
			}
			continue // "rolled back the migration"
		}
		if k != v && !pronouns().Has(p.toks[k].s) {
			words = append(words, revertStems(p.toks[k])...)
		}
	}
	slices.Sort(words)
	return slices.Compact(words)
}

// clauseStart is the first token of the clause of statement s holding
// token v.
func clauseStart(p *parser, s statement, v int) int {
	for v > s.first && !p.clauseBreak(v-1) {
		v--
	}
	return v
}

// revertStems are the stems of a token's words that can name what was
// undone: not the common words of a statement, nor of English at large
// ("later", "change", "again": Zipf 5 and up), which any statement may
// share.
func revertStems(t token) []string {
	return tokenStems(t, func(w string) bool {
		return len(w) < 3 || w == "back" || scopeStop().Has(w) || prepositions().Has(w) || wordfreq.Zipf(w) >= commonZipf
	})
}

// commonZipf is the Zipf frequency from which an English word is common
// enough to name nothing in particular: "change" 5.4, "later" 5.5; "file"
// and "page" (4.7, 4.6) still name a thing in a coding session.
const commonZipf = 5.0

// Reverts returns the span of the statement of older text that made the
// change r undid, and how many of r's words it shares: of the statements
// sharing at least half of them, the one sharing most, the first on a tie
// (an account of changes names each before its details: "Linked payment
// buttons to …", then "Updated the pricing section button", which the
// undoing may have spared). An excerpt's elided text cuts a statement in
// two (pieces). Questions, plans and offers ("let me update the buttons",
// "I could point them at checkout") made no change, and a statement
// undoing something itself is no such statement. ok is false when none is
// found.
func Reverts(older string, r Reversion) (start, end, shared int, ok bool) {
	if len(older) > maxText {
		older = older[:maxText]
	}
	older = unfenced(older)
	toks, sents := tokenize(older)
	p := &parser{text: older, toks: toks, sents: sents}
	for _, s := range pieces(p, sents) {
		if revertAt(p, s) >= 0 || offered(p, s) {
			continue
		}
		var words []string
		for k := s.first; k < s.first+s.n; k++ {
			words = append(words, revertStems(toks[k])...)
		}
		n := 0
		for _, w := range r.Words {
			if slices.Contains(words, w) {
				n++
			}
		}
		if n > shared && 2*n >= len(r.Words) {
			start, end, shared, ok = s.start, s.end, n, true
		}
	}
	return start, end, shared, ok
}

// pieces are the statements sents, each cut where an excerpt elided text
// ("Tech Stack: … /api/demo/route.ts - Demo endpoint"): the words on either
// side of a cut were never one statement.
func pieces(p *parser, sents []statement) []statement {
	var out []statement
	for _, s := range sents {
		s = capped(p.toks, s)
		first := s.first
		for k := s.first; k < s.first+s.n; k++ {
			if k+1 < s.first+s.n && !p.elided(k) {
				continue
			}
			piece := statement{start: p.toks[first].start, end: p.toks[k].end, first: first, n: k + 1 - first}
			if first == s.first {
				piece.start = s.start
			}
			if k+1 == s.first+s.n {
				piece.end = s.end
			}
			out = append(out, piece)
			first = k + 1
		}
	}
	return out
}

// offered reports a statement that asks, plans or offers: a question, or
// an intent, a modal or a hedge in it.
func offered(p *parser, s statement) bool {
	if question(p.text, s) {
		return true
	}
	for k := s.first; k < s.first+s.n; k++ {
		if w := p.toks[k].s; intents().Has(w) || modals().Has(w) || hedges().Has(w) || undone().Has(w) {
			return true
		}
	}
	return false
}

// unfenced is text with its fenced code blocks (``` or ~~~) blanked to
// spaces, lines and byte offsets kept: a log's "transaction rolled back"
// or a file's lines report nothing the session did.
func unfenced(text string) string {
	if !strings.Contains(text, "```") && !strings.Contains(text, "~~~") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	fenced := false
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		fence := strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
		if fence || fenced {
			b.WriteString(strings.Repeat(" ", len(strings.TrimRight(line, "\n"))))
			if strings.HasSuffix(line, "\n") {
				b.WriteByte('\n')
			}
		} else {
			b.WriteString(line)
		}
		if fence {
			fenced = !fenced
		}
	}
	return b.String()
}

package align

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
)

// A quote cut from a message on rune boundaries always aligns exactly, to a
// place with the same text (possibly an earlier occurrence).
func TestQuoteCutAlignsExact(t *testing.T) {
	t.Parallel()
	g := newTextGen(1)
	msgs := g.session(200)
	s := NewSession(msgs)
	tested := 0
	for range 3000 {
		i := g.r.IntN(len(msgs))
		quote := g.cut(msgs[i], 1, 300)
		if normalizeQuote(quote) == "" {
			continue
		}
		tested++
		got := s.Quote(quote, i)
		checkSpan(t, got, quote, msgs)
		if got.Method != Exact || got.Message != i {
			t.Fatalf("Quote(%q, %d) = %+v, want exact in message %d", quote, i, got, i)
		}
		if got, want := msgs[i][got.Start:got.End], strings.TrimFunc(quote, unicode.IsSpace); got != want {
			t.Fatalf("Quote(%q) text = %q, want %q", quote, got, want)
		}
	}
	if tested < 2500 {
		t.Fatalf("only %d of 3000 cuts were tested", tested)
	}
}

// A cut changed only in ways normalization undoes aligns exactly or
// normalized, to text that normalizes like the quote.
func TestQuotePerturbedAlignsNormalized(t *testing.T) {
	t.Parallel()
	g := newTextGen(2)
	msgs := g.session(200)
	s := NewSession(msgs)
	normalized := 0
	for range 2000 {
		i := g.r.IntN(len(msgs))
		quote := g.perturbNormalized(g.cut(msgs[i], 1, 300))
		if normalizeQuote(quote) == "" {
			continue
		}
		got := s.Quote(quote, i)
		checkSpan(t, got, quote, msgs)
		if got.Method != Exact && got.Method != Normalized {
			t.Fatalf("Quote(%q, %d) = %+v, want exact or normalized", quote, i, got)
		}
		if got.Method == Normalized {
			normalized++
		}
	}
	if normalized < 1000 {
		t.Fatalf("only %d of 2000 perturbed cuts aligned normalized", normalized)
	}
}

// A cut with about one typo per 30 runes aligns fuzzily in its message.
func TestQuoteTyposAlignFuzzy(t *testing.T) {
	t.Parallel()
	g := newTextGen(3)
	msgs := g.session(200)
	s := NewSession(msgs)
	fuzzy, tested := 0, 0
	for range 1000 {
		i := g.r.IntN(len(msgs))
		cut := g.cut(msgs[i], 40, 200)
		if utf8.RuneCountInString(normalizeQuote(cut)) < 40 {
			continue
		}
		tested++
		quote := g.perturbFuzzy(cut)
		got := s.Quote(quote, i)
		checkSpan(t, got, quote, msgs)
		if !got.OK() {
			t.Fatalf("Quote(%q, %d) = %+v, want aligned (cut %q)", quote, i, got, cut)
		}
		if got.Method == Fuzzy {
			fuzzy++
		}
	}
	if fuzzy < tested*9/10 {
		t.Fatalf("only %d of %d cuts with typos aligned fuzzy", fuzzy, tested)
	}
}

// Invented sentences never align at or above the threshold.
func TestQuoteInventedNeverAligns(t *testing.T) {
	t.Parallel()
	g := newTextGen(4)
	msgs := g.session(300)
	s := NewSession(msgs)
	failures := map[string]int{}
	for range 1500 {
		quote := g.invented(4 + g.r.IntN(14))
		got := s.Quote(quote, g.r.IntN(len(msgs)))
		checkSpan(t, got, quote, msgs)
		if got.OK() {
			t.Fatalf("Quote(%q) = %+v, aligned to %q", quote, got, msgs[got.Message][got.Start:got.End])
		}
		failures[got.Failure]++
	}
	t.Logf("failures: %v", failures)
}

// The search's own dynamic programming agrees with the levenshtein library.
func TestDistanceMatchesLibrary(t *testing.T) {
	g := newTextGen(5)
	alphabet := []rune("abc 한🚀")
	randString := func(n int) []rune {
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alphabet[g.r.IntN(len(alphabet))]
		}
		return rs
	}
	for range 2000 {
		q := randString(1 + g.r.IntN(14))
		text := randString(g.r.IntN(20))
		fq := newFuzzyQuote(q, quoteKeys(q))
		row := fq.prefix(text)
		for k := range row {
			if got, want := int(row[k]), levenshtein.ComputeDistance(string(q), string(text[:k])); got != want {
				t.Fatalf("prefix(%q, %q)[%d] = %d, want %d", string(q), string(text), k, got, want)
			}
		}
		if len(text) == 0 {
			continue
		}
		// The semi-global search finds the most similar window.
		cells := cellBudget(len(q))
		got, ok := fq.bestIn(text, 0, len(text), nil, &cells)
		var want cand
		found := false
		for x := range text {
			for y := x + 1; y <= len(text); y++ {
				c := cand{d: levenshtein.ComputeDistance(string(q), string(text[x:y])), x: x, y: y}
				if !found || cmpSim(c, want, len(q)) > 0 {
					want, found = c, true
				}
			}
		}
		if !ok {
			// Only when no rune of q occurs in text: every window
			// then has similarity 0 and the empty one is as close.
			if want.similarity(len(q)) != 0 {
				t.Fatalf("bestIn(%q, %q) found nothing, want %+v", string(q), string(text), want)
			}
			continue
		}
		if d := levenshtein.ComputeDistance(string(q), string(text[got.x:got.y])); d != got.d {
			t.Fatalf("bestIn(%q, %q) = %+v, but the window's distance is %d", string(q), string(text), got, d)
		}
		// The search minimizes the distance per end, so its best window
		// is at least as close as the most similar one.
		if got.d > want.d {
			t.Fatalf("bestIn(%q, %q) = %+v, want distance <= %d (%+v)", string(q), string(text), got, want.d, want)
		}
		// Refinement keeps the window's distance honest and, when the
		// search's window may be moved, does not lose similarity.
		r := fq.refine(text, got, &cells)
		if d := levenshtein.ComputeDistance(string(q), string(text[r.x:r.y])); d != r.d {
			t.Fatalf("refine(%q, %q, %+v) = %+v, but the window's distance is %d", string(q), string(text), got, r, d)
		}
		if text[got.x] != ' ' && text[got.y-1] != ' ' && cmpSim(r, got, len(q)) < 0 {
			t.Fatalf("refine(%q, %q, %+v) = %+v, less similar", string(q), string(text), got, r)
		}
	}
}

// For a trimmed quote the search and refinement find the most similar window
// that does not start or end on a space, whenever it is at least 0.6.
func TestFuzzyWindowOptimal(t *testing.T) {
	g := newTextGen(6)
	alphabet := []rune("abc 한🚀")
	randString := func(n int) []rune {
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alphabet[g.r.IntN(len(alphabet))]
		}
		return rs
	}
	tested := 0
	for range 2000 {
		q := randString(12 + g.r.IntN(14))
		q[0], q[len(q)-1] = 'a', 'b'
		text := randString(1 + g.r.IntN(20))
		if g.r.IntN(2) == 0 {
			text = append(text, q...)
			text = append(text, randString(g.r.IntN(10))...)
			for range 1 + g.r.IntN(3) {
				text[g.r.IntN(len(text))] = alphabet[g.r.IntN(len(alphabet))]
			}
		}
		var want cand
		found := false
		for x := range text {
			for y := x + 1; y <= len(text); y++ {
				if text[x] == ' ' || text[y-1] == ' ' {
					continue
				}
				c := cand{d: levenshtein.ComputeDistance(string(q), string(text[x:y])), x: x, y: y}
				if !found || cmpSim(c, want, len(q)) > 0 {
					want, found = c, true
				}
			}
		}
		if !found || want.similarity(len(q)) < nearMiss {
			continue
		}
		tested++
		fq := newFuzzyQuote(q, quoteKeys(q))
		cells := cellBudget(len(q))
		got, ok := fq.bestIn(text, 0, len(text), nil, &cells)
		if !ok {
			t.Fatalf("bestIn(%q, %q) found nothing, want %+v", string(q), string(text), want)
		}
		if r := fq.refine(text, got, &cells); cmpSim(r, want, len(q)) != 0 {
			t.Fatalf("refine(%q, %q, %+v) = %+v (similarity %v), want %+v (similarity %v)",
				string(q), string(text), got, r, r.similarity(len(q)), want, want.similarity(len(q)))
		}
	}
	if tested < 500 {
		t.Fatalf("only %d cases had a window of similarity >= %v", tested, nearMiss)
	}
}

// Text made of the pieces normalization treats specially keeps every
// invariant: cuts align exactly, and a cut re-cased and re-spaced aligns
// exactly or normalized to text that normalizes like the quote.
func TestQuoteAwkwardText(t *testing.T) {
	pieces := []string{
		"e", "\u0301", "\u0323", "…", "ﬁ", "Ａ", "ｂ", " ", "  ", "\n", "\u3000", "\u00a0",
		"\u200b", "\u200d", "`", "한", "\u1100", "\u1161", "\u11a8", "\xff", "\xed\x95",
		"¨", "ǅ", "İ", "ß", "ς", "Σ", "“", "”", "—", "−", "👍", "🏽", "⑴", "℀", "x", "y",
	}
	g := newTextGen(8)
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[g.r.IntN(len(pieces))])
		}
		return b.String()
	}
	for range 20000 {
		msgs := []string{text(g.r.IntN(40)), text(g.r.IntN(40))}
		i := g.r.IntN(2)
		msg := msgs[i]
		a, b := g.r.IntN(len(msg)+1), g.r.IntN(len(msg)+1)
		if a > b {
			a, b = b, a
		}
		for !onBoundary(msg, a) {
			a--
		}
		for !onBoundary(msg, b) {
			b++
		}
		cut := msg[a:b]
		for _, quote := range []string{cut, strings.ToUpper(cut), strings.ReplaceAll(cut, " ", "\n "), text(g.r.IntN(20))} {
			got := Quote(quote, i, msgs)
			checkSpan(t, got, quote, msgs)
		}
		if normalizeQuote(cut) == "" {
			continue
		}
		if got := Quote(cut, i, msgs); got.Method != Exact || got.Message != i {
			t.Fatalf("Quote(%q, %d, %q) = %+v, want exact in message %d", cut, i, msgs, got, i)
		}
	}
}

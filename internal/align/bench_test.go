package align

import (
	"strings"
	"testing"
	"unicode/utf8"
)

type quoteCase struct {
	kind  string
	quote string
	cited int
}

// benchSession is 2,000 generated messages (about 1 MB) and 100 quotes of
// 30 to 200 runes: 25 exact, 25 normalized, 25 with typos and 25 invented.
// One in ten cites the wrong message.
func benchSession() ([]string, []quoteCase) {
	g := newTextGen(42)
	msgs := g.session(2000)
	var quotes []quoteCase
	for k := range 100 {
		i := g.r.IntN(len(msgs))
		var c quoteCase
		switch k % 4 {
		case 0:
			c = quoteCase{"exact", g.cut(msgs[i], 30, 200), i}
		case 1:
			c = quoteCase{"normalized", g.perturbNormalized(g.cut(msgs[i], 30, 200)), i}
		case 2:
			c = quoteCase{"fuzzy", g.perturbFuzzy(g.cut(msgs[i], 30, 200)), i}
		default:
			c = quoteCase{"invented", g.invented(5 + g.r.IntN(25)), i}
		}
		if g.r.IntN(10) == 0 {
			c.cited = g.r.IntN(len(msgs))
		}
		quotes = append(quotes, c)
	}
	return msgs, quotes
}

func totalBytes(msgs []string) int {
	n := 0
	for _, m := range msgs {
		n += len(m)
	}
	return n
}

func TestBenchSessionShape(t *testing.T) {
	t.Parallel()
	msgs, quotes := benchSession()
	if n := totalBytes(msgs); n < 900_000 || n > 1_400_000 {
		t.Fatalf("bench session is %d bytes, want about 1 MB", n)
	}
	s := NewSession(msgs)
	counts := map[string]int{}
	for _, c := range quotes {
		if n := utf8.RuneCountInString(c.quote); n < 25 || n > 250 {
			t.Errorf("%s quote of %d runes: %q", c.kind, n, c.quote)
		}
		sp := s.Quote(c.quote, c.cited)
		checkSpan(t, sp, c.quote, msgs)
		counts[c.kind+"→"+string(sp.Method)]++
		if c.kind == "invented" && sp.OK() {
			t.Errorf("invented quote %q aligned: %+v", c.quote, sp)
		}
		if c.kind != "invented" && !sp.OK() {
			t.Errorf("%s quote %q did not align: %+v", c.kind, c.quote, sp)
		}
	}
	t.Logf("%d bytes in %d messages; outcomes %v", totalBytes(msgs), len(msgs), counts)
}

func BenchmarkQuotesSession(b *testing.B) {
	msgs, quotes := benchSession()
	b.SetBytes(int64(totalBytes(msgs)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewSession(msgs)
		for _, c := range quotes {
			s.Quote(c.quote, c.cited)
		}
	}
}

// longMessage is about 100 KB of generated session text in one message,
// with a 200-rune quote cut from its middle and given typos.
func longMessage() (msg, quote string) {
	g := newTextGen(7)
	var b strings.Builder
	for b.Len() < 100_000 {
		b.WriteString(g.message())
		b.WriteString("\n\n")
	}
	msg = b.String()
	rs := []rune(msg)
	mid := len(rs) / 2
	return msg, g.perturbFuzzy(string(rs[mid : mid+200]))
}

func TestLongMessageShape(t *testing.T) {
	t.Parallel()
	msg, quote := longMessage()
	sp := Quote(quote, 0, []string{msg})
	checkSpan(t, sp, quote, []string{msg})
	if sp.Method != Fuzzy {
		t.Fatalf("Quote(%q) = %+v, want fuzzy", quote, sp)
	}
}

func BenchmarkFuzzyLongMessage(b *testing.B) {
	msg, quote := longMessage()
	msgs := []string{msg}
	b.Run("cold", func(b *testing.B) {
		// Normalizing and indexing the message is part of every op.
		b.SetBytes(int64(len(msg)))
		b.ReportAllocs()
		for b.Loop() {
			Quote(quote, 0, msgs)
		}
	})
	b.Run("warm", func(b *testing.B) {
		// The message is normalized once, as in a Session.
		s := NewSession(msgs)
		s.Quote(quote, 0)
		b.SetBytes(int64(len(msg)))
		b.ReportAllocs()
		for b.Loop() {
			s.Quote(quote, 0)
		}
	})
}

func BenchmarkNormalize(b *testing.B) {
	msg, _ := longMessage()
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		normalizeText(msg)
	}
}

// pathological is text where the trigram filter rules out nothing, so the
// work is bounded only by the per-quote cell budget.
func pathological() []struct{ name, msg, quote string } {
	g := newTextGen(9)
	ab := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte("ab"[g.r.IntN(2)])
		}
		return b.String()
	}
	return []struct{ name, msg, quote string }{
		{"run", strings.Repeat("a", 100_000), strings.Repeat("a", 200) + "b"},
		{"ab-1000", ab(100_000), ab(1000)},
		{"ab-200", ab(100_000), ab(200)},
		{"ellipsis", strings.Repeat("…", 30_000), strings.Repeat(".", 200) + "x"},
	}
}

func TestQuotePathological(t *testing.T) {
	t.Parallel()
	want := map[string]Method{"run": Fuzzy, "ab-1000": None, "ab-200": None, "ellipsis": Fuzzy}
	for _, c := range pathological() {
		t.Run(c.name, func(t *testing.T) {
			msgs := []string{c.msg}
			got := Quote(c.quote, 0, msgs)
			checkSpan(t, got, c.quote, msgs)
			if got.Method != want[c.name] {
				t.Fatalf("Quote = %+v, want %s", got, want[c.name])
			}
		})
	}
}

func BenchmarkPathological(b *testing.B) {
	for _, c := range pathological() {
		b.Run(c.name, func(b *testing.B) {
			s := NewSession([]string{c.msg})
			s.Quote(c.quote, 0)
			for b.Loop() {
				s.Quote(c.quote, 0)
			}
		})
	}
}

package align

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
)

// fuzzSeeds are (message, quote) pairs from the unit tests plus some
// awkward text: invalid UTF-8, combining marks, compatibility forms.
var fuzzSeeds = [][2]string{
	{"DuckDB의 JSONB를 JSON으로 변경", "JSONB를 JSON으로"},
	{"DuckDB에서 JSONB 타입을 제거", "DuckDB JSONB 타입 제거"},
	{"We decided to\nuse SQLite for storage.", "decided to use SQLite"},
	{"he said “ship it” and ‘now’.", `said "ship it" and 'now'`},
	{"이번엔 ＤｕｃｋＤＢ를 쓰자", "duckdb를 쓰자"},
	{"wait… then retry", "wait... then retry"},
	{"the JSON\u200bB column", "the JSONB column"},
	{"run `go test ./...` first", "run go test ./... first"},
	{"배포 완료 🚀🎉 다음 단계: 테스트 👍🏽 추가", "🚀🎉 다음 단계"},
	{"make test; make test\x1emake test", "make test"},
	{"café au lait", "cafe\u0301 au"},
	{"café au lait", "\xa9 au lait"},
	{"a\xffb\xed\x95c ¨x ℀ ⑴ ﬁ", "¨x ℀"},
	{"e\u0301\u0301\u0301\u0323 x", "e\u0323"},
	{"the worker process exits when its queue is empty", "the worker process exits when its queue is emtpy"},
	{"", "anything"},
	{"   ", "   "},
}

func FuzzQuote(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s[0], s[1], i%3-1)
	}
	f.Fuzz(func(t *testing.T, msg, quote string, cited int) {
		// A record separator splits the input into several messages.
		msgs := strings.Split(msg, "\x1e")
		got := Quote(quote, cited, msgs) // Session.finish panics on a broken invariant
		checkSpan(t, got, quote, msgs)
		if got.Failure == EmptyQuote && normalizeQuote(quote) != "" {
			t.Fatalf("Quote(%q) = empty_quote, but it normalizes to %q", quote, normalizeQuote(quote))
		}
		if got.OK() && !(cited >= 0 && cited < len(msgs)) && got.Message == cited {
			t.Fatalf("Quote(%q, %d) reports the out-of-range index", quote, cited)
		}

		// A piece of the message cut on rune boundaries aligns exactly.
		a := int(uint(cited) % uint(len(msg)+1))
		b := min(len(msg), a+len(quote))
		for !onBoundary(msg, a) {
			a--
		}
		for !onBoundary(msg, b) {
			b++
		}
		cut := msg[a:b]
		if normalizeQuote(cut) == "" {
			return
		}
		one := []string{msg}
		sp := Quote(cut, 0, one)
		checkSpan(t, sp, cut, one)
		if sp.Method != Exact {
			t.Fatalf("Quote(%q) in %q = %+v, want exact", cut, msg, sp)
		}
	})
}

// FuzzDistance checks the Levenshtein distance the search relies on: it is
// symmetric, at most the longer length, and the search's own dynamic
// programming agrees with the library.
func FuzzDistance(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		d := levenshtein.ComputeDistance(a, b)
		if back := levenshtein.ComputeDistance(b, a); back != d {
			t.Fatalf("distance(%q, %q) = %d, but %d the other way", a, b, d, back)
		}
		la, lb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
		if d > max(la, lb) || d < abs(la-lb) {
			t.Fatalf("distance(%q, %q) = %d, outside [%d, %d]", a, b, d, abs(la-lb), max(la, lb))
		}
		q, text := []rune(a), []rune(b)
		if len(q) == 0 || len(q)*len(text) > 1<<16 {
			return
		}
		fq := newFuzzyQuote(q, quoteKeys(q))
		if got := int(fq.prefix(text)[len(text)]); got != levenshtein.ComputeDistance(string(q), string(text)) {
			t.Fatalf("prefix(%q, %q) = %d, want %d", a, b, got, d)
		}
		cells := cellBudget(len(q))
		if c, ok := fq.bestIn(text, 0, len(text), nil, &cells); ok {
			if got := levenshtein.ComputeDistance(string(q), string(text[c.x:c.y])); got != c.d {
				t.Fatalf("bestIn(%q, %q) = %+v, but that window's distance is %d", a, b, c, got)
			}
			// For each end the search keeps the smallest distance and, among
			// equals, the shortest window. So its pick is at least as similar
			// as the whole text's distance over the quote's length, though
			// not always as the whole text (a longer window with the same
			// distance scores higher; refine looks at those near a pass).
			whole := cand{d: d, x: 0, y: len(q)}
			if cmpSim(c, whole, len(q)) < 0 {
				t.Fatalf("bestIn(%q, %q) = %+v, less similar than distance %d over the quote", a, b, c, d)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// isSpaceRune is the white space test strings.TrimFunc uses for exact keys.
func isSpaceRune(r rune) bool { return unicode.IsSpace(r) }

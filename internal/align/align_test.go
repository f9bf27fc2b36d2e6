package align

import (
	"math"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// checkSpan fails t unless sp satisfies the package invariants against
// messages and, for Exact and Normalized, re-normalizes to the quote.
func checkSpan(t testing.TB, sp Span, quote string, messages []string) {
	t.Helper()
	if err := sp.check(messages); err != nil {
		t.Fatalf("Quote(%q) = %+v: %v", quote, sp, err)
	}
	if !sp.OK() {
		return
	}
	text := messages[sp.Message][sp.Start:sp.End]
	switch sp.Method {
	case Exact:
		if got, want := text, strings.TrimFunc(quote, isSpaceRune); got != want {
			t.Fatalf("Quote(%q) exact text = %q, want %q", quote, got, want)
		}
		fallthrough
	case Normalized:
		if got, want := normalizeQuote(text), normalizeQuote(quote); got != want {
			t.Fatalf("Quote(%q) %s text %q normalizes to %q, want %q", quote, sp.Method, text, got, want)
		}
	case Fuzzy:
		if sp.Start == sp.End {
			t.Fatalf("Quote(%q) fuzzy span is empty", quote)
		}
	}
}

func TestQuoteExact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		msg, quote string
		start, end int
		ambiguous  bool
	}{
		{"korean", "DuckDB의 JSONB를 JSON으로 변경", "JSONB를 JSON으로", 10, 29, false},
		{"whole message", "DuckDB의 JSONB를 JSON으로 변경", "DuckDB의 JSONB를 JSON으로 변경", 0, 36, false},
		{"emoji", "배포 완료 🚀🎉 다음 단계: 테스트 👍🏽 추가", "🚀🎉 다음 단계", 14, 36, false},
		{"skin tone", "배포 완료 🚀🎉 다음 단계: 테스트 👍🏽 추가", "테스트 👍🏽", 38, 56, false},
		{"surrounding space trimmed", "DuckDB의 JSONB를 JSON으로 변경", "  JSONB를 JSON으로\n", 10, 29, false},
		{"twice", "run make test, then run make test again", "make test", 4, 13, true},
		{"overlapping", "hahaha", "haha", 0, 4, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := []string{"unrelated first message", tt.msg}
			got := Quote(tt.quote, 1, msgs)
			checkSpan(t, got, tt.quote, msgs)
			want := Span{Message: 1, Start: tt.start, End: tt.end, Method: Exact,
				Confidence: 1, Ambiguous: tt.ambiguous, Similarity: 1}
			if got != want {
				t.Fatalf("Quote(%q) = %+v, want %+v", tt.quote, got, want)
			}
		})
	}
}

func TestQuoteExactNotInsideRune(t *testing.T) {
	t.Parallel()
	// "é" is C3 A9; a quote made of its second byte must not match inside it.
	msgs := []string{"café au lait"}
	quote := "\xa9 au lait"
	got := Quote(quote, 0, msgs)
	checkSpan(t, got, quote, msgs)
	if got.Method == Exact {
		t.Fatalf("Quote(%q) = %+v, want no exact match inside a rune", quote, got)
	}
}

func TestQuoteNormalized(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		msg, quote string
		text       string // the original text the span must cover
	}{
		{"newline", "We decided to\nuse SQLite for storage.", "decided to use SQLite", "decided to\nuse SQLite"},
		{"crlf and tabs", "keep\r\n\tthe hooks fast", "keep the hooks fast", "keep\r\n\tthe hooks fast"},
		{"multiple spaces", "keep   the    hooks fast", "keep the hooks fast", "keep   the    hooks fast"},
		{"quote spaces", "keep the hooks fast", "keep  the\nhooks   fast", "keep the hooks fast"},
		{"case", "Use WAL Mode Always, please", "use wal mode always", "Use WAL Mode Always"},
		{"curly quotes", "he said “ship it” and ‘now’.", `said "ship it" and 'now'`, "said “ship it” and ‘now’"},
		{"straight in message", `he said "ship it" now`, "said “ship it”", `said "ship it"`},
		{"full-width", "이번엔 ＤｕｃｋＤＢ를 쓰자", "duckdb를 쓰자", "ＤｕｃｋＤＢ를 쓰자"},
		{"ideographic space", "설정　파일을 읽는다", "설정 파일을", "설정　파일을"},
		{"dashes", "exit code — always 0", "exit code - always 0", "exit code — always 0"},
		{"minus", "offset −1 means none", "offset -1 means", "offset −1 means"},
		{"ellipsis", "wait… then retry", "wait... then retry", "wait… then retry"},
		{"zero width", "the JSON\u200bB column", "the JSONB column", "the JSON\u200bB column"},
		{"soft hyphen and bom", "\ufeffnormal\u00adization", "normalization", "normal\u00adization"},
		{"backticks", "run `go test ./...` first", "run go test ./... first", "run `go test ./...` first"},
		{"backticks in quote", "run go test first", "run `go test` first", "run go test first"},
		{"nfd korean", "한국어 텍스트를 정규화", norm.NFD.String("한국어 텍스트"), "한국어 텍스트"},
		{"nfd latin", "café au lait", "cafe\u0301 au", "café au"},
		{"emoji spacing", "완료 🚀   다음 단계", "완료 🚀 다음", "완료 🚀   다음"},
		{"no-break space", "10\u00a0MB limit", "10 mb limit", "10\u00a0MB limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := []string{tt.msg}
			got := Quote(tt.quote, 0, msgs)
			checkSpan(t, got, tt.quote, msgs)
			if got.Method != Normalized || got.Confidence != 0.95 || got.Ambiguous {
				t.Fatalf("Quote(%q) = %+v, want unambiguous normalized, confidence 0.95", tt.quote, got)
			}
			if got, want := tt.msg[got.Start:got.End], tt.text; got != want {
				t.Fatalf("Quote(%q) text = %q, want %q", tt.quote, got, want)
			}
		})
	}
}

func TestQuoteFuzzy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		msg, quote string
		text       string
		similarity float64
	}{
		{
			name:  "korean particles dropped",
			msg:   "DuckDB에서 JSONB 타입을 제거",
			quote: "DuckDB JSONB 타입 제거",
			// Three insertions (에서, 을) over the 21-rune window: 18/21.
			text:       "DuckDB에서 JSONB 타입을 제거",
			similarity: 18.0 / 21,
		},
		{
			name:  "english words dropped",
			msg:   "Alice: we will switch the recall ranking to BM25 with a recency boost next week.",
			quote: "we will switch recall ranking to BM25 with recency boost",
			text:  "we will switch the recall ranking to BM25 with a recency boost",
			// "the " and "a " inserted: 6 over 62 runes.
			similarity: 56.0 / 62,
		},
		{
			name:  "typos in a long message",
			msg:   strings.Repeat("unrelated filler text about hooks and stores. ", 40) + "The aligner must report spans in original byte offsets." + strings.Repeat(" more filler", 40),
			quote: "the aligner must reprot spans in orignal byte offsets",
			text:  "The aligner must report spans in original byte offsets",
			// A transposition (2) and a dropped "i" (1) over 54 runes.
			similarity: 51.0 / 54,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := []string{tt.msg}
			got := Quote(tt.quote, 0, msgs)
			checkSpan(t, got, tt.quote, msgs)
			if got.Method != Fuzzy || got.Ambiguous {
				t.Fatalf("Quote(%q) = %+v, want unambiguous fuzzy", tt.quote, got)
			}
			if got, want := tt.msg[got.Start:got.End], tt.text; got != want {
				t.Fatalf("Quote(%q) text = %q, want %q", tt.quote, got, want)
			}
			if math.Abs(got.Similarity-tt.similarity) > 1e-12 || got.Confidence != got.Similarity {
				t.Fatalf("Quote(%q) similarity = %v, confidence %v, want %v", tt.quote, got.Similarity, got.Confidence, tt.similarity)
			}
		})
	}
}

func TestQuoteFuzzyConfidenceBelowNormalized(t *testing.T) {
	t.Parallel()
	// A 40-rune quote with one typo has similarity 0.975; its confidence
	// must stay below the normalized 0.95.
	msgs := []string{"the worker process exits when its queue is empty"}
	quote := "the worker process exits when its queue is emtpy"
	got := Quote(quote, 0, msgs)
	checkSpan(t, got, quote, msgs)
	if got.Method != Fuzzy || got.Similarity < 0.95 || got.Confidence != maxFuzzyConfidence {
		t.Fatalf("Quote(%q) = %+v, want fuzzy with similarity >= 0.95 and confidence %v", quote, got, maxFuzzyConfidence)
	}
	if got, want := maxFuzzyConfidence, math.Nextafter(0.95, 0); got != want {
		t.Fatalf("maxFuzzyConfidence = %v, want %v", got, want)
	}
}

var session = []string{
	"Let's store everything in one SQLite file with FTS5.",
	"DuckDB의 JSONB를 JSON으로 변경",
	"I'll keep the hook binaries small so they start in a few milliseconds.",
	"The Stop hook must never block: it always exits with status 0.",
	"다음 단계: 테스트 👍🏽 추가",
}

func TestQuoteMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		quote string
		cited int
		want  Span
	}{
		{"cited", "always exits with status 0", 3,
			Span{Message: 3, Start: 35, End: 61, Method: Exact, Confidence: 1, Similarity: 1}},
		{"cited wrong", "always exits with status 0", 0,
			Span{Message: 3, Start: 35, End: 61, Method: Exact, Confidence: 1, Similarity: 1}},
		{"cited too high", "JSONB를 JSON으로", 9,
			Span{Message: 1, Start: 10, End: 29, Method: Exact, Confidence: 1, Similarity: 1}},
		{"cited negative", "테스트 👍🏽", -1,
			Span{Message: 4, Start: 15, End: 33, Method: Exact, Confidence: 1, Similarity: 1}},
		{"normalized elsewhere", "THE HOOK BINARIES SMALL", 0,
			Span{Message: 2, Start: 10, End: 33, Method: Normalized, Confidence: 0.95, Similarity: 1}},
		{"not found", "The database was migrated to PostgreSQL last Tuesday.", 0,
			Span{Message: 0, Method: None, Failure: NotFound}},
		{"out of range and not found", "The database was migrated to PostgreSQL last Tuesday.", 5,
			Span{Message: 5, Method: None, Failure: IndexOutOfRange}},
		{"negative and not found", "The database was migrated to PostgreSQL last Tuesday.", -3,
			Span{Message: -3, Method: None, Failure: IndexOutOfRange}},
		{"empty", "", 1, Span{Message: 1, Method: None, Failure: EmptyQuote}},
		{"white space", " \n\t\u3000", 1, Span{Message: 1, Method: None, Failure: EmptyQuote}},
		{"invisible", "\u200b``\ufeff", 1, Span{Message: 1, Method: None, Failure: EmptyQuote}},
		{"empty out of range", "", 99, Span{Message: 99, Method: None, Failure: EmptyQuote}},
		{"short typo", "SQLite fiel", 0, Span{Message: 0, Method: None, Failure: NotFound}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Quote(tt.quote, tt.cited, session)
			checkSpan(t, got, tt.quote, session)
			if got.Failure != "" {
				got.Similarity = 0 // diagnostic only
			}
			if got != tt.want {
				t.Fatalf("Quote(%q, %d) = %+v, want %+v", tt.quote, tt.cited, got, tt.want)
			}
		})
	}
}

func TestQuoteBelowThreshold(t *testing.T) {
	t.Parallel()
	msgs := []string{
		"nothing to see here",
		"the hook must always exit with status zero, even on errors",
	}
	quote := "the hook should exit with status one on all errors"
	got := Quote(quote, 0, msgs)
	checkSpan(t, got, quote, msgs)
	if got.Failure != BelowThreshold || got.Similarity < nearMiss || got.Similarity >= Threshold {
		t.Fatalf("Quote(%q) = %+v, want below_threshold with similarity in [%v, %v)", quote, got, nearMiss, Threshold)
	}
}

func TestQuoteMethodOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		msgs   []string
		quote  string
		cited  int
		msg    int
		method Method
	}{
		// An exact match anywhere beats a normalized one in the cited message.
		{"exact elsewhere beats normalized cited", []string{"Use WAL Mode", "we use wal mode"}, "use wal mode", 0, 1, Exact},
		// A normalized match anywhere beats a fuzzy one in the cited message.
		{"normalized elsewhere beats fuzzy cited", []string{"the store uses wal mdoe always", "The Store Uses WAL Mode"}, "the store uses wal mode", 0, 1, Normalized},
		// The cited message wins a tie.
		{"cited wins", []string{"use wal mode", "use wal mode"}, "use wal mode", 1, 1, Exact},
		// A fuzzy match in the cited message is kept even if another is better.
		{"fuzzy cited kept", []string{"the store uses wal mode on every open", "the store usse wal mdoe on evrey open"}, "the store uses wal mode on evry open", 1, 1, Fuzzy},
		// Among the others the most similar fuzzy match wins.
		{"fuzzy best other", []string{"x", "the store usse wal mdoe on evrey open", "the store uses wal mode on every open"}, "the store uses wal mode on evry open", 0, 2, Fuzzy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Quote(tt.quote, tt.cited, tt.msgs)
			checkSpan(t, got, tt.quote, tt.msgs)
			if got.Message != tt.msg || got.Method != tt.method || got.Ambiguous {
				t.Fatalf("Quote(%q, %d) = %+v, want unambiguous %s in message %d", tt.quote, tt.cited, got, tt.method, tt.msg)
			}
		})
	}
}

func TestQuoteAmbiguous(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		msgs      []string
		quote     string
		cited     int
		msg       int
		method    Method
		ambiguous bool
	}{
		{"exact twice in cited", []string{"make test; make test"}, "make test", 0, 0, Exact, true},
		{"exact in cited and elsewhere", []string{"a", "run make test", "run make test"}, "make test", 1, 1, Exact, false},
		{"exact in two others", []string{"a", "run make test", "b", "run make test"}, "make test", 0, 1, Exact, true},
		{"exact in two others, cited out of range", []string{"run make test", "run make test"}, "make test", 7, 0, Exact, true},
		{"normalized twice", []string{"Make  Test, then MAKE TEST"}, "make test", 0, 0, Normalized, true},
		{"normalized in two others", []string{"a", "MAKE TEST", "Make Test"}, "make test", 0, 1, Normalized, true},
		{"fuzzy twice", []string{"the store uses wal mode. later: the store uses wal mode."}, "the store uses wal mdoe", 0, 0, Fuzzy, true},
		{"fuzzy in two others", []string{"a", "the store uses wal mode", "the store uses wal mode"}, "the store uses wal mdoe", 0, 1, Fuzzy, true},
		{"fuzzy once", []string{"the store uses wal mode. later: something else entirely"}, "the store uses wal mdoe", 0, 0, Fuzzy, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Quote(tt.quote, tt.cited, tt.msgs)
			checkSpan(t, got, tt.quote, tt.msgs)
			if got.Message != tt.msg || got.Method != tt.method || got.Ambiguous != tt.ambiguous {
				t.Fatalf("Quote(%q, %d) = %+v, want %s in message %d, ambiguous %v", tt.quote, tt.cited, got, tt.method, tt.msg, tt.ambiguous)
			}
		})
	}
}

func TestSessionReuse(t *testing.T) {
	t.Parallel()
	s := NewSession(session)
	for _, quote := range []string{"always exits with status 0", "THE HOOK BINARIES SMALL", "the hook binaries smal so they start", "nowhere in the session"} {
		got, want := s.Quote(quote, 0), Quote(quote, 0, session)
		if got != want {
			t.Fatalf("Session.Quote(%q) = %+v, Quote = %+v", quote, got, want)
		}
	}
}

func TestSpanCheck(t *testing.T) {
	t.Parallel()
	msgs := []string{"한국어 text"}
	tests := []struct {
		name string
		sp   Span
		ok   bool
	}{
		{"exact", Span{Start: 0, End: 3, Method: Exact, Confidence: 1, Similarity: 1}, true},
		{"exact low confidence", Span{Start: 0, End: 3, Method: Exact, Confidence: 0.95, Similarity: 1}, false},
		{"normalized", Span{Start: 0, End: 3, Method: Normalized, Confidence: 0.95, Similarity: 1}, true},
		{"normalized high", Span{Start: 0, End: 3, Method: Normalized, Confidence: 1, Similarity: 1}, false},
		{"fuzzy", Span{Start: 0, End: 3, Method: Fuzzy, Confidence: 0.9, Similarity: 0.9}, true},
		{"fuzzy 0.95", Span{Start: 0, End: 3, Method: Fuzzy, Confidence: 0.95, Similarity: 0.96}, false},
		{"fuzzy low", Span{Start: 0, End: 3, Method: Fuzzy, Confidence: 0.84, Similarity: 0.84}, false},
		{"inside rune", Span{Start: 1, End: 3, Method: Exact, Confidence: 1, Similarity: 1}, false},
		{"reversed", Span{Start: 3, End: 0, Method: Exact, Confidence: 1, Similarity: 1}, false},
		{"past end", Span{Start: 0, End: 99, Method: Exact, Confidence: 1, Similarity: 1}, false},
		{"bad message", Span{Message: 1, Method: Exact, Confidence: 1, Similarity: 1}, false},
		{"no method", Span{Start: 0, End: 3, Method: None, Confidence: 1, Similarity: 1}, false},
		{"failure", Span{Message: 4, Method: None, Failure: NotFound, Similarity: 0.3}, true},
		{"failure with span", Span{End: 3, Method: None, Failure: NotFound}, false},
		{"failure with method", Span{Method: Exact, Failure: NotFound}, false},
		{"ambiguous failure", Span{Method: None, Failure: Ambiguous}, false},
		{"unknown failure", Span{Method: None, Failure: "nope"}, false},
		{"nan similarity", Span{Method: None, Failure: NotFound, Similarity: math.NaN()}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.sp.check(msgs); (err == nil) != tt.ok {
				t.Fatalf("check(%+v) = %v, want ok %v", tt.sp, err, tt.ok)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Fatalf("finish of a broken span did not panic")
		}
	}()
	NewSession(msgs).finish(Span{Start: 1, End: 3, Method: Exact, Confidence: 1})
}

func TestOnBoundary(t *testing.T) {
	t.Parallel()
	s := "a한\xa9\xed\x95b\xf0\x9f\x9a\x80"
	// a(0) 한(1-3) stray A9(4) truncated ED 95(5,6) b(7) 🚀(8-11)
	want := []bool{true, true, false, false, true, true, true, true, true, false, false, false, true}
	for p := range want {
		if got := onBoundary(s, p); got != want[p] {
			t.Errorf("onBoundary(%q, %d) = %v, want %v", s, p, got, want[p])
		}
	}
	var ranged []int
	for i := range s {
		ranged = append(ranged, i)
	}
	ranged = append(ranged, len(s))
	for _, p := range ranged {
		if !want[p] {
			t.Errorf("range loop yields %d, which onBoundary rejects", p)
		}
	}
}

func TestQuoteNoMessages(t *testing.T) {
	t.Parallel()
	for _, quote := range []string{"", "a quote long enough to be searched fuzzily"} {
		got := Quote(quote, 0, nil)
		checkSpan(t, got, quote, nil)
		want := IndexOutOfRange
		if quote == "" {
			want = EmptyQuote
		}
		if got.Failure != want {
			t.Fatalf("Quote(%q, 0, nil) = %+v, want %s", quote, got, want)
		}
	}
}

// Package align locates quoted evidence in message text and reports its span in the original bytes.
//
// Extractors, some of them LLMs, cite evidence as a quote plus the index of
// the message it came from. LLMs cannot count offsets and sometimes
// paraphrase or invent, so the pipeline never takes a span from an
// extractor: it finds the quote itself with [Quote] or [Session.Quote].
// Spans are byte offsets into the original message string, on rune
// boundaries as a range loop sees them (an invalid byte is a rune of its
// own).
//
// # Order
//
// The first stage that finds the quote anywhere wins, and within a stage the
// cited message is tried before the others, which follow in index order:
//
//	exact(cited) → exact(others) → normalized(cited) → normalized(others) → fuzzy(cited) → fuzzy(others)
//
// So an exact match in another message beats a normalized one in the cited
// message, and a match in the cited message beats an equally good one
// elsewhere. Among the other messages the first exact or normalized match
// is taken; for fuzzy, the most similar one (the lowest index on a tie).
//
// A match is Ambiguous when the reported message holds another equally good
// place (another occurrence for exact and normalized, a non-overlapping
// window with at least the same similarity for fuzzy), or when the quote was
// not in the cited message and another message matches at the same method
// (for fuzzy, with the same similarity). The first place is reported.
//
// # Exact
//
// The quote, without white space at its ends, occurs byte for byte, starting
// and ending on rune boundaries. Confidence 1.0.
//
// # Normalized
//
// Quote and message are both normalized and the quote is searched for in the
// normalized message; a position map turns the hit back into original bytes,
// and the hit is kept only if those bytes normalize to the normalized quote
// again. Confidence 0.95. Normalization is, in order:
//
//   - Unicode NFKC (golang.org/x/text/unicode/norm), which also folds
//     full-width forms to ASCII, no-break and ideographic spaces to spaces
//     and "…" to "...";
//   - lower case (unicode.ToLower, rune by rune);
//   - curly quotes ‘ ’ ‚ ‛ to ' and “ ” „ ‟ to ", and the dashes
//     ‐ ‑ ‒ – — ― − to -;
//   - zero-width characters (U+200B, U+200C, U+200D, U+2060, U+FEFF), the
//     soft hyphen and the backtick are removed. Backticks are Markdown
//     formatting that a quoting model often drops or adds around code; they
//     carry no words, so ignoring them cannot make a different statement
//     match. Asterisks, underscores and other Markdown are kept, because
//     they are also code;
//   - every run of white space becomes one space, and the quote is trimmed.
//
// # Fuzzy
//
// Over the runes of the normalized texts, the similarity of the quote q and
// a window w of a message is
//
//	sim(q, w) = 1 - lev(q, w) / max(len(q), len(w))
//
// with lev the Levenshtein distance. For "DuckDB JSONB 타입 제거" against
// "DuckDB에서 JSONB 타입을 제거" that is 1 - 3/21 ≈ 0.857: three inserted
// runes over a 21-rune window.
//
// A message is searched in three steps. A trigram filter slides a window of
// len(q)+dmax runes (dmax = 3·len(q)/17, the largest distance that can still
// reach [Threshold]) and keeps the places that share at least
// len(q)-2-3·dmax trigrams with the quote; by the q-gram lemma no window
// with sim ≥ [Threshold] is lost. A semi-global Levenshtein search over the
// kept regions finds, for every end, the smallest distance and the shortest
// window with it. The best window is then refined: every window whose ends
// lie within four runes is measured, windows that start or end on a space
// are skipped, and at equal similarity word boundaries win. The similarity
// of the final window is recomputed with github.com/agnivade/levenshtein.
// A window with sim ≥ [Threshold] aligns with Confidence min(sim, just under
// 0.95); Similarity keeps the unclamped value. A window edge inside text
// that normalization expanded (one "." of "…") or collapsed (a run of white
// space) widens to the whole source of it.
//
// Quotes shorter than 12 runes never align fuzzily (a couple of edits would
// match almost anything), nor do quotes longer than 1,000 runes (the search
// is quadratic in the quote). The search of one quote is capped at
// 16M + 16·len(q)² dynamic-programming cells, about 50 ms for a 200-rune
// quote and 200 ms for a 1,000-rune one on one core; only pathological
// text, where the filter rules nothing out (one letter repeated, two
// letters at random), reaches the cap, and then the rest goes unsearched.
//
// # Failures
//
// A quote that normalizes to nothing fails with [EmptyQuote]. Otherwise, when
// no stage finds it, the failure is [IndexOutOfRange] if the cited index is
// not a message index (the extractor's citation is broken whatever else
// happened), else [BelowThreshold] if the best fuzzy window reached a
// similarity of 0.6, else [NotFound]. A cited index out of range does not
// stop the search: a quote found in some message aligns normally.
package align

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Method is how a quote was found.
type Method string

// The alignment methods, in order of preference. They are stored in the
// database and are stable.
const (
	Exact      Method = "exact"
	Normalized Method = "normalized"
	Fuzzy      Method = "fuzzy"
	None       Method = "none"
)

// Failure reasons. They are stored in the database and are stable.
// Ambiguous is never a Span's Failure: it names the Ambiguous flag of a
// successful alignment for callers that record it as a reason.
const (
	EmptyQuote      = "empty_quote"
	IndexOutOfRange = "index_out_of_range"
	NotFound        = "not_found"
	BelowThreshold  = "below_threshold"
	Ambiguous       = "ambiguous"
)

// Threshold is the minimum similarity of a fuzzy alignment.
const Threshold = 0.85

// Confidence of each method.
const (
	exactConfidence      = 1.0
	normalizedConfidence = 0.95
)

// maxFuzzyConfidence keeps a fuzzy confidence below the normalized one even
// for a window that is identical after normalization. It is the float64
// just below 0.95 (math.Nextafter(0.95, 0)); a test checks that.
const maxFuzzyConfidence = 0.9499999999999999

// nearMiss is the similarity from which an unaligned quote is reported as
// BelowThreshold rather than NotFound.
const nearMiss = 0.6

// Span is the result of aligning one quote.
type Span struct {
	// Message is the index of the message the quote was found in, which
	// may differ from the cited one. On failure it is the cited index as
	// given, even when that is out of range.
	Message int
	// Start and End are byte offsets into messages[Message] (bytes of the
	// UTF-8 string), on rune boundaries, with Start <= End. Both are 0 on
	// failure.
	Start, End int
	Method     Method
	// Confidence is 1.0 for Exact, 0.95 for Normalized, the similarity
	// (in [0.85, 0.95)) for Fuzzy and 0 on failure.
	Confidence float64
	// Failure is "" when the quote aligned and one of the failure reasons
	// otherwise.
	Failure string
	// Ambiguous reports that the quote matched equally well in more than
	// one place; the first is reported. Places are compared within the
	// reported message and, when that is not the cited message, across the
	// other messages at the same method (for Fuzzy, the same similarity).
	Ambiguous bool
	// Similarity is the best similarity seen: 1 for Exact and Normalized,
	// the unclamped window similarity for Fuzzy, and on failure the best
	// fuzzy window found, for diagnostics.
	Similarity float64
}

// OK reports whether the quote aligned.
func (s Span) OK() bool { return s.Failure == "" }

// Quote aligns quote against messages, trying the cited message first and
// then the others in order. It never fails with an error: a quote that does
// not align is a Span with a Failure reason. It normalizes the messages it
// needs on every call; to align several quotes against one session, use a
// [Session].
func Quote(quote string, cited int, messages []string) Span {
	return NewSession(messages).Quote(quote, cited)
}

// Session aligns quotes against one list of messages, normalizing and
// indexing each message at most once. A Session is not safe for concurrent
// use.
type Session struct {
	messages []string
	norms    []*normText
	// raw[i] is the set of byte-trigram keys of message i, built on first
	// use; nil when the message is too long for the set to rule out
	// anything, and then rawDone[i] tells it was built.
	raw     []*presence
	rawDone []bool
	cells   int // dynamic-programming cells left for the current quote
}

// NewSession returns a Session over messages. The slice is retained and must
// not be changed while the Session is in use.
func NewSession(messages []string) *Session {
	return &Session{
		messages: messages,
		norms:    make([]*normText, len(messages)),
		raw:      make([]*presence, len(messages)),
		rawDone:  make([]bool, len(messages)),
	}
}

// Quote aligns quote against the session's messages, trying the cited
// message first and then the others in order. See the package comment for
// the order and the failure reasons.
func (s *Session) Quote(quote string, cited int) Span {
	nq := normalizeQuote(quote)
	if nq == "" {
		return s.finish(failure(cited, EmptyQuote, 0))
	}
	key := strings.TrimFunc(quote, unicode.IsSpace)
	keyGrams := bytePresence(key)
	if sp, ok := s.firstHit(cited, func(i int) (Span, bool) {
		if !s.mayContainBytes(i, keyGrams) {
			return Span{}, false
		}
		return exactIn(s.messages[i], key, i)
	}); ok {
		return s.finish(sp)
	}
	q := []rune(nq)
	keys := quoteKeys(q)
	var qset presence
	for _, kc := range keys {
		qset.add(kc.k)
	}
	if sp, ok := s.firstHit(cited, func(i int) (Span, bool) {
		return s.normalizedIn(i, nq, &qset)
	}); ok {
		return s.finish(sp)
	}
	sp, best := s.fuzzy(q, keys, cited)
	if sp.OK() {
		return s.finish(sp)
	}
	reason := NotFound
	switch {
	case cited < 0 || cited >= len(s.messages):
		reason = IndexOutOfRange
	case best >= nearMiss:
		reason = BelowThreshold
	}
	return s.finish(failure(cited, reason, best))
}

// inOrder calls f with every message index, the cited one first, until f
// returns false.
func (s *Session) inOrder(cited int, f func(i int) bool) {
	valid := cited >= 0 && cited < len(s.messages)
	if valid && !f(cited) {
		return
	}
	for i := range s.messages {
		if i == cited && valid {
			continue
		}
		if !f(i) {
			return
		}
	}
}

// firstHit returns the first match of find in message order. When that is
// not in the cited message, it looks on for a match in another message and
// flags the result Ambiguous if there is one.
func (s *Session) firstHit(cited int, find func(i int) (Span, bool)) (Span, bool) {
	var (
		hit   Span
		found bool
	)
	s.inOrder(cited, func(i int) bool {
		sp, ok := find(i)
		if !ok {
			return true
		}
		if found {
			hit.Ambiguous = true
			return false
		}
		hit, found = sp, true
		return i != cited && !hit.Ambiguous
	})
	return hit, found
}

// exactIn finds key in msg at rune boundaries.
func exactIn(msg, key string, i int) (Span, bool) {
	first := -1
	for from := 0; from+len(key) <= len(msg); {
		k := strings.Index(msg[from:], key)
		if k < 0 {
			break
		}
		at := from + k
		if onBoundary(msg, at) && onBoundary(msg, at+len(key)) {
			if first >= 0 {
				return exactSpan(i, first, len(key), true), true
			}
			first = at
		}
		from = at + 1
	}
	if first < 0 {
		return Span{}, false
	}
	return exactSpan(i, first, len(key), false), true
}

func exactSpan(i, at, n int, amb bool) Span {
	return Span{Message: i, Start: at, End: at + n, Method: Exact,
		Confidence: exactConfidence, Ambiguous: amb, Similarity: 1}
}

// byteGramKey hashes three bytes to a key of a presence set.
func byteGramKey(a, b, c byte) uint16 {
	return uint16((uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 0x9e3779b1 >> 20)
}

// bytePresence returns the set of byte-trigram keys of s.
func bytePresence(s string) *presence {
	var set presence
	for p := 0; p+2 < len(s); p++ {
		set.add(byteGramKey(s[p], s[p+1], s[p+2]))
	}
	return &set
}

// mayContainBytes reports whether message i may contain a string with the
// byte-trigram keys in set: false only if one of them is certainly absent.
// It spares the exact search most messages.
func (s *Session) mayContainBytes(i int, set *presence) bool {
	if !s.rawDone[i] {
		if len(s.messages[i]) <= presenceMaxGrams {
			s.raw[i] = bytePresence(s.messages[i])
		}
		s.rawDone[i] = true
	}
	return s.raw[i] == nil || s.raw[i].covers(set)
}

// norm returns the normalized form of message i, or nil if it is too long
// to have one.
func (s *Session) norm(i int) *normText {
	if s.norms[i] == nil {
		if len(s.messages[i]) > maxNormBytes {
			return nil
		}
		s.norms[i] = normalizeText(s.messages[i])
	}
	return s.norms[i]
}

// normalizedIn finds the normalized quote nq in message i and maps it back to
// original bytes whose normalization is nq.
func (s *Session) normalizedIn(i int, nq string, qset *presence) (Span, bool) {
	nt := s.norm(i)
	if nt == nil || len(nq) > len(nt.s) {
		return Span{}, false
	}
	nt.indexGrams()
	if nt.present != nil && !nt.present.covers(qset) {
		return Span{}, false
	}
	msg := s.messages[i]
	qr := utf8.RuneCountInString(nq)
	var (
		sp    Span
		found bool
		// Rune index of byte offset b of nt.s, counted incrementally.
		b, r int
	)
	for from := 0; from+len(nq) <= len(nt.s); {
		k := strings.Index(nt.s[from:], nq)
		if k < 0 {
			break
		}
		at := from + k
		r += utf8.RuneCountInString(nt.s[b:at])
		b = at
		start, end := int(nt.start[r]), int(nt.end[r+qr-1])
		if normalizeQuote(msg[start:end]) == nq && (!found || start != sp.Start) {
			if found {
				sp.Ambiguous = true
				break
			}
			sp = Span{Message: i, Start: start, End: end, Method: Normalized,
				Confidence: normalizedConfidence, Similarity: 1}
			found = true
		}
		_, w := utf8.DecodeRuneInString(nt.s[at:])
		from = at + w
	}
	return sp, found
}

func failure(cited int, reason string, best float64) Span {
	return Span{Message: cited, Method: None, Failure: reason, Similarity: best}
}

// finish returns sp after checking the invariants this package guarantees.
// A violation is a bug here, not bad input, so it panics.
func (s *Session) finish(sp Span) Span {
	if err := sp.check(s.messages); err != nil {
		panic(fmt.Sprintf("align: broken invariant: %v (span %+v)", err, sp))
	}
	return sp
}

// check reports the first invariant that sp breaks against messages.
func (sp Span) check(messages []string) error {
	if math.IsNaN(sp.Similarity) || sp.Similarity < 0 || sp.Similarity > 1 {
		return fmt.Errorf("similarity %v outside [0,1]", sp.Similarity)
	}
	if sp.Failure != "" {
		switch sp.Failure {
		case EmptyQuote, IndexOutOfRange, NotFound, BelowThreshold:
		default:
			return fmt.Errorf("unknown failure %q", sp.Failure)
		}
		if sp.Method != None || sp.Start != 0 || sp.End != 0 || sp.Confidence != 0 || sp.Ambiguous {
			return fmt.Errorf("failure with a method, span, confidence or ambiguity")
		}
		return nil
	}
	if sp.Message < 0 || sp.Message >= len(messages) {
		return fmt.Errorf("message %d outside [0,%d)", sp.Message, len(messages))
	}
	msg := messages[sp.Message]
	if sp.Start < 0 || sp.Start > sp.End || sp.End > len(msg) {
		return fmt.Errorf("span [%d,%d) outside message of %d bytes", sp.Start, sp.End, len(msg))
	}
	if !onBoundary(msg, sp.Start) || !onBoundary(msg, sp.End) {
		return fmt.Errorf("span [%d,%d) not on rune boundaries", sp.Start, sp.End)
	}
	switch sp.Method {
	case Exact:
		if sp.Confidence != exactConfidence {
			return fmt.Errorf("exact with confidence %v", sp.Confidence)
		}
	case Normalized:
		if sp.Confidence != normalizedConfidence {
			return fmt.Errorf("normalized with confidence %v", sp.Confidence)
		}
	case Fuzzy:
		if !(sp.Confidence >= Threshold && sp.Confidence < normalizedConfidence) {
			return fmt.Errorf("fuzzy with confidence %v", sp.Confidence)
		}
		if sp.Similarity < Threshold {
			return fmt.Errorf("fuzzy with similarity %v", sp.Similarity)
		}
	default:
		return fmt.Errorf("aligned with method %q", sp.Method)
	}
	return nil
}

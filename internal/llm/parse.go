package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
)

// Limits of a valid reply, in runes unless said otherwise.
const (
	maxEntries  = 60
	maxTitle    = 200
	maxBody     = 1000
	maxSubject  = 100
	maxEvidence = 5
	maxQuote    = 500
	// A memory answers a few questions (each at most extract.MaxQuestion).
	maxQuestions = 3
)

// Reply is a model's output after validation.
type Reply struct {
	Entries []extract.Entry
	// Dropped counts the entries that failed validation or came after the
	// first 60 valid ones.
	Dropped int
}

// Parse reads a model's output as the quote-only entries schema
//
//	{"entries":[{"type":"…","title":"…","body":"…","subject":"…","questions":["…"],"evidence":[{"messageIndex":N,"quote":"…"}]}]}
//
// The output must be one JSON object, optionally surrounded by white space or
// wrapped in one ``` fence (with or without a "json" tag); anything else
// around it makes it malformed. Unknown keys are ignored.
//
// Each entry is checked on its own and dropped (and counted) when invalid:
// type is one of the seven entry types (case and surrounding space are
// forgiven); title is 1–200 runes, body at most 1,000, subject at most 100,
// none of them holding control characters other than line breaks and tabs
// in the body; evidence has 1–5 items, each an integer messageIndex for which
// shown reports true and a quote of 1–500 runes that is not only white space.
// questions are optional: the first 3 strings of 1–200 runes without
// control characters are kept, the others dropped (never the entry), with
// secrets removed. Title and subject have their white space collapsed, body is trimmed;
// quotes are kept verbatim for the aligner. At most 60 entries are
// kept.
//
// Parse returns ErrTooLarge when out is over 1 MiB and ErrMalformed when it
// is not such an object or "entries" is missing or not an array. Zero entries
// is a valid reply.
func Parse(out string, shown func(messageIndex int) bool) (Reply, error) {
	if len(out) > maxOutputBytes {
		return Reply{}, fmt.Errorf("%w: output is %d bytes, cap %d", ErrTooLarge, len(out), maxOutputBytes)
	}
	body, err := unfence(out)
	if err != nil {
		return Reply{}, err
	}
	var doc struct {
		Entries *[]json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		return Reply{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if doc.Entries == nil {
		return Reply{}, fmt.Errorf("%w: no \"entries\" array", ErrMalformed)
	}
	var r Reply
	for _, raw := range *doc.Entries {
		if len(r.Entries) == maxEntries {
			r.Dropped++
			continue
		}
		e, ok := entryOf(raw, shown)
		if !ok {
			r.Dropped++
			continue
		}
		r.Entries = append(r.Entries, e)
	}
	return r, nil
}

// unfence returns the JSON object text of out: out without surrounding white
// space, or the content of one ``` fence that makes up all of out.
func unfence(out string) (string, error) {
	s := strings.TrimSpace(out)
	if rest, ok := strings.CutPrefix(s, "```"); ok {
		tag, inner, ok := strings.Cut(rest, "\n")
		if !ok {
			return "", fmt.Errorf("%w: unterminated fence", ErrMalformed)
		}
		if t := strings.TrimSpace(tag); t != "" && !strings.EqualFold(t, "json") {
			return "", fmt.Errorf("%w: fence tagged %q", ErrMalformed, excerpt(t, ""))
		}
		inner, ok = strings.CutSuffix(strings.TrimSpace(inner), "```")
		if !ok {
			return "", fmt.Errorf("%w: unterminated fence", ErrMalformed)
		}
		s = strings.TrimSpace(inner)
	}
	if !strings.HasPrefix(s, "{") {
		return "", fmt.Errorf("%w: does not start with a JSON object: %q", ErrMalformed, excerpt(s, ""))
	}
	return s, nil
}

// rawEntry is an entry as the model wrote it; pointers tell absent from empty.
type rawEntry struct {
	Type     *string       `json:"type"`
	Title    *string       `json:"title"`
	Body     *string       `json:"body"`
	Subject  *string       `json:"subject"`
	Evidence []rawEvidence `json:"evidence"`
	// Questions is read apart (questionsOf): a malformed list costs the
	// entry its questions, not the entry.
	Questions json.RawMessage `json:"questions"`
}

type rawEvidence struct {
	MessageIndex *int    `json:"messageIndex"`
	Quote        *string `json:"quote"`
}

// entryOf decodes and validates one entry.
func entryOf(raw json.RawMessage, shown func(int) bool) (extract.Entry, bool) {
	var x rawEntry
	// A field of the wrong JSON type (a number for a title, a string for an
	// index, an object for the entry) fails here and drops only this entry.
	if err := json.Unmarshal(raw, &x); err != nil {
		return extract.Entry{}, false
	}
	if x.Type == nil || x.Title == nil {
		return extract.Entry{}, false
	}
	typ, ok := entryType(*x.Type)
	if !ok {
		return extract.Entry{}, false
	}
	e := extract.Entry{
		Type:    typ,
		Title:   strings.Join(strings.Fields(*x.Title), " "),
		Body:    strings.TrimSpace(deref(x.Body)),
		Subject: strings.Join(strings.Fields(deref(x.Subject)), " "),
	}
	if n := utf8.RuneCountInString(e.Title); n < 1 || n > maxTitle || hasControl(e.Title, false) {
		return extract.Entry{}, false
	}
	if utf8.RuneCountInString(e.Body) > maxBody || hasControl(e.Body, true) {
		return extract.Entry{}, false
	}
	if utf8.RuneCountInString(e.Subject) > maxSubject || hasControl(e.Subject, false) {
		return extract.Entry{}, false
	}
	if len(x.Evidence) < 1 || len(x.Evidence) > maxEvidence {
		return extract.Entry{}, false
	}
	for _, ev := range x.Evidence {
		if ev.MessageIndex == nil || ev.Quote == nil || shown == nil || !shown(*ev.MessageIndex) {
			return extract.Entry{}, false
		}
		q := *ev.Quote
		if strings.TrimSpace(q) == "" || utf8.RuneCountInString(q) > maxQuote {
			return extract.Entry{}, false
		}
		e.Evidence = append(e.Evidence, extract.Evidence{MessageIndex: *ev.MessageIndex, Quote: q})
	}
	e.Questions = questionsOf(x.Questions)
	return e, true
}

// questionsOf reads an entry's "questions": an array of strings, of which
// the valid ones are kept; anything else gives none.
func questionsOf(raw json.RawMessage) []string {
	var items []json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []string
	for _, it := range items {
		var q string
		if json.Unmarshal(it, &q) != nil {
			continue
		}
		q, ok := extract.Question(q)
		if !ok || len(out) == maxQuestions {
			continue
		}
		out = append(out, q)
	}
	return out
}

func entryType(s string) (extract.Type, bool) {
	t := extract.Type(strings.ToLower(strings.TrimSpace(s)))
	switch t {
	case extract.Decision, extract.Fact, extract.Preference, extract.Constraint,
		extract.Lesson, extract.Task, extract.Reference:
		return t, true
	}
	return "", false
}

// hasControl reports whether s holds a control character (terminal escape
// sequences) or a bidi control (text that reads differently than it is
// stored), which must not reach a terminal or an injected context;
// multiline allows \n, \r and \t.
func hasControl(s string, multiline bool) bool {
	for _, r := range s {
		if multiline && (r == '\n' || r == '\r' || r == '\t') {
			continue
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return true
		}
	}
	return false
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

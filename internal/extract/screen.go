package extract

import (
	"strings"
	"unicode"
)

// Screen applies the offline extractor's rules to entries from any other
// backend (an LLM), whose output is untrusted: it drops an entry whose first
// quote is a heading, an acknowledgement, a status line, tool output, a
// narration of edits or a plan step; a task that is not put off; a
// decision, constraint, preference or task quoted from an assistant
// message the user turned down in the next one. A title holding words its
// quotes lack is replaced by the first quote, clipped. It returns the
// entries kept and how many were dropped; msgs are the messages the
// entries cite.
func Screen(msgs []Message, entries []Entry) ([]Entry, int) {
	byIndex := map[int]int{}
	for i, m := range msgs {
		byIndex[m.Index] = i
	}
	x := extractor{msgs: msgs}
	var kept []Entry
	for _, e := range entries {
		if len(e.Evidence) == 0 || !x.screens(e, byIndex) {
			continue
		}
		if !titleFromQuotes(e) {
			e.Title = clip(clean(e.Evidence[0].Quote), maxTitle)
		}
		kept = append(kept, e)
	}
	return kept, len(entries) - len(kept)
}

func (x *extractor) screens(e Entry, byIndex map[int]int) bool {
	first := e.Evidence[0]
	pos, ok := byIndex[first.MessageIndex]
	if !ok {
		return true // the aligner will not verify it; nothing to judge by
	}
	m := x.msgs[pos]
	role := strings.ToLower(m.Role)
	if role == "tool" {
		return e.Type == Lesson // a failure line is a lesson's evidence, nothing else's
	}
	s := newSent(pos, 0, first.Quote, role == "user" || role == "human")
	s.shape = quoteShape(m.Text, first.Quote)
	if noise(s) != notNoise {
		return false
	}
	if e.Type == Task {
		deferred := false
		for _, ev := range e.Evidence {
			deferred = deferred || containsPhrase(lowerASCII(ev.Quote), deferrals)
		}
		if !deferred {
			return false
		}
	}
	c := &cand{typ: e.Type, from: pos, user: s.user, fixed: true, body: e.Body, ev: []evi{{pos, 0, first.Quote}}}
	return x.keeps(c)
}

// quoteShape is the shape of quote within text: a whole line, a heading,
// a bullet.
func quoteShape(text, quote string) shape {
	k := strings.Index(text, quote)
	if k < 0 {
		return 0
	}
	ls := strings.LastIndexByte(text[:k], '\n') + 1
	le := strings.IndexByte(text[k+len(quote):], '\n')
	if le < 0 {
		le = len(text)
	} else {
		le += k + len(quote)
	}
	line := strings.TrimSpace(text[ls:le])
	var sh shape
	if b := bulletLen(line); b > 0 {
		if line[0] == '#' {
			sh |= shapeHeading
		} else {
			sh |= shapeBullet
		}
		line = line[b:]
	}
	if strings.TrimSpace(line) == strings.TrimSpace(quote) {
		sh |= shapeLine
	}
	return sh
}

// titleFromQuotes reports whether every word of e's title occurs in its
// quotes.
func titleFromQuotes(e Entry) bool {
	var b strings.Builder
	for _, ev := range e.Evidence {
		b.WriteString(strings.ToLower(clean(ev.Quote)))
		b.WriteByte(' ')
	}
	q := b.String()
	for _, w := range strings.FieldsFunc(strings.ToLower(e.Title), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !strings.Contains(q, w) {
			return false
		}
	}
	return true
}

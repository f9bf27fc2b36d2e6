package extract

import "strings"

// A fix section of an assistant's report names the problem in its label
// and says, in the list item under it, what was changed: "**Cart total
// fix** (`cart.go:42`):" then "- Rounded each line before summing, not
// the total". The item alone is narration of the
// moment ("Removed …"), which noise drops; under a label that names a fix
// it is how a named problem was fixed, the lesson a developer looks up when
// the problem comes back.

// fixWords name a fix in a section's label.
var fixWords = []string{"fix", "fixes", "bugfix"}

// fixLabel reports an assistant line that titles a fix section: a heading,
// or a short line ending in a colon, that is a noun phrase ending in a word
// naming a fix ("Cart total fix (`cart.go:42`):", "**Fixes**:").
// "How It Was Fixed", "Why This Fixes It" and "After Fix" head an account
// or what comes next, "Two issues to fix:" the problems.
func fixLabel(s *sent) bool {
	if s.user || s.shape&shapeLine == 0 || isQuestion(s) {
		return false
	}
	t := strings.TrimRight(strings.TrimSpace(s.norm), "*_ ")
	if s.shape&shapeHeading == 0 && !strings.HasSuffix(t, ":") {
		return false
	}
	t = strings.TrimRight(strings.TrimSuffix(t, ":"), "*_ ")
	if k := strings.LastIndexByte(t, '('); k > 0 && strings.HasSuffix(t, ")") {
		t = t[:k] // "(`cart.go:42`)", "(✅ Completed)": where or how far, not what
	}
	ws := words(clean(t))
	if len(ws) == 0 || len(ws) > 6 || !in(fixWords, ws[len(ws)-1]) {
		return false
	}
	return len(ws) == 1 || !in(labelOpeners, ws[0]) && ws[len(ws)-2] != "to"
}

// labelOpeners begin a label that heads an account or a sequence rather
// than naming a thing.
var labelOpeners = []string{"how", "why", "what", "when", "where", "after", "before", "next", "then", "summary"}

// fixSection makes a lesson of sentence k when it labels a fix section and
// the sentence after it is a list item naming what was changed: a code
// span, a path, a value; not a sub-label ending in a colon, whose content
// follows it. It quotes both and reports whether it did.
func (x *extractor) fixSection(ss []*sent, k int) bool {
	s := ss[k]
	if !fixLabel(s) || k+1 >= len(ss) {
		return false
	}
	item := ss[k+1]
	if item.used || item.shape&shapeBullet == 0 || item.shape&shapeHeading != 0 || isQuestion(item) ||
		strings.HasSuffix(strings.TrimRight(item.norm, "*_ "), ":") || !identifier(item.norm) && !hasValue(item) {
		return false
	}
	label := strings.TrimRight(strings.TrimSpace(clean(s.norm)), ": ")
	if label == "" {
		return false
	}
	c := &cand{typ: Lesson, score: 2, seq: len(x.cands), from: item.msg, fixed: true}
	for _, q := range []*sent{s, item} {
		off, t := q.quote(q.body)
		c.ev = append(c.ev, evi{q.msg, off, t})
	}
	c.body = label + ": " + clean(item.norm)
	describeLesson(item, hit{typ: Lesson, at: item.body, end: item.body, k: fix}, c)
	// The item alone ("Replaced items[0] with a length check") reads as
	// narration; the label says which problem it fixed.
	c.title = finishTitle(c.body)
	item.used = true
	x.cands = append(x.cands, c)
	return true
}

package extract

import (
	"strings"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
)

// sent is one sentence of a message, with the forms it is matched in.
type sent struct {
	msg, off int    // message position; byte offset of text in the message
	text     string // the sentence as written: what is quoted
	norm     string // text with curly quotes straightened
	back     []int  // norm offset -> text offset; nil when norm == text
	low      string // norm with ASCII letters lowered: same offsets as norm
	full     string // low before any cut: a trailing question may still say when
	body     int    // offset in low where the content starts, after openers
	user     bool
	used     bool  // quoted already in a lesson
	shape    shape // how the sentence sat in its message
	planned  bool  // an assistant sentence answering a request for a plan
	report   bool  // a user's line introducing pasted output that shows a failure (paste.go)

	// starts has a bit for the first two bytes of every word, so that a
	// phrase whose first word is absent is skipped without a scan; ascii says
	// there is no non-ASCII byte, so no Korean phrase can match.
	starts [4]uint64
	ascii  bool
	// prefixes has a bit for the first three bytes of every word, and
	// one for the first five: a phrase's first two bytes start a word of
	// most sentences ("th", "we") where the phrase is not (the bench
	// session: 92,839 of 709,643 finds passed starts, 1,021 matched).
	prefixes [2][8]uint64
	hits     []valueHit // topicHits(low), computed once
	hitsOK   bool
	// noisy is noiseOf(s), computed once for the shape and plan it was
	// computed with; index clears it when the text changes.
	noisy   noiseClass
	noisyOK bool
	noisyAt shape
	noisyIn bool // planned when noisy was computed
}

func startHash(b0, b1 byte) uint { return (uint(b0)*31 + uint(b1)) & 255 }

func (s *sent) index() {
	s.starts, s.ascii = wordStarts(s.low)
	s.prefixes = wordPrefixes(s.low)
	s.hitsOK, s.noisyOK = false, false
}

// wordStarts returns the bigram bits of every word start of low and whether
// low is all ASCII.
func wordStarts(low string) (bits [4]uint64, ascii bool) {
	ascii = true
	for i := 0; i < len(low); i++ {
		c := low[i]
		if c >= utf8.RuneSelf {
			ascii = false
		}
		if isWordByte(c) && (i == 0 || !isWordByte(low[i-1])) {
			var c1 byte
			if i+1 < len(low) {
				c1 = low[i+1]
			}
			h := startHash(c, c1)
			bits[h/64] |= 1 << (h % 64)
		}
	}
	return bits, ascii
}

// mayStart reports whether p can occur in a text with these word starts: a
// phrase starting with a word byte only matches at a word start.
func mayStart(bits *[4]uint64, ascii bool, p string) bool {
	c := p[0]
	switch {
	case c >= utf8.RuneSelf:
		return !ascii
	case isWordByte(c):
		var c1 byte
		if len(p) > 1 {
			c1 = p[1]
		}
		h := startHash(c, c1)
		return bits[h/64]&(1<<(h%64)) != 0
	}
	return true
}

// mayHave reports whether phrase p can occur in the sentence at all.
func (s *sent) mayHave(p string) bool { return mayStart(&s.starts, s.ascii, p) }

// prefixLens are the lengths of the word prefixes wordPrefixes hashes.
var prefixLens = [2]int{3, 5}

func prefixHash(p string) uint {
	h := uint(0)
	for i := 0; i < len(p); i++ {
		h = h*131 + uint(p[i])
	}
	return h & 511
}

// wordPrefixes returns, for each of prefixLens, the bits of the hashes of
// the first bytes of every word of low that has that many from its start.
func wordPrefixes(low string) (bits [2][8]uint64) {
	for i := 0; i < len(low); i++ {
		if !isWordByte(low[i]) || i > 0 && isWordByte(low[i-1]) {
			continue
		}
		for k, n := range prefixLens {
			if i+n > len(low) {
				break
			}
			h := prefixHash(low[i : i+n])
			bits[k][h/64] |= 1 << (h % 64)
		}
	}
	return bits
}

// mayPrefix reports whether a phrase p that starts with a word byte can
// start a word of the sentence, by its longest prefix wordPrefixes hashed:
// a match found at a word start has all of them. A phrase shorter than
// prefixLens[0] or not starting with a word byte may.
func (s *sent) mayPrefix(p string) bool { return mayPrefixIn(&s.prefixes, p) }

// mayPrefixIn is mayPrefix in a text with these prefixes (wordPrefixes).
func mayPrefixIn(prefixes *[2][8]uint64, p string) bool {
	if !isWordByte(p[0]) {
		return true
	}
	for k := len(prefixLens) - 1; k >= 0; k-- {
		if n := prefixLens[k]; len(p) >= n {
			h := prefixHash(p[:n])
			return prefixes[k][h/64]&(1<<(h%64)) != 0
		}
	}
	return true
}

// topics returns topicHits of the sentence, computed once.
func (s *sent) topics() []valueHit {
	if !s.hitsOK {
		s.hits, s.hitsOK = topicHitsIn(s.low, &s.starts, s.ascii, &s.prefixes), true
	}
	return s.hits
}

func newSent(msg, off int, text string, user bool) *sent {
	s := &sent{msg: msg, off: off, text: text, user: user}
	s.norm, s.back = straighten(text)
	s.low = lowerASCII(s.norm)
	s.full = s.low
	s.body = skipOpeners(s.low)
	s.index()
	return s
}

// straighten replaces curly quotes with straight ones, so that "we’ll"
// matches "we'll", and returns the offset map back to text.
func straighten(text string) (string, []int) {
	if !hasCurlyQuote(text) || !strings.ContainsAny(text, "‘’“”") {
		return text, nil
	}
	var b strings.Builder
	back := make([]int, 0, len(text)+1)
	for i := 0; i < len(text); {
		// The size decoded, not utf8.RuneLen(r): an invalid byte decodes as
		// U+FFFD, whose encoding is three bytes long, but it is one byte of text.
		r, n := utf8.DecodeRuneInString(text[i:])
		switch r {
		case '‘', '’':
			b.WriteByte('\'')
			back = append(back, i)
			i += n
			continue
		case '“', '”':
			b.WriteByte('"')
			back = append(back, i)
			i += n
			continue
		}
		b.WriteString(text[i : i+n])
		for k := 0; k < n; k++ {
			back = append(back, i+k)
		}
		i += n
	}
	back = append(back, len(text))
	return b.String(), back
}

// lowerASCII lowers the ASCII letters of s, leaving every other byte, so
// that offsets in the result are offsets in s. It allocates once, and only
// when s has an upper-case letter.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			var b strings.Builder
			b.Grow(len(s))
			from := 0 // the runs between upper-case letters are copied whole
			for j := i; j < len(s); j++ {
				if c := s[j]; c >= 'A' && c <= 'Z' {
					b.WriteString(s[from:j])
					b.WriteByte(c + 'a' - 'A')
					from = j + 1
				}
			}
			b.WriteString(s[from:])
			return b.String()
		}
	}
	return s
}

// orig maps an offset in norm or low back to text.
func (s *sent) orig(k int) int {
	if s.back == nil {
		return k
	}
	return s.back[k]
}

// cut shortens the sentence to its first n bytes of norm.
func (s *sent) cut(n int) {
	t := strings.TrimRight(s.text[:s.orig(n)], " \t,;:")
	s.text = t
	s.norm, s.back = straighten(t)
	s.low = lowerASCII(s.norm)
	if s.body > len(s.low) {
		s.body = len(s.low)
	}
	s.index()
}

func skipOpeners(low string) int {
	i := 0
	for {
		for i < len(low) && strings.IndexByte(" \t-*>\"'(,.:!", low[i]) >= 0 {
			i++
		}
		for _, d := range []string{"—", "–"} {
			if strings.HasPrefix(low[i:], d) {
				i += len(d)
			}
		}
		moved := false
		for _, o := range openers {
			// The first byte, compared first, rules out nearly every opener.
			if i < len(low) && low[i] == o[0] && strings.HasPrefix(low[i:], o) {
				e := i + len(o)
				if e == len(low) || strings.IndexByte(" ,.!:", low[e]) >= 0 {
					i = e
					moved = true
					break
				}
			}
		}
		if !moved {
			return min(i, len(low))
		}
	}
}

func isWordByte(c byte) bool { return isASCIILetter(c) || c >= '0' && c <= '9' || c == '_' }

// bounded reports whether low[at:end] is a whole-word match of p. A word
// inside a file name or path ("BACKLOG.md", "src/todo") is not a match.
func bounded(low string, at, end int, p string) bool {
	if isWordByte(p[0]) && at > 0 && (isWordByte(low[at-1]) || strings.IndexByte("./-", low[at-1]) >= 0) {
		return false
	}
	if isWordByte(p[len(p)-1]) && end < len(low) && (isWordByte(low[end]) ||
		(low[end] == '.' || low[end] == '/') && end+1 < len(low) && isWordByte(low[end+1])) {
		return false
	}
	return true
}

// mostlyHangul reports a sentence written mainly in Korean.
func (s *sent) mostlyHangul() bool {
	h, a := 0, 0
	for _, r := range s.norm {
		switch {
		case r >= 0xAC00 && r <= 0xD7A3:
			h++
		case r < 128 && isASCIILetter(byte(r)):
			a++
		}
	}
	return h > 0 && h*2 >= a
}

// find returns the offset of the first placed, whole-word occurrence of p.
func (s *sent) find(p phrase) int {
	if !s.mayHave(p.s) || !s.mayPrefix(p.s) {
		return -1
	}
	return s.scan(p)
}

// scan is find without its prechecks: the text searched from start to end.
func (s *sent) scan(p phrase) int {
	for from := 0; from < len(s.low); {
		k := strings.Index(s.low[from:], p.s)
		if k < 0 {
			return -1
		}
		k += from
		from = k + 1
		if !bounded(s.low, k, k+len(p.s), p.s) {
			continue
		}
		switch p.at {
		case atStart:
			if k != s.body {
				continue
			}
		case atClause:
			if !s.clauseStart(k) {
				continue
			}
		}
		return k
	}
	return -1
}

// clauseStart reports whether k starts a clause: the sentence body, or after
// a comma, semicolon, colon, dash or a joining word ("and", "please").
func (s *sent) clauseStart(k int) bool {
	if k <= s.body {
		return true
	}
	j := k
	for j > 0 && s.low[j-1] == ' ' {
		j--
	}
	if j == 0 {
		return true
	}
	if strings.IndexByte(",;:(", s.low[j-1]) >= 0 || strings.HasSuffix(s.low[:j], "—") || strings.HasSuffix(s.low[:j], "–") {
		return true
	}
	w := j
	for w > 0 && isASCIILetter(s.low[w-1]) {
		w--
	}
	return w < j && in(clauseWords, s.low[w:j]) && s.clauseStart(w)
}

// boundaries are where one clause ends and the next starts.
var boundaries = []string{", ", "; ", " — ", " – ", ": ", " and ", " but "}

// clauseAround returns the clause of low holding offset at.
func (s *sent) clauseAround(at int) (int, int) {
	from, to := s.body, len(s.low)
	for _, b := range boundaries {
		if k := strings.LastIndex(s.low[:at], b); k >= 0 && k+len(b) > from && k+len(b) <= at {
			from = k + len(b)
		}
		if k := strings.Index(s.low[at:], b); k > 0 && at+k < to {
			to = at + k
		}
	}
	return from, to
}

// clauseOf returns the clause of low that trigger h starts: the clause
// around h.at, which ends past the trigger. A trigger that holds the end of
// its clause ("the real issue: X") is about the clause after it.
func (s *sent) clauseOf(h hit) (int, int) {
	from, to := s.clauseAround(h.at)
	if to < h.end {
		_, to = s.clauseAround(h.end)
	}
	return from, to
}

func (s *sent) differentClause(a, b int) bool {
	if a > b {
		a, b = b, a
	}
	for _, d := range boundaries {
		if k := strings.Index(s.low[a:], d); k >= 0 && a+k < b {
			return true
		}
	}
	return false
}

// quote returns the quote for a trigger at offset at: the sentence, or for a
// long one the clause holding the trigger. It is always a substring of the
// message, returned with its offset in the message.
func (s *sent) quote(at int) (int, string) {
	if len(s.text) <= maxQuote {
		return s.off, s.text
	}
	from, to := s.clauseAround(min(at, len(s.low)))
	for to-from < 40 && (from > s.body || to < len(s.low)) {
		from, to = max(s.body, from-40), min(len(s.low), to+40)
	}
	a, b := s.orig(from), s.orig(to)
	if b-a > maxQuote {
		c := s.orig(min(at, len(s.low)))
		a = max(a, c-maxQuote/3)
		b = min(b, a+maxQuote)
	}
	for n := 0; n < utf8.UTFMax-1 && a < b && !utf8.RuneStart(s.text[a]); n++ {
		a++
	}
	if b < len(s.text) {
		b = max(runeBefore(s.text, b, a), a)
	}
	q := strings.TrimSpace(s.text[a:b])
	if q == "" {
		return s.off, s.text
	}
	return s.off + a + strings.Index(s.text[a:b], q), q
}

// isQuestion reports a question: a question mark at the end, a Korean
// question ending, or an opener like "should we".
func isQuestion(s *sent) bool {
	t := strings.TrimRight(s.norm, " \t\"')]*_")
	if strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？") {
		return true
	}
	t = strings.TrimRight(t, ".!")
	for _, e := range []string{"까요", "나요", "습니까", "을까", "는지요"} {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	for _, q := range questionOpeners {
		if strings.HasPrefix(s.low[s.body:], q+" ") {
			return true
		}
	}
	return false
}

func (s *sent) startsWithAny(list []string) bool {
	b := s.low[s.body:]
	for _, w := range list {
		if strings.HasPrefix(b, w) && (len(b) == len(w) || !isWordByte(b[len(w)])) {
			return true
		}
	}
	return false
}

func isFixedMarker(low string) bool {
	t := strings.TrimRight(strings.TrimSpace(low), ".!:")
	return in(fixedMarkers, t)
}

// deictic reports a short sentence pointing back at the one before it:
// "That's the root cause."
func deictic(s *sent) bool {
	if len(s.low) > 60 {
		return false
	}
	b := s.low[s.body:]
	for _, p := range []string{"that's", "that is", "this is", "that was", "this was", "which was", "이게", "그게", "이것이", "그것이"} {
		if strings.HasPrefix(b, p) {
			return true
		}
	}
	return false
}

// hit is one trigger found in a sentence.
type hit struct {
	typ Type
	at  int // offset of the trigger in low
	end int
	w   float64
	k   kind
}

// priority orders the types a sentence may be: the first found is the entry's
// type; a second, in another clause, may make a second entry.
var priority = [...]Type{Lesson, Decision, Preference, Constraint, Task, Fact, Reference}

// slot is the position of t in priority.
func slot(t Type) int {
	for i, p := range priority {
		if p == t {
			return i
		}
	}
	return len(priority) - 1
}

// pairs are the type pairs one sentence may yield two entries of: "We're on
// Postgres 12 and need to get to 16", "50 MB is fine, but check with me".
var pairs = [][2]Type{{Fact, Task}, {Decision, Constraint}, {Fact, Constraint}}

// analyze finds the triggers of a sentence, most important first, and
// reports whether it is an explicit request to remember. The steps: a
// question yields nothing (or the statement before it); an assistant's
// announcement of what it will do yields nothing; a hedge yields nothing;
// a lesson's cause or fix wins outright; otherwise each type's trigger is
// looked for, a request to remember adjusts them, and the first one (two,
// when they sit in separate clauses) are returned.
func analyze(s *sent) ([]hit, bool) {
	if len(strings.TrimSpace(s.low)) < 4 {
		return nil, false
	}
	_, rat := s.matchIn(rememberPhrasesIndex, nil)
	remembered := rat >= 0
	if isQuestion(s) {
		if hits, done := questionPart(s, remembered, rat); done {
			return hits, false
		}
	}
	if !s.user && (s.startsWithAny(intents) || koreanIntent(s.norm)) {
		// "I'll write the runbook in docs/runbooks/x.md" still says where it lives
		if s.hasIn(createVerbsIndex) && len(paths(s.norm)) > 0 {
			return []hit{{typ: Fact, at: s.body, end: s.body, w: 1, k: created}}, false
		}
		return nil, false
	}
	if s.hasIn(hedgesIndex) && !remembered {
		return nil, false
	}
	pp, pat := s.matchIn(preferencePhrasesIndex, likesSomething(s))
	if pat < 0 && !remembered && !s.startsWithAny(requests) && s.hasIn(modalHedgesIndex) {
		return nil, false
	}
	if h, ok := lessonTrigger(s); ok {
		return []hit{h}, remembered
	}
	var f found
	if f.rules(s, pp, pat) {
		return nil, false // "let's not": a veto of nothing named
	}
	f.task(s)
	f.fact(s)
	f.reference(s)
	if remembered {
		f.remembered(s, rat)
	}
	return f.pick(s, remembered), remembered
}

// questionPart handles a question: "note that X, someone said Y?" is cut to
// the noted clause and analysed on (done is false); "we need to add an
// alert — can you do that tomorrow?" yields what the statement before the
// question does; anything else yields nothing.
func questionPart(s *sent, remembered bool, rat int) (hits []hit, done bool) {
	if remembered && rat <= s.body {
		c := strings.Index(s.low[rat:], ", ")
		if c < 0 {
			return nil, true
		}
		s.cut(rat + c)
		return nil, false
	}
	if k := statementBefore(s); k > 0 {
		s.cut(k)
		if isQuestion(s) || startsInterrogative(s.low[s.body:]) {
			return nil, true
		}
		hits, _ = analyze(s)
		return hits, true
	}
	return nil, true
}

// likesSomething accepts "I like X" but not "I like it/that/this", which
// reacts to what was just said.
func likesSomething(s *sent) func(p phrase, at int) bool {
	return func(p phrase, at int) bool {
		if p.s == "i like" || p.s == "i love" {
			rest := s.low[at+len(p.s):]
			return !strings.HasPrefix(rest, " it") && !strings.HasPrefix(rest, " that") && !strings.HasPrefix(rest, " this")
		}
		return true
	}
}

// lessonTrigger finds a lesson's cause ("the root cause was", "the real
// issue is", "failed because" near a failure word) or fix.
func lessonTrigger(s *sent) (hit, bool) {
	if p, at := s.matchIn(causePhrasesIndex, func(p phrase, at int) bool {
		return p.k != weakCause || s.hasIn(failureWordsIndex)
	}); at >= 0 {
		return hit{typ: Lesson, at: at, end: at + len(p.s), w: p.w, k: p.k}, true
	}
	if at, n := adjectiveCause(s.low); at >= 0 {
		return hit{typ: Lesson, at: at, end: at + n, w: 2.5, k: cause}, true
	}
	if p, at := s.matchIn(fixPhrasesIndex, nil); at >= 0 {
		return hit{typ: Lesson, at: at, end: at + len(p.s), w: p.w, k: p.k}, true
	}
	return hit{}, false
}

// found holds the first trigger of each type, by slot in priority.
type found [len(priority)]*hit

func (f *found) set(t Type, at, n int, w float64, k kind) {
	if i := slot(t); f[i] == nil {
		f[i] = &hit{typ: t, at: at, end: at + n, w: w, k: k}
	}
}

// rules finds decisions, preferences and constraints, and settles which
// of them a sentence is when it could be several. It reports a veto ("let's
// not do that"), which makes the sentence yield nothing.
func (f *found) rules(s *sent, pp phrase, pat int) (vetoed bool) {
	if p, at := s.matchIn(negDecisionPhrasesIndex, nil); at >= 0 {
		if p.k == veto {
			return true
		}
		f.set(Constraint, at, len(p.s), p.w, plain)
	}
	if p, at := s.matchIn(decisionPhrasesIndex, s.decisionOK); at >= 0 {
		f.set(Decision, at, len(p.s), p.w, p.k)
	}
	if pat >= 0 {
		f.set(Preference, pat, len(pp.s), pp.w, plain)
	}
	imperative := s.user && s.imperative()
	if p, at := s.matchIn(constraintPhrasesIndex, s.constraintOK); at >= 0 {
		f.set(Constraint, at, len(p.s), p.w, plain)
	} else if imperative && (strings.Contains(s.low, ", not ") || strings.Contains(s.low, " not the ")) {
		f.set(Constraint, s.body, 0, 1.2, contrast)
	}
	if d := f[slot(Decision)]; d != nil && d.k == plain && d.w <= 1.5 && imperative {
		// "put all SQL in sql/ files instead of inline strings" is a rule
		f[slot(Decision)] = nil
		f.set(Constraint, d.at, d.end-d.at, 2, plain)
	}
	if d, c := f[slot(Decision)], f[slot(Constraint)]; d != nil && c != nil && d.w <= 1.5 && c.w >= 2 && !s.differentClause(d.at, c.at) {
		f[slot(Decision)] = nil // a weak decision cue yields to "always", "never", "절대"
	}
	return false
}

// task finds an open task; whether it was put off is checked when the
// candidate is made.
func (f *found) task(s *sent) {
	if p, at := s.matchIn(taskPhrasesIndex, func(p phrase, at int) bool {
		// An assistant marks work left with "TODO"; its "Todo updated" or
		// "the Todo app" names a list or a product.
		return p.s != "todo" || !strings.HasPrefix(s.low[at:], "todo list") && (s.user || s.norm[at:at+4] == "TODO")
	}); at >= 0 {
		f.set(Task, at, len(p.s), p.w, plain)
	} else if s.user && containsPhrase(s.low, deferrals) && (s.imperative() || s.hasIn(commitmentsIndex)) {
		// The user puts work off in the voice of a request or a commitment
		// ("let's leave X for tomorrow", "later we should …"): the mood and
		// the time it is put off to make the task, whatever the verb. A
		// report ("we deployed it later") has neither.
		f.set(Task, s.body, 0, 2, plain)
	}
}

// fact finds a fact about the project: a stack, a location, a setting, a
// file created at a path, a port, or a team's habit (kept as a rule).
func (f *found) fact(s *sent) {
	if p, at := s.matchIn(factPhrasesIndex, s.factOK); at >= 0 {
		f.set(Fact, at, len(p.s), p.w, p.k)
	} else if at, n := s.projectUses(); at >= 0 {
		f.set(Fact, at, n, 2, stack)
	} else if at, n := ourIs(s.low); at >= 0 {
		f.set(Fact, at, n, 2, stack)
	} else if at := teamHabit(s); at >= 0 {
		f.set(Constraint, at, 0, 2, plain)
	} else if v := envVar(s.norm); v != "" && s.hasIn(configWordsIndex) {
		f.set(Fact, strings.Index(s.norm, v), len(v), 1.5, config)
	} else if !s.user && s.hasIn(createVerbsIndex) && len(paths(s.norm)) > 0 && !s.startsWithAny([]string{"done", "fixed"}) {
		f.set(Fact, s.body, 0, 1.2, created)
	} else if !s.user && describesAddition(afterLabel(leadText(s.low))) {
		f.set(Fact, s.body, 0, 1.2, created)
	} else if at := portAt(s.low); at >= 0 {
		f.set(Fact, at, 4, 1.5, config)
	} else if !s.user && s.hasIn(contrastsIndex) && (strings.Contains(s.norm, "`") || len(paths(s.norm)) > 0) {
		// "moves duplicates to `./archive/…` instead of deleting them"
		// says how the code behaves; without a value it is an observation
		f.set(Fact, s.body, 0, 1.5, plain)
	}
}

// contrasts set one way of doing a thing against another.
var contrasts = []phrase{{s: "instead of"}, {s: "rather than"}, {s: "대신"}}

// reference finds a URL or ticket that the sentence points to as somewhere
// to look; a link pasted or asked about only backs a reference made
// elsewhere.
func (f *found) reference(s *sent) {
	at, n := refAt(s.norm)
	if at < 0 {
		return
	}
	w := 1.5
	if !s.hasIn(referenceWordsIndex) || s.imperative() || s.startsWithAny(requestOpeners) ||
		!strings.HasPrefix(s.norm[at:], "http") && !s.hasIn(ticketPointersIndex) || !s.pointsAt(at) || oneDeploy(s.norm[at:at+n]) {
		w = 0
	}
	f.set(Reference, at, n, w, plain)
}

// oneDeploy reports a URL whose host starts with a hash, as hosts give
// each deployment its own address ("https://9c1d4e7a.app.example.dev"): it
// is where one build was, not where the project lives.
func oneDeploy(url string) bool {
	_, host, ok := strings.Cut(url, "://")
	if !ok {
		return false
	}
	label, _, _ := strings.Cut(host, ".")
	digit := false
	for i := 0; i < len(label); i++ {
		switch c := label[i]; {
		case isDigit(c):
			digit = true
		case c < 'a' || c > 'f':
			return false
		}
	}
	return len(label) >= 7 && digit
}

// locators say where something is; unlike "docs" or "see" they point at
// a link only when it follows them closely: "your fork is at https://…",
// but not "the decision is in your hands — open http://10.0.0.5 first".
var locators = []string{" is in ", " is at ", " are in ", " are at ", " lives ", " hosted ", " live at ", " deployed at ", " deployed to "}

// locatorPhrases are the locators as reference words.
func locatorPhrases() []phrase {
	out := make([]phrase, len(locators))
	for i, l := range locators {
		out[i] = phrase{s: strings.TrimSpace(l)}
	}
	return out
}

// pointsAt reports whether the sentence's reference words point at the
// link at offset at.
func (s *sent) pointsAt(at int) bool {
	for _, p := range referenceWords {
		if in(locators, " "+p.s+" ") {
			continue // a locator points only at a link close after it (below)
		}
		if s.find(phrase{s: p.s}) >= 0 {
			return true
		}
	}
	for _, l := range locators {
		l = strings.TrimSuffix(l, " ") // "is now live at: https://…" puts a colon after it
		if k := strings.Index(s.low, l); k >= 0 && k < at && at-(k+len(l)) <= 12 &&
			(k+len(l) == len(s.low) || !isWordByte(s.low[k+len(l)])) {
			return true
		}
	}
	return false
}

// remembered adjusts the triggers of an explicit request to remember: a
// URL to remember is a fact, a request with no other trigger is a fact,
// and "from now on, X" makes a fact a rule.
func (f *found) remembered(s *sent, rat int) {
	if r, fa := slot(Reference), slot(Fact); f[r] != nil && f[fa] == nil {
		f[fa], f[r] = f[r], nil // "remember the URL is …" is a fact
		f[fa].typ, f[fa].w = Fact, 2
	}
	empty := true
	for _, h := range f {
		empty = empty && h == nil
	}
	if empty {
		f.set(Fact, rat, 0, 2, remember)
	}
	if h := f[slot(Fact)]; s.hasIn(ruleMarkersIndex) && h != nil && f[slot(Constraint)] == nil {
		// "from now on, secrets only come from Vault" sets a rule
		f[slot(Fact)] = nil
		f.set(Constraint, h.at, h.end-h.at, 2, plain)
	}
}

// pick returns the first trigger by priority and, when another sits in a
// separate clause and the pair may go together, that one too. A request to
// remember is one memory unless it holds two independent clauses: "…on Expo
// going forward; don't add …".
func (f *found) pick(s *sent, remembered bool) []hit {
	var hits []hit
	for _, h := range f {
		if h == nil {
			continue
		}
		if len(hits) == 0 {
			hits = append(hits, *h)
			continue
		}
		if (!remembered || s.strongBreak(hits[0].at, h.at)) && h.w >= 1.5 && pairOK(hits[0].typ, h.typ) && s.differentClause(hits[0].at, h.at) {
			hits = append(hits, *h)
			break
		}
	}
	return hits
}

func pairOK(a, b Type) bool {
	for _, p := range pairs {
		if p[0] == a && p[1] == b || p[0] == b && p[1] == a {
			return true
		}
	}
	return false
}

// decisionOK checks the parts a decision phrase needs around it.
func (s *sent) decisionOK(p phrase, at int) bool {
	rest := s.low[at+len(p.s):]
	switch p.s {
	case "replace", "replaced", "replacing":
		return strings.Contains(rest, " with ")
	case "pinned", "changed":
		return strings.Contains(rest, " to ")
	case "instead of", "rather than":
		// a choice needs someone choosing: "They downloaded HTML pages
		// instead of videos" describes, "use X instead of Y" decides
		return s.user && (s.imperative() || s.hasIn(commitmentsIndex))
	case "moved to":
		for _, h := range s.topics() {
			if h.at >= at {
				return true
			}
		}
		return false
	}
	if p.s[0] >= utf8.RuneSelf && strings.HasPrefix(strings.TrimLeft(rest, "주어"), "야") {
		return false // "커서 방식으로 바꿔야 해요" is still to do
	}
	if p.k == accept && (strings.HasPrefix(p.s, "make") || strings.HasSuffix(p.s, " to")) {
		// "Make it 3 retries" sets a value
		r := strings.TrimLeft(rest, " ")
		return r != "" && (r[0] >= '0' && r[0] <= '9' || r[0] == '`')
	}
	if p.k == accept {
		// "50 MB is fine" accepts a value; "that is fine" accepts nothing
		from, _ := s.clauseAround(at)
		head := s.low[from:at]
		return strings.ContainsAny(head, "0123456789`") || len(topicHits(head)) > 0
	}
	return true
}

// constraintOK rejects "always"/"never"/"don't" describing what happens
// ("it never worked", "don't worry"), "keep in mind", and "Only …" without a
// modal.
func (s *sent) constraintOK(p phrase, at int) bool {
	rest := strings.TrimLeft(s.low[at+len(p.s):], " ")
	next := rest
	if i := strings.IndexAny(rest, " ,.;:!?"); i >= 0 {
		next = rest[:i]
	}
	switch p.s {
	case "always", "never", "don't", "do not", "we never", "we always", "we don't", "we do not":
		if in(notConstraint, next) || next == "ever" && in(notConstraint, firstWord(rest[len(next):])) {
			return false
		}
		if p.s == "don't" || p.s == "do not" {
			return !strings.HasPrefix(rest, "forget")
		}
	case "keep":
		return !strings.HasPrefix(rest, "in mind") && !strings.HasPrefix(rest, "going")
	case "must":
		// "the issue must be that …" guesses; it sets no rule
		for _, g := range []string{"be that", "be because", "be the", "be a ", "be an ", "have "} {
			if strings.HasPrefix(rest, g) {
				return false
			}
		}
	case "only":
		for _, m := range []string{" should ", " must ", " can ", " may ", " needs ", " need "} {
			if strings.Contains(rest, m) {
				return true
			}
		}
		return false
	}
	return true
}

func firstWord(s string) string {
	s = strings.TrimLeft(s, " ")
	if i := strings.IndexAny(s, " ,.;:!?"); i >= 0 {
		return s[:i]
	}
	return s
}

// factOK requires a path or code span for "is in" facts, so that "the bug is
// in the parser" is not a fact about where things live.
func (s *sent) factOK(p phrase, at int) bool {
	if p.k == location && !strings.HasPrefix(p.s, "live") && !strings.HasPrefix(p.s, "lives") {
		return strings.Contains(s.norm, "`") || len(paths(s.norm)) > 0
	}
	return true
}

// projectUses finds "the app uses Prisma", "our API runs on Node 20".
func (s *sent) projectUses() (int, int) {
	for _, v := range projectVerbs {
		for from := 0; ; {
			k := strings.Index(s.low[from:], " "+v+" ")
			if k < 0 {
				break
			}
			k += from
			from = k + 1
			head := strings.Fields(s.low[:k])
			if len(head) > 0 && in(adverbs, head[len(head)-1]) {
				head = head[:len(head)-1]
			}
			if len(head) < 2 {
				continue
			}
			noun, det := strings.Trim(head[len(head)-1], "`'\""), head[len(head)-2]
			if in(projectNouns, noun) && (det == "the" || det == "our" || det == "this") {
				return k + 1, len(v)
			}
		}
	}
	return -1, 0
}

// portAt finds "port 8080" or "localhost:3000".
func portAt(low string) int {
	for _, p := range []string{"port ", "localhost:", "127.0.0.1:"} {
		if k := strings.Index(low, p); k >= 0 && k+len(p) < len(low) && low[k+len(p)] >= '0' && low[k+len(p)] <= '9' {
			return k
		}
	}
	return -1
}

// refAt finds a URL, a ticket id (JIRA-123) or an issue number (#123).
func refAt(norm string) (int, int) {
	if r, at := firstRef(norm); r != "" {
		return at, len(r)
	}
	return -1, 0
}

// firstRef returns the first URL, ticket id or issue number in s.
func firstRef(s string) (string, int) {
	best, bestAt := "", -1
	for _, p := range []string{"https://", "http://"} {
		if k := strings.Index(s, p); k >= 0 && (bestAt < 0 || k < bestAt) {
			e := urlEnd(s, k, len(s))
			if e-k > len(p) {
				best, bestAt = s[k:e], k
			}
		}
	}
	if t, k := ticket(s); k >= 0 && (bestAt < 0 || k < bestAt) {
		best, bestAt = t, k
	}
	return best, bestAt
}

// notTickets are upper-case prefixes of things that look like ticket ids.
var notTickets = []string{"UTF", "SHA", "ISO", "HS", "RS", "ES", "PS", "TLS", "SSL", "AES", "RSA", "MD", "HTTP",
	"IPV", "GPT", "COVID", "X", "ARM", "WCAG", "ECMA", "EC", "PG", "FIPS", "BASE", "LTS", "V", "ED", "P"}

func ticket(s string) (string, int) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '(') {
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j-i-1 >= 2 && (j == len(s) || !isWordByte(s[j])) {
				return s[i:j], i
			}
			continue
		}
		if c < 'A' || c > 'Z' || i > 0 && isWordByte(s[i-1]) {
			continue
		}
		j := i
		for j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		if j-i < 2 || j+1 >= len(s) || s[j] != '-' || s[j+1] < '0' || s[j+1] > '9' || in(notTickets, s[i:j]) {
			i = j
			continue
		}
		k := j + 1
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == len(s) || !isWordByte(s[k]) && s[k] != '.' || s[k] == '.' && (k+1 == len(s) || !isWordByte(s[k+1])) {
			return s[i:k], i
		}
		i = k
	}
	return "", -1
}

// koreanIntent reports an assistant sentence announcing what it will do
// ("…하겠습니다", "…할게요"), but not "알겠습니다" (understood).
func koreanIntent(norm string) bool {
	t := strings.TrimRight(norm, " .!")
	if strings.HasSuffix(t, "알겠습니다") {
		return false
	}
	for _, e := range []string{"하겠습니다", "보겠습니다", "드리겠습니다", "할게요", "볼게요", "드릴게요"} {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	return false
}

// statementBefore returns where a statement ends that a trailing question
// follows ("we need to add an alert — can you do that tomorrow?"), or 0.
func statementBefore(s *sent) int {
	best := 0
	for _, b := range []string{" — ", " – ", " - ", "; ", ", "} {
		if k := strings.LastIndex(s.low, b); k > best {
			best = k
		}
	}
	if best <= s.body+10 {
		return 0
	}
	return best
}

// interrogatives open a question even when the question mark is far away.
var interrogatives = []string{"what", "how", "why", "which", "who", "where", "when", "is", "are", "do", "does",
	"did", "can", "could", "should", "would", "will", "shall", "have", "has"}

func startsInterrogative(b string) bool {
	w := firstWord(b)
	return in(interrogatives, w)
}

// imperative reports a user instruction: an imperative verb first, after
// markers and requests ("Going forward please put …", "I'd like you to use …").
func (s *sent) imperative() bool {
	b := lowerASCII(stripMarkers(s.norm[s.body:], false))
	for _, r := range requests {
		b = strings.TrimPrefix(strings.TrimPrefix(b, r), " ")
	}
	return in(imperativeVerbs, firstWord(b))
}

// adjectiveCause finds "the real issue is", "the underlying problem was",
// "the actual cause:" and returns its offset and length.
func adjectiveCause(low string) (int, int) {
	for from := 0; ; {
		k := strings.Index(low[from:], "the ")
		if k < 0 {
			return -1, 0
		}
		k += from
		from = k + 4
		if k > 0 && isWordByte(low[k-1]) {
			continue
		}
		rest := low[k+4:]
		adj := firstWord(rest)
		if adj == "" || len(adj)+1 >= len(rest) {
			continue
		}
		rest = rest[len(adj)+1:]
		noun := firstWord(rest)
		if !claim.CauseNoun(noun) {
			continue
		}
		for _, v := range causeVerbs {
			if strings.HasPrefix(rest[len(noun):], v) {
				return k, 4 + len(adj) + 1 + len(noun) + len(v)
			}
		}
	}
}

// ourIs finds "our warehouse is Snowflake", "our CI runs on GitHub Actions":
// a known tool named as what the project has.
func ourIs(low string) (int, int) {
	k := strings.Index(low, "our ")
	if k < 0 || k > 0 && isWordByte(low[k-1]) {
		return -1, 0
	}
	rest := low[k+4:]
	for _, v := range []string{" is ", " are ", " runs on ", " lives on ", " is on ", " run with ", " runs with ",
		" run on ", " use ", " uses ", " are written in ", " is written in "} {
		j := strings.Index(rest, v)
		if j < 0 || len(strings.Fields(rest[:j])) > 2 {
			continue
		}
		after := rest[j+len(v):]
		if hits := topicHits(after); len(hits) > 0 && hits[0].at <= 2 {
			return k, 4 + j + len(v)
		}
	}
	return -1, 0
}

// foundMarker reports an assistant sentence announcing the cause was found
// ("Found it.", "Found it: line 41 echoes the secret.") and whether it says
// more than the marker.
func foundMarker(s *sent) (found, content bool) {
	b := straightQuotes(s.low[s.body:])
	for _, we := range []string{"i ", "i've ", "we ", "we've "} {
		b = strings.TrimPrefix(b, we) // "I found the problem!", "I see the issue."
	}
	for _, m := range foundMarkers {
		if strings.HasPrefix(b, m) {
			rest := strings.Trim(b[len(m):], " .!:")
			return true, len(rest) > 15
		}
	}
	return false, false
}

// strongBreak reports a semicolon or dash between offsets a and b.
func (s *sent) strongBreak(a, b int) bool {
	if a > b {
		a, b = b, a
	}
	m := s.low[a:b]
	return strings.Contains(m, "; ") || strings.Contains(m, " — ") || strings.Contains(m, " – ")
}

// teamHabit finds a team's convention stated as what it does: "우리 팀은 커밋
// 메시지를 한국어로 써요", "our team writes changelogs by hand". It returns the
// offset of the team subject, or -1.
func teamHabit(s *sent) int {
	b := s.low[s.body:]
	b = strings.TrimLeft(strings.TrimPrefix(b, "참,"), " ")
	for _, t := range []string{"우리 팀은", "우리 팀에서는", "저희 팀은", "저희 팀에서는", "우리는", "저희는", "our team ", "in our team,", "on our team,"} {
		if !strings.HasPrefix(b, t) {
			continue
		}
		at := len(s.low) - len(b)
		if s.mostlyHangul() {
			end := strings.TrimRight(s.norm, " .!~")
			for _, p := range []string{"었어요", "았어요", "했어요", "었습니다", "았습니다", "했습니다", "였어요"} {
				if strings.HasSuffix(end, p) {
					return -1 // what the team did once, not what it does
				}
			}
			return at
		}
		if w := firstWord(b[len(t):]); strings.HasSuffix(w, "s") || w == "always" || w == "never" {
			return at
		}
	}
	return -1
}

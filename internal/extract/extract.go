// Package extract distils memory entries with quoted evidence from a session's messages.
package extract

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
)

// Message is one message of a session as the extractor sees it.
type Message struct {
	Index int    // position in the session, 0-based
	Role  string // "user", "assistant" or "tool"
	Text  string // privacy-filtered text (for "tool": a compact observation like "Bash: npm test\n<output>")
}

// Type is the kind of a memory entry.
type Type string

// The entry types.
const (
	Decision   Type = "decision"
	Fact       Type = "fact"
	Preference Type = "preference"
	Constraint Type = "constraint"
	Lesson     Type = "lesson"
	Task       Type = "task"
	Reference  Type = "reference"
)

// Evidence is a verbatim quote from one message of the session.
type Evidence struct {
	MessageIndex int    `json:"messageIndex"`
	Quote        string `json:"quote"`
}

// Entry is a candidate memory: a claim and the quotes it rests on.
type Entry struct {
	Type     Type       `json:"type"`
	Title    string     `json:"title"`             // short, <= 80 chars, a plain statement
	Body     string     `json:"body"`              // the claim, one or two sentences
	Subject  string     `json:"subject,omitempty"` // canonical key: the normalized subject the claim is about, lower case
	Evidence []Evidence `json:"evidence"`
	// Questions are short questions the entry answers, as an LLM extractor
	// words them; none from the offline extractor, whose entries the
	// pipeline gives questions built from their role and subject.
	Questions []string `json:"questions,omitempty"`
}

// Result is the quote-only extractor output shared by every backend.
type Result struct {
	Entries []Entry `json:"entries"`
}

// Limits of one session's extraction.
const (
	maxEntries  = 30       // entries kept per session, by score: a longer list is a long session's chat
	maxEvidence = 4        // quotes kept per entry
	maxQuote    = 300      // a longer sentence is quoted by the clause holding its trigger
	maxScan     = 64 << 10 // bytes of one message that are read
	maxSentence = 2000     // bytes of one sentence that are analysed: longer ones are pasted content
	maxTitle    = 80       // runes of a title
	maxBody     = 400      // runes of a body
	minScore    = 1.0      // candidates below this are dropped
	lookback    = 8        // messages searched for the failure a lesson fixed
	fixWindow   = 3        // sentences after a cause searched for its fix
)

// Offline extracts entries deterministically. Quotes are verbatim substrings of the cited message's Text.
//
// It reads user and assistant messages sentence by sentence and recognises,
// in English and Korean, requests to remember, decisions, constraints,
// preferences, project facts, lessons (cause and fix), open tasks and
// references. Questions, hypotheticals and code blocks yield nothing; tool
// output is read only for the failure a lesson explains, the edit that
// made a value change (change.go) and a sub-agent's report, which is read
// like an assistant's message (agent.go). Entries about the
// same subject and claim are merged; at most 40 are returned, ordered by
// their first quote. Each Evidence.MessageIndex is the cited message's Index.
func Offline(msgs []Message) []Entry { return OfflineWith(msgs, nil) }

// OfflineWith is Offline parsing claims through claims, a cache shared by
// the calls of a process: an import meets the same sentences session after
// session. A nil cache parses every time. The entries are the same.
func OfflineWith(msgs []Message, claims *claim.Cache) []Entry {
	x := extractor{msgs: msgs, turn: -1, cache: claims}
	for i := range msgs {
		x.message(i)
	}
	x.commands()
	x.versions()
	x.repairs()
	x.branches()
	return WithPlan(x.entries(), msgs)
}

// cand is an entry being built.
type cand struct {
	typ       Type
	score     float64
	ev        []evi
	subject   string
	value     string // the topic value or version the claim settles on, for merging
	title     string
	body      string
	mergeOnly bool   // kept only as more evidence for an existing entry
	failure   string // the error line a repair lesson quotes: repairs of two errors are two lessons
	fixed     bool   // a lesson whose fix is quoted
	seq       int
	words     []string // content words of body, for merging; set by setWords
	wordSet   map[string]bool
	numbers   []string // the words of words with a digit
	from      int      // the message the candidate was found in
	user      bool     // found in a user message
	diagnosed bool     // a lesson stated as a finding ("the cause was"), not a guess ("the issue is that")
	fixOnly   bool     // a lesson that says what was fixed but not what failed
	labelled  bool     // a "Label: value" fact
	label     string   // a labelled fact's label and value as written
	val       string
	resolved  bool     // a lesson whose failing command passes later in the session
	report    bool     // from a user's line that introduces pasted output showing a failure (paste.go)
	questions []string // the user's questions the entry answers, as asked
	answer    bool     // a sentence of a turn's final answer (answer.go)
	edit      bool     // a change of a value that an edit of the session made (change.go)

	// addrs are addresses(addrsOf), kept for sameFinding: mergeTarget
	// compares each candidate with every one kept before it.
	addrs   []string
	addrsOf *string
}

// addresses returns addresses(c.body), read again only when the body changed.
func (c *cand) addresses() []string {
	if c.addrsOf == nil || *c.addrsOf != c.body {
		body := c.body
		c.addrs, c.addrsOf = addresses(body), &body
	}
	return c.addrs
}

type evi struct {
	msg, off int // message position and byte offset of the quote
	quote    string
}

type extractor struct {
	msgs  []Message
	cands []*cand
	turn  int   // position of the last user message
	open  *cand // the current turn's lesson still waiting for its fix
	own   bool  // the current turn runs one of the plugin's own commands

	edits     []int // the session's edits (change.go), listed at the first need
	editsRead int   // edits edited has read, the measure of its cost

	claims map[*sent][]claim.Claim // parsed sentences (claims.go)
	cache  *claim.Cache            // parses texts; nil parses each time
}

func (x *extractor) message(i int) {
	m := x.msgs[i]
	role := strings.ToLower(strings.TrimSpace(m.Role))
	from, ok := 0, false // where the message's own words start
	switch role {
	case "user", "human":
		if clientNotice(m.Text) {
			return // the turn of the last prompt goes on: its answer may follow the notice
		}
		x.turn, x.open, x.own = i, nil, ownCommand(m.Text)
		if typedByClient(m.Text) {
			return
		}
		if bareAcceptance(m.Text) {
			x.acceptPlan(i)
			return
		}
	case "assistant":
		if x.own {
			return // the plugin's own output, read back to the user
		}
	default:
		if from, ok = agentReport(m.Text); !ok {
			return // tool output is read only as a lesson's failure
		}
		if x.own {
			return // a sub-agent's report of the plugin's own output
		}
		role = "assistant" // a sub-agent's report is the session's agent speaking
	}
	text := m.Text
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	spans := sentences(text)
	ss := make([]*sent, len(spans))
	planned := role == "assistant" && x.turn >= 0 && containsPhrase(lowerASCII(x.msgs[x.turn].Text), planRequests)
	for k, sp := range spans {
		ss[k] = newSent(i, sp.start, m.Text[sp.start:limit(m.Text, sp.start, sp.end)], role != "assistant")
		ss[k].shape, ss[k].planned = sp.shape, planned
	}
	// What follows an error pasted into a prompt is the rest of the paste
	// (the overlay's hints, the stack): the tool's words, not the user's,
	// up to a line in which the user writes again (userWritesAgain).
	// A terminal session pasted whole, the command and what it printed,
	// is the same, and only what the user typed after it is theirs.
	paste, pasteEnd, session, sessionEnd := len(m.Text), len(m.Text), len(m.Text), 0
	if role != "assistant" {
		if off, _, ok := pastedLine(m.Text); ok {
			paste = off
		}
		if off, ok := pastedOutput(m.Text); ok && off < paste {
			paste = off
		}
		pasteEnd = userWritesAgain(m.Text, paste)
		if from, to, ok := pastedSession(m.Text); ok {
			session, sessionEnd = from, to
		}
		introducesFailure(m.Text, min(paste, session), ss)
	}
	fixNext := false
	n0 := len(x.cands)
	var question string
	asked := false
	if role == "assistant" {
		question, asked = x.answers(i)
	}
	defer func() { x.antecedents(ss, x.cands[n0:]) }()
	for k, s := range ss {
		if spans[k].start < from || from > 0 && nextToCut(m.Text, spans[k].start, spans[k].end) {
			continue // the report's heading, or a line the store cut short
		}
		if s.used || spans[k].start > paste && spans[k].start < pasteEnd || spans[k].start >= session && spans[k].start < sessionEnd {
			continue // already quoted in a lesson, or pasted
		}
		if role == "assistant" {
			x.valueChange(s)
		}
		if !s.user && isFixedMarker(s.low) {
			fixNext = true
			continue
		}
		if found, content := foundMarker(s); found && !s.user {
			x.found(ss, k, content)
			continue
		}
		if x.finding(ss, k) || x.createdWith(ss, k) || x.fixSection(ss, k) {
			continue
		}
		if noise(s) != notNoise {
			continue
		}
		if x.structured(ss, k) {
			continue
		}
		n := len(x.cands)
		x.sentence(ss, k, fixNext)
		fixNext = false
		if asked && len(x.cands) == n {
			x.answer(s, question)
		}
	}
}

// antecedents gives each candidate of one message that opens with a
// pronoun ("This is now a slash command that …") the sentence before it in
// the message, which names what the pronoun stands for: quoted first and put
// in front of the body. A lesson's failure names its subject already.
func (x *extractor) antecedents(ss []*sent, cs []*cand) {
	for _, c := range cs {
		if c.typ == Lesson || len(c.ev) == 0 || !danglingOpener(c.body) {
			continue
		}
		v := c.ev[len(c.ev)-1]
		k := 0
		for k+1 < len(ss) && ss[k+1].off <= v.off {
			k++
		}
		if k == 0 || ss[k].msg != v.msg {
			continue
		}
		p := ss[k-1]
		if p.shape&(shapeCode|shapeBlock|shapeTable|shapeHeading) != 0 || isQuestion(p) || danglingOpener(p.norm) || noise(p) != notNoise {
			continue
		}
		off, q := p.quote(p.body)
		c.ev = append([]evi{{p.msg, off, q}}, c.ev...)
		c.body = joinBody(strings.TrimRight(clean(p.norm), ":"), c.body)
		c.title = ""
	}
}

// limit returns the end of text[start:end] shortened to maxSentence bytes
// at a rune boundary.
func limit(text string, start, end int) int {
	if end-start <= maxSentence {
		return end
	}
	return runeBefore(text, start+maxSentence, start)
}

// runeBefore is the start of the rune holding byte i of text, or i itself
// when text is not valid UTF-8 there: a rune starts at most UTFMax-1 bytes
// back, and walking further through a run of invalid bytes would cut the
// text down to nothing. It never goes below floor.
func runeBefore(text string, i, floor int) int {
	for j := i; j > max(floor, i-utf8.UTFMax); j-- {
		if utf8.RuneStart(text[j]) {
			return j
		}
	}
	return i
}

// found makes a lesson of what follows "Found it": the marker sentence when
// it says more than the marker, and the next sentence.
func (x *extractor) found(ss []*sent, k int, content bool) {
	main := ss[k]
	var quotes []*sent
	if content {
		quotes = append(quotes, ss[k])
	}
	if k+1 < len(ss) && !isQuestion(ss[k+1]) {
		main = ss[k+1]
		main.used = true
		quotes = append(quotes, main)
	}
	if len(quotes) == 0 || strings.Contains(main.low[main.body:], "let me ") {
		return // "… loads it twice, but let me check where": still looking
	}
	c := &cand{typ: Lesson, score: 2.5, seq: len(x.cands), from: main.msg, diagnosed: true}
	for _, q := range quotes {
		off, t := q.quote(q.body)
		c.ev = append(c.ev, evi{q.msg, off, t})
	}
	c.body = clean(main.norm)
	if t, ok := x.failure(main.msg, main.low); ok {
		c.ev = append([]evi{t}, c.ev...)
		c.score += 0.5
	}
	describeLesson(main, hit{typ: Lesson, at: main.body, end: main.body, k: cause}, c)
	x.cands = append(x.cands, c)
	x.open = c
}

// sentence turns one sentence into zero, one or two candidates.
func (x *extractor) sentence(ss []*sent, k int, fixNext bool) {
	s := ss[k]
	hits, remembered := analyze(s)
	if fixNext && (len(hits) == 0 || hits[0].typ != Lesson) {
		hits = append([]hit{{typ: Lesson, at: s.body, end: s.body, w: 2, k: fix}}, hits...)
	}
	if len(hits) == 0 || hits[0].w <= 0 {
		x.labelFact(s) // a bare link or ticket only backs a reference made elsewhere
	}
	if len(hits) == 0 {
		x.claimed(ss, k)
		return
	}
	primary := hits[0]
	if primary.typ == Lesson {
		x.lesson(ss, k, primary)
		return
	}
	n := len(x.cands)
	x.add(s, primary, remembered, len(hits) > 1)
	if primary.typ != Task && primary.typ != Reference && len(x.cands) > n {
		x.retitle(s, x.cands[n])
		x.changeContext(ss, k, x.cands[n])
	}
	if len(hits) > 1 {
		x.add(s, hits[1], false, true)
	}
}

// add makes a candidate of one hit in s.
func (x *extractor) add(s *sent, h hit, remembered, clause bool) {
	if h.typ == Task && !containsPhrase(s.full, deferrals) {
		return // a step of the work in hand, done or dropped by the session's end
	}
	c := &cand{typ: h.typ, score: h.w, seq: len(x.cands), from: s.msg, user: s.user, report: s.report}
	if s.user {
		c.score += 0.5
	} else if h.typ == Constraint || h.typ == Preference {
		c.score -= 0.3
	}
	if remembered {
		c.score += 1
	}
	c.mergeOnly = h.w <= 0
	off, quote := s.quote(h.at)
	c.ev = []evi{{s.msg, off, quote}}
	describe(s, h, c, clause)
	if !s.user && c.typ == Decision {
		if b := switchMade(c.body); b != c.body {
			c.body, c.title = b, finishTitle(b) // the title, which briefs list, must not keep the narration
		}
	}
	if c.typ == Decision && s.user && anaphoric(s, h) {
		before := len(c.ev)
		x.accepts(s, c)
		if len(c.ev) == before && len(s.topics()) == 0 {
			return // "let's switch to that folder": a choice of nothing this memory can name
		}
	}
	if c.value != "" && c.typ != Reference {
		c.score += 0.3
	}
	if s.user && c.typ != Lesson && c.typ != Task && danglingOpener(c.body) {
		x.referent(s, c)
	}
	x.cands = append(x.cands, c)
}

// referent gives a user's rule that opens with a pronoun ("they should
// always be committed") the thing it stands for: the first sentence of the
// assistant's message before it that names a path or a code span, quoted
// first and put in front of the body. Without one the rule stays dangling
// and standsAlone drops it.
func (x *extractor) referent(s *sent, c *cand) {
	prev := s.msg - 1
	for prev >= 0 && strings.ToLower(x.msgs[prev].Role) == "tool" {
		prev--
	}
	if prev < 0 || strings.ToLower(x.msgs[prev].Role) != "assistant" {
		return
	}
	text := x.msgs[prev].Text
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	for _, sp := range sentences(text) {
		p := newSent(prev, sp.start, text[sp.start:limit(text, sp.start, sp.end)], false)
		if sp.shape&(shapeCode|shapeBlock|shapeTable|shapeHeading) != 0 || isQuestion(p) || danglingOpener(p.norm) {
			continue
		}
		if len(paths(p.norm)) == 0 && !strings.Contains(p.norm, "`") {
			continue
		}
		off, q := p.quote(p.body)
		c.ev = append([]evi{{prev, off, q}}, c.ev...)
		c.body = joinBody(strings.TrimRight(clean(p.norm), ":"), clean(s.norm))
		return
	}
}

// anaphoric reports a decision whose object points back ("let's go with
// that", "그걸로 통일합시다") instead of naming what was chosen.
func anaphoric(s *sent, h hit) bool {
	if len(s.topics()) > 0 {
		return false
	}
	if strings.HasSuffix(s.low[h.at:h.end], "that") || strings.HasSuffix(s.low[h.at:h.end], " it") {
		return true
	}
	rest := strings.TrimLeft(s.low[h.end:], " ")
	for _, a := range anaphors {
		if a.s[0] < utf8.RuneSelf {
			if strings.HasPrefix(rest, a.s) && (len(rest) == len(a.s) || !isWordByte(rest[len(a.s)])) {
				return true
			}
		} else if strings.Contains(s.low[:h.end], a.s) {
			return true
		}
	}
	return false
}

// accepts adds the assistant's proposal that a user decision accepts as its
// first quote, and takes the subject and title from it.
func (x *extractor) accepts(s *sent, c *cand) {
	var prev int
	for prev = s.msg - 1; prev >= 0; prev-- {
		if r := strings.ToLower(x.msgs[prev].Role); r != "tool" {
			break
		}
	}
	if prev < 0 || strings.ToLower(x.msgs[prev].Role) != "assistant" {
		return
	}
	text := x.msgs[prev].Text
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	var pick *sent
	for _, sp := range sentences(text) {
		p := newSent(prev, sp.start, x.msgs[prev].Text[sp.start:sp.end], false)
		if pick == nil || isQuestion(p) || p.startsWithAny(proposalOpeners) {
			pick = p
		}
	}
	if pick == nil {
		return
	}
	off, q := pick.quote(pick.body)
	c.ev = append([]evi{{prev, off, q}}, c.ev...)
	core := proposalCore(pick)
	if core == "" {
		return
	}
	if hits := topicHits(lowerASCII(core)); len(hits) > 0 {
		h := hits[0]
		c.subject, c.value = h.t.subject, canonical(lowerASCII(core)[h.at:h.end])
	} else {
		c.subject = phraseSubject(core, true)
	}
	c.title = finishTitle(core)
	c.body = joinBody(clean(core), clean(s.norm))
}

// proposalCore is what a suggestion proposes: "RFC 7807 problem+json
// 형식으로 통일" of "RFC 7807 problem+json 형식으로 통일하는 건 어떨까요?".
func proposalCore(p *sent) string {
	t := strings.TrimSpace(p.norm[p.body:])
	t = strings.TrimRight(t, "?？.! ")
	l := lowerASCII(t)
	for _, o := range proposalOpeners {
		if strings.HasPrefix(l, o+" ") {
			t, l = t[len(o)+1:], l[len(o)+1:]
			break
		}
	}
	for _, e := range proposalEndings {
		if strings.HasSuffix(t, e) {
			t = strings.TrimSpace(strings.TrimSuffix(t, e))
			break
		}
	}
	return t
}

// lesson records a cause or a fix. A fix joins the turn's open lesson, or the
// cause just before it in the message; a cause looks ahead for its fix; and
// either quotes the tool failure it explains when there is one.
func (x *extractor) lesson(ss []*sent, k int, h hit) {
	s := ss[k]
	if h.k == fix && x.open != nil && !x.open.fixed && x.open.seq < len(x.cands) {
		off, q := s.quote(h.at)
		x.open.ev = append(x.open.ev, evi{s.msg, off, q})
		x.open.fixed = true
		x.open.body = joinBody(x.open.body, "Fix: "+clean(s.norm))
		return
	}
	c := &cand{typ: Lesson, score: h.w, seq: len(x.cands), from: s.msg, user: s.user, diagnosed: diagnosis(s, h)}
	if s.user {
		c.score += 0.5
	}
	main := s
	if h.k != fix && deictic(s) && k > 0 && x.open != nil && x.open.quotes(ss[k-1]) {
		// "That's the root cause." after a cause already recorded
		off, q := s.quote(h.at)
		x.open.ev = append(x.open.ev, evi{s.msg, off, q})
		return
	}
	if h.k != fix && deictic(s) && k > 0 && ss[k-1].msg == s.msg {
		// "That's the root cause." points at the sentence before it.
		main = ss[k-1]
		off, q := main.quote(main.body)
		c.ev = append(c.ev, evi{main.msg, off, q})
	}
	off, q := s.quote(h.at)
	c.ev = append(c.ev, evi{s.msg, off, q})
	if h.k == fix {
		c.fixed, c.fixOnly = true, true
		c.body = "Fix: " + clean(s.norm)
	} else {
		c.body = clean(main.norm)
		for j := k + 1; j < len(ss) && j <= k+fixWindow; j++ {
			if p, at := ss[j].matchIn(fixPhrasesIndex, nil); at >= 0 && p.k == fix || firstPersonChange(ss[j]) {
				if at < 0 {
					at = ss[j].body
				}
				off, q := ss[j].quote(at)
				c.ev = append(c.ev, evi{ss[j].msg, off, q})
				c.fixed = true
				c.body = joinBody("Cause: "+c.body, "Fix: "+clean(ss[j].norm))
				ss[j].used = true
				break
			}
		}
	}
	if t, ok := x.failure(s.msg, lowerASCII(c.body)); ok {
		c.ev = append([]evi{t}, c.ev...)
		c.score += 0.5
		c.fixOnly = false // the failure is its cause
		c.resolved = x.passesLater(t.msg)
	}
	if main != s {
		h = hit{typ: Lesson, at: main.body, end: main.body, k: cause} // offsets are main's, not s's
	}
	describeLesson(main, h, c)
	x.cands = append(x.cands, c)
	if !c.fixed {
		x.open = c
	}
}

// failure returns the most telling failure line of the tool output between
// the turn's user message and message i: an assertion or error message
// rather than a bare "FAIL" or exit code. The line must share a word with
// the lesson (about) or with the user's report of the failure: a lesson is
// never verified by a failure it does not explain.
func (x *extractor) failure(i int, about string) (evi, bool) {
	stop := max(x.turn, i-lookback, -1)
	for j := i - 1; j > stop; j-- {
		m := x.msgs[j]
		if r := strings.ToLower(m.Role); r == "user" || r == "human" {
			break
		}
		if r := strings.ToLower(m.Role); r == "assistant" {
			continue
		}
		if off, q, ok := failureLine(m.Text); ok {
			if !sharesWord(lowerASCII(q), about) && (x.turn < 0 || !sharesWord(lowerASCII(q), lowerASCII(x.msgs[x.turn].Text))) {
				continue // a failure the lesson does not explain
			}
			return evi{j, off, q}, true
		}
	}
	if x.turn >= 0 && x.turn < i {
		// the error the user pasted in the turn's prompt
		if off, q, ok := pastedLine(x.msgs[x.turn].Text); ok && sharesWord(lowerASCII(q), about) {
			return evi{x.turn, off, q}, true
		}
	}
	return evi{}, false
}

// pastedLine finds the first line of a user's message that is an error
// message pasted from a console or a log (pastedError), trimmed.
func pastedLine(text string) (int, string, bool) {
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := strings.TrimSpace(text[pos:end])
		if line != "" && len(line) <= maxQuote && pastedError(line) {
			return pos + strings.Index(text[pos:end], line), line, true
		}
		pos = end + 1
	}
	return 0, "", false
}

// entries merges, scores, caps and orders the candidates.
func (x *extractor) entries() []Entry {
	listed := x.listings()
	ks := keptSet{claims: x.cache}
	answered := map[int]int{} // answer facts kept per message
	for _, c := range x.cands {
		if !x.keeps(c) || listed[c] {
			continue
		}
		c.setWords(contentWords(c.body))
		if into := ks.mergeTarget(c); into >= 0 {
			mergeInto(ks.kept[into], c)
			ks.index(into) // its body, and so its words, may be c's now
			continue
		}
		if c.mergeOnly || c.score < minScore || c.answer && answered[c.from] >= maxAnswerFacts {
			continue
		}
		if c.answer {
			answered[c.from]++
		}
		ks.add(c)
	}
	kept := survivors(ks.kept, x.cache)
	if len(kept) > maxEntries {
		// A sub-agent's report is relayed: what the session's agent said
		// itself comes first at the cap.
		rank := func(c *cand) float64 {
			if x.reported(c) {
				return c.score - reportPenalty
			}
			return c.score
		}
		sort.SliceStable(kept, func(i, j int) bool {
			if a, b := rank(kept[i]), rank(kept[j]); a != b {
				return a > b
			}
			return kept[i].seq < kept[j].seq
		})
		kept = kept[:maxEntries]
	}
	for _, c := range kept {
		sort.SliceStable(c.ev, func(i, j int) bool {
			if c.ev[i].msg != c.ev[j].msg {
				return c.ev[i].msg < c.ev[j].msg
			}
			return c.ev[i].off < c.ev[j].off
		})
	}
	sort.SliceStable(kept, func(i, j int) bool {
		a, b := kept[i].ev[0], kept[j].ev[0]
		if a.msg != b.msg {
			return a.msg < b.msg
		}
		if a.off != b.off {
			return a.off < b.off
		}
		return kept[i].seq < kept[j].seq
	})
	out := make([]Entry, 0, len(kept))
	for _, c := range kept {
		if !quoted(c) {
			continue
		}
		e := Entry{Type: c.typ, Title: c.title, Body: c.body, Subject: c.subject, Questions: c.questions}
		for _, v := range c.ev {
			e.Evidence = append(e.Evidence, Evidence{MessageIndex: x.msgs[v.msg].Index, Quote: v.quote})
		}
		if e.Title == "" {
			e.Title = clip(clean(c.ev[0].quote), maxTitle)
		}
		if e.Body == "" {
			e.Body = clean(c.ev[0].quote)
		}
		e.Body = clip(e.Body, maxBody)
		out = append(out, e)
	}
	return out
}

// survivors drops what a later message of the session overturned: a
// statement whose role a later one says it changes ("the API listens on
// 8443", then "update: it now listens on 9443"), or decides differently
// about the same subject ("Upload limit: 5 MB", then "Upload limit: 8 MB").
// Without a shared subject two values of one role are often two things:
// "uv run x.py" and "npm run dev" both name a package manager. Within a session the later one is the
// state the session ended in; across sessions the conflict ledger decides.
func survivors(cs []*cand, cache *claim.Cache) []*cand {
	claims := make([][]claim.Claim, len(cs))
	for i, c := range cs {
		if conflicting(c.typ) {
			claims[i] = cache.Parse(c.body)
		}
	}
	out := cs[:0:0]
	for i, c := range cs {
		overturned := false
		// Every pair is looked at, so what depends on c alone is read once:
		// whether its subject names a file is no question of the later one.
		named := len(claims[i]) > 0 && len(paths(c.subject)) > 0
		for j := range cs {
			if j == i || cs[j].from <= c.from || len(claims[i]) == 0 || len(claims[j]) == 0 {
				continue
			}
			if c.subject != cs[j].subject && named {
				continue // what a named file holds is changed by a statement about that file
			}
			rel, role, _, _ := claim.Compare(claims[i], claims[j])
			if claim.Identifier(role) {
				continue // "test keys in fixtures/ rather than ./keys": a project has many paths
			}
			if rel == claim.Supersedes || rel == claim.Contradicts && c.subject != "" && c.subject == cs[j].subject {
				overturned = true
				break
			}
		}
		if !overturned {
			out = append(out, c)
		}
	}
	return out
}

// conflicting reports the types whose statements can contradict each
// other; lessons and tasks do not decide a value.
func conflicting(t Type) bool {
	return t == Decision || t == Fact || t == Preference || t == Constraint
}

// quoted reports whether every quote of c says something: a quote of
// nothing would make an entry no aligner can check.
func quoted(c *cand) bool {
	for _, v := range c.ev {
		if strings.TrimSpace(v.quote) == "" {
			return false
		}
	}
	return len(c.ev) > 0
}

// keptSet holds the candidates kept so far, indexed by content word: a
// new candidate's count of words shared with each kept one then costs the
// postings of its own words, not a scan of every kept candidate's words,
// which made a long session's extraction quadratic in its words.
type keptSet struct {
	claims  *claim.Cache // parses candidates' bodies (changes)
	kept    []*cand
	posting map[string][]int  // word -> positions in kept that held it
	indexed []map[string]bool // per position, the words posted for it
	shared  []int             // per position, words shared with the candidate compared
	ident   []bool            // per position, whether one of them is an identifier
	touched []int             // the positions whose shared is set
}

func (ks *keptSet) add(c *cand) {
	ks.kept = append(ks.kept, c)
	ks.indexed = append(ks.indexed, map[string]bool{})
	ks.shared = append(ks.shared, 0)
	ks.ident = append(ks.ident, false)
	ks.index(len(ks.kept) - 1)
}

// index posts the words kept[i] holds, and takes it off the postings of
// words it no longer holds (a merge gave it the candidate's body).
func (ks *keptSet) index(i int) {
	if ks.posting == nil {
		ks.posting = map[string][]int{}
	}
	k, posted := ks.kept[i], ks.indexed[i]
	for w := range posted {
		if !k.wordSet[w] {
			delete(posted, w)
			ks.posting[w] = slices.DeleteFunc(ks.posting[w], func(j int) bool { return j == i })
		}
	}
	for _, w := range k.words {
		if !posted[w] {
			posted[w] = true
			ks.posting[w] = append(ks.posting[w], i)
		}
	}
}

// countShared sets shared and ident for c against every kept candidate,
// noting in touched the positions to reset.
func (ks *keptSet) countShared(c *cand) {
	touched := ks.touched[:0]
	for _, w := range c.words {
		id := identWord(w)
		for _, i := range ks.posting[w] {
			if ks.shared[i] == 0 {
				touched = append(touched, i)
			}
			ks.shared[i]++
			ks.ident[i] = ks.ident[i] || id
		}
	}
	ks.touched = touched
}

// mergeTarget finds the position of the kept entry c repeats, or -1: same
// type and subject, and the same settled value or a similar claim; a
// reference repeats another naming the same URL or ticket. The first kept
// in order wins.
func (ks *keptSet) mergeTarget(c *cand) int {
	ks.countShared(c)
	defer func() {
		for _, i := range ks.touched {
			ks.shared[i], ks.ident[i] = 0, false
		}
	}()
	for i, k := range ks.kept {
		if k.failure != "" && c.failure != "" && k.failure != c.failure {
			continue
		}
		shared := ks.shared[i]
		if sameFinding(k, c, shared, ks.ident[i]) || restated(k, c, shared, ks.claims) {
			return i
		}
		if k.typ != c.typ || k.subject == "" || k.subject != c.subject {
			continue
		}
		switch {
		case c.typ == Reference:
			return i
		case k.value != "" && k.value == c.value:
			return i
		case jaccardOf(shared, len(k.words), len(c.words)) >= 0.5:
			return i
		}
	}
	return -1
}

// identWord reports a word with a digit, dot, slash or underscore in it:
// a name of the code, a version or a path.
func identWord(w string) bool {
	return strings.ContainsAny(w, "0123456789./_")
}

// sameFinding reports two lessons or facts of one session that say the
// same thing in other words ("Root cause: invalid model x-1 in a.py",
// "The error is caused by the invalid model x-1"): they name the same
// identifier, a word with a digit, dot, slash or underscore in it, and
// most of the shorter one's words are in the longer. shared is the count
// of c's words that k holds and ident whether one of them is an
// identifier (keptSet.countShared).
func sameFinding(k, c *cand, shared int, ident bool) bool {
	if k.typ != Lesson && k.typ != Fact || c.typ != Lesson && c.typ != Fact {
		return false
	}
	address := false
	for _, a := range c.addresses() {
		address = address || in(k.addresses(), a)
	}
	if k.typ == Fact && c.typ == Fact {
		// Two facts about one address are one memory of what runs there;
		// two list items about one route or file ("GET /x/{id} - …", "PUT
		// /x/{id} - …") say different things unless most words are shared.
		return address || ident && jaccardOf(shared, len(k.words), len(c.words)) >= 0.5
	}
	return ident && shared*2 >= min(len(k.words), len(c.words)) && shared >= 3
}

// restated reports a statement of the session said again in other words:
// the same kind of entry, at least four content words shared, and most
// (three in five) of the shorter one's words in the longer ("Root cause:
// the exporter loads an expired signing certificate", later "The export
// fails because the exporter loads an expired signing certificate"). A
// session that explains one thing twice, or summarises at its end what it
// said in the middle, holds one fact; kept twice, the second copy is noise
// beside the first. Two list items whose labels name two things of the
// code ("user_id: integer FK", "team_id: integer FK") stay two, and so do
// two statements that each hold a number the other lacks ("listens on port
// 7040", later "now listens on port 7311") or of which the later says it
// changes the earlier: the later may replace the earlier, which survivors
// decides. shared is as for sameFinding; the cheap tests come first, as
// mergeTarget asks this of every kept candidate.
func restated(k, c *cand, shared int, cache *claim.Cache) bool {
	if k.typ != c.typ || k.typ == Task {
		return false // open tasks are listed one by one, as the plan lists them
	}
	if shared < 4 || shared*5 < 3*min(len(k.words), len(c.words)) {
		return false
	}
	if k.labelled && c.labelled && !strings.EqualFold(k.label, c.label) && codeThing(k.label) && codeThing(c.label) {
		return false
	}
	if ownNumber(k, c) && ownNumber(c, k) {
		return false
	}
	return !changes(k, c, cache)
}

// changes reports a later statement that says it changes the earlier
// one's value ("now … Kafka instead of RabbitMQ") or gives the same role
// another value: merged, the entry would cite the replaced value as
// evidence; survivors decides which of the two stands.
func changes(k, c *cand, cache *claim.Cache) bool {
	if claim.ChangeCue(c.body) {
		return true
	}
	rel, _, _, _ := claim.Compare(cache.Parse(k.body), cache.Parse(c.body))
	return rel == claim.Supersedes || rel == claim.Contradicts
}

// ownNumber reports whether a holds a word with a digit that b lacks.
func ownNumber(a, b *cand) bool {
	for _, w := range a.numbers {
		if !b.wordSet[w] {
			return true
		}
	}
	return false
}

// addresses lists the host:port addresses text names, without scheme or
// path: "localhost:7311" of "http://localhost:7311/ (Go server)".
func addresses(text string) []string {
	var out []string
	for w := range strings.FieldsSeq(text) {
		w = addressTrim.trim(w)
		w = addressEndTrim.trimRight(w) // the end of the sentence: "runs on localhost:8123."
		w = strings.TrimPrefix(strings.TrimPrefix(w, "http://"), "https://")
		if i := strings.IndexByte(w, '/'); i >= 0 {
			w = w[:i]
		}
		if hostPort(w) {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// hostPort reports an address with a port: "localhost:4817",
// "http://10.0.0.5:8080/api", "db.internal:5432".
func hostPort(w string) bool {
	w = strings.TrimPrefix(strings.TrimPrefix(w, "http://"), "https://")
	h, rest, ok := strings.Cut(w, ":")
	if !ok || h == "" || !strings.ContainsAny(h, ".abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return false // "12:30" is a time
	}
	n := 0
	for n < len(rest) && isDigit(rest[n]) {
		n++
	}
	return n >= 2 && n <= 5 && (n == len(rest) || rest[n] == '/')
}

func mergeInto(k, c *cand) {
	for _, v := range c.ev {
		dup := false
		for _, w := range k.ev {
			if w.msg == v.msg && w.quote == v.quote {
				dup = true
				break
			}
		}
		if !dup && len(k.ev) < maxEvidence {
			k.ev = append(k.ev, v)
		}
	}
	for _, q := range c.questions {
		if !in(k.questions, q) {
			k.questions = append(k.questions, q)
		}
	}
	if c.score > k.score && !c.mergeOnly {
		k.title, k.body = c.title, c.body
		k.words, k.wordSet, k.numbers = c.words, c.wordSet, c.numbers
	}
	k.score = max(k.score, c.score) + 0.5
}

// jaccardOf is the Jaccard index of two word sets of sizes a and b that
// share shared words.
func jaccardOf(shared, a, b int) float64 {
	if a == 0 || b == 0 {
		return 0
	}
	return float64(shared) / float64(a+b-shared)
}

// setWords sets c's content words and the sets merging reads of them.
func (c *cand) setWords(words []string) {
	c.words, c.wordSet, c.numbers = words, make(map[string]bool, len(words)), nil
	for _, w := range words {
		c.wordSet[w] = true
		if strings.ContainsAny(w, "0123456789") {
			c.numbers = append(c.numbers, w)
		}
	}
}

func contentWords(s string) []string {
	var out []string
	for _, w := range words(s) {
		w = contentTrim.trim(w)
		if w != "" && !isStopword(w) && !in(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func joinBody(a, b string) string {
	if a == "" {
		return b
	}
	if !strings.HasSuffix(a, ".") {
		a += "."
	}
	return a + " " + b
}

// Failed reports whether a tool observation's text (its "Tool: key" line,
// then its output) shows a failure: an error, an exception, a failed test.
// A run can print one and still exit 0 (piped, or ended by an echo). The
// text of a file read, written or edited never counts.
func Failed(text string) bool {
	_, _, ok := failureLine(text)
	return ok
}

// failureLine picks the most telling line of a tool observation that reports
// a failure. File contents (Read, Write, Edit, Grep, Glob) are never read:
// an "Error:" there is code, not a failure.
func failureLine(text string) (int, string, bool) {
	nl := strings.IndexByte(text, '\n')
	if nl < 0 {
		return 0, "", false
	}
	tool := text[:nl]
	if c := strings.IndexByte(tool, ':'); c > 0 {
		switch tool[:c] {
		case "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Grep", "Glob", "TodoWrite":
			return 0, "", false
		}
	}
	best, bestOff, bestQ := 0, 0, ""
	for pos := nl + 1; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		start := pos
		pos = end + 1
		t := strings.TrimSpace(line)
		if best < 6 {
			if off, q, ok := diagnosticQuote(text, start, end); ok {
				best, bestOff, bestQ = 6, off, q // the first compile error: the later ones often follow from it
				continue
			}
		}
		if t == "" || len(t) > maxQuote || strings.HasPrefix(t, "+ ") || strings.HasPrefix(t, "- ") || strings.Contains(line, "\t") && startsWithDigit(t) {
			continue
		}
		if sc := failureScore(t); sc >= best && sc > 0 { // the last of equals: the root cause is usually at the bottom
			best, bestOff, bestQ = sc, start+strings.Index(line, t), t
		}
	}
	return bestOff, bestQ, best > 1
}

// diagnosticQuote reports whether text[start:end] is a compiler's error
// at a position in a source file ("[ERROR] /w/src/OrderMapper.java:[12,7]
// Conflicting converter methods…", "src/Cart.tsx(40,9): error TS2322: …") and
// returns its quote: from the file's name, without the directory, clipped
// to maxQuote at a word, with the next line when that continues it
// ("[ERROR]   symbol:   method build()").
func diagnosticQuote(text string, start, end int) (int, string, bool) {
	line := text[start:end]
	if !strings.Contains(strings.ToLower(line), "error") {
		return 0, "", false
	}
	at, past := observation.SourcePosition(line)
	if at < 0 || !strings.Contains(strings.ToLower(line[:at]+line[past:]), "error") {
		return 0, "", false
	}
	from := start + at
	stop := end
	if next := end + 1; next < len(text) {
		nend := strings.IndexByte(text[next:], '\n')
		if nend < 0 {
			nend = len(text)
		} else {
			nend += next
		}
		cont := strings.TrimPrefix(text[next:nend], "[ERROR]")
		pos, _ := observation.SourcePosition(cont) // a next error's line is not this one's continuation
		if strings.HasPrefix(cont, "  ") && strings.TrimSpace(cont) != "" && pos < 0 && nend-from <= maxQuote {
			stop = nend
		}
	}
	if stop-from > maxQuote {
		stop = from + maxQuote
		for stop > from && text[stop] != ' ' {
			stop--
		}
	}
	q := strings.TrimRight(text[from:stop], " \r")
	if !utf8.ValidString(q) || len(q) < 20 {
		return 0, "", false
	}
	return from, q, true
}

// compileFailed reports whether a run's output shows a compiler error,
// whatever its exit code: a script that builds and starts an app can
// report its failure on exit code 0.
func compileFailed(text string) bool {
	nl := strings.IndexByte(text, '\n')
	if nl < 0 {
		return false
	}
	for pos := nl + 1; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		if _, _, ok := diagnosticQuote(text, pos, end); ok {
			return true
		}
		pos = end + 1
	}
	return false
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

func failureScore(t string) int {
	l := strings.ToLower(t)
	switch {
	case strings.Contains(l, "previous error") || strings.Contains(l, "warnings emitted") || strings.Contains(l, "could not compile"):
		return 0 // a count of errors explains none of them
	case strings.Contains(l, "expected") && (strings.Contains(l, "got") || strings.Contains(l, "to be") || strings.Contains(l, "received") || strings.Contains(l, "to equal")):
		return 5
	case strings.Contains(t, "Error:") || strings.Contains(t, "ERROR:") || strings.Contains(t, "error:") ||
		strings.Contains(t, "Exception") || strings.Contains(t, "panic:") || strings.Contains(l, "panicked") || strings.Contains(t, "FATAL") ||
		strings.Contains(t, "(Forbidden)") || strings.Contains(l, "permission denied") || strings.Contains(l, "connection refused") ||
		strings.HasPrefix(t, "Error "):
		return 4
	case strings.HasPrefix(t, "FAIL") || strings.HasPrefix(t, "--- FAIL") || strings.Contains(t, "✕") || strings.Contains(t, "✗"):
		return 2
	case strings.HasPrefix(l, "exit code") || strings.Contains(l, "exit status"):
		return 1
	}
	return 0
}

// quotes reports whether c quotes sentence s.
func (c *cand) quotes(s *sent) bool {
	for _, v := range c.ev {
		if v.msg == s.msg && v.off >= s.off && v.off < s.off+len(s.text) {
			return true
		}
	}
	return false
}

// passesLater reports whether the command whose failure tool message i
// shows runs again later in the session without failing: the cause named
// in between was the real one, and the session fixed it.
func (x *extractor) passesLater(i int) bool {
	first := func(t string) string {
		if k := strings.IndexByte(t, '\n'); k >= 0 {
			return t[:k]
		}
		return t
	}
	head := first(x.msgs[i].Text)
	cmd, ok := strings.CutPrefix(head, "Bash: ")
	if !ok {
		return false
	}
	key := CommandKey(strings.TrimSuffix(cmd, " (error)"))
	for _, m := range x.msgs[i+1:] {
		if strings.ToLower(m.Role) != "tool" {
			continue
		}
		h := first(m.Text)
		if c, ok := strings.CutPrefix(h, "Bash: "); ok && !strings.HasSuffix(c, " (error)") && CommandKey(c) == key {
			return true
		}
	}
	return false
}

// CommandKey names the command a shell line runs, so that runs of one
// command compare equal however they were prefixed or redirected: the
// first command of a chain, without environment assignments and wrappers
// in front ("CI=1 ./x.sh", "cd api && ./x.sh", "timeout 60 ./x.sh") or
// what follows a pipe or redirect, as its program and first word before
// any flag (two after "run", "exec" or "x": "uv run pytest" and "uv run
// ruff" are two commands). "cargo build --features x" and "cargo build"
// are runs of one command.
func CommandKey(cmd string) string {
	f := strings.Fields(cmd)
	for i, w := range f {
		if w == "|" || w == "||" || w == ";" || strings.HasPrefix(w, ">") || strings.HasPrefix(w, "2>") || strings.HasPrefix(w, "&>") {
			f = f[:i]
			break
		}
	}
	for len(f) > 0 {
		switch w := f[0]; {
		case w == "cd" || w == "pushd":
			k := slices.Index(f, "&&")
			if k < 0 {
				return "cd"
			}
			f = f[k+1:]
		case w == "timeout" && len(f) > 1:
			f = f[2:]
		case w == "sudo" || w == "env" || w == "time" || w == "nohup" || w == "exec" || w == "command":
			f = f[1:]
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-"):
			f = f[1:] // CI=1
		default:
			if k := slices.Index(f, "&&"); k >= 0 {
				f = f[:k]
			}
			return commandOf(f)
		}
	}
	return ""
}

// commandOf is the program and the words after it up to the first flag:
// two words, three after "run", "exec" or "x".
func commandOf(f []string) string {
	n := 2
	if len(f) > 2 && in([]string{"run", "exec", "x"}, f[1]) {
		n = 3
	}
	k := 0
	for k < min(n, len(f)) && (k == 0 || !strings.HasPrefix(f[k], "-")) {
		k++
	}
	return strings.Join(f[:k], " ")
}

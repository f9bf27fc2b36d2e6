package recall

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/glossary"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Block markers of the injected context.
const (
	ConflictOpen  = "[CONFLICT WARNINGS]"
	ConflictClose = "[/CONFLICT WARNINGS]"
	TraceOpen     = "[CITATION TRACE]"
	TraceClose    = "[/CITATION TRACE]"
	TermsOpen     = "[TERMINOLOGY]"
	TermsClose    = "[/TERMINOLOGY]"
	VerifyOpen    = "[VERIFICATION CHECKLIST]"
	VerifyClose   = "[/VERIFICATION CHECKLIST]"
	ClarifyOpen   = "[INTENT CLARIFICATION]"
	ClarifyClose  = "[/INTENT CLARIFICATION]"
)

// hardCap keeps every reply under Claude Code's 10,000-character cap with room
// for the JSON wrapper's escapes.
const hardCap = 9000

// Memory is one memory to show: what it says, when, and its best evidence.
type Memory struct {
	CID   string
	Type  string
	Date  time.Time
	Title string
	Body  string
	Quote string // the aligned evidence quote
	// Author is the teammate who shared it ("" for one's own; see
	// store.Entry.Author).
	Author string
}

// Warning is one item of the [CONFLICT WARNINGS] block.
type Warning struct {
	Severity string // LOW, MEDIUM, HIGH
	Kind     string // superseded, contested, divergent, self-flag
	A, B     Memory // B is empty for a self-flag
	Note     string
	// Old is the value a superseded claim warning says was replaced, or a
	// setting's older line ("" for other warnings): where another listed
	// memory states it, the warning is shown even when A is not listed.
	Old string
	// inItem marks a warning whose two sides are lines of one memory shown:
	// a line a file edit changed (editWarnings), or a change a message
	// states in labelled lines (labelledWarnings). The memory stays listed
	// as it is; the warning is listed with it where it fits.
	inItem bool
	// kept marks a warning the newer memory's line keeps room for
	// (render): a claim warning of a role the claim tables know as a
	// choice (a database, a test runner, a version), or the removal of a
	// piece of code. Other roles ("path", a word the parser took for a
	// role) are as often two remarks about different things, and fill only
	// the room left.
	kept bool
	// standsFor marks a kept warning that quotes the older memory's
	// statement whole (a cause, and the one named later as the real one):
	// it is kept room for with the newer memory even when the older is
	// offered, and stands for the older where that does not fit with it
	// (an older memory listed comes with its warning, which is then used).
	standsFor bool
}

// Rendered is the injected text and what it contains.
type Rendered struct {
	Text     string
	Shown    []string // citation ids of the memories listed
	Warnings int
}

// markerRE finds text in stored content that could open or close one of our
// blocks, a system reminder, or forge a citation. It runs over the
// skeleton of the text, so look-alike spellings match too; words may be
// joined by blanks, '-' or '_'.
var markerRE = lazyregexp.New(`(?i)(\[\s*/?\s*(conflict[\s_-]*warnings?|citation[\s_-]*traces?|terminology|verification[\s_-]*checklists?|intent[\s_-]*clarifications?)\s*\])|(<\s*/?\s*(claude[\s_-]*memory[\s_-]*layer[\s_-]*context|system[\s_-]*reminder)[^>]*>)|(\[\s*mem\s*:)`)

// markerOpeners are the characters a marker markerRE finds can open with,
// as written or as skeleton folds them: '[' or '<', fullwidth or small.
const markerOpeners = "[<\uff3b\uff1c\ufe64"

// Inert makes stored text safe to place inside the injected context: it folds
// it onto one line (so it cannot start a line of its own) and defuses our block
// markers, system-reminder tags and citation ids while keeping them readable,
// and drops the characters nobody sees (Visible).
// A marker spelled with invisible characters, fullwidth forms or look-alike
// letters is found on the text's skeleton and written back defused, in plain
// letters.
func Inert(s string) string {
	s = strings.Join(strings.Fields(Visible(s)), " ")
	if !strings.ContainsAny(s, markerOpeners) {
		return s // most texts: no marker can open, and folding one costs more than the rest
	}
	sk, at := skeleton(s)
	locs := markerRE.FindAllStringIndex(sk, -1)
	if len(locs) == 0 {
		return s
	}
	defuse := strings.NewReplacer("[", "⟦", "]", "⟧", "<", "‹", ">", "›")
	var b strings.Builder
	pos := 0
	for _, l := range locs {
		b.WriteString(s[pos:at[l[0]]])
		b.WriteString(defuse.Replace(sk[l[0]:l[1]]))
		pos = at[l[1]]
	}
	b.WriteString(s[pos:])
	return b.String()
}

// Visible is s without the characters Hidden reports: a model reads them
// and a person does not see them, so stored text could carry instructions
// nobody reviewing it would see, or show text in an order it is not read in.
func Visible(s string) string {
	if strings.IndexFunc(s, Hidden) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if Hidden(r) {
			return -1
		}
		return r
	}, s)
}

// Hidden reports whether r is a character that carries or reorders text
// unseen: Unicode tag characters, bidi controls, and the zero-width space,
// word joiner and byte order mark. Zero-width joiners and non-joiners and
// variation selectors are kept: Persian and Indic spelling and emoji need
// them, and they carry no text of their own.
func Hidden(r rune) bool {
	switch {
	case r >= 0xE0000 && r <= 0xE007F, // tags
		r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C, // bidi
		r == 0x200B, r == 0x2060, r == 0xFEFF:
		return true
	}
	return false
}

// clipRunes cuts s to at most n bytes on a rune boundary, marking the cut.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.TrimSpace(cutRunes(s, n)) + "…"
}

// cutRunes returns s cut to at most n bytes, on a rune's start.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// clipAtWord cuts s to at most n bytes at a space, marking the cut; with no
// space in the second half it cuts on a rune boundary.
func clipAtWord(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if k := strings.LastIndexByte(s[:n+1], ' '); k > n/2 {
		return strings.TrimSpace(s[:k]) + "…"
	}
	return clipRunes(s, n)
}

func date(t time.Time) string {
	if t.IsZero() {
		return "undated"
	}
	return t.UTC().Format("2006-01-02")
}

// typeLabel is an entry's type as the context shows it: a type the store
// should never hold (a crafted export, a future version's) is shown as
// "memory", so stored text can never write outside inert's reach.
func typeLabel(t string) string {
	switch t {
	case "decision", "fact", "preference", "constraint", "lesson", "task", "reference", store.DigestType:
		return t
	}
	return "memory"
}

// noticeLabel names who said a background task's notice (notice).
const noticeLabel = "a background task reported"

// kindLabel names who said a message, or an entry's type.
func kindLabel(it Item) string {
	switch it.Kind {
	case KindEntry:
		return typeLabel(it.Type)
	case "user_prompt":
		if notice(it.event) {
			return noticeLabel
		}
		return "user said"
	case "agent_response":
		return "assistant said"
	case "tool_observation":
		return "tool ran"
	}
	return "message"
}

// quoted shows s between curly quotes, its markers neutralised (Inert):
// a message is shown verbatim, and a value a TOML, JSON or YAML file writes
// in double quotes is shown as written. Curly quotes in s are straightened
// (curlyQuotes), so that no stored text can close its quote and write
// after it in the plugin's voice.
func quoted(s string, n int) string {
	return "“" + clipRunes(curlyQuotes.Replace(Inert(s)), n) + "”"
}

// curlyQuotes straightens the quotes that delimit what a stored text says.
var curlyQuotes = strings.NewReplacer("“", `"`, "”", `"`)

// itemLine renders one item on one line (two with its context): id, kind,
// date, and what was said. An entry's quote is shown only when it adds words
// its claim does not have.
func itemLine(it Item) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s, %s: ", it.CID, kindLabel(it), date(it.Time))
	if it.Kind == KindEntry {
		b.WriteString(sharedBy(it.entry.Author))
		n := 300
		if it.Type == store.DigestType {
			n = digestChars + 100 // its title and the lines that match
		}
		b.WriteString(clipRunes(Inert(it.Excerpt), n))
		if it.Quote != "" && addsWords(it.Quote, it.Excerpt) {
			room := quoteChars
			if it.room > 0 {
				room = it.room
			}
			b.WriteString(" — quoted: " + quoted(it.Quote, room))
		}
		if it.Status == "contested" {
			b.WriteString(" (contested)")
		}
		if it.Closed != "" {
			b.WriteString(" (task closed: " + it.Closed + ")")
		}
	} else {
		room := itemChars
		if it.room > 0 {
			room = it.room
		}
		b.WriteString(quoted(it.Excerpt, room+8))
	}
	if it.ReplacedBy != "" {
		b.WriteString(" (in part replaced by [" + it.ReplacedBy + "], see the warning)")
	}
	if it.ContextExcerpt != "" {
		// The message the context explains: an entry's is the message it
		// quotes that brought it (entryContext).
		of := it.event
		if it.Kind == KindEntry {
			of = it.contextOf
		}
		label := "answer"
		switch {
		case notice(*it.Context) && it.Context.ID > of.ID:
			label = "then " + noticeLabel
		case notice(*it.Context):
			label = "after " + noticeLabel
		case it.Context.Type == store.TypeUserPrompt && it.Context.ID > of.ID:
			label = "the user replied" // to the question the answer ended with, or the tool run
		case it.Context.Type == store.TypeUserPrompt:
			label = "in reply to"
		case of.Type == store.TypeAgentResponse && it.Context.Type == store.TypeToolObservation:
			label = "after" // the failed run it answers
		case of.Type == store.TypeAgentResponse, of.Type == store.TypeUserPrompt && it.Context.Type == store.TypeToolObservation:
			label = "then" // what the step it announced found
		case it.Context.Type == store.TypeToolObservation && toolWeight(it.Context.Text) == 1:
			label = "then ran" // what was tried after the run failed
		case it.Context.Type == store.TypeToolObservation:
			label = "then edited" // the fix the run led to
		}
		room := contextChars
		if it.contextRoom > 0 {
			room = it.contextRoom
		}
		b.WriteString("\n  " + label + ": " + quoted(it.ContextExcerpt, room+8))
	}
	return b.String()
}

// addsWords reports whether quote holds a word of three letters or more that
// claim lacks.
func addsWords(quote, claim string) bool {
	have := tokens(claim)
	for w := range tokens(quote) {
		if len(w) >= 3 && !have[w] {
			return true
		}
	}
	return false
}

// sharedBy names whose a teammate's memory, pulled from the team server, is
// ("shared by alice: "); "" for one's own. The store keeps only a role
// name's characters (store.AuthorName).
func sharedBy(author string) string {
	if author == "" {
		return ""
	}
	return "shared by " + Inert(store.AuthorName(author)) + ": "
}

func side(m Memory) string {
	text := m.Title
	if m.Quote != "" {
		text = m.Quote
	}
	when := date(m.Date)
	if m.Author != "" {
		when += ", " + Inert(store.AuthorName(m.Author))
	}
	return fmt.Sprintf("[%s] (%s) “%s”", m.CID, when, clipRunes(curlyQuotes.Replace(Inert(text)), 220))
}

// yours names one's own side of a warning whose other side a teammate
// shared, so that the warning names both authors.
const yours = "you"

func warningLine(w Warning) string {
	if w.A.Author != "" || w.B.Author != "" {
		if w.A.Author == "" && w.A.CID != "" {
			w.A.Author = yours
		}
		if w.B.Author == "" && w.B.CID != "" {
			w.B.Author = yours
		}
	}
	switch w.Kind {
	case "superseded":
		if w.inItem && w.B.Title == "" { // a line removed (hunkWarnings)
			return fmt.Sprintf("- %s superseded: [%s] “%s” was removed: %s", w.Severity, w.A.CID,
				curlyQuotes.Replace(Inert(w.A.Title)), w.Note)
		}
		if w.inItem {
			return fmt.Sprintf("- %s superseded: [%s] “%s” became “%s”: %s", w.Severity, w.A.CID,
				curlyQuotes.Replace(Inert(w.A.Title)), curlyQuotes.Replace(Inert(w.B.Title)), w.Note)
		}
		return fmt.Sprintf("- %s superseded: %s was replaced by %s. %s", w.Severity, side(w.A), side(w.B), w.Note)
	case "self-flag":
		return fmt.Sprintf("- %s self-flag: %s doubts itself (%s).", w.Severity, side(w.A), w.Note)
	default:
		return fmt.Sprintf("- %s %s: %s and %s disagree. %s", w.Severity, w.Kind, side(w.A), side(w.B), w.Note)
	}
}

// The block's fixed wording, what Claude is told about what follows ("in
// this project" is our heading, not a match rule).
const (
	// memoryHeading's %d is the block's size in tokens, so Claude (and a
	// user reading the transcript) sees what it costs the context window.
	memoryHeading = "Memories from earlier sessions in this project (about %d tokens), relevant to this prompt (messages verbatim, entries distilled from a verbatim quote; dates are when it was said; cite by id):"
	conflictNote  = "These sources disagree. An answer that relies on them states the disagreement instead of silently picking a side; it prefers the newer statement only where it explicitly replaces the older, and says so."
	replacedNote  = "The newer statement replaced the older one: rely on the newer, and say so where the older might still be assumed."
	traceText     = "An answer that uses these memories ends with one line \"Memories used: [mem:…]\" naming only those it relied on, or \"Memories used: none\"; being shown is not being used."
	termsText     = "This prompt uses terms the user defined in the project's glossary; read them in this sense:"
	// verifyText and clarifyText are the opt-in instruction blocks
	// (recall.verification_checklist, recall.intent_clarification); README
	// gives their cost in tokens (TestBlockTokens measures it).
	verifyText  = "Before answering from these memories: 1. check each claim against the memory it rests on, and drop or mark as unverified what none supports; 2. say which memories you relied on; 3. flag any conflict, between memories or between a memory and what you see now, instead of picking a side silently."
	clarifyText = "If the prompt can mean different things given these memories, ask the user one short question before acting; otherwise go ahead without asking."
)

// Tokens estimates the tokens of s as the injected context's heading counts
// them: three characters a token, rounded up.
func Tokens(s string) int { return tokensOf(len(s)) }

// tokensOf estimates the tokens of n characters (Tokens).
func tokensOf(n int) int { return (n + charsPerToken - 1) / charsPerToken }

// Blocks are what Render adds to the memories, besides the warnings.
type Blocks struct {
	Trace         bool // [CITATION TRACE]
	Verification  bool // [VERIFICATION CHECKLIST], only with memories
	Clarification bool // [INTENT CLARIFICATION], only with memories
	// Terms are the glossary terms the prompt uses, for the [TERMINOLOGY]
	// block; it is rendered with or without memories, in at most half of
	// the room, the first terms first.
	Terms []glossary.Term
}

// Per-term and whole-block caps of the [TERMINOLOGY] block: a glossary
// definition is the user's to make long, the prompt's context is not.
const (
	termDefChars = 400
	termsChars   = 1800
)

// block is an instruction block: its markers around its text.
func block(open, text, close string) string { return open + "\n" + text + "\n" + close + "\n" }

// terminology renders the [TERMINOLOGY] block within maxChars, whole lines
// only; "" when no term fits.
func terminology(terms []glossary.Term, maxChars int) string {
	var b strings.Builder
	room := min(maxChars, termsChars) - len(TermsOpen) - len(termsText) - len(TermsClose) - 3
	for _, t := range terms {
		name := t.Name
		if len(t.Aliases) > 0 {
			name += " (also " + strings.Join(t.Aliases, ", ") + ")"
		}
		l := "- " + clipRunes(Inert(name), 160) + ": " + clipRunes(Inert(t.Definition), termDefChars) + "\n"
		if b.Len()+len(l) > room {
			break
		}
		b.WriteString(l)
	}
	if b.Len() == 0 {
		return ""
	}
	return TermsOpen + "\n" + termsText + "\n" + b.String() + TermsClose + "\n"
}

// Render builds the injected context within maxChars: the memory list, then
// the warnings, the glossary terms and the instruction blocks. Whole lines
// are dropped from the end of a section when space runs out, so every block
// that is opened is closed and the text is valid UTF-8. No memories gives the
// terms alone, and no terms either gives "". The room the memories leave is
// then given to the longer excerpts of long messages (Item.widen), best
// first, each only if every memory and warning listed stays listed.
func Render(items []Item, warns []Warning, blocks Blocks, maxChars int) Rendered {
	out := render(items, warns, blocks, maxChars)
	// keeps reports a longer rendering that lists what out lists.
	keeps := func(w Rendered) bool { return slices.Equal(w.Shown, out.Shown) && w.Warnings >= out.Warnings }
	// A second memory is worth more than the rest of the first: a longer
	// excerpt is kept only where every memory and warning stays listed.
	var wide []Item
	limit := min(maxChars, hardCap)
	for i, it := range items {
		// Skipped where it cannot fit: the text would grow by about what
		// the longer excerpt adds (at most wideMax, most often about
		// that), and the room left is less.
		shown, room := len(it.Excerpt), leadChars
		if it.Kind == KindEntry {
			shown = min(len(it.Quote), quoteChars)
			if it.quoteMsg == nil {
				room = itemChars
			}
		}
		if it.widen == nil || !slices.Contains(out.Shown, it.CID) || len(out.Text)+it.wideMax-shown > limit {
			continue
		}
		ex := it.widen()
		if len(ex) <= shown || len(out.Text)+len(ex)-shown > limit {
			continue
		}
		if wide == nil {
			wide = slices.Clone(items)
		}
		narrow := wide[i]
		if it.Kind == KindEntry {
			wide[i].Quote, wide[i].room = ex, room
		} else {
			wide[i].Excerpt, wide[i].room = ex, room
		}
		if w := render(wide, warns, blocks, maxChars); keeps(w) {
			out = w
		} else {
			wide[i] = narrow
		}
	}
	// Then the lines after a memory ("then: …", "answer: …"): the reply to
	// a symptom says what fixed it, often past contextChars (the code line
	// after "docs are only enabled in debug mode:"). As many of them as the
	// room left holds by their length, best first, in one render; where that
	// pushes something out, one by one.
	var grow []int
	room := limit - len(out.Text)
	for i, it := range items {
		if it.widenContext == nil || it.ContextExcerpt == "" || !slices.Contains(out.Shown, it.CID) {
			continue
		}
		if g := max(it.contextMax-len(it.ContextExcerpt), 0); g <= room {
			grow = append(grow, i)
			room -= g
		}
	}
	if len(grow) == 0 {
		return out
	}
	if wide == nil {
		wide = slices.Clone(items)
	}
	narrow := slices.Clone(wide)
	for _, i := range grow {
		if ex := items[i].widenContext(); len(ex) > len(items[i].ContextExcerpt) {
			wide[i].ContextExcerpt, wide[i].contextRoom = ex, itemChars
		}
	}
	if w := render(wide, warns, blocks, maxChars); keeps(w) {
		return w
	}
	wideCtx := slices.Clone(wide)
	copy(wide, narrow)
	for _, i := range grow {
		if wideCtx[i].ContextExcerpt == wide[i].ContextExcerpt {
			continue
		}
		wide[i] = wideCtx[i]
		if w := render(wide, warns, blocks, maxChars); keeps(w) {
			out = w
		} else {
			wide[i] = narrow[i]
		}
	}
	return out
}

// shownContext is the citation id of the message a memory's line shows
// after it ("then: …", "answer: …"), or "": a warning that replaces what
// that message says is listed with the memory where it fits.
func shownContext(it Item) string {
	if it.Context == nil || it.ContextExcerpt == "" {
		return ""
	}
	return store.EventCID(it.Context.ID)
}

// render is Render with each memory's Excerpt as it is.
func render(items []Item, warns []Warning, blocks Blocks, maxChars int) Rendered {
	maxChars = min(maxChars, hardCap)
	tail := privacy.FenceClose
	termBlock := terminology(blocks.Terms, maxChars/2)
	if len(items) == 0 {
		return termsOnly(termBlock)
	}
	var after strings.Builder // the blocks after the warnings
	after.WriteString(termBlock)
	if blocks.Trace {
		after.WriteString(block(TraceOpen, traceText, TraceClose))
	}
	if blocks.Verification {
		after.WriteString(block(VerifyOpen, verifyText, VerifyClose))
	}
	if blocks.Clarification {
		after.WriteString(block(ClarifyOpen, clarifyText, ClarifyClose))
	}
	head := privacy.FenceOpen + "\n" + fmt.Sprintf(memoryHeading, 1000) + "\n" // room for a size of four digits
	budget := maxChars - len(head) - len(tail) - after.Len()
	var out Rendered
	var body, warn strings.Builder
	// The warning that a shown memory was replaced comes with it: a
	// replaced statement is never shown without the newer one ("in part
	// replaced by …, see the warning"). The memory and those warnings fit
	// together or the memory is not listed. The other warnings fill the
	// room left: the newer side listed is the current state without them,
	// and two statements merely contested (in a conversation, often two
	// remarks about different things) must not push out what answers.
	used := make([]bool, len(warns))
	// The block costs its markers and the note printed under the warnings:
	// the short one while every warning is of a replaced memory.
	blockCost := func(conflict bool) int {
		note := replacedNote
		if conflict {
			note = conflictNote
		}
		return len(ConflictOpen) + len(ConflictClose) + len(note) + 3
	}
	short := func(it Item, room int) string {
		text := clipRunes(Inert(it.Excerpt), max(room-60, 0))
		if it.Kind != KindEntry {
			text = quoted(it.Excerpt, max(room-60, 0)) // what was said, verbatim, as itemLine shows it
		}
		return fmt.Sprintf("[%s] %s, %s: %s\n", it.CID, kindLabel(it), date(it.Time), text)
	}
	// dropped marks the warnings whose "then:" line was left out for want
	// of room: printed later, they would explain a line that is not there,
	// unless a memory listed states the value they say was replaced.
	dropped := map[int]bool{}
	var listed []string // the texts of the memories listed, as shown
	// offered holds every memory given, listed or not: a warning whose
	// older side is one of them comes with that memory, not this way,
	// unless it stands for it (Warning.standsFor).
	offered := map[string]bool{}
	for _, it := range items {
		offered[it.CID] = true
	}
	for i, it := range items {
		var ws strings.Builder
		var mine, stale []int // stale: warnings whose then-line is left out
		then := shownContext(it)
		for j, w := range warns {
			if !used[j] && w.Kind == "superseded" && (w.A.CID == it.CID || then != "" && w.A.CID == then) {
				ws.WriteString(warningLine(w) + "\n")
				mine = append(mine, j)
			}
		}
		l := itemLine(it) + "\n"
		// A warning that replaces no statement of the memory's own (an
		// edit's change, or what its "then:" line said) comes with it where
		// it fits; where it does not, the memory is listed without it (with
		// its other warnings), in full, but without a "then:" line the
		// warning said was replaced: a stale line is not shown unmarked.
		optional := func(j int) bool { return warns[j].inItem || warns[j].A.CID != it.CID }
		if slices.ContainsFunc(mine, optional) &&
			body.Len()+len(l)+warn.Len()+ws.Len()+blockCost(false) > budget {
			for _, j := range mine {
				if warns[j].A.CID != it.CID {
					it.ContextExcerpt = ""
					stale = append(stale, j)
				}
			}
			l = itemLine(it) + "\n"
			ws.Reset()
			mine = slices.DeleteFunc(mine, optional)
			for _, j := range mine {
				ws.WriteString(warningLine(warns[j]) + "\n")
			}
		}
		if i == 0 && ws.Len() > 0 && body.Len()+len(l)+ws.Len()+blockCost(false) > budget {
			// The best memory keeps its warning, in short form; when even
			// that leaves no room, it is listed without it, and without
			// pointing at it.
			if room := budget - body.Len() - ws.Len() - blockCost(false); room > 60 {
				l, it.ContextExcerpt = short(it, room), "" // the short form shows no then-line
			} else {
				it.ReplacedBy = ""
				l = itemLine(it) + "\n"
			}
		}
		if body.Len()+len(l) > budget && i == 0 {
			// A tight budget still gets the best memory, in short form.
			l, it.ContextExcerpt = short(it, budget), ""
		}
		// alone is the room the memory takes without its warnings (the
		// block of those already listed counted), need with them.
		alone, need := body.Len()+len(l), body.Len()+len(l)+warn.Len()+ws.Len()+blockCost(false)
		if warn.Len() > 0 {
			alone += warn.Len() + blockCost(false)
		}
		if ws.Len() == 0 {
			need = alone
		}
		if alone > budget {
			break
		}
		if need > budget && i > 0 {
			continue // a memory whose warning does not fit is not listed
		}
		body.WriteString(l)
		listed = append(listed, it.Excerpt, it.ContextExcerpt)
		for _, j := range stale {
			dropped[j] = true
		}
		out.Shown = append(out.Shown, it.CID)
		if need <= budget {
			warn.WriteString(ws.String())
			for _, j := range mine {
				used[j] = true
			}
		}
		// The warning that this memory replaced an earlier choice, or
		// removed a piece of code, that no memory offered here states (one
		// read from the store, or one left out of the list as replaced:
		// current) is kept room for as the memory is listed, before the
		// memories after it take that room (Warning.kept): which of two
		// databases is current, or that a package is gone, is worth more
		// than a memory ranked below this one. So is a warning that stands
		// for its older memory (Warning.standsFor), offered or not.
		for j, w := range warns {
			if used[j] || !w.kept || w.Kind != "superseded" || w.B.CID != it.CID || offered[w.A.CID] && !w.standsFor {
				continue
			}
			if l := warningLine(w) + "\n"; body.Len()+warn.Len()+len(l)+blockCost(false) <= budget {
				warn.WriteString(l)
				used[j] = true
			}
		}
	}
	if len(out.Shown) == 0 {
		return termsOnly(termBlock)
	}
	// A warning about a memory left out (replaced, or doubting itself) is
	// not printed: it would explain a line that is not there.
	// Unless a memory listed states the value it says was replaced: then
	// the older value is shown, and the warning brings the newer with it.
	// The same holds for one whose newer side was offered and left out.
	left := map[string]bool{}
	for _, it := range items {
		left[it.CID] = !slices.Contains(out.Shown, it.CID)
	}
	conflict := false
	for j, w := range warns {
		if used[j] || w.Kind == "self-flag" && left[w.A.CID] || w.Kind == "superseded" && (left[w.A.CID] || left[w.B.CID] || dropped[j]) && !statedIn(listed, w.Old) {
			continue
		}
		l := warningLine(w) + "\n"
		c := conflict || w.Kind != "superseded"
		if body.Len()+warn.Len()+len(l)+blockCost(c) > budget {
			break
		}
		warn.WriteString(l)
		used[j] = true
		conflict = c
	}
	var rest strings.Builder
	rest.WriteString(body.String())
	if warn.Len() > 0 {
		note := replacedNote
		for j, w := range warns {
			if used[j] {
				out.Warnings++
				if w.Kind != "superseded" {
					note = conflictNote
				}
			}
		}
		rest.WriteString(ConflictOpen + "\n" + warn.String() + note + "\n" + ConflictClose + "\n")
	}
	rest.WriteString(after.String())
	rest.WriteString(tail)
	size := len(head) + rest.Len()
	out.Text = privacy.FenceOpen + "\n" + fmt.Sprintf(memoryHeading, tokensOf(size)) + "\n" + rest.String()
	return out
}

// statedIn reports whether one of texts names value as a word of its own,
// a value of an address with a port also by its host alone ("10.0.0.5:5432"
// as "10.0.0.5"). A bare number names nothing on its own.
func statedIn(texts []string, value string) bool {
	if len(value) < 2 || strings.Trim(value, "0123456789") == "" {
		return false
	}
	forms := []string{value}
	if host, port, ok := strings.Cut(value, ":"); ok && strings.Count(host, ".") == 3 && port != "" && strings.Trim(port, "0123456789") == "" {
		forms = append(forms, host)
	}
	// A value followed by a colon is part of another: "10.0.0.5" in
	// "10.0.0.5:6000" is that host with another port.
	ends := func(next byte) bool { return !isWordByte(next) && next != ':' }
	for _, t := range texts {
		t = strings.ToLower(t)
		for _, f := range forms {
			if findWord(t, f, ends) {
				return true
			}
		}
	}
	return false
}

// termsOnly is the injected context of a prompt that uses glossary terms and
// recalls no memory: a term the user defined is relevant by construction.
func termsOnly(termBlock string) Rendered {
	if termBlock == "" {
		return Rendered{}
	}
	return Rendered{Text: privacy.FenceOpen + "\n" + termBlock + privacy.FenceClose}
}

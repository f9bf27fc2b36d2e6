package recall

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
)

// Block markers of the injected context.
const (
	ConflictOpen  = "[CONFLICT WARNINGS]"
	ConflictClose = "[/CONFLICT WARNINGS]"
	TraceOpen     = "[CITATION TRACE]"
	TraceClose    = "[/CITATION TRACE]"
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
}

// Warning is one item of the [CONFLICT WARNINGS] block.
type Warning struct {
	Severity string // LOW, MEDIUM, HIGH
	Kind     string // superseded, contested, divergent, self-flag
	A, B     Memory // B is empty for a self-flag
	Note     string
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
var markerRE = regexp.MustCompile(`(?i)(\[\s*/?\s*(conflict[\s_-]*warnings?|citation[\s_-]*traces?)\s*\])|(<\s*/?\s*(claude[\s_-]*memory[\s_-]*layer[\s_-]*context|system[\s_-]*reminder)[^>]*>)|(\[\s*mem\s*:)`)

// inert makes stored text safe to place inside the injected context: it folds
// it onto one line (so it cannot start a line of its own) and defuses our block
// markers, system-reminder tags and citation ids while keeping them readable.
// A marker spelled with invisible characters, fullwidth forms or look-alike
// letters is found on the text's skeleton and written back defused, in plain
// letters.
func inert(s string) string {
	s = strings.Join(strings.Fields(s), " ")
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

// clipRunes cuts s to at most n bytes on a rune boundary, marking the cut.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + "…"
}

func date(t time.Time) string {
	if t.IsZero() {
		return "undated"
	}
	return t.UTC().Format("2006-01-02")
}

func memoryLine(m Memory) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s, %s: %s", m.CID, m.Type, date(m.Date), clipRunes(inert(m.Title), 200))
	if body := inert(m.Body); body != "" && body != inert(m.Title) {
		b.WriteString(" — " + clipRunes(body, 300))
	}
	if m.Quote != "" {
		b.WriteString("\n  quoted: \"" + clipRunes(strings.ReplaceAll(inert(m.Quote), `"`, `'`), 240) + "\"")
	}
	return b.String()
}

func side(m Memory) string {
	text := m.Title
	if m.Quote != "" {
		text = m.Quote
	}
	return fmt.Sprintf("[%s] (%s) \"%s\"", m.CID, date(m.Date), clipRunes(strings.ReplaceAll(inert(text), `"`, `'`), 220))
}

func warningLine(w Warning) string {
	switch w.Kind {
	case "superseded":
		return fmt.Sprintf("- %s superseded: %s was replaced by %s. %s", w.Severity, side(w.A), side(w.B), w.Note)
	case "self-flag":
		return fmt.Sprintf("- %s self-flag: %s contains wording that reverses something (%s).", w.Severity, side(w.A), w.Note)
	default:
		return fmt.Sprintf("- %s %s: %s and %s disagree. %s", w.Severity, w.Kind, side(w.A), side(w.B), w.Note)
	}
}

const (
	memoryHeading = "Verified memories from earlier sessions in this project (each quote was found in its session's transcript):"
	conflictNote  = "These sources disagree. An answer that relies on them states the disagreement instead of silently picking a side; it prefers the newer verified statement only where that statement explicitly supersedes the older, and says so."
	traceText     = "An answer that uses these memories ends with one line \"Memories used: [mem:…]\" naming only those it relied on, or \"Memories used: none\"; being shown is not being used."
)

// Render builds the injected context within maxChars: the memory list, then
// the warnings, then the citation trace. Whole lines are dropped from the end
// of a section when space runs out, so every block that is opened is closed and
// the text is valid UTF-8. No memories gives "".
func Render(mems []Memory, warns []Warning, withTrace bool, maxChars int) Rendered {
	if len(mems) == 0 {
		return Rendered{}
	}
	maxChars = min(maxChars, hardCap)
	var traceBlock string
	if withTrace {
		traceBlock = TraceOpen + "\n" + traceText + "\n" + TraceClose + "\n"
	}
	head := privacy.FenceOpen + "\n" + memoryHeading + "\n"
	tail := privacy.FenceClose
	budget := maxChars - len(head) - len(tail) - len(traceBlock)
	var out Rendered
	var body strings.Builder
	for i, m := range mems {
		l := memoryLine(m) + "\n"
		if body.Len()+len(l) > budget && i == 0 {
			// A tight budget still gets the best memory, in short form.
			l = fmt.Sprintf("[%s] %s, %s: %s\n", m.CID, m.Type, date(m.Date), clipRunes(inert(m.Title), max(budget-40, 0)))
		}
		if body.Len()+len(l) > budget {
			break
		}
		body.WriteString(l)
		out.Shown = append(out.Shown, m.CID)
	}
	if len(out.Shown) == 0 {
		return Rendered{}
	}
	var warn strings.Builder
	if len(warns) > 0 {
		room := budget - body.Len() - len(ConflictOpen) - len(ConflictClose) - len(conflictNote) - 3
		for _, w := range warns {
			l := warningLine(w) + "\n"
			if warn.Len()+len(l) > room {
				break
			}
			warn.WriteString(l)
			out.Warnings++
		}
	}
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(body.String())
	if out.Warnings > 0 {
		b.WriteString(ConflictOpen + "\n" + warn.String() + conflictNote + "\n" + ConflictClose + "\n")
	}
	b.WriteString(traceBlock)
	b.WriteString(tail)
	out.Text = b.String()
	return out
}

package claim

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
)

// LabelledChange is a change a text states as two labelled lines, what
// held before and what holds after:
//
//	**Before**: red badges with bg-red-900
//	**After**: slate badges with bg-slate-700
type LabelledChange struct {
	Old, New string // the two lines' text after their labels, trimmed
}

// changeLabels pairs the label of a line saying what held before with the
// labels the next line may say what holds now with. Labels, not wording:
// a line's whole lead is the one word, so "Before deploying: …" is no such
// line. "From:"/"To:" are left out: they head a pasted e-mail.
var changeLabels = map[string][]string{
	"before": {"after"}, "old": {"new"}, "current": {"new", "to", "after"},
	"was": {"now"}, "previously": {"now"}, "originally": {"now"},
	"antes": {"después", "despues", "ahora"}, "avant": {"après", "apres", "maintenant"},
	"vorher": {"nachher", "jetzt"}, "было": {"стало"},
}

// maxLabelledLine bounds a labelled line read for a change: a value or a
// sentence fits; a longer line is a paragraph that only opens with a label.
const maxLabelledLine = 300

// LabelledChanges returns the changes text states as a line labelled before
// ("Before:", "Current:", "Было:") followed by a line labelled after
// ("After:", "To:", "Стало:"), blank lines between them aside. The two
// lines must say different things of one kind (alike): "Before: take a
// snapshot" and "After: verify the counts" are steps, not a change. Lines
// in a fenced code block are code (a YAML file's "old:" and "new:" keys).
func LabelledChanges(text string) []LabelledChange {
	if len(text) > maxText {
		// Cut at a line's end: a line cut short is no value.
		text = text[:strings.LastIndexByte(text[:maxText], '\n')+1]
	}
	var out []LabelledChange
	var prev, prevVal string // the label of the last non-blank line, if it opened with one, and its text after it
	fenced := false
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced, prev, prevVal = !fenced, "", ""
			continue
		}
		if t == "" || fenced {
			continue
		}
		label, val := labelled(t)
		if label != "" && prev != "" && !strings.EqualFold(prevVal, val) && alike(prevVal, val) {
			for _, after := range changeLabels[prev] {
				if label == after {
					out = append(out, LabelledChange{Old: prevVal, New: val})
					break
				}
			}
		}
		prev, prevVal = label, val
	}
	return out
}

// openTask reports a trimmed line that is a task list's open item ("- [ ]
// Replace `a` with `b`"): a change to make, which a plan lists, not one
// made. A checked item ("- [x]") is done; "[ ]" without a list marker
// opens no task.
func openTask(line string) bool {
	rest, item := cutListMarker(line)
	return item && strings.HasPrefix(rest, "[ ]")
}

// alike reports two values of one kind: both hold code (a backquoted span)
// or a number, or they share a word of four letters or more ("2.4 s per
// page", "0.3 s per page"; "blue tags with …", "gray tags with …").
func alike(a, b string) bool {
	code := func(s string) bool { return strings.Count(s, "`") >= 2 }
	digit := func(s string) bool { return strings.ContainsAny(s, "0123456789") }
	if code(a) && code(b) || digit(a) && digit(b) {
		return true
	}
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	}
	bw := words(b)
	for _, w := range words(a) {
		if utf8.RuneCountInString(w) >= 4 && slices.Contains(bw, w) {
			return true
		}
	}
	return false
}

// labelled splits a trimmed line that opens with a one-word label and a
// colon (a list marker before it, emphasis around the label: "- **Before:**
// x", "**Before**: x", "1. Old: x") into the label, lower-case, and the
// rest, trimmed; "" when the line is no such line or too long to be one.
func labelled(line string) (label, rest string) {
	if len(line) > maxLabelledLine {
		return "", ""
	}
	line, _ = cutListMarker(line)
	mark := line[:len(line)-len(strings.TrimLeft(line, "*_"))] // the label's emphasis
	line = line[len(mark):]
	end := strings.IndexFunc(line, func(r rune) bool { return !unicode.IsLetter(r) })
	if end <= 0 {
		return "", ""
	}
	word := strings.ToLower(line[:end])
	after := strings.TrimPrefix(line[end:], mark) // "**Before**: x"
	if !strings.HasPrefix(after, ":") {
		return "", ""
	}
	rest = strings.TrimSpace(strings.TrimPrefix(after[1:], mark)) // "**Before:** x"
	if utf8.RuneCountInString(rest) < 2 {
		return "", ""
	}
	return word, rest
}

// maxFieldWords bounds the words of a field's label: a name, not a
// sentence in bold.
const maxFieldWords = 4

// Field splits a line of a document that states a field ("- **AI
// Framework**: Claude Agent SDK", "**Backend:** FastAPI") into its label,
// lower-case, its words single-spaced, and its value, trimmed; "" when the
// line is none. The label is emphasized and of a few words: a sentence
// with a colon in it is no field.
func Field(line string) (label, value string) {
	if len(line) > maxLabelledLine {
		return "", ""
	}
	line, _ = cutListMarker(strings.TrimSpace(line))
	if len(line) < 4 || line[:2] != "**" && line[:2] != "__" {
		return "", ""
	}
	mark := line[:2]
	end := strings.Index(line[2:], mark)
	if end <= 0 {
		return "", ""
	}
	label, after := line[2:2+end], line[4+end:]
	switch {
	case strings.HasSuffix(label, ":"):
		label = strings.TrimSuffix(label, ":") // "**Backend:** FastAPI"
	case strings.HasPrefix(after, ":"):
		after = after[1:] // "**Backend**: FastAPI"
	default:
		return "", ""
	}
	words := strings.Fields(label)
	if len(words) == 0 || len(words) > maxFieldWords || strings.IndexFunc(label, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsSpace(r) && r != '-' && r != '/' && r != '&'
	}) >= 0 {
		return "", ""
	}
	value = strings.TrimSpace(after)
	if utf8.RuneCountInString(value) < 2 {
		return "", ""
	}
	return strings.ToLower(strings.Join(words, " ")), value
}

// cutListMarker returns line without the list marker it opens with ("- ",
// "• ", "+ ", "* ", "1. ", "2) "), and whether it had one.
func cutListMarker(line string) (string, bool) {
	rest := strings.TrimLeft(line, "-•+ ")
	if strings.HasPrefix(rest, "* ") {
		rest = strings.TrimLeft(rest[1:], " ") // a "*" list marker, not emphasis
	}
	if i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && i < len(rest) && (rest[i] == '.' || rest[i] == ')') {
		rest = strings.TrimLeft(rest[i+1:], " ")
	}
	return rest, len(rest) < len(line)
}

// A value in an inline change: a code span, a quoted string, or a run of
// characters without space ("12px", "hover:bg-white/98"); InlineChanges
// drops one longer than maxInlineValue.
const inlineValue = "(`[^`\\n]+`|\"[^\"\\n]+\"|[^\\s`\"()]+)"

// maxInlineValue bounds a value of an inline change, in bytes: a value, not
// a sentence in quotes.
const maxInlineValue = 80

// valueNoun is the one word a value of an inline change may have after it,
// saying what it measures or names ("from 12px thick to …", "updated all
// "2024" references to …"), and valueLead an article and a lower-case word
// before the newer ("… to a thin 3px track"; "Bun" in "to Bun 1.1" is the
// value). Each is a group of its own (loose): a change read with either is
// read only after a change verb, as "from 12px mobile to 16px desktop" is a
// range, and the two values must still be alike (alikeValues).
const valueNoun, valueLead = `(\s+\p{L}+)?`, `((?:a|an|the)\s+)?((?-i:[a-z]+)\s+)?`

// inlineChangeREs find a change a sentence states in one line: "from A to
// B" ("change primary text from `#1e293b` to `#0f172a`", "reduced from 12px
// to 3px"), "changed A to B", "replaced A with B", "A → B", and the newer
// value followed by the older in parentheses ("90.0% (up from 71.4%)",
// "28px (was 56px)"). Each gives the older value, then the newer (old and
// new: the groups' indexes), and is tried on a line holding one of its
// marks, lower-case: most lines state no change, and a line is searched
// for each expression. "From A to B" is as often a range ("from 02:00 to
// 04:00", "ports from 8000 to 8010") and an arrow a mapping ("`/api/users`
// → `handlers/users.go`") unless a change verb comes before them in the
// line (cued).
var inlineChangeREs = []struct {
	marks    []string
	re       *lazyregexp.Regexp
	old, new int
	cued     bool
	loose    []int // the groups of valueNoun and valueLead
}{
	{[]string{"from "}, lazyregexp.New(`(?i)\bfrom\s+` + inlineValue + valueNoun + `\s+to\s+` + valueLead + inlineValue), 1, 5, true, []int{2, 3, 4}},
	{[]string{"chang", "replac", "switched", "bumped", "updated", "renamed"},
		lazyregexp.New(`(?i)\b(?:changed|changing|change|replaced|replacing|replace|switched|bumped|updated|renamed)\s+(?:(?:all|every|each)\s+)?` + inlineValue + valueNoun + `\s+(?:to|with|by)\s+` + valueLead + inlineValue), 1, 5, false, []int{2, 3, 4}},
	{[]string{"→", "->", "⇒"}, lazyregexp.New(inlineValue + `\s*(?:→|->|⇒)\s*` + inlineValue), 1, 2, true, nil},
	// The newer value is the nearest of the few words before the
	// parenthesis alike with the older (new -1: nearestAlike).
	{[]string{"(was ", "(previously ", "(formerly ", "(up from ", "(down from "},
		lazyregexp.New(`(?i)\((?:was|previously|formerly|(?:up|down)\s+from)\s+([^()\n]+)\)`), 1, -1, false, nil},
}

// adviceWords say a line proposes a change rather than states one made
// ("you could replace `useEffect` with `useMemo`").
var adviceWords = lazywords.Lookup(`could might consider suggest suggests recommend recommends option alternatively instead`)

// InlineChanges returns the changes text states inside a line, each an
// older value and the newer one (inlineChangeREs), of one kind (alike) and
// different: "from the API to the database" says where data goes, and
// "URL → Mochi" is a pipeline, not a change. A value's code span or quotes
// are kept; a trailing comma or period is not. Lines in a fenced code block
// are code, a sentence giving advice proposes a change (advises), and an
// open task of a task list is one to make (openTask).
func InlineChanges(text string) []LabelledChange {
	if len(text) > maxText {
		text = text[:strings.LastIndexByte(text[:maxText], '\n')+1]
	}
	var out []LabelledChange
	fenced := false
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced || t == "" || len(t) > 4*maxLabelledLine || openTask(t) {
			continue
		}
		lower := strings.ToLower(t)
		for _, c := range inlineChangeREs {
			if !slices.ContainsFunc(c.marks, func(m string) bool { return strings.Contains(lower, m) }) {
				continue
			}
			for _, m := range c.re.FindAllStringSubmatchIndex(t, -1) {
				if advises(t, m[0], m[1]) {
					continue
				}
				old := strings.TrimRight(t[m[2*c.old]:m[2*c.old+1]], ".,;:")
				var new string
				if c.new < 0 {
					new = nearestAlike(t[:m[0]], old)
				} else {
					new = strings.TrimRight(t[m[2*c.new]:m[2*c.new+1]], ".,;:")
				}
				if old == "" || new == "" || len(old) > maxInlineValue || len(new) > maxInlineValue ||
					sameValue(old, new) || !alikeValues(old, new) {
					continue
				}
				// A cued change needs a change verb before it, unless its two
				// values are one thing's (the same unit); one read loosely
				// needs the verb all the same. The other patterns hold theirs.
				loose := slices.ContainsFunc(c.loose, func(g int) bool { return m[2*g] >= 0 })
				if c.cued && (!sameThing(old, new) || loose) && !changeVerbBefore(strings.ToLower(t[:m[0]])) {
					continue
				}
				if !slices.Contains(out, LabelledChange{Old: old, New: new}) {
					out = append(out, LabelledChange{Old: old, New: new})
				}
			}
		}
	}
	return out
}

// advises reports whether the sentence of line holding line[i:j] gives
// advice (adviceWords): "you could replace `useEffect` with `useMemo`"
// proposes the change; "Breaking API change (`a` → `b`) confirmed.
// Consider switching to …" states one, the advice after it another
// sentence's. The line is read as written: lower-casing may change its
// length ("K", the Kelvin sign, is three bytes and "k" one), so i and j
// would not fall where they did.
func advises(line string, i, j int) bool {
	start, end := 0, len(line)
	for _, b := range []string{". ", "! ", "? ", "; "} {
		if k := strings.LastIndex(line[:i], b); k >= 0 && k+len(b) > start {
			start = k + len(b)
		}
		if k := strings.Index(line[j:], b); k >= 0 && j+k < end {
			end = j + k
		}
	}
	return slices.ContainsFunc(strings.FieldsFunc(strings.ToLower(line[start:end]), func(r rune) bool { return !unicode.IsLetter(r) }), adviceWords().Has)
}

// maxBackWords is how many words before a "(was …)" are read for the
// newer value: a short phrase's ("a compact 28px circular button").
const maxBackWords = 6

// nearestAlike is the word of before, among its last maxBackWords, nearest
// its end that is a value alike with old (alikeValues), trailing
// punctuation cut; "" when none is.
func nearestAlike(before, old string) string {
	ws := strings.Fields(before)
	for i := len(ws) - 1; i >= 0 && i >= len(ws)-maxBackWords; i-- {
		if w := strings.TrimRight(ws[i], ".,;:"); w != "" && alikeValues(old, w) {
			return w
		}
	}
	return ""
}

// changeVerbBefore reports a change verb in before, the line ahead of a
// "from … to" or an arrow: a cue verb ("changed", "reduced", "bumped"),
// one of a change made ("replaced", "moved") or of an update.
func changeVerbBefore(before string) bool {
	return slices.ContainsFunc(strings.FieldsFunc(before, func(r rune) bool { return !unicode.IsLetter(r) }), func(w string) bool {
		return cueVerb(w) || doneWords().Has(w) || updateWords().Has(w)
	})
}

// sameThing reports two values that are plainly one thing's two states:
// the same start, as a name's or a path's versions are
// ("actions/upload-artifact@v3", "…@v4"), or amounts in the same unit
// ("~250ms", "~10ms"). Two bare numbers sharing their first digits are
// as often the ends of a range ("the logs from `1700000012345` to
// `1700000098765`", two clock readings).
func sameThing(a, b string) bool {
	a, b = strings.Trim(a, "`\"'"), strings.Trim(b, "`\"'")
	if n := commonPrefixLen(a, b); n >= 4 && !(digits(a) && digits(b)) {
		return true
	}
	ua, oka := amountUnit(a)
	ub, okb := amountUnit(b)
	return oka && okb && ua != "" && ua == ub
}

// digits reports a value of digits alone ("1700000012345").
func digits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// sameValue reports two spellings of one value: equal but for case and
// spaces, or amounts of one number ("30 s" and "30").
func sameValue(a, b string) bool {
	if strings.EqualFold(strings.ReplaceAll(a, " ", ""), strings.ReplaceAll(b, " ", "")) {
		return true
	}
	na, _ := splitAmount(a)
	nb, _ := splitAmount(b)
	return na != "" && na == nb
}

// commonPrefixLen is how many bytes a and b share from the start.
func commonPrefixLen(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// splitAmount splits s, after an optional sign or tilde, into its leading
// number (digits, points and commas; "" when it opens with none) and what
// follows.
func splitAmount(s string) (number, rest string) {
	s = strings.TrimLeft(s, "~≈<>+-")
	rest = strings.TrimLeft(s, "0123456789.,")
	return s[:len(s)-len(rest)], rest
}

// amountUnit reads s as an amount, a number with an optional sign or tilde
// and a unit of letters or "%" ("~250ms", "12px", "90.0%"), and returns its
// unit, lower-case; ok is false for anything else.
func amountUnit(s string) (unit string, ok bool) {
	number, rest := splitAmount(s)
	if number == "" {
		return "", false
	}
	unit = strings.ToLower(strings.TrimSpace(rest))
	for _, r := range unit {
		if !unicode.IsLetter(r) && r != '%' {
			return "", false
		}
	}
	return unit, true
}

// alikeValues reports two values of one kind, as alike does lines, and
// values rather than words: code, a number, or a name with a letter beyond
// the lower-case ones or a sign ("hover:bg-white/98", "#1e293b",
// "@v3"); two everyday words ("database", "cache") are a movement or a
// pipeline as often as a change.
func alikeValues(a, b string) bool {
	value := func(s string) bool {
		return strings.ContainsAny(s, "`\"0123456789#@/:._-") || strings.IndexFunc(s, unicode.IsUpper) >= 0
	}
	return value(a) && value(b) && alike(a, b)
}

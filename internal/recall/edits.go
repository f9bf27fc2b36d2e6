package recall

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// editChange is one line a file edit changed: the line removed and the line
// added in its place ("timeout = 30" made "timeout = 45", a URL's owner
// changed, a base class dropped).
type editChange struct {
	file           string // the edited file's name
	removed, added string // the two lines, trimmed
}

// maxEditLine bounds a line read for a change: a setting, an import, a
// signature or a dependency fits in it; a longer line is code or prose
// whose few changed words say little of what changed.
const maxEditLine = 200

// maxEditOther bounds the lines an edit read for its changes adds or
// drops besides those it changes in place: a larger edit rewrites code,
// and its lines that look alike are not one thing set anew.
const maxEditOther = 2

// maxEditChanges bounds the lines changed in place of an edit each of which
// is its change. One that changes more sets many things at once (a
// palette's colours, the versions of a dependency bump): its change is the
// line that names the most of what the prompt asks about, more than any
// other changed line does (anchor), or none.
const maxEditChanges = 2

// editChanges reads a file edit's text, as the capture renders it (its
// header "Edit: <path>", then "- old" lines and "+ new" lines), for the
// lines it changed in place: an added line that is a removed line with a
// few tokens changed (changedLine). Lines the edit left as they were are
// passed over.
func editChanges(text string) []editChange {
	head, body, _ := strings.Cut(text, "\n")
	name, file, ok := strings.Cut(head, ": ")
	if !ok || name != "Edit" && name != "MultiEdit" || strings.HasSuffix(file, " (error)") {
		return nil // a failed edit changed nothing
	}
	if strings.Contains(body, " bytes cut …]") {
		return nil // cut when stored: its size is not known, nor what was cut
	}
	var removed, added []string
	for _, l := range strings.Split(body, "\n") {
		if r, ok := strings.CutPrefix(l, "- "); ok {
			removed = append(removed, strings.TrimSpace(r))
		} else if a, ok := strings.CutPrefix(l, "+ "); ok {
			added = append(added, strings.TrimSpace(a))
		}
	}
	// The lines the edit kept are matched first: a line inserted beside a
	// like one ("import json" above "import os") replaces nothing, nor
	// does one whose comment alone changed.
	usedR, usedA := make([]bool, len(removed)), make([]bool, len(added))
	for j, a := range added {
		for i, r := range removed {
			if !usedR[i] && code(r) == code(a) {
				usedR[i], usedA[j] = true, true
				break
			}
		}
	}
	var out []editChange
	other := 0
	for j, a := range added {
		if usedA[j] {
			continue
		}
		for i, r := range removed {
			if !usedR[i] && changedLine(r, a) {
				usedR[i], usedA[j] = true, true
				out = append(out, editChange{file: baseName(file), removed: r, added: a})
				break
			}
		}
		if !usedA[j] && a != "" {
			other++
		}
	}
	for i, r := range removed {
		if !usedR[i] && r != "" {
			other++
		}
	}
	if other > maxEditOther {
		return nil
	}
	return out
}

// anchor is the change of many (maxEditChanges) whose lines name the most
// of the prompt's concepts cs, a specific one among them, more than any
// other change's lines do: "the primary-600 brand colour" in a palette
// edited whole. Nil when no line stands out so.
func anchor(changes []editChange, cs []concept) []editChange {
	best, bestCov, tie := -1, 0.0, false
	for i, c := range changes {
		cov, spec := coverage(cs, keysOf(c.removed), keysOf(c.added))
		switch {
		case spec <= 0 || cov < bestCov:
		case cov == bestCov:
			tie = true
		default:
			best, bestCov, tie = i, cov, false
		}
	}
	if best < 0 || tie {
		return nil
	}
	return changes[best : best+1]
}

// changedLine reports whether added is removed with a few tokens changed
// in one place: at most three tokens of each differ, between a common start
// and a common end that hold at least half of the longer line's tokens and
// a word, so that the line still names what it is ("cone = 6" made "cone
// = 8", "class Glaze(str, Enum):" made "class Glaze(Enum):"). Their code is
// compared, without a trailing comment: an edit that sets a value often
// says why beside it ("timeout: 120 # for model loading"), and one that
// changes only the comment sets nothing.
func changedLine(removed, added string) bool {
	if removed == "" || added == "" || len(removed) > maxEditLine || len(added) > maxEditLine {
		return false
	}
	if comment(removed) || comment(added) {
		return false // a comment says what changed; it sets nothing
	}
	removed, added = code(removed), code(added)
	if strings.EqualFold(removed, added) {
		return false
	}
	rt, at := lineTokens(removed), lineTokens(added)
	p := 0
	for p < len(rt) && p < len(at) && rt[p] == at[p] {
		p++
	}
	if p == len(rt) && p == len(at) {
		return false // the same tokens, spaced otherwise
	}
	s := 0
	for s < len(rt)-p && s < len(at)-p && rt[len(rt)-1-s] == at[len(at)-1-s] {
		s++
	}
	if len(rt)-p-s > 3 || len(at)-p-s > 3 || 2*(p+s) < max(len(rt), len(at)) {
		return false
	}
	for _, t := range append(rt[:p:p], rt[len(rt)-s:]...) {
		if hasLetter(t) {
			return true
		}
	}
	return false
}

// comment reports a line that is a comment in the languages and files an
// edit is most often of: "#", "//", "/*", "*", "-- ", "<!--" opening it. A
// "--" before a name is a CSS custom property ("--brand: #0284c7").
func comment(line string) bool {
	for _, m := range []string{"#", "//", "/*", "*", "-- ", "<!--"} {
		if strings.HasPrefix(line, m) {
			return true
		}
	}
	return line == "--"
}

// code is a line without the comment after its code (trailingComment).
func code(line string) string {
	if i := trailingComment(line); i >= 0 {
		return strings.TrimSpace(line[:i])
	}
	return line
}

// trailingComment returns the byte where a comment after code opens ("
// #", " //"), or -1. A '#' opening a colour is a value ("color: #0284c7").
func trailingComment(line string) int {
	i := -1
	for off := 0; ; {
		k := strings.Index(line[off:], " #")
		if k < 0 {
			break
		}
		if k += off; !hexColor(line[k+2:]) {
			i = k
			break
		}
		off = k + 2
	}
	if j := strings.Index(line, " //"); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	return i
}

// hexColor reports whether s opens with a colour's hex digits after its
// '#': three, four, six or eight, then no more of a word.
func hexColor(s string) bool {
	n := 0
	for n < len(s) && (isDigit(s[n]) || s[n] >= 'a' && s[n] <= 'f' || s[n] >= 'A' && s[n] <= 'F') {
		n++
	}
	return (n == 3 || n == 4 || n == 6 || n == 8) && (n == len(s) || !isLetter(s[n]) && !isDigit(s[n]) && s[n] != '_')
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	return k
}

// baseName is the last element of a path written with / or \ (a session
// recorded on Windows).
func baseName(p string) string {
	return filepath.Base(strings.ReplaceAll(strings.TrimSpace(p), `\`, "/"))
}

// lineTokens splits a line of code into its words (runs of letters,
// digits, '.', '_' and '-': "2.0.0-rc.1", "max_conns") and its other
// characters, one a token; spaces separate and are dropped.
func lineTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == ' ' || r == '\t':
			i += n
		case wordRune(r):
			j := i + n
			for j < len(s) {
				r, m := utf8.DecodeRuneInString(s[j:])
				if !wordRune(r) {
					break
				}
				j += m
			}
			out = append(out, s[i:j])
			i = j
		default:
			out = append(out, s[i:i+n])
			i += n
		}
	}
	return out
}

func wordRune(r rune) bool {
	return r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= utf8.RuneSelf
}

func hasLetter(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// editWarnings finds, among recalled items, a file edit shown that changed
// a line in place: the item itself, or the edit a lesson's failed run led
// to ("then edited", whose excerpt shows the added lines only). The removed
// line is what held before, the added line what holds now, and other items
// may still state the older. The warning names both lines of the one edit;
// it is listed with the item where it fits (Warning.inEdit).
func editWarnings(sel []Item, paired map[[2]int64]bool) []Warning {
	type edit struct {
		it      Item
		ev      store.Event
		changes []editChange
	}
	var edits []edit
	for _, it := range sel {
		ev, shown := it.event, it.Excerpt
		if it.Context != nil && it.Context.Type == store.TypeToolObservation {
			ev, shown = *it.Context, it.ContextExcerpt
		} else if it.Kind != store.TypeToolObservation {
			continue
		}
		all := editChanges(ev.Text)
		if len(all) > maxEditChanges {
			all = anchor(all, it.prompt)
		}
		var cs []editChange
		for _, c := range all {
			if strings.Contains(shown, c.added) { // a change the excerpt leaves out is not what the item was recalled for
				cs = append(cs, c)
			}
		}
		if len(cs) > 0 {
			edits = append(edits, edit{it, ev, cs})
		}
	}
	// changedAgain reports a line a later edit shown of the same file
	// changed again: the line added is then no longer current.
	changedAgain := func(e edit, c editChange) bool {
		for _, o := range edits {
			if !o.ev.Time.After(e.ev.Time) {
				continue
			}
			for _, oc := range o.changes {
				if oc.file == c.file && oc.removed == c.added {
					return true
				}
			}
		}
		return false
	}
	var out []Warning
	for _, e := range edits {
		if len(out) == perKind {
			break
		}
		if paired[pair(-e.ev.ID, -e.ev.ID)] {
			continue
		}
		for _, c := range e.changes {
			if changedAgain(e, c) {
				continue
			}
			old, new := diffWindow(c.removed, c.added, editQuote)
			a := Memory{CID: e.it.CID, Type: kindLabel(e.it), Date: e.ev.Time, Title: old}
			b := a
			b.Title = new
			out = append(out, Warning{Severity: "HIGH", Kind: "superseded", A: a, B: b, inEdit: true,
				Note: fmt.Sprintf("an edit of %s (%s) replaced the first line with the second; the newer is the current one.",
					curlyQuotes.Replace(Inert(c.file)), date(e.ev.Time))})
			paired[pair(-e.ev.ID, -e.ev.ID)] = true
			break
		}
	}
	return out
}

// editQuote is the longest part of a changed line a warning quotes.
const editQuote = 160

// diffWindow returns the parts of two lines a warning quotes, at most n
// bytes each: from a little before the first byte where they differ, so
// that a long line's change is not clipped away from both.
func diffWindow(a, b string, n int) (string, string) {
	if len(a) <= n && len(b) <= n {
		return a, b
	}
	start := max(0, commonPrefix(a, b)-n/4)
	for start > 0 && (!utf8.RuneStart(a[start]) || !utf8.RuneStart(b[start])) {
		start--
	}
	cut := func(s string) string {
		s = s[start:]
		if start > 0 {
			s = "…" + s
		}
		return clipRunes(s, n)
	}
	return cut(a), cut(b)
}

package recall

import (
	"context"
	"fmt"
	"iter"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
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

// maxEditChanges is the most lines an edit changes in place that are each
// read as a thing set anew. An edit that changes more sets many things at
// once (a palette's colours, a dependency bump) and is read for the one
// line the prompt asks about (askedChange).
const maxEditChanges = 2

// editChanges reads a file edit's text, as the capture renders it (its
// header "Edit: <path>", then its diff: "- " removed lines, "+ " added
// ones, "  " kept ones around them), for the
// lines it changed in place: an added line that is a removed line with a
// few tokens changed (changedLine). Lines the edit left as they were are
// passed over; other counts the lines it added or dropped besides,
// comment lines left out: a comment rewritten beside a value says why, it
// sets nothing.
func editChanges(text string) (changes []editChange, other int) {
	file, removed, added, ok := editLines(text)
	if !ok {
		return nil, 0 // no edit, or a failed one, which changed nothing
	}
	if wasCut(text) {
		return nil, 0 // cut when stored: its size is not known, nor what was cut
	}
	opener := lineComment(file)
	// An edit of one line for one pairs the two itself: no other line
	// could be what it replaced, so the line may change in more places
	// than one (changedLine's sole).
	sole := len(removed) == 1 && len(added) == 1
	// A line removed and added again is matched first: moved, or with
	// only its comment changed, it replaces nothing; nor does a line
	// inserted beside a like one ("import json" above "import os").
	usedR, usedA := make([]bool, len(removed)), make([]bool, len(added))
	for j, a := range added {
		for i, r := range removed {
			if !usedR[i] && code(r, opener) == code(a, opener) {
				usedR[i], usedA[j] = true, true
				break
			}
		}
	}
	for j, a := range added {
		if usedA[j] {
			continue
		}
		// Of the removed lines it may be, the one it shares most with,
		// comments included: "memory: 2Gi # glazer" replaced "memory: 1Gi
		// # glazer", not the "memory: 512Mi # spooler" above it.
		best, most := -1, -1
		for i, r := range removed {
			if usedR[i] {
				continue
			}
			if n := shared(r, a); n > most && (changedLine(r, a, opener, sole) || valueSetAnew(r, a, opener)) {
				best, most = i, n
			}
		}
		if best < 0 {
			if a != "" && !comment(a, opener) {
				other++
			}
			continue
		}
		usedR[best], usedA[j] = true, true
		changes = append(changes, editChange{file: baseName(file), removed: removed[best], added: a})
	}
	for i, r := range removed {
		if !usedR[i] && r != "" && !comment(r, opener) {
			other++
		}
	}
	if other > maxEditOther {
		return nil, other
	}
	return changes, other
}

// editLines reads a file edit's text, as the capture renders it (its
// header "Edit: <path>", then "- " removed lines, "+ " added ones and "  "
// kept ones): the file and the lines removed and added, trimmed. Not an
// edit, or a failed one (which changed nothing): ok is false.
func editLines(text string) (file string, removed, added []string, ok bool) {
	file, body, ok := editHeader(text)
	if !ok {
		return "", nil, nil, false
	}
	for _, l := range strings.Split(body, "\n") {
		if r, ok := strings.CutPrefix(l, "- "); ok {
			removed = append(removed, strings.TrimSpace(r))
		} else if a, ok := strings.CutPrefix(l, "+ "); ok {
			added = append(added, strings.TrimSpace(a))
		}
	}
	return file, removed, added, true
}

// editHeader splits a file edit's text into the file its header names and
// the diff below it; ok is false for no edit, or a failed one.
func editHeader(text string) (file, body string, ok bool) {
	head, body, _ := strings.Cut(text, "\n")
	name, file, ok := strings.Cut(head, ": ")
	if !ok || name != "Edit" && name != "MultiEdit" || strings.HasSuffix(file, " (error)") {
		return "", "", false
	}
	return file, body, true
}

// askedChange is the change, of an edit that changed many lines in place
// and nothing else, that the prompt asks about: the one whose lines, each
// side alone, name more of the prompt's concepts cs than any other
// change's, and more of its specific ones: "the kiln door accent" in a
// palette edited whole. Each side is read alone, so that a pair joining
// two lines about two things covers only what both name. Nil when no change
// stands out so, or when the edit also added or dropped lines.
func askedChange(changes []editChange, other int, cs []concept) []editChange {
	if other > 0 {
		return nil
	}
	type score struct{ cov, spec float64 }
	scores := make([]score, len(changes))
	best := -1
	for i, c := range changes {
		cr, sr := coverage(cs, keysOf(c.removed))
		ca, sa := coverage(cs, keysOf(c.added))
		scores[i] = score{min(cr, ca), min(sr, sa)}
		if best < 0 || scores[i].spec > scores[best].spec {
			best = i
		}
	}
	if best < 0 || scores[best].spec <= 0 {
		return nil
	}
	// One substitution made on every line ("available: false" made
	// "available: true" on three flags) is one change, whichever line
	// the prompt names: the line naming most of it stands for all.
	if oneSubstitution(changes) {
		return changes[best : best+1]
	}
	for i, sc := range scores {
		if i != best && (sc.cov >= scores[best].cov || sc.spec >= scores[best].spec) {
			return nil
		}
	}
	return changes[best : best+1]
}

// statedElsewhere is the changes whose removed line an item of sel other
// than the edit (event id) shows.
func statedElsewhere(changes []editChange, sel []Item, id int64) []editChange {
	var out []editChange
	for _, c := range changes {
		if slices.ContainsFunc(sel, func(it Item) bool {
			if it.event.ID == id || it.Context != nil && it.Context.ID == id {
				return false
			}
			return strings.Contains(it.Excerpt, c.removed) || it.ContextExcerpt != "" && strings.Contains(it.ContextExcerpt, c.removed)
		}) {
			out = append(out, c)
		}
	}
	return out
}

// oneSubstitution reports whether every change replaced the same tokens
// with the same tokens, between a start and an end of its own: a flag
// flipped, a value or a name replaced, on each line alike.
func oneSubstitution(changes []editChange) bool {
	var first string
	for i, c := range changes {
		rt, at := lineTokens(c.removed), lineTokens(c.added)
		p, s := affixes(rt, at)
		sub := strings.Join(rt[p:len(rt)-s], " ") + "\x00" + strings.Join(at[p:len(at)-s], " ")
		if i == 0 {
			first = sub
		} else if sub != first {
			return false
		}
	}
	return len(changes) > 1
}

// changedLine reports whether added is removed with a few tokens changed
// in one place: at most three tokens of each differ, between a common start
// and a common end that hold at least half of the longer line's tokens and
// a word, so that the line still names what it is ("cone = 6" made "cone
// = 8", "class Glaze(str, Enum):" made "class Glaze(Enum):"). The sole
// line an edit changed may differ in more tokens, in more places (a URL's
// path rewritten in two): the edit pairs it, so the few tokens in one
// place are not needed to; half of it kept, with a word, still is. Their
// code is compared, without a trailing comment: an edit that sets a value
// often says why beside it ("timeout: 120 # for model loading"), and one
// that changes only the comment sets nothing.
func changedLine(removed, added, opener string, sole bool) bool {
	if removed == "" || added == "" || len(removed) > maxEditLine || len(added) > maxEditLine {
		return false
	}
	if comment(removed, opener) || comment(added, opener) {
		return false // a comment says what changed; it sets nothing
	}
	removed, added = code(removed, opener), code(added, opener)
	// A separator added or dropped at the end (a trailing comma before a
	// new item) changes no value.
	if strings.EqualFold(strings.TrimRight(removed, ",; "), strings.TrimRight(added, ",; ")) {
		return false
	}
	rt, at := lineTokens(removed), lineTokens(added)
	p, s := affixes(rt, at)
	if p == len(rt) && p == len(at) {
		return false // the same tokens, spaced otherwise
	}
	if sorted(rt[p:len(rt)-s], at[p:len(at)-s]) {
		return false // a list's names sorted: imports put in order
	}
	if !sole && (len(rt)-p-s > 3 || len(at)-p-s > 3) || 2*(p+s) < max(len(rt), len(at)) {
		return false
	}
	for _, t := range append(rt[:p:p], rt[len(rt)-s:]...) {
		if hasLetter(t) {
			return true
		}
	}
	return false
}

// maxSetValue bounds the tokens of a value valueSetAnew reads, and
// maxSetFields its words apart (outside brackets): a setting's value is an
// expression ("var(--primary-600)", "ghcr.io/kiln/glaze:2.0", "0 8px",
// "rgba(0, 0, 0, 0.5)"); a line with a phrase after its colon or equals
// sign is prose ("limit = 4 days per kiln run", "TODO: remove the hack").
const (
	maxSetValue  = 12
	maxSetFields = 2
)

// valueSetAnew reports two lines of an edit setting one name anew
// (settingParts, a list's dash before it allowed): the same name and
// separator, and another value, however many of its tokens changed
// ("color: var(--primary-600);" made "color: #0066cc;", "image: kiln:1.4"
// made "image: ghcr.io/kiln/glaze:2.0"). The name says what is set, so
// the value may be rewritten whole, which the few tokens changedLine
// allows do not cover. Only editChanges pairs lines so: hunkWarnings
// skips what changedLine pairs, and an edit editChanges reads no change
// of (one adding other lines besides) still warns there.
func valueSetAnew(removed, added, opener string) bool {
	if len(removed) > maxEditLine || len(added) > maxEditLine {
		return false
	}
	parts := func(line string) (name, sep string, value []string, fields int, ok bool) {
		line = strings.TrimPrefix(strings.TrimSpace(line), "- ")
		name, rest, ok := settingParts(line, opener)
		if !ok {
			return "", "", nil, 0, false
		}
		rest = strings.TrimSpace(strings.TrimRight(rest, ";,"))
		k := strings.IndexAny(line, "=:")
		sep = line[k : k+1]
		return name, sep, lineTokens(rest), outerFields(rest), true
	}
	rn, rs, rv, rf, ok := parts(removed)
	if !ok {
		return false
	}
	an, as, av, af, ok := parts(added)
	return ok && an == rn && as == rs && len(rv) > 0 && len(av) > 0 && len(rv) <= maxSetValue && len(av) <= maxSetValue &&
		rf <= maxSetFields && af <= maxSetFields && !slices.Equal(rv, av)
}

// outerFields counts the words of a value apart, outside brackets: "1px
// solid" is two, "rgba(0, 0, 0, 0.5)" one.
func outerFields(v string) int {
	n, depth, in := 0, 0, false
	for _, r := range v {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth = max(depth-1, 0)
		}
		if r == ' ' || r == '\t' {
			in = in && depth > 0
			continue
		}
		if !in {
			n++
			in = true
		}
	}
	return n
}

// sorted reports a comma-separated list of names put in order: the added
// tokens are the removed ones, the names now sorted and before not
// ("import read_fits, fits_to_image" made "import fits_to_image,
// read_fits"). Other reorderings change what the line says ("margin: 0
// 8px" made "margin: 8px 0").
func sorted(removed, added []string) bool {
	names := func(ts []string) []string {
		var out []string
		for _, t := range ts {
			if t != "," {
				out = append(out, strings.ToLower(t))
			}
		}
		return out
	}
	r, a := names(removed), names(added)
	return len(a) > 1 && len(a) < len(added) && slices.IsSorted(a) && !slices.IsSorted(r) &&
		slices.Equal(slices.Sorted(slices.Values(r)), a)
}

// lineComments gives, by a file's extension or name, what opens a comment
// that runs to the end of a line in it: "#" in shell, Python, YAML, TOML
// and their kin, "//" in the C family, Go, Rust, JavaScript and theirs,
// "--" in SQL, Lua and Haskell. A file of no listed kind has none that a
// value cannot also be: a colour in CSS or Markdown ("#0284c7"), a CSS
// custom property ("--brand"), Python's floor division ("//").
var lineComments = map[string]string{
	"py": "#", "pyi": "#", "rb": "#", "pl": "#", "r": "#", "sh": "#", "bash": "#", "zsh": "#", "fish": "#", "ps1": "#",
	"yml": "#", "yaml": "#", "toml": "#", "ini": "#", "cfg": "#", "conf": "#", "env": "#", "properties": "#",
	"tf": "#", "hcl": "#", "nix": "#", "cmake": "#", "mk": "#", "makefile": "#", "dockerfile": "#", "gitignore": "#",
	"ex": "#", "exs": "#", "jl": "#", "nim": "#", "cr": "#", "coffee": "#",
	"go": "//", "c": "//", "h": "//", "cc": "//", "cpp": "//", "cxx": "//", "hpp": "//", "m": "//", "mm": "//",
	"cs": "//", "java": "//", "kt": "//", "kts": "//", "scala": "//", "groovy": "//", "gradle": "//", "swift": "//",
	"rs": "//", "dart": "//", "zig": "//", "js": "//", "jsx": "//", "mjs": "//", "cjs": "//", "ts": "//", "tsx": "//",
	"mts": "//", "cts": "//", "php": "//", "proto": "//", "sol": "//", "jsonc": "//", "json5": "//", "scss": "//", "less": "//",
	"sql": "--", "lua": "--", "hs": "--", "elm": "--", "ada": "--",
}

// lineComment is what opens a comment to the end of a line in file
// (lineComments), "" for none.
func lineComment(file string) string {
	name := strings.ToLower(baseName(file))
	if ext := filepath.Ext(name); ext != "" {
		name = ext[1:]
	}
	return lineComments[name]
}

// comment reports a line that is a comment: one opened by the file's
// opener (lineComment), or a block comment's line ("/*", "*/", "* …" of
// a file whose lines "//" opens, "<!--").
func comment(line, opener string) bool {
	switch {
	case opener != "" && strings.HasPrefix(line, opener),
		strings.HasPrefix(line, "<!--"), strings.HasPrefix(line, "/*"),
		opener == "//" && (line == "*" || strings.HasPrefix(line, "* ") || strings.HasPrefix(line, "*/")):
		return true
	}
	return false
}

// code is a line without the comment after its code (trailingComment).
func code(line, opener string) string {
	if i := trailingComment(line, opener); i >= 0 {
		return strings.TrimSpace(line[:i])
	}
	return line
}

// trailingComment returns the byte where a comment after code opens, the
// file's opener after a space outside a quoted string ("x = 1 # why", not
// "title: \"Build #12\""), or -1.
func trailingComment(line, opener string) int {
	if opener == "" {
		return -1
	}
	for off := 0; ; {
		k := strings.Index(line[off:], " "+opener)
		if k < 0 {
			return -1
		}
		k += off
		if strings.Count(line[:k], `"`)%2 == 0 && strings.Count(line[:k], "'")%2 == 0 {
			return k
		}
		off = k + 1
	}
}

// shared is how many tokens two lines share at their start and end.
func shared(a, b string) int {
	p, s := affixes(lineTokens(a), lineTokens(b))
	return p + s
}

// affixes are the lengths of the longest common prefix of two token
// lists and of the longest common suffix of what follows it.
func affixes(a, b []string) (prefix, suffix int) {
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		prefix++
	}
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	return prefix, suffix
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
// it is listed with the item where it fits (Warning.inItem).
func editWarnings(sel []Item, snaps []shown, paired map[[2]int64]bool) []Warning {
	type edit struct {
		it      Item
		ev      store.Event
		changes []editChange
	}
	var edits []edit
	for _, it := range sel {
		ev, shown, ok := shownRun(it)
		if !ok {
			continue
		}
		all, other := editChanges(ev.Text)
		if len(all) > maxEditChanges {
			asked := askedChange(all, other, it.promptConcepts)
			if asked == nil {
				// No change the prompt asks stands out; of those another
				// item shown still states the older line of (a read of the
				// file before), the prompt may ask one: that is where the
				// older would be taken for current.
				asked = askedChange(statedElsewhere(all, sel, ev.ID), other, it.promptConcepts)
			}
			all = asked
		}
		var cs []editChange
		for _, c := range all {
			// A change the excerpt leaves out is not what the item was
			// recalled for, nor one naming nothing the prompt asks.
			if strings.Contains(shown, c.added) && namesAsked(it.promptConcepts, c.removed, c.added) {
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
		_, file, _ := strings.Cut(firstLine(e.ev.Text), ": ")
		for _, c := range e.changes {
			// A newer read or write shown of the file that lacks the line
			// added says it changed again too.
			if changedAgain(e, c) || changedLater(snaps, file, c.added, e.ev.Time) {
				continue
			}
			old, new := diffWindow(c.removed, c.added, editQuote)
			a := Memory{CID: e.it.CID, Type: kindLabel(e.it), Date: e.ev.Time, Title: old}
			b := a
			b.Title = new
			out = append(out, Warning{Severity: "HIGH", Kind: "superseded", A: a, B: b, inItem: true,
				Note: fmt.Sprintf("an edit of %s (%s) replaced the first line with the second; the newer is the current one.",
					curlyQuotes.Replace(Inert(c.file)), date(e.ev.Time))})
			paired[pair(-e.ev.ID, -e.ev.ID)] = true
			break
		}
	}
	return out
}

// shownRun is the tool run item it shows, with what is shown of it: the
// item itself, or the run its turn brought (a lesson's failed run then
// edited, a request answered "Done."); ok is false for neither.
func shownRun(it Item) (ev store.Event, shown string, ok bool) {
	if it.Context != nil && it.Context.Type == store.TypeToolObservation {
		return *it.Context, it.ContextExcerpt, true
	}
	return it.event, it.Excerpt, it.Kind == store.TypeToolObservation
}

// hunk is one place an edit changed: the lines it removed and added
// there, between lines it kept, the nearest line it kept above that is
// not blank (in Markdown a heading stands a blank line above its text)
// and the line it kept right below, unless blank (past a blank line, a
// line opens what follows). Either is "" at the diff's start or end, or
// past a gap "  …".
type hunk struct {
	removed, added []string
	above, below   string
}

// hunks reads an edit's text, as editLines reads it, for its changes in
// order: each run of removed and added lines is one hunk. A diff writes a
// run's removed lines before its added ones, so a removed line after an
// added one opens the next hunk (a MultiEdit's diffs are joined with no
// kept line between them). A text cut when stored keeps the hunks whole on
// either side of its cut: the cut falls anywhere in a line, so the line
// after its mark is a piece, and the hunk it runs through has lost lines
// and is left out, up to the next kept line.
func hunks(text string) (file string, hs []hunk, ok bool) {
	file, body, ok := editHeader(text)
	if !ok {
		return "", nil, false
	}
	var cur *hunk // the hunk being read
	lost := false // in the lines the cut ran through
	kept := ""    // the nearest line kept above, not blank
	for _, l := range strings.Split(body, "\n") {
		switch {
		case cutLine(l):
			cur, lost, kept = nil, true, ""
		case lost:
			// The first line after the mark is a piece of one; a line
			// kept, with its two spaces, ends what the cut ran through.
			if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "  …") {
				lost, kept = false, strings.TrimSpace(l)
			}
		case strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "+ "):
			if cur != nil && l[0] == '-' && len(cur.added) > 0 {
				hs = append(hs, *cur) // the next diff's hunk
				cur = nil
			}
			if cur == nil {
				cur = &hunk{above: kept}
			}
			if l[0] == '-' {
				cur.removed = append(cur.removed, strings.TrimSpace(l[2:]))
			} else {
				cur.added = append(cur.added, strings.TrimSpace(l[2:]))
			}
		default:
			k := strings.TrimSpace(l)
			if k == "…" {
				if cur != nil {
					hs = append(hs, *cur)
				}
				cur, kept = nil, ""
				continue
			}
			if cur != nil {
				cur.below = k
				hs = append(hs, *cur)
				cur = nil
			}
			if k != "" {
				kept = k
			}
		}
	}
	if cur != nil && !lost {
		hs = append(hs, *cur)
	}
	return file, hs, true
}

// hunkCoverage is the share of the prompt's weight a hunk, with the kept
// lines around it, names for hunkWarnings.
const hunkCoverage = 0.5

// hunkWarnings finds, among recalled edits shown, when the prompt asks how
// things stand now (Item.promptNow), a change at one place that
// editWarnings does not read: one line replaced by one unlike it ("Using
// PydanticAI evals module:" made "Using LangChain evaluation tools:"), or
// one removed with nothing added in its place. The diff places them: the
// two lines stand where the edit changed one thing, which changedLine
// tells only of lines alike. Of an edit's hunks, the one whose lines, with
// the kept lines around it, name most of the prompt (at least
// hunkCoverage of its weight, a specific word among it) warns: a hunk
// recalled for another of its edit's is no answer, and a prompt asking
// what holds now, not what a document says, is what the older line
// misleads. A line the edit removed and added elsewhere moved; one a newer
// edit or snapshot shown adds or holds again, or removes or lacks after it
// was added, changed again. A text cut when stored may have lost the line
// a removal moved to: only its replacements are read.
func hunkWarnings(sel []Item, snaps []shown, paired map[[2]int64]bool) []Warning {
	var out []Warning
	for _, it := range sel {
		if len(out) == perKind {
			break
		}
		if !it.promptNow {
			continue // every item shares its prompt's tense
		}
		ev, excerpt, ok := shownRun(it)
		if !ok || paired[pair(-ev.ID, -ev.ID)] {
			continue
		}
		file, hs, ok := hunks(ev.Text)
		if !ok {
			continue
		}
		opener := lineComment(file)
		_, removed, added, _ := editLines(ev.Text)
		in := func(l string, ls []string) bool {
			c := code(l, opener)
			return slices.ContainsFunc(ls, func(x string) bool { return code(x, opener) == c })
		}
		// What the newer edits shown of the file removed and added.
		var laterRemoved, laterAdded []string
		for o := range fileEdits(sel, file) {
			if o.Time.After(ev.Time) {
				_, r, a, _ := editLines(o.event.Text)
				laterRemoved, laterAdded = append(laterRemoved, r...), append(laterAdded, a...)
			}
		}
		heldLater := func(l string) bool {
			return in(l, laterAdded) || slices.ContainsFunc(snaps, func(o shown) bool {
				return o.file == file && o.it.Time.After(ev.Time) && slices.Contains(o.lines, l)
			})
		}
		var best *Warning
		most := 0.0
		for _, h := range hs {
			rs, as := nonBlank(h.removed), nonBlank(h.added)
			if len(rs) != 1 || len(as) > 1 || len(as) == 0 && wasCut(ev.Text) || !changeLine(rs[0], opener) {
				continue
			}
			r, a := rs[0], ""
			if !strings.Contains(excerpt, r) || in(r, added) || heldLater(r) {
				continue
			}
			if len(as) == 1 {
				a = as[0]
				if !changeLine(a, opener) || !strings.Contains(excerpt, a) || in(a, removed) || changedLine(r, a, opener, false) ||
					in(a, laterRemoved) || changedLater(snaps, file, a, ev.Time) {
					continue
				}
			}
			cov, spec := coverage(it.promptConcepts, keysOf(strings.Join([]string{h.above, r, a, h.below}, "\n")))
			if cov < hunkCoverage || spec <= 0 || cov <= most {
				continue
			}
			most = cov
			name := curlyQuotes.Replace(Inert(baseName(file)))
			w := Warning{Severity: "HIGH", Kind: "superseded", inItem: true,
				A:    Memory{CID: it.CID, Type: kindLabel(it), Date: ev.Time},
				Note: fmt.Sprintf("an edit of %s (%s) replaced the first line with the second; the newer is the current one.", name, date(ev.Time))}
			w.B = w.A
			if a == "" {
				w.A.Title = clipRunes(r, editQuote)
				w.Note = fmt.Sprintf("an edit of %s (%s) removed it, and put nothing in its place.", name, date(ev.Time))
			} else {
				w.A.Title, w.B.Title = diffWindow(r, a, editQuote)
			}
			best = &w
		}
		if best != nil {
			out = append(out, *best)
			paired[pair(-ev.ID, -ev.ID)] = true
		}
	}
	return out
}

// nonBlank is the lines of ls that are not blank.
func nonBlank(ls []string) []string {
	var out []string
	for _, l := range ls {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// changeLine reports a line an edit changed that can set something: of a
// few hundred bytes at most, with a letter, and not a comment.
func changeLine(l, opener string) bool {
	return len(l) <= maxEditLine && hasLetter(l) && !comment(l, opener)
}

// removedSettingWarnings finds, among recalled items, an edit that removed
// a setting line (a name and a literal value, "reverse: true,") and wrote
// no line setting that name again, where an older message, entry quote
// or user's own lines shown name the setting in a code span ("The
// Flutter `PageView` uses `reverse: true`"): that tells the code as it
// was. The message's statement must name,
// in another code span, a piece of code the edit shows or the edited file
// (`PageView` of "child: PageView.builder("), so that a setting said of
// another file ("the cache in `cache.yml` has `enabled: true`") is not
// taken for the one removed. The warning fills the room left, as it asks
// nothing of the prompt.
func removedSettingWarnings(sel []Item, paired map[[2]int64]bool) []Warning {
	var out []Warning
	for _, e := range sel {
		if e.Kind != store.TypeToolObservation || len(out) == perKind || wasCut(e.event.Text) {
			continue
		}
		file, removed, added, ok := editLines(e.event.Text)
		if !ok {
			continue
		}
		opener := lineComment(file)
		for _, r := range removed {
			name, _, ok := settingLine(r, opener, !configFile(file))
			if !ok || slices.ContainsFunc(added, func(a string) bool { n, _, ok := settingLine(a, opener, false); return ok && n == name }) {
				continue
			}
			set := strings.TrimSuffix(strings.TrimSpace(code(r, opener)), ",")
			for _, o := range sel {
				if !o.Time.Before(e.Time) || paired[pair(itemKey(o), itemKey(e))] {
					continue
				}
				var text string // what o says, with its code spans
				switch o.Kind {
				case store.TypeAgentResponse:
					text = o.Excerpt
				case store.TypeUserPrompt:
					text = claimSource(o) // not output pasted under it
				case KindEntry:
					text = o.Quote // the verbatim message, spans kept
				default:
					continue
				}
				st := sentenceWith(text, "`"+set+"`")
				if st == "" || !namesEditCode(st, set, e.event.Text, file) {
					continue
				}
				out = append(out, Warning{Severity: "HIGH", Kind: "superseded", Old: set,
					A: Memory{CID: o.CID, Type: kindLabel(o), Date: o.Time, Title: strings.TrimSpace(st)},
					B: Memory{CID: e.CID, Type: kindLabel(e), Date: e.Time, Title: "- " + r},
					Note: fmt.Sprintf("an edit of %s (%s) removed %s; the older memory shows it as it was.",
						curlyQuotes.Replace(Inert(baseName(file))), date(e.Time), Inert(name))})
				paired[pair(itemKey(o), itemKey(e))] = true
				break
			}
		}
	}
	return out
}

// namesEditCode reports whether statement st names, in a code span other
// than the setting set, a word of the edit's text (its lines) or the
// edited file's name: the statement is about the code the edit changed.
func namesEditCode(st, set, edit, file string) bool {
	for i, part := range strings.Split(st, "`") {
		if i%2 == 0 || part == set {
			continue // outside a span, or the setting itself
		}
		id := strings.TrimRight(strings.TrimSpace(part), "()")
		if len(id) < 3 || !settingName(id) {
			continue
		}
		if id == baseName(file) || wordIn(edit, id) {
			return true
		}
	}
	return false
}

// writeWarnings finds, among recalled items, a write of a file shown after
// a read or write of it that is shown too: a line of the older that the
// write changed in place (editChanges on the lines either alone holds) was
// what held before, and the write's line is what holds now ("class
// MainActivity : AudioServiceActivity()" read, then written "class
// MainActivity : FlutterActivity()"). A write is the session's decision
// on the whole file, as an edit is on its lines. Both lines must be in
// what the items show, and the write's line in every newer snapshot of
// the file shown: one changed again is no longer current. Of a config
// file, a line the write left out that names the prompt's most specific
// word is gone, unless a newer snapshot or edit holds it again; an edit
// after the older snapshot shows such lines too (editBefore).
func writeWarnings(sel []Item, snaps []shown, paired map[[2]int64]bool) []Warning {
	var out []Warning
	for _, b := range snaps {
		if !b.write || len(out) == perKind {
			continue
		}
		// The newest older snapshot of the file is what the write changed.
		var a *shown
		for i, o := range snaps {
			if samePath(o.file, b.file) && o.it.Time.Before(b.it.Time) && (a == nil || o.it.Time.After(a.it.Time)) {
				a = &snaps[i]
			}
		}
		var w Warning
		ok := false
		if e, found := editBefore(sel, b, a); found && !paired[pair(itemKey(e.it), itemKey(b.it))] {
			// An edit after the older snapshot shows the lines it put in
			// ("+ \"outreachiq\": {"): an entry it added that the write
			// left out was dropped by the write. Asked of by the prompt,
			// it goes before a line the write changed in the snapshot.
			if w, ok = entryDropped(e, b, snaps, sel); ok {
				a = &e
			}
		}
		if !ok && a != nil && !paired[pair(itemKey(a.it), itemKey(b.it))] {
			if w, ok = lineChanged(*a, b, snaps); !ok {
				if w, ok = entryDropped(*a, b, snaps, sel); !ok {
					w, ok = runReplaced(*a, b, snaps)
				}
			}
		}
		if ok {
			out = append(out, w)
			paired[pair(itemKey(a.it), itemKey(b.it))] = true
		}
	}
	return out
}

// editBefore is the newest edit among sel of the config file write b
// writes, before b and after the snapshot a (when there is one), as a
// snapshot of the lines it shows (editHeld, partial): a part of the file, which
// entryDropped reads (an entry the write left out) and nothing else does,
// as the file's other lines are not in it. An edit showing no line (one
// that only removed lines, none kept beside them) is the newest and shows
// nothing the write could drop.
func editBefore(sel []Item, b shown, a *shown) (shown, bool) {
	var e shown
	found := false
	if !configFile(b.file) {
		return e, false // entryDropped reads config files only
	}
	for it, added := range fileEdits(sel, b.file) {
		if !it.Time.Before(b.it.Time) || a != nil && !it.Time.After(a.it.Time) || found && !it.Time.After(e.it.Time) {
			continue
		}
		e, found = shown{it: it, file: b.file, lines: added, partial: true}, true
	}
	return e, found && len(e.lines) > 0
}

// fileEdits yields the edits among sel (shownEdit) of file, with the
// lines each shows the file holding after it (editHeld).
func fileEdits(sel []Item, file string) iter.Seq2[Item, []string] {
	return func(yield func(Item, []string) bool) {
		for _, it := range sel {
			it, ok := shownEdit(it)
			if !ok {
				continue
			}
			if f, _, _, ok := editLines(it.event.Text); ok && samePath(f, file) && !yield(it, editHeld(it.event.Text)) {
				return
			}
		}
	}
}

// editHeld is the lines an edit's text shows the file holding after it,
// in order (heldLines): those it added and those it kept around them.
func editHeld(text string) []string {
	_, lines := heldLines(text)
	return lines
}

// shownEdit is the file edit item it shows: itself, or the edit a request
// answered "Done." shows as its turn (messageContext), as an item of its
// own (its citation id, its kind), which a warning names as the request's
// "then:" line. ok is false for an item that shows no edit.
func shownEdit(it Item) (Item, bool) {
	if it.Kind != store.TypeToolObservation {
		if it.Context == nil || it.Context.Type != store.TypeToolObservation || it.ContextExcerpt == "" {
			return Item{}, false
		}
		// Cited by its own id, no entry's (itemKey), no entry's events.
		it = contextItem(it)
		it.CID, it.entry, it.events = store.EventCID(it.event.ID), store.Entry{}, nil
	}
	// The header first: editLines splits the whole text.
	return it, strings.HasPrefix(it.event.Text, "Edit: ") || strings.HasPrefix(it.event.Text, "MultiEdit: ")
}

// lineChanged is the warning on a line of the older snapshot a that the
// write b changed in place, if it changed one both show.
func lineChanged(a, b shown, snaps []shown) (Warning, bool) {
	diff, ok := snapshotDiff(b.file, a.lines, b.lines)
	if !ok {
		return Warning{}, false
	}
	changes, other := editChanges(diff)
	if len(changes) > maxEditChanges {
		changes = askedChange(changes, other, b.it.promptConcepts)
	} else if asked := askedChange(changes, other, b.it.promptConcepts); len(asked) == 1 {
		// Of two, the one naming the prompt's concepts best first
		// ("class MainActivity : …" before its import).
		changes = slices.Concat(asked, changes)
	}
	for _, c := range changes {
		if !strings.Contains(a.it.Excerpt, c.removed) || !strings.Contains(b.it.Excerpt, c.added) ||
			changedLater(snaps, b.file, c.added, b.it.Time) {
			continue
		}
		old, new := diffWindow(c.removed, c.added, editQuote)
		return Warning{Severity: "HIGH", Kind: "superseded",
			A: Memory{CID: a.it.CID, Type: kindLabel(a.it), Date: a.it.Time, Title: old},
			B: Memory{CID: b.it.CID, Type: kindLabel(b.it), Date: b.it.Time, Title: new},
			Note: fmt.Sprintf("a write of %s (%s) replaced the first line with the second; the newer is the current one.",
				curlyQuotes.Replace(Inert(c.file)), date(b.it.Time))}, true
	}
	return Warning{}, false
}

// runReplaced is the warning on lines of the older snapshot a that the
// write b replaced with fewer lines of their own shape, too many to read
// as changes in place (editChanges): four variables of a schema replaced
// by one ("SUPABASE_URL: z.string().min(1)," and three like it made
// "APOLLO_API_KEY: z.string().min(1),"). Every line either dropped or put
// in is one of the other side's with a few tokens changed (changedLine),
// the two sides no more than maxSnapshotDiff lines, and both are shown;
// the write's lines are in every newer snapshot shown. As many lines put
// in as taken out are as many changes in place, many things set at once
// (a palette recoloured), of which an edit warns only of the one asked
// (askedChange); more put in than taken out may be the rest of a file the
// older snapshot showed only the start of.
func runReplaced(a, b shown, snaps []shown) (Warning, bool) {
	if wasCut(a.it.event.Text) || wasCut(b.it.event.Text) {
		return Warning{}, false
	}
	removed, added := missing(a.lines, b.lines), missing(b.lines, a.lines)
	if len(removed)+len(added) <= 2 || len(removed) > maxSnapshotDiff || len(added) == 0 || len(added) >= len(removed) {
		return Warning{}, false // one line each is lineChanged's; none added, a removal; as many or more, changes in place
	}
	opener := lineComment(b.file)
	alike := func(l string, others []string) bool {
		return slices.ContainsFunc(others, func(o string) bool { return changedLine(l, o, opener, false) })
	}
	for _, r := range removed {
		if !alike(r, added) {
			return Warning{}, false
		}
	}
	for _, l := range added {
		if !alike(l, removed) || changedLater(snaps, b.file, l, b.it.Time) {
			return Warning{}, false
		}
	}
	if !slices.ContainsFunc(removed, func(l string) bool { return strings.Contains(a.it.Excerpt, l) }) ||
		!slices.ContainsFunc(added, func(l string) bool { return strings.Contains(b.it.Excerpt, l) }) {
		return Warning{}, false
	}
	old, new := strings.Join(removed, " "), strings.Join(added, " ")
	return Warning{Severity: "HIGH", Kind: "superseded",
		A: Memory{CID: a.it.CID, Type: kindLabel(a.it), Date: a.it.Time, Title: clipRunes(old, 2*editQuote)},
		B: Memory{CID: b.it.CID, Type: kindLabel(b.it), Date: b.it.Time, Title: clipRunes(new, 2*editQuote)},
		Note: fmt.Sprintf("a write of %s (%s) replaced the first lines with the second; the newer are the current ones.",
			curlyQuotes.Replace(Inert(baseName(b.file))), date(b.it.Time))}, true
}

// entryDropped is the warning on a config file's entry the write b left
// out: a line of the older snapshot a naming the prompt's most specific
// word its lines name ("the outreachiq server" in an MCP config written
// without it), where no line of the write names that word (one reformatted
// or given a trailing comma is still there) and no newer snapshot holds
// the line again. However many other lines the write changed. A prompt
// naming the file itself and no word of the dropped lines asks of every
// entry: the first line the older shows naming a word the write does not
// (namesGone).
func entryDropped(a, b shown, snaps []shown, sel []Item) (Warning, bool) {
	if !configFile(b.file) || wasCut(a.it.event.Text) || wasCut(b.it.event.Text) {
		return Warning{}, false
	}
	removed := missing(a.lines, b.lines)
	gone := map[string]bool{}
	for _, l := range removed {
		gone[l] = true
	}
	key := mostSpecific(b.it.promptConcepts, gone)
	// A prompt that names the file itself ("what's in
	// claude_desktop_config.json?") asks of all of it: any entry the
	// write dropped is what it asks, the first the older shows.
	whole := key.keys == nil && conceptsName(b.it.promptConcepts, b.file)
	if !whole && key.keys == nil {
		return Warning{}, false
	}
	kept := keysOf(strings.Join(b.lines, "\n"))
	if !whole && hasAny(kept, key.keys) {
		return Warning{}, false
	}
	for _, l := range removed {
		asked := namesGone(l, kept)
		if !whole {
			asked = hasAny(keysOf(l), key.keys)
		}
		if !asked || !strings.Contains(a.it.Excerpt, l) {
			continue
		}
		if slices.ContainsFunc(snaps, func(o shown) bool {
			return samePath(o.file, b.file) && o.it.Time.After(b.it.Time) && slices.Contains(o.lines, l)
		}) || addedBack(sel, b, l) {
			continue // written back since
		}
		// The newer side is what the write put in the entry's place
		// ("\"mcpServers\": {},"), else the write itself; an edit shows
		// no neighbours of the entry to place it by.
		var instead string
		if !a.partial {
			instead = strings.Join(inPlace(a.lines, b.lines, l), " ")
		}
		if instead == "" || !strings.Contains(b.it.Excerpt, instead) {
			instead = "(" + curlyQuotes.Replace(Inert(firstLine(b.it.Text))) + ")"
		}
		return Warning{Severity: "HIGH", Kind: "superseded", kept: true, standsFor: true,
			A: Memory{CID: a.it.CID, Type: kindLabel(a.it), Date: a.it.Time, Title: l},
			B: Memory{CID: b.it.CID, Type: kindLabel(b.it), Date: b.it.Time, Title: instead},
			Note: fmt.Sprintf("a write of %s (%s) left the first line out; the newer is how the file stands.",
				curlyQuotes.Replace(Inert(baseName(b.file))), date(b.it.Time))}, true
	}
	return Warning{}, false
}

// conceptsName reports prompt concepts that name file by the words of
// its name (nameWords), two at least ("claude desktop config" of
// claude_desktop_config.json): one word names a tool or a page as often as
// the file (see namesRunFile). Concepts keep no order, so the words may be
// apart.
func conceptsName(cs []concept, file string) bool {
	words := nameWords(file)
	return len(words) >= 2 && !slices.ContainsFunc(words, func(w string) bool {
		k := indexKey(w)
		return !slices.ContainsFunc(cs, func(c concept) bool { return slices.Contains(c.keys, k) })
	})
}

// namesGone reports a line naming an entry by a word of three letters or
// more the newer file's lines (kept) do not hold (`"glazebot": {`, not a
// lone "}" or `"url": …` of a field the file still sets).
func namesGone(line string, kept textKeys) bool {
	for _, w := range lowerRuns(line) {
		if utf8.RuneCountInString(w) >= 3 && strings.ContainsFunc(w, unicode.IsLetter) && !kept.has(indexKey(w)) {
			return true
		}
	}
	return false
}

// inPlace is what newer, a file's lines, holds in place of older's line
// l: the lines older lacks between the nearest line before l and the
// nearest after it that newer holds too; at most two. A line a file holds
// many times ("},") is the same line in both where it is the same
// occurrence of it, counted from the top.
func inPlace(older, newer []string, l string) []string {
	i := slices.Index(older, l)
	if i < 0 {
		return nil
	}
	at := map[string][]int{} // where newer holds each line
	for j, n := range newer {
		at[n] = append(at[n], j)
	}
	nth := make([]int, len(older)) // which occurrence in older each line is
	seen := map[string]int{}
	for k, o := range older {
		nth[k] = seen[o]
		seen[o]++
	}
	from := 0
	for k := i - 1; k >= 0; k-- {
		if js := at[older[k]]; nth[k] < len(js) {
			from = js[nth[k]] + 1
			break
		}
	}
	to := len(newer)
	for k := i + 1; k < len(older); k++ {
		if js := at[older[k]]; nth[k] < len(js) && js[nth[k]] >= from {
			to = js[nth[k]]
			break
		}
	}
	var out []string
	for _, n := range missing(newer[from:to], older) {
		if len(out) < 2 {
			out = append(out, n)
		}
	}
	return out
}

// shown is a snapshot of a file a recalled item shows.
type shown struct {
	it      Item
	file    string
	lines   []string
	write   bool
	partial bool // the lines an edit shows (editBefore), not the whole file
}

// addedBack reports an edit among sel (shownEdit), after the write b, of
// its file that shows line l again, added or kept beside its change.
func addedBack(sel []Item, b shown, l string) bool {
	for it, added := range fileEdits(sel, b.file) {
		if it.Time.After(b.it.Time) && slices.Contains(added, l) {
			return true
		}
	}
	return false
}

// snapshots are the snapshots of files the tool runs among items show.
func snapshots(items []Item) []shown {
	var out []shown
	for _, it := range items {
		if it.Kind != store.TypeToolObservation {
			continue
		}
		if file, lines, write := snapshot(it.event.Text); file != "" {
			out = append(out, shown{it: it, file: file, lines: lines, write: write})
		}
	}
	return out
}

// changedLater reports whether a snapshot of file shown newer than t lacks
// line: a write or a read after the change shows the file otherwise.
func changedLater(snaps []shown, file, line string, t time.Time) bool {
	for _, o := range snaps {
		if o.file == file && o.it.Time.After(t) && !slices.Contains(o.lines, line) {
			return true
		}
	}
	return false
}

// snapshot is the file a read or a write shows, its lines in order
// (trimmed, blank ones left out), and whether it is a write; "" for any
// other text, a failed call, or a read numbered from a later line than
// the first. A read the hook received bare (without line numbers) is
// taken as it is: where it was a part of the file, the write's other lines
// are unpaired, and more than two such make editChanges read a rewrite; a
// line it showed that the write changed in place is a change still. A
// text cut when stored keeps its "[… n bytes cut …]" line, and editChanges
// reads no change from a text holding one: a line missing from it may be
// cut, not changed.
func snapshot(text string) (file string, lines []string, write bool) {
	head, body, _ := strings.Cut(text, "\n")
	name, file, ok := strings.Cut(head, ": ")
	if !ok || strings.HasSuffix(file, " (error)") || name != "Read" && name != "Write" {
		return "", nil, false
	}
	// A read is numbered when its lines are, 1, 2, 3 …; a bare read's lines
	// are the file's, whatever they open with ("7\tlow\t10").
	first, _, _ := strings.Cut(body, "\n")
	n, _ := lineNumber(first)
	numbered := name == "Read" && n == "1" && numberedFromOne(body)
	if name == "Read" && n != "" && !numbered {
		return "", nil, false // numbered from a later line, or not plainly either
	}
	for l := range strings.Lines(body) {
		switch {
		case numbered:
			_, l = lineNumber(l)
		case name == "Write":
			// The capture writes each line of the content after "+ ";
			// a blank line is "+" alone once the text is trimmed.
			if t := strings.TrimSpace(l); t == "+" {
				continue
			}
			a, ok := strings.CutPrefix(l, "+ ")
			if !ok {
				return "", nil, false
			}
			l = a
		}
		if t := strings.TrimSpace(l); t != "" {
			lines = append(lines, t)
		}
	}
	return file, lines, name == "Write"
}

// numberedFromOne reports whether every line of a read's body opens with
// its number, from 1.
func numberedFromOne(body string) bool {
	i := 0
	for l := range strings.Lines(body) {
		if strings.TrimSpace(l) == "" {
			continue
		}
		i++
		if n, _ := lineNumber(l); n != strconv.Itoa(i) {
			return false
		}
	}
	return i > 0
}

// maxSnapshotDiff is the most lines two snapshots of a file may differ in
// for writeWarnings to read them: editChanges compares every removed line
// with every added one, and a rewrite of more has no change in place to
// name.
const maxSnapshotDiff = 8

// snapshotDiff is the text of an edit of file that made the lines older
// into newer: the lines either holds and the other lacks (as many times as
// it lacks them), "- " for the removed, "+ " for the added, marked as the
// capture marks an edit's; false when they differ in more than
// maxSnapshotDiff lines either way.
func snapshotDiff(file string, older, newer []string) (string, bool) {
	removed, added := missing(older, newer), missing(newer, older)
	if len(removed) > maxSnapshotDiff || len(added) > maxSnapshotDiff {
		return "", false
	}
	var b strings.Builder
	b.WriteString("Edit: " + file + "\n")
	for _, l := range removed {
		b.WriteString("- " + l + "\n")
	}
	for _, l := range added {
		b.WriteString("+ " + l + "\n")
	}
	return b.String(), true
}

// missing is the lines of a that b lacks, in a's order, a line b holds
// fewer times than a as many times as it lacks it.
func missing(a, b []string) []string {
	count := map[string]int{}
	for _, l := range b {
		count[l]++
	}
	var out []string
	for _, l := range a {
		if count[l] > 0 {
			count[l]--
			continue
		}
		out = append(out, l)
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

// fileShown is the file a tool run's text shows the content of, and the
// lines it holds (heldLines). "" for any other text, or a failed call.
func fileShown(text string) (file string, held map[string]bool) {
	file, lines := heldLines(text)
	if file == "" {
		return "", nil
	}
	held = make(map[string]bool, len(lines))
	for _, l := range lines {
		held[l] = true
	}
	return file, held
}

// heldLines is the file a tool run's text shows the content of, and the
// lines it shows the file holding, in order, each trimmed, blank ones left
// out: a read's lines (past their numbers), a write's lines, an edit's
// added lines and those it kept around its changes (the capture marks a
// kept line "  ", and a run of them left out "  …"). "" for any other
// text, or a failed call.
func heldLines(text string) (file string, held []string) {
	head, body, _ := strings.Cut(text, "\n")
	name, file, ok := strings.Cut(head, ": ")
	if !ok || strings.HasSuffix(file, " (error)") {
		return "", nil
	}
	switch name {
	case "Read", "Write", "Edit", "MultiEdit":
	default:
		return "", nil
	}
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		// A text cut when stored cuts the lines either side of its
		// "[… n bytes cut …]" line: their ends are not what the file holds.
		if cutLine(l) || i > 0 && cutLine(lines[i-1]) || i+1 < len(lines) && cutLine(lines[i+1]) {
			continue
		}
		if name == "Read" {
			l = withoutLineNumber(l)
		} else if a, ok := strings.CutPrefix(l, "+ "); ok {
			l = a
		} else if k, ok := strings.CutPrefix(l, "  "); ok && name != "Write" && k != "…" {
			l = k // a line the edit kept
		} else {
			continue
		}
		if t := strings.TrimSpace(l); t != "" {
			held = append(held, t)
		}
	}
	return file, held
}

// cutLine reports the line a text cut when stored holds in the place of
// what was cut (observation's "[… n bytes cut …]").
func cutLine(l string) bool {
	return strings.HasPrefix(l, "[… ") && strings.HasSuffix(strings.TrimSpace(l), " bytes cut …]")
}

// wasCut reports a text cut when stored: it holds a "[… n bytes cut …]"
// line, and what was cut may hold any line.
func wasCut(text string) bool { return strings.Contains(text, " bytes cut …]") }

// maxRoleLines is the most lines of a shown file laterEdits parses to
// find the one stating a value of a role asked: parsing is the costly
// part, and a longer file states many.
const maxRoleLines = 200

// laterEdit is an edit laterEdits found (or a read or write of a config
// file setting a value anew), and the citation id of the shown run whose
// file it changed.
type laterEdit struct {
	edit Item
	of   string
}

// laterEdits are, for shown tool runs that show a file's content (a read,
// a write, an edit: fileShown), the newest later edit of that file in the
// project's other sessions that changed in place a line the shown one holds
// (editChanges) and that names the prompt's most specific word the shown
// lines name, or changes the one line of them stating a value of a role
// the prompt asks ("which URL does it call?": segmentStates): the shown
// content is stale there, and the edit's change is how the line stands
// (its warning says so). Of a config file, the newest later read or write
// that sets a setting such a line sets comes instead when it sets another
// value (setsAnew): the file as it stood later, whether or not the edit
// was captured; a warning may tell it (settingWarnings). Each run once,
// for the first run it came for; a shown entry brings none (its quote is
// a statement).
// A search that fails is left out.
func laterEdits(ctx context.Context, db *store.DB, req Request, cs []concept, asked []ask, pc *claim.Cache, out []Item) []laterEdit {
	var more []laterEdit
	for _, it := range out {
		if it.Kind != store.TypeToolObservation {
			continue
		}
		file, held := fileShown(it.Text)
		key := mostSpecific(cs, held)
		if file == "" || key.keys == nil {
			continue
		}
		// Of the shown lines, how many state a value of a role asked; read
		// once, when an edit changes such a value (-1: not yet read).
		stating := -1
		only := func(line string) bool {
			if stating < 0 {
				stating = 0
				if len(held) <= maxRoleLines {
					for l := range held {
						if segmentStates(l, cs, asked, pc) {
							stating++
						}
					}
				}
			}
			return stating == 1 && segmentStates(line, cs, asked, pc)
		}
		words := lowerRuns(file)
		// The settings of a config file the shown lines set, each a line
		// naming the prompt's most specific word its lines name: the newest
		// later read or write of the file that sets one says how it stands,
		// whether or not an edit of it was captured (a change made in an
		// editor, or in a session not recorded).
		var settings map[string]setting
		if configFile(file) {
			settings = namedSettings(file, held, key.keys)
		}
		// A write of a config file that names that word nowhere dropped
		// what the shown lines say of it.
		drops := func(text string) bool {
			return configFile(file) && firstLine(text) == "Write: "+file && dropsAll(text, key.keys)
		}
		ev, err := newestLater(ctx, db, req, it, words[max(0, len(words)-laterRunWords):], func(text string) bool {
			head := firstLine(text)
			if head == "Read: "+file || head == "Write: "+file {
				sets, _ := setsAnew(file, text, settings)
				return sets || drops(text)
			}
			if head != "Edit: "+file && head != "MultiEdit: "+file {
				return false
			}
			// A change of a line the shown one holds, naming the prompt's
			// most specific word its lines name: what made them relevant;
			// or of the one line of them stating a value of the role the
			// prompt asks, which names the thing in words of its own (a URL
			// for "find_glaze"). Of several such lines (two services'
			// URLs) the prompt's words say which is asked. An edit's other
			// changes (its imports tidied, a constant tuned) leave what the
			// prompt asks as shown.
			changes, _ := editChanges(text)
			return slices.ContainsFunc(changes, func(c editChange) bool {
				return held[c.removed] && (hasAny(keysOf(c.removed+"\n"+c.added), key.keys) ||
					len(asked) > 0 && segmentStates(c.added, cs, asked, pc) && only(c.removed))
			})
		})
		if err != nil {
			return more
		}
		if head := firstLine(ev.Text); head == "Read: "+file || head == "Write: "+file {
			if _, anew := setsAnew(file, ev.Text, settings); !anew && !drops(ev.Text) {
				continue // the newest read or write still holds what is shown
			}
		}
		if ev.ID == 0 || slices.ContainsFunc(out, func(o Item) bool { return o.event.ID == ev.ID }) ||
			slices.ContainsFunc(more, func(m laterEdit) bool { return m.edit.event.ID == ev.ID }) {
			continue
		}
		more = append(more, laterEdit{edit: laterItem(ev, cs), of: it.CID})
	}
	return more
}

// dropsAll reports whether a write of a file (its text) names none of
// keys on any line: a write is the whole file, and what it leaves out is
// gone ("the server's entry" dropped from an MCP config). A line
// reformatted or given a trailing comma still names them. A write cut
// when stored may hold them in its cut part.
func dropsAll(text string, keys []string) bool {
	if wasCut(text) {
		return false
	}
	_, body, _ := strings.Cut(text, "\n") // not the path in the head
	return !hasAny(keysOf(body), keys)
}

// namedSettings are the settings the lines held of config file file set
// (fileSettings), each on a line naming one of keys.
func namedSettings(file string, held map[string]bool, keys []string) map[string]setting {
	all, _ := fileSettings(file, slices.Sorted(maps.Keys(held)))
	for name, s := range all {
		if !hasAny(keysOf(s.line), keys) {
			delete(all, name)
		}
	}
	return all
}

// setsAnew reports whether a read or write of file (its text) sets one of
// settings, and whether it gives one of them another value. A write of
// the whole file (not cut when stored) that leaves one of them out unset
// it: `"mcpServers": {}` written where the server's "url" was.
func setsAnew(file, text string, settings map[string]setting) (sets, anew bool) {
	if len(settings) == 0 {
		return false, false
	}
	_, now := fileShown(text)
	later, twice := fileSettings(file, slices.Sorted(maps.Keys(now)))
	whole := firstLine(text) == "Write: "+file && !wasCut(text)
	for name, s := range settings {
		l, ok := later[name]
		switch {
		case ok:
			sets = true
			anew = anew || l.value != s.value
		case whole && !twice[name] && !strings.Contains(text, s.value):
			// Not read as a setting, but not there at all either: a name
			// set on two lines (a second server's "url") or a line
			// fileSettings cannot read (compact JSON) may still hold it.
			sets, anew = true, true
		}
	}
	return sets, anew
}

// mostSpecific is the most specific of the concepts cs that lines name; a
// zero concept when they name none.
func mostSpecific(cs []concept, lines map[string]bool) concept {
	var b strings.Builder
	for l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	tk := keysOf(b.String()) // once for all lines: a read may hold thousands
	var best concept
	for _, c := range cs {
		if c.specific > best.specific && c.specificIn(tk) {
			best = c
		}
	}
	return best
}

// withoutLineNumber is a line of a read without the number the Read tool
// put before it: "12\t" as the hook receives it, "    12→" as a
// transcript holds it.
func withoutLineNumber(l string) string {
	_, rest := lineNumber(l)
	return rest
}

// lineNumber splits a line of a read into the number the Read tool put
// before it ("" when it put none: a read as the hook receives it may come
// without) and the line.
func lineNumber(l string) (string, string) {
	for _, sep := range []string{"\t", "→"} {
		if n, rest, ok := strings.Cut(l, sep); ok && strings.TrimSpace(n) != "" && strings.Trim(n, " 0123456789") == "" {
			return strings.TrimSpace(n), rest
		}
	}
	return "", l
}

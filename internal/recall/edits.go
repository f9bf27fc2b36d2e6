package recall

import (
	"fmt"
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

// maxEditChanges and maxEditOther bound an edit read for its changes: it
// changes a line or two in place and adds or drops at most two more. A
// larger edit rewrites code, and its lines that look alike are not one
// thing set anew.
const maxEditChanges, maxEditOther = 2, 2

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
	var removed, added []string
	for _, l := range strings.Split(body, "\n") {
		if r, ok := strings.CutPrefix(l, "- "); ok {
			removed = append(removed, strings.TrimSpace(r))
		} else if a, ok := strings.CutPrefix(l, "+ "); ok {
			added = append(added, strings.TrimSpace(a))
		}
	}
	var out []editChange
	used := make([]bool, len(removed))
	other := 0
	for _, a := range added {
		match := -1
		for i, r := range removed {
			if !used[i] && r == a {
				match = i
				break
			}
		}
		if match < 0 {
			for i, r := range removed {
				if !used[i] && changedLine(r, a) {
					match = i
					out = append(out, editChange{file: baseName(file), removed: r, added: a})
					break
				}
			}
		}
		switch {
		case match >= 0:
			used[match] = true
		case a != "":
			other++
		}
	}
	for i, r := range removed {
		if !used[i] && r != "" {
			other++
		}
	}
	if len(out) > maxEditChanges || other > maxEditOther {
		return nil
	}
	return out
}

// changedLine reports whether added is removed with a few tokens changed
// in one place: at most three tokens of each differ, between a common start
// and a common end that hold at least half of the longer line's tokens and
// a word, so that the line still names what it is ("cone = 6" made "cone
// = 8", "class Glaze(str, Enum):" made "class Glaze(Enum):").
func changedLine(removed, added string) bool {
	if removed == added || removed == "" || added == "" || len(removed) > maxEditLine || len(added) > maxEditLine {
		return false
	}
	rt, at := lineTokens(removed), lineTokens(added)
	p := 0
	for p < len(rt) && p < len(at) && rt[p] == at[p] {
		p++
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

// baseName is the last element of a path written with / or \ (a session
// recorded on Windows).
func baseName(p string) string {
	p = strings.TrimSpace(p)
	return p[strings.LastIndexAny(p, `/\`)+1:]
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
	var out []Warning
	for _, it := range sel {
		if len(out) == perKind {
			break
		}
		ev, shown := it.event, it.Excerpt
		if it.Context != nil && it.Context.Type == store.TypeToolObservation {
			ev, shown = *it.Context, it.ContextExcerpt
		} else if it.Kind != store.TypeToolObservation {
			continue
		}
		if paired[pair(-ev.ID, -ev.ID)] {
			continue
		}
		for _, c := range editChanges(ev.Text) {
			if !strings.Contains(shown, c.added) {
				continue // a change the excerpt leaves out is not what the item was recalled for
			}
			a := Memory{CID: it.CID, Type: kindLabel(it), Date: ev.Time, Title: c.removed}
			b := a
			b.Title = c.added
			out = append(out, Warning{Severity: "HIGH", Kind: "superseded", A: a, B: b, inEdit: true,
				Note: fmt.Sprintf("an edit of %s (%s) replaced the first line with the second; the newer is the current one.", Inert(c.file), date(ev.Time))})
			paired[pair(-ev.ID, -ev.ID)] = true
			break
		}
	}
	return out
}

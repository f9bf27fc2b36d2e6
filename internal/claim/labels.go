package claim

import (
	"strings"
	"unicode"
	"unicode/utf8"
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

// LabelledChanges returns the changes text states as a line labelled
// before ("Before:", "Current:", "Было:") followed by a line labelled after
// ("After:", "To:", "Стало:"), blank lines between them aside. The two
// lines must say different things.
func LabelledChanges(text string) []LabelledChange {
	if len(text) > maxText {
		text = text[:maxText]
	}
	var out []LabelledChange
	var prev string    // the label of the last non-blank line, if it opened with one
	var prevVal string // that line's text after its label
	for line := range strings.Lines(text) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		label, val := labelled(line)
		if label != "" && prev != "" && prevVal != "" && val != "" {
			for _, after := range changeLabels[prev] {
				if label == after && !strings.EqualFold(prevVal, val) {
					out = append(out, LabelledChange{Old: prevVal, New: val})
					break
				}
			}
		}
		prev, prevVal = label, val
	}
	return out
}

// labelled splits a line that opens with a one-word label and a colon (a
// list marker and emphasis around either aside: "- **Before:** x",
// "1. Old: x") into the label, lower-case, and the rest, trimmed; "" when
// the line is no such line or too long to be one.
func labelled(line string) (label, rest string) {
	line = strings.TrimSpace(line)
	if len(line) > maxLabelledLine {
		return "", ""
	}
	line = strings.TrimLeft(line, "-*•+ ")
	if i := strings.IndexFunc(line, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')') {
		line = strings.TrimLeft(line[i+1:], " ")
	}
	line = strings.TrimLeft(line, "*_")
	end := strings.IndexFunc(line, func(r rune) bool { return !unicode.IsLetter(r) })
	if end <= 0 {
		return "", ""
	}
	word := strings.ToLower(line[:end])
	after := strings.TrimLeft(line[end:], "*_ ")
	if !strings.HasPrefix(after, ":") {
		return "", ""
	}
	rest = strings.TrimSpace(strings.Trim(strings.TrimSpace(after[1:]), "*_"))
	if utf8.RuneCountInString(rest) < 2 {
		return "", ""
	}
	return word, rest
}

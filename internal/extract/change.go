package extract

import (
	"slices"
	"strings"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/codespan"
)

// An assistant's report that a value in the code became another
// ("Changed `retry_limit` from `3` to `5`", "`timeout` → `read_timeout`")
// is narration when read alone, and a fix with nothing learnt when it
// follows a failure. It is a fact the project keeps when an edit of the
// session made it: a line holding the old value taken out and one holding
// the new value put in. The edit is the session's own record that the
// change was made, and the file it names says where the value lives now.

// changeJoins stand between the old value and the new one.
var changeJoins = []string{"to", "→", "->", "=>", "with", "was renamed to", "renamed to", "is now", "became", "becomes"}

// changeWords say that a value was changed, before the new value.
var changeWords = []string{"changed", "change", "switched", "renamed", "replaced", "updated", "bumped", "upgraded",
	"downgraded", "moved", "pinned", "migrated", "swapped", "converted", "from"}

// valueChange adds a fact of sentence s of an assistant message when it
// names an old and a new value in code spans, joined as a change, and an
// edit of the session replaced the one by the other. Its quotes are the
// sentence and the edit's first line, which names the file.
func (x *extractor) valueChange(s *sent) {
	if s.user || s.shape&(shapeCode|shapeBlock|shapeTable|shapeHeading) != 0 || isQuestion(s) {
		return
	}
	was, now, ok := changedValues(s.norm)
	if !ok {
		return
	}
	at, head, ok := x.edited(s, was, now)
	if !ok {
		return
	}
	off, quote := s.quote(s.body)
	body := strings.TrimLeftFunc(strings.TrimRight(clean(s.norm[s.body:]), ":"), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '`' && r != '.' && r != '/'
	})
	file := strings.TrimSpace(head[strings.IndexByte(head, ':')+1:])
	if k := strings.LastIndexByte(file, '/'); k >= 0 {
		file = file[k+1:]
	}
	if file != "" && !strings.Contains(lowerASCII(body), lowerASCII(file)) {
		body += " (in " + file + ")"
	}
	c := &cand{typ: Fact, score: 2, seq: len(x.cands), from: s.msg, value: now, body: body, edit: true}
	c.ev = []evi{{s.msg, off, quote}, at}
	c.subject = phraseSubject(body, true)
	c.title = finishTitle(body)
	x.cands = append(x.cands, c)
}

// changedValues returns the first pair of code spans of t joined as a
// change: the text between them one of changeJoins, and an arrow between
// them or one of changeWords before the new value.
func changedValues(t string) (string, string, bool) {
	spans := codespan.Ranges(t)
	for i := 0; i+1 < len(spans); i++ {
		a, b := spans[i], spans[i+1]
		join := strings.TrimSpace(lowerASCII(t[a[1]+1 : b[0]]))
		if !in(changeJoins, join) {
			continue
		}
		was, now := strings.TrimSpace(t[a[0]+1:a[1]]), strings.TrimSpace(t[b[0]+1:b[1]])
		if len(was) < 2 || len(now) < 2 || was == now || strings.ContainsAny(was+now, "\n") {
			continue
		}
		arrow := join == "→" || join == "->" || join == "=>"
		before := lowerASCII(t[:b[0]])
		if arrow || containsPhrase(before, changeWords) {
			return was, now, true
		}
	}
	return "", "", false
}

// maxEditsBack is how many edits, newest first, edited reads for one
// sentence: a sentence reports what was done lately (in its turn, or the
// one before when the user asks what changed), and a session of thousands
// of edits would otherwise cost each of its sentences all of them.
const maxEditsBack = 64

// edited finds the last edit before sentence s (a tool message
// "Edit: path" or "MultiEdit: path" with "- " and "+ " lines, not marked as
// failed) that took out a line holding was but not now and put in a line
// holding now; it reads at most maxEditsBack of them. It returns the
// edit's first line as a quote, and that line.
func (x *extractor) edited(s *sent, was, now string) (evi, string, bool) {
	if x.edits == nil {
		x.edits = []int{}
		for j, m := range x.msgs {
			if strings.ToLower(m.Role) == "tool" && (strings.HasPrefix(m.Text, "Edit: ") || strings.HasPrefix(m.Text, "MultiEdit: ")) {
				x.edits = append(x.edits, j)
			}
		}
	}
	last, _ := slices.BinarySearch(x.edits, s.msg) // the edits before s
	for e := last - 1; e >= 0 && e >= last-maxEditsBack; e-- {
		j := x.edits[e]
		x.editsRead++
		m := x.msgs[j]
		head, rest, _ := strings.Cut(m.Text, "\n")
		if strings.HasSuffix(head, "(error)") {
			continue // the edit failed: nothing was changed
		}
		took, put := false, false
		for line := range strings.SplitSeq(rest, "\n") {
			switch {
			case strings.HasPrefix(line, "- "):
				took = took || strings.Contains(line, was) && !strings.Contains(line, now)
			case strings.HasPrefix(line, "+ "):
				put = put || strings.Contains(line, now)
			}
		}
		if took && put && len(head) <= maxQuote {
			return evi{j, 0, head}, head, true
		}
	}
	return evi{}, "", false
}

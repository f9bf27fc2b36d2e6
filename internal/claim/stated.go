package claim

import "strings"

// CodeChange is a change a text states between two values it writes as
// code ("`expo-av` → `expo-audio`", "from `#1e293b` to `#0f172a`", "`/v2/x`
// (not `/v1/x`)"): the old value, the new one, and the byte span of the
// statement that says so.
type CodeChange struct {
	Old, New   string
	Start, End int
}

// maxCodeValue bounds a value read as one side of a change: a name, a
// path, a version, a call or a colour fits; a longer span is code whose
// change is not one value set anew.
const maxCodeValue = 80

// CodeChanges lists the changes text states between two code spans of one
// line, in the forms that say which side is new whatever the words around
// them: an arrow between them, "A instead of B", "A (not B)", "replace A
// with B", and "from A to B" in a statement with change wording ("change
// the text from A to B", not "copy from A to B"). The two values must be of
// one shape (two paths, two colours, two calls, two names): a name and the
// URL it maps to is a mapping, not a change. An arrow in a chain ("`a` →
// `b` → `c`") is a flow, and none of its steps is read.
func CodeChanges(text string) []CodeChange {
	if len(text) > maxText {
		text = text[:maxText]
	}
	var out []CodeChange
	for lineStart := 0; lineStart < len(text); {
		line := text[lineStart:]
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
		}
		out = lineChanges(line, lineStart, out)
		lineStart += len(line) + 1
	}
	return out
}

// span is a code span of a line: its text and the bytes of its backticks.
type span struct {
	s          string
	open, shut int
}

func lineChanges(line string, at int, out []CodeChange) []CodeChange {
	if strings.Count(line, "`") < 4 {
		return out
	}
	var spans []span
	for i := 0; ; {
		o := strings.IndexByte(line[i:], '`')
		if o < 0 {
			break
		}
		o += i
		c := strings.IndexByte(line[o+1:], '`')
		if c < 0 {
			break
		}
		c += o + 1
		spans = append(spans, span{line[o+1 : c], o, c})
		i = c + 1
	}
	arrow := func(mid string) bool {
		switch strings.TrimSpace(mid) {
		case "→", "->", "=>", "⟶", "➜", "➡":
			return true
		}
		return false
	}
	for k := 0; k+1 < len(spans); k++ {
		a, b := spans[k], spans[k+1]
		mid := line[a.shut+1 : b.open]
		before := strings.ToLower(line[:a.open])
		var old, new string
		switch m := strings.ToLower(strings.TrimSpace(mid)); {
		case arrow(mid):
			if k > 0 && arrow(line[spans[k-1].shut+1:a.open]) || k+2 < len(spans) && arrow(line[b.shut+1:spans[k+2].open]) {
				continue // a chain of steps
			}
			old, new = a.s, b.s
		case m == "instead of":
			old, new = b.s, a.s
		case m == "(not" || m == ", not" || m == "not":
			old, new = b.s, a.s
		case m == "with" && endsWithWord(before, "replace", "replaced", "replacing", "replaces"):
			old, new = a.s, b.s
		case m == "to" && endsWithWord(before, "from"):
			if len(Cues(line[:b.shut+1])) == 0 {
				continue // "copy from a to b", "map from a to b"
			}
			old, new = a.s, b.s
		default:
			continue
		}
		old, new = strings.TrimSpace(old), strings.TrimSpace(new)
		if !codeAlike(old, new) {
			continue
		}
		out = append(out, CodeChange{Old: old, New: new, Start: at + a.open, End: at + b.shut + 1})
	}
	return out
}

// endsWithWord reports whether s, lower-case, ends with one of words and
// the blanks after it.
func endsWithWord(s string, words ...string) bool {
	s = strings.TrimRight(s, " ")
	for _, w := range words {
		if strings.HasSuffix(s, w) {
			rest := s[:len(s)-len(w)]
			if rest == "" || !isLetterByte(rest[len(rest)-1]) {
				return true
			}
		}
	}
	return false
}

func isLetterByte(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// codeAlike reports whether two code values are of one kind and differ:
// both colours, both quantities, both paths or URLs, both calls, or both
// names; each a single value of at most maxCodeValue bytes.
func codeAlike(a, b string) bool {
	if a == "" || b == "" || a == b || len(a) > maxCodeValue || len(b) > maxCodeValue {
		return false
	}
	return codeShape(a) == codeShape(b)
}

// The shapes of a code value, told apart by their marks.
const (
	shapeName = iota
	shapeColour
	shapeQuantity
	shapePath
	shapeCall
	shapeCode // blanks outside a call: a command or a setting ("npm run dev", "order: 0")
)

func codeShape(v string) int {
	switch {
	case strings.ContainsRune(v, '('):
		return shapeCall
	case strings.ContainsAny(v, " \t"):
		return shapeCode
	case v[0] == '#' && len(v) > 1 && isHex(v[1:]):
		return shapeColour
	case strings.ContainsRune(v, '/'):
		return shapePath
	}
	if t := strings.TrimLeft(v, "-+.v~^=<>"); t != "" && t[0] >= '0' && t[0] <= '9' {
		return shapeQuantity
	}
	return shapeName
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

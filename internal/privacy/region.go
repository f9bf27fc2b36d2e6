package privacy

import (
	"cmp"
	"slices"
	"strings"
)

// Kinds of tag that delimit a region. A region is what lies between an
// opening tag and the tag that brings every kind's nesting depth back to
// zero, tags included.
const (
	tagPrivate = iota
	tagReminder
	tagFence
	numTagKinds
)

// maxTagBlanks bounds each run of blanks a tag may contain, so a tag is
// never longer than a few dozen bytes (see crossesTag).
const maxTagBlanks = 16

func tagName(kind int) string {
	switch kind {
	case tagPrivate:
		return "private"
	case tagReminder:
		return "system-reminder"
	default:
		return fenceName
	}
}

type tag struct {
	start, end int
	kind       int
	closing    bool
}

// findTags returns the tags whose names findKeywords found at names, in
// order. Case does not matter, and tags may contain blanks:
// "< /Private >". The private kind also has the forms "[private]" and
// "<!-- private -->"; the others only "<name>".
func findTags(s string, names [numTagKinds][]int) []tag {
	var tags []tag
	for kind, at := range names {
		for _, i := range at {
			if t, ok := matchTag(s, i, kind); ok {
				tags = append(tags, t)
			}
		}
	}
	slices.SortFunc(tags, func(a, b tag) int { return cmp.Compare(a.start, b.start) })
	return tags
}

// matchTag reports whether the tag name of kind at s[k:] is the name of a
// tag, and returns that tag. Only the name has letters, and findKeywords
// matched it already.
func matchTag(s string, k, kind int) (tag, bool) {
	j := k + len(tagName(kind))
	for n := 0; j < len(s) && isBlank(s[j]) && n < maxTagBlanks; n++ {
		j++
	}
	i := blanksBefore(s, k)
	closing := i > 0 && s[i-1] == '/'
	if closing {
		i = blanksBefore(s, i-1)
	}
	rest := s[j:]
	switch {
	case kind == tagPrivate && i >= 4 && s[i-4:i] == "<!--":
		if strings.HasPrefix(rest, "-->") {
			return tag{i - 4, j + 3, kind, closing}, true
		}
	case i >= 1 && s[i-1] == '<':
		if end, ok := angleTagEnd(s, k+len(tagName(kind))); ok {
			return tag{i - 1, end, kind, closing}, true
		}
	case kind == tagPrivate && i >= 1 && s[i-1] == '[':
		if strings.HasPrefix(rest, "]") {
			return tag{i - 1, j + 1, kind, closing}, true
		}
	}
	return tag{}, false
}

// maxAttrs bounds the attributes an angle tag may carry.
const maxAttrs = 256

// angleTagEnd returns the end of an angle tag whose name ends at s[j]:
// after blanks or line breaks, '>' ("<private\n>"), or attributes and then
// '>' (<private reason="x">). Attributes start with a name and '=', so
// "<private key file>" in prose is no tag.
func angleTagEnd(s string, j int) (int, bool) {
	k := j
	for n := 0; k < len(s) && (isBlank(s[k]) || s[k] == '\n' || s[k] == '\r') && n < maxTagBlanks; n++ {
		k++
	}
	if k < len(s) && s[k] == '>' {
		return k + 1, true
	}
	if k == j || k >= len(s) || !isLetter(s[k]) {
		return 0, false
	}
	a := k
	for a < len(s) && (isToken(s[a]) || s[a] == ':') {
		a++
	}
	for a < len(s) && isBlank(s[a]) {
		a++
	}
	if a >= len(s) || s[a] != '=' {
		return 0, false
	}
	e := strings.IndexAny(s[a:min(len(s), k+maxAttrs)], "<>")
	if e < 0 || s[a+e] != '>' {
		return 0, false
	}
	return a + e + 1, true
}

// blanksBefore returns i moved back over at most maxTagBlanks blanks.
func blanksBefore(s string, i int) int {
	for n := 0; i > 0 && isBlank(s[i-1]) && n < maxTagBlanks; n++ {
		i--
	}
	return i
}

// removeRegions replaces private regions with PrivateMarker, removes fenced
// and <system-reminder> regions and stray closing tags, and reports whether
// anything changed. An unclosed region runs to the end of s.
//
// Depths are counted per kind and a region ends only when all are zero, so
// nested and overlapping tags of any kind cannot end a region early: in
// "<private>a<private>b</private>c</private>" all of a, b and c go. A
// closing tag whose kind is not open inside a region is ignored. A region
// that starts with a private tag becomes PrivateMarker; one that starts
// with a fence or reminder leaves nothing.
func removeRegions(s string, names [numTagKinds][]int, r *Report) (string, bool) {
	tags := findTags(s, names)
	if len(tags) == 0 {
		return s, false
	}
	out := make([]byte, 0, len(s))
	pos := 0 // s[:pos] is done
	var st regions
	done := 0 // out[:done] ends with the last region written
	for _, t := range tags {
		switch st.step(t) {
		case strayClose:
			out = append(out, s[pos:t.start]...)
			if t.kind == tagPrivate {
				// The section was opened in an earlier message (a prompt
				// before this one): what precedes its end here is its
				// second part.
				out, pos = append(out[:done], PrivateMarker...), t.end
				r.Private++
				done = len(out)
				continue
			}
			out, pos = join(out, s, t.end)
		case regionOpened:
			out = append(out, s[pos:t.start]...)
		case regionClosed:
			out, pos = endRegion(out, s, t.end, st.first, r)
			done = len(out)
		}
	}
	if st.open {
		out, pos = endRegion(out, s, len(s), st.first, r)
		r.Open = st.first == tagPrivate
	}
	out = append(out, s[pos:]...)
	return string(out), true
}

// regions follows the regions tags open and close, in order: nested and
// overlapping tags of any kind cannot end a region early (removeRegions).
type regions struct {
	open  bool
	first int // the kind of the tag that opened the region
	depth [numTagKinds]int
	end   int // the end of the last tag read
}

// What a tag did (regions.step).
const (
	inRegion     = iota // opened or closed a region inside one
	regionOpened        // opened a region
	regionClosed        // closed the region
	strayClose          // closed none: no region was open
)

// step reads tag t, the next in order.
func (st *regions) step(t tag) int {
	if t.start < st.end { // cannot happen: tags never share bytes
		return inRegion
	}
	st.end = t.end
	if !st.open {
		if t.closing {
			return strayClose
		}
		st.open, st.first = true, t.kind
		st.depth = [numTagKinds]int{}
		st.depth[t.kind] = 1
		return regionOpened
	}
	switch {
	case !t.closing:
		st.depth[t.kind]++
	case st.depth[t.kind] > 0:
		st.depth[t.kind]--
	}
	if st.depth == [numTagKinds]int{} {
		st.open = false
		return regionClosed
	}
	return inRegion
}

// endRegion writes what replaces a region that ends at end and returns
// where to continue in s.
func endRegion(out []byte, s string, end, first int, r *Report) ([]byte, int) {
	if first == tagPrivate {
		r.Private++
		return append(out, PrivateMarker...), end
	}
	r.Injected++
	return join(out, s, end)
}

// join joins out, which ends where something was removed, to s[pos:],
// and returns the new out and where to continue in s. A removal that took
// whole lines takes their line break too, blanks on both sides of the gap
// become one, and the newlines meeting at the gap collapse to at most one
// blank line (none at the start, a single line break at the end of the
// text), so removed blocks leave no runs of empty lines. Only whitespace
// at the gap changes.
//
// If the two sides would form a tag ("<priv" + "ate>"), a line break is
// put between them: tags never contain one, so the result holds no tag and
// filtering it again changes nothing.
func join(out []byte, s string, pos int) ([]byte, int) {
	t := len(out)
	for t > 0 && isBlank(out[t-1]) {
		t--
	}
	p := pos
	for p < len(s) && isBlank(s[p]) {
		p++
	}
	lineStart := t == 0 || out[t-1] == '\n'
	lineEnd := p == len(s) || newlineAt(s, p) > 0
	switch {
	case lineStart && lineEnd:
		out, pos = out[:t], p+newlineAt(s, p)
	case lineEnd:
		out, pos = out[:t], p
	case lineStart || t < len(out):
		pos = p
	}

	have := 0 // line breaks at the end of out, counted up to 3
	for i := len(out); have < 3 && i > 0 && out[i-1] == '\n'; {
		have++
		i--
		if i > 0 && out[i-1] == '\r' {
			i--
		}
	}
	lead, q := 0, pos // line breaks at s[pos:], and where they end
	for n := newlineAt(s, q); n > 0; n = newlineAt(s, q) {
		lead++
		q += n
	}
	keep := max(0, 2-have)
	switch {
	case len(out) == 0:
		keep = 0
	case q == len(s): // end of text: at most one trailing line break
		keep = max(0, 1-have)
		for endsWithTwoBreaks(out) {
			out = out[:len(out)-1]
			if out[len(out)-1] == '\r' {
				out = out[:len(out)-1]
			}
		}
	}
	for ; lead > keep; lead-- {
		pos += newlineAt(s, pos)
	}
	if crossesTag(out, s[pos:]) {
		out = append(out, '\n')
		if crossesTag(out, s[pos:]) {
			// "<private " + ">": a tag may hold line breaks, but not a
			// '.' where its attributes would start.
			out = append(out[:len(out)-1], ".\n"...)
		}
	}
	return out, pos
}

// endsWithTwoBreaks reports whether b ends with two line breaks.
func endsWithTwoBreaks(b []byte) bool {
	n := len(b)
	if n == 0 || b[n-1] != '\n' {
		return false
	}
	n--
	if n > 0 && b[n-1] == '\r' {
		n--
	}
	return n > 0 && b[n-1] == '\n'
}

// newlineAt returns the length of the line break at s[i:]: 1 for "\n", 2
// for "\r\n", 0 if there is none.
func newlineAt(s string, i int) int {
	switch {
	case i < len(s) && s[i] == '\n':
		return 1
	case i+1 < len(s) && s[i] == '\r' && s[i+1] == '\n':
		return 2
	}
	return 0
}

// crossesTag reports whether a tag spans the point where left and right
// meet.
func crossesTag(left []byte, right string) bool {
	if len(left) == 0 || len(right) == 0 {
		return false
	}
	const window = 128 // longer than any tag
	left = left[max(0, len(left)-window):]
	right = right[:min(len(right), window)]
	buf := string(left) + right
	for _, t := range findTags(buf, findKeywords(buf).tags) {
		if t.start < len(left) && t.end > len(left) {
			return true
		}
	}
	return false
}

package recall

import (
	"strings"
	"unicode/utf8"
)

// Sizes of what one item shows, in bytes.
const (
	itemChars    = 600 // a message, or the part of it that matches the prompt
	contextChars = 300 // the turn shown beside it
)

// excerpt is the part of a message worth showing for a prompt, within max
// bytes: the whole message when it fits; otherwise the line or sentence that
// matches most of the prompt's weight, widened with its neighbours while they
// fit, "…" marking what was left out. A pasted log or a long answer thus
// shows only the lines about the prompt.
func excerpt(text string, cs []concept, maxBytes int) string {
	text = strings.TrimSpace(withoutUsedLine(text))
	if len(text) <= maxBytes {
		return text
	}
	segs := segments(text)
	best, bestCov := 0, -1.0
	for i, s := range segs {
		if cov, _ := coverage(cs, keysOf(s)); cov > bestCov {
			best, bestCov = i, cov
		}
	}
	lo, hi := best, best+1 // segs[lo:hi] are shown
	size := len(segs[best])
	for grew := true; grew; {
		grew = false
		if hi < len(segs) && size+1+len(segs[hi]) <= maxBytes {
			size += 1 + len(segs[hi])
			hi++
			grew = true
		}
		if lo > 0 && size+1+len(segs[lo-1]) <= maxBytes {
			lo--
			size += 1 + len(segs[lo])
			grew = true
		}
	}
	out := strings.Join(segs[lo:hi], "\n")
	if len(out) > maxBytes {
		out = clipAround(out, cs, maxBytes)
	}
	if lo > 0 {
		out = "… " + out
	}
	if hi < len(segs) {
		out += " …"
	}
	return out
}

// segments splits text into lines, and lines longer than a few sentences
// into sentences.
func segments(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if len(line) <= 240 {
			out = append(out, line)
			continue
		}
		start := 0
		for i := 0; i+1 < len(line); i++ {
			if (line[i] == '.' || line[i] == '?' || line[i] == '!' || line[i] == ';') && line[i+1] == ' ' && i+1-start >= 40 {
				out = append(out, strings.TrimSpace(line[start:i+1]))
				start = i + 1
			}
		}
		if rest := strings.TrimSpace(line[start:]); rest != "" {
			out = append(out, rest)
		}
	}
	if len(out) == 0 {
		out = []string{text}
	}
	return out
}

// clipAround cuts one long segment to maxBytes around its first word that
// matches the prompt.
func clipAround(s string, cs []concept, maxBytes int) string {
	at := 0
	lower := strings.ToLower(s)
	for _, c := range cs {
		for _, f := range c.forms {
			if i := strings.Index(lower, f); i >= 0 && (at == 0 || i < at) {
				at = i
			}
		}
	}
	start := max(0, at-maxBytes/3)
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	end := min(len(s), start+maxBytes)
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end--
	}
	out := s[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(s) {
		out += "…"
	}
	return out
}

package claim

import "strings"

// The labels of a change's two sides given as list items under it
// ("- Current: `make serve`", "- To: `./run.sh`").
var (
	oldLabels = wordSet(`current old before was previous previously from existing`)
	newLabels = wordSet(`new to after now`)
)

// listedChange reads a change stated as a line ending in "from:" with its
// two sides in the next two lines, each after a label ("Change the deploy
// command from:", "- Current: `make serve`", "- To: `./run.sh`"): the
// values take the role the first line names, and the second replaces the
// first. It runs before the other shapes, so a code span is the value whole,
// not a path inside it.
func (p *parser) listedChange() {
	for si := 0; si+2 < len(p.sents); si++ {
		st := p.sents[si]
		k := st.first + st.n - 1
		if st.n < 3 || !p.cue[si] || p.toks[k].s != "from" || !strings.HasPrefix(strings.TrimLeft(p.text[p.toks[k].end:st.end], " *_"), ":") {
			continue
		}
		role, _ := p.phraseBefore(k - 1)
		if role == "" {
			continue
		}
		oi, olast, ov := p.labelled(si+1, oldLabels)
		ni, nlast, nv := p.labelled(si+2, newLabels)
		if ov == "" || nv == "" || ov == nv {
			continue
		}
		n := len(p.ms)
		p.add(role, ov, oi, olast)
		p.add(role, nv, ni, nlast)
		if len(p.ms) == n+2 {
			p.ms[n].old = true
			p.ms[n+1].new = true
		}
		si += 2
	}
}

// labelled returns the value statement si gives after its opening label
// from labels and a colon ("Current: `make serve`"), with its first and last
// token, or "" when it opens otherwise or the value is a plain word.
func (p *parser) labelled(si int, labels map[string]bool) (first, last int, value string) {
	st := p.sents[si]
	i := st.first
	if st.n < 2 || !labels[p.toks[i].s] || !strings.Contains(p.text[p.toks[i].end:p.toks[i+1].start], ":") {
		return 0, 0, ""
	}
	v, last, _, plain := p.shapeAt(i + 1)
	if v == "" || plain && !isNumber(v) || p.toks[last].sent != si {
		return 0, 0, ""
	}
	return i + 1, last, v
}

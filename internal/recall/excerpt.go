package recall

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// maxScan is how much of one message recall reads for the lines to show: a
// stored message can hold 256 KB of log, and picking lines costs time per
// line; what a prompt is about is rarely past the first 32 KB.
const maxScan = 32 << 10

// scanned is the part of text recall reads, cut on a rune boundary.
func scanned(text string) string { return cutRunes(text, maxScan) }

// Sizes of what one item shows, in bytes.
const (
	itemChars    = 600           // a message, or the part of it that matches the prompt
	leadChars    = 2 * itemChars // the same where the budget has room (Render)
	contextChars = 300           // the turn shown beside it
	quoteChars   = 300           // an entry's quote
)

// message is a stored message as recall reads it for a prompt: its text
// (scanned, without a "Memories used" line) and, once needed, its lines and
// sentences with their index keys, which the passage that is judged and the
// excerpt that is shown both use.
type message struct {
	text string
	segs []string
	keys []textKeys
	// tool marks a tool observation, whose first line ("Edit: app/x.css",
	// "Bash: npm run build (error)") says what ran on what: it heads every
	// excerpt, as a section's heading heads its lines, where it is short
	// (a quarter of the excerpt: a long command is mostly its arguments). Not a subagent's
	// report: its first line is the task it was given, and the report is
	// prose with headings of its own.
	tool bool
}

func readText(text string) *message {
	return &message{text: strings.TrimSpace(withoutUsedLine(scanned(text)))}
}

// readEvent is readText for a captured message.
func readEvent(e store.Event) *message {
	m := readText(e.Text)
	m.tool = toolHeaded(e)
	return m
}

// toolHeaded reports a message whose first line heads its excerpts
// (message.tool): a tool observation, not a subagent's report.
func toolHeaded(e store.Event) bool {
	return e.Type == store.TypeToolObservation && !subagentReport(e)
}

// split returns the message's segments and their keys, worked out once.
func (m *message) split() ([]string, []textKeys) {
	if m.segs == nil {
		m.segs = segments(m.text)
		m.keys = make([]textKeys, len(m.segs))
		for i, sg := range m.segs {
			m.keys[i] = keysOf(sg)
		}
	}
	return m.segs, m.keys
}

// excerpt is the part of a message worth showing for a prompt, within max
// bytes: the whole message when it fits; otherwise the lines or sentences
// that match the prompt, picked greedily by the weight of the prompt's words
// they add (a word already shown counts little again), each with its
// section's heading and, when it ends in a colon, the line it introduces,
// then widened with their neighbours while they fit, "…" marking what was
// left out. A pasted
// log or a long summary thus shows only its lines about the prompt, and a
// prompt about two things gets the line about each.
func excerpt(text string, cs []concept, maxBytes int) string {
	return readText(text).excerpt(cs, maxBytes)
}

func (m *message) excerpt(cs []concept, maxBytes int) string {
	if len(m.text) <= maxBytes {
		return m.text
	}
	return m.pick(cs, m.failureWeights(cs), maxBytes)
}

// failureWeights is, for a prompt naming a failure ("what was the actual
// node error", "why did the build crash?"), the weight of each segment of
// a tool's output that states an error (observation.StatesError: "Error:
// listen EADDRINUSE: address already in use"), as pick reads a value
// asked: as weighty as the prompt's weightiest concept. The stack frames
// under that line share more of the prompt's words (the "express" and
// "server" of their paths) than the line naming the error does. nil for
// another prompt or message, or an output stating none.
func (m *message) failureWeights(cs []concept) []float64 {
	if !m.tool || !slices.ContainsFunc(cs, func(c concept) bool { return slices.ContainsFunc(c.forms, claim.FailureWord) }) {
		return nil
	}
	segs, _ := m.split()
	var weights []float64
	for i, sg := range segs {
		if i > 0 && observation.StatesError(sg) { // the first line is the call
			if weights == nil {
				weights = make([]float64, len(segs))
			}
			weights[i] = max(heaviest(cs), 1)
		}
	}
	return weights
}

// valueExcerpt is the excerpt of a message for a prompt that asks the value
// of a role (claim.Asks: a version, an interval, a port, a path, a
// database…): a line stating a value of an asked role counts as holding one
// more concept of the prompt, as weighty as its weightiest. A long report
// that answers "how long do cached pages live?" thus shows its line giving
// the duration, not only its lines sharing the prompt's other words; among
// the lines stating a value, the one sharing most of them comes first.
// Claims are parsed with pc, which keeps the lines raiseValued parsed.
func valueExcerpt(m *message, cs []concept, asked []ask, pc *claim.Cache, maxBytes int) string {
	if len(asked) == 0 || len(m.text) <= maxBytes {
		return m.excerpt(cs, maxBytes)
	}
	weights, cs := m.valueWeights(cs, asked, pc)
	if weights == nil {
		return m.excerpt(cs, maxBytes)
	}
	return m.pick(cs, weights, maxBytes)
}

// valueWeights is, for each of the message's segments, the weight of the
// value of an asked role it states (valueExcerpt), nil when none states
// one; and the concepts to pick the excerpt's other lines by, which pick
// must be given instead of cs: the word asking an amount ("long" in "how
// long is the file?") would otherwise pull in every line using it.
func (m *message) valueWeights(cs []concept, asked []ask, pc *claim.Cache) ([]float64, []concept) {
	var amounts []ask
	roles := slices.DeleteFunc(slices.Clone(asked), func(a ask) bool {
		if a.role == claim.AnyAmount {
			amounts = append(amounts, a)
			cs = a.cs // without the word asking it (asks)
			return true
		}
		return false
	})
	valued := m.valued(cs, roles, pc)
	product := func(a ask) bool { return strings.HasPrefix(a.role, claim.AnyVersion) && a.role != claim.AnyVersion }
	if m.tool && slices.ContainsFunc(roles, product) && !m.statesVersion(valued, cs, roles, pc) {
		// The version of a product a tool's output states none of: the
		// question names the product by what it does ("which version of
		// the GitHub API client did we install?"), the install log by its
		// package ("@octokit/rest@22.0.0"). The run was found for the
		// prompt's other words; a version it prints is the likeliest
		// answer. Not in a message, whose other versions are of what it
		// did besides ("updated typescript@5.4.5 while at it").
		valued = m.valued(cs, append(slices.Clip(roles), ask{role: claim.AnyVersion}), pc)
	}
	top := heaviest(cs)
	segs, keys := m.split()
	weights := make([]float64, len(segs))
	found := false
	for i, sg := range segs {
		switch {
		case valued[i]:
			weights[i] = top
		case len(amounts) > 0 && segmentStates(sg, cs, amounts, pc):
			// An amount of nothing the prompt names ("Touched 4
			// files", "100%" of a progress bar) may be another thing's:
			// it weighs as a lesser concept.
			weights[i] = top
			if !slices.ContainsFunc(cs, func(c concept) bool { return hasAny(keys[i], c.keys) }) {
				weights[i] *= bareAmount
			}
		}
		found = found || weights[i] > 0
	}
	if !found {
		return nil, cs
	}
	return weights, cs
}

// bareAmount is the share of a value's weight a line stating an amount
// of nothing the prompt names keeps (valueExcerpt): enough to show it
// where the lines sharing the prompt's words leave room ("Reduced from
// 535 to 391 lines" for "how long is that file?"), not to push them out.
const bareAmount = 0.75

// valued marks the message's segments that state a value of a role asked.
// Each segment is parsed on its own, a long one cut around its match
// (segmentClaims): parsing claims is superlinear on one long line.
func (m *message) valued(cs []concept, asked []ask, pc *claim.Cache) []bool {
	segs, _ := m.split()
	out := make([]bool, len(segs))
	for i, sg := range segs {
		out[i] = segmentStates(sg, cs, asked, pc)
	}
	return out
}

// statesVersion reports whether one of the message's segments marked in
// valued states a version of a product asked.
func (m *message) statesVersion(valued []bool, cs []concept, asked []ask, pc *claim.Cache) bool {
	segs, _ := m.split()
	for i, sg := range segs {
		if valued[i] && slices.ContainsFunc(segmentClaims(sg, cs, pc), func(c claim.Claim) bool {
			return strings.HasPrefix(c.Role, claim.AnyVersion) && givesAsked(c, asked)
		}) {
			return true
		}
	}
	return false
}

// segmentStates reports whether one segment states a value of a role
// asked: a value told by its shape (claim.ShapeValues: an address, an
// environment variable's name, a shell run's command), a length or a
// share for an amount
// (claim.Dimension), otherwise a claim of the role
// (givesAsked) in the segment, cut to 2×itemChars around its first word
// that matches the prompt. A segment with no digit is not parsed for roles
// whose values all hold one (a version, a port).
func segmentStates(sg string, cs []concept, asked []ask, pc *claim.Cache) bool {
	if len(sg) > 2*itemChars {
		sg = clipAround(sg, cs, 2*itemChars) // a minified line is one segment
	}
	if slices.ContainsFunc(asked, func(a ask) bool {
		vs, _ := claim.ShapeValues(a.role, sg)
		return len(vs) > 0
	}) {
		return true
	}
	if !slices.ContainsFunc(asked, func(a ask) bool { return !claim.ByShape(a.role) }) {
		return false // no claim of Parse's gives a role found by its shape
	}
	if !strings.ContainsAny(sg, "0123456789") && !slices.ContainsFunc(asked, func(a ask) bool { return !numericRole(a.role) }) {
		return false
	}
	if slices.ContainsFunc(asked, func(a ask) bool { return a.role == claim.AnyAmount }) && claim.Dimension(sg) {
		return true
	}
	return slices.ContainsFunc(segmentClaims(sg, cs, pc), func(c claim.Claim) bool { return givesAsked(c, asked) })
}

// segmentClaims are the claims of one segment, a long one cut to
// 2×itemChars around its first word that matches the prompt.
func segmentClaims(sg string, cs []concept, pc *claim.Cache) []claim.Claim {
	if len(sg) > 2*itemChars {
		sg = clipAround(sg, cs, 2*itemChars)
	}
	return pc.Parse(sg)
}

// numericRole reports a role whose every value holds a digit: a version, a
// port or an amount. "address" is found by its shape, not parsed.
func numericRole(role string) bool {
	return strings.HasPrefix(role, "version:") || role == "port" || role == "address" || role == claim.AnyAmount
}

// givesAsked reports whether claim c states a value of a role asked.
func givesAsked(c claim.Claim, asked []ask) bool {
	if c.Negated || c.Weak || c.Setting {
		return false
	}
	for _, a := range asked {
		if c.Role == a.role || a.role == claim.AnyVersion && strings.HasPrefix(c.Role, claim.AnyVersion) ||
			a.role == claim.AnyAmount && claim.Amount(c) {
			return true
		}
	}
	return false
}

// statesAsked reports whether one of the message's segments that share the
// prompt's weightiest concept (or as much weight in others) states a value
// of a role asked (segmentStates). Only those segments are parsed: parsing
// claims is the costly part. A line about another thing that shares a
// minor word of the prompt ("the mail sync polls every minute" for a
// prompt about one named sync) does not count.
func (m *message) statesAsked(cs []concept, asked []ask, pc *claim.Cache) bool {
	segs, keys := m.split()
	top := heaviest(cs)
	for i, sg := range segs {
		shared := 0.0
		for _, c := range cs {
			if hasAny(keys[i], c.keys) {
				shared += c.weight
			}
		}
		if shared == 0 || shared < top {
			continue
		}
		if segmentStates(sg, cs, asked, pc) {
			return true
		}
	}
	return false
}

// pickLine is the excerpt of a message for concepts cs that shows line,
// the value a prompt asks, where it fits (showSettingsAnew's way).
func (m *message) pickLine(cs []concept, line string) string {
	segs, _ := m.split()
	valued := make([]float64, len(segs))
	for i, sg := range segs {
		if showsWholeLine(sg, line) {
			valued[i] = max(heaviest(cs), 1)
		}
	}
	return m.pick(cs, valued, itemChars)
}

// pick is the excerpt of a message within maxBytes for concepts cs, where
// a segment with a weight in valued (nil for none) also holds a concept of
// that weight: the value a prompt asks for.
func (m *message) pick(cs []concept, valued []float64, maxBytes int) string {
	if len(m.text) <= maxBytes {
		return m.text
	}
	segs, keys := m.split()
	// The concepts each segment holds, read once: the greedy loop weighs
	// every segment again after each pick, and a long message has hundreds
	// of lines (BenchmarkLongAnswers).
	// A line also holds the concepts of its section's heading, which
	// names what the lines under it are about: "- **After**: gray
	// background with `dark:bg-gray-700`" under "### Tag Colors:" is the
	// tags' background.
	sect := sections(segs)
	holds := make([][]int, len(segs))
	for i, sg := range segs {
		var parts textKeys
		if isLabel(sg) || isHeading(sg) {
			parts = identifierKeys(sg)
		}
		for j, c := range cs {
			if hasAny(keys[i], c.keys) || hasAny(parts, c.keys) {
				holds[i] = append(holds[i], j)
			}
		}
	}
	// What each line names itself: a heading's words are covered only
	// once the heading is shown.
	own := slices.Clone(holds)
	for i, h := range sect {
		// Not in a tool's output: a "# …" line there is a script's or a
		// config's comment, not the title of the lines under it.
		if h >= 0 && !m.tool {
			for _, j := range holds[h] {
				if !slices.Contains(holds[i], j) {
					holds[i] = append(holds[i], j)
				}
			}
		}
	}
	intro := codeIntros(segs)
	shown := make([]bool, len(segs))
	covered := make([]bool, len(cs))
	valueShown := false
	size := 0
	fits := func(i int) bool { return size+len(segs[i])+5 <= maxBytes || size == 0 }
	for {
		// Until the value asked is shown, a line that only repeats words
		// already shown waits while a line giving the value still fits:
		// a report's fortieth line about the handbook outweighed, by its
		// words shown already, the one line giving the handbook's length
		// ("trimmed from 812 to 430 lines"). A line with a word not yet
		// shown still competes with the value by its weight.
		pending := false
		if valued != nil && !valueShown {
			for i := range segs {
				if valued[i] > 0 && !shown[i] && fits(i) {
					pending = true
					break
				}
			}
		}
		best, bestGain := -1, 0.0
		for i := range segs {
			if shown[i] || !fits(i) {
				continue
			}
			if pending && valued[i] == 0 && !slices.ContainsFunc(holds[i], func(j int) bool { return !covered[j] }) {
				continue
			}
			gain := 0.0
			if valued != nil && valued[i] > 0 {
				if valueShown {
					gain += 0.3 * valued[i]
				} else {
					gain += valued[i]
				}
			}
			for _, j := range holds[i] {
				if covered[j] {
					gain += 0.3 * cs[j].weight
				} else {
					gain += cs[j].weight
				}
			}
			if gain > bestGain {
				best, bestGain = i, gain
			}
		}
		if best < 0 {
			break
		}
		shown[best] = true
		size += len(segs[best]) + 5
		// A line comes with the heading of its section, which names what
		// the lines under it are about ("## Proposed fix: pin the
		// toolchain" above the line that matched).
		if h := sect[best]; h >= 0 && !shown[h] {
			if size+len(segs[h])+5 <= maxBytes {
				shown[h] = true
				size += len(segs[h]) + 5
			} else {
				// The heading does not fit: its words, never shown, no
				// longer make the lines under it weigh.
				for i := range segs {
					if sect[i] == h {
						holds[i] = own[i]
					}
				}
			}
		}
		if m.tool && !shown[0] && len(segs[0]) <= maxBytes/4 && size+len(segs[0])+5 <= maxBytes {
			shown[0] = true
			size += len(segs[0]) + 5
		}
		// A line ending in a colon introduces what follows it ("The
		// errors were:", "Run this:"), and a line all in bold labels it
		// ("**`AudioControls.tsx`**" above what changed in that file):
		// the next line is what it says, though it shares no word with
		// the prompt.
		// Where that line opens a short list, all of it (shortList): one
		// item alone misstates what the line says ("checks two
		// conditions: 1. … 2. …").
		if n := best + 1; (strings.HasSuffix(segs[best], ":") || isLabel(segs[best]) && m.wholeLine(segs[best])) && n < len(segs) {
			// In order, while they fit: a list is not shown with a gap.
			for _, l := range m.shortList(n) {
				if !shown[l] {
					if size+len(segs[l])+1 > maxBytes {
						break
					}
					shown[l] = true
					size += len(segs[l]) + 1
				}
			}
		}
		// A line of code comes with the line that introduces its block
		// ("Browsers block the modules from disk. Start a server:" above
		// "npx serve ."): what the command is for, which the prompt may
		// ask without naming the command.
		if k := intro[best]; k >= 0 && !shown[k] && size+len(segs[k])+5 <= maxBytes {
			shown[k] = true
			size += len(segs[k]) + 5
			for _, j := range own[k] {
				covered[j] = true
			}
		}
		for _, j := range own[best] {
			covered[j] = true
		}
		if h := sect[best]; h >= 0 && shown[h] {
			for _, j := range own[h] {
				covered[j] = true
			}
		}
		// The value may be shown as the heading or a list item that came
		// with the line picked.
		for i := range segs {
			valueShown = valueShown || shown[i] && valued != nil && valued[i] > 0
		}
		if size >= maxBytes {
			break
		}
	}
	if size == 0 {
		shown[0] = true
		size = len(segs[0])
	}
	// Widen each shown run with its neighbours while they fit.
	for grew := true; grew; {
		grew = false
		for i := range segs {
			if !shown[i] {
				continue
			}
			for _, n := range []int{i + 1, i - 1} {
				if n >= 0 && n < len(segs) && !shown[n] && size+len(segs[n])+1 <= maxBytes {
					shown[n] = true
					size += len(segs[n]) + 1
					grew = true
				}
			}
		}
	}
	var b strings.Builder
	gap := false
	for i, sg := range segs {
		if !shown[i] {
			gap = true
			continue
		}
		switch {
		case b.Len() == 0 && i > 0, gap && b.Len() > 0:
			if b.Len() > 0 {
				b.WriteString(" ")
			}
			b.WriteString("… ")
		case b.Len() > 0:
			b.WriteString("\n")
		}
		gap = false
		if len(sg) > maxBytes {
			sg = clipAround(sg, cs, maxBytes)
		}
		b.WriteString(sg)
	}
	if gap {
		b.WriteString(" …")
	}
	return b.String()
}

// codeIntros is, for each segment inside a fenced code block, the segment
// right before its opening fence when that ends in a colon (the line that
// introduces the block: "Serve the folder:"); -1 for the others.
// A block closes on a fence of its opening fence's character, at least as
// long ("~~~" inside a "```" block is a line of it).
func codeIntros(segs []string) []int {
	out := make([]int, len(segs))
	open, fence := -1, "" // the opening fence of the block at hand, and its marks
	for i, sg := range segs {
		out[i] = -1
		if f := fenceMarks(sg); f != "" && (open < 0 || f[0] == fence[0] && len(f) >= len(fence)) {
			if open >= 0 {
				open, fence = -1, ""
			} else {
				open, fence = i, f
			}
			continue
		}
		if open > 0 && strings.HasSuffix(segs[open-1], ":") {
			out[i] = open - 1
		}
	}
	return out
}

// fenceMarks is the run of three or more backquotes or tildes a code fence
// line opens with ("```" of "```bash"), or "".
func fenceMarks(line string) string {
	for _, c := range "`~" {
		n := len(line) - len(strings.TrimLeft(line, string(c)))
		if n >= 3 {
			return line[:n]
		}
	}
	return ""
}

// shortList is the segments from n on that a line ending in a colon
// introduces: the list it opens when that has at most maxListItems items,
// each a line of its own, else segment n alone. A longer list is a log or
// an inventory, whose items matching the prompt are picked on their own;
// and an item longer than a segment (segments cuts it into sentences)
// makes the count unsure. A diff's lines all carry a marker ("+ ", "- "):
// a list in one is as long as the diff.
func (m *message) shortList(n int) []int {
	segs := m.segs
	end := n + 1
	if listItemRE.MatchString(segs[n]) {
		for end < len(segs) && listItemRE.MatchString(segs[end]) {
			end++
		}
		if end-n > maxListItems || slices.ContainsFunc(segs[n:end], func(sg string) bool { return !m.wholeLine(sg) }) {
			end = n + 1
		}
	}
	lines := make([]int, 0, end-n)
	for l := n; l < end; l++ {
		lines = append(lines, l)
	}
	return lines
}

// wholeLine reports whether a segment of the message is a line of its
// text, not a sentence cut from a longer line.
func (m *message) wholeLine(seg string) bool {
	if seg == "" {
		return false
	}
	for at := 0; ; {
		i := strings.Index(m.text[at:], seg)
		if i < 0 {
			return false
		}
		start, end := at+i, at+i+len(seg)
		before := strings.TrimRight(m.text[:start], " \t")
		if (before == "" || strings.HasSuffix(before, "\n")) && (end == len(m.text) || strings.HasPrefix(strings.TrimLeft(m.text[end:], " \t\r"), "\n") || strings.TrimSpace(m.text[end:]) == "") {
			return true
		}
		at = end
	}
}

// maxListItems is the most items of a list that an excerpt shows whole
// (shortList): a short rule or a few steps. Chosen under six, the items of
// a request log fold B's R001 shows, whose sentence after it a diagnosis
// warning quotes.
const maxListItems = 4

// listItemRE finds a line that is an item of a Markdown list: a bullet
// ("-", "*", "+", "•") or a number ("1.", "2)") and a space.
var listItemRE = lazyregexp.New(`^(?:[-*+•]|\d{1,3}[.)])\s`)

// passageKeys are the keys of the one contiguous part of a message, within
// max bytes, that matches most of the prompt's weight: the line or sentence
// that matches best, widened with its neighbours while they fit. Relevance
// is judged on it: a long log contains every word somewhere, one passage of
// it need not. They are its segments' keys, already read: no word spans two
// segments, and the "…" that would mark what is left out holds none. A
// best segment too long alone is clipped and read again.
func (m *message) passageKeys(cs []concept, maxBytes int) []textKeys {
	if len(m.text) <= maxBytes {
		return []textKeys{keysOf(m.text)}
	}
	segs, keys := m.split()
	best, bestCov := 0, -1.0
	for i := range segs {
		if cov, _ := coverage(cs, keys[i]); cov > bestCov {
			best, bestCov = i, cov
		}
	}
	lo, hi := best, best+1 // segs[lo:hi] are the passage
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
	if size > maxBytes {
		return []textKeys{keysOf(clipAround(segs[best], cs, maxBytes))}
	}
	return keys[lo:hi]
}

func hasAny(tk textKeys, keys []string) bool {
	for _, k := range keys {
		if tk.has(k) {
			return true
		}
	}
	return false
}

// sections is, for each of segs, the index of the Markdown heading of the
// section it is in, or -1 (also for a heading). A heading is one to six
// "#" and a space, outside a fenced code block: "# install deps" in a shell
// block, "#include" and "#!/bin/sh" are code, not the title of what
// follows.
func sections(segs []string) []int {
	out := make([]int, len(segs))
	h, fenced := -1, false
	for i, sg := range segs {
		out[i] = h
		switch {
		case strings.HasPrefix(sg, "```") || strings.HasPrefix(sg, "~~~"):
			fenced = !fenced
		case !fenced && isHeading(sg):
			out[i], h = -1, i
		}
	}
	return out
}

// isLabel reports a short line all in bold ("**`AudioControls.tsx`**",
// "**Deployment:**"), the way an answer titles the lines under it without
// a heading; not a sentence in bold ("**Nothing below is deployed
// yet.**", "**Do not deploy!**", "**まだデプロイしていない。**"), which says something
// of its own.
func isLabel(line string) bool {
	inner, ok := strings.CutPrefix(line, "**")
	if !ok {
		return false
	}
	inner, ok = strings.CutSuffix(strings.TrimSuffix(inner, ":"), "**")
	return ok && inner != "" && utf8.RuneCountInString(inner) <= maxLabel && !strings.Contains(inner, "**") && !hasSentenceEnd(inner)
}

// hasSentenceEnd reports a text ending the way a sentence does: a full
// stop, an exclamation or a question mark, also the ideographic full stop.
func hasSentenceEnd(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return strings.ContainsRune(".!?。？！", r)
}

// maxLabel is the longest label isLabel reads, in characters: a name or a
// few words, in any script (a Korean character is three bytes).
const maxLabel = 60

// identifierKeys are the keys of the parts of the camelCase identifiers
// segment sg writes in ASCII ("AudioControls" holds "audio" and
// "controls"; "HTTPServer" is one word), which
// keysOf reads as one word each, as the index does. A heading or a label
// naming a component ("**`AudioControls.tsx`**") titles the lines about
// what the prompt's words describe; any other line full of identifiers is
// code, whose parts match everything. Only the lines shown read them;
// what a message matches is still read by its words.
func identifierKeys(sg string) textKeys {
	camel := false // most lines have none: read them once, allocating nothing
	for i := 1; i < len(sg) && !camel; i++ {
		camel = 'a' <= sg[i-1] && sg[i-1] <= 'z' && 'A' <= sg[i] && sg[i] <= 'Z'
	}
	if !camel {
		return textKeys{}
	}
	var parts []string
	for _, w := range strings.FieldsFunc(sg, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if ps := splitIdent(w); len(ps) > 1 {
			parts = append(parts, ps...)
		}
	}
	if parts == nil {
		return textKeys{}
	}
	return keysOf(strings.Join(parts, " "))
}

func isHeading(line string) bool {
	n := 0
	for n < len(line) && n < 7 && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && n+1 < len(line) && line[n] == ' '
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
	at := -1
	for _, c := range cs {
		for _, f := range c.forms {
			if i := indexFold(s, f); i >= 0 && (at < 0 || i < at) {
				at = i
			}
		}
	}
	start := min(len(s), max(0, at-maxBytes/3))
	for start > 0 && start < len(s) && !utf8.RuneStart(s[start]) {
		start--
	}
	end := min(len(s), start+maxBytes)
	for end > start && end < len(s) && !utf8.RuneStart(s[end]) {
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

// indexFold is the byte offset in s of the first match of sub, ignoring
// ASCII case, or -1. It searches s itself: an offset found in
// strings.ToLower(s) can point elsewhere in s, since lower-casing changes the
// length of some letters ("Ⱥ" is two bytes, its lower case three).
func indexFold(s, sub string) int {
	if sub == "" || len(sub) > len(s) {
		return -1
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

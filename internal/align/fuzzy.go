package align

import (
	"math"
	"slices"
	"unicode"

	"github.com/agnivade/levenshtein"
)

const (
	// minFuzzyRunes is the shortest normalized quote that may align
	// fuzzily. Below it two edits are a large share of the quote and
	// short phrases would match almost any text.
	minFuzzyRunes = 12
	// maxFuzzyRunes is the longest normalized quote that may align
	// fuzzily; the search is quadratic in the quote length.
	maxFuzzyRunes = 1000
	// maxStart bounds the rune offsets the search tracks in 32 bits.
	maxStart = 1<<31 - 1
	// refineRunes is how far the refinement moves each end of a window.
	refineRunes = 4
	// baseCells and quadCells set the dynamic-programming budget of one
	// quote of m runes, baseCells + quadCells*m*m cells, so that
	// pathological text (the same few trigrams over and over) cannot stall
	// the pipeline: about 17M cells for 200 runes, 33M for 1,000. Quotes
	// from generated sessions use under 3% of it (refining a 1,000-rune
	// window takes about 11M).
	baseCells = 1 << 24
	quadCells = 16
	// diagWindows is how many of the best-scoring filter windows are
	// measured when no window passes the filter, to tell BelowThreshold
	// from NotFound.
	diagWindows = 3
	// gramBits is the number of trigram keys the filter hashes into.
	gramBits = 1 << 14
	// presenceBits is the size of a message's set of present keys, and
	// presenceMaxGrams the longest message that gets one: beyond it the set
	// is mostly full and rules nothing out.
	presenceBits     = 1 << 12
	presenceMaxGrams = 3000
)

// keyCount is a trigram key and how often the quote has it.
type keyCount struct {
	k uint16
	n int
}

// quoteKeys returns the distinct trigram keys of q with their counts.
func quoteKeys(q []rune) []keyCount {
	if len(q) < 3 {
		return nil
	}
	all := gramKeys(q)
	slices.Sort(all)
	var keys []keyCount
	for i, k := range all {
		if i > 0 && k == all[i-1] {
			keys[len(keys)-1].n++
			continue
		}
		keys = append(keys, keyCount{k: k, n: 1})
	}
	return keys
}

// presence is a set of trigram keys folded to presenceBits. It answers
// "certainly absent" or "maybe present".
type presence [presenceBits / 64]uint64

func (p *presence) add(k uint16) {
	k %= presenceBits
	p[k/64] |= 1 << (k % 64)
}

func (p *presence) has(k uint16) bool {
	k %= presenceBits
	return p[k/64]>>(k%64)&1 != 0
}

// covers reports whether every key of q may be in p.
func (p *presence) covers(q *presence) bool {
	for i := range p {
		if q[i]&^p[i] != 0 {
			return false
		}
	}
	return true
}

// indexGrams builds the trigram keys of nt and its set of present keys.
func (nt *normText) indexGrams() {
	if nt.grams != nil {
		return
	}
	nt.grams = gramKeys(nt.runes)
	if len(nt.grams) <= presenceMaxGrams {
		nt.present = new(presence)
		for _, k := range nt.grams {
			nt.present.add(k)
		}
	}
}

// shareBound is an upper bound on the number of trigrams any window of nt
// shares with a quote with keys: the quote's count of every key that nt
// may contain.
func (nt *normText) shareBound(keys []keyCount) int {
	if nt.present == nil {
		return math.MaxInt
	}
	n := 0
	for _, kc := range keys {
		if nt.present.has(kc.k) {
			n += kc.n
		}
	}
	return n
}

// fuzzyQuote is a normalized quote prepared for the fuzzy search.
type fuzzyQuote struct {
	q []rune
	m int
	// dmax is the largest distance a window can have and still reach
	// Threshold: d <= 0.15*max(m, L) with L <= m+d gives d <= 3m/17.
	dmax int
	// window is the longest window that can reach Threshold, m+dmax runes.
	window int
	// minHits is the q-gram lemma bound: a window within distance dmax of
	// the quote shares at least m-2-3*dmax trigrams with it, because each
	// edit destroys at most three of the quote's m-2 trigrams.
	minHits int
	// rem[k] is how many more trigrams with key k the current filter
	// window may contain and still count: the quote's multiplicity of k
	// minus the window's. Between messages it holds the multiplicities.
	rem   []int16
	keys  []keyCount
	col   []int32 // scratch column for prefix, m+1
	cells []int64 // scratch column for bestIn, m+1
	row   []int32 // scratch row for prefix distances
}

func newFuzzyQuote(q []rune, keys []keyCount) *fuzzyQuote {
	m := len(q)
	dmax := 3 * m / 17
	fq := &fuzzyQuote{
		q:       q,
		m:       m,
		dmax:    dmax,
		window:  m + dmax,
		minHits: m - 2 - 3*dmax,
		rem:     make([]int16, gramBits),
		col:     make([]int32, m+1),
		cells:   make([]int64, m+1),
	}
	for _, kc := range keys {
		fq.rem[kc.k] = int16(kc.n)
	}
	fq.keys = keys
	return fq
}

// enter adds a trigram key to the filter window and reports whether it
// raised the window's count of trigrams shared with the quote.
func (fq *fuzzyQuote) enter(k uint16) int {
	fq.rem[k]--
	if fq.rem[k] >= 0 {
		return 1
	}
	return 0
}

// leave removes a trigram key from the filter window and reports whether it
// lowered the count.
func (fq *fuzzyQuote) leave(k uint16) int {
	fq.rem[k]++
	if fq.rem[k] > 0 {
		return 1
	}
	return 0
}

// gramKey hashes a trigram to a key of the filter. Collisions only make the
// filter let more windows through; they never hide one.
func gramKey(a, b, c rune) uint16 {
	h := uint32(a)*0x9e3779b1 ^ uint32(b)*0x85ebca77 ^ uint32(c)*0xc2b2ae3d
	h ^= h >> 15
	h *= 0x2c1b3c6d
	return uint16(h >> 18)
}

func gramKeys(t []rune) []uint16 {
	if len(t) < 3 {
		return []uint16{}
	}
	g := make([]uint16, len(t)-2)
	for p := range g {
		g[p] = gramKey(t[p], t[p+1], t[p+2])
	}
	return g
}

// cand is the window t[x:y] of a normalized message at Levenshtein distance
// d from the quote.
type cand struct {
	d, x, y int
}

func (c cand) size(m int) int { return max(m, c.y-c.x) }

// similarity is 1 - d/max(m, L), computed as (M-d)/M so that the float
// compares with Threshold exactly as the rational does.
func (c cand) similarity(m int) float64 {
	n := c.size(m)
	return float64(n-c.d) / float64(n)
}

// passes reports similarity >= Threshold in integers: d/M <= 3/20.
func (c cand) passes(m int) bool { return 20*c.d <= 3*c.size(m) }

// cmpSim compares the similarities of a and b: +1 if a is more similar.
func cmpSim(a, b cand, m int) int {
	l, r := a.d*b.size(m), b.d*a.size(m)
	switch {
	case l < r:
		return 1
	case l > r:
		return -1
	}
	return 0
}

// fuzzyResult is the best window of one message.
type fuzzyResult struct {
	found bool
	c     cand
	amb   bool // another, non-overlapping window is as similar
}

// diagWindow is a filter window kept to measure a near miss.
type diagWindow struct {
	msg, pos, count int
}

// fuzzy runs the fuzzy stage: the cited message, then the most similar of
// the others. It returns the span (a failure Span if nothing reached
// Threshold) and the best similarity seen.
func (s *Session) fuzzy(q []rune, keys []keyCount, cited int) (Span, float64) {
	if len(q) < minFuzzyRunes || len(q) > maxFuzzyRunes {
		return Span{Failure: NotFound}, 0
	}
	fq := newFuzzyQuote(q, keys)
	s.cells = cellBudget(len(q))
	var (
		best float64
		diag []diagWindow
	)
	valid := cited >= 0 && cited < len(s.messages)
	if valid {
		r := s.fuzzyIn(cited, fq, &diag)
		if r.found {
			best = max(best, r.c.similarity(fq.m))
			if r.c.passes(fq.m) {
				return s.fuzzySpan(cited, r, fq), best
			}
		}
	}
	var (
		top    fuzzyResult
		topMsg = -1
	)
	for i := range s.messages {
		if valid && i == cited {
			continue
		}
		r := s.fuzzyIn(i, fq, &diag)
		if !r.found {
			continue
		}
		best = max(best, r.c.similarity(fq.m))
		if !r.c.passes(fq.m) {
			continue
		}
		if topMsg < 0 {
			top, topMsg = r, i
			continue
		}
		switch cmpSim(r.c, top.c, fq.m) {
		case 1:
			top, topMsg = r, i
		case 0:
			top.amb = true
		}
	}
	if topMsg >= 0 {
		return s.fuzzySpan(topMsg, top, fq), best
	}
	// Nothing passed. Measure the windows that came closest in the filter
	// so that a near miss reads BelowThreshold rather than NotFound.
	for _, w := range diag {
		t := s.norm(w.msg).runes
		end := min(len(t), w.pos+fq.window)
		if c, ok := fq.bestIn(t, w.pos, end, nil, &s.cells); ok {
			best = max(best, c.similarity(fq.m))
		}
	}
	return Span{Failure: NotFound}, best
}

// cellBudget is the dynamic-programming budget of a quote of m runes.
func cellBudget(m int) int { return baseCells + quadCells*m*m }

// fuzzySpan maps the window of r back to message i. The similarity it
// reports is recomputed over the final window with the levenshtein library,
// independently of the search's own dynamic programming; Session.finish
// would catch a disagreement that drops it below Threshold.
func (s *Session) fuzzySpan(i int, r fuzzyResult, fq *fuzzyQuote) Span {
	nt := s.norms[i]
	c := r.c
	c.d = levenshtein.ComputeDistance(string(fq.q), string(nt.runes[c.x:c.y]))
	sim := c.similarity(fq.m)
	return Span{
		Message:    i,
		Start:      int(nt.start[c.x]),
		End:        int(nt.end[c.y-1]),
		Method:     Fuzzy,
		Confidence: math.Min(sim, maxFuzzyConfidence),
		Ambiguous:  r.amb,
		Similarity: sim,
	}
}

// fuzzyIn finds the best window of message i. Windows the trigram filter
// rules out cannot reach Threshold and are not measured; if the whole
// message is ruled out, its best filter window is offered to diag.
func (s *Session) fuzzyIn(i int, fq *fuzzyQuote, diag *[]diagWindow) fuzzyResult {
	nt := s.norm(i)
	if nt == nil {
		return fuzzyResult{}
	}
	t := nt.runes
	// A window of L runes is at distance >= m-L, so a message shorter than
	// m-dmax runes cannot reach Threshold.
	if len(t) < fq.m-fq.dmax {
		return fuzzyResult{}
	}
	nt.indexGrams()
	if nt.shareBound(fq.keys) < fq.minHits {
		return fuzzyResult{}
	}
	g := nt.grams
	// count is the number of trigrams in [p, p+w) shared with the quote,
	// counted as a multiset: the filter score of the window of fq.window
	// runes at p.
	w := min(fq.window-2, len(g))
	count := 0
	for p := 0; p < w; p++ {
		count += fq.enter(g[p])
	}
	var (
		res       fuzzyResult
		accepted  []cand
		bestCount = -1
		bestPos   int
		regStart  = -1
		regEnd    int
	)
	flush := func() {
		if regStart < 0 {
			return
		}
		if c, ok := fq.bestIn(t, regStart, regEnd, &accepted, &s.cells); ok {
			if !res.found || cmpSim(c, res.c, fq.m) > 0 {
				res.c, res.found = c, true
			}
		}
		regStart = -1
	}
	for p := 0; ; p++ {
		if count >= fq.minHits {
			end := min(len(t), p+fq.window)
			if p+w >= len(g) {
				end = len(t)
			}
			if regStart >= 0 && p <= regEnd {
				regEnd = end
			} else {
				flush()
				regStart, regEnd = p, end
			}
		}
		if count > bestCount {
			bestCount, bestPos = count, p
		}
		if p+w >= len(g) {
			for _, k := range g[p : p+w] {
				fq.leave(k)
			}
			break
		}
		count += fq.enter(g[p+w]) - fq.leave(g[p])
	}
	flush()
	if !res.found {
		if bestCount > 0 {
			offerDiag(diag, diagWindow{msg: i, pos: bestPos, count: bestCount})
		}
		return res
	}
	raw := res.c
	for _, c := range accepted {
		if (c.y <= raw.x || c.x >= raw.y) && cmpSim(c, raw, fq.m) >= 0 {
			res.amb = true
			break
		}
	}
	if !fq.refinable(raw) {
		return res
	}
	res.c = fq.refine(t, raw, &s.cells)
	if cmpSim(res.c, raw, fq.m) < 0 {
		// Only possible when raw started or ended on a space, which the
		// refinement avoids at a cost; keep the better window.
		res.c = raw
	}
	return res
}

// offerDiag keeps the diagWindows windows with the highest counts, the
// earliest first on a tie.
func offerDiag(diag *[]diagWindow, w diagWindow) {
	d := *diag
	if len(d) == diagWindows && d[len(d)-1].count >= w.count {
		return
	}
	if len(d) < diagWindows {
		d = append(d, w)
	} else {
		d[len(d)-1] = w
	}
	for k := len(d) - 1; k > 0 && d[k].count > d[k-1].count; k-- {
		d[k], d[k-1] = d[k-1], d[k]
	}
	*diag = d
}

// bestIn searches t[lo:hi] for the window most similar to the quote with a
// semi-global Levenshtein search: for every end it finds the smallest
// distance of the quote to a window ending there, and the latest start that
// achieves it. Windows that reach Threshold are appended to accepted (if not
// nil). It charges the work to cells and, when they run short, searches
// only as much of the front of t[lo:hi] as they pay for.
func (fq *fuzzyQuote) bestIn(t []rune, lo, hi int, accepted *[]cand, cells *int) (cand, bool) {
	m := fq.m
	hi = min(hi, lo+*cells/m)
	if hi <= lo {
		return cand{}, false
	}
	*cells -= m * (hi - lo)
	// A cell holds the distance in the high 32 bits and maxStart-start in
	// the low ones, so that one integer min picks the smallest distance
	// and, among equals, the latest start (the shortest window).
	const one = 1 << 32
	key := func(d, start int) int64 { return int64(d)<<32 | int64(maxStart-start) }
	col := fq.cells[:m+1]
	for i := range col {
		col[i] = key(i, lo)
	}
	var (
		best  cand
		found bool
	)
	q, cc := fq.q, col[1:]
	for j := lo + 1; j <= hi; j++ {
		c := t[j-1]
		diag := col[0]
		above := key(0, j)
		col[0] = above
		for i, qc := range q {
			cur := cc[i]
			v := diag
			if qc != c {
				v += one
			}
			v = min(v, above+one, cur+one)
			diag = cur
			cc[i] = v
			above = v
		}
		k := cand{d: int(above >> 32), x: maxStart - int(above&(one-1)), y: j}
		if k.x == k.y {
			continue
		}
		if !found || cmpSim(k, best, m) > 0 {
			best, found = k, true
		}
		if accepted != nil && k.passes(m) {
			*accepted = append(*accepted, k)
		}
	}
	return best, found
}

// refinable reports whether refining c could reach Threshold. Moving each
// end by up to refineRunes changes the distance by at most 2*refineRunes
// and the window length by as much, so a window far below cannot pass.
func (fq *fuzzyQuote) refinable(c cand) bool {
	return 20*(c.d-2*refineRunes) <= 3*max(fq.m, c.y-c.x+2*refineRunes)
}

// refine tries every window whose ends are within refineRunes of those of c
// and returns the most similar one that neither starts nor ends on a space,
// preferring word boundaries at equal similarity and then the earliest
// window. It returns c if every window it tries starts or ends on a space.
func (fq *fuzzyQuote) refine(t []rune, c cand, cells *int) cand {
	var (
		best      cand
		bestScore int
		found     bool
	)
	hi := min(len(t), c.y+refineRunes)
	for xs := max(0, c.x-refineRunes); xs <= c.x+refineRunes && xs < hi; xs++ {
		lo := max(xs+1, c.y-refineRunes)
		work := fq.m * (hi - xs)
		if t[xs] == ' ' || lo > hi || work > *cells {
			continue
		}
		*cells -= work
		row := fq.prefix(t[xs:hi])
		for ye := lo; ye <= hi; ye++ {
			if t[ye-1] == ' ' {
				continue
			}
			k := cand{d: int(row[ye-xs]), x: xs, y: ye}
			score := boundaryScore(t, xs, ye)
			if !found {
				best, bestScore, found = k, score, true
				continue
			}
			if s := cmpSim(k, best, fq.m); s > 0 || s == 0 && score > bestScore {
				best, bestScore = k, score
			}
		}
	}
	if !found {
		return c
	}
	return best
}

// prefix returns row with row[k] = lev(q, t[:k]) for every k in [0, len(t)].
func (fq *fuzzyQuote) prefix(t []rune) []int32 {
	m, q, col := fq.m, fq.q, fq.col[:fq.m+1]
	for i := range col {
		col[i] = int32(i)
	}
	row := append(fq.row[:0], int32(m))
	cc := col[1:]
	for j, c := range t {
		diag := col[0]
		above := int32(j + 1)
		col[0] = above
		for i, qc := range q {
			cur := cc[i]
			v := diag
			if qc != c {
				v++
			}
			v = min(v, above+1, cur+1)
			diag = cur
			cc[i] = v
			above = v
		}
		row = append(row, above)
	}
	fq.row = row
	return row
}

// boundaryScore counts the ends of t[x:y] that fall on word boundaries.
func boundaryScore(t []rune, x, y int) int {
	n := 0
	if x == 0 || !isWordRune(t[x-1]) || !isWordRune(t[x]) {
		n++
	}
	if y == len(t) || !isWordRune(t[y-1]) || !isWordRune(t[y]) {
		n++
	}
	return n
}

func isWordRune(r rune) bool {
	return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' ||
		r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

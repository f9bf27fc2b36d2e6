package observation

import (
	"strings"
)

// An edit is stored as the lines it changed, in order, each marked: "- "
// for a line it removed, "+ " for one it added, "  " for one it kept. Kept
// lines place a change ("  .card {" above "- border: 1px solid #ddd;"); an
// edit too long to keep whole keeps fewer of them rather than cutting its
// changes off: a 60-line block whose one line changed is stored as that
// line and its neighbours, not as the block's first 700 bytes. A run of
// kept lines left out is one line "  …". A MultiEdit is its edits' diffs,
// one after another, fitted as one.

// maxDiffCells bounds the table the line matching fills (removed lines
// times added lines). A larger edit, past the lines it begins and ends
// with unchanged, is stored as all removed then all added.
const maxDiffCells = 1 << 18

type diffOp struct {
	mark byte // ' ', '-' or '+'
	line string
}

// changeSummary renders the edits, each an old and a new string, as their
// marked lines: with every kept line when that fits in maxHead+maxTail
// bytes, else with the kept lines within 3, then within 1, of a change.
func changeSummary(edits ...[2]string) string {
	diffs := make([][]diffOp, len(edits))
	for i, e := range edits {
		diffs[i] = lineDiff(splitLines(e[0]), splitLines(e[1]))
	}
	var shows [][]bool
	for _, context := range [...]int{-1, 3, 1} {
		shows = shows[:0]
		size := 0
		for _, ops := range diffs {
			show := shown(ops, context)
			shows = append(shows, show)
			size += renderedSize(ops, show)
		}
		if size+len(diffs)-1 <= maxHead+maxTail {
			break
		}
	}
	parts := make([]string, len(diffs))
	for i, ops := range diffs {
		parts[i] = render(ops, shows[i])
	}
	return strings.Join(parts, "\n")
}

// splitLines splits s into lines; "" is no line at all (an edit that
// inserts text into an empty file removed nothing).
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// lineDiff is the edit of a into b as kept, removed and added lines: the
// lines both begin and end with are kept, and between them the longest
// common subsequence, when the table for it is small enough.
func lineDiff(a, b []string) []diffOp {
	var ops []diffOp
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		ops = append(ops, diffOp{' ', a[p]})
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	if len(ma)*len(mb) <= maxDiffCells {
		ops = append(ops, lcsDiff(ma, mb)...)
	} else {
		for _, l := range ma {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, diffOp{'+', l})
		}
	}
	for _, l := range a[len(a)-s:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

// lcsDiff diffs a and b by their longest common subsequence of lines; of
// a changed run, the removed lines come before the added ones.
func lcsDiff(a, b []string) []diffOp {
	n, m := len(a), len(b)
	// l[i*(m+1)+j] is the length of the LCS of a[i:] and b[j:].
	l := make([]int32, (n+1)*(m+1))
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i*(m+1)+j] = l[(i+1)*(m+1)+j+1] + 1
			} else {
				l[i*(m+1)+j] = max(l[(i+1)*(m+1)+j], l[i*(m+1)+j+1])
			}
		}
	}
	var ops, added []diffOp
	flush := func() { ops, added = append(ops, added...), added[:0] }
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			flush()
			ops = append(ops, diffOp{' ', a[i]})
			i, j = i+1, j+1
		case j < m && (i == n || l[i*(m+1)+j+1] >= l[(i+1)*(m+1)+j]):
			added = append(added, diffOp{'+', b[j]})
			j++
		default:
			ops = append(ops, diffOp{'-', a[i]})
			i++
		}
	}
	flush()
	return ops
}

// shown marks the ops rendered: the changes, and the kept lines within
// context lines of one (all when context is negative).
func shown(ops []diffOp, context int) []bool {
	show := make([]bool, len(ops))
	for i, op := range ops {
		if context < 0 {
			show[i] = true
			continue
		}
		if op.mark == ' ' {
			continue
		}
		for k := max(i-context, 0); k <= min(i+context, len(ops)-1); k++ {
			show[k] = true
		}
	}
	return show
}

// gapLine stands for a run of kept lines left out.
const gapLine = "  …"

// renderedSize is the length of render(ops, show), worked out without
// building it: a large edit is measured for up to three contexts.
func renderedSize(ops []diffOp, show []bool) int {
	size, gap := 0, false
	for i, op := range ops {
		if !show[i] {
			gap = true
			continue
		}
		if gap {
			size += len(gapLine) + 1
		}
		gap = false
		size += len(op.line) + 3
	}
	if gap {
		size += len(gapLine) + 1
	}
	return max(size-1, 0)
}

// render writes the ops show marks, each on a line after its mark.
func render(ops []diffOp, show []bool) string {
	var b strings.Builder
	gap := false
	for i, op := range ops {
		if !show[i] {
			gap = true
			continue
		}
		if gap {
			b.WriteString(gapLine + "\n")
		}
		gap = false
		b.WriteByte(op.mark)
		b.WriteByte(' ')
		b.WriteString(op.line)
		b.WriteByte('\n')
	}
	if gap {
		b.WriteString(gapLine + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

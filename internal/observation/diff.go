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
// kept lines left out is one line "  …".

// maxDiffCells bounds the table the line matching fills (removed lines
// times added lines). A larger edit, past the lines it begins and ends
// with unchanged, is stored as all removed then all added.
const maxDiffCells = 1 << 18

// diffContexts are the kept lines shown either side of a change, most
// first, until the edit fits in maxHead+maxTail bytes; -1 keeps all.
var diffContexts = []int{-1, 3, 1}

type diffOp struct {
	mark byte // ' ', '-' or '+'
	line string
}

// changeSummary renders the edit of old into new as its marked lines.
func changeSummary(old, new string) string {
	ops := lineDiff(splitLines(old), splitLines(new))
	var out string
	for _, c := range diffContexts {
		if out = renderDiff(ops, c); len(out) <= maxHead+maxTail {
			break
		}
	}
	return out
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

// renderDiff writes ops, the kept lines within context lines of a change
// only (all when context is negative).
func renderDiff(ops []diffOp, context int) string {
	show := make([]bool, len(ops))
	for i, op := range ops {
		if op.mark == ' ' && context >= 0 {
			continue
		}
		for k := max(i-max(context, 0), 0); k <= min(i+max(context, 0), len(ops)-1); k++ {
			show[k] = true
		}
	}
	var b strings.Builder
	gap := false
	for i, op := range ops {
		if !show[i] {
			gap = true
			continue
		}
		if gap {
			b.WriteString("  …\n")
		}
		gap = false
		b.WriteByte(op.mark)
		b.WriteByte(' ')
		b.WriteString(op.line)
		b.WriteByte('\n')
	}
	if gap {
		b.WriteString("  …\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

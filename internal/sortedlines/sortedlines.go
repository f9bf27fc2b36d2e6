// Package sortedlines searches a table of lines sorted by byte, each a key,
// a space and the rest, in place: a hook looks up a prompt's few words once,
// so tables shipped with the binaries are never parsed into maps.
package sortedlines

import "strings"

// Search is the offset in rows of the first line whose key (its text before
// the first space) is not below k; len(rows) when there is none.
func Search(rows, k string) int {
	lo, hi := 0, len(rows)
	for lo < hi {
		mid := lo + (hi-lo)/2
		start := strings.LastIndexByte(rows[:mid], '\n') + 1
		line, end := Line(rows, start)
		if key, _, _ := strings.Cut(line, " "); key < k {
			lo = end
		} else {
			hi = start
		}
	}
	return lo
}

// Line is the line of rows that starts at offset i, without its newline,
// and the offset of the line after it.
func Line(rows string, i int) (line string, next int) {
	end := strings.IndexByte(rows[i:], '\n')
	if end < 0 {
		return rows[i:], len(rows)
	}
	return rows[i : i+end], i + end + 1
}

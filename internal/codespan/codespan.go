// Package codespan finds the code spans of Markdown text: what a line
// quotes between single backquotes.
package codespan

import "strings"

// Ranges returns the byte ranges of t's code spans, each from its opening
// backquote to its closing one. An empty span ("“") is none, and a
// backquote left open ends the search.
func Ranges(t string) [][2]int {
	var out [][2]int
	for i := 0; i < len(t); {
		a := strings.IndexByte(t[i:], '`')
		if a < 0 {
			break
		}
		a += i
		b := strings.IndexByte(t[a+1:], '`')
		if b < 0 {
			break
		}
		b += a + 1
		if b > a+1 {
			out = append(out, [2]int{a, b})
		}
		i = b + 1
	}
	return out
}

// Texts returns the texts of t's code spans, without their backquotes.
func Texts(t string) []string {
	var out []string
	for _, r := range Ranges(t) {
		out = append(out, t[r[0]+1:r[1]])
	}
	return out
}

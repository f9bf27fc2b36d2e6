package cmdargs

import "strings"

// Split splits text into words the way a shell would split a simple
// command line, without expanding anything: blanks separate words, '…'
// quotes literally, "…" quotes with \" and \\ escapes, and outside quotes a
// backslash escapes the next character. An unterminated quote runs to the end.
func Split(text string) []string {
	var out []string
	var b strings.Builder
	inWord := false
	const (
		plain = iota
		single
		double
	)
	state := plain
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch state {
		case single:
			if r == '\'' {
				state = plain
			} else {
				b.WriteRune(r)
			}
		case double:
			switch {
			case r == '"':
				state = plain
			case r == '\\' && i+1 < len(rs) && (rs[i+1] == '"' || rs[i+1] == '\\'):
				i++
				b.WriteRune(rs[i])
			default:
				b.WriteRune(r)
			}
		default:
			switch {
			case r == ' ' || r == '\t' || r == '\n' || r == '\r':
				if inWord {
					out = append(out, b.String())
					b.Reset()
					inWord = false
				}
			case r == '\'':
				state, inWord = single, true
			case r == '"':
				state, inWord = double, true
			case r == '\\' && i+1 < len(rs):
				i++
				b.WriteRune(rs[i])
				inWord = true
			default:
				b.WriteRune(r)
				inWord = true
			}
		}
	}
	if inWord {
		out = append(out, b.String())
	}
	return out
}

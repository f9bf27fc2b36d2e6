// Package jsondepth measures how deeply JSON text nests, in one loop with no recursion.
package jsondepth

// Max is the deepest nesting the memory layer parses. gjson validates and
// walks JSON recursively, one Go stack frame per level: ten million levels
// (20 MB of brackets, well under a hook's input cap) overflowed the 1 GB
// stack, and a stack overflow is a fatal error that no recover catches and
// that exits 2, which blocks the user's prompt. encoding/json stops at the
// same depth. No hook event or transcript row nests anywhere near it.
const Max = 10_000

// Within reports whether no array or object in b nests deeper than max. It
// looks only at brackets outside strings, so it accepts text that is not
// JSON at all: it is a guard in front of a parser, not a validator.
func Within[T ~string | ~[]byte](b T, max int) bool {
	depth := 0
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			if depth > max {
				return false
			}
		case ']', '}':
			depth--
		}
	}
	return true
}

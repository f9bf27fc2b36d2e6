package extract

import "testing"

// TestStraightenInvalidUTF8 feeds straighten curly quotes beside bytes that
// are not UTF-8: an invalid byte is one byte of text (range decodes it as
// U+FFFD, three bytes long, which read past the end), and every byte of the
// result maps back to the byte it came from.
func TestStraightenInvalidUTF8(t *testing.T) {
	for _, text := range []string{"0000000’\x99", "“\xff”", "‘\xe2\x80", "a’b\xc3"} {
		got, back := straighten(text)
		if len(back) != len(got)+1 || back[len(got)] != len(text) {
			t.Fatalf("straighten(%q): %d offsets for %d bytes", text, len(back), len(got))
		}
		for j := 0; j < len(got); j++ {
			if c := got[j]; c != '\'' && c != '"' && c != text[back[j]] {
				t.Fatalf("straighten(%q)[%d] = %q, maps to %q", text, j, c, text[back[j]])
			}
		}
	}
}

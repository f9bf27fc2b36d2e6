package extract

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// isTitleLinePlain is isTitleLine as it was before it asked valueLike last.
func isTitleLinePlain(s *sent) bool {
	if s.shape&shapeLine == 0 || s.shape&shapeBullet != 0 && strings.Contains(s.norm, ":") {
		return false
	}
	t := strings.TrimSpace(s.norm)
	if strings.HasSuffix(t, ".") || strings.HasSuffix(t, "!") || strings.HasSuffix(t, "다") || strings.HasSuffix(t, "요") {
		return false
	}
	f := strings.Fields(clean(t))
	if len(f) == 0 || len(f) > 10 || valueLike(s.norm) {
		return false
	}
	caps := 0
	for _, w := range f {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsUpper(r) || !unicode.IsLetter(r) {
			caps++
		}
	}
	return caps*3 >= len(f)*2
}

// checkTitleLine compares isTitleLine with its old form on every line of
// text, as a line, a bullet and a sentence of a longer line, and returns
// how many it took for titles.
func checkTitleLine(t *testing.T, text string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(text, "\n") {
		for _, sh := range []shape{shapeLine, shapeLine | shapeBullet, 0} {
			s := newSent(0, 0, line, false)
			s.shape = sh
			got, want := isTitleLine(s), isTitleLinePlain(s)
			if got != want {
				t.Fatalf("isTitleLine(%q, shape %d) = %v, want %v", line, sh, got, want)
			}
			if got {
				n++
			}
		}
	}
	return n
}

// TestTitleLineSame is an equivalence test: isTitleLine against its old
// form on the test sessions' messages and invented lines.
func TestTitleLineSame(t *testing.T) {
	n := 0
	for _, sess := range testSessions(t) {
		for _, m := range sess.Messages {
			n += checkTitleLine(t, m.Text)
		}
	}
	n += checkTitleLine(t, "Release Checklist For Orbit\nSet TIMEOUT_MS To 30s\nUse `src/Quill.ts` Everywhere\nBuild Fails On CI\n")
	if n == 0 {
		t.Fatal("no line was a title: the comparison checked only refusals")
	}
}

package plural

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		n    int
		word string
		want string
	}{
		{1, "entry", "1 entry"},
		{0, "entry", "0 entries"},
		{3, "other memory", "3 other memories"},
		{2, "more quote", "2 more quotes"},
		{1, "session", "1 session"},
		{12, "conflict warning", "12 conflict warnings"},
	} {
		if got := Of(c.n, c.word); got != c.want {
			t.Errorf("Of(%d, %q) = %q, want %q", c.n, c.word, got, c.want)
		}
	}
}

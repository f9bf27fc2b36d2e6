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

func TestSame(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"proxy", "proxies", true},
		{"proxies", "proxy", true},
		{"bus", "buses", true},
		{"class", "classes", true},
		{"flag", "flags", true},
		{"box", "boxes", true},
		{"status", "statuses", true},
		{"ledger", "ledger", true},
		{"flag", "flagship", false},
		{"class", "clas", false}, // "ss" is no plural
		{"it", "its", false},     // too short to tell
		{"as", "a", false},
		{"ledger", "ledgers", true},
		{"ledger", "ledge", false},
	} {
		if got := Same(c.a, c.b); got != c.want {
			t.Errorf("Same(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

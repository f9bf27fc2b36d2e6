package inspect

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		cid   string
		event int64
		bad   bool
	}{
		{"mem:ab12cd", "mem:ab12cd", 0, false},
		{" [mem:ab12cd] ", "mem:ab12cd", 0, false},
		{"#42", "", 42, false},
		{"42", "", 42, false},
		{"ab12cd", "mem:ab12cd", 0, false},
		{"[ab12cd]", "mem:ab12cd", 0, false},
		{"t2bx", "", 3021, false},
		{"mem:t2bx", "", 3021, false},
		{"x:ab12cd", "", 0, true},
		{"9223372036854775808", "", 0, true},
		{"mem:AB12CD", "", 0, true},
		{"mem:ab", "", 0, true},
		{"#0", "", 0, true},
		{"#-3", "", 0, true},
		{"DROP TABLE events", "", 0, true},
		{"", "", 0, true},
	}
	for _, tt := range tests {
		cid, n, err := Parse(tt.in)
		if cid != tt.cid || n != tt.event || (err != nil) != tt.bad || tt.bad && !errors.Is(err, ErrBadID) {
			t.Errorf("Parse(%q) = %q, %d, %v; want %q, %d, bad %v", tt.in, cid, n, err, tt.cid, tt.event, tt.bad)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"mem:ab12cd", "#42", "[mem:0000]", "mem:", "#", "9223372036854775808"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cid, n, err := Parse(s)
		switch {
		case err != nil:
			if cid != "" || n != 0 || !errors.Is(err, ErrBadID) {
				t.Fatalf("Parse(%q) = %q, %d, %v", s, cid, n, err)
			}
		case cid != "":
			if n != 0 || !strings.HasPrefix(cid, "mem:") || !strings.Contains(s, strings.TrimPrefix(cid, "mem:")) {
				t.Fatalf("Parse(%q) = %q, %d", s, cid, n)
			}
		case n <= 0:
			t.Fatalf("Parse(%q) accepted event %d", s, n)
		}
	})
}

package wordfreq

import (
	"strconv"
	"strings"
	"testing"
)

func TestZipf(t *testing.T) {
	for _, tt := range []struct {
		w    string
		want float64
	}{
		{"you", 7.6},     // the commonest word
		{"home", 5.9},    // everyday
		{"deploy", 3.4},  // rarer, still English
		{"kubectl", 0},   // a command's name
		{"Home", 0},      // only lower case is looked up
		{"", 0},          // nothing
		{"zzzzzzzzz", 0}, // past the last line
		{"a", 7.3},       // the first line
	} {
		if got := Zipf(tt.w); got != tt.want {
			t.Errorf("Zipf(%q)=%v, want %v", tt.w, got, tt.want)
		}
	}
}

// TestTable checks english.txt's form: the binary search needs lines sorted
// by byte, each word once, and a number after it.
func TestTable(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(english, "\n"), "\n")
	if len(lines) < 10000 {
		t.Fatalf("%d words, want the table of tens of thousands", len(lines))
	}
	prev := ""
	for _, l := range lines {
		w, z, ok := strings.Cut(l, " ")
		n, err := strconv.Atoi(z)
		if !ok || err != nil || n < 25 || n > 80 {
			t.Fatalf("line %q: want \"word zipf\" with zipf in 25..80", l)
		}
		if w <= prev {
			t.Fatalf("%q after %q: not sorted by byte, or twice", w, prev)
		}
		prev = w
		if got := Zipf(w); got != float64(n)/10 {
			t.Fatalf("Zipf(%q)=%v, want %v", w, got, float64(n)/10)
		}
	}
}

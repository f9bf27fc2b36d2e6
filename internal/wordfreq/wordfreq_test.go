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

// TestProgramming: the words of code the everyday table lacks are common
// in writing about programming; a product's name is not.
func TestProgramming(t *testing.T) {
	for _, w := range []string{"config", "api", "middleware", "printable", "endpoint", "backend", "url"} {
		if Zipf(w) > 0 || Programming(w) < 4 {
			t.Errorf("%q: Zipf %v, Programming %v; want a word of code only, common there", w, Zipf(w), Programming(w))
		}
	}
	for _, w := range []string{"fastify", "traefik", "storybook", "vitest", "supabase", "Config", ""} {
		if got := Programming(w); got != 0 {
			t.Errorf("Programming(%q) = %v, want 0", w, got)
		}
	}
}

// TestTable checks each table's form: the binary search needs lines sorted
// by byte, each word once, and a number after it.
func TestTable(t *testing.T) {
	for _, tt := range []struct {
		name   string
		table  string
		lookup func(string) float64
		least  int
	}{{"english.txt", english, Zipf, 25}, {"programming.txt", programming, Programming, 30}} {
		lines := strings.Split(strings.TrimSuffix(tt.table, "\n"), "\n")
		if len(lines) < 10000 {
			t.Fatalf("%s: %d words, want the table of tens of thousands", tt.name, len(lines))
		}
		prev := ""
		for _, l := range lines {
			w, z, ok := strings.Cut(l, " ")
			n, err := strconv.Atoi(z)
			if !ok || err != nil || n < tt.least || n > 80 {
				t.Fatalf("%s: line %q: want \"word zipf\" with zipf in %d..80", tt.name, l, tt.least)
			}
			if w <= prev {
				t.Fatalf("%s: %q after %q: not sorted by byte, or twice", tt.name, w, prev)
			}
			prev = w
			if got := tt.lookup(w); got != float64(n)/10 {
				t.Fatalf("%s: lookup(%q)=%v, want %v", tt.name, w, got, float64(n)/10)
			}
		}
	}
}

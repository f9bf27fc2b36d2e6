package privacy

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFilter checks, for any input: Filter never panics, its output is
// valid UTF-8 and filters to itself, holds no tag that opens a region,
// and text between a complete <private>…</private> pair never survives.
func FuzzFilter(f *testing.F) {
	for _, tt := range append(tagTests(), secretTests()...) {
		f.Add(tt.in)
	}
	for _, s := range cleanTests() {
		f.Add(s)
	}
	for _, cl := range readCorpus(f) {
		f.Add(cl.text)
	}
	f.Add("<priv<system-reminder>x</system-reminder>ate>tail")
	f.Add("<!--\t/private--> [ private ] </ PRIVATE > <claude-memory-layer-context>")
	f.Add("TOKEN=abc password: x1 Bearer abc123def -----BEGIN X PRIVATE KEY----- ghp_")

	f.Fuzz(checkFilter)
}

// checkFilter checks the properties FuzzFilter states for s.
func checkFilter(t *testing.T, s string) {
	t.Helper()
	out := Filter(s)
	if !utf8.ValidString(out) {
		t.Fatalf("Filter(%q) = %q, not valid UTF-8", s, out)
	}
	if again := Filter(out); again != out {
		t.Fatalf("Filter not idempotent on %q:\n once %q\ntwice %q", s, out, again)
	}
	lower := foldASCII(out)
	for _, open := range []string{foldASCII(FenceOpen), "<system-reminder>", "<private>", "[private]", "<!-- private -->"} {
		if strings.Contains(lower, open) {
			t.Fatalf("Filter(%q) = %q, contains %s", s, out, open)
		}
	}
	const sentinel = "ZQJX-7-SENTINEL"
	if !strings.Contains(s, sentinel) {
		k := len(s) / 2
		in := s[:k] + "<private>" + sentinel + "</private>" + s[k:]
		if got := Filter(in); strings.Contains(got, sentinel) {
			t.Fatalf("Filter(%q) = %q, private text survives", in, got)
		}
	}
}

// foldASCII lowers A-Z only; strings.ToLower would also turn the Kelvin
// sign into 'k'.
func foldASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

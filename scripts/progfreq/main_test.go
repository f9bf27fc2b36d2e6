package main

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRead: a man page is read without its roff, an HTML page without its
// tags, a text as it is, gzip-compressed or not.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, zipped bool) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if zipped {
			z := gzip.NewWriter(f)
			z.Write([]byte(text))
			z.Close()
			return p
		}
		f.WriteString(text)
		return p
	}
	for _, tt := range []struct {
		path, want string
	}{
		{write("man/man3/printf.3.gz", ".\\\" a comment\n.TH PRINTF 3\n.B printf\nformatted \\fBoutput\\fR conversion\n", true), "printf formatted output conversion"},
		{write("html/ref.html", "<html><style>p{x:y}</style><p>The <b>middleware</b> &amp; cache</p><script>var q;</script></html>", false), "the middleware cache"},
		{write("api/fs.md.gz", "# File system\nreadFileSync(path)", true), "file system readfilesync path"},
	} {
		text, err := read(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		count(text, counts)
		for _, w := range strings.Fields(tt.want) {
			if counts[w] == 0 {
				t.Errorf("%s: %q not read (counts %v)", tt.path, w, counts)
			}
		}
		for _, w := range []string{"th", "fb", "fr", "comment", "style", "script", "var", "amp"} {
			if counts[w] > 0 {
				t.Errorf("%s: markup %q read as a word (counts %v)", tt.path, w, counts)
			}
		}
	}
}

// TestCount: words are runs of ASCII letters, lower-cased; the count is
// how many were read.
func TestCount(t *testing.T) {
	counts := map[string]int{}
	if n := count("Set HTTP_PROXY=x2; use fetch() or Fetch.", counts); n != 8 {
		t.Errorf("count = %d, want 8 (%v)", n, counts)
	}
	if counts["fetch"] != 2 || counts["http"] != 1 || counts["x"] != 1 {
		t.Errorf("counts %v", counts)
	}
}

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

// TestCount: words are runs of ASCII letters and digits opening with a
// letter, lower-cased; a run opening with a digit is none; the count is
// how many were read.
func TestCount(t *testing.T) {
	counts := map[string]int{}
	if n := count("Set HTTP_PROXY=x2 for IPv6; use fetch() or Fetch, not 404 or 2fa.", counts); n != 12 {
		t.Errorf("count = %d, want 12 (%v)", n, counts)
	}
	for w, want := range map[string]int{"fetch": 2, "http": 1, "x2": 1, "ipv6": 1, "or": 2, "fa": 0, "404": 0, "2fa": 0} {
		if counts[w] != want {
			t.Errorf("counts[%q] = %d, want %d (%v)", w, counts[w], want, counts)
		}
	}
}

// TestRoffSetup: the lines that set roff up hold no words of the page;
// strings and registers used in its text are no words either.
func TestRoffSetup(t *testing.T) {
	page := ".ds Aq \\(aq\n.ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n.TH GIT\\-CONFIG 1\n.SH NAME\nThe \\*(Aqcore\\*(Aq section sets \\fBcore.editor\\fR.\n" +
		".\nif the \\h'-04'\\m[blue]options\\m[] follow \\\" a trailing comment\n"
	counts := map[string]int{}
	count(roff(page), counts)
	for _, w := range []string{"ds", "aq", "ie", "el", "g", "fb", "fr", "h", "m", "blue", "trailing", "comment"} {
		if counts[w] > 0 {
			t.Errorf("markup %q read as a word: %v", w, counts)
		}
	}
	// A line of a lone "." is no comment of the line after it.
	for _, w := range []string{"core", "section", "sets", "editor", "name", "git", "config", "options", "follow"} {
		if counts[w] == 0 {
			t.Errorf("%q not read: %v", w, counts)
		}
	}
}

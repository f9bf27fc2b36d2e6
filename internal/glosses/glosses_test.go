package glosses

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The tests read the repository's tables, as a built binary reads the copy
// beside it.
func init() { SetDir(filepath.Join("..", "..", "glosses")) }

func TestEnglish(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang, word string
		want       string // one gloss it must give; "" for none
	}{
		{"spa", "llave", "key"},
		{"spa", "guardamos", "save"}, // a form of "guardar"
		{"spa", "hojas", "sheet"},    // a form of "hoja"
		{"spa", "demo", ""},          // no form of "democracia"
		{"spa", "zzzz", ""},
		{"spa", "postgres", ""}, // begins like "postal", "poste" and "postre" alike
		{"spa", "frontend", ""}, // "fronte" and "nd": no ending of "frontera"
		{"eng", "llave", ""},    // no dictionary
		{"por", "chave", "key"},
	} {
		got := English(c.lang, c.word)
		if c.want == "" && len(got) > 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("English(%q, %q) = %q, want it to hold %q", c.lang, c.word, got, c.want)
		}
	}
}

// TestTablesSorted: the lookup searches each table in place, so its lines
// must be sorted by byte, one headword each.
func TestTablesSorted(t *testing.T) {
	t.Parallel()
	for lang := range files {
		rows := table(lang)
		if rows == "" {
			t.Fatalf("%s: no table", lang)
		}
		prev := ""
		for _, line := range splitLines(rows) {
			head := line
			for i := range line {
				if line[i] == ' ' {
					head = line[:i]
					break
				}
			}
			if head <= prev {
				t.Fatalf("%s: %q after %q", lang, head, prev)
			}
			prev = head
		}
	}
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

// TestWithoutTables: a binary with no tables beside it, or a table that is
// not a regular file (a FIFO would block), translates nothing.
func TestWithoutTables(t *testing.T) {
	defer SetDir(filepath.Join("..", "..", "glosses"))
	SetDir(t.TempDir())
	if got := English("spa", "llave"); got != nil {
		t.Errorf("no tables: English = %q, want nil", got)
	}
	d := t.TempDir()
	if err := os.Mkdir(filepath.Join(d, "spa.txt"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "ita.txt"), []byte("# header\nchiave key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	SetDir(d)
	if got := English("spa", "llave"); got != nil {
		t.Errorf("a table that is no file: English = %q, want nil", got)
	}
	if got := English("ita", "chiave"); !slices.Contains(got, "key") {
		t.Errorf("a table of its own: English = %q, want key", got)
	}
}

// FuzzEnglish: any word, of any bytes, in any language, gives English
// words of letters or nothing, and never panics.
func FuzzEnglish(f *testing.F) {
	for _, w := range []string{"llave", "guardamos", "postgres", "contraseña", "\xff\xfe", "hoj", ""} {
		f.Add("spa", w)
	}
	f.Add("fra", "chiave")
	f.Fuzz(func(t *testing.T, lang, word string) {
		got := English(lang, word)
		for _, g := range got {
			if g == "" || strings.Trim(g, "abcdefghijklmnopqrstuvwxyz") != "" {
				t.Fatalf("English(%q, %q) gave %q", lang, word, g)
			}
		}
	})
}

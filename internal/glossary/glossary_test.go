package glossary

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
)

const sample = `# Glossary

Intro text is not a term: ledger.

## Ledger service / ledger
The service that records every payment.
It listens on port 7443.

Second paragraph.

### Proxy ###
The edge proxy in front of the API.

## Payments

- **Hot path**: the code run on every request.
- **Flag:** a feature switch
  kept in flags.yaml.
- ` + "`C++`" + ` — the language of the engine.
- **.env** = the local settings file.
* __k8s__: the cluster.

<!-- ## Hidden
never read -->
## Empty

- **Dangling**:

## 프록시
한국어 정의.

` + "```" + `
## not a heading inside a fence
` + "```" + `
`

func names(ts []Term) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func TestParse(t *testing.T) {
	g := Parse(sample)
	want := []string{"Ledger service", "Proxy", "Hot path", "Flag", "C++", ".env", "k8s", "프록시"}
	if got := names(g.Terms); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("terms = %q, want %q", got, want)
	}
	if got, want := g.Terms[0].Aliases, []string{"ledger"}; len(got) != 1 || got[0] != want[0] {
		t.Errorf("aliases = %q, want %q", got, want)
	}
	if got, want := g.Terms[0].Definition, "The service that records every payment.\nIt listens on port 7443.\n\nSecond paragraph."; got != want {
		t.Errorf("definition = %q, want %q", got, want)
	}
	if got, want := g.Terms[3].Definition, "a feature switch\nkept in flags.yaml."; got != want {
		t.Errorf("list definition = %q, want %q", got, want)
	}
	if got, want := g.Terms[7].Definition, "한국어 정의.\n\n```\n## not a heading inside a fence\n```"; got != want {
		t.Errorf("fenced definition = %q, want %q", got, want)
	}
	notes := strings.Join(g.Notes, "\n")
	if !strings.Contains(notes, `"Dangling" has no definition`) {
		t.Errorf("notes = %q, want one for the dangling term", notes)
	}
	if strings.Contains(notes, "Empty") || strings.Contains(notes, "Payments") {
		t.Errorf("notes = %q: a section heading is no missing definition", notes)
	}
}

func TestParsePlainList(t *testing.T) {
	g := Parse("- Ledger: the payments service\n- a line without a colon\n- Two words: yes\n")
	if got, want := strings.Join(names(g.Terms), "|"), "Ledger|Two words"; got != want {
		t.Fatalf("terms = %q, want %q", got, want)
	}
	// Under a heading a plain item is part of the definition.
	g = Parse("## Ledger\n- Port: 7443\n")
	if got, want := strings.Join(names(g.Terms), "|"), "Ledger"; got != want || g.Terms[0].Definition != "- Port: 7443" {
		t.Fatalf("terms = %q (%+v), want %q with the item as its definition", got, g.Terms, want)
	}
}

func TestParseDuplicate(t *testing.T) {
	g := Parse("## Ledger\nfirst\n## LEDGER\nsecond\n")
	if len(g.Terms) != 1 || g.Terms[0].Definition != "first" {
		t.Fatalf("terms = %+v, want the first definition only", g.Terms)
	}
	if len(g.Notes) != 1 || !strings.Contains(g.Notes[0], "line 3") {
		t.Fatalf("notes = %q, want one on line 3", g.Notes)
	}
}

func TestUsed(t *testing.T) {
	g := Parse(sample)
	for _, c := range []struct {
		prompt string
		want   string
	}{
		{"what port does the LEDGER use?", "Ledger service"},
		{"restart the ledger   Service now", "Ledger service"},
		{"the ledgers are slow", "Ledger service"},
		{"ledgerx and xledger", ""},
		{"all proxies and the hot paths", "Proxy|Hot path"},
		{"the hot paths behind the proxy", "Hot path|Proxy"},
		{"feature_flag", ""}, // '_' joins words
		{"feature-flag", "Flag"},
		{"we write c++ here", "C++"},
		{"plain c here", ""},
		{"edit .env and dotenv", ".env"},
		{"env only", ""},
		{"k8s cluster", "k8s"},
		{"프록시를 재시작", "프록시"},
		{"the ledger's proxy", "Ledger service|Proxy"},
		{"nothing here", ""},
		{"", ""},
	} {
		if got := strings.Join(names(g.Used(c.prompt)), "|"); got != c.want {
			t.Errorf("Used(%q) = %q, want %q", c.prompt, got, c.want)
		}
	}
	var none *Glossary
	if got := none.Used("ledger"); got != nil {
		t.Errorf("nil glossary Used = %+v", got)
	}
}

func TestLoadFilters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.md")
	text := "## Ledger\nUses <private>the staging box at 10.1.2.3</private> and\n" +
		"password=hunter2hunter2 for the admin.\n\n## Secret term\n<private>\nall of it\n</private>\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	g, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range g.Terms {
		for _, leak := range []string{"10.1.2.3", "hunter2", "all of it"} {
			if strings.Contains(term.Definition, leak) {
				t.Errorf("definition of %q holds %q: %q", term.Name, leak, term.Definition)
			}
		}
	}
	if len(g.Terms) == 0 || g.Terms[0].Name != "Ledger" {
		t.Fatalf("terms = %+v, want Ledger first", g.Terms)
	}
}

// TestMatch checks the hook's path: the terms a prompt uses, filtered as
// Load filters them; a term whose name is private is not found.
func TestMatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.md")
	text := "## Ledger\nOn <private>box-17</private> port 7443.\n\n<private>\n## Codename\nsecret plan\n</private>\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Match(path, "the ledger and the codename")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Name != "Ledger" || strings.Contains(got[0].Definition, "box-17") {
		t.Fatalf("Match = %+v, want Ledger alone, without its private part", got)
	}
	// Without a private section the terms' own text is filtered.
	if err := os.WriteFile(path, []byte("## Ledger\nadmin password=Tr0ub4dor-and-3 here\n## Other\ntoken=abcdefabcdef0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err = Match(path, "the ledger")
	if err != nil || len(got) != 1 || strings.Contains(got[0].Definition, "Tr0ub4dor") || !strings.Contains(got[0].Definition, "[REDACTED:") {
		t.Fatalf("Match = %+v, %v; want Ledger with its password masked", got, err)
	}
	if got, err := Match(path, "nothing"); err != nil || got != nil {
		t.Fatalf("Match of no term = %+v, %v", got, err)
	}
	if _, err := Match(filepath.Join(t.TempDir(), "none.md"), "ledger"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Match of no file: err = %v, want ErrNotExist", err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "none.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v, want ErrNotExist", err)
	}
	if _, err := Load(dir); !errors.Is(err, regular.ErrNotRegular) {
		t.Errorf("a directory: err = %v, want ErrNotRegular", err)
	}
}

func TestLoadTruncated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.md")
	var b strings.Builder
	for i := 0; b.Len() < MaxFile+1000; i++ {
		fmt.Fprintf(&b, "- **term%d**: definition number %d\n", i, i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	g, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Truncated {
		t.Error("Truncated not set for a file over MaxFile")
	}
	last := g.Terms[len(g.Terms)-1]
	if !strings.HasPrefix(last.Definition, "definition number ") || strings.TrimPrefix(last.Name, "term") != strings.TrimPrefix(last.Definition, "definition number ") {
		t.Errorf("last term %q: %q, want a whole line", last.Name, last.Definition)
	}
}

func TestInit(t *testing.T) {
	path := Path(t.TempDir(), "/home/u/src/shop")
	created, err := Init(path)
	if err != nil || !created {
		t.Fatalf("Init = %v, %v; want created", created, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stat = %v, %v; want mode 0600", fi, err)
	}
	g, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// The example is in a comment: a new glossary defines nothing.
	if len(g.Terms) != 0 || len(g.Notes) != 0 {
		t.Errorf("new glossary: terms %+v, notes %q; want none", g.Terms, g.Notes)
	}
	// The example, out of its comment, is a glossary of two terms.
	example := strings.NewReplacer("<!--", "", "-->", "").Replace(Example)
	if got := names(Parse(example).Terms); len(got) != 2 {
		t.Errorf("the example defines %q, want two terms", got)
	}
	if err := os.WriteFile(path, []byte("## Mine\nkept\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if created, err := Init(path); err != nil || created {
		t.Fatalf("second Init = %v, %v; want left alone", created, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "## Mine\nkept\n" {
		t.Errorf("Init overwrote the user's file: %q", b)
	}
}

func TestPath(t *testing.T) {
	dir := t.TempDir()
	a, b := Path(dir, "/home/u/src/shop"), Path(dir, "/srv/shop")
	if a == b || filepath.Dir(a) != filepath.Join(dir, Dir) || !strings.HasPrefix(filepath.Base(a), "shop-") || !strings.HasSuffix(a, ".md") {
		t.Errorf("Path = %q and %q: want two files named for shop in %s", a, b, filepath.Join(dir, Dir))
	}
	if got := Path(dir, ""); got != "" {
		t.Errorf("Path of no project = %q, want empty", got)
	}
	if got := filepath.Base(Path(dir, `C:\Users\u\My Project ✓`)); !strings.HasPrefix(got, "My-Project-") {
		t.Errorf("Path of a Windows project = %q, want its folder's name in plain letters", got)
	}
}

// FuzzParse checks that any text parses without a panic into terms that
// have a name and a definition, and that each term's name, found in a
// prompt, makes the term used.
func FuzzParse(f *testing.F) {
	f.Add(sample, "ledger proxies")
	f.Add(Example, "hot path")
	f.Add("- **a**: b\n<!--\n", "a")
	f.Add("## x / y / \n z", "Y")
	f.Add("```\n## a\n", "a")
	f.Fuzz(func(t *testing.T, text, prompt string) {
		g := Parse(text)
		for _, term := range g.Terms {
			if term.Name == "" || strings.TrimSpace(term.Definition) == "" {
				t.Fatalf("term %+v with an empty name or definition", term)
			}
			if !utf8.ValidString(term.Name) || !utf8.ValidString(term.Definition) {
				t.Fatalf("term %+v not valid UTF-8", term)
			}
		}
		for _, u := range g.Used(prompt) {
			if u.Name == "" {
				t.Fatalf("Used(%q) gave a term without a name", prompt)
			}
		}
		if len(g.Terms) > 0 {
			first := g.Terms[0]
			if got := g.Used("about " + first.Name + " here"); len(got) == 0 {
				t.Fatalf("Used of a prompt naming %q found nothing", first.Name)
			}
		}
	})
}

// BenchmarkUsed is the prompt hook's cost of the glossary, for a glossary
// of a typical size (4 KB, about 60 terms) and of the largest read: parsing
// it, matching a long prompt against it, and Match as the hook calls it on
// a prompt that uses a term (the privacy filter runs) and on one that does
// not.
func BenchmarkUsed(b *testing.B) {
	prompt := strings.Repeat("why does the ledger service time out when the proxy restarts svc12? ", 30)
	for _, size := range []int{4 << 10, MaxFile} {
		var gl strings.Builder
		for i := 0; gl.Len() < size-100; i++ {
			fmt.Fprintf(&gl, "- **service %d / svc%d**: the service number %d of the fleet.\n", i, i, i)
		}
		kb := fmt.Sprintf("%dKB/", size>>10)
		b.Run(kb+"parse", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(gl.Len()))
			for b.Loop() {
				Parse(gl.String())
			}
		})
		g := Parse(gl.String())
		b.Run(kb+"match", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(prompt)))
			for b.Loop() {
				g.Used(prompt)
			}
		})
		path := filepath.Join(b.TempDir(), "g.md")
		if err := os.WriteFile(path, []byte(gl.String()), 0o600); err != nil {
			b.Fatal(err)
		}
		b.Run(kb+"hook-hit", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if ts, err := Match(path, prompt); err != nil || len(ts) == 0 {
					b.Fatal(ts, err)
				}
			}
		})
		b.Run(kb+"hook-miss", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if ts, err := Match(path, "center a div with flexbox"); err != nil || len(ts) != 0 {
					b.Fatal(ts, err)
				}
			}
		})
	}
}

// Command progfreq writes internal/wordfreq/programming.txt: how common each
// word is in writing about programming, counted in the documentation of
// Debian packages given as folders (scripts/gen-progfreq.sh extracts them).
// SUBTLEX-US, the everyday table beside it, counts film subtitles, where
// "config", "api", "middleware" and "printable" never occur: by it they
// look as rare as a product's name. Counted here, they are the common
// words of code they are, and a word neither table holds ("fastify",
// "traefik") is a name.
//
// Each folder given is one source, a project's documentation; a word is
// kept only where -sources of them write it: a word of programming at
// large, not of one ecosystem ("numpy", "ebpf", "django" are each one
// community's). A folder given as "html:DIR" is read for its HTML pages, any other for
// its man pages and its texts (.txt, .md, .rst; a package that ships one
// document in several forms is read in one). A file is read by its kind: a
// man page's roff without its requests, escapes and comments; an HTML
// page's text without its tags, scripts and styles; a text as it is; each
// gzip-compressed or not. Links and other files are passed over. Words are runs of ASCII letters, lower-cased, as
// recall reads a prompt's words (a camelCase identifier is one word). A
// row is "word zipf", zipf the word's Zipf frequency (log10 of its
// occurrences per billion words) times ten, rounded; words under -min are
// left out, and rows are sorted by byte for wordfreq's search in place.
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"html"
	"io"
	"io/fs"
	"log"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

func main() {
	out := flag.String("o", "", "file to write (standard output if empty)")
	minZipf := flag.Int("min", 30, "least Zipf frequency kept, times ten")
	minSources := flag.Int("sources", 2, "least number of sources (folders) a word is kept from")
	flag.Parse()
	counts := map[string]int{}
	sources := map[string]int{} // how many folders write each word
	total := 0
	for _, arg := range flag.Args() {
		dir, pages := strings.CutPrefix(arg, "html:")
		seen := map[string]int{}
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			name := strings.TrimSuffix(path, ".gz")
			if pages != strings.HasSuffix(name, ".html") || !pages && !isManPage(name) && !slices.Contains([]string{".txt", ".md", ".rst"}, filepath.Ext(name)) {
				return nil
			}
			text, err := read(path)
			if err != nil {
				return err
			}
			total += count(text, seen)
			return nil
		})
		if err != nil {
			log.Fatal(err)
		}
		if len(seen) == 0 {
			log.Fatalf("progfreq: no words in %s", dir)
		}
		for w, c := range seen {
			counts[w] += c
			sources[w]++
		}
	}
	if total == 0 {
		log.Fatal("progfreq: no words read")
	}
	var rows []string
	for w, c := range counts {
		if z := int(math.Round(10 * math.Log10(float64(c)*1e9/float64(total)))); z >= *minZipf && sources[w] >= *minSources {
			rows = append(rows, fmt.Sprintf("%s %d", w, z))
		}
	}
	slices.Sort(rows) // "word zipf": the space sorts before any letter, so by word
	w := io.Writer(os.Stdout)
	var tmp *os.File
	if *out != "" {
		// Written beside the table and renamed over it: a failed run
		// leaves the committed table whole.
		var err error
		if tmp, err = os.CreateTemp(filepath.Dir(*out), ".progfreq-*"); err != nil {
			log.Fatal(err)
		}
		defer os.Remove(tmp.Name())
		w = tmp
	}
	b := bufio.NewWriter(w)
	for _, r := range rows {
		b.WriteString(r)
		b.WriteByte('\n')
	}
	if err := b.Flush(); err != nil {
		log.Fatal(err)
	}
	if tmp != nil {
		if err := tmp.Close(); err != nil {
			log.Fatal(err)
		}
		if err := os.Chmod(tmp.Name(), 0o644); err != nil {
			log.Fatal(err)
		}
		if err := os.Rename(tmp.Name(), *out); err != nil {
			log.Fatal(err)
		}
	}
	log.Printf("progfreq: %d words read, %d distinct, %d kept", total, len(counts), len(rows))
}

// read returns a file's text as its kind is read (see the package comment).
func read(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var r io.Reader = f
	name := path
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		defer z.Close()
		r, name = z, strings.TrimSuffix(path, ".gz")
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	text := string(b)
	switch {
	case isManPage(name):
		return roff(text), nil
	case strings.HasSuffix(name, ".html"):
		return htmlText(text), nil
	}
	return text, nil
}

// isManPage reports a man page: a file under a "man" folder named with its
// section ("printf.3", "git-commit.1").
func isManPage(name string) bool {
	return strings.Contains(filepath.ToSlash(name), "/man/") && manSection.MatchString(name)
}

var (
	manSection = regexp.MustCompile(`\.\d\w*$`)
	// roffComment is a comment, a line's or the rest of one; roffSetup
	// are lines of no text: the
	// requests that define strings, registers and macros, test
	// conditions, source another page or set the layout (their arguments
	// are roff, not prose: git's pages open with ".ds Aq \(aq").
	roffComment = regexp.MustCompile(`(?m)^['.][ \t]*\\".*$|\\".*$`)
	roffSetup   = regexp.MustCompile(`(?m)^[.'][ \t]*(ds|as|nr|rr|de|am|ig|if|ie|el|so|mso|ft|fam|ps|vs|ta|in|ti|ll|sp|ne|na|nh|hy|ad|ce|rs|re|pl|ev|tr|cc|c2|eo|ec|lf|rm|rn|di|da|wh|ch|it|nop)\b.*$`)
	// roffRequest is a request's name opening a line of text (".B printf",
	// ".SH NAME"): the text stays.
	roffRequest = regexp.MustCompile(`(?m)^[.'][A-Za-z]{1,3}\b`)
	// roffEscape is an escape: a font ("\fB"), a special character
	// ("\(em", "\[em]"), a string ("\*(Aq", "\*[Aq]", "\*R"), a
	// register ("\n(.g", "\n[x]"), a size, a motion or a width with its
	// argument ("\h'-04'", "\w'x'"), a colour ("\m[blue]"), or a
	// one-character escape.
	roffEscape = regexp.MustCompile(`\\(f[A-Z1-4P]|f\(..|f\[[^]]*\]|\(..|\[[^]]*\]|\*\(..|\*\[[^]]*\]|\*.|n[+-]?\(..|n[+-]?\[[^]]*\]|n[+-]?.|s[-+]?\d+|[hvwlLDoxXbZ]'[^']*'|m\[[^]]*\]|[kz].|[-e&|^%~0:c!dtu])`)
	htmlHidden = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>`)
	htmlTag    = regexp.MustCompile(`<[^>]*>`)
)

// roff is a man page's text: its comments and setup requests, its other
// requests' names (".TH", ".B") and its escapes ("\fB", "\(em") taken out.
func roff(s string) string {
	s = roffComment.ReplaceAllString(s, "")
	s = roffSetup.ReplaceAllString(s, "")
	s = roffRequest.ReplaceAllString(s, "")
	return roffEscape.ReplaceAllString(s, " ")
}

// htmlText is an HTML page's text: its tags, scripts and styles taken out,
// its entities decoded.
func htmlText(s string) string {
	s = htmlHidden.ReplaceAllString(s, " ")
	return html.UnescapeString(htmlTag.ReplaceAllString(s, " "))
}

// count adds the words of text to counts, runs of letters and digits that
// open with a letter, and returns how many it read.
func count(text string, counts map[string]int) int {
	n := 0
	start := -1
	for i := 0; i <= len(text); i++ {
		letter := i < len(text) && (text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z')
		digit := i < len(text) && text[i] >= '0' && text[i] <= '9'
		switch {
		case letter && start < 0:
			start = i
		case digit && start < 0:
			for i+1 < len(text) && (text[i+1] >= '0' && text[i+1] <= '9' || text[i+1] >= 'a' && text[i+1] <= 'z' || text[i+1] >= 'A' && text[i+1] <= 'Z') {
				i++ // a run opening with a digit ("2fa", "404") is no word
			}
		case letter || digit:
		case start >= 0:
			counts[strings.ToLower(text[start:i])]++
			n++
			start = -1
		}
	}
	return n
}

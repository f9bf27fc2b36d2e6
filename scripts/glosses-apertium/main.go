// Command glosses-apertium adds to a table of glosses/ the translations of
// an Apertium bilingual dictionary: for each headword of one word, its
// English translations of one word. scripts/gen-glosses.sh runs it on the
// Spanish table, after FreeDict's, with Debian's apertium-eng-spa
// (GPL-2.0): FreeDict's Spanish-English dictionary has 3,896 headwords,
// Apertium's 17,284, of which 14,313 are not FreeDict's, many of them the
// words requests to a coding agent are written in ("desplegar",
// "compilación", "despliegue").
//
// Debian ships the dictionary compiled, a transducer from Spanish lemmas
// and their tags to English ones ("despliegue<n><m>" to
// "deployment<n>"); lt-print writes it out in AT&T text, which this reads
// on standard input and walks path by path. A path whose Spanish side is a
// lemma of lower-case letters (a name's or an acronym's capital, a
// number's digits end it) is a translation.
//
// A headword keeps its FreeDict translations first, in their order; then
// the new ones, the most common in everyday English (wordfreq) first, as
// recall searches a word by its first few.
package main

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
)

var (
	tag         = regexp.MustCompile(`<[^>]*>`)
	headword    = regexp.MustCompile(`^\p{Ll}{2,}$`)
	englishWord = regexp.MustCompile(`^[a-z]{2,}$`)
)

func main() {
	table := flag.String("table", "glosses/spa.txt", "the table to add to, rewritten in place")
	header := flag.String("header", "", "the table's new first line (default: keep its own)")
	flag.Parse()
	pairs, err := walk(os.Stdin)
	if err != nil {
		log.Fatal(err)
	}
	old, err := os.ReadFile(*table)
	if err != nil {
		log.Fatal(err)
	}
	out, err := merge(string(old), pairs, *header)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*table, []byte(out), 0o644); err != nil {
		log.Fatal(err)
	}
}

// arc is one transition of the transducer.
type arc struct {
	to      string
	in, out string
}

// epsilon is how lt-print writes an arc's empty side.
const epsilon = "ε"

// walk reads lt-print's AT&T text and returns each headword's English
// translations, as the transducer's paths give them: every section's paths
// from its state 0 to a final state. A path's Spanish side may hold only
// lower-case letters, a space, a hyphen or an apostrophe and tags; those
// of one lower-case word and no proper-noun tag are headwords, their
// English sides, of one word of letters, lower-cased, translations.
func walk(r io.Reader) (map[string][]string, error) {
	got := map[string][]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	arcs, finals := map[string][]arc{}, map[string]bool{}
	section := func() {
		paths(arcs, finals, func(in, out string) {
			if strings.Contains(in, "<np>") {
				return // a name, no word of the language
			}
			head, english := tag.ReplaceAllString(in, ""), strings.ToLower(tag.ReplaceAllString(out, ""))
			if headword.MatchString(head) && englishWord.MatchString(english) && !slices.Contains(got[head], english) {
				got[head] = append(got[head], english)
			}
		})
		arcs, finals = map[string][]arc{}, map[string]bool{}
	}
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "--") {
			section()
			continue
		}
		f := strings.Split(line, "\t")
		switch {
		case len(f) >= 4: // from, to, input, output, weight
			arcs[f[0]] = append(arcs[f[0]], arc{f[1], f[2], f[3]})
		case len(f) <= 2 && f[0] != "": // state, weight
			finals[f[0]] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	section()
	return got, nil
}

// paths calls found with the two sides of each path from state "0" to a
// final state whose Spanish side a word may have (lemmaSymbol). A state is
// entered once per path: a number's pattern loops on digits, which
// lemmaSymbol stops, and a URL's or an address's on letters, which it
// does not.
func paths(arcs map[string][]arc, finals map[string]bool, found func(in, out string)) {
	onPath := map[string]bool{}
	var in, out []string
	var visit func(state string)
	visit = func(state string) {
		if finals[state] {
			found(strings.Join(in, ""), strings.Join(out, ""))
		}
		onPath[state] = true
		for _, a := range arcs[state] {
			if onPath[a.to] || !lemmaSymbol(a.in) {
				continue
			}
			in, out = append(in, side(a.in)), append(out, side(a.out))
			visit(a.to)
			in, out = in[:len(in)-1], out[:len(out)-1]
		}
		onPath[state] = false
	}
	visit("0")
}

// lemmaSymbol reports whether s may be a symbol of a lemma's side: a tag,
// nothing, a lower-case letter, or what joins a lemma of several words.
func lemmaSymbol(s string) bool {
	if s == epsilon || strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">") {
		return true
	}
	r, n := utf8.DecodeRuneInString(s)
	return n == len(s) && (unicode.IsLower(r) || strings.ContainsRune(" -'", r))
}

func side(s string) string {
	if s == epsilon {
		return ""
	}
	return s
}

// merge adds the translations of pairs to table (a first line, then rows
// "headword word word …" sorted by byte) and returns it with its first
// line replaced by header, if any. A row of a headword alone, which
// FreeDict's tables never hold, is dropped.
func merge(table string, pairs map[string][]string, header string) (string, error) {
	first, rows, _ := strings.Cut(table, "\n")
	if !strings.HasPrefix(first, "#") {
		return "", fmt.Errorf("the table's first line %q is no header", first)
	}
	if header != "" {
		first = header
	}
	words := map[string][]string{}
	for _, row := range strings.Split(strings.TrimSuffix(rows, "\n"), "\n") {
		if f := strings.Fields(row); len(f) > 1 {
			words[f[0]] = f[1:]
		}
	}
	for head, english := range pairs {
		var added []string
		for _, w := range english {
			if !slices.Contains(words[head], w) {
				added = append(added, w)
			}
		}
		slices.SortFunc(added, func(a, b string) int {
			return cmp.Or(cmp.Compare(wordfreq.Zipf(b), wordfreq.Zipf(a)), strings.Compare(a, b))
		})
		words[head] = append(words[head], added...)
	}
	heads := make([]string, 0, len(words))
	for h := range words {
		heads = append(heads, h)
	}
	slices.Sort(heads) // by byte, as internal/glosses searches the rows
	var b strings.Builder
	b.WriteString(first + "\n")
	for _, h := range heads {
		b.WriteString(h + " " + strings.Join(words[h], " ") + "\n")
	}
	return b.String(), nil
}

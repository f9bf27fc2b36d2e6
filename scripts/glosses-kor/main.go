// Command glosses-kor writes the Korean loanword table of glosses/ (kor.txt):
// for each consonant skeleton (korean.EnglishKeys), the English words
// written in Hangul under it. scripts/gen-glosses.sh runs it, after the
// other tables.
//
// The English words are those of the everyday-frequency table
// (internal/wordfreq) and those the other tables translate their words by,
// which hold the words of computing an everyday table lacks ("pagination",
// "endpoint", "middleware"); of three letters or more, English function
// words left out: recall reads a Korean word as a loanword of one of them
// (korean.Distance picks the likeliest, the store the one its sessions
// use). A row is "KEY word word …", the words sorted, the rows sorted by
// byte, so internal/glosses finds a key by binary search.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/korean"
)

func main() {
	wordfreq := flag.String("wordfreq", "internal/wordfreq/english.txt", "the everyday-frequency table")
	tables := flag.String("glosses", "glosses", "the directory of the other tables")
	out := flag.String("o", "glosses/kor.txt", "the table to write")
	flag.Parse()
	table, err := build(*wordfreq, *tables, filepath.Base(*out))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, []byte(table), 0o644); err != nil {
		log.Fatal(err)
	}
}

// build is the table of the English words of the everyday table wordfreq
// and of the gloss tables in directory tables but the one named self.
func build(wordfreq, tables, self string) (string, error) {
	words := map[string]bool{}
	if err := read(wordfreq, false, words); err != nil {
		return "", err
	}
	others, err := filepath.Glob(filepath.Join(tables, "*.txt"))
	if err != nil {
		return "", err
	}
	for _, f := range others {
		if filepath.Base(f) == self {
			continue
		}
		if err := read(f, true, words); err != nil {
			return "", err
		}
	}
	rows := map[string][]string{}
	for w := range words {
		if len(w) < 3 || funcwords.In("eng", w) {
			continue
		}
		for _, k := range korean.EnglishKeys(w) {
			rows[k] = append(rows[k], w)
		}
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString("# Korean loanwords: a consonant skeleton (internal/korean), then the English words written under it; words from internal/wordfreq and the other tables' translations\n")
	for _, k := range keys {
		ws := rows[k]
		slices.Sort(ws)
		fmt.Fprintf(&b, "%s %s\n", k, strings.Join(ws, " "))
	}
	return b.String(), nil
}

// read adds to words the English words of table file name: the first field
// of each line of the everyday table, every field but the first of a
// gloss table's (glosses), its header line skipped.
func read(name string, glosses bool, words map[string]bool) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if glosses {
			fields = fields[1:]
		} else {
			fields = fields[:1]
		}
		for _, w := range fields {
			if w = strings.ToLower(w); korean.EnglishKeys(w) != nil {
				words[w] = true
			}
		}
	}
	return sc.Err()
}

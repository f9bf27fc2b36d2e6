// Command glosses-rus writes the Russian table of glosses/ (rus.txt) from
// Debian's mueller7-dict, V. K. Mueller's English-Russian dictionary
// (GPL-2.0-or-later), turned round: for each Russian word its translations
// name, the English headwords translated by it. scripts/gen-glosses.sh runs
// it.
//
// A row is keyed by the word's Snowball stem (internal/glosses reads a
// prompt's word by the same stem: Russian inflects every noun, adjective
// and verb, and the dictionary gives one form of each), and for a verb in
// -овать or -евать also by its present stem ("блокировать", "блокирует").
// Its English words are those that give the Russian word in their first
// sense before the others, each group most common in everyday English
// first (wordfreq), at most maxGlosses.
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
	"github.com/kljensen/snowball/russian"
)

// maxGlosses is how many English words a row keeps, as many as recall
// searches a foreign word by.
const maxGlosses = 8

var (
	englishHead   = regexp.MustCompile(`^[a-z]{2,}$`)
	transcription = regexp.MustCompile(`\[[^\]]*\]`)
	parenthetical = regexp.MustCompile(`\([^()]*\)`)
	senseMark     = regexp.MustCompile(`\s\d+[).]\s?`)
	label         = regexp.MustCompile(`_\S+`)
	latin         = regexp.MustCompile(`[a-zA-Z]`)
	russianWord   = regexp.MustCompile(`^[а-я]{2,}$`)
)

func main() {
	dir := flag.String("dict", "/usr/share/dictd", "directory of mueller7.index and mueller7.dict.dz")
	out := flag.String("o", "glosses/rus.txt", "the table to write")
	flag.Parse()
	if err := run(*dir, *out); err != nil {
		log.Fatal(err)
	}
}

// translation is an English headword a Russian word translates, and the
// sense it was found in (0: the first).
type translation struct {
	english string
	sense   int
}

func run(dir, out string) error {
	f, err := os.Open(dir + "/mueller7.dict.dz")
	if err != nil {
		return err
	}
	defer f.Close()
	z, err := gzip.NewReader(f) // dictzip is gzip with an index in its header
	if err != nil {
		return err
	}
	data, err := io.ReadAll(z)
	if err != nil {
		return err
	}
	idx, err := os.Open(dir + "/mueller7.index")
	if err != nil {
		return err
	}
	defer idx.Close()
	byStem := map[string][]translation{}
	sc := bufio.NewScanner(idx)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 3 || !englishHead.MatchString(fs[0]) {
			continue // a phrase, a capitalised name, the database's own rows
		}
		off, size := base64Number(fs[1]), base64Number(fs[2])
		if off < 0 || size < 0 || off+size > len(data) {
			return fmt.Errorf("%s: entry %q out of range", dir, fs[0])
		}
		for word, sense := range translations(string(data[off : off+size])) {
			for _, k := range stems(word) {
				// Two words of one stem in one entry ("атака", "атаковать"):
				// the earlier sense counts.
				if i := slices.IndexFunc(byStem[k], func(t translation) bool { return t.english == fs[0] }); i >= 0 {
					byStem[k][i].sense = min(byStem[k][i].sense, sense)
				} else {
					byStem[k] = append(byStem[k], translation{fs[0], sense})
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	keys := make([]string, 0, len(byStem))
	for k := range byStem {
		keys = append(keys, k)
	}
	slices.Sort(keys) // by byte, as internal/sortedlines searches
	var b strings.Builder
	b.WriteString("# rus-eng glosses from Mueller's English-Russian dictionary turned round (GPL-2.0-or-later): a Russian stem, then English words it translates\n")
	for _, k := range keys {
		ts := byStem[k]
		slices.SortStableFunc(ts, func(a, b translation) int {
			if (a.sense == 0) != (b.sense == 0) {
				if a.sense == 0 {
					return -1
				}
				return 1
			}
			za, zb := wordfreq.Zipf(a.english), wordfreq.Zipf(b.english)
			switch {
			case za > zb:
				return -1
			case za < zb:
				return 1
			}
			return strings.Compare(a.english, b.english)
		})
		b.WriteString(k)
		for _, t := range ts[:min(len(ts), maxGlosses)] {
			b.WriteString(" " + t.english)
		}
		b.WriteByte('\n')
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

// translations is the one-word Russian translations of an entry, each with
// the first sense it is given in. An example phrase ("block of shares
// пакет акций") holds Latin letters and is skipped; transcriptions,
// parenthetical notes and labels ("_тех.") are dropped.
func translations(entry string) map[string]int {
	_, body, _ := strings.Cut(entry, "\n") // the first line is the headword
	body = transcription.ReplaceAllString(body, "")
	body = parenthetical.ReplaceAllString(body, "")
	body = strings.Join(strings.Fields(body), " ")
	out := map[string]int{}
	sense := 0
	for _, sn := range senseMark.Split(" "+body, -1) {
		sn = label.ReplaceAllString(sn, "")
		for _, seg := range strings.Split(sn, ";") {
			if latin.MatchString(seg) {
				continue
			}
			for _, t := range strings.Split(seg, ",") {
				t = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(t)), "ё", "е")
				if _, seen := out[t]; !seen && russianWord.MatchString(t) {
					out[t] = sense
				}
			}
		}
		if strings.TrimSpace(sn) != "" {
			sense++
		}
	}
	return out
}

// stems is the keys a Russian word is found by: its Snowball stem, and for
// a verb in -овать or -евать the stem its present tense is read by
// ("блокирова-ть", "блокир-ует").
func stems(w string) []string {
	s := russian.Stem(w, false)
	out := []string{s}
	for _, suf := range []string{"овать", "евать"} {
		if base, ok := strings.CutSuffix(w, suf); ok && len([]rune(base)) >= 3 {
			if p := russian.Stem(base+"ует", false); p != s {
				out = append(out, p)
			}
		}
	}
	return out
}

// base64Number reads a dictd index's offset or size, or -1.
func base64Number(s string) int {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	n := 0
	for _, c := range s {
		d := strings.IndexRune(digits, c)
		if d < 0 {
			return -1
		}
		n = n*64 + d
	}
	return n
}

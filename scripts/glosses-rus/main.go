// Command glosses-rus writes the Russian table of glosses/ (rus.txt) from
// Debian's mueller7-dict, V. K. Mueller's English-Russian dictionary
// (GPL-2.0-or-later), turned round: for each Russian word its translations
// name, the English headwords translated by it. scripts/gen-glosses.sh runs
// it.
//
// Russian inflects every noun, adjective and verb, and the dictionary gives
// one form of each, so a row is keyed by the word's Snowball stem and the
// word ("тест|тесто"): internal/glosses reads a prompt's word by the same
// stem and takes, of the words sharing it, the one most like the prompt's
// ("тест", not "тесто", for "тесты"). A verb in -овать (and in -евать
// after ц, ч, ш, щ, ж) is also keyed by its present forms ("блокирует",
// "блокируем"), a verb in -ять (-ать after ч, ж, ш, щ) by its perfective in
// -ить, which requests use, and by the imperatives Snowball stems apart
// ("удалять": "удалить", "удали", "удаляй"). A function word has a row
// with no English words (functionSense).
//
// A row's English words are, first, those the everyday-frequency table
// knows (a word it lacks is rare or obsolete: "dephosphorize"), then those
// giving the Russian word in the entry's first listed sense, then the most
// common in everyday English (wordfreq); at most maxGlosses. A word that
// translates only words the table lacks has no row.
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
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
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
	// A sense: "1)", "1.", or a sub-sense "а)", which may follow one
	// ("3) а) квартал").
	senseMark   = regexp.MustCompile(`\s(?:\d+[).]|[а-я]\))`)
	label       = regexp.MustCompile(`_\S+`)
	latin       = regexp.MustCompile(`[a-zA-Z]`)
	russianWord = regexp.MustCompile(`^[а-я]{2,}$`)
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
// sense of the entry it was found in (0: the first listed).
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
	rows := map[string][]translation{} // by "stem|word"
	function := map[string]bool{}      // rows of function words, which have no English words
	sc := bufio.NewScanner(idx)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 3 || !englishHead.MatchString(fs[0]) {
			continue // a phrase, the database's own rows
		}
		off, size := base64Number(fs[1]), base64Number(fs[2])
		if off < 0 || size < 0 || off+size > len(data) {
			return fmt.Errorf("%s: entry %q out of range", dir, fs[0])
		}
		entry := string(data[off : off+size])
		if r, _ := utf8.DecodeRuneInString(entry); unicode.IsUpper(r) {
			continue // a name ("Noah"): the index lower-cases headwords, the entry does not
		}
		for word, sense := range translations(entry) {
			for _, k := range keys(word) {
				if sense == functionSense {
					if _, ok := rows[k]; !ok {
						rows[k] = nil
					}
					function[k] = true
					continue
				}
				// Two words of one key in one entry: the earlier sense counts.
				if i := slices.IndexFunc(rows[k], func(t translation) bool { return t.english == fs[0] }); i >= 0 {
					rows[k][i].sense = min(rows[k][i].sense, sense)
				} else {
					rows[k] = append(rows[k], translation{fs[0], sense})
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	heads := make([]string, 0, len(rows))
	for k := range rows {
		heads = append(heads, k)
	}
	slices.Sort(heads) // by byte, as internal/sortedlines searches
	var b strings.Builder
	b.WriteString("# rus-eng glosses from Mueller's English-Russian dictionary turned round (GPL-2.0-or-later): \"stem|word\", then English words the word translates\n")
	for _, h := range heads {
		ts := rows[h]
		if function[h] {
			b.WriteString(h + "\n")
			continue
		}
		slices.SortStableFunc(ts, func(a, b translation) int {
			za, zb := wordfreq.Zipf(a.english), wordfreq.Zipf(b.english)
			switch {
			case (za > 0) != (zb > 0):
				return boolOrder(za > 0)
			case (a.sense == 0) != (b.sense == 0):
				return boolOrder(a.sense == 0)
			case za != zb:
				return boolOrder(za > zb)
			}
			return strings.Compare(a.english, b.english)
		})
		if wordfreq.Zipf(ts[0].english) == 0 {
			// Only words the everyday table lacks ("теста", "testa"): a
			// developer's text does not hold them, and as the likest form
			// of a stem the row would take the place of a common word's.
			continue
		}
		b.WriteString(h)
		for _, t := range ts[:min(len(ts), maxGlosses)] {
			b.WriteString(" " + t.english)
		}
		b.WriteByte('\n')
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

// boolOrder sorts a true first.
func boolOrder(first bool) int {
	if first {
		return -1
	}
	return 1
}

// translations is the one-word Russian translations of an entry, each with
// the first sense it is given in. An example phrase ("block of shares
// пакет акций") holds Latin letters and is skipped; transcriptions,
// parenthetical notes and labels ("_тех.") are dropped, and so are
// function words ("тот" of "то, что …": a phrase the commas split).
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
					if funcwords.In("rus", t) {
						out[t] = functionSense
					}
				}
			}
		}
		if strings.TrimSpace(sn) != "" {
			sense++
		}
	}
	return out
}

// functionSense marks a function word among an entry's translations: it
// has a row, with no English words, so that its other forms ("моей" of
// "мое", "работы" of "работа") take it as the likest word of their stem
// rather than a content word that shares it.
const functionSense = -1

// keys are the rows "stem|word" a Russian word of the dictionary is found
// by: its own, and for a verb those of the forms the dictionary does not
// give (the package comment).
func keys(w string) []string {
	var out []string
	add := func(form string) {
		s := russian.Stem(form, false)
		if k := s + "|" + form; utf8.RuneCountInString(s) >= 2 && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	add(w)
	after := func(base, letters string) bool { return base != "" && strings.ContainsAny(lastRune(base), letters) }
	perfective := func(base string) {
		if b, ok := strings.CutSuffix(base, "л"); ok && after(b, "бвмпф") {
			base = b
		}
		add(base + "ить")
		add(base + "и")
		add(base + "ь")
	}
	for _, suf := range []string{"овать", "евать"} {
		if base, ok := strings.CutSuffix(w, suf); ok && (suf == "овать" || after(base, "цчжшщ")) {
			for _, e := range []string{"ует", "уем", "уешь", "уете", "уют", "уемый"} {
				add(base + e)
			}
		}
	}
	// An imperfective in -ять (-ать after a hushing letter) has its
	// perfective in -ить, without the л that follows a labial
	// ("добавлять", "добавить"); requests use it, and the imperatives of
	// both ("удали", "добавь", "проверяй"), which Snowball stems apart.
	if base, ok := strings.CutSuffix(w, "ять"); ok && utf8.RuneCountInString(base) >= 3 {
		add(base + "яй")
		perfective(base)
	} else if base, ok := strings.CutSuffix(w, "ать"); ok && utf8.RuneCountInString(base) >= 3 {
		add(base + "ай")
		if after(base, "чжшщ") {
			perfective(base)
		}
	} else if base, ok := strings.CutSuffix(w, "ить"); ok && utf8.RuneCountInString(base) >= 3 {
		add(base + "и")
		add(base + "ь")
	}
	return out
}

// lastRune is w's last letter, "" for none.
func lastRune(w string) string {
	r, n := utf8.DecodeLastRuneInString(w)
	if n == 0 {
		return ""
	}
	return string(r)
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

// Package glosses gives the English translations of a word of another
// language, from maintained bilingual dictionaries.
//
// The dictionaries (Debian's FreeDict spa-eng, por-eng, ita-eng and
// fra-eng, and Mueller's English-Russian dictionary turned round, all
// GPL-2.0-or-later; Apertium's English-Spanish one joined to FreeDict's
// Spanish, GPL-2.0; FreeDict's jpn-eng, which is JMdict, CC-BY-SA-3.0;
// CC-CEDICT for Chinese, CC-BY-SA-4.0; and the Korean loanword table made
// of their English words, all generated into the repository's glosses/
// directory by scripts/gen-glosses.sh) are copyleft data, so they are not
// compiled into the MIT-licensed binaries: scripts/build.sh copies them
// beside the binaries (bin/glosses/) and a process reads, through a Dict,
// the one table a prompt's language needs, once. Without the directory
// nothing is translated and recall works as before.
package glosses

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
	"github.com/claude-memory-layer/claude-memory-layer/internal/sortedlines"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
	"github.com/kljensen/snowball/russian"
	"golang.org/x/text/unicode/norm"
)

// maxTable bounds what is read of one table; the largest (jpn.txt) is
// 2.2 MB.
const maxTable = 8 << 20

// files are the table of each language by the ISO 639-3 code funcwords
// names it by; Brazilian Portuguese reads the Portuguese one.
var files = map[string]string{"spa": "spa.txt", "por": "por.txt", "porBr": "por.txt", "ita": "ita.txt", "fra": "fra.txt", "rus": "rus.txt",
	"jpn": "jpn.txt", "zho": "zho.txt", loans: "kor.txt"}

// loans names the Korean loanword table in files (Loans): it translates no
// Korean word, so it is under no language's code.
const loans = "korLoans"

// unspaced are the languages written without spaces between words, whose
// words are the table's headwords a run of text is made of (Words): a word
// is looked up whole, never read as a form of another.
var unspaced = map[string]bool{"jpn": true, "zho": true}

// stemmed are the languages whose rows are keyed "stem|word" by a word's
// Snowball stem and dictionary form (scripts/glosses-rus), not by the form
// alone: Russian inflects every noun, adjective and verb, and the ending
// forms reads for the others is a few letters.
var stemmed = map[string]func(string) string{"rus": func(w string) string { return russian.Stem(w, false) }}

// Dict is the dictionaries of one directory. A table is read at the first
// word asked of its language, and once: a process that is asked nothing, as
// the prompt hook is for an English prompt, reads nothing. A nil *Dict
// translates nothing. Safe for concurrent use.
type Dict struct {
	dir func() (string, error) // where the tables are, asked at the first read

	mu     sync.Mutex
	tables map[string]string // by file name; "" for one that could not be read
	err    error             // the first table that could not be read
}

// Open is the dictionaries in directory dir; it reads nothing yet.
func Open(dir string) *Dict {
	return &Dict{dir: func() (string, error) { return dir, nil }}
}

// Installed is the directory of the dictionaries of a plugin whose binaries
// are in binDir: scripts/build.sh copies them there.
func Installed(binDir string) string { return filepath.Join(binDir, "glosses") }

// Beside is the dictionaries installed beside the running executable
// (Installed), found at the first table read, so that a process which
// translates nothing does not look for them either.
func Beside() *Dict {
	return &Dict{dir: func() (string, error) {
		exe, err := os.Executable()
		if err == nil {
			exe, err = filepath.EvalSymlinks(exe)
		}
		if err != nil {
			return "", fmt.Errorf("glosses: no directory beside the executable: %w", err)
		}
		return Installed(filepath.Dir(exe)), nil
	}}
}

// Err is the first error reading a table a word was asked of, nil when
// every such table was read: a binary without its dictionaries translates
// nothing, and says so through the caller's log.
func (d *Dict) Err() error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// Missing is the tables absent from the dictionaries' directory, for
// doctor to report; for a nil Dict, every table. It reads no table.
func (d *Dict) Missing() []string {
	if d == nil {
		return slices.Compact(slices.Sorted(maps.Values(files)))
	}
	dir, err := d.dir()
	var out []string
	for _, name := range files {
		fi, serr := os.Stat(filepath.Join(dir, name))
		if (err != nil || serr != nil || !fi.Mode().IsRegular()) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// table is the rows of lang's dictionary, without its header line; "" when
// there is none or it cannot be read.
func (d *Dict) table(lang string) string {
	name := files[lang]
	if d == nil || name == "" {
		return ""
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if t, ok := d.tables[name]; ok {
		return t
	}
	if d.tables == nil {
		d.tables = map[string]string{}
	}
	t, err := read(d.dir, name)
	if err != nil && d.err == nil {
		d.err = err
	}
	d.tables[name] = t
	return t
}

// read is table file name of directory dir without its header line. The
// file must be regular (a FIFO would block the hook) and at most maxTable.
func read(dir func() (string, error), name string) (string, error) {
	d, err := dir()
	if err != nil {
		return "", err
	}
	// Read straight into the string the lookups search: reading into a
	// buffer and copying it held two to three times the table (1.9 MB for
	// Russian) at the peak.
	t, err := regular.ReadString(filepath.Join(d, name), maxTable)
	if err != nil {
		return "", fmt.Errorf("glosses: %w", err)
	}
	_, rows, _ := strings.Cut(t, "\n")
	return rows, nil
}

// minStem is the fewest letters a word and a headword share for the word to
// be read as a form of it: "guardamos" is a form of "guardar", "hojas" of
// "hoja"; "demo" is none of "democracia".
const minStem = 4

// English is the English translations of word, lower-case, in language
// lang; nil when the dictionary has none. A word that is no headword is
// read as an inflected form of the headword it shares the most letters with
// from the start, when those are all of the headword but its last two (an
// infinitive's ending, a gender's or a number's: "guard-ar", "-amos";
// inflects) and at least minStem, the only headword it is so read as (a
// noun and its verb counted as one: families), and what follows is an
// ending of the language's shape. A Russian word is read by its stem
// instead (stemmed, likest).
func (d *Dict) English(lang, word string) []string {
	g, heads, _ := d.lookUp(lang, word)
	if heads > 1 {
		// Begins like several headwords alike ("postgres": "postal",
		// "poste", "postre"): a word of no language's, not a form of one.
		return nil
	}
	return g
}

// Has reports whether the dictionary has language lang's table: a Dict
// opened on no directory, or on one without lang's file, has none.
func (d *Dict) Has(lang string) bool { return d.table(lang) != "" }

// Knows reports whether word is a word of language lang: a headword or a
// form of one, as English reads forms, or a form of several headwords with
// no more than an ending (maxEnding) after them, which English leaves
// untranslated for it cannot tell which one it is ("guardo" begins like
// "guardar" and "guardia"). Nil knows no word. Like English, it reads any
// vowel ending after one headword as a form of it ("terraform" of
// "terraza"), so a term may pass for a word of the language. A Russian
// word is a function word or one whose stem a row has.
func (d *Dict) Knows(lang, word string) bool {
	_, heads, tail := d.lookUp(lang, word)
	// A word beginning like several headwords is a form of them only with
	// an ending's few letters after ("guard-o"): "post-gres" is no form
	// of "postal", "poste" or "postre".
	return heads == 1 || heads > 1 && len(tail) <= maxEnding
}

// Headword reports whether word is written as a headword of lang's table
// ("сломать", not its past "сломал"): recall tells a Russian verb's past
// by its infinitive being one.
func (d *Dict) Headword(lang, word string) bool {
	rows := d.table(lang)
	if rows == "" || word == "" {
		return false
	}
	key := word
	if stem := stemmed[lang]; stem != nil {
		word = strings.ReplaceAll(word, "ё", "е")
		key = stem(word) + "|" + word
	}
	line, _ := sortedlines.Line(rows, sortedlines.Search(rows, key))
	head, _, _ := strings.Cut(line, " ")
	return head == key
}

// lookUp looks word up in lang's table: a headword's glosses, or else what
// forms reads it as (the glosses, how many headwords, the ending); in a
// stemmed language's, the glosses of the word of its stem most like it.
func (d *Dict) lookUp(lang, word string) ([]string, int, string) {
	rows := d.table(lang)
	if rows == "" || utf8.RuneCountInString(word) < 2 {
		return nil, 0, ""
	}
	if stem := stemmed[lang]; stem != nil {
		// The rows write "ё" as "е", as most texts do ("отчёт", "отчет"),
		// and so do the function words' lists.
		folded := strings.ReplaceAll(word, "ё", "е")
		if funcwords.In(lang, word) {
			return nil, 1, "" // "тем" is "than", not "тема"'s stem
		}
		if g, ok := likest(rows, stem(folded), folded); ok {
			return g, 1, ""
		}
		return nil, 0, ""
	}
	if g, ok := lookup(rows, word); ok {
		return g, 1, ""
	}
	if unspaced[lang] {
		return nil, 0, ""
	}
	g, heads, tail := forms(rows, word)
	if heads == 0 {
		// A headword with "re" before it ("reconfigurar", "recargar") is
		// the thing done again, which English writes with the same prefix
		// ("reconfigure", "reload"). Only a headword whole after it, of
		// minRedone bytes: an English word in the prompt ("release") may
		// begin like a form of one ("lease", "leer").
		if rest, ok := strings.CutPrefix(word, "re"); ok && len(rest) >= minRedone {
			if rg, ok := lookup(rows, rest); ok && len(rg) > 0 {
				out := make([]string, len(rg))
				for i, w := range rg {
					out[i] = "re" + w
				}
				return out, 1, ""
			}
		}
	}
	return g, heads, tail
}

// minRedone is the fewest bytes after "re" lookUp reads as a headword done
// again: "remote" is no "mote" done again.
const minRedone = 5

// Loans are the English words Korean may write under consonant skeleton
// key (korean.Key): the loanwords a Hangul word with that skeleton may be
// ("BSN": "version", "basin", …). nil without the table.
func (d *Dict) Loans(key string) []string {
	rows := d.table(loans)
	if rows == "" || key == "" {
		return nil
	}
	g, _ := lookup(rows, key)
	return g
}

// maxWordRunes is the longest headword, in runes, Words looks for.
const maxWordRunes = 8

// Words is the words of lang, a language written without spaces (Japanese,
// Chinese), that run is made of: from its start, the longest headword of
// lang's table there, else the next rune (Chinese is also cut from the
// end, and the cut in fewer pieces taken). What no headword covers is
// dropped (Japanese writes its grammar in hiragana, and a kanji the table
// lacks says nothing a gloss could), except in a stretch of katakana: one
// the headwords within it do not cover whole is a loanword or a name the
// table lacks ("ゾルバテックス", not "ゾル" and "テックス"), one word. Nil for another language or
// without the table.
func (d *Dict) Words(lang, run string) []string {
	rows := d.table(lang)
	if rows == "" || !unspaced[lang] {
		return nil
	}
	// The table's headwords are NFKC ("ｻｰﾊﾞｰ" is written "サーバー").
	rs := []rune(norm.NFKC.String(run))
	found := forwardWords(rows, rs)
	if lang == "zho" {
		// Chinese is cut from the end as well, and the cut of fewer
		// pieces (words and the characters no word covers) taken; on a
		// tie the one covering more, then the one from the end ("提高性能"
		// is "提高" and "性能" from the start, "高性能" and a bare "提"
		// from the end): the longest word from the start
		// often takes the next word's first character ("把手纸" is "把"
		// and "手纸", toilet paper, not "把手", a handle, and "纸"), as
		// the standard bidirectional maximum matching reads it.
		back := backwardWords(rows, rs)
		pb, pf := pieces(back, len(rs)), pieces(found, len(rs))
		if pb < pf || pb == pf && uncovered(back, len(rs)) <= uncovered(found, len(rs)) {
			found = back
		}
	}
	for i := 0; i < len(rs); {
		if !katakana(rs[i]) {
			i++
			continue
		}
		end := i
		for end < len(rs) && katakana(rs[end]) {
			end++
		}
		// The stretch's part no word reaching outside it covers.
		from, to := i, end
		covered := 0
		for _, f := range found {
			switch {
			case f.end <= i || f.start >= end:
			case f.start < i:
				from = f.end
			case f.end > end:
				to = f.start
			default:
				covered += f.end - f.start
			}
		}
		if to-from >= 2 && covered < to-from && slices.ContainsFunc(rs[from:to], func(r rune) bool { return r != 'ー' }) {
			found = slices.DeleteFunc(found, func(f span) bool { return f.start >= from && f.end <= to })
			found = append(found, span{from, to})
		}
		i = end
	}
	slices.SortFunc(found, func(a, b span) int { return a.start - b.start })
	var out []string
	for _, f := range found {
		out = append(out, string(rs[f.start:f.end]))
	}
	return out
}

// span is a word's runes in a run, [start, end).
type span struct{ start, end int }

// forwardWords are the longest headwords of rows in rs read from its
// start; a rune no headword starts at is skipped.
func forwardWords(rows string, rs []rune) []span {
	var found []span
	for i := 0; i < len(rs); {
		n := 0
		for k := min(len(rs)-i, maxWordRunes); k >= 2; k-- {
			if _, ok := lookup(rows, string(rs[i:i+k])); ok {
				n = k
				break
			}
		}
		if n == 0 {
			i++
			continue
		}
		found = append(found, span{i, i + n})
		i += n
	}
	return found
}

// backwardWords are the longest headwords of rows in rs read from its end,
// in text order.
func backwardWords(rows string, rs []rune) []span {
	var found []span
	for j := len(rs); j > 0; {
		n := 0
		for k := min(j, maxWordRunes); k >= 2; k-- {
			if _, ok := lookup(rows, string(rs[j-k:j])); ok {
				n = k
				break
			}
		}
		if n == 0 {
			j--
			continue
		}
		found = append(found, span{j - n, j})
		j -= n
	}
	slices.Reverse(found)
	return found
}

// pieces is how many pieces words cut a run of n runes into: the words and
// the runes none covers.
func pieces(words []span, n int) int { return len(words) + uncovered(words, n) }

// uncovered is how many runes of a run of n no word of words covers.
func uncovered(words []span, n int) int {
	for _, w := range words {
		n -= w.end - w.start
	}
	return n
}

// katakana reports a rune of katakana, or its long vowel mark.
func katakana(r rune) bool { return unicode.Is(unicode.Katakana, r) || r == 'ー' }

// maxEnding is the longest ending, in bytes, Knows reads after the
// letters a word shares with several headwords: a vowel and a consonant,
// or one accented vowel ("-ó", "-é").
const maxEnding = 2

// forms reads word, no headword of rows, as a form of the headwords it
// shares the most letters with from the start, when those are all of a
// headword but its last two, an ending (inflects), and at least minStem,
// and what follows is an ending of the dictionaries' languages: their
// glosses, how many headwords they are (0: none), and the ending read.
func forms(rows, word string) ([]string, int, string) {
	if len(word) < minStem {
		return nil, 0, ""
	}
	// The headwords sharing the word's first minStem bytes are one run of
	// the sorted table.
	prefix := word[:minStem]
	i := sortedlines.Search(rows, prefix)
	best := 0
	var out, read []string // the glosses, and the headwords word is read as a form of
	for i < len(rows) {
		var line string
		line, i = sortedlines.Line(rows, i)
		head, glosses, _ := strings.Cut(line, " ")
		if !strings.HasPrefix(head, prefix) {
			break
		}
		n := common(head, word)
		if n < len(head)-2 || n < best {
			continue
		}
		if n > best {
			best, out, read = n, nil, nil
		}
		if !inflects(head[n:], word[n:]) {
			continue // and no headword sharing fewer letters is read instead
		}
		read = append(read, head)
		for _, g := range strings.Fields(glosses) {
			if !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	tail := word[min(best, len(word)):]
	if tail != "" && tail != "s" && !strings.ContainsAny(tail, romanceVowels) {
		// The dictionaries' languages inflect by a vowel ending or a plural
		// "s" ("guard-amos", "hoja-s", "parl-ent"); "frontend" is "fronte"
		// and "nd", no form of "frontera".
		return nil, 0, ""
	}
	return out, families(read), tail
}

// families counts headwords, a noun and the verb made of it with an
// infinitive's ending counted as one: the verb the noun with "r" or "re"
// added ("factura" and "facturar", "nota" and "notar", Italian "nota" and
// "notare"), or the noun the verb's stem with one vowel ("registro" and
// "registrar", "diseño" and "diseñar"): "facturas" is the noun's plural or
// the verb's second person, and "registró" the verb's past or the noun
// with an accent, a word of one family either way, where "postgres"
// begins like three words of none ("postal", "poste", "postre").
func families(heads []string) int {
	n := len(heads)
	for _, h := range heads {
		if slices.ContainsFunc(heads, func(o string) bool { return h == o+"r" || h == o+"re" || verbOf(h, o) }) {
			n--
		}
	}
	return n
}

// infinitives are the endings of the dictionaries' languages' infinitives.
var infinitives = []string{"ar", "er", "ir", "are", "ere", "ire"}

// verbOf reports whether verb is noun's stem, its noun less a last vowel,
// with an infinitive's ending ("registr-o", "registr-ar"): a stem of at least
// minStem bytes, so that two short words of one start ("co-la", "co-ler")
// are not read as one.
func verbOf(verb, noun string) bool {
	v, size := utf8.DecodeLastRuneInString(noun)
	stem := noun[:len(noun)-size]
	if len(stem) < minStem || !strings.ContainsRune(romanceVowels, v) {
		return false
	}
	rest, ok := strings.CutPrefix(verb, stem)
	return ok && slices.Contains(infinitives, rest)
}

// inflects reports whether a form may end in rest where its headword ends
// in dropped: the headword whole ("hoja-s"); but for an ending beginning
// with a vowel ("guard-ar", "guard-o"), an infinitive's "r" or "re" after
// its vowel ("guarda-r", "guarda-mos", "prend-re"); or but for a last
// consonant a plural changes, the form then a plural of three letters at
// most ("capa-z", "capa-ces"; "variáve-l", "variáve-is"; "journa-l",
// "journa-ux"). "demo" is no form of "demo-ra", whose forms are "demor-",
// nor "metadata" of "meta-l", nor "mode" of "mode-m".
func inflects(dropped, rest string) bool {
	r, size := utf8.DecodeRuneInString(dropped)
	switch {
	case dropped == "" || dropped == "r" || dropped == "re" || strings.ContainsRune(romanceVowels, r):
		return true
	case size == len(dropped):
		return len(rest) <= 3 && (strings.HasSuffix(rest, "s") || strings.HasSuffix(rest, "x"))
	}
	return false
}

// romanceVowels are the vowels of the dictionaries' languages' endings.
const romanceVowels = "aeiouáéíóúàèìòùâêîôûãõ"

// likest is the glosses, in rows keyed "stem|word", of the word of stem
// most like w: the one sharing the most letters with it from the start,
// then the shortest, whose letters past those shared are fewest ("тесты" is
// "тест", not "тесто"; "удалите" is "удалить", not "удалиться"), then the
// one whose first gloss is the most common in everyday English; whether any
// word has the stem. A function word's row has no glosses: its other forms
// ("моей" of "мое") take it, not a content word of the same stem.
func likest(rows, stem, w string) ([]string, bool) {
	if utf8.RuneCountInString(stem) < 2 {
		return nil, false
	}
	key := stem + "|"
	var out []string
	best, size, zipf := -1, 0, 0.0
	for i := sortedlines.Search(rows, key); i < len(rows); {
		var line string
		line, i = sortedlines.Line(rows, i)
		head, glosses, _ := strings.Cut(line, " ")
		form, ok := strings.CutPrefix(head, key)
		if !ok {
			break
		}
		g := strings.Fields(glosses)
		n, z := common(form, w), 0.0
		if len(g) > 0 {
			z = wordfreq.Zipf(g[0])
		}
		if n > best || n == best && (len(form) < size || len(form) == size && z > zipf) {
			best, size, zipf, out = n, len(form), z, g
		}
	}
	return out, best >= 0
}

// lookup is the glosses of headword w in rows.
func lookup(rows, w string) ([]string, bool) {
	line, _ := sortedlines.Line(rows, sortedlines.Search(rows, w))
	head, glosses, _ := strings.Cut(line, " ")
	if head != w {
		return nil, false
	}
	return strings.Fields(glosses), true
}

// common is how many bytes a and b share from the start, whole runes only.
func common(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(a) && a[n]&0xC0 == 0x80 {
		n-- // not in the middle of a multi-byte letter
	}
	return n
}

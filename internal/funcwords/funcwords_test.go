package funcwords

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func wordsOf(s string) []string { return strings.Fields(strings.ToLower(s)) }

func TestFor(t *testing.T) {
	for _, tc := range []struct {
		text     string
		lang     string   // a language the text must be found in
		function []string // function words of the text
		content  []string // words that are not
	}{
		{"how do we deploy the api to staging", "eng", []string{"how", "do", "we", "the", "to"}, []string{"deploy", "api", "staging"}},
		{"¿cómo desplegamos la api en el servidor de pruebas con docker?", "spa", []string{"la", "en", "el", "de", "con"}, []string{"api", "servidor", "docker"}},
		{"come si configura il server per la porta di sviluppo", "ita", []string{"il", "per", "la", "di"}, []string{"server", "porta", "sviluppo"}},
		{"почему не работает сборка на сервере", "rus", []string{"не", "на"}, []string{"сборка", "сервере"}},
		// Close languages' lists complete each other: "cada" and "tanto"
		// are in the Catalan and Portuguese lists, not the Spanish one.
		{"¿por qué el worker tarda tanto en cada despliegue?", "spa", []string{"por", "el", "cada", "tanto"}, []string{"worker", "tarda", "despliegue"}},
		// An English prompt is not taken for German for one "die".
		{"why did the worker die after the deploy", "eng", []string{"the", "after"}, []string{"die", "worker", "deploy"}},
		// English wins a tie with a language of no two words of its own
		// (Slovenian lists "do", "one", "on" and "a"), and counts the
		// function words its list lacks ("when", "does"), which
		// outnumber Slovenian's "one" and "po".
		{"do the one builds fail on a fresh clone", "eng", []string{"do", "the", "on"}, []string{"one", "builds", "fresh", "clone"}},
		{"when does the one po run", "eng", []string{"the"}, []string{"one", "po", "run"}},
		// "no" and "so" are English too: no Polish "ci" here.
		{"we have no ci so tests never run", "eng", []string{"we", "have"}, []string{"ci", "tests", "run"}},
		// A language tied with English keeps its list with two words of
		// its own: "no" and "el" tie Spanish with "no" and "why".
		{"por qué falla the test on staging", "spa", []string{"por", "qué", "the", "on"}, []string{"falla", "test", "staging"}},
		{"perché il job fallisce on the runner", "ita", []string{"perché", "il", "on", "the"}, []string{"job", "fallisce", "runner"}},
		// A list that writes a word without its accents ("aupres",
		// "deja") has it as the text writes it, with them.
		{"le client s'authentifie comment auprès de l'api ? je l'ai déjà oublié", "fra", []string{"le", "auprès", "de", "déjà"}, []string{"client", "api"}},
		// A far language one word short is no close one: Irish "go" in a
		// Dutch prompt, Esperanto "post" in an Italian one stay content.
		{"waarom faalt de go build op staging met de cache", "nld", []string{"de", "op", "met"}, []string{"go", "build", "staging", "cache"}},
		{"il worker dei pagamenti manda la post senza retry", "ita", []string{"il", "dei", "la"}, []string{"post", "worker", "pagamenti", "retry"}},
		// A language's inflected function words come from the second
		// table (iso.txt): stopword's Spanish list has no verb.
		{"¿cuántas réplicas tenemos y podemos poner el despliegue en otra región?", "spa",
			[]string{"cuántas", "tenemos", "podemos", "poner", "el", "en"}, []string{"réplicas", "despliegue", "región"}},
		// English takes nothing from it: "test" and "related" are words
		// of a coding conversation. Nor from stdlib's list (Common): a
		// task's "keep old logs" names what it is about.
		{"which test is related to the failing build", "eng", []string{"which", "is", "to", "the"}, []string{"test", "related", "failing", "build"}},
		{"keep the old logs until the next release", "eng", []string{"the"}, []string{"keep", "old", "logs", "next", "release"}},
		// stdlib's English words are no evidence of English: "come" and
		// "in" leave this prompt Italian.
		{"come posso ordinare una slice in go", "ita", []string{"come", "una", "in"}, []string{"ordinare", "slice"}},
		// A text written mostly in a script only one language is written
		// in is in that language, though it has too few of its function
		// words to be read so: Korean "어떻게" (how), Greek "το". Words of
		// it quoted in an English sentence are a term: Korean "이상"
		// (above) there means "anomaly".
		{"fastapi에서 파일 업로드 엔드포인트는 어떻게 만들어", "eng", []string{"어떻게"}, []string{"fastapi", "파일", "업로드"}},
		{"αποτυγχάνει το build", "eng", []string{"το"}, []string{"build"}},
		{"what threshold does the 이상 탐지 job use", "eng", []string{"what", "the"}, []string{"이상", "탐지", "threshold", "job"}},
	} {
		s := For(wordsOf(tc.text))
		if !slices.Contains(s.Languages(), tc.lang) {
			t.Errorf("%q: languages %v lack %s", tc.text, s.Languages(), tc.lang)
		}
		for _, w := range tc.function {
			if !s.Has(w) {
				t.Errorf("%q: %q is a function word", tc.text, w)
			}
		}
		for _, w := range tc.content {
			if s.Has(w) {
				t.Errorf("%q: %q is no function word (languages %v)", tc.text, w, s.Languages())
			}
		}
	}
}

func TestListsCoverManyLanguages(t *testing.T) {
	codes := strings.Fields(strings.TrimPrefix(header, "#"))
	if len(codes) < 50 || len(codes) > 64 {
		t.Fatalf("%d languages in lists.txt", len(codes))
	}
	for _, c := range []string{"eng", "spa", "kor", "rus", "ita", "hrv", "por", "deu", "fra", "jpn", "zho"} {
		if !slices.Contains(codes, c) {
			t.Errorf("no %s list", c)
		}
	}
	// Both tables name the same languages in the same order: a word's
	// masks are ORed.
	if h, _, _ := strings.Cut(iso, "\n"); h != header {
		t.Fatalf("iso.txt's header %q is not lists.txt's", h)
	}
	// Sorted by byte, one "word mask" a line: the binary search relies on it.
	for _, table := range []string{words, isoWords} {
		prev := ""
		for line := range strings.Lines(table) {
			w, m, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
			if !ok || w <= prev || m == "" {
				t.Fatalf("line %q after %q", line, prev)
			}
			prev = w
		}
	}
}

// TestCloseLists: closeLists is what the lists say: the pairs of languages
// a quarter or more of whose shorter list is in the longer.
func TestCloseLists(t *testing.T) {
	codes := strings.Fields(strings.TrimPrefix(header, "#"))
	var size [64]int
	var shared [64][64]int
	for line := range strings.Lines(words) {
		_, hex, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		m, err := strconv.ParseUint(hex, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		for i := range codes {
			if m&(1<<i) == 0 {
				continue
			}
			size[i]++
			for j := i + 1; j < len(codes); j++ {
				if m&(1<<j) != 0 {
					shared[i][j]++
				}
			}
		}
	}
	var pairs []string
	for i := range codes {
		for j := i + 1; j < len(codes); j++ {
			if 4*shared[i][j] >= min(size[i], size[j]) {
				pairs = append(pairs, codes[i]+"-"+codes[j])
			}
		}
	}
	if got, want := strings.Fields(closeLists), pairs; !slices.Equal(got, want) {
		t.Errorf("closeLists = %q, want %q", got, strings.Join(want, " "))
	}
}

// BenchmarkFor is the cost a prompt pays: finding its languages and looking
// up its words, with no table to build first.
func BenchmarkFor(b *testing.B) {
	ws := words2("¿cómo desplegamos la api en el servidor de pruebas con docker y el nuevo puerto?")
	for b.Loop() {
		s := For(ws)
		for _, w := range ws {
			s.Has(w)
		}
	}
}

func words2(s string) []string { return wordsOf(s) }

// TestMaskKept checks that a mask looked up again, from masks or after
// masks started over, is the tables' mask, and that masks stays bounded.
func TestMaskKept(t *testing.T) {
	probe := []string{"the", "de", "perché", "und", "kubernetes", "не", "는"}
	want := map[string]uint64{}
	for _, w := range probe {
		want[w] = find(words, w) | find(isoWords, w)&^english
		if got := mask(w); got != want[w] {
			t.Fatalf("mask(%q) = %x, want %x", w, got, want[w])
		}
	}
	masks.Lock()
	kept, held := masks.m["perché"]
	masks.m["perché"] = wordMask{has: 1 << 62} // a mask no word has: mask must read it
	masks.Unlock()
	if !held || kept.has != want["perché"] {
		t.Errorf("masks did not keep a word looked up: %x, %v", kept.has, held)
	}
	if got := mask("perché"); got != 1<<62 {
		t.Errorf("mask looked perché up again (%x) instead of reading masks", got)
	}
	for i := range maxMasks + 10 {
		mask(fmt.Sprintf("zq%d", i))
	}
	masks.Lock()
	n := len(masks.m)
	_, held = masks.m["perché"]
	masks.Unlock()
	if n > maxMasks || held {
		t.Errorf("masks holds %d words (maxMasks %d), perché still held %v: it did not start over when full", n, maxMasks, held)
	}
	for _, w := range probe {
		if got := mask(w); got != want[w] {
			t.Errorf("mask(%q) after masks started over = %x, want %x", w, got, want[w])
		}
	}
	if want["the"] == 0 || want["kubernetes"] != 0 {
		t.Errorf("the tables' masks: the=%x kubernetes=%x; the test asks too little", want["the"], want["kubernetes"])
	}
}

// TestIn: a word is a function word of one language by name, whatever
// text it came from.
func TestIn(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		code, w string
		want    bool
	}{
		{"rus", "который", true},
		{"rus", "ключ", false},
		// "ё" is "е" in the tables, whichever a list or a text writes:
		// stopwords-iso lists "моё" and "всё", stopword "все".
		{"rus", "моё", true},
		{"rus", "мое", true},
		{"rus", "всё", true},
		{"rus", "все", true},
		{"rus", "ещё", true},
		{"rus", "отчёт", false},
		// A form the tables lack, declined as an adjective from one they
		// list ("какой", "который"; stopwords-iso's "новый"); a noun of
		// such an ending, or the ending alone, is none.
		{"rus", "какую", true},
		{"rus", "каких", true},
		{"rus", "которую", true},
		{"rus", "новую", true},
		{"rus", "библиотеку", false},
		{"rus", "конфигурацию", false},
		{"rus", "ой", false},
		{"ukr", "какую", false},
		{"spa", "que", true},
		{"eng", "que", false},
		// A list that writes a word without its accents has it with them
		// ("aupres", "deja" in stopwords-iso's French), but only in a
		// language that writes those accents: "thé" (tea) is not English
		// "the", nor "máy" (machine) Tagalog "may", nor "año" (year)
		// Portuguese "ano".
		{"fra", "auprès", true},
		{"fra", "déjà", true},
		{"eng", "thé", false},
		{"tgl", "máy", false},
		{"por", "año", false},
		{"porBr", "año", false},
		{"xxx", "que", false}, // no such list
	} {
		if got := In(c.code, c.w); got != c.want {
			t.Errorf("In(%q, %q) = %v, want %v", c.code, c.w, got, c.want)
		}
	}
}

// Common holds the English words of every sentence stdlib's list adds to
// lists' ("though", "even"), its single letters left out ("c" and "r"
// name languages), and no word lists already holds.
func TestCommon(t *testing.T) {
	for w, want := range map[string]bool{
		"though": true, "even": true, "whether": true, "although": true, "seems": true, "keep": true,
		"the": false, "and": false, "c": false, "r": false, "kubernetes": false, "deploy": false,
		"máy": false, // Vietnamese "machine", not "may" with its accent dropped
	} {
		if got := Common(w); got != want {
			t.Errorf("Common(%q) = %v, want %v", w, got, want)
		}
	}
}

// FuzzRussianDeclined: any word, valid UTF-8 or not, is read without a
// panic; a word read as a declined form ends with one of the endings and
// shares its stem with a Russian word the tables list.
func FuzzRussianDeclined(f *testing.F) {
	for _, s := range []string{"какую", "новую", "ой", "\xd0", "kakuyu", "библиотеку", "ую"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		if russianDeclined(w) == 0 {
			return
		}
		ok := false
		for _, end := range adjectiveEndings {
			if stem, cut := strings.CutSuffix(w, end); cut {
				for _, l := range adjectiveLemmas {
					ok = ok || (find(words, stem+l)|find(isoWords, stem+l))&russian != 0
				}
				break
			}
		}
		if !ok {
			t.Errorf("russianDeclined(%q) read a word no listed form shares a stem with", w)
		}
	})
}

// BenchmarkScanLetters is what a process pays, once, for the first
// accented word the tables lack (writers).
func BenchmarkScanLetters(b *testing.B) {
	for b.Loop() {
		scanLetters()
	}
}

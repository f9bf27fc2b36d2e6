package glosses

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// repo is the repository's tables, which scripts/build.sh copies beside
// the binaries.
func repo() *Dict { return Open(filepath.Join("..", "..", "glosses")) }

func TestEnglish(t *testing.T) {
	t.Parallel()
	d := repo()
	for _, c := range []struct {
		lang, word string
		want       string // one gloss it must give; "" for none
	}{
		{"spa", "llave", "key"},
		{"spa", "guardamos", "save"},           // a form of "guardar"
		{"spa", "hojas", "sheet"},              // a form of "hoja"
		{"spa", "despliegue", "deployment"},    // Apertium's, not FreeDict's
		{"spa", "desplegamos", "deploy"},       // a form of Apertium's "desplegar"
		{"spa", "matrices", "matrix"},          // "matriz": a plural changes its last letter
		{"spa", "capaces", ""},                 // "capaz" or "capa": no one reading
		{"spa", "facturas", "bill"},            // "factura" and "facturar", one family
		{"spa", "notas", "note"},               // "nota" and "notar"
		{"spa", "registró", "register"},        // "registro" and "registrar": the verb's past, the noun's stem with a vowel
		{"spa", "diseñé", "design"},            // "diseño" and "diseñar"
		{"spa", "reconfigurar", "reconfigure"}, // "configurar" done again
		{"spa", "recargar", "reload"},
		{"spa", "lápices", "pencil"}, // "lápiz"; "lápida" drops no ending
		{"por", "variáveis", "variable"},
		{"fra", "journaux", "journal"},
		{"spa", "metadata", ""},         // no form of "metal": "data" is no plural
		{"spa", "generate", "generate"}, // "generar"; "general" would need a plural after
		{"spa", "mode", ""},             // no form of "modem"
		{"spa", "demo", ""},             // no form of "democracia", nor of "demora" ("demor-a")
		{"spa", "zzzz", ""},
		{"spa", "postgres", ""}, // begins like "postal", "poste" and "postre" alike
		{"spa", "frontend", ""}, // "fronte" and "nd": no ending of "frontera"
		{"eng", "llave", ""},    // no dictionary
		{"por", "chave", "key"},
		// Russian is read by its Snowball stem, in any case and tense,
		// as the word of that stem most like it.
		{"rus", "папку", "folder"},    // accusative of "папка"
		{"rus", "ветке", "branch"},    // locative of "ветка"
		{"rus", "блокирует", "block"}, // present of "блокировать"
		{"rus", "сравнении", "comparison"},
		{"rus", "шагов", "step"},        // genitive plural of "шаг"
		{"rus", "используем", "use"},    // "использовать", first person plural
		{"rus", "отчёт", "report"},      // written with ё, keyed with е
		{"rus", "тест", "test"},         // not "тесто" (dough), of the same stem
		{"rus", "полем", "field"},       // "поле"; "пола" (lap) and "полено" share the stem
		{"rus", "удалить", "remove"},    // the perfective of "удалять"
		{"rus", "удали", "remove"},      // its imperative, which Snowball stems apart
		{"rus", "удалите", "remove"},    // not "удалиться", which shares as many letters
		{"rus", "добавь", "supplement"}, // "добавлять", perfective "добавить" (no л)
		{"rus", "тесты", "test"},        // the shorter of "тест" and "тесто"
		{"rus", "моей", ""},             // a form of the function word "моё"
		{"rus", "тем", ""},              // a function word ("than"), not "тема"
		{"rus", "и", ""},                // one letter
		{"rus", "postgres", ""},         // no Russian word
		{"rus", "зззз", ""},
		// Japanese is looked up whole: a word is a headword or none.
		{"jpn", "ハイライト", "highlight"},
		{"jpn", "音節", "syllable"},
		{"jpn", "直す", "fix"},  // "to fix", read as "fix"
		{"jpn", "ハイライトで", ""}, // no form of "ハイライト"
	} {
		got := d.English(c.lang, c.word)
		if c.want == "" && len(got) > 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("English(%q, %q) = %q, want it to hold %q", c.lang, c.word, got, c.want)
		}
	}
}

// TestKnows: a word of the language is a headword, a form of one, or a
// form of several, read with no more than an ending after them.
func TestKnows(t *testing.T) {
	t.Parallel()
	d := repo()
	for _, c := range []struct {
		lang, word string
		want       bool
	}{
		{"spa", "llave", true},     // a headword
		{"spa", "guardamos", true}, // a form of "guardar"
		{"spa", "guardo", true},    // a form of "guardar" and of "guardia": no gloss, yet Spanish
		{"spa", "postgres", false}, // begins like "postal", "poste" and "postre", then "gres"
		{"spa", "frontend", false}, // no ending of "frontera"
		{"spa", "zzzz", false},
		{"eng", "llave", false}, // no dictionary
		{"rus", "папками", true},
		{"rus", "memoize", false},
	} {
		if got := d.Knows(c.lang, c.word); got != c.want {
			t.Errorf("Knows(%q, %q) = %v, want %v", c.lang, c.word, got, c.want)
		}
	}
	if !d.Has("spa") || d.Has("eng") || (*Dict)(nil).Has("spa") || (*Dict)(nil).Knows("spa", "llave") {
		t.Errorf("Has: spa %v, eng %v, nil dictionary spa %v, nil dictionary knows llave %v; want true, false, false, false",
			d.Has("spa"), d.Has("eng"), (*Dict)(nil).Has("spa"), (*Dict)(nil).Knows("spa", "llave"))
	}
}

// TestTablesSorted: the lookup searches each table in place, so its lines
// must be sorted by byte, one headword each.
func TestTablesSorted(t *testing.T) {
	t.Parallel()
	d := repo()
	for lang := range files {
		rows := d.table(lang)
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
// not a regular file (a FIFO would block), translates nothing and says why
// through Err; each Dict reads its own directory.
func TestWithoutTables(t *testing.T) {
	t.Parallel()
	none := Open(t.TempDir())
	if got := none.English("spa", "llave"); got != nil {
		t.Errorf("no tables: English = %q, want nil", got)
	}
	if none.Err() == nil {
		t.Error("no tables: Err = nil, want the table that could not be read")
	}
	var nilDict *Dict
	if got := nilDict.English("spa", "llave"); got != nil || nilDict.Err() != nil {
		t.Errorf("nil Dict: English = %q, Err = %v, want nothing", got, nilDict.Err())
	}
	d := t.TempDir()
	if err := os.Mkdir(filepath.Join(d, "spa.txt"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "ita.txt"), []byte("# header\nchiave key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	own := Open(d)
	if got := own.English("ita", "chiave"); !slices.Contains(got, "key") {
		t.Errorf("a table of its own: English = %q, want key", got)
	}
	if own.Err() != nil {
		t.Errorf("a table read: Err = %v, want nil", own.Err())
	}
	if got := own.English("spa", "llave"); got != nil {
		t.Errorf("a table that is no file: English = %q, want nil", got)
	}
	if own.Err() == nil {
		t.Error("a table that is no file: Err = nil")
	}
}

// TestReadsOnlyWhenAsked: a Dict reads no table, and looks for no
// directory, until a word of a language is asked; then only that
// language's table.
func TestReadsOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	asked := 0
	d := &Dict{dir: func() (string, error) { asked++; return filepath.Join("..", "..", "glosses"), nil }}
	if asked != 0 || len(d.tables) != 0 {
		t.Fatalf("a new Dict looked for its directory %d times, read %d tables", asked, len(d.tables))
	}
	d.English("eng", "key")
	if asked != 0 {
		t.Errorf("a language without a table looked for the directory")
	}
	d.English("spa", "llave")
	d.English("spa", "nube")
	if asked != 1 || len(d.tables) != 1 || d.tables["spa.txt"] == "" {
		t.Errorf("two Spanish words: directory asked %d times, tables %d, want 1 and spa.txt", asked, len(d.tables))
	}
}

// TestMissing: the tables doctor reports absent.
func TestMissing(t *testing.T) {
	t.Parallel()
	if m := repo().Missing(); len(m) != 0 {
		t.Errorf("the repository's tables: missing %q", m)
	}
	if m := Open(t.TempDir()).Missing(); !slices.Equal(m, []string{"fra.txt", "ita.txt", "jpn.txt", "kor.txt", "por.txt", "rus.txt", "spa.txt", "zho.txt"}) {
		t.Errorf("an empty directory: missing %q", m)
	}
}

// TestWords: a Japanese run is cut into the table's longest headwords from
// its start; the grammar between them (hiragana) is dropped, and so is a
// kanji the table lacks, while katakana it lacks stay as one word, a
// loanword or a name.
func TestWords(t *testing.T) {
	t.Parallel()
	d := repo()
	for run, want := range map[string][]string{
		"単語をタップしたときの音節ハイライトで": {"単語", "タップ", "音節", "ハイライト"},
		"ノートの本文がなくなるバグ":       {"ノート", "本文", "バグ"},
		"ゾルバテックスの設定":          {"ゾルバテックス", "設定"}, // a made-up name, then "settings"
		"ｻｰﾊﾞｰの設定":            {"サーバー", "設定"},    // half-width katakana, as the table writes it
		"ーー":                  nil,
		"の":                   nil,
		"":                    nil,
	} {
		if got := d.Words("jpn", run); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, want %q", run, got, want)
		}
	}
	if got := d.Words("spa", "contraseña"); got != nil {
		t.Errorf("Words of a spaced language = %q", got)
	}
}

// FuzzWords: any text cuts into words each found in it, in order, or none.
func FuzzWords(f *testing.F) {
	for _, w := range []string{"単語をタップしたときの音節ハイライトで", "ゾルバテックスの設定", "\xe3\x83", "abcタップ", ""} {
		f.Add(w)
	}
	d := repo()
	f.Fuzz(func(t *testing.T, run string) {
		rest := []rune(norm.NFKC.String(run))
		for _, w := range d.Words("jpn", run) {
			i := strings.Index(string(rest), w)
			if w == "" || i < 0 {
				t.Fatalf("Words(%q) gave %q, not in what is left of it", run, w)
			}
			rest = []rune(string(rest)[i+len(w):])
		}
	})
}

// FuzzEnglish: any word, of any bytes, in any language, gives English
// words of letters or nothing, and never panics.
func FuzzEnglish(f *testing.F) {
	for _, w := range []string{"llave", "guardamos", "postgres", "contraseña", "\xff\xfe", "hoj", ""} {
		f.Add("spa", w)
	}
	f.Add("fra", "chiave")
	f.Add("rus", "блокирует")
	f.Add("rus", "ёлка\xd0")
	d := repo()
	f.Fuzz(func(t *testing.T, lang, word string) {
		_ = d.Headword(lang, word)
		got := d.English(lang, word)
		for _, g := range got {
			if g == "" || strings.Trim(g, "abcdefghijklmnopqrstuvwxyz") != "" {
				t.Fatalf("English(%q, %q) gave %q", lang, word, g)
			}
		}
	})
}

// A nil Dict, which translates nothing, has every table missing.
func TestNilDictMissesEverything(t *testing.T) {
	if got, want := (*Dict)(nil).Missing(), []string{"fra.txt", "ita.txt", "jpn.txt", "kor.txt", "por.txt", "rus.txt", "spa.txt", "zho.txt"}; !slices.Equal(got, want) {
		t.Errorf("Missing() = %v, want %v", got, want)
	}
}

// TestChineseWords: a Chinese run is cut into CC-CEDICT's headwords as a
// Japanese one is into JMdict's, each with its English translations; a
// character no headword of two covers is dropped.
func TestChineseWords(t *testing.T) {
	t.Parallel()
	d := repo()
	if got, want := d.Words("zho", "上次部署的时候迁移脚本"), []string{"上次", "部署", "时候", "迁移", "脚本"}; !slices.Equal(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
	// Cut from the start, "把手纸" would be "把手" (a handle); from the
	// end it is "手纸" (toilet paper), in fewer pieces. "上次" (last
	// time) is a word with no translation of one word.
	if got, want := d.Words("zho", "我们上次把手纸放在哪个目录"), []string{"我们", "上次", "手纸", "哪个", "目录"}; !slices.Equal(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
	// A tie in pieces goes to the cut covering more: "高性能" from the
	// end leaves "提" alone.
	if got, want := d.Words("zho", "怎么提高性能"), []string{"怎么", "提高", "性能"}; !slices.Equal(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
	if got := d.English("zho", "部署"); !slices.Contains(got, "deploy") || len(got) > 4 {
		t.Errorf("English(部署) = %q, want deploy among at most four", got)
	}
}

// BenchmarkWords: cutting a Japanese prompt into words, the table read
// once first (the hook reads it once per Japanese prompt: see
// BenchmarkWordsFirst).
func BenchmarkWords(b *testing.B) {
	d := repo()
	const prompt = "単語をタップしたときの音節ハイライトで、タイミング情報がない場合は何ミリ秒で進める実装になってたっけ"
	d.Words("jpn", prompt)
	for b.Loop() {
		d.Words("jpn", prompt)
	}
}

// BenchmarkWordsFirst: a prompt hook's first Japanese prompt, the table
// read from the repository's glosses/ (2.2 MB) and searched.
func BenchmarkWordsFirst(b *testing.B) {
	const prompt = "単語をタップしたときの音節ハイライトで、タイミング情報がない場合は何ミリ秒で進める実装になってたっけ"
	for b.Loop() {
		repo().Words("jpn", prompt)
	}
}

// BenchmarkChineseWordsFirst: a prompt hook's first Chinese prompt, the
// table read from the repository's glosses/ (2.2 MB) and the run cut from
// both ends.
func BenchmarkChineseWordsFirst(b *testing.B) {
	const prompt = "我们之前怎么规划把认证换掉的新的存储服务类叫什么部署的时候迁移脚本放在哪个目录"
	for b.Loop() {
		repo().Words("zho", prompt)
	}
}

// BenchmarkChineseWords: the same, the table read once first.
func BenchmarkChineseWords(b *testing.B) {
	d := repo()
	const prompt = "我们之前怎么规划把认证换掉的新的存储服务类叫什么部署的时候迁移脚本放在哪个目录"
	d.Words("zho", prompt)
	for b.Loop() {
		d.Words("zho", prompt)
	}
}

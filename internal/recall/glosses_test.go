package recall

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// repoGlosses is the repository's dictionaries, which scripts/build.sh
// copies beside the binaries.
func repoGlosses() *glosses.Dict { return glosses.Open(filepath.Join("..", "..", "glosses")) }

// vaultKeyStore is a store whose one session, in English, says where the
// cloud account's key is kept.
func vaultKeyStore(t *testing.T) *store.DB {
	t.Helper()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "release", day.AddDate(0, 0, -4),
		"Where do we keep the key of the cloud account?",
		"The cloud key is kept in the vault under ops/quasar-7; rotate it every month.")
	return db
}

// TestSpanishPromptFindsEnglishAnswer: a question asked in Spanish about a
// session held in English shares its concepts, not its words: "llave" is
// "key", "nube" is "cloud", and neither looks like its translation.
func TestSpanishPromptFindsEnglishAnswer(t *testing.T) {
	t.Parallel()
	db := vaultKeyStore(t)
	got := recallFor(t, db, defaults(), "¿Dónde guardamos la llave de la nube?")
	if !strings.Contains(got, "ops/quasar-7") {
		t.Errorf("the answer is missing:\n%s", got)
	}
}

// TestGlossesOnlyForAnotherLanguage: an English prompt's words are never
// translated, even one that is also a Spanish word ("Llave" the plugin).
func TestGlossesOnlyForAnotherLanguage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		prompt string
		want   bool
	}{
		{"¿Dónde está la llave del servidor?", true},
		{"Is the Llave plugin in the gallery?", false},
	} {
		got := false
		for _, cn := range concepts(c.prompt, repoGlosses()) {
			if slices.Contains(cn.forms, "llave") && slices.Contains(cn.forms, "key") {
				got = true
			}
		}
		if got != c.want {
			t.Errorf("%q: llave searched as key %v, want %v", c.prompt, got, c.want)
		}
	}
}

// TestEnglishWordsOfASpanishPromptStayEnglish: an English word of a Spanish
// prompt that begins like several Spanish headwords ("postgres": "postal",
// "poste", "postre") is no form of any of them, and brings no message about
// what they mean.
func TestEnglishWordsOfASpanishPromptStayEnglish(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "blog", day.AddDate(0, 0, -4),
		"How many posts does the blog show per page?",
		"The blog shows 20 posts per page; the limit is in the pager.")
	if got := recallFor(t, db, defaults(), "¿En qué versión de postgres está el frontend?"); strings.Contains(got, "posts per page") {
		t.Errorf("a message about posts was recalled for postgres:\n%s", got)
	}
}

// TestGlossesFromRequest: the dictionaries are the request's, so a caller
// without them (nil, or a directory without the tables) searches a Spanish
// or Russian prompt by its own words only. With them, the Russian one is
// searched by the English words its words translate, whatever their case or
// number ("ключи", the plural, is "key").
func TestGlossesFromRequest(t *testing.T) {
	t.Parallel()
	db := vaultKeyStore(t)
	for _, prompt := range []string{"¿Dónde guardamos la llave de la nube?", "Где мы храним ключи от облачного аккаунта?"} {
		for _, c := range []struct {
			dict *glosses.Dict
			want bool
		}{{nil, false}, {glosses.Open(t.TempDir()), false}, {repoGlosses(), true}} {
			got, err := Compose(context.Background(), db, defaults(), Request{Project: proj, SessionID: "now", Prompt: prompt, Now: day.AddDate(0, 1, 0), Glosses: c.dict})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(got.Text, "ops/quasar-7") != c.want {
				t.Errorf("%q, dictionary %v: answer recalled %v, want %v:\n%s", prompt, c.dict != nil, !c.want, c.want, got.Text)
			}
		}
	}
}

// TestSpanishWordsNoDictionaryBridgesWeighLittle: a question asked in
// Spanish about a session held in English, whose verbs are inflections no
// dictionary entry bridges, is still answered by the message sharing the
// words that do bridge: the untranslated words are missing from the store
// because of the language, not because the prompt is about something else.
func TestSpanishWordsNoDictionaryBridgesWeighLittle(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "billing", day.AddDate(0, 0, -4),
		"Open a branch for the invoice overhaul.",
		"Done: the invoice overhaul lives on branch topaz-ledger-v2.")
	got := recallFor(t, db, defaults(), "¿dónde dejábamos apartada la rama mientras rehacíamos las facturas?")
	if !strings.Contains(got, "topaz-ledger-v2") {
		t.Errorf("the answer is missing:\n%s", got)
	}
}

// TestRussianLoanwordsFindEnglishWords: a question asked in Russian about a
// session held in English shares its loanwords, written in Cyrillic
// ("адаптер", "сервер"): written in Latin letters, their start is the
// English word's.
func TestRussianLoanwordsFindEnglishWords(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "printing", day.AddDate(0, 0, -4),
		"Which adapter does the label printer use?",
		"The label printer talks through the zebra-usb adapter on the shop server.")
	got := recallFor(t, db, defaults(), "Какой адаптер стоит у сервера печати?")
	if !strings.Contains(got, "zebra-usb") {
		t.Errorf("the answer is missing:\n%s", got)
	}
}

// TestRussianLoanwordsSpelledAsInEnglish: a loanword Russian writes with
// "к" or "кс" finds the English word spelled with "c" or "x" ("клиенте"
// client, "контекст" context). The texts are made up.
func TestRussianLoanwordsSpelledAsInEnglish(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "glaze", day.AddDate(0, 0, -4),
		"What does the kiln client keep in its context?",
		"The kiln client keeps the glaze schedule in its context object, kiln_ctx.")
	got := recallFor(t, db, defaults(), "Что хранит клиент печи в своём контексте?")
	if !strings.Contains(got, "kiln_ctx") {
		t.Errorf("the answer is missing:\n%s", got)
	}
	for in, want := range map[string]string{"klien*": "clien*", "kontekst*": "context*", "eksport*": "export*", "arkhi*": "archi*", "server*": "server*"} {
		if got := englishSpelling(in); got != want {
			t.Errorf("englishSpelling(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLatinize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"сервер", "server"},
		{"адаптер", "adapter"},
		{"щётка", "shchetka"},
		{"объект", "obekt"},
		{"сервер1", "сервер1"}, // a digit is in no table: left as it is
	} {
		if got := latinize(c.in); got != c.want {
			t.Errorf("latinize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRussianWordNoPrefixOfAnother: a Russian word's prefix is its whole
// stem, so a word borrowed from elsewhere ("ресторан") does not find the
// English words its start happens to spell ("restore"), while an inflected
// loanword ("миграции", "адаптера") still finds its English word.
func TestRussianWordNoPrefixOfAnother(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "photos", day.AddDate(0, 0, -3),
		"Can the photo catalogue be restored from last week's snapshot?",
		"Yes: tools/restore-catalog restores the catalogue and its thumbnails from any snapshot in cold storage.")
	say(t, db, "schema", day.AddDate(0, 0, -2),
		"Which migration adds the kiln_temps table?",
		"Migration 0042_kiln_temps adds the kiln_temps table and backfills it from the furnace logs.")
	say(t, db, "queue", day.AddDate(0, 0, -1),
		"What is the retry policy of the upload queue?",
		"The retry policy is three attempts with jitter; the policy lives in config/retry-ember.toml.")
	say(t, db, "relay", day.AddDate(0, 0, -1),
		"Which port does the relay listen on?",
		"The relay listens on port 7311; ports 7312 and 7313 are its health checks.")
	// Four letters cut from a longer stem ("полиция", poli*) start many
	// English words; a four-letter stem ("портов", port*) is a word.
	for _, p := range []string{"Какой ресторан у вокзала открыт ночью?", "Посоветуй ресторан с верандой", "Какой номер у полиции?", "Кто звонил в полицию вчера?"} {
		if got := recallFor(t, db, defaults(), p); got != "" {
			t.Errorf("unrelated prompt %q injected:\n%s", p, got)
		}
	}
	if got := recallFor(t, db, defaults(), "Какая миграция добавила таблицу kiln_temps?"); !strings.Contains(got, "0042_kiln_temps") {
		t.Errorf("the migration is missing:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "Какой из портов слушает реле?"); !strings.Contains(got, "7311") {
		t.Errorf("the relay's port is missing:\n%s", got)
	}
}

// TestJapaneseQuestionOnAnEnglishProject: a question in Japanese about a
// project whose sessions were in English shares only its product names and
// paths with the store. Its runs of kanji and kana weigh as another
// language's unseen words, so the names it shares carry it; weighed as
// unseen names, they outweighed them.
func TestJapaneseQuestionOnAnEnglishProject(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	chores(t, db)
	say(t, db, "slow", day,
		"The /glaze page takes three seconds after login, why?",
		"The cause was the Kilnhost functions region: they ran in iad1 while the database is in Singapore, so every query crossed the Pacific. Pinned the functions to sin1.")
	got := recallFor(t, db, defaults(), "ログイン後に /glaze の表示が遅かった原因は何だった？Kilnhost の関数リージョンはどこ？")
	if !strings.Contains(got, "sin1") {
		t.Errorf("the Japanese question was not answered with the English session:\n%s", got)
	}
	for _, c := range concepts("Kilnhost の関数リージョンはどこ？", nil) {
		if japanese := c.forms[0] != "kilnhost"; c.foreign != japanese {
			t.Errorf("%v: foreign %v", c.forms, c.foreign)
		}
	}
}

// TestJapaneseWordsFindTheirEnglish: a Japanese question that names
// nothing in Latin letters is cut into its words (glosses.Dict.Words), each
// searched by its English glosses: "釉薬" is "glaze", "焼成" is "firing",
// "ポート" is "port". Without the dictionary the question is phrases the
// English store never wrote, and gets nothing.
func TestJapaneseWordsFindTheirEnglish(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	chores(t, db)
	say(t, db, "kiln", day,
		"Which port does the glaze firing monitor listen on?",
		"The glaze firing monitor listens on port 7311; the bisque monitor keeps 7310.")
	prompt := "釉薬の焼成モニターは何番のポートで待ち受けてたっけ？"
	if got := recallFor(t, db, defaults(), prompt); !strings.Contains(got, "7311") {
		t.Errorf("the Japanese question was not answered with the English session:\n%s", got)
	}
	got, err := Compose(context.Background(), db, defaults(), Request{Project: proj, SessionID: "now", Prompt: prompt, Now: day.AddDate(0, 1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.Text, "7311") {
		t.Errorf("answered without the dictionary:\n%s", got.Text)
	}
}

// TestJapaneseWordsOnlyOfJapanese: a prompt in Chinese, all Han
// characters, is not cut with the Japanese dictionary ("把手", a handle,
// is no word of "我们上次把手纸放在哪个目录"); a long Japanese prompt gives
// at most maxTerms concepts, as any prompt does.
func TestJapaneseWordsOnlyOfJapanese(t *testing.T) {
	t.Parallel()
	for _, c := range concepts("我们上次把手纸放在哪个目录", repoGlosses()) {
		if slices.Contains(c.forms, "把手") {
			t.Errorf("a Chinese prompt cut into Japanese words: %q", c.forms)
		}
	}
	long := strings.Join([]string{"サーバー", "ポート", "設定", "番号", "単語", "音節", "ハイライト", "タイミング", "パート", "ミリ秒",
		"実装", "ノート", "本文", "バグ", "フィールド", "順番", "情報", "場合", "データベース", "キャッシュ", "ログイン", "パスワード",
		"リセット", "メール", "送信", "釉薬", "焼成", "環境", "変数", "リポジトリ"}, "の")
	if n := len(concepts(long, repoGlosses())); n > maxTerms {
		t.Errorf("%d concepts of a long Japanese prompt, want at most %d", n, maxTerms)
	}
}

// TestGenericTranslationIsNoSpecificMatch: another language's word matched
// only by a generic translation ("тесты", tests; "correr", run) makes a
// match as specific as the English word would, nothing; one matched by a
// translation naming a thing ("causa", cause, as well as reason) counts.
func TestGenericTranslationIsNoSpecificMatch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		prompt, text string
		specific     bool
	}{
		{"Прогони тесты ещё раз.", "Run the tests before the migration.", false},
		{"Vuelve a correr los tests, por favor.", "npm run test passed.", false},
		{"¿Cuál era la causa real?", "The cause was the stale cache.", true},
	} {
		cs := concepts(c.prompt, repoGlosses())
		for i := range cs {
			cs[i].weight, cs[i].specific = 1, 1
			if isGeneric(cs[i].forms[0]) {
				cs[i].specific = 0 // as weigh leaves it
			}
		}
		if _, spec := coverage(cs, keysOf(c.text)); (spec > 0) != c.specific {
			t.Errorf("%q against %q: specific %v, want a specific match %v", c.prompt, c.text, spec, c.specific)
		}
	}
}

// TestKoreanVersionQuestionOnAnEnglishProject: a Korean question asks the
// named package's version the Korean way, the question word after the noun
// and a particle on it ("버전이 몇이었지?", the version was what number?),
// whose version before it past a noun saying what it is ("zorblat 패키지"),
// and the run that uploaded it answers: the archive's file name states the
// version. Read as a count ("몇") it asked no version, and the name, said
// in every session, carried nothing.
func TestKoreanVersionQuestionOnAnEnglishProject(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	chores(t, db)
	// The project's name is in most of its messages: it weighs little.
	for i := range 12 {
		say(t, db, fmt.Sprintf("stretch-%d", i), day.AddDate(0, 0, -12+i),
			fmt.Sprintf("Add stretch mode %d to zorblat's FITS reader.", i),
			"Done: zorblat reads the FITS header and applies the stretch; the tests pass.")
	}
	say(t, db, "publish", day,
		"Publish the package to PyPI, the token is in the environment.",
		"Build succeeded. Before publishing, the name needs to be free on PyPI; it is, so I published it.")
	ran(t, db, "publish", "Bash: uv publish 2>&1\nPublishing 2 files to https://upload.pypi.org/legacy/\nUploading zorblat-0.4.2-py3-none-any.whl (6.0KiB)\nUploading zorblat-0.4.2.tar.gz (4.2KiB)")
	got := recallFor(t, db, defaults(), "PyPI에 올린 zorblat 패키지 버전이 몇이었지?")
	if !strings.Contains(got, "0.4.2") {
		t.Errorf("the Korean question was not answered with the upload:\n%s", got)
	}
}

// TestJapaneseWhereAsksAPathOfTheProject: Japanese's where ("どこ") asks
// for a path in a question about what the project did or holds now
// ("どこに移したんだっけ？", where did we move it?), as English's does; a
// travel question's where asks none.
func TestJapaneseWhereAsksAPathOfTheProject(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"ビルドを入れたとき、サムネイルのフォルダってどこに移したんだっけ？", true},
		{"設定ファイルは今のどこにある？", true},
		{"紅葉を見るならどこがおすすめ？", false},
		{"どこかで設定したはずだけど", false},     // somewhere
		{"移行はどこまで進んだっけ？", false},     // how far
		{"前回のログはどこに？", true},         // the particle ending the question
		{"ありがとうございました。駅はどこ？", false}, // thanks: nothing in the past
	} {
		got := slices.ContainsFunc(asks(concepts(tt.prompt, nil), tt.prompt), func(a ask) bool { return a.role == "path" })
		if got != tt.want {
			t.Errorf("asks(%q) asks a path: %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

// TestChineseWordsFindTheirEnglish: a Chinese question that names nothing
// in Latin letters is cut into CC-CEDICT's words (glosses.Dict.Words), each
// searched by its English translations: "烧制" is "fire", "温度"
// "temperature", "阈值" "threshold"; its function words ("的") say nothing.
// Without the dictionary the question is one phrase the English store
// never wrote, and gets nothing.
func TestChineseWordsFindTheirEnglish(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	chores(t, db)
	say(t, db, "kiln", day,
		"What temperature threshold does the glaze firing alarm use?",
		"The glaze firing alarm trips at a temperature threshold of 1240 C; the bisque alarm keeps 980 C.")
	prompt := "烧制的温度阈值是多少来着？"
	if got := recallFor(t, db, defaults(), prompt); !strings.Contains(got, "1240") {
		t.Errorf("the Chinese question was not answered with the English session:\n%s", got)
	}
	got, err := Compose(context.Background(), db, defaults(), Request{Project: proj, SessionID: "now", Prompt: prompt, Now: day.AddDate(0, 1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.Text, "1240") {
		t.Errorf("answered without the dictionary:\n%s", got.Text)
	}
}

// TestForeignSenseOpensLess: a Japanese question about cooking names
// "揚げる" (to deep-fry), which the dictionary translates by "raise",
// "elevate", "fly" and "launch". A project deployed on Fly, whose machines
// launch on demand, holds two of those senses; matched by them alone, an
// item opens the gate with half its specificity (senseShare), too little
// for a question the project never spoke of. The same store still answers
// a Japanese question naming Fly by its own word. A question saying "we"
// or asking the project's past counts a sense whole
// (TestSpanishWordsNoDictionaryBridgesWeighLittle: "rama", one of whose
// three senses is "branch", asked with "dejábamos").
func TestForeignSenseOpensLess(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	chores(t, db)
	say(t, db, "deploy", day,
		"Deploy the API to Fly from the api folder.",
		"Done: fly deploy shipped it, and fly.toml sets the primary region to ams. Machines launch on demand and stop when idle.")
	if got := recallFor(t, db, defaults(), "天ぷらを揚げるなら油は何度がいい？"); got != "" {
		t.Errorf("a cooking question got the Fly deployment by the senses of 揚げる:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "Fly のプライマリリージョンはどこにした？"); !strings.Contains(got, "ams") {
		t.Errorf("a question naming Fly was not answered:\n%s", got)
	}
	// Four senses: half the specificity by one, all of it by the word; by
	// the user's own English word merged with it ("Fly で揚げる"), all of it.
	for _, c := range []struct {
		prompt, text string
		share        float64
	}{
		{"天ぷらを揚げる", "launch it", 0.5},
		{"天ぷらを揚げる", "揚げる", 1},
		{"Fly で揚げる", "fly deploy", 1},
	} {
		cs := concepts(c.prompt, repoGlosses())
		k := slices.IndexFunc(cs, func(c concept) bool { return slices.Contains(c.forms, "揚げる") })
		if k < 0 {
			t.Fatalf("%q: no concept of 揚げる", c.prompt)
		}
		if got := cs[k].senseShare([]textKeys{keysOf(c.text)}); got != c.share {
			t.Errorf("%q: senseShare(%q) = %v, want %v", c.prompt, c.text, got, c.share)
		}
	}
}

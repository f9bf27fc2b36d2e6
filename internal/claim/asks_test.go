package claim

import (
	"slices"
	"strings"
	"testing"
)

func TestAsks(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want string // a role Asks must return; "" for none at all
	}{
		{"Which test framework do the unit tests use these days?", "test runner"},
		{"what do we bundle the web app with now?", "bundler"},
		{"Where do the uploaded avatars end up?", "object storage"},
		// Where records are kept is asked of the database ("stored",
		// "persisted" are what one does), as well as of a path.
		{"Where are the customer invoices stored?", "database"},
		{"Where is session state persisted between restarts?", "database"},
		{"Which AWS region are the queues in?", "region"},
		{"What Node version do the lambdas run?", "version:node"},
		// A name no product table lists, next to "version".
		{"Which zorblat version does my laptop have?", "version:zorblat"},
		// German asks with its own words, and writes the version onto
		// its product's name.
		{"Mit welcher Zorblat-Version lässt sich die Firmware bauen?", "version:zorblat"},
		{"Welche Node-Version nutzen die Lambdas?", "version:node"},
		{"Wo landen die hochgeladenen Avatare?", "path"},
		// A German relative "was" or "wo" asks nothing; nor does an
		// English setting's "api-version".
		{"Das Deployment war kaputt, was wir mit dem Cache gefixt haben.", ""},
		{"Der Linter meldet Fehler, wo keine sind.", ""},
		{"What's the version of quillpress the site runs?", "version:quillpress"},
		{"Which HTTP client do the mobile screens use?", "http client"},
		// Any inflection of a table's phrase, and any role's own name.
		{"Which build tools does the admin panel use?", "bundler"},
		{"What are we using for bundling?", "bundler"},
		{"How are we throttling requests?", "request rate"},
		{"What do we use for state management in the editor?", "state management"},
		{"지금 어떤 데이터베이스를 쓰고 있죠?", "database"},
		{"Where do new schema migrations go?", "path"},
		{"How do admins authenticate?", "identity provider"},
		{"How do customers sign in?", "identity provider"},
		{"what's the docker image called for the billing worker?", "image"},
		{"업로드된 파일은 어디에 저장되나요?", "path"},
		{"How often does the importer fetch new freight rates?", "interval"},
		{"How do we keep the crawler from hammering the vendor's API?", "request rate"},
		{"Which IP address should the worker use for Redis?", "address"},
		// A URL names a host.
		{"What URL does the docs mirror answer on?", "host"},
		{"What's the hostname the kiln client talks to?", "host"},
		{"What's the hostname the kiln client talks to?", "address"},
		{"Где физически лежит конфиг склада?", "path"},
		{"문서 사이트는 어디에 배포되나요?", "hosting"},
		// A release of a product a table knows is its version; a dotted
		// name is one name, asked as its package is published ("vue").
		{"Which Svelte release does the dashboard ship?", "version:svelte"},
		{"Which Vue.js version is the admin panel on?", "version:vue"},
		{"When is the production release?", ""},
		{"What is the latest release of Svelte?", "version:svelte"},
		// A name no table knows, written as a name (a kind of release
		// is none: TestReleaseOfNoProduct).
		{"Which Zorblat release did we pin to get it building?", "version:zorblat"},
		{"Which ESPHome release did we pin?", "version:esphome"},
		{"ESPHome release, which did we pin?", "version:esphome"}, // a capital inside, where a sentence begins
		{"Ok. Which ESPHome release did we pin?", "version:esphome"},
		{"Which ESPHome release of the firmware did we flash?", "version:esphome"},
		{"Which ESPHome release of firmware did we flash?", "version:esphome"}, // "firmware" is no name
		// Other names and a capitalised "Release" make no title of the text.
		{"Which Zorblat release broke GitHub Actions?", "version:zorblat"},
		{"Which Zorblat Release?", "version:zorblat"},
		{"Which Zorblat release BROKE EVERYTHING?", "version:zorblat"}, // shouting is no title
		{"Which release of Zorblat did we pin?", "version:zorblat"},
		{"which zorblat.js release is the chart on?", "version:zorblat.js"},
		// A version asked in another language: the product's name is the
		// same in any ("versión", "versão", "версию").
		{"¿Qué versión de Next.js usa el frontend?", "version:next.js"},
		{"¿Cuál versión de zorblat tenemos?", "version:zorblat"},
		{"Qual versão do Node o servidor usa?", "version:node"},
		{"Какую версию Python ставит образ воркера?", "version:python"},
		{"Какую версию zorblat мы выпустили?", "version:zorblat"}, // no word for "of"
		{"What is the latest version of zorblat?", "version:zorblat"},
		{"Qual è l'ultima versione di zorblat?", "version:zorblat"},
		{"¿Cómo actualizo Next.js a la última versión?", ""}, // how to, not which
		{"¿Qué pasa con esta versión?", ""},                  // "esta" (this) owns no version
		// Japanese writes no spaces: a word is told by its script, whose
		// version by the name before it, past the particles ("は", "の")
		// and the word asking ("どの").
		{"zorblat をビルドしてるこのマシンの Flutter SDK、バージョンいくつだったっけ？", "version:flutter"},
		{"zorblat はどのバージョンが入ったんだっけ？", "version:zorblat"},
		{"zorblatのバージョンは何？", "version:zorblat"},
		{"何かいいバージョン管理の方法ある？", ""}, // "何か" is something, no question word
		{"バージョンを上げてください。", ""},
		// "はどの" is one run of hiragana: its "which" asks a version of
		// something the question does not name.
		{"今はどのバージョンが入ってる？", AnyVersion},
		// Korean asks with the question word after the noun ("버전이
		// 몇이었지?", the version was what number?), whose version before
		// it, past a noun saying what the thing is ("패키지").
		{"PyPI에 올린 zorblat 패키지 버전이 몇이었지?", "version:zorblat"},
		{"zorblat 버전이 뭐야?", "version:zorblat"},
		{"zorblat의 버전이 뭐야?", "version:zorblat"}, // the particle written onto the name
		{"zorblat 버전을 몇몇이 썼다.", ""},             // "몇몇", some: a statement
		{"zorblat 버전이 뭐든 상관없어.", ""},            // whatever the version
		{"zorblat 버전이 뭐라고 했지?", "version:zorblat"},
		{"zorblat 버전이 무엇보다 중요하다.", ""}, // above all
		// Which one of a runtime is which of its versions; not a
		// runtime's libraries, nor a cluster's node.
		{"When uv made the venv, which Python did it end up using?", "version:python"},
		{"What Go are we on now?", "version:go"},
		{"Which Java does Gradle pick up?", "version:java"},
		{"which python?", "version:python"},
		// An environment variable is asked by its name's noun, in any number.
		{"Besides the API token, which environment variables does the loader need?", "env var"},
		{"what env vars does the worker read?", "env var"},
		{"로더에 필요한 환경 변수가 뭐야?", "env var"}, // the particle on the phrase's last word
		{"패키지 매니저는 뭘로 바꿨어?", "package manager"},
		{"How do I set an environment variable in GitHub Actions?", ""},
		// A command is asked by its noun: one that ran answers.
		{"What's the command we ended up using to start the backend with the .env loaded?", "command"},
		{"which command seeds the local database?", "command"},
		// A version of a thing described, not named: any version answers.
		{"What version of the page framework did the installer report?", AnyVersion},
		// A question that names a value is about that value.
		{"How do I make Prettier skip the vendor folder?", ""},
		{"Which Postgres extensions do we need?", ""},
		// Not a question about a choice.
		{"Write a unit test for the parser.", ""},
		{"fix the lint errors", ""},
		{"How do I write a benchmark for the parser?", ""},
	} {
		got := Asks(tt.q)
		if tt.want == "" && len(got) > 0 || tt.want != "" && !slices.Contains(got, tt.want) {
			t.Errorf("Asks(%q) = %v, want %q", tt.q, got, tt.want)
		}
	}
}

// TestSiteAsksNoGenerator: "site", "docs" and "blog" name what a project
// makes; only the generator's own name, or a static site, asks for the
// tool that builds it.
func TestSiteAsksNoGenerator(t *testing.T) {
	for _, q := range []string{"Which workspace site does the sync server talk to?", "how do I serve the site locally now?",
		"what do the docs say about retries?", "which repository does the blog pull posts from?"} {
		if got := Asks(q); slices.Contains(got, "static site generator") {
			t.Errorf("Asks(%q) = %v, want no static site generator", q, got)
		}
	}
	for _, q := range []string{"Which static site generator builds the docs?", "what do we build the static site with?",
		"which docs generator do we use?", "which blog generator builds the posts now?"} {
		if got := Asks(q); !slices.Contains(got, "static site generator") {
			t.Errorf("Asks(%q) = %v, want the static site generator", q, got)
		}
	}
}

// TestLibraryAsksNoPackageManager: "package" asks for a library, as every
// question about one says it; only the tool's own name, or installing
// dependencies, asks for the tool that installs them.
func TestLibraryAsksNoPackageManager(t *testing.T) {
	for _, q := range []string{"Which audio package does the reader use now?", "what charting packages are we on these days?",
		"오디오 패키지는 뭐 써?"} {
		if got := Asks(q); slices.Contains(got, "package manager") {
			t.Errorf("Asks(%q) = %v, want no package manager", q, got)
		}
	}
	for _, q := range []string{"Which package manager do we use now?", "what do we install dependencies with?",
		"which lockfile do we commit?", "의존성은 뭘로 관리해?"} {
		if got := Asks(q); !slices.Contains(got, "package manager") {
			t.Errorf("Asks(%q) = %v, want the package manager", q, got)
		}
	}
}

// TestKindOfCommandNotAsked: a kind of command is a setting's, which no
// shell run answers.
func TestKindOfCommandNotAsked(t *testing.T) {
	for _, q := range []string{"which folder does the deploy config publish, with which build command?", "What should the start command be?",
		"what's the build command we set in render.yaml?", "What is the start command you configured for the worker?",
		"what command line flags does ruff accept?", "What command palette shortcut opens settings?"} {
		if got := Asks(q); slices.Contains(got, "command") {
			t.Errorf("Asks(%q) = %v, want no command", q, got)
		}
	}
}

// TestRuntimeNamedAskedNoVersion: a runtime's name asks its version only
// where "which" determines it and it heads its phrase.
func TestRuntimeNamedAskedNoVersion(t *testing.T) {
	for _, q := range []string{
		"which python library do we use for retries?",
		"what python packages are installed?",
		"which node did the pod land on?",
		"Does the worker still run on Python?",
		"which tests go in the integration folder?",
		"which files go into the docker image?",
		"What Rust does differently from C++?",
		"What net did we end up with after fees?",
		"what go are we on?", // an everyday word: written as a name, or not at all
	} {
		if got := Asks(q); slices.ContainsFunc(got, func(r string) bool { return strings.HasPrefix(r, "version:") }) {
			t.Errorf("Asks(%q) = %v, want no version", q, got)
		}
	}
}

// A question for an amount asks AnyAmount, in any language recall reads,
// and no role by its other words when it is no other question: "how big
// is the cache?" asks no cache tool. A statement with a word that may ask
// an amount asks none.
// Japanese's question words are told from the longer words that hold
// them, which Japanese writes with no space between: a statement holding
// "などの", "いくつか" or "何らか" asks nothing.
func TestJapaneseQuestionWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"どのバージョン？", true},
		{"zorblatはどのバージョンが入った", true},
		{"どれを使ってる", true},
		{"設定ファイルはどこ", true},
		{"どんなエラーが出た", true},
		{"これはなに", true},
		{"バージョンいくつ", true},
		{"バージョンは何？", true},
		{"このライブラリは何という名前", true},
		{"現在のポート", true},
		{"ログイン画面などのテキストを直した。", false},
		{"それほどの差はない。", false},
		{"いくつかのファイルを更新した。", false},
		{"なにかエラーが出たら教えて。", false},
		{"なにもしていない。", false},
		{"どこかに設定がある。", false},
		{"どれも動いた。", false},
		{"どんなに速くても遅い。", false},
		{"何らかの理由で失敗した。", false},
		{"何度も試した。", false},
		{"zorblatのバージョンはどれだっけ", true},
		{"どのようなバージョンがある", true}, // what kind of
		{"どこでビルドした", true},
		{"バージョンは何だった", true},
		{"何回も上げた。", false},
		{"いくつもある。", false},
		{"どこでも同じ。", false},
		{"何年も上げていない。", false},
		{"何卒よろしく。", false},
		{"変なにおいがする。", false},
		{"zorblatのバージョンってなにだっけ", true},
		{"なに使ってる？", true},
		{"ちょうどのバージョンを入れた。", false},
		{"どれだけかかる", false},     // an amount
		{"どのようにデプロイする", false}, // how, not which
		{"どのくらいかかる", false},    // how much: an amount (asksAmount)
	} {
		if got := japaneseQuestionRE.MatchString(tc.text); got != tc.want {
			t.Errorf("japaneseQuestionRE.MatchString(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	// The run of kana a version's owner is read past asks which by the
	// same kana the expression reads.
	for w, want := range map[string]bool{"はどの": true, "どんな": true, "どの": true, "などの": false, "ほどの": false, "ちょうどの": false, "どれ": false} {
		if got := japaneseWhich(w); got != want {
			t.Errorf("japaneseWhich(%q) = %v, want %v", w, got, want)
		}
	}
	for _, text := range []string{"ログイン画面などのテキストを直した。", "いくつかのファイルを更新した。", "何らかの理由でビルドが失敗した。"} {
		if got := Asks(text); got != nil {
			t.Errorf("Asks(%q) = %q, want nothing: a statement", text, got)
		}
	}
}

func TestAsksAmount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"How big is the cache after the cleanup?", []string{AnyAmount}},
		{"Roughly how long is the handbook now?", []string{AnyAmount}},
		{"how many glazes does the kiln handbook list?", []string{AnyAmount}},
		{"Сколько глазурей в справочнике?", []string{AnyAmount}},
		{"유약이 몇 개야?", []string{AnyAmount}},
		{"¿Cuántos esmaltes tiene el manual?", []string{AnyAmount}},
		// The "how" after a date's asks a count.
		{"how long ago did we fire the kiln, and how many glazes does the handbook list?", []string{AnyAmount}},
		// English asks with no question mark.
		{"how long is that file", []string{AnyAmount}},
		{"크기가 얼마야?", []string{AnyAmount}},
		{"용량 얼마?", []string{AnyAmount}},
		{"파일이 몇 줄이야?", []string{AnyAmount}},
		{"빌드가 몇 분 걸려?", []string{AnyAmount}},
		{"유약이 몇 개야？", []string{AnyAmount}},
		{"크기가 얼마나 돼？", []string{AnyAmount}},
		{"버전이 몇이야?", nil}, // the copula after "몇": which number, not how many
		{"포트가 몇이었지?", nil},
		{"ビルドにどのくらいかかる？", []string{AnyAmount}},
		{"バンドルはどれだけ大きい？", []string{AnyAmount}},
		{"Wie viele Glasuren hat das Handbuch?", []string{AnyAmount}},
		{"Wie groß ist der Cache?", []string{AnyAmount}},
		{"Wie lange dauert der Brand?", []string{AnyAmount}},
		// A count asked in the past tense.
		{"가마를 몇 번 돌렸어?", []string{AnyAmount}},
		{"파일 몇 개 고쳤어?", []string{AnyAmount}},
		{"빌드가 몇 시간 걸렸어?", []string{AnyAmount}},
		{"유약이 몇 개였어?", []string{AnyAmount}},
		{"Wie lange dauert es, das Backup wieder her zu stellen?", []string{AnyAmount}},
		// nil: no AnyAmount, whatever else they ask.
		{"How do I add a glaze to the handbook?", nil},
		{"The handbook lists many glazes.", nil},
		{"How long ago did we add the glaze table?", nil},
		{"얼마 전에 유약 표를 바꿨어", nil},
		{"몇 가지 고쳐줘", nil},
		{"몇몇 유약이 빠졌어?", nil},
		{"Lo teniamo in quanto il forno è lento.", nil},
		{"How many days ago did we add the glaze table?", nil},
		{"keep retrying no matter how long it takes", nil},
		{"it doesn't matter how big the cache gets", nil},
		{"However long it takes, keep the kiln on", nil},
		{"얼마 전에 유약 표를 바꿨어?", nil},
		{"몇 가지 고쳐줄래?", nil},
		{"Wie geht es dem Ofen?", nil},
		{"Wie viele Glasuren hat das Handbuch.", nil},
		// A date, a time, a version, an order, freely: no amount.
		{"얼마든지 바꿔도 돼?", nil},
		{"얼마간 기다려?", nil},
		{"가마 몇 시에 켜?", nil},
		{"노드 몇 버전이야?", nil},
		{"몇 번째 유약이야?", nil},
		{"Wie lange ist das her?", nil},
		{"Wie viel Uhr ist es?", nil},
		{"서버가 몇 번 포트를 써?", nil},
		{"그거 몇 번 PR이었어?", nil},
		{"몇 월에 배포했어?", nil},
		{"몇 년도에 시작했어?", nil},
		{"몇 가지 질문이 있어: 배포는 어디서 해?", nil},
	} {
		got := Asks(tc.q)
		if tc.want == nil && slices.Contains(got, AnyAmount) || tc.want != nil && !slices.Equal(got, tc.want) {
			t.Errorf("Asks(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
	if got := Asks("Which linter do we run, and how many rules does it check?"); !slices.Contains(got, "linter") || !slices.Contains(got, AnyAmount) {
		t.Errorf("a question for a tool and an amount asks %q", got)
	}
}

// AmountAsker is the word after the first "how" that asks an amount, not
// one asking a date or nothing.
func TestAmountAsker(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, want string }{
		{"how big is the close button?", "big"},
		{"how long ago did we ship it, and how many workers does it run?", "many"},
		{"no matter how long it takes, how big is the bundle?", "big"},
		{"how many weeks ago did we ship it?", ""},
	} {
		if got := AmountAsker(tc.text); got != tc.want {
			t.Errorf("AmountAsker(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// Amount reads a count, a size or a duration; Dimension a length on a
// screen or a share, which no claim holds.
func TestAmount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Trimmed the handbook from 812 to 430 lines.", true},
		{"The bundle is 245 KB gzipped.", true},
		{"The timeout is 30s now.", true},
		{"We moved to Postgres 16.", false},
		{"The service listens on port 8080.", false},
	} {
		got := slices.ContainsFunc(Parse(tc.text), Amount)
		if got != tc.want {
			t.Errorf("%q states an amount: %v, want %v (%+v)", tc.text, got, tc.want, Parse(tc.text))
		}
	}
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"The close button is a 24px circle.", true},
		{"Padding is 1.5rem on phones.", true},
		{"Coverage went up by 12 %.", true},
		{"Release 24 ships the circle.", false},
		{"Read docs/px-guide.md first.", false},
	} {
		if got := Dimension(tc.text); got != tc.want {
			t.Errorf("Dimension(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestAnyVersionOnlyAsked: AnyVersion is for a question asking a version
// of a thing it does not name; not version control, a version field, or a
// question giving the version itself.
func TestAnyVersionOnlyAsked(t *testing.T) {
	t.Parallel()
	for _, q := range []string{
		"Should we move the Python version to 3.12?",
		"Which version control system does the team use?",
		"What does the version field in the manifest do?",
		"What will the next version add?",
	} {
		if got := Asks(q); slices.Contains(got, AnyVersion) {
			t.Errorf("Asks(%q) = %v, want no AnyVersion", q, got)
		}
	}
}

// TestRomanceWordsOnlyInRomance: the Romance words for "of" and "where"
// that are English words too ("do", "dove", "qual") are read only in a text
// whose function words are Romance.
func TestRomanceWordsOnlyInRomance(t *testing.T) {
	t.Parallel()
	if got := Asks("What version do people use?"); slices.Contains(got, "version:people") {
		t.Errorf("Asks(%q) = %v: English \"do\" read as \"of\"", "What version do people use?", got)
	}
	for _, q := range []string{"I dove into the broker config, jobs keep getting dropped.", "Run the QUAL suite against the database.",
		"Je pense que le worker utilise Redis pour la file.", "Ajoute un cache ou une file pour les jobs."} {
		if got := Asks(q); len(got) > 0 {
			t.Errorf("Asks(%q) = %v, want nothing: no question", q, got)
		}
	}
}

// TestAsksNamedNoun: a noun that says what an identifier names ("the
// blog-content repository", "bucket zeta-media") asks for one after "which"
// or "what", and only there: elsewhere it names the project ("in this
// repo") or a thing the question gives ("the users table").
func TestAsksNamedNoun(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		q, role string
		want    bool
	}{
		{"Which GitHub repository do the docs sync their pages from?", "repository", true},
		{"what repo holds the shared protobufs?", "repository", true},
		{"Which AWS S3 bucket does the uploader write to?", "bucket", true},
		{"How does the release script work out which branch it is on?", "branch", true},
		{"Which Kafka topic do the order events go to?", "topic", true},
		{"Which S3 bucket does the uploader write to?", "bucket", true},
		{"Which repository?", "repository", true},
		{"어떤 브랜치에 배포했나요?", "branch", true},
		{"어떤 도메인 로직이 좋나요?", "domain", false},
		// Not "which" determining it.
		{"Should the hooks folder be committed in this repo?", "repository", false},
		{"What should the repo README say?", "repository", false},
		{"What is the index of the first element?", "index", false},
		{"What does the index do?", "index", false},
		{"What did we change in the invoices table?", "table", false},
		// Not the head of its phrase.
		{"What table of contents should a thesis have?", "table", false},
		{"Which channel of communication works best for remote teams?", "channel", false},
		{"What domain logic belongs in a hexagonal architecture?", "domain", false},
		{"Which index.html does the site serve?", "index", false},
		// A question that names one is about that one.
		{"Which acme/blog-content repository holds the posts?", "repository", false},
	} {
		if got := Asks(tt.q); slices.Contains(got, tt.role) != tt.want {
			t.Errorf("Asks(%q) = %v, want %q asked: %v", tt.q, got, tt.role, tt.want)
		}
	}
}

func TestWords(t *testing.T) {
	t.Parallel()
	if w := Words("address"); !slices.Contains(w, "192") {
		t.Errorf("Words(address) = %v: no private-range prefix to find an IPv4 by", w)
	}
	if w := Words("linter"); !slices.Contains(w, "eslint") || !slices.Contains(w, "ruff") {
		t.Errorf("Words(linter) = %v", w)
	}
	if w := Words("version:go"); !slices.Equal(w, []string{"go"}) {
		t.Errorf("Words(version:go) = %v", w)
	}
	if w := Words("port"); !slices.Contains(w, "port") {
		t.Errorf("Words(port) = %v", w)
	}
	// A named role is found by the nouns that name it.
	if w := Words("repository"); !slices.Contains(w, "repo") || !slices.Contains(w, "repository") {
		t.Errorf("Words(repository) = %v", w)
	}
	if w := Words("image"); len(slices.DeleteFunc(slices.Clone(w), func(s string) bool { return s != "image" })) != 1 {
		t.Errorf("Words(image) = %v: want \"image\" once", w)
	}
}

// TestReleaseOfNoProduct: a release qualified by a kind of release, a
// month, an acronym or an everyday word asks no product's version; only a
// name written as one does (TestAsks). Each question asks a product's
// version when a name ("ESPHome") stands in that word's place, so each is
// a question Asks reads.
func TestReleaseOfNoProduct(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ q, word string }{
		{"Which stable release did we pin?", "stable"},
		{"Which production release broke the login?", "production"},
		{"Which hotfix release fixed the crash?", "hotfix"},
		{"Which nightly release did we test against?", "nightly"},
		{"What staging release is deployed right now?", "staging"},
		{"Which app release added the export button?", "app"},
		// A capital where a sentence or an item begins, or in a title.
		{"Hotfix release or a full one, which did we ship?", "Hotfix"},
		{"Ok. Hotfix release or a full one, which did we ship?", "Hotfix"},
		{"Ok! Hotfix release, which did we ship?", "Hotfix"},
		{"Notes: Hotfix release, which did we ship?", "Hotfix"},
		{"- Hotfix release: which did we ship?", "Hotfix"},
		{"Ok -- Hotfix release, which did we ship?", "Hotfix"},
		{"the plan\nHotfix release: which did we ship?", "Hotfix"},
		{"Which Hotfix Release Did We Ship?", "Hotfix"},
		{"Ok? Firmware release, which did we ship?", "Firmware"},
		{"Two questions:\n10) Firmware release, which did we ship?", "Firmware"},
		{"Two questions: a) Firmware release, which did we ship?", "Firmware"},
		// A capital alone marks no word English uses.
		{"Which Staging release is deployed?", "Staging"},
		{"Which Preview release did we try?", "Preview"},
		// The lower-case name after "of" is what was released.
		{"Which Firmware release of zorblat did we test?", "Firmware"},
		// An abbreviation's dots mark no name.
		{"What is in the e.g. release?", "e.g."},
		// An acronym names a kind as often as a product.
		{"Which LTS release did we pin?", "LTS"},
		{"Which GA release did we ship?", "GA"},
		{"Which release of zorblat did we pin?", "zorblat"}, // a name in lower case is no product's
		{"¿Qué cambió en la release de marzo?", "marzo"},
		{"Which June release broke the login?", "June"}, // a month is written with a capital
	} {
		for _, r := range Asks(tt.q) {
			if strings.HasPrefix(r, "version:") {
				t.Errorf("Asks(%q) = %v, want no version", tt.q, Asks(tt.q))
			}
		}
		named := strings.Replace(tt.q, tt.word, "ESPHome", 1)
		if got := Asks(named); !slices.Contains(got, "version:esphome") {
			t.Errorf("Asks(%q) = %v, want version:esphome: the question is not read", named, got)
		}
	}
}

// TestEnvVars: an environment variable's name is upper-case words joined
// by underscores, wherever it stands; one word alone is no such name. A
// command is a shell run's.
func TestEnvVars(t *testing.T) {
	got := envVars("+ QUILL_GH_TOKEN=\n+ QUILL_REPO_OWNER=dev\nconst key = process.env.API_KEY; // HTTP PORT DEBUG_ x_Y")
	if want := []string{"QUILL_GH_TOKEN", "QUILL_REPO_OWNER", "API_KEY"}; !slices.Equal(got, want) {
		t.Errorf("envVars = %q, want %q", got, want)
	}
	if vs, ok := ShapeValues("env var", "export MAX_BATCH_SIZE=50"); !ok || !slices.Equal(vs, []string{"MAX_BATCH_SIZE"}) {
		t.Errorf("ShapeValues(env var) = %q, %v", vs, ok)
	}
	if vs, ok := ShapeValues("address", "the box is at 192.168.1.18"); !ok || !slices.Equal(vs, []string{"192.168.1.18"}) {
		t.Errorf("ShapeValues(address) = %q, %v", vs, ok)
	}
	if vs, ok := ShapeValues("command", "Bash: set -a && . ./.env && bun run server.ts (error)\nExit code 1"); !ok || !slices.Equal(vs, []string{"set -a && . ./.env && bun run server.ts"}) {
		t.Errorf("ShapeValues(command) = %q, %v", vs, ok)
	}
	if vs, _ := ShapeValues("command", "Read: /home/dev/quill/server.ts\n1→import"); vs != nil {
		t.Errorf("ShapeValues(command) of a file read = %q, want none", vs)
	}
	for text, want := range map[string]string{"export PORT=3000": "PORT", "echo %APPDATA%": "APPDATA", "export http_proxy=http://p:3128": "http_proxy",
		"const p = process.env.PORT ?? 8080": "PORT", "+ DEBUG=1": "DEBUG", "cd ${HOME}/src": "HOME", `os.environ.get("db_url")`: "db_url", "echo $PATH": "PATH"} {
		if got := envVars(text); !slices.Equal(got, []string{want}) {
			t.Errorf("envVars(%q) = %q, want %q", text, got, want)
		}
	}
	for _, text := range []string{"HTTP_200 and UTF_8, ISO_8601", "Bash: (error)", "printf '%d items, 50% done'", "echo $1", "Use the Port=3000 setting", "const msg = `hi ${user}`", "for f in $files; do"} {
		if vs := append(envVars(text), shellCommand(text)...); len(vs) > 0 {
			t.Errorf("values in %q: %q, want none", text, vs)
		}
	}
	if !Everywhere("env var") || !Everywhere("command") || Everywhere("address") || !ByShape("address") {
		t.Error("Everywhere: env vars and commands are in every project's output, addresses are not")
	}
	if _, ok := ShapeValues("port", "port 8080"); ok {
		t.Error("ShapeValues(port): a port is parsed, not found by shape")
	}
}

package claim

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/korean"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
)

// askWords name a role the way a question does ("which lint tool", "where do
// jobs get enqueued"), beyond the role's own name ("which database"), which
// asks for it too, and the hints Parse uses to tell a tool's roles apart. A
// question may use any inflection of them (askFold). Each is a common name of
// the role or a verb for what it does, the way tool documentation words it,
// not a question's wording: a phrase that only one question would use
// ("call our backend") does not belong here. Built at first use, as
// lazywords.Set builds its sets.
var askWords = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"bundler":                 {"bundle", "build tool", "번들러"},
		"build system":            {},
		"test runner":             {"test framework", "unit test"},
		"e2e framework":           {"e2e", "end-to-end", "end to end", "browser tests", "framework"},
		"web framework":           {"framework", "endpoint", "route", "프레임워크"},
		"frontend framework":      {"ui framework", "framework"},
		"linter":                  {"lint tool"},
		"formatter":               {"code format", "코드 포맷"},
		"type checker":            {"type checking", "typecheck", "type-check"},
		"queue":                   {"message queue", "broker", "enqueued", "enqueue"},
		"orm":                     {"orm", "query builder"},
		"json library":            {"serialize", "serializer", "json encoding"},
		"database":                {"db", "stored", "persisted", "데이터베이스", "디비"},
		"cache":                   {"caching", "캐시"},
		"search engine":           {"full-text search"},
		"object storage":          {"bucket", "upload", "uploaded", "저장"},
		"hosting":                 {"hosted", "deployed", "deploy", "published", "배포"},
		"container orchestration": {"orchestration", "orchestrator", "cluster"},
		"ci":                      {"ci", "pipeline", "workflows"},
		"ci runner":               {"runner"},
		"error tracking":          {"exception", "crash report", "에러"},
		"monitoring":              {"metric", "dashboard"},
		"logging":                 {"log", "log shipping"},
		"identity provider":       {"authenticate", "authentication", "login", "sign in", "sso", "인증"},
		"payments":                {"payment provider"},
		"email service":           {"email provider", "email", "transactional email"},
		"feature flags":           {},
		"secrets manager":         {"secret", "secret manager"},
		"package manager":         {"dependencies", "install package", "install", "installs", "lockfile", "패키지 매니저", "의존성"},
		"js runtime":              {"runtime"},
		"api style":               {},
		"http client":             {"http client", "http call", "api call"},
		"merge strategy":          {"merge", "merging"},
		"signing algorithm":       {"sign", "signing", "signed", "서명"},
		"password hashing":        {"password hashing", "hash passwords"},
		"logging library":         {"logger"},
		"migration tool":          {"migration"},
		"reverse proxy":           {"proxy"},
		"static site generator":   {"docs site", "static site", "site generator", "docs generator", "documentation generator", "blog generator"},
		"mobile framework":        {"mobile app"},
		"port":                    {"포트"},
		"address":                 {"ip", "ip address", "address", "addresses", "hostname", "주소"},
		"env var":                 {"environment variable", "env variable", "환경 변수", "환경변수"}, // the variable's name as shells and docs say it, in English and Korean
		"host":                    {"url", "hostname"},                                       // "hostname" asks a host's name (URL.hostname, hostname(1)) as well as an address
		"image":                   {"container image", "docker image", "image name", "이미지 이름"},
		"region":                  {"리전"},
		"interval":                {"how often", "how frequently", "frequency", "얼마나 자주", "주기"},
		"delay":                   {"throttle", "backoff", "hammer", "overload", "delay between"},
		"request rate":            {"rate limit", "rate-limit", "rate limited", "throttle", "hammer"},
		"timeout":                 {"time out", "times out", "timing out", "타임아웃"},
		"retries":                 {"retry", "retried", "재시도"},
	}
})

// questionRE finds a question about the current choice: "which …", "what …",
// "where …", "how do we/admins/the … ", "how do customers …" (a group),
// "… now", "… currently", "어떤",
// "뭘로", "몇이야" (which number is it; not "뭐든", whatever, "뭐라도",
// anything, or "무엇보다", above all), and Russian's words for which, what and where (romanceQuestionRE
// reads the Romance languages'). "How do I …" asks how to do something, not
// what the project chose.
var questionRE = lazyregexp.New(`(?i)\b(which|what|what's|whats|where|should|supposed to|do we|are we)\b|\bhow (do|does|are|is) (we|our|the|admins?|users?|they|it|[a-z]{3,}s)\b|\bhow (often|frequently|long|many|much)\b|\b(now|currently|these days|nowadays)\b|어떤|무엇(?:[^보이]|이[^든나]|$)|뭘|뭐(?:[^든라]|라[^도]|$)|어디|지금|현재|(?:^|[^몇])몇(?:이|였)|(^|\s)(где|куда|какой|какая|какое|какую|какие|каким|что|чем|сейчас|теперь)(\s|$)`)

// romanceQuestionRE finds the words for which, what and where of the
// Romance languages recall translates (Spanish, Portuguese, Italian,
// French), read only in a text whose function words are theirs (Asks):
// "dove" and "qual" are English words too. "Cómo" (how) is not read, nor
// "que" and "ou" without their accents: "that" and "or" in every such text.
var romanceQuestionRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:qué|cu[aá]l|cu[aá]les|d[oó]nde|qual|quais|onde|quale|quali|dove|quel|quelle|quels|quelles|où)(?:[^\p{L}]|$)`)

// germanQuestionRE finds German's words for which, what and where, read
// only in a question whose function words are German's (Asks): "was" and
// "wo" are English and Italian words too.
var germanQuestionRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:welche[mnrs]?|was|wo|wohin|woher)(?:[^\p{L}]|$)`)

// germanWhereRE is German's where, read as germanQuestionRE is.
var germanWhereRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:wo|wohin)(?:[^\p{L}]|$)`)

// japaneseWhereRE is Japanese's where, told from the longer words holding
// it as japaneseQuestionRE tells it ("どこか" somewhere, "どこでも"
// anywhere).
var japaneseWhereRE = lazyregexp.New(japaneseWhere)

// japaneseWhere is Japanese's where, for japaneseQuestionRE and
// japaneseWhereRE: not "どこか" (somewhere), "どこも", "どこでも", "どこにも"
// (everywhere, nowhere).
const japaneseWhere = `どこ(?:[^かもでに]|[でに](?:[^も]|$)|$)`

// JapaneseWhere reports a Japanese question for a place. Asks does not read
// it as one for a path (japaneseQuestionRE): the caller does, where the
// question is about the project's past or present.
// "どこまで" (how far) asks no place.
func JapaneseWhere(text string) bool {
	return hasKana(text) && japaneseWhereRE.MatchString(strings.ReplaceAll(text, "どこまで", ""))
}

// whereRE finds a question for a place.
var whereRE = lazyregexp.New(`(?i)\bwhere\b|어디|(^|\s)(где|куда)(\s|$)`)

// japaneseQuestionRE finds Japanese's words for which, what, where and
// what number ("いくつ"), and for currently, read only in a text holding kana
// (Asks): Chinese writes its own with the same characters. Japanese writes
// no spaces, so each is told from the longer words holding it by the kana
// next to it, which the expression consumes: "などの" (such as), "ほどの"
// (as much as) and "ちょうどの" hold "どの"; "どのように" (how) and "どのくらい"
// (how much, an amount: otherAmountRE) ask no thing, "どのような" (what
// kind of) and "どれだっけ" (which was it) do, "どれだけ" asks an amount;
// "どれか", "どこか", "なにか", "いくつか" and "何か" are some thing, "どれも",
// "どこも", "どこでも", "どこにも", "いくつも", "何も", "何回も", "何年も" every
// thing or none, "どんなに" however much (and holds "なに"), "何でも"
// anything, "何度" many times, "何らか" some, "何だか" somehow, "何卒"
// please; "何と" asks nothing unless it asks a name ("何という"). "なに"
// before "お" is no question: "変なにおい" is a strange smell. Japanese's where ("どこ") makes a question, but whereRE
// does not read it as one for a path: a Japanese prompt's everyday verbs
// are searched by their English glosses ("行く" head, reach; "見る" view),
// and a travel question ("紅葉を見るならどこがおすすめ？") took a command's
// "| head" and a page's "View" for a path's statement.
var japaneseQuestionRE = lazyregexp.New(`(?:^|[^なほう])どの(?:[^よくぐみ]|ような|$)|どれ(?:[^かもくぐだ]|だっ|$)|` + japaneseWhere + `|どんな(?:[^に]|$)|(?:^|[^みん])なに(?:[^かもよせお]|$)|いくつ(?:[^かも]|$)|何(?:という|だ[^か]|[回年人日][^もか]|[^かもで度とら卒回年人日だ]|$)|現在`)

// askIndex maps each ask word, its English words folded by askFold, to the
// roles it asks for.
var askIndex = sync.OnceValue(func() map[string][]string {
	// Sized for every phrase put: every prompt builds it (Asks), and
	// growing the map was a third of the building.
	n := len(roleTable)
	for _, ws := range askWords() {
		n += 1 + len(ws)
	}
	for _, ws := range roleHints() {
		n += len(ws)
	}
	m := make(map[string][]string, n)
	put := func(phrase, role string) {
		k := askKey(strings.Fields(phrase))
		if !slices.Contains(m[k], role) {
			m[k] = append(m[k], role)
		}
	}
	for role, ws := range askWords() {
		put(role, role) // a role's name asks for it: "which package manager"
		for _, w := range ws {
			put(w, role)
		}
	}
	for _, r := range roleTable {
		put(r.role, r.role)
	}
	for role, ws := range roleHints() {
		switch role {
		case "test runner", "build system", "js runtime", "package manager", "static site generator":
			// "test", "build", "runs" are in every question about code;
			// "package", "site", "docs" and "blog" name what the project
			// makes, which a question asks about far more often than the
			// tool making it: "which audio package" asks for a library,
			// "which Teamwork site" for a workspace, "how do I run the
			// site locally" for a command (installing, a lockfile, a
			// static site: askWords).
			continue
		}
		for _, w := range ws {
			put(w, role)
		}
	}
	for _, roles := range m {
		slices.Sort(roles) // maps iterate in any order; Asks answers the same every time
	}
	return m
})

// AskWord reports a word that asks a role by itself ("enqueued" the queue,
// "ORM", "CI"): a question's word for what it asks, no name of a product.
func AskWord(w string) bool { return len(askIndex()[askFold(strings.ToLower(w))]) > 0 }

// askKey joins a phrase's words folded by askFold, so that a question asks
// with any inflection of a table's phrase ("build tooling", "unit tests").
func askKey(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = askFold(w)
	}
	return strings.Join(out, " ")
}

// askFold drops an English word's plural or gerund ending ("tooling",
// "runners", "retries"), only where a stem of three letters is left, and a
// final "e" that a gerund drops ("bundle", "bundling"); it leaves other
// scripts alone. It is lighter than wordStem on purpose: a
// question's "runs" must not ask for "runner".
func askFold(w string) string {
	if w == "" || w[0] >= utf8.RuneSelf {
		return w
	}
	for _, suf := range []string{"ies", "ings", "ing", "s"} {
		if len(w)-len(suf) >= 3 && strings.HasSuffix(w, suf) && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-len(suf)]
			if suf == "ies" {
				w += "y"
			}
			if n := len(w); suf[0] == 'i' && suf != "ies" && n >= 4 && w[n-1] == w[n-2] && w[n-1] != 'l' {
				w = w[:n-1] // "logging" -> "log"
			}
			break
		}
	}
	if n := len(w); n >= 5 && w[n-1] == 'e' {
		w = w[:n-1] // "bundle" and "bundling" -> "bundl"
	}
	return w
}

// hangulKeys are the Korean ask words, sorted so that Asks answers the same
// every time.
var hangulKeys = sync.OnceValue(func() []string {
	var ks []string
	for k := range askIndex() {
		if k >= "\uac00" {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
})

// Asks returns the roles a question asks the current value of ("which lint
// tool do we run?" asks the linter), and only when it names no value of that
// role itself: "how do I configure ESLint?" is about ESLint, not about which
// linter the project chose. A text that is no question asks nothing.
func Asks(text string) []string {
	if len(text) > 2048 {
		cut := 2048
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	// Most prompts ask no question of these forms: they are told by the
	// expressions and the text's function words.
	question := questionRE.MatchString(text)
	lower := strings.ToLower(text)
	words := strings.FieldsFunc(lower, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r >= utf8.RuneSelf && unicode.IsLetter(r))
	})
	// A Romance language's words for "which" and "of" are read only in a
	// text whose function words are that language's.
	fw := funcwords.For(words)
	romance := fw.Any(funcwords.Romance...)
	// A question for an amount asks no role by its words unless it is
	// another question too: "how big is the cache?" asks no cache tool.
	amount := asksAmount(text, words, romance)
	// The Romance expression is read only in such a text: a hook process
	// compiles it the first time it is used, and its Unicode classes cost
	// more than splitting the words.
	// German's words for which and where are as often relative ("…, was
	// wir gefixt haben"): read only in a question.
	german := fw.Any("deu") && strings.Contains(text, "?")
	// Japanese writes no spaces: its words are told apart by their
	// scripts (splitScripts).
	japanese := hasKana(text)
	if japanese {
		words = splitScripts(words)
	}
	if !question && !(romance && romanceQuestionRE.MatchString(text)) && !(german && germanQuestionRE.MatchString(text)) &&
		!(japanese && japaneseQuestionRE.MatchString(text)) {
		if amount {
			return []string{AnyAmount}
		}
		return nil
	}
	named := map[string]bool{}
	for _, c := range Parse(text) {
		named[c.Role] = true
	}
	idx := askIndex()
	seen := map[string]bool{}
	var out []string
	add := func(roles []string) {
		for _, r := range roles {
			if !seen[r] && !named[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	if whereRE.MatchString(text) || german && germanWhereRE.MatchString(text) {
		// "Where do migrations go?", "어디에 저장되나요?": a place, which
		// a path names.
		add([]string{"path"})
	}
	folded := make([]string, len(words))
	for i, w := range words {
		folded[i] = askFold(w)
	}
	for i, w := range words {
		add(idx[askFold(stripParticle(w))])
		if w >= "\uac00" {
			// Korean verbs and nouns take endings ("배포되고", "저장되나요").
			for _, k := range hangulKeys() {
				if strings.HasPrefix(w, k) {
					add(idx[k])
				}
			}
		}
		if versionWords().Has(stripParticle(w)) {
			for _, p := range words {
				if prod, ok := products[p]; ok {
					add([]string{VersionRole(prod)})
				}
			}
		}
		if r := namedNouns[stripParticle(w)]; r != "" && namedAsked(words, i, fw, romance) {
			add([]string{r})
		}
		if commandAsked(words, i, fw) {
			add([]string{"command"})
		}
		if prod := runtimeAsked(text, words, i, fw); prod != "" {
			add([]string{VersionRole(prod)})
		}
		for n := 2; n <= 3 && i+n <= len(words); n++ {
			// A phrase's last word may carry a Korean particle ("환경
			// 변수가"), as a word alone may.
			add(idx[strings.Join(folded[i:i+n], " ")])
			if last := words[i+n-1]; stripParticle(last) != last {
				add(idx[strings.Join(append(slices.Clone(folded[i:i+n-1]), askFold(stripParticle(last))), " ")])
			}
		}
	}
	// The product a version is asked of, read from the words with their
	// dots ("next.js", "vue.js"), which the split above takes apart.
	written, shapes := writtenNames(text, japanese)
	names := make([]string, len(written))
	for i, w := range written {
		names[i] = strings.ToLower(w)
	}
	for i, w := range names {
		// A version written onto its product's name, as German compounds
		// it ("Welche ESPHome-Version …", "die Python-Version"); in English
		// "api-version" is a setting's name.
		if head, ok := strings.CutSuffix(w, "-version"); ok && german && head != "" && !strings.Contains(head, "-") &&
			(productName(head) != "" || isName(head) && !wordfreq.Everyday(head)) {
			add([]string{VersionRole(head)})
			continue
		}
		switch {
		case versionWords().Has(stripParticle(w)):
			// A name no table knows, next to the word: "which zorblat
			// version", "the version of quillpress". A statement gives it the
			// same role ("zorblat 3.14.2", namedBefore).
			if j := versionOwner(names, i, fw, nil); j >= 0 {
				add([]string{VersionRole(names[j])})
			}
		case w == "release" || w == "releases":
			// "Which Astro release", "the latest release of ESLint": a
			// release of a product a table knows is its version; "the
			// production release", "the May release" name none.
			known := false
			for _, n := range []string{at(names, i-1), ofAfter(names, i, romance)} {
				if productName(n) != "" {
					add([]string{VersionRole(n)})
					known = true
					break
				}
			}
			// A name no table knows, as for "version", but only one written
			// as a product's name ("which ESPHome release did we pin"):
			// "release" is qualified by many more words than "version" is,
			// kinds of release ("the hotfix release", "the nightly
			// release") and months ("la release de marzo"), mostly written
			// in lower case. A capital first letter alone is weak: the word
			// must also be one English does not use ("Zorblat", not
			// "Staging"), and it does not stand for the product when a
			// lower-case name after "of" does ("the Hotfix release of
			// zorblat").
			if known {
				continue
			}
			need := capitalised
			if j := versionOwner(names, i, fw, nil); j > i && shapes[j] == plain {
				need = marked
			}
			product := func(j int) bool {
				switch {
				case shapes[j] == marked:
					return !wordfreq.Everyday(names[j])
				case shapes[j] == capitalised && need == capitalised:
					return wordfreq.Zipf(names[j]) == 0
				}
				return false
			}
			if j := versionOwner(names, i, fw, product); j >= 0 {
				add([]string{VersionRole(names[j])})
			}
		}
	}
	versionRole := func(r string) bool { return strings.HasPrefix(r, "version:") }
	namesVersion := false
	for r := range named {
		namesVersion = namesVersion || versionRole(r)
	}
	if anyVersion(names, romance) && !namesVersion && !slices.ContainsFunc(out, versionRole) {
		// "What version of the app framework did the server print?": a
		// version of something the question only describes. Not one
		// whose version the question gives ("move Python to 3.12?").
		add([]string{AnyVersion})
	}
	if amount {
		add([]string{AnyAmount})
	}
	return out
}

// anyVersion reports a question for a version: "which version", "what
// version", "the version of …"; not the version control system or a
// version field.
func anyVersion(words []string, romance bool) bool {
	for i, w := range words {
		if !versionWords().Has(stripParticle(w)) {
			continue
		}
		if next := at(words, i+1); next == "control" || next == "field" {
			continue
		}
		if which(at(words, i-1), romance) || of(at(words, i+1), romance) || koreanWhat(w, at(words, i+1)) {
			return true
		}
	}
	return false
}

// koreanWhat reports a Korean noun (w) asked of by the word after it, as
// Korean asks: "버전이 몇이었지?" (the version was what number?), "버전이
// 뭐야?" (what is the version?). Not "몇몇" (some), "뭐든" (whatever),
// "뭔가" (something) or "무엇보다" (above all).
func koreanWhat(w, next string) bool {
	if r, _ := utf8.DecodeRuneInString(w); !unicode.Is(unicode.Hangul, r) {
		return false
	}
	for _, p := range []string{"몇몇", "뭐든", "뭐라도", "뭔가", "무엇보다", "무엇이든", "무엇이나"} {
		if strings.HasPrefix(next, p) {
			return false // some, whatever, something, above all
		}
	}
	return strings.HasPrefix(next, "몇") || strings.HasPrefix(next, "뭐") || strings.HasPrefix(next, "뭔") || strings.HasPrefix(next, "무엇")
}

// commandAsked reports a command asked of itself, words[i]: "which
// command did …", "what command do …", or "the command we …" ("what's the
// command we ended up using to start it?"), which a shell run answers
// (ShapeValues). Not a kind of command ("which build command", "the start
// command you configured"): a deploy's config sets those; nor "command"
// qualifying a noun ("what command line flags", "command palette").
func commandAsked(words []string, i int, fw funcwords.Set) bool {
	if w := words[i]; w != "command" && w != "commands" {
		return false
	}
	next := at(words, i+1)
	switch at(words, i-1) {
	case "which", "what":
		// The noun heads its phrase: the question's verb, or one whose
		// object a determiner opens, follows ("which command seeds the
		// database?"), as namedAsked reads it.
		return next == "" || fw.Has(next) || funcwords.EnglishMore(next) || determiners().Has(at(words, i+2))
	case "the", "that":
		return next == "we" || next == "you" || next == "i"
	}
	return false
}

// runtimeAsked returns the runtime words[i] names when the question asks
// which one of it, that is which of its versions: "which Python did uv
// pick?", "what Go are we on?", "which Java does Gradle use?". "Which" or
// "what" determines the name right before it, and the name ends the
// question or is the object of an auxiliary and the subject after it:
// not "which tests go in …", "what Rust does differently". A name that is
// an everyday English word too ("go", "rust", "net", "swift") counts only
// written as a name, capitalised ("What Go", ".NET"). Not Node, a
// cluster's or a graph's node as often as Node.js.
func runtimeAsked(text string, words []string, i int, fw funcwords.Set) string {
	prod := products[words[i]]
	if prod == "" || !runtimes[prod] || !which(at(words, i-1), false) {
		return ""
	}
	if i+1 < len(words) && !(auxiliaries().Has(words[i+1]) && subjectAfter(at(words, i+2), fw)) {
		return ""
	}
	if wordfreq.Everyday(words[i]) && !writtenCapitalised(text, words[i]) {
		return ""
	}
	return prod
}

// auxiliaries are the English verbs a question inverts before its subject
// ("did it", "are we", "does Gradle").
var auxiliaries = lazywords.Lookup(`do does did is are was were will would can could should has have had`)

// subjectAfter reports a word that can open an inverted question's
// subject: a pronoun, a determiner, or a name (a word no function-word list
// holds).
func subjectAfter(w string, fw funcwords.Set) bool {
	switch w {
	case "":
		return false
	case "it", "we", "you", "they", "i", "he", "she":
		return true
	}
	return determiners().Has(w) || !fw.Has(w) && !funcwords.EnglishMore(w) && !strings.HasSuffix(w, "ly")
}

// writtenCapitalised reports whether text writes w (lower-case) as a name
// somewhere, with its first letter upper-case or wholly upper-case ("Go",
// "NET"), as a word of its own.
func writtenCapitalised(text, w string) bool {
	for _, form := range []string{strings.ToUpper(w[:1]) + w[1:], strings.ToUpper(w)} {
		for k := 0; ; {
			j := strings.Index(text[k:], form)
			if j < 0 {
				break
			}
			j += k
			end := j + len(form)
			if (j == 0 || !isWordByte(text[j-1])) && (end == len(text) || !isWordByte(text[end])) {
				return true
			}
			k = end
		}
	}
	return false
}

// isWordByte reports an ASCII letter or digit.
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// at is words[i], or "" past either end.
func at(words []string, i int) string {
	if i < 0 || i >= len(words) {
		return ""
	}
	return words[i]
}

// ofAfter is the word after "of" that follows words[i] ("release of
// eslint"), or "".
func ofAfter(words []string, i int, romance bool) string {
	if of(at(words, i+1), romance) {
		if w := at(words, i+2); !determiners().Has(w) {
			return w
		}
		return at(words, i+3)
	}
	return ""
}

// AnyVersion is the role Asks gives a question for the version of a thing
// it names no product for: any product's version answers it.
const AnyVersion = "version:"

// AnyAmount is the role Asks gives a question for an amount ("how many
// workers …?", "how long is the file?", "how big is the bundle?"): a count,
// a size or a duration of anything answers it (Amount, Dimension). No
// statement fills it: it picks the lines shown of a long message, and the
// one line of a file shown that a later edit may change.
const AnyAmount = "amount:"

// howAmountRE finds "how" and a word asking an amount ("how many", "how
// big"); "matter" or "regardless of" before it, where it asks nothing ("no
// matter how long it takes"); and "ago" after it, where it asks a date
// ("how long ago", "how many days ago"). "However" is no "how".
var howAmountRE = lazyregexp.New(`(?i)\b(matter\s+|regardless\s+of\s+)?how\s+(many|much|long|big|large)\b(\s+(?:(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\s+)?ago\b)?`)

// AmountAsker is the word after "how" that asks an amount ("big" in "how
// big is the button?"), or "". It says what is asked, not what it is
// asked of: a line holding it ("replaced the big pill buttons") is not
// about the prompt's subject for it. Every "how" is read: "how long ago
// did we ship it, and how many workers run?" asks a count after a date.
// English asks with no question mark too ("how long is that file").
func AmountAsker(text string) string {
	for _, m := range howAmountRE.FindAllStringSubmatch(text, -1) {
		if m[1] == "" && m[3] == "" {
			return strings.ToLower(m[2])
		}
	}
	return ""
}

// otherAmountRE finds Russian "сколько", Korean "얼마나" and "얼마"
// ("크기가 얼마야?"), not "얼마 전" (a while ago, a date), "얼마든지" (as much
// as you like) or "얼마간" (for a while), and Japanese "どのくらい",
// "どれくらい" (with "ぐらい" as well) and "どれだけ".
var otherAmountRE = lazyregexp.New(`(?i)сколько|얼마(?:$|[^\s전든간]|\s+[^\s전])|ど[のれ][くぐ]らい|どれだけ`)

// koreanCountRE finds Korean "몇" (not "몇몇", some), the counter after it
// and at most one word more, ending the question: "몇 개야?", "몇 분
// 걸려?", "몇 번 돌렸어?". More words after the counter make it a number
// naming a thing ("몇 번 포트를 써?", which port).
var koreanCountRE = lazyregexp.New(`(?:^|[^몇])몇\s*([^\s?？몇]+)(?:\s+([^\s?？]+))?\s*[?？]`)

// koreanCount reports a Korean question for a count: "몇", a counter and
// the question's end, or one word between them that has, takes or was
// done (있다, 없다, 되다, 걸리다, or a verb in the past tense: "고쳤어"), not
// a request ("몇 가지 고쳐줄래?", would you fix a few things?). A counter of
// a time or a date ("몇 시", "몇 월", "몇 년", "몇 일"), of a version or an
// order ("몇 번째") names one, not how many.
func koreanCount(text string) bool {
	m := koreanCountRE.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	counter, verb := m[1], m[2]
	if strings.HasPrefix(counter, "이") || strings.HasPrefix(counter, "였") {
		// The copula right after "몇" ("몇이야?", "몇이었지?"): which
		// number it is, a version's or a port's, not how many.
		return false
	}
	for _, p := range []string{"시", "월", "년", "일", "버전", "번째"} {
		if strings.HasPrefix(counter, p) && !strings.HasPrefix(counter, "시간") {
			return false
		}
	}
	if verb == "" {
		return true
	}
	for _, p := range []string{"있", "없", "되", "돼", "걸리", "걸려"} {
		if strings.HasPrefix(verb, p) {
			return true
		}
	}
	// "몇 번 이슈였어?", "몇 번 PR이었어?": a noun and the copula ask which
	// one it was.
	return pastTense(verb) && !strings.Contains(verb, "였") && !strings.Contains(verb, "이었")
}

// pastTense reports a Korean word with a syllable closed by ㅆ, the past
// tense's mark ("고쳤어", "돌렸어", "했어"): a request ("고쳐줄래") has none.
func pastTense(word string) bool {
	for _, r := range word {
		if korean.ClosedBySsangSiot(r) {
			return true
		}
	}
	return false
}

// romanceAmount are the Romance languages' words asking an amount, read
// only in a question whose function words are theirs ("quanto" is a name in
// English, and "in quanto" a "because").
var romanceAmount = lazywords.Lookup(`cuánto cuánta cuántos cuántas cuanto cuanta cuantos cuantas quanto quanta quantos quantas quanti quante combien`)

// germanAmount are the words after German "wie" asking an amount: "wie
// viele", "wie groß", "wie lange" (a duration is an amount).
var germanAmount = lazywords.Of("viel", "viele", "vielen", "groß", "gross", "lang", "lange")

// asksAmount reports a question for an amount: "how" and a word asking
// one (AmountAsker), or in a text with a question mark ("?" or the
// full-width "？" of a Korean or Chinese keyboard), a word of another
// language asking one.
func asksAmount(text string, words []string, romance bool) bool {
	if AmountAsker(text) != "" {
		return true
	}
	if !strings.ContainsAny(text, "?？") {
		return false
	}
	for i, w := range words {
		next := at(words, i+1)
		if w != "wie" || !germanAmount()[next] {
			continue
		}
		// "Wie lange ist das her?" asks a date, "wie viel Uhr" the time.
		if strings.HasPrefix(next, "lang") && words[len(words)-1] == "her" || next == "viel" && at(words, i+2) == "uhr" {
			continue
		}
		return true
	}
	return otherAmountRE.MatchString(text) || koreanCount(text) || romance && slices.ContainsFunc(words, romanceAmount().Has)
}

// Amount reports a claim stating an amount: a number of things ("391
// lines"), a size ("245kb") or a duration ("30s").
func Amount(c Claim) bool {
	return counting(c.Role) || durationOf(c.Value, "") != "" || sizeValue(c.Value)
}

// Dimension reports a text giving a length on a screen or a share: a
// number in pixels, points, ems or a viewport's units ("a 28px circle",
// "1.5rem") or a percentage ("cut by 40%"), which no claim's role holds.
func Dimension(text string) bool { return dimensionRE.MatchString(text) }

var dimensionRE = lazyregexp.New(`\b\d+(\.\d+)?(px|pt|rem|em|dp|vh|vw)\b|\b\d+(\.\d+)? ?%`)

// sizeValue reports a size's canonical form: digits, then a unit of
// sizeUnits ("512mi", "10mb").
func sizeValue(v string) bool {
	k := 0
	for k < len(v) && (v[k] >= '0' && v[k] <= '9' || v[k] == '.' && k > 0) {
		k++
	}
	return k > 0 && sizeUnits().Has(v[k:])
}

// nameShape is how a text's writing of a word marks it as a name.
type nameShape int

const (
	plain       nameShape = iota // an everyday word's writing, or an acronym's
	capitalised                  // a capital first letter where no sentence begins ("which Zorblat release")
	marked                       // a capital inside ("ESPHome") or a dot between parts ("pino.js")
)

// writtenNames splits text into words, keeping a dot inside a word
// ("next.js") but not at its ends ("blog."), and their case, with each
// word's nameShape. A word with no lower-case letter is plain: an acronym
// ("LTS", "GA") is a kind of thing as often as a name. A capital first
// letter marks nothing where a sentence or a list's item begins ("Hotfix
// release?", "Ok. Hotfix release", "- Hotfix release", "1) Hotfix
// release") or in a text that capitalises most of its everyday words
// ("Which Hotfix Release Did We Ship?"). A dot marks a name only between
// parts of two letters or more: "e.g." and "i.e." are abbreviations.
// A Japanese text's words are further split where their script changes
// (splitScripts): "expo-audioはどのバージョン" is three words, "expo-audio",
// "はどの" and "バージョン".
func writtenNames(text string, japanese bool) (words []string, shapes []nameShape) {
	inWord := func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r >= utf8.RuneSelf && unicode.IsLetter(r)
	}
	var opens []bool
	open := true   // a sentence begins the text
	label := false // the word before is a list item's label ("1", "a")
	for rest := text; rest != ""; {
		start := strings.IndexFunc(rest, inWord)
		if start < 0 {
			break
		}
		// Between the word before and this one a sentence ends at "!",
		// "?", ":" (or their full-width forms, and Japanese's "。") or a
		// line break ("." ends the word before: below), and
		// an item begins after its label's ")".
		gap := rest[:start]
		open = open || strings.ContainsAny(gap, "!?:\n。？！：") || label && strings.HasPrefix(gap, ")")
		end := strings.IndexFunc(rest[start:], func(r rune) bool { return !inWord(r) })
		if end < 0 {
			end = len(rest) - start
		}
		tok := rest[start : start+end]
		rest = rest[start+end:]
		w := strings.Trim(tok, ".")
		if strings.Trim(w, "-") == "" {
			// A bullet ("-", "--") or an ellipsis begins an item.
			open = true
			continue
		}
		if japanese {
			for _, run := range splitScripts([]string{w}) {
				words = append(words, run)
				opens = append(opens, open)
				open = false
			}
		} else if name, particle := hangulParticle(w); particle != "" {
			// A Korean particle written onto a name ("zorblat의
			// 버전"): the name is a word of its own.
			words = append(words, name, particle)
			opens = append(opens, open, false)
		} else {
			words = append(words, w)
			opens = append(opens, open)
		}
		open = strings.HasSuffix(tok, ".") // "Ok. Hotfix release", "1. Hotfix release"
		label = utf8.RuneCountInString(w) == 1 || strings.Trim(w, "0123456789") == ""
	}
	// Title case: most everyday words that begin no sentence have a capital
	// first letter, which then says nothing of a name. Names and acronyms
	// are capitalised in any text and are not counted.
	capitals, others := 0, 0
	for i, w := range words {
		if opens[i] || strings.ToUpper(w) == w || !wordfreq.Everyday(strings.ToLower(w)) {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) {
			capitals++
		} else {
			others++
		}
	}
	titleCase := capitals >= 2 && capitals > others
	shapes = make([]nameShape, len(words))
	for i, w := range words {
		if strings.ToUpper(w) == w {
			continue // no lower-case letter
		}
		for k, r := range w {
			if k > 0 && unicode.IsUpper(r) || r == '.' && dottedName(w) {
				shapes[i] = marked
				break
			}
			if k == 0 && unicode.IsUpper(r) && !opens[i] && !titleCase {
				shapes[i] = capitalised
			}
		}
	}
	return words, shapes
}

// hangulParticle splits a word of Latin letters with Hangul written onto
// its end, a Korean particle or ending ("zorblat의", "pypi에"), into the
// two; particle is "" for any other word.
func hangulParticle(w string) (name, particle string) {
	i := strings.IndexFunc(w, func(r rune) bool { return unicode.Is(unicode.Hangul, r) })
	if i <= 0 || strings.IndexFunc(w[:i], func(r rune) bool { return r >= utf8.RuneSelf }) >= 0 {
		return w, ""
	}
	return w[:i], w[i:]
}

// dottedName reports whether w's dots join parts of two letters or more
// ("pino.js", "next.js"), not single letters ("e.g", "i.e").
func dottedName(w string) bool {
	for part := range strings.SplitSeq(w, ".") {
		if utf8.RuneCountInString(part) < 2 {
			return false
		}
	}
	return true
}

// versionOwner is the index of the name a question's "version" at words[i]
// asks about when no product table lists it, or -1. It is the first of
// these that accept takes (nil takes any): the word after "of" ("the
// version of zorblat"; in a Romance text "de", "di"), the word after a
// Russian one, the word before ("which zorblat version"). A function word
// of the question's languages (fw) owns none ("esta versión", "que
// versão").
func versionOwner(words []string, i int, fw funcwords.Set, accept func(j int) bool) int {
	romance := fw.Any(funcwords.Romance...)
	name := func(j int) bool {
		w := at(words, j)
		_, known := products[w]
		return !known && isName(w) && !scopeStop().Has(w) && !determiners().Has(w) && !genericHeads().Has(w) && !questionWords().Has(w) && !fw.Has(w) &&
			(accept == nil || accept(j))
	}
	// The "of" phrase first: the word before may describe the version
	// ("the latest version of zorblat", "l'ultima versione di zorblat").
	// Not past a determiner: "the version of the page framework" describes
	// a thing, and its first word names none.
	if of(at(words, i+1), romance) && name(i+2) {
		return i + 2
	}
	r := first(words[i])
	if unicode.Is(unicode.Cyrillic, r) && name(i+1) {
		// Russian says whose version with no word for "of", the name
		// right after ("версию zorblat").
		return i + 1
	} else if scriptOf(r) != otherScript {
		// Japanese says whose version before it, past the particles and
		// the word asking, written in hiragana: "zorblatのバージョン",
		// "zorblatはどのバージョン".
		j := i - 1
		for j >= 0 && j >= i-3 && hiraganaOnly(words[j]) {
			j--
		}
		if name(j) {
			return j
		}
		return -1
	}
	if name(i - 1) {
		return i - 1
	}
	// Korean says whose version before it too, or past a particle or a
	// noun saying what the thing is: "zorblat의 버전", "processinator 패키지
	// 버전" (the processinator package's version).
	if unicode.Is(unicode.Hangul, r) && unicode.Is(unicode.Hangul, first(at(words, i-1))) && name(i-2) {
		return i - 2
	}
	return -1
}

// questionWords open a question; none owns a version. Only words a name
// can be spelt like are listed (isName): no other one is taken for an owner.
var questionWords = lazywords.Lookup(`which what whose who how when where why`)

// QuestionWord reports an English word that opens a question ("which",
// "why"), in lower case.
func QuestionWord(w string) bool { return questionWords().Has(w) }

// versionWords are the word for a version, in English, Korean, Japanese, Russian and
// the languages recall translates: a product's name is the same in a
// question asked in any of them ("¿qué versión de Next.js …?").
var versionWords = lazywords.Lookup(`version versions 버전 バージョン версия версии версию версией версий versión versiones versão versões versione versioni`)

// which reports a word asking which one of a kind ("which version",
// "какую версию"; "qué versión" in a Romance text).
func which(w string, romance bool) bool {
	switch w {
	case "which", "what", "어떤", "какая", "какую", "какой":
		return true
	case "qué", "que", "cuál", "cual", "qual", "quale", "quel", "quelle":
		return romance
	}
	return japaneseWhich(w)
}

// japaneseWhich reports a run of hiragana ending in Japanese's "which"
// ("どの", "どんな"): splitScripts keeps a particle before it in the same run
// ("はどの" in "zorblatはどのバージョン"). Not "などの" (such as), "ほどの"
// (as much as) or "ちょうどの" (just the), which end in the same kana: the
// kana before "どの" that japaneseQuestionRE rules out.
func japaneseWhich(w string) bool {
	if !hiraganaOnly(w) {
		return false
	}
	if strings.HasSuffix(w, "どんな") {
		return true
	}
	rest, ok := strings.CutSuffix(w, "どの")
	if !ok {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(rest)
	return r != 'な' && r != 'ほ' && r != 'う'
}

// namedAsked reports whether a noun that says what an identifier names
// (words[i]: "the blog-content repository") asks for one: "which" or "what"
// determines it, with at most two words qualifying it between them and no
// function word ("which GitHub repository", not "what should the repo"),
// and it heads its phrase: the next word is none, a function word other than
// "of", or a verb whose object a determiner opens ("which branch did we …",
// "which topic receives the events"; not "what table of contents", "what
// domain logic belongs", "which index.html"). Alone it is no question for
// one: "in this repo" is the project. A Korean noun heads its phrase with
// its particle, or at the question's end ("어떤 브랜치에", not "어떤 도메인
// 로직이").
func namedAsked(words []string, i int, fw funcwords.Set, romance bool) bool {
	function := func(w string) bool { return fw.Has(w) || funcwords.EnglishMore(w) }
	switch w := words[i]; {
	case w >= "\uac00":
		if stripParticle(w) == w && i+1 < len(words) {
			return false
		}
	case i+1 == len(words):
	case of(words[i+1], romance):
		return false
	case !function(words[i+1]) && !determiners().Has(at(words, i+2)):
		return false
	}
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if which(words[k], romance) {
			return true
		}
		if function(words[k]) {
			return false
		}
	}
	return false
}

// of reports a word saying "of" ("the version of X"; "la versión de X",
// "la versione di X" in a Romance text, where English's "do" and "da" are
// Portuguese's "of the").
func of(w string, romance bool) bool {
	switch w {
	case "of":
		return true
	case "de", "del", "di", "do", "da", "du":
		return romance
	}
	return false
}

// Values lists the names a role's tools go by, for finding statements that
// fill it; nil for a role whose values are shapes (ports, regions, paths).
func Values(role string) []string {
	for _, r := range roleTable {
		if r.role != role {
			continue
		}
		var out []string
		for _, item := range strings.Split(r.tools, "|") {
			for _, n := range strings.Split(item, ",") {
				if n = strings.TrimPrefix(n, "="); n != "" {
					out = append(out, n)
				}
			}
		}
		return out
	}
	return nil
}

// Mentions reports whether text names anything that could fill role, a
// cheap test before Parse: a tool's name, or for a shape role a word that
// stands next to its values.
func Mentions(text, role string) bool {
	lower := strings.ToLower(text)
	for _, w := range Words(role) {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return strings.HasPrefix(role, "version:") || role == "time" || role == "path"
}

// shapeWords are words that stand next to a value of a role whose values are
// shapes, for finding the statements that give one.
var shapeWords = map[string][]string{
	"port":   {"port", "listens", "localhost"},
	"region": {"region", "west", "east", "central", "northeast", "southeast", "northwest", "southwest", "리전"},
	// An IPv4 address is found by its first parts, as the index splits it:
	// the private ranges a project's hosts and containers use.
	"address": {"192", "172", "168"},
	// A duration is found by the words that say what it sets; the number
	// itself is in every log.
	"interval":     {"every", "interval", "poll", "polling", "polls", "hourly", "daily", "cron"},
	"delay":        {"delay", "delays", "backoff", "sleep", "throttle", "throttling"},
	"request rate": {"per minute", "per second", "per hour", "rate limit", "requests"},
	"timeout":      {"timeout", "timeouts"},
	"retries":      {"retries", "retry", "attempts"},
}

// Words lists what a statement filling a role says: its tools' names, or for
// a role whose values are shapes (a port, a region) the words naming it.
func Words(role string) []string {
	if vs := Values(role); len(vs) > 0 {
		return vs
	}
	if p, ok := strings.CutPrefix(role, "version:"); ok {
		if p == "" {
			return nil // AnyVersion: no word names it
		}
		return []string{p}
	}
	return slices.Concat(shapeWords[role], askWords()[role], namingNouns()[role])
}

// namingNouns are, for each role of namedNouns, the nouns that name it
// ("repo", "repository"): a statement giving an identifier of the role names
// it with one ("the blog-content repository").
var namingNouns = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for noun, role := range namedNouns {
		m[role] = append(m[role], noun)
	}
	for _, ns := range m {
		slices.Sort(ns) // maps iterate in any order; Words answers the same every time
	}
	return m
})

// ipRE matches an IPv4 address, with its port if it has one.
var ipRE = lazyregexp.New(`\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?::\d{1,5})?\b`)

// addresses returns the IPv4 addresses a text gives: the values of the
// "address" role, which Parse leaves to the numbers' other readings.
func addresses(text string) []string { return ipRE.FindAllString(text, -1) }

// envVarRE matches an environment variable's name as a shell, a .env file
// or process.env writes it: upper-case words joined by underscores, each
// opening with a letter ("CONTENT_REPO_OWNER", "AWS_S3_BUCKET"; not
// "HTTP_200", "UTF_8"). One word alone ("PORT", "HOME") is as often an
// acronym or a heading's shout.
var envVarRE = lazyregexp.New(`\b[A-Z][A-Z0-9]*(?:_[A-Z][A-Z0-9]*)+\b`)

// envContextRE matches a name where only an environment variable stands:
// exported, expanded by Windows ("%APPDATA%"), read by a program
// (process.env.PORT, os.environ["PORT"], os.Getenv("PORT"), ENV["PORT"]),
// of any case; expanded by a shell ("$PORT", "${HOME}") or set on a line
// of its own as a .env file does ("PORT=3000"), upper-case, as a shell's
// own variables and a template's "${user}" are not.
var envContextRE = lazyregexp.New(`(?m)(?:\bexport\s+|\bprocess\.env\.|\bos\.environ(?:\.get\(|\[)["']|\bos\.Getenv\("|\bENV\[["']|%)([A-Za-z_][A-Za-z0-9_]*)|\$\{?([A-Z][A-Z0-9_]*)\b|^[+\- ]*([A-Z][A-Z0-9_]*)=`)

// envVars returns the environment variables' names a text gives: the
// values of the "env var" role, told by their shape alone (a constant's
// name looks the same, and answers "which variable" as well): upper-case
// words joined by underscores anywhere, and a name of any shape where
// only an environment variable stands (envContextRE).
func envVars(text string) []string {
	out := envVarRE.FindAllString(text, -1)
	for _, m := range envContextRE.FindAllStringSubmatchIndex(text, -1) {
		if m[2] >= 0 && text[m[0]] == '%' && !strings.HasPrefix(text[m[3]:], "%") {
			continue // "%d", "50%": Windows closes the name with a second "%"
		}
		name := ""
		for g := 1; g <= 3 && name == ""; g++ {
			if m[2*g] >= 0 {
				name = text[m[2*g]:m[2*g+1]]
			}
		}
		if name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// shapeRole is a role told by its shape alone, which Parse leaves unread:
// find gives the values a text holds, and everywhere marks one whose
// values every project's output holds (any code or config names an
// environment variable, any shell run states a command; an IPv4 address
// says more of what it is about).
type shapeRole struct {
	find       func(string) []string
	everywhere bool
}

// shapeRoles are the roles found by their shape.
var shapeRoles = map[string]shapeRole{
	"address": {find: addresses},
	"env var": {find: envVars, everywhere: true},
	"command": {find: shellCommand, everywhere: true},
}

// ShapeValues returns, for a role found by its shape (shapeRoles), the
// values text gives, and true; for any other role, nil and false.
func ShapeValues(role, text string) ([]string, bool) {
	if r, ok := shapeRoles[role]; ok {
		return r.find(text), true
	}
	return nil, false
}

// ByShape reports whether a role is found by its shape (ShapeValues), not
// parsed: no claim of Parse's ever has it.
func ByShape(role string) bool {
	_, ok := shapeRoles[role]
	return ok
}

// Everywhere reports a role found by its shape whose values every
// project's output holds (shapeRole.everywhere): a statement of one says
// little of what a question is about.
func Everywhere(role string) bool { return shapeRoles[role].everywhere }

// shellCommand is the command of a shell run as the store keeps it, its
// first line "Bash: <command>", or nil for any other text: a command a
// question asks for ("what command starts the backend?") is one that ran.
func shellCommand(text string) []string {
	line, _, _ := strings.Cut(text, "\n")
	cmd, ok := strings.CutPrefix(line, "Bash: ")
	if cmd = strings.TrimSpace(strings.TrimSuffix(cmd, " (error)")); !ok || cmd == "" || cmd == "(error)" {
		return nil
	}
	return []string{cmd}
}

// Shape reports whether a role's values are shapes (a port, a path, a
// region, a duration) rather than named tools: one project has many of them,
// for different things.
func Shape(role string) bool { return genericRoles[role] }

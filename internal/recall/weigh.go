package recall

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/latin"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
)

// concept is one thing a prompt asks about, written one or more ways: a word
// ("jobs"), a Korean word with and without its particle ("토큰을", "토큰"), or an
// identifier written without separators ("userid" for userId).
type concept struct {
	forms  []string // as Terms returns them: lower-case
	keys   []string // as the index stores them: porter stems, or "prefix*" for other scripts
	weight float64  // inverse document frequency in the store
	glued  bool     // an identifier glued from its parts, which are concepts too
	// parts are the words of a hyphenated compound of plain words whose
	// glued form this concept is ("spool-facing"): see joinCompounds.
	parts []string
	// identParts are the words a glued identifier is made of ("user",
	// "id" of userId; terms' glued).
	identParts []string
	// whole is the glued form of the identifier this word is a part of
	// ("outreachiq" for "outreach" of "OutreachIQ"; terms' partOf), and
	// wholeWritten marks one the store holds, glued or its words in a row
	// ("user_id", "user.id"; weigh).
	whole        string
	wholeWritten bool
	df           int // documents holding it, the prompt's own session's turns left out
	// said marks a word the session's own turns hold: weighed as the
	// project's count says, and still searched for (plan), since the
	// memories may say it.
	said bool
	// loans are the English words a Hangul word may be a loanword of,
	// likeliest first (loanCandidates); termCounts.loanwords makes the one
	// the store holds most a form.
	loans []loan
	// foreign marks a word of a prompt whose function words say it is in
	// another language than English (see foreignUnseenWeight).
	foreign bool
	// genericGlosses are the keys of the English words a dictionary
	// translates the word by (withGlosses) that are generic coding words:
	// matched by one, an item is as specific as an English prompt's
	// generic word makes it (coverage).
	genericGlosses []string
	// glosses are the keys of all the English words withGlosses added,
	// generic or not: the senses a dictionary gives the word (senseShare).
	// glossSynonyms are the keys withSynonyms added for a gloss's synonym
	// group ("photo" beside "picture"): another spelling of a sense, no
	// sense of its own. Neither holds a key of the word's own.
	glosses, glossSynonyms []string
	// specific is the weight the concept adds to an item's specificity: its
	// weight in units of the rarest possible word's, 0 for a generic word.
	specific float64
}

// concepts groups a prompt's terms into concepts: a Korean word and its
// particle-less stem are one concept (Terms gives the word, then its stem).
// The words of a prompt in another language than English are also searched
// by their English glosses from dict (nil: none).
func concepts(prompt string, dict *glosses.Dict) []concept {
	ts, glued, compounds, partOf := terms(prompt)
	var out []concept
	stemOf := map[string]int{} // particle-less stem -> the concept of its word
	for _, t := range ts {
		if i, ok := stemOf[t]; ok {
			out[i].forms = append(out[i].forms, t)
			out[i].keys = append(out[i].keys, indexKey(t))
			continue
		}
		if s := stripParticle(t); s != t {
			stemOf[s] = len(out)
		}
		out = append(out, concept{forms: []string{t}, keys: []string{indexKey(t)}, glued: glued[t] != nil, identParts: glued[t], parts: compounds[t], whole: partOf[t]})
	}
	stops := stopsFor(prompt)
	for i := range out {
		// The last form is the word without its particle, when it has one.
		base := out[i].forms[len(out[i].forms)-1]
		if p := hangulPrefix(base); p != "" {
			out[i].forms = append(out[i].forms, p)
			out[i].keys = append(out[i].keys, p)
		}
		out[i].loans = loanCandidates(base, dict, stops)
	}
	out = unspacedWords(out, prompt, stops, dict)
	if langs := stops.fw.Languages(); len(langs) > 1 {
		for i := range out {
			if p := cognatePrefix(out[i].forms[0]); p != "" {
				out[i].forms = append(out[i].forms, p)
				out[i].keys = append(out[i].keys, p)
				if r, _ := utf8.DecodeRuneInString(out[i].forms[0]); unicode.Is(unicode.Cyrillic, r) {
					if e := englishSpelling(p); e != p {
						out[i].forms = append(out[i].forms, e)
						out[i].keys = append(out[i].keys, e)
					}
				}
			}
			out[i] = withGlosses(out[i], langs, stops, dict)
			out[i].foreign = true
		}
	}
	// A word in kanji or kana weighs as another language's unseen word
	// when the store never wrote it (foreignUnseenWeight), whichever
	// languages the function words read: Japanese puts no space between
	// words, so such a "word" is a phrase the store rarely holds whole,
	// even where its sessions were in Japanese, and weighed as an unseen
	// name it outweighed the names the prompt shares with the store.
	for i := range out {
		out[i].foreign = out[i].foreign || strings.ContainsFunc(out[i].forms[0], isKanjiKana)
	}
	return mergeAlike(withStatusCodes(withSynonyms(out), prompt))
}

// unspacedWords reads each concept of cs that is a run of kanji and kana
// (words keeps one whole, Japanese and Chinese writing no space between
// words) as the dictionary's words it is made of (glosses.Dict.Words), each
// a concept of its own searched by its English glosses too: "音節ハイライト
// で" is "音節" (syllable) and "ハイライト" (highlight), "烧制的温度阈值" is
// "烧制" (fire), "温度" (temperature) and "阈值" (threshold), which a session
// held in English wrote, where the run is a phrase no session wrote whole.
// A prompt written with kana is Japanese; one in Han characters alone is
// Chinese, whose words the Japanese dictionary would misread ("把手", a
// handle, in "把手纸放在"), and whose function words ("我们", "怎么") are
// dropped as any language's are (the list writes them simplified only). A
// run the dictionary finds no word in stays as it is; without the
// dictionary, so do all. At most maxTerms concepts, as terms gives.
func unspacedWords(cs []concept, prompt string, stops stopSet, dict *glosses.Dict) []concept {
	lang := "zho"
	if strings.ContainsFunc(prompt, func(r rune) bool { return unicode.In(r, unicode.Hiragana, unicode.Katakana) }) {
		lang = "jpn"
	}
	var out []concept
	for _, c := range cs {
		var ws []string
		if len(c.forms) == 1 && !strings.ContainsFunc(c.forms[0], func(r rune) bool { return !isKanjiKana(r) }) {
			ws = dict.Words(lang, c.forms[0])
		}
		if len(ws) == 0 {
			out = append(out, c)
		}
		for _, w := range ws {
			if lang == "zho" && funcwords.In("zho", w) {
				continue
			}
			out = append(out, withGlosses(concept{forms: []string{w}, keys: []string{indexKey(w)}}, []string{lang}, stops, dict))
		}
		if len(out) >= maxTerms {
			return out[:maxTerms]
		}
	}
	return out
}

// mergeAlike makes one concept of two prompt words the index reads alike:
// one stem ("paging" and "page"), one synonym group ("db" and "database"),
// or a Korean word with and without its particle ("토큰" and "토큰을"),
// whichever comes first. Counted twice, the one thing would weigh double
// in the share of the prompt an item covers, and an item naming it once
// would cover half of what it does.
func mergeAlike(cs []concept) []concept {
	out := cs[:0]
	for _, c := range cs {
		i := slices.IndexFunc(out, func(o concept) bool {
			return slices.Contains(o.keys, c.keys[0]) || slices.Contains(c.keys, o.keys[0])
		})
		if i < 0 {
			out = append(out, c)
			continue
		}
		out[i] = joinConcepts(out[i], c)
	}
	return out
}

// joinConcepts is one concept of a's and b's words (mergeAlike, and a
// compound's words: joinCompounds). Its first word says how specific it is
// (weigh), so a generic word leads only when both are ("db" with
// "database" weighs as "db"). Every spelling stays, its key repeated if
// need be: a compound, an acronym and an excerpt look the prompt's words
// up by form. A plain word is no glued identifier, which is dropped when
// no text holds it.
func joinConcepts(a, b concept) concept {
	if isGeneric(a.forms[0]) && !isGeneric(b.forms[0]) {
		a, b = b, a
	}
	ownA, ownB := a, b // as they come: own reads their keys and glosses
	for k, f := range b.forms {
		if !slices.Contains(a.forms, f) {
			a.forms = append(a.forms, f)
			a.keys = append(a.keys, b.keys[k])
		}
	}
	for _, l := range b.loans {
		if !slices.ContainsFunc(a.loans, func(o loan) bool { return o.word == l.word }) {
			a.loans = append(a.loans, l)
		}
	}
	a.df = max(a.df, b.df)
	a.glued = a.glued && b.glued
	a.genericGlosses = append(a.genericGlosses, b.genericGlosses...)
	// A key either word has of its own is no translation of the two
	// ("fly" in "Fly で揚げる"), and a translation both have is one sense.
	own := func(k string) bool { return ownA.own(k) || ownB.own(k) }
	a.glosses = slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(append(a.glosses, b.glosses...)))), own)
	a.glossSynonyms = slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(append(a.glossSynonyms, b.glossSynonyms...)))), own)
	return a
}

// maxGlosses caps the English words a word of another language is also
// searched by: a verb of many senses ("tirar": fire, shoot, drag, pull, …)
// would otherwise bring a dozen.
const maxGlosses = 8

// withGlosses adds to concept c, a word of a prompt in languages langs
// besides English, the English words a dictionary of one of them translates
// it by (dict): a question asked in Spanish about a session held
// in English shares its concepts, not its words, and the cognates' prefix
// bridges only the words that look alike ("llave" is "key"). Each is one
// more key of the concept, whose weight is its commonest key's, so a word
// translated by a common English word counts little. An English function
// word a gloss may be is no key.
func withGlosses(c concept, langs []string, stops stopSet, dict *glosses.Dict) concept {
	n := 0
	for _, lang := range langs {
		for _, g := range dict.English(lang, c.forms[0]) {
			k := indexKey(g)
			if n == maxGlosses || stops.has(g) || slices.Contains(c.keys, k) {
				continue
			}
			n++
			c.forms = append(c.forms, g)
			c.keys = append(c.keys, k)
			c.glosses = append(c.glosses, k)
			if isGeneric(g) {
				c.genericGlosses = append(c.genericGlosses, k)
			}
		}
	}
	return c
}

// cognatePrefix is the prefix a Latin-script word of a prompt in another
// language than English is also searched by: its first letters, all but the
// last two and at most six ("pronunciación" pronun*, "errores" error*,
// "editar" edit*, "colores" color*). Porter stems English only, and a
// conversation held in English about a question asked in Spanish, Italian or
// Portuguese shares the question's cognates, not its words: their common
// part is their start, and the endings that differ (-ción and -tion, -ar and
// -ing, -es and -s) are at most a few letters past it. A prefix that matches
// much gets the low weight any common word gets. "" for a shorter word or
// another script. A Russian word has its own prefix (russianPrefix).
func cognatePrefix(w string) string {
	w = latin.Fold(w)
	if r, _ := utf8.DecodeRuneInString(w); unicode.Is(unicode.Cyrillic, r) {
		return russianPrefix(w)
	}
	if !isASCII(w) || len(w) < 6 || strings.ContainsAny(w, "0123456789") {
		return ""
	}
	return w[:min(len(w)-2, 6)] + "*"
}

// russianEndings are the case endings of Russian nouns, longest first.
var russianEndings = []string{"ами", "ями", "ах", "ях", "ов", "ев", "ом", "ем", "ам", "ям", "ей", "а", "я", "ы", "и", "у", "ю", "е"}

// russianPrefix is the prefix a Russian word of six letters or more in
// Latin letters (latinize) is searched by: its loanwords are English's
// ("адаптер" adapter, "принтер" printer). Six letters of a Latin word's start
// leave its ending to differ, but a Russian loanword takes its endings
// after the whole borrowed stem, and a prefix cut inside that stem finds
// English words it was never borrowed from ("ресторан", restaurant, is no
// "restore"). So the prefix is the stem: the word without its case ending,
// a "-ция" (-tion) noun up to its "т", a verb in "-ировать" (-ate, -ize)
// up to the "ир"; without the stem's last letter, where the two spellings
// part most ("сервис" servi*, service), unless a verb's suffix was cut or
// that would leave four letters ("портов" port*): a prefix of four letters
// is kept only as the whole stem, for four letters cut from a longer one
// start many English words ("полиция" is no "policy"). "" for a shorter
// word or stem, or a letter of no Russian table.
func russianPrefix(w string) string {
	l := latinize(w)
	if l == w || len(l) < 6 {
		return ""
	}
	rs := []rune(strings.ToLower(w))
	for _, e := range russianEndings {
		if n := len([]rune(e)); len(rs)-n >= 4 && strings.HasSuffix(string(rs), e) {
			rs = rs[:len(rs)-n]
			break
		}
	}
	stem, cut, tion := string(rs), false, false
	if t, ok := strings.CutSuffix(stem, "ци"); ok {
		stem, tion = t+"т", true
	} else if k := strings.LastIndex(stem, "ир"); k >= 0 && utf8.RuneCountInString(stem[:k]) >= 4 &&
		(strings.HasPrefix(stem[k:], "ирова") || strings.HasPrefix(stem[k:], "иру")) {
		stem, cut = stem[:k], true
	}
	p := latinize(stem)
	if !cut && (len(p) > 5 || tion || strings.HasSuffix(stem, "ь")) {
		p = p[:len(p)-1]
	}
	if len(p) < 4 || len(p) == 4 && p != latinize(stem) {
		return ""
	}
	return p + "*"
}

// englishSpelling is a Russian loanword's Latin prefix (russianPrefix) as
// the English word it was borrowed from is spelled: English writes "c" for
// most of what Russian writes "к" ("клиент" client, "конфиг" config,
// "скрипт" script, "архив" archive) and "x" for "кс" ("экспорт" export,
// "контекст" context). The prefix as latinized stays a key too: "kafka",
// "kotlin", "kubectl" keep their "k".
func englishSpelling(p string) string {
	return strings.ReplaceAll(strings.ReplaceAll(p, "ks", "x"), "k", "c")
}

// cyrillicLatin spells each Russian letter in Latin as English loanwords are
// transliterated (ISO 9's simpler cousins: "адаптер" adapter, "принтер"
// printer, "сервер" server); the soft and hard signs are not written.
var cyrillicLatin = map[rune]string{
	'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "e", 'ж': "zh", 'з': "z", 'и': "i", 'й': "y",
	'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t", 'у': "u", 'ф': "f",
	'х': "kh", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "shch", 'ъ': "", 'ы': "y", 'ь': "", 'э': "e", 'ю': "yu", 'я': "ya",
}

// latinize is a Russian word written in Latin letters (cyrillicLatin), so
// that the prefix of a loanword finds the English word it was borrowed
// from: Russian writes "сервер", "адаптер", "принтер" for server, adapter,
// printer, and a session held in English says those. A word with a letter
// of no Russian table is returned as it is.
func latinize(w string) string {
	var b strings.Builder
	for _, r := range w {
		l, ok := cyrillicLatin[unicode.ToLower(r)]
		if !ok {
			return w
		}
		b.WriteString(l)
	}
	return b.String()
}

// hangulPrefix is the prefix a Korean word of three syllables or more is
// also searched by: its first two ("완료하면" 완료*, "설정하는" 설정*). Korean
// writes a word and its endings as one token, and the index keeps the
// token whole: a verbal noun takes the endings of 하다 ("완료하면",
// "완료했고", "완료시"), a verb its tense and mood, so the forms a prompt and a
// session use of one word share only their start. Most Korean content words
// are two syllables (the Sino-Korean nouns), and their first two syllables
// are the part every form keeps; matching on it is what IR does for such
// scripts (Lucene's CJK analyzer indexes overlapping two-character
// sequences). Like a cognate's prefix it is weighed by its own document
// frequency, so a prefix that matches much counts little. "" for a shorter
// word or another script.
func hangulPrefix(w string) string {
	rs := []rune(w)
	if len(rs) < 3 || !unicode.Is(unicode.Hangul, rs[0]) || !unicode.Is(unicode.Hangul, rs[1]) {
		return ""
	}
	return string(rs[:2]) + "*"
}

// indexKey is how the full-text index stores a query word: the porter stem of
// an ASCII word, a prefix of anything else (Korean particles and the
// inflections of other scripts are attached to the word).
func indexKey(t string) string {
	if t = latin.Fold(t); isASCII(t) {
		return stem(t)
	}
	return cyrillicStem(t) + "*"
}

// cyrillicEndings are Russian case and number endings, longest first.
var cyrillicEndings = []string{"ями", "ами", "ого", "его", "ему", "ому", "ыми", "ими", "иях", "ах", "ях", "ов", "ев", "ей",
	"ой", "ий", "ый", "ая", "яя", "ое", "ее", "ые", "ие", "ую", "юю", "ом", "ем", "ам", "ям", "а", "я", "о", "е", "ы", "и", "у", "ю", "ь"}

// cyrillicStem cuts a Russian noun's or adjective's ending, so that the
// prefix it is searched by finds the word in any case ("склада" finds
// "склад", "складом"); the index keeps Russian words whole. A stem keeps at
// least four letters; other scripts are returned as they are.
func cyrillicStem(w string) string {
	r, _ := utf8.DecodeRuneInString(w)
	if !unicode.Is(unicode.Cyrillic, r) {
		return w
	}
	for _, e := range cyrillicEndings {
		if s, ok := strings.CutSuffix(w, e); ok && utf8.RuneCountInString(s) >= 4 {
			return s
		}
	}
	return w
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// oursRE finds a prompt that asks about the project's own ways and history
// ("how do we…", "our…", "last time", "this repo", "remind me"; in Korean
// and Russian foreignOursRE: "우리", "이 프로젝트", "мы", "наш", "в этом
// проекте" and "напомни"): its generic words then say something about the
// project too.
var oursRE = lazyregexp.New(`(?i)\b(we|we've|we're|we'd|our|ours|us|last time|remind me|this (project|repo|codebase))\b`)

// machineRE finds the user's machine named, with the preposition before it
// and the word after it (namesMachine).
var machineRE = lazyregexp.New(`(?i)(?:\b(on|in|at|from)\s+)?\b(?:this|my) (?:machine|computer|laptop)\b(?:\s*([A-Za-z]+))?`)

// foreignOursRE is oursRE's Korean, Russian, Chinese and Japanese words
// ("我们", we; "这个项目", this project; "上次", last time; "うちの", our;
// "このプロジェクト"; "前回", last time), read only in a prompt
// with letters beyond ASCII (saysOurs): a hook process compiles an
// expression the first time it uses it, and an English prompt, most of
// them, need not pay for these Unicode classes.
// "이" is "this" only as a word of its own: glued to a noun it is the
// subject particle ("결과물이 저장소에", the output … the repo).
var foreignOursRE = lazyregexp.New(`(?i)напомни|우리|저번|지난번|我们|我們|咱们|咱們|这个项目|這個項目|本项目|本項目|上次|うちの|私たち|僕たち|我々|このプロジェクト|このリポジトリ|前回|(^|[^\p{Hangul}])이 (프로젝트|저장소|레포|코드베이스)|(^|[^\p{L}])(мы|нас|нам|нами|наш|наша|наше|наши|нашего|нашей|нашем|нашему|нашу|наших|нашим|нашими|(?:этот|этом|этого|этому|этим)\s+(?:проект|проекте|проекта|проекту|проектом|репо|репозиторий|репозитории|репозитория|репозиторию|репозиторием))([^\p{L}]|$)`)

// saysOurs reports a prompt that speaks of the project's own ways and
// history (oursRE, foreignOursRE), or of the machine it ran on
// (namesMachine).
func saysOurs(prompt string) bool {
	return oursRE.MatchString(prompt) || namesMachine(prompt) || !isASCII(prompt) && foreignOursRE.MatchString(prompt)
}

// namesMachine reports a prompt naming the user's machine as a place
// (machineRE): where the project's sessions ran, and their tools said what
// it has ("which gh version do i have on this machine?"). A place is
// after "on", "in", "at" or "from", or ends its phrase (nothing after it,
// or a function word); a content word after it makes a compound ("my
// machine learning model", "this computer vision task").
func namesMachine(prompt string) bool {
	for _, m := range machineRE.FindAllStringSubmatch(prompt, -1) {
		if next := strings.ToLower(m[2]); m[1] != "" || next == "" || stopsFor(prompt).has(next) {
			return true
		}
	}
	return false
}

// projectRE finds the project named as the thing asked about: "this
// site", "the repo", "the app's data". The noun is written in lower case
// and is followed by what ends a noun phrase (namesProject): "the app
// router", "the repository pattern", "the site-packages", "the App Store"
// name other things.
var projectRE = lazyregexp.New(`(?:^|[^\p{L}\p{N}_])(?i:this|the)\s+(project|repository|repo|codebase|app|website|site)([-_./]?)(\s*)(\S*)`)

// namesProject reports a prompt that names the project as what it asks
// about: a question about it asks how the project stands or what it did,
// as "we" does (oursRE). What follows the noun ends its phrase: the end of
// a sentence or of the prompt, a mark, a possessive, an adverb or a
// function word ("the site locally", "the repo where", "this site on").
func namesProject(prompt string) bool {
	var stops *stopSet // read once, and only for a noun with a word after it
	for _, m := range projectRE.FindAllStringSubmatch(prompt, -1) {
		sep, space, next := m[2], m[3], m[4]
		r, _ := utf8.DecodeRuneInString(next)
		switch {
		case sep != "" && space == "" && next != "":
			continue // "the site-packages", "the app.py"
		case sep != "" || next == "" || !unicode.IsLetter(r) && !unicode.IsDigit(r):
			return true // "the site.", "the repo", "the app's", "the site?"
		case space == "":
			continue // "the apps"
		}
		if stops == nil {
			s := stopsOf(lowerRuns(prompt))
			stops = &s
		}
		if w := lowerRuns(next)[0]; strings.HasSuffix(w, "ly") || stops.has(w) {
			return true
		}
	}
	return false
}

// unseenWeight is the share of a rare word's weight that a word the store
// has never seen keeps. Such a word cannot tell stored items apart; counted
// in full it made every paraphrased follow-up ("where do background jobs get
// enqueued?") look unrelated. 0.3 was best on the dev sets (real-session
// follow-ups 15 vs 14 of 33, reversals 32 vs 29 of 32, unrelated prompts
// unchanged at 1 of 16).
const unseenWeight = 0.3

// unseenEverydayFloor is the least share of an unseen word's weight that an
// everyday English word keeps (everydayShare). A word the store never saw
// but every reader knows ("segment", "front", "look") is how the prompt is
// put, not what it is about: weighed like an unseen name, it outweighed
// the project's own rare words the prompt shares, and the prompt read as
// about something never discussed. A word no dictionary knows keeps
// unseenWeight in full: that one may well name something new. The floor
// keeps such a word from counting for nothing, which let a prompt made
// only of everyday words match any one of its words. Results were the
// same at 0 and 0.5 on the sets it was checked on (docs/recall.md, pass 74).
const unseenEverydayFloor = 0.25

// foreignUnseenWeight is the share of an unseen word's weight that a word
// keeps when it is of a prompt in another language than English and neither
// it, its cognate prefix nor any of its translations is in the store. In an
// English prompt such a word may say the prompt is about something the
// project never discussed; in a question asked in Spanish or Russian about a
// session held in English it is as often a word no dictionary bridges (a
// verb's inflection, a word missing from a small dictionary), and at an
// unseen word's weight three of them outweighed the two concepts that did
// match, so the answer matched too little of the prompt. Chosen on the
// fresh sets FA and FR (0.1, 0.2, 0.35 answer the same; 0.5 answers one
// fewer; 0.01 lets an unrelated Russian how-to question through).
const foreignUnseenWeight = 0.2

// negatedAux are the negated auxiliaries as the tokenizer leaves them
// ("couldn't" is "couldn" and "t"), which no function word list holds. One
// the store never wrote is dropped like a glued form no text contains: kept
// at an unseen word's weight it diluted the coverage of every item, and "why
// couldn't the build load the plugin?" matched too little of itself to be
// answered. One the store wrote stays a word: "the worker couldn't
// bind the socket" answers "why couldn't the worker start?".
var negatedAux = lazywords.Set(`ain aren couldn didn doesn don hadn hasn haven isn mightn mustn needn shan shouldn wasn weren won wouldn`)

// genericWeight is the share of its weight a generic word keeps.
const genericWeight = 0.3

// termCounts are the counts of words TermDocs gave one prompt's recall:
// the feedback's line shares words with the prompt and with the items it
// matched, and each is counted once.
type termCounts struct {
	db      *store.DB
	session string // the prompt's own session, whose turns TermDocs leaves out
	total   int    // TermDocs's estimate at the first count
	asked   bool   // total is set
	words   map[string]termCount
}

// termCount is what TermDocs said of one word.
type termCount struct {
	docs int  // the project's events holding it
	said bool // the session's own turns hold it
}

func newTermCounts(db *store.DB, session string) *termCounts {
	return &termCounts{db: db, session: session, words: map[string]termCount{}}
}

// count returns TermDocs's counts of words and its estimate of how many
// events there are, asking the store only for the words not counted yet.
func (tc *termCounts) count(ctx context.Context, words []string) (docs []int, total int, err error) {
	var ask []string
	for _, w := range words {
		if _, ok := tc.words[w]; !ok && !slices.Contains(ask, w) {
			ask = append(ask, w)
		}
	}
	if len(ask) > 0 || !tc.asked {
		got, said, n, err := tc.db.TermDocs(ctx, ask, tc.session)
		if err != nil {
			return nil, 0, err
		}
		if !tc.asked {
			tc.total, tc.asked = n, true
		}
		for i, w := range ask {
			tc.words[w] = termCount{got[i], said[i]}
		}
	}
	docs = make([]int, len(words))
	for i, w := range words {
		docs[i] = tc.words[w].docs
	}
	return docs, tc.total, nil
}

// weigh sets each concept's weight to its inverse document frequency in the
// store (BM25's form, always positive). A concept the store has never seen
// keeps unseenWeight of a word seen once: a prompt about something never
// discussed should match less, but a paraphrase's new words should not sink
// it; one of a prompt in another language keeps less (foreignUnseenWeight). Generic words keep genericWeight. An identifier form no text contains
// ("shopapi" for shop-api) is dropped, its parts carry it, as one
// concept when it is a compound the project never wrote (joinCompounds);
// so is a compound's glued form the store holds in fewer messages than its
// words as a phrase ("lightmode", "light mode");
// so is a part no text contains of one the project writes whole ("iq" of
// OutreachIQ), which the whole carries.
// total is TermDocs's estimate of how many events the store holds.
// Words tc counted before are not counted again.
func (tc *termCounts) weigh(ctx context.Context, cs []concept, ours bool) (_ []concept, total int, err error) {
	// The index counts a word the way it matches it: a Latin word by the
	// index's own stem, other scripts' by their prefix key.
	var words []string
	for _, c := range cs {
		for _, k := range c.keys {
			if strings.HasSuffix(k, "*") {
				words = append(words, k)
			} else {
				// A key two spellings share (mergeAlike) is counted once,
				// by its first.
				words = append(words, c.forms[slices.Index(c.keys, k)])
			}
		}
	}
	// A compound's words as a phrase: whether the project ever wrote them
	// together (joinCompounds).
	phrases := len(words)
	for _, c := range cs {
		if c.parts != nil {
			words = append(words, strings.Join(c.parts, " "))
		}
	}
	docs, total, err := tc.count(ctx, words)
	if err != nil {
		return nil, 0, err
	}
	n := float64(max(total, 1))
	rarest := math.Log(1 + (n-0.5)/1.5)
	var kept []concept
	held := map[string]bool{}   // the words the store holds, by their first form
	wholes := map[string]bool{} // the identifiers it holds, glued or apart
	k := 0
	for _, c := range cs {
		df, said := 0, false
		for range c.keys {
			df = max(df, docs[k])
			said = said || tc.words[words[k]].said
			k++
		}
		held[c.forms[0]] = df > 0
		written, apart := false, false
		if c.parts != nil {
			written = docs[phrases] > 0
			// The project writes the compound's words apart more often
			// than glued ("light mode" in forty messages, lightMode in
			// one): the glued form is a rare spelling of a common thing,
			// and weighed by its own count it stood for the rarest word
			// of the prompt, which nearly no message holds.
			apart = docs[phrases] > df
			phrases++
		}
		if len(c.identParts) > 1 {
			wholes[c.forms[0]] = df > 0
		}
		if df == 0 && !said && held[c.whole] {
			// A part of an identifier the project writes whole
			// ("OutreachIQ"), never apart: the whole carries it. Kept,
			// it weighed as a word the project never discussed, a
			// share of the prompt no text could cover.
			continue
		}
		if (df == 0 || apart) && !said && (c.glued || negatedAux()[c.forms[0]]) {
			if c.parts != nil && !written {
				kept = append(kept, concept{parts: c.parts}) // joinCompounds joins its parts
			}
			continue
		}
		// A prefix's count can exceed the store's (one message holding
		// "토큰" and "토큰을" counts twice): clamp, so weights stay positive.
		c.df = min(df, max(total, 1))
		c.said = said
		kept = append(kept, c)
	}
	if err := tc.writtenApart(ctx, cs, wholes); err != nil {
		return nil, 0, err
	}
	for i := range kept {
		kept[i].wholeWritten = wholes[kept[i].whole]
	}
	var out []concept
	for _, c := range joinCompounds(kept) {
		df := c.df
		c.weight = math.Log(1 + (n-float64(max(df, 1))+0.5)/(float64(max(df, 1))+0.5))
		if df == 0 {
			c.weight *= unseenWeight
			if c.foreign {
				c.weight *= foreignUnseenWeight
			} else if plainWord(c.forms[0]) {
				c.weight *= max(everydayShare(c.forms[0]), unseenEverydayFloor)
			}
		}
		if ours {
			// A generic word of a prompt about the project's own ways
			// counts (below), by whichever language it is said in.
			c.genericGlosses = nil
		}
		switch {
		case !isGeneric(c.forms[0]) && !duration(c.forms[0]):
			c.specific = c.weight / rarest * codeShare(c)
		case ours:
			// "how do we run the tests": generic words, but about this
			// project's own way of doing it.
			c.weight *= genericWeight
			c.specific = c.weight / rarest
		default:
			c.weight *= genericWeight
		}
		out = append(out, c)
	}
	return out, total, nil
}

// writtenApart marks in wholes each camelCase identifier of cs the store
// never wrote glued but wrote as its words in a row ("max_retries",
// "Next.js" for maxRetries, NextJS): it is the project's name, spelt its
// way. Only one no text holds glued, none of whose counted words the
// store lacks, is asked, in one count: only such a one can be written
// apart, and withUnseenWholes reads it (review 310: a phrase per
// identifier of a pasted stack trace cost a prompt its time).
func (tc *termCounts) writtenApart(ctx context.Context, cs []concept, wholes map[string]bool) error {
	var ask, of []string
	for _, c := range cs {
		w := c.forms[0]
		if len(c.identParts) < 2 || c.parts != nil || wholes[w] {
			continue
		}
		if slices.ContainsFunc(c.identParts, func(p string) bool { n, ok := tc.words[p]; return ok && n.docs == 0 }) {
			continue // a word the store never wrote: nor the phrase (a function word is not counted)
		}
		ask, of = append(ask, strings.Join(c.identParts, " ")), append(of, w)
	}
	if len(ask) == 0 {
		return nil
	}
	docs, _, err := tc.count(ctx, ask)
	if err != nil {
		return err
	}
	for i, w := range of {
		wholes[w] = docs[i] > 0
	}
	return nil
}

// joinCompounds makes the words of each hyphenated compound the project
// never wrote together one concept, written any of its ways: cs holds, for
// each such compound, a concept of its parts alone, where the compound
// stands in the prompt. A compound a prompt coins ("a spool-facing knob", "the
// invoice-side check") describes one thing by its words, and the second
// word is often the vaguest of the prompt ("facing", "side"): as a concept
// of its own it weighed as much as the rarest, in a store that hardly wrote
// it, and no answer holds it. A compound the project wrote ("bucket-level"
// where its text says "bucket-level locking") is a name: its words
// stay concepts each, every one to be matched. The joined concept is as
// common as its commonest word (a concept's documents are its commonest
// form's, as for a synonym).
func joinCompounds(cs []concept) []concept {
	// Each compound's parts are known before any word is read, so a word
	// said before its compound ("the db …, the database-facing loader")
	// joins it as one said after it does.
	owner := map[string]int{} // a part's word -> the index in cs of the compound joining it
	compound := make([]bool, len(cs))
	for i, c := range cs {
		if c.forms == nil {
			compound[i] = true
			for _, p := range c.parts {
				if _, ok := owner[p]; !ok {
					owner[p] = i
				}
			}
		}
	}
	// The words join in the compound's order, so that the lead is the
	// same however the prompt orders them ("the invoice-side check: which
	// side" and "which side … the invoice-side check").
	type joiner struct {
		at int // the word's place among the compound's parts
		c  concept
	}
	joiners := map[int][]joiner{}
	joined := make([]bool, len(cs))
	for i, c := range cs {
		if compound[i] {
			continue // filled by its words, which may come before it
		}
		// A prompt word may be any form of its concept (mergeAlike lets the
		// specific one lead).
		k := slices.IndexFunc(c.forms, func(f string) bool { _, ok := owner[f]; return ok })
		if k < 0 {
			continue
		}
		j := owner[c.forms[k]]
		delete(owner, c.forms[k])
		joined[i] = true
		joiners[j] = append(joiners[j], joiner{slices.Index(cs[j].parts, c.forms[k]), c})
	}
	for j, js := range joiners {
		slices.SortFunc(js, func(a, b joiner) int { return a.at - b.at })
		cs[j] = js[0].c
		for _, w := range js[1:] {
			cs[j] = joinConcepts(cs[j], w.c)
		}
	}
	// A compound whose words were all function words joined none.
	out := cs[:0]
	for i, c := range cs {
		if !joined[i] && c.forms != nil {
			out = append(out, c)
		}
	}
	return out
}

// novel reports a prompt about something the project never spoke of: its
// words rarest in everyday English (wordfreq: an identifier, a product, a
// jargon term, or else its least common plain word) are all words the store
// never saw, in no message and in none of the entries ents found for the
// prompt. A small store has written most everyday words only once or twice,
// so each counts there as specific as a name: a request for a feature never
// discussed, or a question about a library the project does not use,
// matched them in some message and opened the gate. What sets such a prompt
// apart is the word it is about, and that word is the one nothing of the
// project holds; a follow-up's rarest word is the project's own. Only words
// of ASCII letters are read: numbers, and the words of other scripts, have
// no everyday frequency here. A store whose messages hold none of the
// prompt's words tells nothing.
func novel(cs []concept, ents []Item) bool {
	least, seen := math.Inf(1), false
	for _, c := range cs {
		if everydayCandidate(c) {
			least = min(least, everydayZipf(c.forms[0]))
		}
		seen = seen || c.df > 0
	}
	if math.IsInf(least, 1) || !seen {
		return false
	}
	var rare []concept
	for _, c := range cs {
		if everydayCandidate(c) && everydayZipf(c.forms[0]) == least {
			if c.df > 0 {
				return false
			}
			rare = append(rare, c)
		}
	}
	// An entry's title and body are counted nowhere: its words are the
	// project's too.
	for _, e := range ents {
		if cov, _ := coverage(rare, keysOf(entryText(e.entry))); cov > 0 {
			return false
		}
	}
	return true
}

// unseenKind is which words namesUnseenTerm counts as terms.
type unseenKind int

const (
	// rareWord: any word rare in everyday English, as a how-to question
	// names what it asks a manual about.
	rareWord unseenKind = iota
	// unknownWord: only a word no English table knows, a name ("vitest",
	// "crashlytics"), as a request for new work names the tool it brings;
	// an English word it never wrote ("exports"), everyday or of code's
	// English (codeWord: "middleware"), is how it says what to do with the
	// project's own things.
	unknownWord
	// writtenName: only a word the prompt writes as a name (writtenAsName:
	// "Traefik", "Storybook", "hooksPath"). Words of the English of code
	// the everyday table lacks ("printable", "api", "JWT") are no names.
	// An identifier the prompt glues from parts no text writes
	// (withUnseenWholes: "core.hooksPath") is one, though the store holds
	// its parts.
	writtenName
	// newTerm: a rareWord that is not among the commonest words of
	// writing about programming (commonCodeFrom: "api", "handler"), as a
	// question how "we" do something names the new work it asks about
	// (howWe): a word that common the project has said in other words
	// where it never wrote it, and it names no new thing.
	newTerm
	// proposedName: an unknownWord of minProposedName letters or more,
	// or a shorter one the claim tables list ("hono", "deno"), as a
	// proposal names in lower case the tool it would bring ("should we
	// swap Express for fastify?"): chat's shorthand ("tbh", "lgtm",
	// "imo"), which no table holds either, is shorter.
	proposedName
)

// minProposedName is the length from which a word no table knows is read
// as a name in a proposal (proposedName).
const minProposedName = 5

// namesUnseenTerm reports a prompt naming a term the project never wrote: a
// word the prompt writes apart (lowerRuns, as the index reads it: a
// camelCase identifier is one word, and its parts are none) that no
// message, no entry ents found and no turn of the asking session holds,
// rare in everyday English as an identifier is (below everydayFrom:
// "protobuf", "memoize", "sharding") or, for a how-to question (rareWord,
// newTerm), written as a name (writtenAsName: "Playwright", "Sphinx", a
// product named by everyday words; in talk of people and places, "Paris"
// or "Pride" is no product), no generic coding word, and no word
// of the prompt's other languages (glosses.Dict.Knows: Spanish "guardo" is
// a form of "guardar"). Only the languages with a dictionary are asked: a
// Spanish prompt reads as Catalan and Galician too, which have none; a
// Galician prompt's own words ("gardo") are so read as terms, and only
// raise the bar. Where none of the prompt's other languages has a
// dictionary, a word of theirs cannot be told from a term, and none is
// reported, unless the prompt writes them in another script than Latin
// (nonLatinScript: Korean when its function words are read; Russian when
// the plugin is installed without its tables): the words read here are
// ASCII (plainWord), which in such a prompt are English or names ("CORS"
// in a Korean question). A how-to question naming a term is asked of a
// manual: the project has nothing to say of it, and what matched the
// prompt is the stack it shares with the question (its framework, a
// config file), however rare those words are in the store.
//
// kind narrows the terms that count (unseenKind).
func namesUnseenTerm(cs []concept, ents []Item, prompt string, dict *glosses.Dict, kind unseenKind) bool {
	var own map[string]bool
	var langs []string
	var held textKeys // the words of the entries ents found, read once
	howTo := kind == rareWord || kind == newTerm
	if kind == writtenName || howTo {
		cs = withUnseenWholes(cs) // "GraphQL", whose "graph" the store may hold
	}
	for _, c := range cs {
		w := c.forms[0]
		if c.df > 0 || c.said || !everydayCandidate(c) && !digitTerm(w) {
			continue
		}
		// A how-to question's word written as a name (writtenAsName: "con
		// Playwright") is a term whatever its everyday frequency, and none
		// of the prompt's other languages' words, though their dictionary
		// may read it as a form ("playwright" as one of "playa"): the
		// languages with one capitalise no common noun within a sentence.
		name := howTo && writtenAsName(prompt, w)
		if everydayZipf(w) >= everydayFrom && !name ||
			kind == newTerm && wordfreq.Programming(w) >= commonCodeFrom ||
			(kind == unknownWord || kind == proposedName) && (everydayZipf(w) > 0 || codeWord(w)) ||
			kind == proposedName && len(w) < minProposedName && len(claim.RolesOf(w)) == 0 ||
			kind == writtenName && !writtenAsName(prompt, w) {
			continue
		}
		if own == nil {
			own = map[string]bool{}
			for _, r := range lowerRuns(prompt) {
				own[r] = true
			}
			other := false
			for _, l := range stopsFor(prompt).fw.Languages() {
				if l != "eng" {
					other = true
					if dict.Has(l) {
						langs = append(langs, l)
					}
				}
			}
			if other && len(langs) == 0 && !nonLatinScript(prompt) {
				return false
			}
			var b strings.Builder
			for _, e := range ents {
				b.WriteString(entryText(e.entry))
				b.WriteByte('\n')
			}
			held = keysOf(b.String())
		}
		if !own[w] || hasAny(held, c.keys) || !name && slices.ContainsFunc(langs, func(l string) bool { return dict.Knows(l, w) }) {
			continue
		}
		// Of a prompt in a language with a dictionary, a new term is a
		// word English's tables know ("sigterm" in code's) or one written
		// as a name: a lower-case word neither knows is likelier one of
		// the language's forms its dictionary lacks ("dejen", a
		// subjunctive of "dejar") than a name.
		if kind == newTerm && len(langs) > 0 && everydayZipf(w) == 0 && wordfreq.Programming(w) == 0 && !name {
			continue
		}
		return true
	}
	return false
}

// nonLatinScript reports a prompt with a word written in another script
// than Latin (two letters of other scripts in a row: "µs" or "λ" alone is
// a symbol) and no letter of the Latin script beyond ASCII ("é", "ñ",
// "ß"). Its ASCII words are no words of its own language, then, but
// English or names ("Как в pydantic …").
func nonLatinScript(prompt string) bool {
	run, word := 0, false
	for _, r := range prompt {
		switch {
		case r < utf8.RuneSelf || !unicode.IsLetter(r):
			run = 0
		case unicode.Is(unicode.Latin, r):
			return false
		default:
			run++
			word = word || run >= 2
		}
	}
	return word
}

// englishOnly reports a prompt whose function words are English only
// (funcwords): the everyday table novel reads is English.
func englishOnly(prompt string) bool {
	return !slices.ContainsFunc(stopsFor(prompt).fw.Languages(), func(l string) bool { return l != "eng" })
}

// everydayCandidate reports a concept novel weighs by its everyday
// frequency: a plain word, and no generic coding word the store never saw.
// A generic word ("configured", "endpoint") is missing from the everyday
// table as an identifier is, yet the project may have said the same thing
// in other words ("raised the timeout"), so its absence says nothing; the
// store holding it still says the prompt is about the project's things.
func everydayCandidate(c concept) bool {
	return plainWord(c.forms[0]) && (c.df > 0 || !isGeneric(c.forms[0]))
}

// codeFrom is the frequency in writing about programming (wordfreq.
// Programming) from which a word is one of code's English: "endpoint" 4.3,
// "frontend" 4.0; under it the names the documents mention ("react" 3.6,
// "docker" 3.1).
const codeFrom = 4.0

// codeWord reports a word common in writing about programming that no
// table of tools lists: "config", "middleware", "printable" name what code
// does or has, where "django" or "sqlite", common in the documents too,
// name a tool.
func codeWord(w string) bool {
	return wordfreq.Programming(w) >= codeFrom && len(claim.RolesOf(w)) == 0
}

// commonCodeFrom and commonCodeSpan scale how much of its specificity a
// word keeps for how common it is in writing about programming
// (codeShare): all of it up to Zipf 5.7, about once in 2,000 words
// ("handler", "port", "timeout"), none from Zipf 6.7, once in 200 (function
// words; "use", at 6.4, keeps 0.3), in between in proportion ("api", 5.9,
// keeps 0.8; "model", 6.1, 0.6). A word that common is no evidence that a
// prompt is about this project, however rarely a small store has written
// it. Chosen on every set at once (docs/recall.md, pass 89): from 4.5 to
// 5.3 a dev follow-up went unanswered each time (fold B's R079, or one of
// fold A's); from 5.5 or 5.7, over 1 or 2 units, only an off-topic prompt
// changed (A83's InfluxDB port, now answered with nothing), and from 5.5 a
// how-to question about a project's "handler" went unanswered
// (TestHowToNamingAnUnseenTerm).
const commonCodeFrom, commonCodeSpan = 5.7, 1.0

// codeShare is the share of its specificity a prompt's concept keeps for
// how common its word is in writing about programming (commonCodeFrom).
// A tool's name (a claim table lists it), an identifier written as one
// (camelCase, snake_case), a word with digits and a word of another
// language keep all of it: they name a thing, or the table does not count
// them. A prompt's words are read in lower case: "API" is "api".
func codeShare(c concept) float64 {
	w := c.forms[0]
	if c.foreign || len(c.identParts) > 1 || !plainWord(w) || len(claim.RolesOf(w)) > 0 {
		return 1
	}
	return falloff(wordfreq.Programming(w), commonCodeFrom, commonCodeSpan)
}

// everydayZipf is a plain word's everyday frequency (wordfreq.Zipf), the
// highest of its own form and of the base forms its English ending
// suggests: the table holds few inflections ("upload", not "uploads";
// "cache", not "cached"), and a missing inflection would count as rare as
// a name.
func everydayZipf(w string) float64 {
	z := wordfreq.Zipf(w)
	if z > 0 {
		return z
	}
	for _, suf := range [...]struct{ cut, add string }{
		{"ies", "y"}, {"ied", "y"}, {"es", ""}, {"s", ""}, {"ed", ""}, {"ed", "e"}, {"d", ""}, {"ing", ""}, {"ing", "e"},
	} {
		if base, ok := strings.CutSuffix(w, suf.cut); ok && len(base) >= 3 {
			z = max(z, wordfreq.Zipf(base+suf.add))
			if n := len(base); suf.add == "" && n >= 4 && base[n-1] == base[n-2] && (suf.cut == "ed" || suf.cut == "ing") {
				z = max(z, wordfreq.Zipf(base[:n-1])) // "stopped", "running"
			}
		}
	}
	return z
}

// everydayFrom and everydaySpan scale how much of its specificity a word
// keeps for how common it is in everyday English (everydayShare): all of it
// up to Zipf 3, once per million words ("schema", "webhook", every
// identifier), none from Zipf 5 ("front", "money", "water"), in between in
// proportion ("deploy", 3.4, keeps 0.8). Chosen on the fresh sets FA and FR:
// from 2.5 or 3 over 2 units, the same prompts; over 3 units, or from 3.5,
// one or two how-to questions more were answered.
const everydayFrom, everydaySpan = 3.0, 2.0

// everydayShare is the share of its specificity word w keeps for how
// common it is in everyday English (everydayFrom).
func everydayShare(w string) float64 {
	return falloff(wordfreq.Zipf(w), everydayFrom, everydaySpan)
}

// falloff is the share a word keeps for its frequency z: all of it up to
// from, none from from+span, in between in proportion (everydayShare,
// codeShare).
func falloff(z, from, span float64) float64 {
	if z <= from {
		return 1
	}
	return max(0, 1-(z-from)/span)
}

// heaviest is the weight of a prompt's weightiest concept, the weight a
// line stating the value asked counts for (withRole, valueExcerpt,
// statesAsked).
func heaviest(cs []concept) float64 {
	top := 0.0
	for _, c := range cs {
		top = math.Max(top, c.weight)
	}
	return top
}

// plainWord reports a word of lower-case ASCII letters only.
func plainWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return w != ""
}

// digitTerm reports a term of letters with digits inside ("i18n", "k8s",
// "l10n", "e2e"): a name, as rare in everyday English as an identifier.
// Digits at the end name a version or a kind of a word's thing ("python3",
// "base64", "sha256"), and a mix of runs is a hash ("a3f9c21"): none.
func digitTerm(w string) bool {
	i := 0
	for i < len(w) && w[i] >= 'a' && w[i] <= 'z' {
		i++
	}
	j := i
	for j < len(w) && w[j] >= '0' && w[j] <= '9' {
		j++
	}
	k := j
	for k < len(w) && w[k] >= 'a' && w[k] <= 'z' {
		k++
	}
	return i > 0 && j > i && k > j && k == len(w)
}

// duration reports a word written as a number and a unit of time ("3s",
// "250ms"): a measure written many ways ("3 seconds", "3000ms"), the count
// of one spelling no more telling of how rare the thing is than a generic
// word's. Not a plural of an HTTP status ("the 502s", "the 500s"), nor a
// number with "d" or "m", which name other things as often ("a 3D model",
// "1M tokens").
func duration(w string) bool {
	if len(w) == 4 && w[3] == 's' && w[0] >= '1' && w[0] <= '5' && strings.Trim(w[1:3], "0123456789") == "" {
		return false
	}
	if strings.HasSuffix(w, "d") || strings.HasSuffix(w, "m") && !strings.HasSuffix(w, "ms") {
		return false
	}
	return claim.Duration(w) != ""
}

// isGeneric reports whether w is a generic coding word (generic.go), in any
// of its inflections the stemmer joins.
func isGeneric(w string) bool { return genericWords()[w] || genericWords()[stem(w)] }

// textKeys is the set of index keys a stored text contains, computed the way
// the index tokenizes: runs of letters and digits, lower-cased, ASCII words
// stemmed. A prompt builds one for every passage of every candidate, so it
// is a sorted slice rather than a map: the maps were a fifth of the prompt
// path's garbage.
type textKeys struct {
	exact []string // stems of the ASCII words, sorted, each once
	words []string // non-ASCII words, for prefix keys
}

func keysOf(text string) textKeys {
	// A word and the space after it are 8 bytes on average.
	tk := textKeys{exact: make([]string, 0, len(text)/8+1)}
	// A word with a capital, lower-cased (stemLower): as long as the
	// longest word porter stems (stemmed); a longer one is left as it is.
	var lower [64]byte
	// A word is a run of letters and digits. One of ASCII letters and
	// digits, most of what a store holds, is read as a substring of text,
	// lower-cased in a buffer only when it has a capital; one with any
	// other letter or digit is lower-cased (strings.ToLower) and folded
	// (latin.Fold). FuzzKeysOf holds the result to lower-casing the whole
	// text and splitting it by rune.
	for i := 0; i < len(text); {
		j, ascii, upper := i, true, false
		gap := 1 // the width of text[i] when no word starts there
		for j < len(text) {
			c := text[j]
			if c < utf8.RuneSelf {
				if !asciiWordByte[c] {
					break
				}
				upper = upper || 'A' <= c && c <= 'Z'
				j++
				continue
			}
			r, n := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				gap = n
				break
			}
			ascii = false
			j += n
		}
		if j == i {
			i += gap
			continue
		}
		w := text[i:j]
		i = j
		switch {
		case ascii && upper && len(w) <= len(lower):
			tk.exact = append(tk.exact, stemLower(append(lower[:0], w...)))
		case ascii && upper:
			tk.exact = append(tk.exact, stem(strings.ToLower(w)))
		case ascii:
			tk.exact = append(tk.exact, stem(w))
		default:
			if w = latin.Fold(strings.ToLower(w)); isASCII(w) {
				tk.exact = append(tk.exact, stem(w))
			} else {
				tk.words = append(tk.words, w)
			}
		}
	}
	slices.Sort(tk.exact)
	tk.exact = slices.Compact(tk.exact)
	return tk
}

// asciiWordByte marks the ASCII letters and digits: the bytes of a word.
var asciiWordByte = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

func (tk textKeys) has(key string) bool {
	p, prefix := strings.CutSuffix(key, "*")
	if !prefix {
		_, ok := slices.BinarySearch(tk.exact, key)
		return ok
	}
	if isASCII(p) {
		// A cognate's prefix (cognatePrefix): the stems it starts.
		if i, _ := slices.BinarySearch(tk.exact, p); i < len(tk.exact) && strings.HasPrefix(tk.exact[i], p) {
			return true
		}
	}
	for _, w := range tk.words {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// coverage is the share of the prompt's weight a text matches: 1 when it
// contains every concept, near 0 when it holds only common words. Unlike BM25
// it does not grow with the store or the prompt, so one threshold serves
// every prompt. specific is how much of the project's own vocabulary it
// matches, in units of one word seen once: generic words count nothing, so a
// generic question matching a generic message is not taken for a follow-up.
// A concept counts as matched when any of tks holds it (matches).
func coverage(cs []concept, tks ...textKeys) (cov, specific float64) {
	cov, specific, _ = senseCoverage(cs, tks...)
	return cov, specific
}

// senseCoverage is coverage, and beside its specificity the share of it a
// text has by the senses it matches (senseShare): what it opens the gate
// with, while specific ranks it.
func senseCoverage(cs []concept, tks ...textKeys) (cov, specific, sensed float64) {
	var sum, got float64
	for _, c := range cs {
		sum += c.weight
		if matched, specifically := c.matches(tks...); matched {
			got += c.weight
			if specifically {
				specific += c.specific
				sensed += c.specific * c.senseShare(tks)
			}
		}
	}
	if sum <= 0 {
		return 0, 0, 0
	}
	return got / sum, specific, sensed
}

// senseShare is the share of its specificity concept c keeps where tks
// match it: all of it by its own word, 1/√n by one of the n English words
// a dictionary translates it by (withGlosses), which are its senses. A text
// holding one sense holds the one the prompt meant only so often: "揚げる"
// is "raise", "fly" and "launch" (and "deep-fry"), and a project deployed
// on Fly.io says nothing of frying. Not 1/n: how many words a dictionary
// lists for a sense is its editors' choice (Apertium's Spanish table gave
// many words more glosses, and a follow-up asked in Spanish lost the
// match 1/n left it), and a sense is often several near-synonyms
// ("picture", "photograph", "photo", "image").
func (c concept) senseShare(tks []textKeys) float64 {
	if len(c.glosses) < 2 {
		return 1
	}
	for _, k := range c.keys {
		if c.own(k) && hasKey(tks, k) {
			return 1
		}
	}
	return 1 / math.Sqrt(float64(len(c.glosses)))
}

// own reports whether key k is c's own word's (its form, stem, cognate
// prefix, a loanword's English or a synonym), not a translation's.
func (c concept) own(k string) bool {
	return slices.Contains(c.keys, k) && !slices.Contains(c.glosses, k) && !slices.Contains(c.glossSynonyms, k)
}

// matches reports whether any of tks holds a key of c, and whether one
// holds a key other than a generic translation's (specifically): another
// language's word matched only by a generic translation is as specific as
// that English word, not at all. "correr" is "run" as well as "race" and
// "flow", and a prompt in Spanish asking to run the tests again ("vuelve a
// correr los tests") matched a plan's "run" and "tests" as specifically as
// a name; its weight still counts in the share of the prompt matched.
func (c concept) matches(tks ...textKeys) (matched, specifically bool) {
	for _, k := range c.keys {
		if hasKey(tks, k) {
			matched = true
			if !slices.Contains(c.genericGlosses, k) {
				return true, true
			}
		}
	}
	return matched, false
}

// specificIn reports whether c is a specific word of the prompt that tk
// holds by a key other than a generic translation's (matches).
func (c concept) specificIn(tk textKeys) bool {
	if c.specific == 0 {
		return false
	}
	_, specifically := c.matches(tk)
	return specifically
}

func hasKey(tks []textKeys, k string) bool {
	for _, tk := range tks {
		if tk.has(k) {
			return true
		}
	}
	return false
}

// writtenAsName reports a word the prompt writes as a name: with a
// capital inside it ("hooksPath", "InfluxDB"), or capitalised within a
// sentence ("should we add Storybook to …", "“Traefik”"); not all in
// capitals, with or without a plural's "s" (an acronym: "ORM", "JWTs"),
// nor capitalised only for opening the prompt, a sentence, a line or a
// Markdown list item, heading or quote ("- Caching", "## Caching").
func writtenAsName(prompt, w string) bool {
	b := []byte(prompt)
	lowerASCII(b) // byte for byte, so offsets hold in prompt
	return anyAt(string(b), w, func(j int) bool {
		end := j + len(w)
		before, _ := utf8.DecodeLastRuneInString(prompt[:j])
		after, _ := utf8.DecodeRuneInString(prompt[end:])
		if letterOrDigit(before) || letterOrDigit(after) {
			return false // part of a longer word
		}
		word := prompt[j:end]
		if core := strings.TrimSuffix(word, "s"); strings.ToUpper(core) == core {
			return false
		}
		if strings.ContainsFunc(word[1:], unicode.IsUpper) {
			return true
		}
		if !isUpper(word[0]) {
			return false
		}
		// A Markdown marker opens a line only at the line's start
		// ("- Caching", "## Caching"); "**Storybook**" within a
		// sentence is emphasis.
		head := strings.TrimRight(prompt[:j], " \t")
		if marked := strings.TrimRight(head, "-*#>• \t"); marked != head && (marked == "" || strings.HasSuffix(marked, "\n")) {
			return false
		}
		r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(head, "*_ \t"))
		return r != utf8.RuneError && !strings.ContainsRune(".?!:;\n\r…", r)
	})
}

// letterOrDigit reports a rune that continues a word.
func letterOrDigit(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// withUnseenWholes is cs and, for each identifier the prompt glues from
// parts that no text writes, glued or apart ("hooksPath", whose "hooks"
// and "path" the store holds; not maxRetries where it wrote
// "max_retries"), a concept of the whole, never seen: weigh dropped it and
// kept its parts.
func withUnseenWholes(cs []concept) []concept {
	out := cs
	for _, c := range cs {
		if c.whole == "" || c.wholeWritten || slices.ContainsFunc(out, func(o concept) bool { return slices.Contains(o.forms, c.whole) }) {
			continue
		}
		if len(out) == len(cs) {
			out = slices.Clone(cs)
		}
		out = append(out, concept{forms: []string{c.whole}, keys: []string{indexKey(c.whole)}})
	}
	return out
}

package recall

import (
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/korean"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// howToRE finds a question about how to do something in general, asked the
// way one asks a search engine or a manual: "how do I …", "what's the
// difference between …", "write a …", "(can you) explain …", also after
// a setting ("in bash, …": afterSetting). Such a question is about the
// technology, not about the project, unless it says so (we, our, this
// repo: saysOurs) or asks about what happened (did, was). A store
// that talks about the same technology matches its words anyway; only a
// strong match says the project's past answers it.
// A subject with "a" or "an" ("how can a component subscribe to …", "how
// does an index speed up …") is any such thing, not one of the project's.
// "When should I use …" asks when a technique fits, as a manual's advice
// does ("when should one prefer a view to a table"); "when do I" is left
// out, since "when did we" asks the project's past and "when do I get …"
// often its schedule.
// The forms are those of any how-to question (a manual's index), not of
// one question: fitcheck finds "is the difference" in one prompt because
// that is how such questions are asked.
var howToRE = lazyregexp.New(`(?i)^\s*(?:how (?:do|does|can|would|should|could) (?:i|you|one|a|an)\b|when (?:should|would) (?:i|you|one)\b|how to\b|what(?:'s|’s|s| is) the (?:difference|(?:\w+ )?way)\b|what(?:'s|’s| is) (?:a|an)\b|what does \S+(?: \S+){0,2} do\b|(?:write|give|show) (?:me )?(?:a|an)\b|(?:(?:can|could|would) you (?:please )?)?explain\b|is there a way\b)`)

// hangulHowToRE finds the same questions asked in Korean, whose form is as
// fixed as English's: "…하는 방법" (the way to …, "how do I …"), shortened
// "…하는 법", "…의 차이" (the difference between …), "설명해줘" (explain),
// and "어떻게" (how) before a word ending in a present form of 하다, "to
// do", in its sentence ("어떻게 해?", "어떻게 설정해야 돼?", "어떻게
// 동작합니까?"): English's "how do I …", "how does … work". A question
// about what was done is in the past ("어떻게 했었지?"), which is no such
// form; one about how a thing stands now says so with 되다 or 있다 ("어떻게
// 돼 있어?", "어떻게 저장하고 있어?"), and "어떻게든" is "somehow".
// So is "어떻게" after a clause of intent ("…하려면", "…줄이려면": if one
// wants to …), whatever verb follows it ("나타나게 하려면 … 어떻게 써?",
// how do I use … to make it appear): English's "how do I … to …".
// "알려줘" (tell me …) is left out: like English "tell me", it asks for the
// project's own things as often ("배포 주소 알려줘", tell me the deploy
// address). 법 glued to a noun is a law, not a way.
var hangulHowToRE = lazyregexp.New(`방법|차이|[는은] 법|설명해|려면[^.?!？\n]*어떻게|어떻게(?:[^\p{Hangul}.?!？\n](?:[^.?!？\n]|\.\S)*?)?\p{Hangul}*(?:해(?:야|요|줘|도)?|하(?:면|나요?|니|는지|지|죠|세요|려면)|할(?:까|래|\s*수)|합니(?:까|다))(?:[^\p{Hangul}]|$)`)

// romanceHowToRE finds the same questions asked in Spanish, Portuguese,
// Italian or French, the Romance languages recall translates (glosses):
// "cómo", "como", "come" or "comment" (how) opening the prompt and
// followed by a verb of doing, known by its shape: an infinitive (-ar,
// -er, -ir, -re), a first person (-o; French "je", "on"), or a reflexive
// "se"/"si" and a verb ("how does one …"), a clitic pronoun allowed before
// it; the word
// for the difference; and "explícame", "explica", "explique", "spiegami"
// (explain) opening it. "How" followed by a verb in the third person asks
// how a thing stands ("is it set up", "does it work"), as English "how is
// the … set up?" does, and "como" alone is also "as" ("as I said").
// English's "difference" is left to howToRE: "why is there a difference
// between …" asks about the project as often.
var romanceHowToRE = lazyregexp.New(`(?i)^\s*[¿¡]?\s*(?:(?:c[oó]mo|come)\s+(?:(?:se|si)\s+\p{L}+|(?:(?:l[oae]s?|me|te|mi|ti|ne)\s+)?\p{L}{2,}(?:o|ar|er|ir|are|ere|ire))|comment\s+(?:(?:je|j'|on|se|s')\s*\p{L}+|\p{L}{2,}(?:er|ir|re)))\b|\b(?:diferencia|diferença|differenza|différence)\b|^\s*[¿¡]?\s*(?:expl[ií]ca|expliqu|spieg)`)

// romanceWeRE finds "we" in those languages: its pronouns and possessives,
// and a verb in the first person plural (Spanish and Portuguese -amos,
// -emos, -imos: "creamos", "hicimos"; Italian -iamo), which says "we" by
// itself; an adjective or noun of the same ending ("últimos", "próximos")
// is told apart by its written accent (romanceSaysWe). "This project"
// ("neste projeto", "ce dépôt") asks of the project as English's does
// (oursRE).
var romanceWeRE = lazyregexp.New(`(?i)\b(?:nosotr[oa]s|nuestr[oa]s?|nós|noss[oa]s?|noi|nostr[oaie]|nous|notre|nos)\b|\p{L}{2,}(?:amos|emos|imos|iamo)\b|\b(?:[nd]?(?:este|esse|esta|essa|ese|esa)|ce|quest[oa])\s+(?:proyecto|projeto|projet|progetto|repo|repositorio|repositório|dépôt|repository|codebase)(?:[^\p{L}]|$)`)

// romanceHowTo reports a how-to question in one of those languages that
// does not speak of "we": "come" and "comment" open English prompts too
// ("comment out the …"), so the prompt's words must be of such a language.
//
// The languages are read first: a hook process compiles an expression the
// first time it uses it, and romanceHowToRE, with its Unicode classes,
// costs about 0.2 ms to compile, for the English prompts that are most.
func romanceHowTo(prompt string) bool {
	return romance(prompt) && romanceHowToRE.MatchString(prompt) && !romanceSaysWe(prompt) && !romanceNameRE.MatchString(prompt)
}

// romanceNameRE finds "how is it called" ("¿cómo se llama la rama …?",
// "come si chiama il bucket", "como se chama o arquivo", "comment
// s'appelle le fichier"): the reflexive of "to call" followed by a
// determiner or ending the question asks the name of a thing, as English
// "what is … called" does, not how to do something. "¿Cómo se llama a una
// función …?" (how does one call a function) is a how-to question: Spanish
// marks the one called with "a", and Italian "come si chiama una funzione"
// has no definite determiner.
var romanceNameRE = lazyregexp.New(`(?i)(?:c[oó]mo\s+se\s+(?:llaman?|chamam?)|come\s+si\s+chiama(?:no)?|comment\s+s['’]\s*appellen?t?)(?:\s+(?:el|la|los|las|lo|le|les|il|i|gli|o|os|as|este|esta|estos|estas|ese|esa|questo|questa|quel|quella|ce|cette|mon|ma|mes|tu|su|nuestr\p{L}*|nostr\p{L}*|noss\p{L}*)(?:[^\p{L}]|$)|\s*[?¿]|\s*$)`)

// romanceSaysWe reports a "we" romanceWeRE finds that is no adjective or
// noun of a verb's ending: a word of the ending with a written accent is
// stressed on its third syllable from the end ("últimos", "próximos",
// "mínimos", "préstamos"), as a verb of the first person plural is only in
// the imperfect and the subjunctive, whose endings are kept ("íbamos",
// "creábamos", "teníamos", "fuéramos", "hiciésemos", Portuguese
// "-ávamos").
func romanceSaysWe(prompt string) bool {
	for _, w := range romanceWeRE.FindAllString(prompt, -1) {
		w = strings.ToLower(w)
		if !strings.HasSuffix(w, "mos") || !strings.ContainsAny(w, "áéíóúâêô") || hasAnySuffix(w, "bamos", "vamos", "íamos", "ramos", "semos") {
			return true
		}
	}
	return false
}

// hasAnySuffix reports whether w ends with one of suffixes.
func hasAnySuffix(w string, suffixes ...string) bool {
	return slices.ContainsFunc(suffixes, func(s string) bool { return strings.HasSuffix(w, s) })
}

// romanceWe reports a prompt in one of those languages that speaks of "we"
// (romanceWeRE): like English "we" and "our" (oursRE), it asks about the
// project's own ways and history ("¿qué rama abrimos …?", which rama did we
// open), so its generic words count and tool output may answer it.
func romanceWe(prompt string) bool {
	return romance(prompt) && romanceSaysWe(prompt)
}

// germanWe reports a German prompt that speaks of "we" or "our" ("hatten
// wir die Hook-Skripte eingecheckt?", "unsere Staging-Datenbank"), as
// romanceWe does a Romance one's.
func germanWe(prompt string) bool {
	return germanWeRE.MatchString(prompt) && german(prompt)
}

// german reports a prompt whose function words are German's.
func german(prompt string) bool {
	return stopsFor(prompt).fw.Any("deu")
}

// germanWeRE finds German's "we", "us" and "our", and "this project"
// ("in diesem Projekt").
var germanWeRE = lazyregexp.New(`(?i)\b(?:wir|uns|unser|unsere|unserer|unseren|unserem|unseres|diese[mnrs]?\s+(?:projekt|projekts|projektes|repo|repository|codebase))\b`)

// romance reports a prompt whose function words are of one of the
// languages romanceHowToRE reads.
func romance(prompt string) bool {
	return stopsFor(prompt).fw.Any(funcwords.Romance...)
}

// pastRE finds a question about what happened.
var pastRE = lazyregexp.New(`(?i)\b(did|didn't|was|wasn't|were|weren't|had|hadn't)\b`)

// hangulPast reports a Korean past tense ("했었지", "넣었어", "됐나요"): its
// mark is the final consonant ㅆ of the syllable carrying the tense (았, 었,
// 였, 했, 됐…). 있 ("there is", "is -ing") and 겠 (the future) carry the same
// final consonant and no past.
func hangulPast(s string) bool {
	for _, r := range s {
		if korean.ClosedBySsangSiot(r) && r != '있' && r != '겠' {
			return true
		}
	}
	return false
}

// howTo reports a how-to question that asks nothing of what happened; the
// caller has checked that it does not name the project's own ways (saysOurs).
// It reads English, Korean (hangulHowToRE), Russian (russianHowTo) and the
// translated languages' forms (romanceHowTo): other languages' question
// forms would need a table each, and their function words already weigh
// nothing.
func howTo(prompt string) bool {
	return (howToRE.MatchString(prompt) || howToRE.MatchString(afterSetting(prompt)) ||
		!isASCII(prompt) && (hangulHowToRE.MatchString(prompt) || cjkHowTo(prompt)) || romanceHowTo(prompt) || russianHowTo(prompt) || germanHowTo(prompt)) && !past(prompt)
}

// howWe reports a how-to question whose subject may be the project's "we":
// "how do we add …", "so how should we handle …", "¿cómo podemos
// agregar …?", "как нам добавить …", "как мы настраиваем …", or any
// question howTo read (how). Select asks the "we" itself (saysOurs).
// howTo leaves "how do we" out, for its "we" may ask the project's own way
// of doing a thing ("how do we run the tests?"); Select tells which by
// what the question names. Not a question about what happened (past), nor
// one asking how to know or check something ("how can we be sure the
// migration ran?", "how would we know it failed?"), which asks how things
// stand. German is not read: without a dictionary, its words cannot be
// told from terms (namesUnseenTerm).
func howWe(prompt string, how bool) bool {
	if past(prompt) {
		return false
	}
	if how {
		return true
	}
	for _, p := range []string{prompt, afterSetting(prompt)} {
		if m := howWeRE.FindStringSubmatchIndex(p); m != nil {
			next := lowerRuns(p[m[1]:])
			return len(next) == 0 || !knowVerbs[next[0]]
		}
	}
	if hasCyrillic(prompt) {
		return russianHowWeRE.MatchString(prompt)
	}
	return romance(prompt) && !romanceNameRE.MatchString(prompt) && (romanceHowToRE.MatchString(prompt) || romanceHowWeRE.MatchString(prompt))
}

// fillers are the words a prompt may open with before its question or
// request ("so how do we …", "ok can we …"): proposalRE and howWeRE read
// past them.
const fillers = `^[\s>*_]*(?:(?:so|ok|okay|btw|also|now|and|hey|hi|please)\b[\s,]*)*`

// howWeRE, romanceHowWeRE and russianHowWeRE are howWe's forms beside
// howTo's (a Romance how-to form with "our": "¿cómo agrego … a nuestro
// proyecto?"): English's "how do we"; the Romance "how" before a modal of
// "we" ("¿cómo podemos …?", "come possiamo …", "comment pouvons-nous …")
// or a verb of "we" only the present wears (Spanish and Portuguese -emos,
// Italian -iamo: "¿cómo hacemos …?"), for -amos and -imos are as often a
// past ("¿cómo configuramos …?", "¿cómo hicimos …?", how did we …); and
// Russian "как мы" before a verb of "we" in the present (-ем, -ём, -им:
// "как мы настраиваем …", how do we set up; the past is "настраивали").
var (
	howWeRE        = lazyregexp.New(`(?i)` + fillers + `how (?:do|can|could|would|should) we\b`)
	romanceHowWeRE = lazyregexp.New(`(?i)^\s*[¿¡]?\s*(?:c[oó]mo|come)\s+(?:(?:l[oae]s?|nos|ci)\s+)?(?:podemos|podr[ií]amos|debemos|deber[ií]amos|tenemos\s+que|devemos|dever[ií]amos|temos\s+que|possiamo|potremmo|dobbiamo|dovremmo|\p{L}{2,}(?:emos|iamo))\b|^\s*comment\s+(?:pouvons|pourrions|devons|devrions)[\s-]+nous\b`)
	russianHowWeRE = lazyregexp.New(`(?i)^\s*(?:(?:а|и)\s*,?\s+)?как\s+мы\s+\p{Cyrillic}{2,}(?:ем|ём|им)(?:[^\p{L}]|$)`)
)

// knowVerbs are the verbs after "how do we" that ask how to know or check
// how things stand, not how to do something: "how can we be sure …", "how
// would we know …", "how do we tell …".
var knowVerbs = map[string]bool{"know": true, "tell": true, "be": true, "check": true, "verify": true, "confirm": true, "see": true, "find": true}

// cjkHowTo reports a Chinese or Japanese how-to question: Chinese "怎么",
// "如何", "怎样" (how), Japanese "どうやって", "どうすれば", "どうしたら"
// (how), "どう" before any verb's "…ばいい" or "…たらいい" ("どう書けばいい",
// "どうデプロイすればよいですか", how should I …), "やり方" (the way to); a
// question for the difference between two things, as English's "what's
// the difference" and Korean's "차이": Chinese "区别", "差别", "差异", "有什么
// 不同", Japanese "…の違い" ending the question or before its particle (not
// "間違い", a mistake, "に違いない", must be), "何が違う", "どう違う"; with no
// word placing what it asks in the project's past or present
// (cjkPastNow): "上次…最后是怎么解决的？" asks
// how it was solved, "现在怎么配置的" how it is set up now. Not "怎么回事"
// (what is going on), "怎么样" (how is it), "怎么了", "怎么一直…" (why does
// it keep …), nor "如何" ending its clause ("结果如何？", how did it go) or
// in "无论如何" (no matter what). A question naming the project ("我们",
// "这个项目", "うちの") is its own (foreignOursRE), as in English. Read only
// in a prompt written in their characters.
func cjkHowTo(prompt string) bool {
	return strings.ContainsFunc(prompt, isKanjiKana) && cjkHowToRE.MatchString(prompt) && !cjkPastNow(prompt)
}

// cjkHowToRE and cjkPastNowRE are cjkHowTo's forms; cjkPastNowRE is read
// through cjkPastNow, by newWork, foreignPastOrNow and asks too. Chinese's
// past and present: "上次" (last time), "之前" opening a clause (before; not "在…之前",
// before doing …), "以前", "昨天" (yesterday), "刚才" (just now), "当时"
// (then), "了" ending the question or a sentence ("…了吗？"; not "了解",
// to understand, "为了", in order to, nor a step done before the question,
// "装好了 Node，怎么装 pnpm？"), "是怎么…的" (how it was done), "现在", "目前", "当前" (now);
// Japanese's: "前回", "この前" (last time), "昨日", "さっき", "以前", "現在",
// "今の" (now), a verb's past before the question's end ("…たの",
// "…ました", "…でした", "…だった"), and "っけ", which asks to be reminded
// of what was known ("どう違うんだっけ", "何だっけ"), as "remind me" does.
var (
	cjkHowToRE   = lazyregexp.New(`怎(?:么|麼)(?:回[^事]|[^回样樣了没沒不又还還一老总總会會]|$)|怎(?:样|樣)(?:[^？?。]|$)|(?:^|[^论論管])如何[^？?。，,！!]|どうやって|どうすれば|どうしたら|どう[^。？?！!\n]{0,20}?(?:ば|たら)(?:いい|良い|よい|よろしい)|やり方|区别|區別|差别|差別|差异|差異|有(?:什么|什麼|何)不同|の違い(?:は|って|が|を|[？?]|$)|何が違[うい]|どう違[うい]`)
	cjkPastNowRE = lazyregexp.New(`上次|上回|(?:^|[\s，,。？?！!])之前|以前|昨天|刚才|剛才|当时|當時|了(?:[吗嗎吧呢？?。！!]|$)|是(?:怎么|怎麼|如何)[^？?。，,]*的|前回|この前|昨日|さっき|た(?:んだ|か)|たの(?:[？?。かでだ]|$)|(?:^|[^そあ])っけ|ました|でした|だった|` + cjkNow)
)

// cjkSetPhrases are Japanese's and Chinese's set phrases that end in a
// past form or in "了" and say nothing of the project's past: thanks
// ("ありがとうございました"), "understood" ("わかりました", "了解しました",
// "明白了", "懂了"), "good work" ("お疲れ様でした"), "great" ("太好了"),
// "by the way" ("对了"), "never mind" ("算了"). "好了" alone is left: "部署
// 好了吗？" asks whether the deploy is done.
var cjkSetPhrases = strings.NewReplacer("ありがとうございました", "", "わかりました", "", "分かりました", "", "了解しました", "",
	"お疲れ様でした", "", "太好了", "", "对了", "", "對了", "", "算了", "", "明白了", "", "懂了", "")

// cjkPastNow reports a Japanese or Chinese prompt that places what it asks
// in the project's past or present (cjkPastNowRE), its set phrases left out.
func cjkPastNow(prompt string) bool { return cjkPastNowRE.MatchString(cjkSetPhrases.Replace(prompt)) }

// cjkNow are Chinese's and Japanese's words for now: "现在", "目前",
// "当前" (simplified and traditional), "現在", "今の".
const cjkNow = `现在|現在|目前|当前|當前|今の`

// germanHowTo reports a German how-to question: "wie" opening it before a
// modal and "ich" or "man" ("wie kann ich …", "wie sollte man …"), or a
// verb in the first person and "ich" ("wie erstelle ich …", "wie richte
// ich … ein"), or "erkläre"/"erklär mir" (explain). "Wie" before a verb in
// the third person asks how a thing stands ("wie läuft der Import?"), and
// "wir" asks the project's own ways (germanWe). Read only in a German
// prompt, as romanceHowTo is in a Romance one.
func germanHowTo(prompt string) bool {
	return germanHowToRE.MatchString(prompt) && german(prompt)
}

// germanHowToRE is germanHowTo's forms.
var germanHowToRE = lazyregexp.New(`(?i)^\s*(?:wie\s+(?:(?:kann|könnte|soll|sollte|muss|müsste)\s+(?:ich|man)|\p{L}+e\s+ich)\b|erklär(?:e|en\s+sie)?\b)`)

// afterSetting is what follows a prompt's opening "in <setting>, " ("in
// bash, how do I …", "in Go, what's the way to …"): up to 40 characters
// without a comma or a question mark. Without one it is "". Read here, not
// in howToRE: a counted repetition is compiled as that many copies, and
// every hook process compiles the expression (Hangul's, read only in a
// prompt with letters beyond ASCII, likewise).
func afterSetting(prompt string) string {
	p := strings.TrimLeft(prompt, " \t\n\f\r")
	if len(p) < 3 || !strings.EqualFold(p[:3], "in ") {
		return ""
	}
	setting, rest, ok := strings.Cut(p[3:], ", ")
	if n := utf8.RuneCountInString(setting); !ok || n < 1 || n > 40 || strings.ContainsAny(setting, ",?") {
		return ""
	}
	if strings.TrimLeft(rest, " \t\n\f\r") != rest {
		return "" // the question opens right after ", ", as howToRE read it
	}
	return rest
}

// past reports a question about what happened, in English or Korean.
// Russian's mark of the past (-л and its endings) is worn by as many of a
// developer's nouns ("правило", "модули", "канал", "протокол"), so it is
// not read (review 149).
func past(prompt string) bool {
	return pastRE.MatchString(prompt) || !isASCII(prompt) && hangulPast(prompt)
}

// worldPast reports a question about the world's past, not the
// project's: each past auxiliary it holds (pastRE) opens a question
// (pastAsked) and has for its subject a release, a name and its version
// ("Did Node 22 make require() work?", "what did NumPy 2.0 remove?"), or
// "they" after one ("Tailwind v4 moved the theme into CSS. Did they drop
// tailwind.config.js?"). A name alone is as often the project's service
// or tool ("did Vercel pick up the env var?", "why did Jest time out?",
// review 310), whose runs say what it did.
func worldPast(prompt string) bool {
	locs := pastRE.FindAllStringIndex(prompt, -1)
	for _, l := range locs {
		if !opensQuestion(prompt[:l[0]]) {
			return false
		}
		rest := strings.TrimLeft(prompt[l[1]:], " \t")
		subject, _, _ := strings.Cut(rest, " ")
		switch {
		case strings.EqualFold(subject, "they"):
			if !releaseRE.MatchString(prompt[:l[0]]) {
				return false
			}
		case !releaseFirstRE.MatchString(rest) || strings.ToUpper(subject) == subject:
			return false // no release, or an acronym's number ("PR 42")
		}
	}
	return len(locs) > 0
}

// release is a name of one or two capitalised words and a version ("Node
// 22", "NumPy 2.0", "Tailwind v4", "Python 3.13"); releaseRE finds one,
// releaseFirstRE one opening the text.
const release = `[A-Z][\w.+-]*(?: [A-Z][\w.+-]*)? v?\d+(?:\.\d+)*\b`

var (
	releaseRE      = lazyregexp.New(`\b` + release)
	releaseFirstRE = lazyregexp.New(`^` + release)
	releaseEndRE   = lazyregexp.New(`\b` + release + `\s*$`)
)

// pastAsked reports a question about what happened: a past auxiliary
// (pastRE) opening a question ("was Quillmark on the page?", "which did we
// pick?"), or a Korean past. A past verb of a statement ("I was wondering
// if we should add Storybook") asks nothing of the past.
func pastAsked(prompt string) bool {
	for _, l := range pastRE.FindAllStringIndex(prompt, -1) {
		if opensQuestion(prompt[:l[0]]) {
			return true
		}
	}
	return !isASCII(prompt) && hangulPast(prompt)
}

// opensQuestion reports whether a word after before opens a question: at
// the prompt's or a sentence's start, or right after a question word.
func opensQuestion(before string) bool {
	before = strings.TrimRight(before, " \t\r\n")
	if before == "" || strings.ContainsAny(before[len(before)-1:], ".?!\n") {
		return true
	}
	k := strings.LastIndexAny(before, " \t\r\n")
	return claim.QuestionWord(strings.ToLower(before[k+1:]))
}

// newWorkRE finds a request for new work, put as a command: "add …",
// "implement …", "build …", "set up …"; in Russian its imperative opening
// the prompt ("добавь …", "сделай …"), in Korean a verb of making asked for
// ("추가해줘", "작성해줄래?", "만들어 주세요"). Like a how-to question it
// names the technology and the kind of thing wanted, and a project that
// talks about the same stack matches those words: a feature never
// discussed ("add a CSV export") matches the project's own words for its
// pages and data. Only the form is read, the verb that opens an imperative.
var newWorkRE = lazyregexp.New(`(?i)^\s*(?:please\s+)?(?:add|implement|create|build|make|write|set ?up|scaffold|generate|design|put)\b`)

// foreignWorkRE is newWorkRE's Russian and Korean forms, read only in a
// prompt with letters beyond ASCII: an English prompt, most of them, does
// not pay for compiling its Unicode classes.
// Korean's "짜줘" is "write (the code) for me", "짜" a word of its own
// ("날짜 줘" asks for a date).
var foreignWorkRE = lazyregexp.New(`(?i)^\s*(?:пожалуйста,?\s+)?(?:добавь|сделай|создай|напиши|реализуй|настрой|сгенерируй)(?:те)?(?:[\s,.!?]|$)|(?:(?:추가|작성|구현|생성|설정|개발|만들어)|(?:^|\s)짜)\s*(?:해\s*)?(?:줘|주세요|줄래|주실래)(?:[\s?.!,~]|$)`)

// cjkWorkRE is newWorkRE's Japanese and Chinese forms, read only in a
// prompt written in their characters. Japanese puts the verb last: a verb
// of writing, making, implementing, adding or generating in its request
// form ("…を書いて", "作ってください") ends the prompt or a sentence.
// Chinese asks to write or implement "a" thing ("帮我写一个…", "用 Octokit
// 写个脚本", "实现一个…"), its measure word after the verb.
// cjkAgainRE finds the words pointing back to earlier work, as againRE
// does English's: "同じ" (the same), "もう一度", "再度" (once more),
// Chinese "一样", "同样" (the same), "重新" (anew); cjkPastNowRE, the past.
var (
	cjkWorkRE  = lazyregexp.New(`(?:書いて|作って|実装して|追加して|作成して|生成して)(?:ください|下さい|くれ|ほしい|欲しい)?\s*(?:[。！!]|$)|(?:写|寫|实现|實現)(?:一个|一個|个|個|一段|一份)`)
	cjkAgainRE = lazyregexp.New(`同じ|もう一度|もう一回|再度|一样|一樣|同样|同樣|重新`)
	// cjkQuestionRE finds a question, which asks no new work though it
	// names implementing one thing ("这个模块实现一个什么功能？", what does
	// this module implement?): its mark, or Chinese's "吗", "什么", "哪".
	cjkQuestionRE = lazyregexp.New(`[？?]|吗|嗎|什么|什麼|哪`)
)

// againRE finds a word that points back to earlier work: "the same
// flags", "add it back", "build it again", "the previous layout", "as
// discussed", "like before". A command saying one is a follow-up, not a
// request for something new. A word joined to another by a hyphen is part
// of a compound naming a thing ("a back-office page", "same-origin
// requests"), not one pointing back.
var againRE = lazyregexp.New(`(?i)(?:^|[^\w-])(?:same|again|back|previous|earlier|(?:as|like)\s+(?:before|discussed|agreed|planned|decided))(?:[^\w-]|$)`)

// newWork reports a request for new work that says nothing of what
// happened and points back to nothing done before (againRE); the caller
// has checked that it does not name the project's own ways (saysOurs).
func newWork(prompt string) bool {
	if !isASCII(prompt) && (foreignAgainRE.MatchString(prompt) || foreignAskRE.MatchString(prompt)) {
		return false
	}
	if newWorkRE.MatchString(prompt) || !isASCII(prompt) && foreignWorkRE.MatchString(prompt) {
		return !past(prompt) && !againRE.MatchString(prompt)
	}
	if strings.ContainsFunc(prompt, isKanjiKana) && cjkWorkRE.MatchString(prompt) && !cjkQuestionRE.MatchString(prompt) {
		return !cjkPastNow(prompt) && !cjkAgainRE.MatchString(prompt)
	}
	// A Romance language's imperative is read only in a prompt whose
	// function words are that language's ("crea" is no English word, but
	// "configure" is), and often written without accents. A question is
	// none: the familiar imperative is spelled as the present's third
	// person ("¿Genera el build los source maps?", "Faz sentido …?").
	return romance(prompt) && !strings.ContainsAny(prompt, "?¿") && romanceWorkRE.MatchString(prompt) && !romanceAgainRE.MatchString(prompt)
}

// romanceWorkRE is newWorkRE's Spanish, Portuguese, French and Italian
// forms: the imperative of adding, implementing, creating, building,
// writing, generating, setting up, designing, putting or integrating that
// opens the prompt, in the familiar and the polite person, after a
// "thanks" or "ok", a "now" and a "please" ("gracias, ahora haz …").
var romanceWorkRE = lazyregexp.New(`(?i)^\s*[¡]?\s*(?:(?:gracias|obrigad[oa]|merci|grazie|vale|ok|bueno|bien|bon|bene|listo|perfecto|parfait|perfetto)\s*[,.!]*\s+)?(?:(?:ahora|ya|agora|maintenant|adesso|ora)\s*,?\s+)?(?:(?:por\s+favor|per\s+favore|s['’]il\s+(?:te|vous)\s+pla[iî]t)\s*,?\s+)?(?:` +
	// Spanish
	`a[ñn]ad[ea]|agreg(?:a|ue)|implement[ae]|crea|constru(?:ye|ya)|escrib[ea]|gener[ae]|configur[ae]|haz|dise[ñn][ae]|pon|ponga|integr[ae]|incorpor[ae]|inclu(?:ye|ya)|` +
	// Portuguese
	`adicion[ae]|cri[ae]|constr[oó]i|construa|escrev[ae]|ger[ae]|faz|fa[çc]a|coloqu?[ae]|inclu[ia]|` +
	// French
	`ajoute[sz]?|impl[ée]ment(?:e|ez)|cr[ée](?:e|ez)|construi(?:s|sez)|[ée]cri(?:s|vez)|g[ée]n[èeé]r(?:e|ez)|configurez|fai(?:s|tes)|met(?:s|tez)|int[èeé]gr(?:e|ez)|` +
	// Italian
	`aggiung(?:i|a)|implementi|crei|costruisci|scriv[ia]|generi|fai|metti)(?:[^\p{L}]|$)`)

// romanceAgainRE is againRE's Romance words ("otra vez", "de nuevo", "como
// antes", "à nouveau", "comme avant", "di nuovo", "come prima"): a command
// saying one is a follow-up.
var romanceAgainRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:otra\s+vez|de\s+nuevo|de\s+novo|outra\s+vez|como\s+antes|igual\s+que\s+antes|[àa]\s+nouveau|encore|comme\s+avant|di\s+nuovo|ancora|come\s+prima|anterior|precedente|pr[ée]c[ée]dente?|mismo|misma|mesmo|mesma|m[êe]me|stesso|stessa)(?:[^\p{L}]|$)`)

// foreignAgainRE is againRE's Russian words ("добавь обратно", "сделай
// снова", "как раньше"); Go's \b knows ASCII letters only.
var foreignAgainRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:обратно|снова|опять|как раньше|как было|прежн\p{L}*)(?:[^\p{L}]|$)`)

// foreignAskRE finds "напиши" (write) asking to be told something ("напиши,
// где лежит конфиг", tell me where the config is), not for code.
var foreignAskRE = lazyregexp.New(`(?i)^\s*(?:пожалуйста,?\s+)?напиши(?:те)?\s*,?\s*(?:где|что|как|какой|какая|какие|какое|почему|зачем|когда|сколько|кто|куда|откуда)(?:[^\p{L}]|$)`)

// proposalRE finds the opener of a request put as a proposal or a wish:
// "can we …", "could you …", "let's …", "I'd like to …", "we need to …",
// after a quote mark, emphasis or a filler ("ok so", "hey", "please"); and
// "should we …", "how should we …" or "how would we …" (its second group),
// which ask whether or how to do work. Only a work verb after it makes a
// request (request).
// Not "will we …", a forecast, nor "how do we …" or "how can we …", which
// ask the project's own way of doing it ("how can we add a migration?").
var proposalRE = lazyregexp.New(`(?i)` + fillers + `(?:(?:can|could|would)\s+(we)|(?:how\s+)?(?:should|would)\s+(we)|(?:can|could|would)\s+(?:you|i)|let['’]?s|let\s+us|(?:i|we)(?:\s+(?:want|need|would\s+like)|['’]d\s+like)(?:\s+you)?\s+to|we\s+(?:should|need\s+to))\s+`)

// definiteRE finds a work verb whose object is a definite thing ("add the
// retry to the importer", "generate our api client"): asked with "should
// we", it is a decision about what the project has, whose memory answers
// it, not a proposal of something new ("should we add a changelog page?",
// "how should we add tags to the notes page?").
var definiteRE = lazyregexp.New(`(?i)^\s*(?:please\s+)?\w+(?:\s+up)?\s+(?:the|our|this|that|these|those|its|my|your|their)\b`)

// capabilityRE finds a work verb followed by a preposition ("can we build
// on ARM?", "could we write to S3 from the worker?"), or one that also
// means running or producing what exists ("can we build the app on Java
// 17?", "can we make the release date?"): asked with "we", they ask what
// the project can do, not for something to be made.
var capabilityRE = lazyregexp.New(`(?i)^\s*(?:please\s+)?(?:(?:build|make|write)\b|\w+(?:\s+up)?\s+(?:on|in|with|for|to|from|at|by|under|into|onto|against|without|over|through|behind)\b)`)

// request returns the command a proposal for new work puts politely:
// "can we add comments under each post?" is "add comments under each
// post?". Its "we" is who will do the work, not the project's own past
// (saysOurs), so the prompt is read as the command is (newWork). A proposal
// of anything else ("can we make it work again?", "should we keep the
// cache?", "can we build on ARM?") is returned whole.
func request(prompt string) string {
	if loc := proposalRE.FindStringSubmatchIndex(prompt); loc != nil {
		should := loc[4] >= 0
		we := loc[2] >= 0 || should // "can we …", a question that may ask what the project can do
		rest := prompt[loc[1]:]
		if newWork(rest) && !(we && capabilityRE.MatchString(rest)) && !(should && definiteRE.MatchString(rest)) {
			return rest
		}
	}
	return prompt
}

// pastOrNow reports a prompt put in the past tense or about now: a verb in
// the past tense ("why did the nightly import stop?", "what did the linter
// flag?"; Korean's past mark) or a word for now ("which port does the worker
// listen on now?", "does it still retry?", currentRE). Unless it is a how-to
// question (howTo) or a request for new work (newWork), which are put in the
// present, such a prompt asks what the project did or how it stands: the
// tense of a question about a definite thing is the sign that it refers to
// earlier work, as "we" is (Select).
func pastOrNow(prompt string, dict *glosses.Dict) bool {
	return past(prompt) || currentRE.MatchString(prompt) ||
		questionRE.MatchString(prompt) && regularPast(prompt) ||
		strings.Contains(prompt, "?") && russianPast(prompt, dict) ||
		foreignPastOrNow(prompt)
}

// foreignPastOrNow reports a prompt of another language than English that
// asks how things stand now ("сейчас", "jetzt", "ahora", "maintenant",
// "現在") or, in German, a Romance language, Japanese or Chinese, what
// happened: German's past of "to be", "to have" and "to become" ("hatten
// wir", "war"), a Romance preterite or imperfect by its ending ("quedó",
// "cambiaron", "usábamos", "ficou") or its auxiliary ("était", "avons
// choisi", "abbiamo scelto"), Japanese's and Chinese's past and "last
// time" (cjkPastNowRE: "…だったっけ", "上次…"). Each language's words are read only in a prompt of
// that language: by its function words, or for Russian, Japanese and
// Chinese by their script. They are tables apart from currentRE's and
// pastRE's, which an English prompt reads, so that it compiles none of
// their Unicode classes and matches none of their words ("agora" is an
// SDK's name).
func foreignPastOrNow(prompt string) bool {
	fw := stopsFor(prompt).fw
	switch {
	case fw.Any(funcwords.Romance...):
		return romanceNowRE.MatchString(prompt) || romancePastRE.MatchString(prompt)
	case fw.Any("deu"):
		return germanNowRE.MatchString(prompt) || germanPastRE.MatchString(prompt)
	case hasCyrillic(prompt):
		return russianNowRE.MatchString(prompt)
	case strings.ContainsFunc(prompt, isKanjiKana):
		return cjkPastNow(prompt)
	}
	return false
}

// romanceNowRE, germanNowRE and russianNowRE are those languages' words
// for now and currently.
var (
	romanceNowRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:ahora|actualmente|agora|atualmente|maintenant|actuellement|d[ée]sormais|adesso|attualmente|ormai)(?:[^\p{L}]|$)`)
	germanNowRE  = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:jetzt|aktuell\p{L}*|derzeit\p{L}*|momentan|inzwischen|mittlerweile)(?:[^\p{L}]|$)`)
	russianNowRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:сейчас|теперь|текущ\p{L}*)(?:[^\p{L}]|$)`)
)

// germanPastRE finds German's simple past of "sein", "haben" and "werden",
// which a question about what happened uses ("wir hatten … umgestellt",
// "welcher Port war es?"), and "damals", "gestern".
var germanPastRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:war|waren|warst|wart|hatte|hatten|hattest|hattet|wurde|wurden|wurdest|damals|gestern)(?:[^\p{L}]|$)`)

// romancePastRE finds a Romance verb in a past tense by endings nouns
// seldom wear: Spanish preterites in a stressed "-ó" ("quedó", "cambió")
// and "-aron", "-ieron", imperfects in "-aba(n)", "-ábamos", "-ían",
// "-íamos"; Portuguese "-ou", "-aram", "-eram"; French "-aient"; the
// imperfect and past of "to be" and "to have" ("était", "avait", "era",
// "fue", "foi"; French's in every person but "avions", also a noun,
// planes); and the auxiliary of the French and Italian compound past
// with a participle after it ("avons choisi", "abbiamo scelto"): alone,
// "nous avons besoin" is the present. The second person's "-aste" and
// "-iste" are left out, worn by "contraste" and "existe"; "acaba" (it
// ends) still reads as "-aba".
var romancePastRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:\p{L}{2,}(?:ó|aron|ieron|abas?|aban|ábamos|ían|íamos|ou|aram|eram|aient)|étais|était|étions|étiez|étaient|avais|avait|aviez|avaient|fallait|avevamo|era|erano|fue|fueron|fui|foi|foram|(?:avons|avez|avions|abbiamo)\s+\p{L}+(?:é|ée|és|ées|i|is|it|u|us|ato|ata|ati|ate|uto|uta|ito|ita|to|ta))(?:[^\p{L}]|$)`)

// namesRunFile reports a prompt that names a file one of the tool runs
// items holds read, wrote or edited (runFile): by the name written whole
// ("netlify.toml", "claude_desktop_config.json"), or by the words of its
// name (nameWords), two at least, in a row ("the astro config" for
// astro.config.mjs, "the env example" for .env.example), or three at least
// in any order ("the dev env setup" for setup-dev-env.sh). One word
// ("netlify" of netlify.toml, "index") names a tool or a page as often as
// the file; two apart, as often two things.
func namesRunFile(prompt string, items []Item) bool {
	lower, words := strings.ToLower(prompt), lowerRuns(prompt)
	return slices.ContainsFunc(items, func(it Item) bool {
		file := runFile(it.event.Text)
		if it.Kind != store.TypeToolObservation || file == "" {
			return false
		}
		base := strings.ToLower(baseName(file))
		if ext := filepath.Ext(base); ext == "" || ext == base {
			return false // no extension, or a dotfile of one word: no name apart from its kind
		}
		sw := nameWords(file)
		return wordIn(lower, base) || len(sw) >= 2 && inRow(words, sw) || len(sw) >= 3 && allIn(words, sw)
	})
}

// nameWords are the words a file is named by: those of its name before
// the extension ("astro config" of astro.config.mjs), or all of a
// dotfile's ("env example" of .env.example), lower-case.
func nameWords(file string) []string {
	base := strings.ToLower(baseName(file))
	if strings.HasPrefix(base, ".") {
		return lowerRuns(base)
	}
	return lowerRuns(strings.TrimSuffix(base, filepath.Ext(base)))
}

// runFile is the file a tool run read, wrote or edited, as its text's
// first line names it; "" for another run.
func runFile(text string) string {
	tool, file, ok := strings.Cut(strings.TrimSuffix(firstLine(text), " (error)"), ": ")
	if !ok || tool != "Read" && tool != "Write" && tool != "Edit" && tool != "MultiEdit" {
		return ""
	}
	return file
}

// allIn reports whether words holds every word of ws.
func allIn(words, ws []string) bool {
	return !slices.ContainsFunc(ws, func(w string) bool { return !slices.Contains(words, w) })
}

// inRow reports whether words holds run, its words one after another.
func inRow(words, run []string) bool {
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// regularPastRE finds an English verb in the past tense or a participle:
// the regular "-ed" ("the import stopped", "what it printed", "where is it
// deployed"), past a stem of three letters at least and no "-eed"
// ("need", "speed"), and the commonest irregular forms of getting, going
// and coming, with the word before it (regularPast). It reads the tense
// of a question (questionRE), not of an error message pasted into a
// request.
var regularPastRE = lazyregexp.New(`(?i)(\b\w+\s+)?\b(?:got|went|came|\w{2,}[^e\W]ed)\b`)

// regularPast reports a verb of regularPastRE that tells what the project
// did: not a participle after an article, a possessive or a quantifier,
// which describes a thing ("which command tails the logs of a deployed
// Worker?" asks of the world, as "the cached page" or "each signed URL"
// would; a demonstrative is left out, as it is as often a subject: "which
// step that failed"), nor the past of a release, which is the world's
// ("Spring Boot 3.2 added virtual threads", as worldPast reads "did NumPy
// 2.0 remove …"), nor a part of an identifier ("virtual.enabled",
// "glaze_enabled", "enabled=true"). It reads the matches one at a time: a
// long prompt's first is most often the one.
func regularPast(prompt string) bool {
	for off := 0; off < len(prompt); {
		m := regularPastRE.FindStringSubmatchIndex(prompt[off:])
		if m == nil {
			return false
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += off
			}
		}
		off = m[1]
		verb, before := m[0], ""
		if m[2] >= 0 {
			verb, before = m[3], strings.ToLower(strings.TrimSpace(prompt[m[2]:m[3]]))
		}
		if identifierPart(prompt, verb, m[1]) {
			continue
		}
		if claim.Determiner(before) && !demonstrative(before) || releaseEndRE.MatchString(prompt[max(0, verb-maxRelease):verb]) {
			continue
		}
		return true
	}
	return false
}

// maxRelease bounds the text read before a verb for a release's name.
const maxRelease = 64

// identifierPart reports whether prompt[start:end], a word, is a part of
// an identifier: it holds an underscore or a digit, a dot joins it to a
// word on either side, or an "=" or "(" follows it. A dot ending a
// sentence joins nothing.
func identifierPart(prompt string, start, end int) bool {
	if strings.ContainsAny(prompt[start:end], "_0123456789") {
		return true
	}
	wordAt := func(i int) bool {
		if i < 0 || i >= len(prompt) {
			return false
		}
		r, _ := utf8.DecodeRuneInString(prompt[i:])
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	if start > 0 && prompt[start-1] == '.' && wordAt(start-2) || end < len(prompt) && prompt[end] == '.' && wordAt(end+1) {
		return true
	}
	return end < len(prompt) && (prompt[end] == '=' || prompt[end] == '(')
}

// demonstrative reports "this", "that", "these" or "those", which stand
// for a thing as often as they open one.
func demonstrative(w string) bool {
	return w == "this" || w == "that" || w == "these" || w == "those"
}

// questionRE finds a question: a question mark, or the interrogative word
// or auxiliary it opens with.
var questionRE = lazyregexp.New(`(?i)\?|^\s*(?:what|which|where|when|why|who|how|is|are|does|do|did|was|were|can)\b`)

// howToBar multiplies the gate's floor for a how-to question. Chosen on
// fold A of real-sessions-2 (1.3, 1.6, 2.0: unrelated prompts injected 4,
// 2, 1 of 21, follow-ups 29/52 each time) and held on fold B (30/45 and
// 1/19, as before); a bar of 100 gave the same as 2.0, so what clears 2.0
// is a match the question could not have without the project.
const howToBar = 2.0

// pastBar multiplies the gate's floor for a question about what happened
// (past) that is no how-to question or request (Select says which else it
// is not). Chosen on the pass-83 tuning set Y83 (0.8 and 0.7 each answered
// 3 more of its 48 follow-ups; none of its unrelated prompts uses the past
// tense), and held where it was not tuned: fold B, V82 and the blind X83
// gave every context unchanged. P84, written after it with ten general
// questions in the past tense among its 48 unrelated prompts, had two of
// them injected through it ("did Python 3.13 ship …?"), which the novel
// and world's-past checks then kept out.
const pastBar = 0.7

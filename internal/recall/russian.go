package recall

import (
	"slices"
	"strings"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
)

// The forms of a Russian question recall reads, as it reads English's: a
// how-to question (russianHowTo) and the past tense (russianPast). Each is
// read only in a prompt with Cyrillic letters (hasCyrillic), so that the
// English prompts, most of them, do not pay for compiling these expressions
// and their Unicode classes.

// hasCyrillic reports a prompt with a Cyrillic letter.
func hasCyrillic(s string) bool {
	for _, r := range s {
		if r >= 0x0400 && r <= 0x04FF {
			return true
		}
	}
	return false
}

// russianHowToRE finds a Russian how-to question: "как" (how) opening it,
// after "а", "и" or "подскажи(те)" (tell me), and a word after it that may
// be an infinitive ("как в Go отсортировать слайс …", "как мне настроить
// …", "как лучше настроить …"), past what may stand between: a
// preposition with its object ("в Go", "на сервере"), a word not in
// Cyrillic ("paho-mqtt", "2.x"), "мне" (to me), "нам" (to us: the
// question also says "we", foreignOursRE, and so asks howWe's question)
// or an adverb of manner ("лучше", "правильно", "можно"; not "было" or
// "принято", which ask how the project did it). Its first group is that word, which
// russianInfinitive reads.
var russianHowToRE = lazyregexp.New(`(?i)^\s*(?:(?:а|и|подскажи|подскажите)\s*,?\s+)?как\s+(?:(?:в|во|на|с|со|для|при|из|через|по)\s+\S+\s+|[^\p{Cyrillic}\s]+\s+|(?:мне|нам|лучше|правильно|можно|нужно|быстро|проще|удобнее|безопасно)\s+)*(\p{Cyrillic}{2,}(?:ть|ться|ти|тись|чь|чься))(?:[^\p{L}]|$)`)

// russianDifferenceRE finds the Russian for "what's the difference
// between": "чем отличается X от Y" (how does X differ from Y), "в чём
// разница" and "разница между" (the difference between), as
// hangulHowToRE's 차이 and romanceHowToRE's "diferencia". The verb in the
// present only: "чем отличался X от Y?" asks what the project's two things
// were.
var russianDifferenceRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])(?:чем\s+отлича(?:ется|ются|ть)|в\s+ч[её]м\s+разница|разниц\p{L}*\s+между)(?:[^\p{L}]|$)`)

// russianReflexiveRE finds a Russian verb in the reflexive present
// ("хранятся", "освобождается"), a form no noun wears.
var russianReflexiveRE = lazyregexp.New(`(?i)(?:^|[^\p{L}])\p{Cyrillic}+(?:[ауея]ется|[ую]тся|[ия]тся|ится)(?:[^\p{L}]|$)`)

// russianClauseEnd finds where a clause ends after an infinitive: a mark,
// or a word opening a clause of its own ("который", "чтобы", "если").
var russianClauseEnd = lazyregexp.New(`(?i)[,.;:!?\n]|(?:^|[^\p{L}])(?:котор\p{L}*|чтобы|чтоб|если|когда)(?:[^\p{L}]|$)`)

// russianFinite reports a finite verb no noun wears in text: a past
// (russianPastRE) or a reflexive present (russianReflexiveRE). Nouns end
// like infinitives ("память", "часть"); one followed by such a verb is the
// subject of a question about how a thing stands or came to be ("как
// память освобождается в воркере?"), not a how-to question.
func russianFinite(text string) bool {
	return russianReflexiveRE.MatchString(text) || russianPastIn(text)
}

// russianHowTo reports a Russian how-to question: the difference question
// in the present, or "как" and an infinitive (russianHowToRE,
// russianInfinitive) with no finite verb after it in its clause.
func russianHowTo(prompt string) bool {
	if !hasCyrillic(prompt) {
		return false
	}
	if russianDifferenceRE.MatchString(prompt) {
		return true
	}
	m := russianHowToRE.FindStringSubmatchIndex(prompt)
	if m == nil || !russianInfinitive(strings.ToLower(prompt[m[2]:m[3]])) {
		return false
	}
	rest := prompt[m[3]:]
	if end := russianClauseEnd.FindStringSubmatchIndex(rest); end != nil {
		rest = rest[:end[0]]
	}
	return !russianFinite(rest)
}

// russianInfinitive reports a word russianHowToRE found that has an
// infinitive's shape: -ть or -чь after a vowel, in a word of five letters
// or more ("настроить"; "сеть", "путь" are nouns) or of four after а, ы or
// и ("дать", "быть"), or -ти after a consonant ("нести", "найти"), not a
// noun's -ости or -асти ("зависимости", "части"); each with its reflexive
// -ся or -сь.
func russianInfinitive(w string) bool {
	w = strings.TrimSuffix(strings.TrimSuffix(w, "ся"), "сь")
	rs := []rune(w)
	n := len(rs)
	if n < 3 {
		return false
	}
	before := rs[n-3]
	switch string(rs[n-2:]) {
	case "ть", "чь":
		return russianVowel(before) && (n >= 5 || n == 4 && strings.ContainsRune("аыи", before))
	case "ти":
		return !russianVowel(before) && before != 'ь' && !strings.HasSuffix(w, "ости") && !strings.HasSuffix(w, "асти")
	}
	return false
}

// russianVowel reports a Russian vowel letter.
func russianVowel(r rune) bool {
	return strings.ContainsRune("аеёиоуыэюя", unicode.ToLower(r))
}

// russianPastRE matches a Russian verb in the past tense by the endings few
// of a developer's nouns wear: the masculine -ил, -ыл, -ял and their
// feminine -ила, -ыла, -яла ("подхватил", "пропустил"), every reflexive
// past ("сломался", "оборвалась", "предлагалось") and the past of "to be"
// (был, была, было, были). Review 149 removed an earlier reading of every
// -л form: -ал, -ол, -ел, -ул and the neuter and plural endings are as
// often nouns ("канал", "протокол", "раздел", "модули", "правило",
// "детали"). It matches one lower-case word.
var russianPastRE = lazyregexp.New(`^(?:был[аои]?|\p{Cyrillic}{2,}[аеиуыя]л(?:ся|[аои]сь)|\p{Cyrillic}{2,}[иыя]ла?)$`)

// russianPastShapeRE matches a word shaped like a Russian past of any verb
// class ("создал", "сломали", "удалили", "взяли"): a stem of two
// letters or more, a vowel, "л" and a gender's or number's ending. As many
// nouns have the shape ("канал", "модули", "детали", "стол"); dictPast
// tells them apart by the dictionary.
var russianPastShapeRE = lazyregexp.New(`^(\p{Cyrillic}{2,}[аеиоуыяё])л[аои]?$`)

// russianPast reports a Russian verb in the past tense in prompt, outside
// the subjunctive: one russianPastIn reads, or one told by the dictionary
// (dictPast), in one reading of the prompt.
func russianPast(prompt string, dict *glosses.Dict) bool {
	if !hasCyrillic(prompt) {
		return false
	}
	if dict != nil && !dict.Has("rus") {
		dict = nil
	}
	return russianPastWith(prompt, func(w string) bool { return russianPastWord(w) || dictPast(w, dict) })
}

// dictPast reports a Russian verb's past russianPastWord does not read,
// told by the dictionary: a word of the past's shape whose stem and "-ть"
// is a headword, the verb's infinitive ("сломали", сломать; "использовали",
// использовать), where a noun's is none ("канал", "модули"), nor a noun
// whose forms a past's are ("начало", "начала": the start). A verb the
// dictionary lacks is not read ("создал": Mueller has "создавать" only).
// None without a dictionary.
func dictPast(w string, dict *glosses.Dict) bool {
	if dict == nil {
		return false
	}
	m := russianPastShapeRE.FindStringSubmatch(w)
	if m == nil || strings.HasPrefix(w, "правил") || !dict.Headword("rus", m[1]+"ть") {
		return false
	}
	// A noun of the past's shape ("начало", "покрывало", "чернила") is a
	// headword in one of the past's forms: any form so read is the noun's.
	for _, e := range []string{"л", "ла", "ло", "ли"} {
		if dict.Headword("rus", m[1]+e) {
			return false
		}
	}
	return true
}

// russianPastIn reports a verb in the past tense (russianPastRE) in text,
// outside the subjunctive: after "чтобы" or "чтоб" in its sentence ("нужно,
// чтобы сервер не падал, а логи сохранялись"), or "бы" in its clause ("не
// мог бы ты глянуть" is polite; the question after its comma, "что
// изменилось?", is not). The word for rules, "правил(а)", is the one noun
// of those endings common in a developer's questions ("какие правила
// включены?"), and a name in -аил or -иил ("Михаил") is no verb either.
func russianPastIn(text string) bool { return russianPastWith(text, russianPastWord) }

// russianPastWord reports a word of russianPastRE's endings that is no
// noun or name of them (russianPastIn).
func russianPastWord(w string) bool {
	return russianPastRE.MatchString(w) && !strings.HasPrefix(w, "правил") && !strings.HasSuffix(w, "аил") && !strings.HasSuffix(w, "иил")
}

// russianPastWith reports a word of text that isPast takes, lower-cased,
// outside the subjunctive (russianPastIn).
func russianPastWith(text string, isPast func(string) bool) bool {
	for _, sentence := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return strings.ContainsRune(".;:!?\n", r) }) {
		purpose := false // a "чтобы" seen in the sentence
		for _, clause := range strings.Split(sentence, ",") {
			words := strings.FieldsFunc(clause, func(r rune) bool { return !unicode.IsLetter(r) })
			for _, w := range words {
				switch {
				case w == "чтобы" || w == "чтоб":
					purpose = true
				case purpose || !isPast(w):
				case slices.Contains(words, "бы"):
				default:
					return true
				}
			}
		}
	}
	return false
}

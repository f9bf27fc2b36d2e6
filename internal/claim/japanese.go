package claim

import (
	"unicode"
	"unicode/utf8"
)

// hasKana reports a text holding hiragana or katakana: Japanese, which
// Chinese, writing the same characters, holds none of.
func hasKana(text string) bool {
	for _, r := range text {
		if r >= 0x3040 && (unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)) {
			return true
		}
	}
	return false
}

// script is the writing system of a letter, as far as it tells Japanese
// words apart: Chinese characters carry a word's meaning, hiragana its
// endings and particles, katakana a loanword ("バージョン", version).
type script int

const (
	otherScript script = iota
	hanScript
	hiraganaScript
	katakanaScript
)

func scriptOf(r rune) script {
	switch {
	case unicode.Is(unicode.Katakana, r) || continues(r):
		// A mark alone is written after katakana far more often than
		// after hiragana; after a letter it takes that letter's script
		// (splitScripts).
		return katakanaScript
	case unicode.Is(unicode.Hiragana, r):
		return hiraganaScript
	case unicode.Is(unicode.Han, r):
		return hanScript
	}
	return otherScript
}

// continues reports a mark that lengthens or voices the kana before it,
// full-width or half-width ("ー" in "バージョン", "ﾞ" in "ﾊﾞｰｼﾞｮﾝ"): it is
// part of that kana's word, whatever its script.
func continues(r rune) bool {
	switch r {
	case 'ー', 'ｰ', 'ﾞ', 'ﾟ', '゛', '゜', '\u3099', '\u309a':
		return true
	}
	return false
}

// splitScripts splits each of words where its script changes to or from
// a Japanese one: Japanese writes no spaces, and a particle or an ending
// is written in hiragana after the word it follows, a product's name in
// Latin letters ("expo-audioはどのバージョンが入った" is "expo-audio",
// "はどの", "バージョン", "が", "入", "った": a run of hiragana stays one
// word, particles and question words together). Words of no Japanese
// script are kept as they are, with no copy made when none has one.
func splitScripts(words []string) []string {
	var out []string
	for i, w := range words {
		cut := false
		for _, r := range w {
			if scriptOf(r) != otherScript {
				cut = true
				break
			}
		}
		if !cut {
			if out != nil {
				out = append(out, w)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(words)+4), words[:i]...)
		}
		start, prev := 0, scriptOf(first(w))
		for k, r := range w {
			if s := scriptOf(r); s != prev && !(continues(r) && prev != otherScript) {
				out = append(out, w[start:k])
				start, prev = k, s
			}
		}
		out = append(out, w[start:])
	}
	if out == nil {
		return words
	}
	return out
}

func first(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// hiraganaOnly reports a word written in hiragana alone: a particle
// ("の", "は"), an ending or a question word ("どの").
func hiraganaOnly(w string) bool {
	for k, r := range w {
		if scriptOf(r) != hiraganaScript && (k == 0 || !continues(r)) {
			return false
		}
	}
	return w != ""
}

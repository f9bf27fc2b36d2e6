package claim

import (
	"unicode"
	"unicode/utf8"
)

// hasKana reports a text holding hiragana or katakana: Japanese, which
// Chinese, writing the same characters, holds none of.
func hasKana(text string) bool {
	for _, r := range text {
		if r >= 0x3040 && r <= 0x30ff {
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
	case r == 'ー' || r == 'ヽ' || r == 'ヾ' || unicode.Is(unicode.Katakana, r):
		return katakanaScript // the long-vowel mark lengthens the kana before it
	case unicode.Is(unicode.Hiragana, r):
		return hiraganaScript
	case r == '々' || unicode.Is(unicode.Han, r):
		return hanScript
	}
	return otherScript
}

// splitScripts splits each of words where its script changes to or from
// a Japanese one: Japanese writes no spaces, and a particle or an ending
// is written in hiragana after the word it follows, a product's name in
// Latin letters ("expo-audioはどのバージョンが入った" is "expo-audio", "は",
// "どの", "バージョン", "が", "入", "った"). Words of no Japanese script are
// kept as they are, with no copy made when none has one.
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
			if s := scriptOf(r); s != prev {
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
	for _, r := range w {
		if scriptOf(r) != hiraganaScript {
			return false
		}
	}
	return w != ""
}

package main

import (
	"slices"
	"strings"
	"testing"
)

// TestTranslations reads an entry shaped as Mueller's are: numbered senses
// and sub-senses, a transcription, parenthetical notes, labels, an example
// phrase, a function word split off a phrase.
func TestTranslations(t *testing.T) {
	t.Parallel()
	entry := "block\n   [blɘk]\n   1. _n.\n      1) чурбан, колода\n      2) глыба (камня); блок (для стройки)\n" +
		"      3) а) квартал б) массив\n      4) то, что мешает; block of shares _фин. пакет акций\n   2. _v. Блокировать; _ж-д. заграждать\n"
	got := translations(entry)
	for _, w := range []string{"чурбан", "колода", "глыба", "блок", "квартал", "массив", "блокировать", "заграждать"} {
		if _, ok := got[w]; !ok {
			t.Errorf("%q missing from %v", w, got)
		}
	}
	if got["то"] != functionSense {
		t.Errorf("the function word то: sense %d, want functionSense", got["то"])
	}
	for _, w := range []string{"камня", "стройки", "пакет", "акций", "что мешает", "blɘk", "фин", "ж-д"} {
		if _, ok := got[w]; ok {
			t.Errorf("%q read as a translation: %v", w, got)
		}
	}
	if !(got["чурбан"] < got["глыба"] && got["глыба"] < got["квартал"] && got["квартал"] < got["массив"]) {
		t.Errorf("senses out of order: %v", got)
	}
}

// TestKeys: a word is keyed by its stem and itself; a verb also by the
// forms the dictionary does not give, each by its own stem.
func TestKeys(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		word      string
		want, not []string // forms keyed
	}{
		{"папка", []string{"папка"}, nil},
		{"блокировать", []string{"блокировать", "блокирует", "блокируем", "блокируют"}, nil},
		{"танцевать", []string{"танцует"}, nil},
		{"надевать", nil, []string{"надеует"}}, // -евать keeps -ева- after other letters
		{"удалять", []string{"удалить", "удали", "удаляй"}, nil},
		{"добавлять", []string{"добавить", "добавь"}, []string{"добавлить"}}, // no л after a labial
		{"проверить", []string{"проверь", "провери"}, nil},
		{"получать", []string{"получить"}, nil},
		{"читать", nil, []string{"читить"}}, // -ать only after a hushing letter
	} {
		got := keys(c.word)
		forms := make([]string, len(got))
		for i, k := range got {
			stem, form, _ := strings.Cut(k, "|")
			forms[i] = form
			if len([]rune(stem)) < 2 || !strings.HasPrefix(form, stem) {
				t.Errorf("keys(%q): %q is no stem and its form", c.word, k)
			}
		}
		for _, f := range c.want {
			if !slices.Contains(forms, f) {
				t.Errorf("keys(%q) = %v, want %q keyed", c.word, got, f)
			}
		}
		for _, f := range c.not {
			if slices.Contains(forms, f) {
				t.Errorf("keys(%q) = %v, want no %q", c.word, got, f)
			}
		}
	}
}

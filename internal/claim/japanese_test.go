package claim

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitScripts(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want []string
	}{
		{[]string{"expo-audioはどのバージョンが入った"}, []string{"expo-audio", "はどの", "バージョン", "が", "入", "った"}},
		// The long-vowel mark belongs to the kana before it, hiragana
		// ("すごーい") or half-width katakana with its voicing marks.
		{[]string{"サーバーの", "port"}, []string{"サーバー", "の", "port"}},
		{[]string{"すごーい"}, []string{"すごーい"}},
		{[]string{"ﾊﾞｰｼﾞｮﾝは"}, []string{"ﾊﾞｰｼﾞｮﾝ", "は"}},
		// No Japanese script: the words as they are, Hangul and Latin
		// together ("heroku에서" keeps its particle for stripParticle).
		{[]string{"heroku에서", "version"}, []string{"heroku에서", "version"}},
	} {
		if got := splitScripts(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitScripts(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Splitting loses and adds nothing: the pieces, joined, are the words, and
// none is empty.
func FuzzSplitScripts(f *testing.F) {
	for _, s := range []string{"expo-audioはどのバージョン", "ー", "々ヽヾ", "a\xffバ", "版本", "버전バージョン"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words := strings.Fields(s)
		got := splitScripts(words)
		if strings.Join(got, "") != strings.Join(words, "") {
			t.Fatalf("splitScripts(%q) = %q", words, got)
		}
		for _, w := range got {
			if w == "" {
				t.Fatalf("splitScripts(%q) gave an empty word: %q", words, got)
			}
		}
	})
}

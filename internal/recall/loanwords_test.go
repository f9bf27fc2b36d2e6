package recall

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestKoreanLoanwordsFindTheirEnglish: a Korean question names the template
// and the version by loanwords ("템플릿", "버전"); the session, held in
// English, answered with the English words. Read as those (the glosses'
// loanword table, the store's counts picking among the words alike), the
// question is answered; without the dictionary it is not.
func TestKoreanLoanwordsFindTheirEnglish(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	chores(t, db)
	say(t, db, "pin", day,
		"Pin the quarkstone version in the starter template's build file.",
		"Done: the starter template now pins quarkstone to version 4.7.2-final in build.gradle, so every copy builds alike.")
	prompt := "스타터 템플릿에서 quarkstone 버전 뭐로 고정했었지?"
	if got := recallFor(t, db, defaults(), prompt); !strings.Contains(got, "4.7.2-final") {
		t.Errorf("the Korean question was not answered with the English session:\n%s", got)
	}
	got, err := Compose(context.Background(), db, defaults(), Request{Project: proj, SessionID: "now", Prompt: prompt, Now: day.AddDate(0, 1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.Text, "4.7.2-final") {
		t.Errorf("answered without the dictionary:\n%s", got.Text)
	}
}

// TestKoreanNativeWordsAreNoLoanwords: the native and Sino-Korean words of
// a Korean question are read as no English word, however alike a skeleton
// sounds ("했어" is no "header", "어떤" no "waiting", "설치" no "cells").
func TestKoreanNativeWordsAreNoLoanwords(t *testing.T) {
	t.Parallel()
	for _, c := range concepts("어떤 패키지를 설치했어? 그래서 배포는 어디에 했지? 들어가 보니까 오류가 있었지", repoGlosses()) {
		for _, l := range c.loans {
			if c.forms[0] != "패키지를" {
				t.Errorf("%v: read as the loanword of %q", c.forms, l.word)
			}
		}
	}
}

// TestLoanwordsAreNoFunctionWords: a candidate the index counts as an
// English function word is none: "가는데" (going) sounds like "canned",
// whose index key "can" every message holds, and as that it weighed as a
// rare word of the project's.
func TestLoanwordsAreNoFunctionWords(t *testing.T) {
	t.Parallel()
	for _, c := range concepts("다음 주에 해커톤 가는데 뭐 챙겨가면 좋을까?", repoGlosses()) {
		for _, l := range c.loans {
			if l.key == "can" {
				t.Errorf("%v: read as the loanword of %q, key %q", c.forms, l.word, l.key)
			}
		}
	}
}

// BenchmarkKoreanConceptsFirst: a prompt hook's Korean prompt, the loanword
// table read from the repository's glosses/ (0.7 MB) and each Hangul
// word's candidates weighed (the store's counts are not in it).
func BenchmarkKoreanConceptsFirst(b *testing.B) {
	const prompt = "universal search에서 tasks 리소스 페이지네이션은 어떻게 처리되고 있었지? 템플릿 버전도 알려줘"
	for b.Loop() {
		concepts(prompt, repoGlosses())
	}
}

// BenchmarkKoreanConcepts: the same, the table read once first.
func BenchmarkKoreanConcepts(b *testing.B) {
	const prompt = "universal search에서 tasks 리소스 페이지네이션은 어떻게 처리되고 있었지? 템플릿 버전도 알려줘"
	d := repoGlosses()
	concepts(prompt, d)
	for b.Loop() {
		concepts(prompt, d)
	}
}

// TestLoanwordPick: of a Hangul word's candidates the store holds, the one
// it holds much more and that sounds near becomes a form; two held alike
// ("메서드": method and merged, both as near) tell nothing, and neither is
// taken. An inflection counts with its word ("로깅": logging, whose index
// key is "log").
func TestLoanwordPick(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		texts []string
		word  string
		want  string // "" for no form
	}{
		{"alike", []string{"the method is merged", "a method merged", "merged the method"}, "메서드", ""},
		{"one much more", []string{"the method", "a method", "method again", "the method once more", "merged"}, "메서드", "method"},
		{"inflection", []string{"structured logging", "logging level"}, "로깅", "logging"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := storetest.Open(t)
			var turns []string
			for _, x := range tt.texts {
				turns = append(turns, x, "ok")
			}
			say(t, db, "s", day, turns...)
			cs := concepts(tt.word+" 뭐였지?", repoGlosses())
			cs, err := newTermCounts(db, "now").loanwords(ctx, cs)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range cs[0].forms {
				if f != "" && f[0] < 0x80 {
					got = append(got, f)
				}
			}
			if want := []string{tt.want}; tt.want == "" && len(got) != 0 || tt.want != "" && !slices.Equal(got, want) {
				t.Errorf("%s: English forms %q, want %q (candidates %v)", tt.word, got, tt.want, cs[0].loans)
			}
		})
	}
}

package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestRealClientIdentifierSpelledAsWords: a session wrote a class whose
// name glues two words (KilnActivity). In the next session a question
// spelling it as words ("the kiln activity") gets the write that holds it:
// the index keeps the identifier whole, and the prompt's words alone match
// nothing of it.
func TestRealClientIdentifierSpelledAsWords(t *testing.T) {
	w := newWorld(t)
	path := w.projectFile("KilnActivity.kt", "package com.kiln\n\nclass KilnActivity : AudioServiceActivity()\n")
	write := toolInput(t, map[string]string{"file_path": path,
		"content": "package com.kiln\n\nimport io.flutter.embedding.android.FlutterActivity\n\nclass KilnActivity : FlutterActivity()\n"})
	w.session("s1", nil, "the firing screen crashes on resume since the audio plugin went, fix the base class\nREADFILE "+path+"\nCALLTOOL Write "+write+"\nREPLY Done.")
	const asked = "Which class does the kiln activity extend now?"
	r := requestWith(t, requests(t, w.session("s2", nil, asked)), asked)
	if injections(r) != 1 || !strings.Contains(r, "KilnActivity : FlutterActivity") {
		t.Errorf("the write naming KilnActivity was not recalled:\n%.3000s", r)
	}
}

// TestRealClientJapanesePrompt: a question asked in Japanese, naming
// nothing in Latin letters, about a session held in English is cut into
// its words, each searched by its English glosses (glosses/jpn.txt beside
// the binaries): "釉薬" is glaze, "焼成" firing, "ポート" port.
func TestRealClientJapanesePrompt(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "Which port does the glaze firing monitor listen on?\nSAY The glaze firing monitor listens on port 7311; the bisque monitor keeps 7310.")
	w.session("s2", nil, "Sort the kiln logs by date.\nREPLY Sorted.")
	if got := lastInjection(t, w.session("s3", nil, "釉薬の焼成モニターは何番のポートで待ち受けてたっけ？")); !strings.Contains(got, "7311") {
		t.Errorf("the English session is not offered for the Japanese question:\n%s", got)
	}
}

// TestRealClientChinesePrompt: a question asked in Chinese, naming nothing
// in Latin letters, about a session held in English is cut into CC-CEDICT's
// words (glosses/zho.txt beside the binaries), each searched by its English
// translations: "烧制" fire, "温度" temperature, "阈值" threshold. A
// Chinese request for new code ("帮我写一个…") on the same project gets
// nothing: the dictionary must not make the project's words carry it.
func TestRealClientChinesePrompt(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "What temperature threshold does the glaze firing alarm use?\nSAY The glaze firing alarm trips at a temperature threshold of 1240 C; the bisque alarm keeps 980 C.")
	w.session("s2", nil, "Sort the kiln logs by date.\nREPLY Sorted.")
	if got := lastInjection(t, w.session("s3", nil, "烧制的温度阈值是多少来着？")); !strings.Contains(got, "1240") {
		t.Errorf("the English session is not offered for the Chinese question:\n%s", got)
	}
	const ask = "帮我写一个 Python 脚本，把温度日志画成折线图"
	if r := requestWith(t, requests(t, w.session("s4", nil, ask)), ask); injections(r) != 0 {
		t.Errorf("a request for new code got an injection:\n%.3000s", r)
	}
}

// TestRealClientKoreanLoanwords: a question asked in Korean names the
// template and its version by loanwords ("템플릿", "버전"), about a session
// held in English. Each is read as the English word the store writes that
// Korean spells so (glosses/kor.txt beside the binaries, the store's counts
// choosing among the words alike), and the session's answer is offered.
func TestRealClientKoreanLoanwords(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "Pin the quarkstone version in the starter template's build file.\nSAY Done: the starter template now pins quarkstone to version 4.7.2-final in build.gradle.")
	w.session("s2", nil, "Sort the kiln logs by date.\nREPLY Sorted.")
	if got := lastInjection(t, w.session("s3", nil, "스타터 템플릿에서 quarkstone 버전 뭐로 고정했었지?")); !strings.Contains(got, "4.7.2-final") {
		t.Errorf("the English session is not offered for the Korean question:\n%s", got)
	}
}

// TestRealClientJapaneseVersionQuestion: a question asked in Japanese for
// the version of a tool the project uses ("zorblat のバージョン") gets the
// run that reported it, though the deploys naming the tool are more and
// newer: Japanese writes no spaces, and its words are told apart by their
// scripts (claim.Asks), so that "バージョン" asks zorblat's version.
func TestRealClientJapaneseVersionQuestion(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "Which zorblat do we have here?\nRUNBASH echo 'zorblat 3.14.2 (update available 3.20.0)'\nREPLY Checked.")
	var deploys []string
	for i := range 4 {
		deploys = append(deploys, fmt.Sprintf("Deploy the kiosk preview with zorblat pages to branch b%d.\nRUNBASH echo 'zorblat pages deploy out --branch=b%d: Uploading... Deployment complete'\nREPLY Deployed the kiosk preview with zorblat pages.", i, i))
	}
	w.session("s2", nil, deploys...)
	if got := lastInjection(t, w.session("s3", nil, "このマシンに入ってる zorblat のバージョンっていくつだっけ？")); !strings.Contains(got, "3.14.2") {
		t.Errorf("the version a tool reported is not offered for the Japanese question:\n%s", got)
	}
}

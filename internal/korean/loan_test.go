package korean

import (
	"slices"
	"strings"
	"testing"
)

// loanwords are Hangul spellings of English words of computing, as Korean
// developers write them.
var loanwords = [][2]string{
	{"버전", "version"}, {"템플릿", "template"}, {"페이지네이션", "pagination"}, {"에이전트", "agent"},
	{"컴포넌트", "component"}, {"토큰", "token"}, {"커밋", "commit"}, {"브랜치", "branch"},
	{"스키마", "schema"}, {"마이그레이션", "migration"}, {"엔드포인트", "endpoint"}, {"로그인", "login"},
	{"티켓", "ticket"}, {"플러그인", "plugin"}, {"스크립트", "script"}, {"테스트", "test"},
	{"익스포트", "export"}, {"다운로드", "download"}, {"인터페이스", "interface"}, {"프레임워크", "framework"},
	{"라이브러리", "library"}, {"세션", "session"}, {"캐러셀", "carousel"}, {"클러스터", "cluster"},
	{"프로젝트", "project"}, {"이벤트", "event"}, {"옵션", "option"}, {"프롬프트", "prompt"},
	{"데이터베이스", "database"}, {"업로드", "upload"}, {"모듈", "module"},
}

// TestKeysAgree: a loanword and its English word have one skeleton, and
// sound near (Distance within what recall reads as a loanword, 0.45).
func TestKeysAgree(t *testing.T) {
	t.Parallel()
	for _, p := range loanwords {
		if k := Key(p[0]); !slices.Contains(EnglishKeys(p[1]), k) {
			t.Errorf("Key(%q)=%q, not among EnglishKeys(%q)=%q", p[0], k, p[1], EnglishKeys(p[1]))
		}
		if d := Distance(p[0], p[1]); d > 0.45 {
			t.Errorf("Distance(%q, %q)=%.2f", p[0], p[1], d)
		}
	}
}

// TestDistanceOrders: of English words with one skeleton, the loanword's
// is the nearest or as near as any.
func TestDistanceOrders(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ h, near, far string }{
		{"버전", "version", "person"},
		{"페이지네이션", "pagination", "personation"},
		{"템플릿", "template", "temperate"},
		{"컴포넌트", "component", "compound"},
		{"캐싱", "caching", "casein"},
	} {
		if n, f := Distance(tt.h, tt.near), Distance(tt.h, tt.far); n > f {
			t.Errorf("%s: %s %.2f farther than %s %.2f", tt.h, tt.near, n, tt.far, f)
		}
	}
}

// TestLoanlike: a loanword is; a Sino-Korean word (every syllable a
// character's reading), a native one written with a tense consonant or a
// final the loanword orthography does not write, or one syllable is not.
func TestLoanlike(t *testing.T) {
	t.Parallel()
	for _, p := range loanwords {
		if !Loanlike(p[0]) {
			t.Errorf("Loanlike(%q) is false", p[0])
		}
	}
	for _, w := range []string{"설치", "배포", "오류", "사용자", "설정", "저장", "확인", "문제", "개발", "함수", "지금", "처음",
		"했어", "어떤", "맞아", "있었지", "넣기", "없어", "앱", "", "abc", "버전abc"} {
		if Loanlike(w) {
			t.Errorf("Loanlike(%q) is true", w)
		}
	}
}

// TestEnglishKeys: the letters English writes one sound with are read as
// it, and a word of anything but a to z has none.
func TestEnglishKeys(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		w    string
		want []string
	}{
		{"server", []string{"SB"}},
		{"string", []string{"STLN"}},
		{"thread", []string{"SLT", "TLT"}},
		{"export", []string{"VKSBT"}},
		{"schema", []string{"SKM"}},
		{"Version", nil},
		{"naïve", nil},
		{"", nil},
	} {
		if got := EnglishKeys(tt.w); !slices.Equal(got, tt.want) {
			t.Errorf("EnglishKeys(%q)=%q, want %q", tt.w, got, tt.want)
		}
	}
}

// FuzzLoan: Key, EnglishKeys and Distance read a prompt's words and the
// table's: whatever the bytes, no panic, a skeleton only of its classes, a
// distance not below zero.
func FuzzLoan(f *testing.F) {
	f.Add("버전", "version")
	f.Add("\xff퀘스천", "question")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, h, e string) {
		for _, k := range append(EnglishKeys(e), Key(h)) {
			if strings.Trim(k, "VBTKSLMNH") != "" {
				t.Fatalf("key %q of %q/%q", k, h, e)
			}
		}
		if d := Distance(h, e); d < 0 {
			t.Fatalf("Distance(%q, %q)=%v", h, e, d)
		}
		Loanlike(h)
	})
}

// TestLoanStem: a plural's 들 and a syllable of 하다 go after two syllables
// or more; a shorter word and other endings stay.
func TestLoanStem(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ w, want string }{
		{"컬럼들", "컬럼"}, {"커밋해", "커밋"}, {"업데이트했", "업데이트"}, {"배포합", "배포"},
		{"테스트", "테스트"}, {"해들", "해들"}, {"브랜치항", "브랜치항"}, {"", ""},
	} {
		if got := LoanStem(tt.w); got != tt.want {
			t.Errorf("LoanStem(%q)=%q, want %q", tt.w, got, tt.want)
		}
	}
}

package extract

import (
	"reflect"
	"testing"
)

// TestBoldSetting: a bullet's bold label followed by its setting in
// parentheses is a fact; a parenthesis that is no setting, or a ticked
// progress line, is not.
func TestBoldSetting(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text, want string
	}{
		{"Rate limiting is in place:\n\n- **Exponential backoff on retry** (1s, 2s, 4s) — transient errors wait longer each time\n- **Single login per poll** — no repeated authentication\n",
			"Exponential backoff on retry: 1s, 2s, 4s"},
		{"요청 제한:\n\n- **재시도 간격** (1초, 2초, 4초) — 일시적인 오류는 점점 길게 기다립니다\n- **폴링당 로그인 한 번**\n",
			"재시도 간격: 1초, 2초, 4초"},
		{"Done:\n\n- **Pagination** (see below) — follows the Show More link\n- **Login** — once per poll\n", ""},
		{"Done:\n\n- ✅ **Retry backoff** (1s, 2s, 4s) — added\n- **Login** — once per poll\n", ""},
	}
	for _, c := range cases {
		msgs := []Message{{Index: 0, Role: "user", Text: "Summarise the scraper."}, {Index: 1, Role: "assistant", Text: c.text}}
		got := Offline(msgs)
		checkEntries(t, c.want, msgs, got)
		var titles []string
		for _, e := range got {
			titles = append(titles, e.Title)
		}
		found := false
		for _, ti := range titles {
			found = found || ti == c.want
		}
		if c.want != "" && !found {
			t.Errorf("%q: titles %q, want %q", c.text, titles, c.want)
		}
		if c.want == "" {
			for _, e := range got {
				if e.Type == Fact && (e.Subject == "retry backoff" || e.Subject == "pagination") {
					t.Errorf("%q: got %s, want no setting fact", c.text, dump(got))
				}
			}
		}
	}
}

// TestCreatedWith: "Created `path` with:" and the first listed code element
// under it say where that part lives; a line without a list under it, or a
// list that names no code, is not kept this way.
func TestCreatedWith(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text, wantTitle string
		wantQuotes      []string
	}{
		{"Phase 2:\n- Created `scrapers/meter_client.py` with:\n  - `MeterClient` class for session login and fetching\n  - `parse_rows()` for the HTML table\n",
			"scrapers/meter_client.py: MeterClient class for session login and fetching",
			[]string{"Created `scrapers/meter_client.py` with:", "`MeterClient` class for session login and fetching"}},
		{"2단계:\n- `scrapers/meter_client.py`를 다음과 같이 만들었습니다:\n  - `MeterClient` 클래스: 세션 로그인과 조회\n",
			"scrapers/meter_client.py: MeterClient 클래스: 세션 로그인과 조회",
			[]string{"`scrapers/meter_client.py`를 다음과 같이 만들었습니다:", "`MeterClient` 클래스: 세션 로그인과 조회"}},
		{"Phase 2:\n- Created `scrapers/meter_client.py` with:\n  - session login and fetching\n", "", nil},
	}
	for _, c := range cases {
		msgs := []Message{{Index: 0, Role: "user", Text: "Build the meter scraper."}, {Index: 1, Role: "assistant", Text: c.text}}
		got := Offline(msgs)
		checkEntries(t, c.text, msgs, got)
		var hit *Entry
		for i, e := range got {
			if e.Subject == "scrapers/meter_client.py" && len(e.Evidence) == 2 {
				hit = &got[i]
			}
		}
		if c.wantTitle == "" {
			if hit != nil {
				t.Errorf("%q: got %s, want no created-with fact", c.text, dump(got))
			}
			continue
		}
		if hit == nil {
			t.Fatalf("%q: got %s, want %q", c.text, dump(got), c.wantTitle)
		}
		var quotes []string
		for _, ev := range hit.Evidence {
			quotes = append(quotes, ev.Quote)
		}
		if hit.Title != c.wantTitle || !reflect.DeepEqual(quotes, c.wantQuotes) {
			t.Errorf("%q: title %q quotes %q, want %q %q", c.text, hit.Title, quotes, c.wantTitle, c.wantQuotes)
		}
	}
}

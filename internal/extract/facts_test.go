package extract

import "testing"

// TestBoldSetting: a bullet's bold label followed by its setting in
// parentheses is a fact; a parenthesis that is no setting, or a ticked
// progress line, is not.
func TestBoldSetting(t *testing.T) {
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

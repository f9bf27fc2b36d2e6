package extract

import (
	"reflect"
	"slices"
	"strings"
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
		{"Reconnects are handled:\n\n- **Linear backoff on reconnect** (2s, 4s, 6s) — dropped sockets wait longer each time\n- **One token per session** — no repeated handshakes\n",
			"Linear backoff on reconnect: 2s, 4s, 6s"},
		{"재연결:\n\n- **재연결 간격** (2초, 4초, 6초) — 끊긴 연결은 점점 길게 기다립니다\n- **세션당 토큰 한 번**\n",
			"재연결 간격: 2초, 4초, 6초"},
		{"Done:\n\n- **Batching** (see below) — follows the next-cursor field\n- **Token** — once per session\n", ""},
		{"Done:\n\n- ✅ **Reconnect backoff** (2s, 4s, 6s) — added\n- **Token** — once per session\n", ""},
	}
	for _, c := range cases {
		msgs := []Message{{Index: 0, Role: "user", Text: "Summarise the socket client."}, {Index: 1, Role: "assistant", Text: c.text}}
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
				if e.Type == Fact && (e.Subject == "reconnect backoff" || e.Subject == "batching") {
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

// TestLabelRepeatedWithOneValue: a summary said twice (a resumed session
// replays it) gives its "Label: value" lines the same value twice, which is
// one fact, kept; a label given two values ("File: a.mp4", "File: b.mp4")
// names no one thing and is still left out.
func TestLabelRepeatedWithOneValue(t *testing.T) {
	t.Parallel()
	summary := "Repository ready.\n\n- **Package Manager:** Pnpm 9.4.1\n- **Runtime:** Deno 1.44.2\n"
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Set up the repository for the kiosk app."},
		{Index: 1, Role: "assistant", Text: summary},
		{Index: 2, Role: "user", Text: "Set up the repository for the kiosk app."},
		{Index: 3, Role: "assistant", Text: summary},
		{Index: 4, Role: "user", Text: "Which clips did you render?"},
		{Index: 5, Role: "assistant", Text: "Rendered:\n\n- File: intro-v3.mp4\n- File: outro-v3.mp4\n"},
	}
	got := Offline(msgs)
	checkEntries(t, "repeated summary", msgs, got)
	bodies := map[string]int{}
	for _, e := range got {
		bodies[e.Body]++
	}
	for _, want := range []string{"Package Manager: Pnpm 9.4.1", "Runtime: Deno 1.44.2"} {
		if bodies[want] != 1 {
			t.Errorf("entries with body %q: %d, want 1\n%s", want, bodies[want], dump(got))
		}
	}
	for b := range bodies {
		if strings.HasPrefix(b, "File:") {
			t.Errorf("got %q, want no entry for a label given two values", b)
		}
	}
}

// TestColourIsAValue: a hex colour is a value a label can hold, as a port
// or a version is: "Accent: Coral (#e8735a)" says what the theme uses.
func TestColourIsAValue(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Restyle the landing page."},
		{Index: 1, Role: "assistant", Text: "The theme is in place.\n\n- **Primary**: Plum (#7b2d8e) for buttons and links\n- **Surface**: warm paper tone\n"},
	}
	got := Offline(msgs)
	checkEntries(t, "colour", msgs, got)
	var bodies []string
	for _, e := range got {
		bodies = append(bodies, e.Body)
	}
	if !slices.Contains(bodies, "Primary: Plum (#7b2d8e) for buttons and links") {
		t.Errorf("bodies %q, want the colour fact", bodies)
	}
	for _, b := range bodies {
		if strings.HasPrefix(b, "Surface") {
			t.Errorf("got %q, want no fact for a label without a value", b)
		}
	}
}

// TestMovedPath: a list item with an arrow from one path to another says
// where a file or folder is now; an arrow between two pieces of code is a
// rewrite of the moment and is not kept that way.
func TestMovedPath(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Move the site onto the bundler."},
		{Index: 1, Role: "assistant", Text: "Done.\n\n**Changes:**\n- `icons/` → `static/icons/` (served from the site root)\n- `window.CONFIG` → `export const config`\n"},
	}
	got := Offline(msgs)
	checkEntries(t, "moved path", msgs, got)
	var bodies []string
	for _, e := range got {
		bodies = append(bodies, e.Body)
	}
	if !slices.Contains(bodies, "icons/ → static/icons/ (served from the site root)") {
		t.Errorf("bodies %q, want the move", bodies)
	}
	for _, b := range bodies {
		if strings.Contains(b, "window.CONFIG") {
			t.Errorf("got %q, want no fact for a code rewrite", b)
		}
	}
}

// TestPastLabel: a label that says its value is past ("Before: …") states
// what a change replaced, not what the project uses; its pair ("After: …")
// is kept.
func TestPastLabel(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Move the queue off the old broker."},
		{Index: 1, Role: "assistant", Text: "Moved.\n\n**Before**: RabbitMQ 3.12 on one VM\n**After**: NATS 2.10 with JetStream\n"},
	}
	got := Offline(msgs)
	checkEntries(t, "past label", msgs, got)
	var bodies []string
	for _, e := range got {
		bodies = append(bodies, e.Body)
	}
	if slices.ContainsFunc(bodies, func(b string) bool { return strings.HasPrefix(b, "Before") }) {
		t.Errorf("bodies %q, want no fact labelled Before", bodies)
	}
	if !slices.Contains(bodies, "After: NATS 2.10 with JetStream") {
		t.Errorf("bodies %q, want the After fact", bodies)
	}
}

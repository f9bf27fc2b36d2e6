package extract

import (
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
)

// checkEntries asserts the invariants every Offline result keeps: valid
// types, short titles, at least one quote per entry, and every quote a
// non-empty verbatim substring of the message it cites.
func checkEntries(t *testing.T, name string, msgs []Message, entries []Entry) {
	t.Helper()
	byIndex := map[int]string{}
	for _, m := range msgs {
		byIndex[m.Index] = m.Text
	}
	if len(entries) > maxEntries {
		t.Errorf("%s: %d entries, want at most %d", name, len(entries), maxEntries)
	}
	valid := map[Type]bool{Decision: true, Fact: true, Preference: true, Constraint: true, Lesson: true, Task: true, Reference: true}
	for i, e := range entries {
		if !valid[e.Type] {
			t.Errorf("%s: entry %d has type %q", name, i, e.Type)
		}
		if n := utf8.RuneCountInString(e.Title); n == 0 || n > maxTitle {
			t.Errorf("%s: entry %d title has %d runes: %q", name, i, n, e.Title)
		}
		if !utf8.ValidString(e.Title) && utf8.ValidString(joinTexts(msgs)) {
			t.Errorf("%s: entry %d title is not valid UTF-8: %q", name, i, e.Title)
		}
		if len(e.Evidence) == 0 || len(e.Evidence) > maxEvidence {
			t.Errorf("%s: entry %d has %d quotes", name, i, len(e.Evidence))
		}
		for _, ev := range e.Evidence {
			text, ok := byIndex[ev.MessageIndex]
			switch {
			case !ok:
				t.Errorf("%s: entry %d cites message %d, which does not exist", name, i, ev.MessageIndex)
			case strings.TrimSpace(ev.Quote) == "":
				t.Errorf("%s: entry %d has an empty quote", name, i)
			case !strings.Contains(text, ev.Quote):
				t.Errorf("%s: entry %d quote %q is not in message %d", name, i, ev.Quote, ev.MessageIndex)
			}
		}
	}
	for i := 1; i < len(entries); i++ {
		if entries[i].Evidence[0].MessageIndex < entries[i-1].Evidence[0].MessageIndex {
			t.Errorf("%s: entries %d and %d are not ordered by first quote", name, i-1, i)
		}
	}
}

func joinTexts(msgs []Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Text)
	}
	return b.String()
}

// TestQuotesAreVerbatim checks the invariants over every test session.
func TestQuotesAreVerbatim(t *testing.T) {
	t.Parallel()
	for name, s := range testSessions(t) {
		msgs := s.messages()
		entries := Offline(msgs)
		if len(entries) == 0 {
			t.Errorf("%s: no entries", name)
		}
		checkEntries(t, name, msgs, entries)
	}
}

// TestBasicFixture runs the transcript fixture shared with the other
// packages: the RS256 decision and the test-keys fix must come out of it.
func TestBasicFixture(t *testing.T) {
	s := mustLoad(t, filepath.Join("testdata", "basic.json"))
	msgs := s.messages()
	entries := Offline(msgs)
	checkEntries(t, "basic", msgs, entries)

	find := func(types []Type, quote string) *Entry {
		for i, e := range entries {
			for _, ev := range e.Evidence {
				if in(typeStrings(types), string(e.Type)) && strings.Contains(ev.Quote, quote) {
					return &entries[i]
				}
			}
		}
		return nil
	}
	d := find([]Type{Decision}, "RS256 keys stored in `./keys`")
	if d == nil {
		t.Fatalf("no decision quoting %q in %s", "RS256 keys stored in `./keys`", dump(entries))
	}
	if got, want := d.Subject, "jwt signing algorithm"; got != want {
		t.Errorf("decision subject = %q, want %q", got, want)
	}
	if got, want := d.Title, "Use RS256 keys stored in ./keys"; got != want {
		t.Errorf("decision title = %q, want %q", got, want)
	}
	l := find([]Type{Lesson, Fact}, "test/fixtures/keys")
	if l == nil {
		t.Fatalf("no lesson or fact quoting test/fixtures/keys in %s", dump(entries))
	}
	if l.Type == Lesson && len(l.Evidence) < 2 {
		t.Errorf("lesson has %d quotes, want the failure and the fix", len(l.Evidence))
	}
}

func typeStrings(ts []Type) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

func dump(entries []Entry) string {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "\n  %s %q %q", e.Type, e.Subject, e.Title)
		for _, ev := range e.Evidence {
			fmt.Fprintf(&b, "\n    [%d] %q", ev.MessageIndex, ev.Quote)
		}
	}
	return b.String()
}

// TestOfflineWithCacheSame: extracting through a claim cache shared by
// every session, each twice (the second time from the cache), gives what
// extracting without one gives.
func TestOfflineWithCacheSame(t *testing.T) {
	t.Parallel()
	sessions := testSessions(t)
	names := slices.Sorted(maps.Keys(sessions))
	var cache claim.Cache
	for range 2 {
		for _, n := range names {
			msgs := sessions[n].messages()
			if got, want := OfflineWith(msgs, &cache), Offline(msgs); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: with a cache\n%+v\nwithout\n%+v", n, got, want)
			}
		}
	}
}

// TestOfflineIsDeterministic runs the extractor twice over every session.
func TestOfflineIsDeterministic(t *testing.T) {
	t.Parallel()
	names := []string{}
	sessions := testSessions(t)
	for n := range sessions {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		msgs := sessions[n].messages()
		a, b := Offline(msgs), Offline(msgs)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs differ", n)
		}
	}
}

func TestSentences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"plain", "We use Go. It is fast! Is it?", []string{"We use Go.", "It is fast!", "Is it?"}},
		{"code span", "Run `make test. now` first. Then push.", []string{"Run `make test. now` first.", "Then push."}},
		{"paths and versions", "Keys live in ./keys and src/app.js loads them. We are on 1.4.0 now.", []string{"Keys live in ./keys and src/app.js loads them.", "We are on 1.4.0 now."}},
		{"url", "See https://example.com/a.b/c. Then read it.", []string{"See https://example.com/a.b/c.", "Then read it."}},
		{"abbreviation", "Use a runner, e.g. vitest. Done.", []string{"Use a runner, e.g. vitest.", "Done."}},
		{"korean", "kustomize를 쓰기로 해요. 네임스페이스는 payments로 해 주세요.", []string{"kustomize를 쓰기로 해요.", "네임스페이스는 payments로 해 주세요."}},
		{"bullets", "Plan:\n- Create the DB.\n* Switch the URL\n1. Test it", []string{"Plan:", "Create the DB.", "Switch the URL", "Test it"}},
		{"fence of one line", "Run this:\n```\nrm -rf x. y\n```\nDone.", []string{"Run this:", "rm -rf x. y", "Done."}},
		{"fence of two lines", "Run this:\n```\nmake\nmake test\n```\nDone.", []string{"Run this:", "make", "make test", "Done."}},
		{"long fence", "Code:\n```\na\nb\nc\nd\ne\nf\ng\nh\ni\n```\nDone.", []string{"Code:", "Done."}},
		{"unclosed fence", "Ok.\n```\ncode. more", []string{"Ok."}},
		{"table row", "| a. | b |\nText.", []string{"a. | b", "Text."}},
		{"table header", "| Key | Value |\n|---|:--:|\n| Port | 6543 |", []string{"Port | 6543"}},
		{"chat", "k. I prefer tabs.", []string{"k.", "I prefer tabs."}},
		{"closing quote", "He said \"no.\" Then left.", []string{"He said \"no.\"", "Then left."}},
		{"fullwidth", "좋아요。다음", []string{"좋아요。", "다음"}},
		{"bold numbered item", "**1. Cart total fix** (`cart.go:42`):\n- Guarded it", []string{"Cart total fix** (`cart.go:42`):", "Guarded it"}},
		// Markers read one by one: reading the rest at each "**" took time
		// doubling with every marker (this line would not finish).
		// A backslash ending a line is the mark of a line typed on; an
		// escaped one (two) is text.
		{"line continuation", "The upload breaks on big files:\\\nSee below. \\  \nok", []string{"The upload breaks on big files:", "See below.", "ok"}},
		{"escaped backslash", "Set the root to C:\\\\\nok", []string{"Set the root to C:\\\\", "ok"}},
		{"bold numbers repeated", strings.Repeat("**1. ", 60) + "Done.", []string{"Done."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, sp := range sentences(tt.text) {
				got = append(got, tt.text[sp.start:sp.end])
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("sentences(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestOfflineCases checks one-sentence behaviour: what must become which
// entry type, and what must yield nothing.
func TestOfflineCases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		role string
		text string
		want Type // "" means no entry
	}{
		// decisions
		{"user", "Let's use pnpm for this repo.", Decision},
		{"user", "We decided to switch from jest to vitest.", Decision},
		{"assistant", "Decision: we will use RS256 keys instead of HS256.", Decision},
		{"user", "Postgres로 결정했어요.", Decision},
		{"user", "Replace moment with dayjs everywhere.", Decision},
		// not decisions
		{"user", "Should we use Redis here?", ""},
		{"user", "Maybe we could use Redis later.", ""},
		{"assistant", "We could also switch to vitest, but it is a big change.", ""},
		{"user", "Redis를 쓸까요?", ""},
		{"user", "Yeah, let's not do that now.", ""},
		{"assistant", "I'll use the existing helper.", ""},
		// constraints and preferences
		{"user", "Never commit the .env file.", Constraint},
		{"user", "Don't touch the migrations folder.", Constraint},
		{"user", "절대 main 브랜치에 직접 푸시하지 마세요.", Constraint},
		{"user", "I'd rather keep the API small.", Preference},
		{"user", "탭보다 스페이스를 선호해요.", Preference},
		{"user", "I don't know why it broke.", ""},
		{"user", "It never worked on Windows.", ""},
		// facts
		{"user", "We're on Node 20 in production.", Fact},
		{"assistant", "The config is read from `APP_CONFIG_PATH`.", Fact},
		{"user", "Remember that the staging DB is shared with QA.", Fact},
		{"user", "설정 파일은 `config/app.yaml`에 있어요.", Fact},
		// lessons
		{"assistant", "The root cause was a missing index on orders.user_id.", Lesson},
		{"assistant", "원인은 캐시 키에 사용자 ID가 빠진 것이었습니다.", Lesson},
		{"assistant", "It failed because the token expired before the retry.", Lesson},
		// tasks
		{"user", "TODO: add rate limiting to the login endpoint.", Task},
		{"assistant", "You still need to rotate the API key before release.", Task},
		{"assistant", "You still need to rotate the API key.", ""}, // a step of the work in hand
		{"user", "다음 주까지 로그 보존 정책을 정리해야 해요.", Task},
		// references
		{"user", "The design doc is tracked in JIRA-812.", Reference},
		// chit-chat
		{"user", "Thanks, that's great!", ""},
		{"assistant", "Happy to help. Anything else?", ""},
		{"user", "안녕하세요! 오늘도 잘 부탁해요.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			msgs := []Message{{Index: 0, Role: tt.role, Text: tt.text}}
			got := Offline(msgs)
			checkEntries(t, tt.text, msgs, got)
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("got %s, want no entry", dump(got))
			case tt.want != "" && (len(got) == 0 || got[0].Type != tt.want):
				t.Errorf("got %s, want a %s", dump(got), tt.want)
			}
		})
	}
}

// TestOfflineMergesRepeats: the same decision said twice is one entry with
// two quotes.
func TestOfflineMergesRepeats(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Let's use slog for logging."},
		{Index: 1, Role: "assistant", Text: "I replaced logrus with slog in all files."},
	}
	got := Offline(msgs)
	if len(got) != 1 {
		t.Fatalf("got %d entries, want 1: %s", len(got), dump(got))
	}
	if got, want := got[0].Subject, "logging library"; got != want {
		t.Errorf("subject = %q, want %q", got, want)
	}
	if got, want := len(got[0].Evidence), 2; got != want {
		t.Errorf("%d quotes, want %d", got, want)
	}
}

// TestOfflineKeepsThirtyPerSession: a session with 35 rules keeps its 30
// best. Past 30 entries, what one long session adds is mostly its chat
// (real-sessions-2 fold A: the one session above 30 added 10 memories there,
// none judged useful).
func TestOfflineKeepsThirtyPerSession(t *testing.T) {
	t.Parallel()
	var msgs []Message
	for i := range 35 {
		msgs = append(msgs, Message{Index: i, Role: "user", Text: fmt.Sprintf("Never edit `gen/part_%d.go` by hand.", i)})
	}
	if got := Offline(msgs); len(got) != 30 {
		t.Errorf("got %d entries, want 30", len(got))
	}
}

// TestOfflineCapsEntries: a session with many claims keeps at most
// maxEntries, ordered by their first quote.
func TestOfflineCapsEntries(t *testing.T) {
	t.Parallel()
	var msgs []Message
	for i := range 120 {
		msgs = append(msgs, Message{Index: i, Role: "user", Text: fmt.Sprintf("Never edit `gen/model_%d.go` by hand.", i)})
	}
	got := Offline(msgs)
	checkEntries(t, "cap", msgs, got)
	if len(got) != maxEntries {
		t.Errorf("got %d entries, want %d", len(got), maxEntries)
	}
}

// TestOfflineLongSentence quotes the clause holding the trigger of a very
// long sentence.
func TestOfflineLongSentence(t *testing.T) {
	t.Parallel()
	long := "While we were cleaning up the build scripts, renaming a few targets, moving the docker files around, " +
		"updating the CI cache keys and the README, and arguing about tabs, we decided to switch to pnpm for the monorepo, " +
		"which should make installs faster, reduce the disk usage on the runners, and let us drop the custom hoisting config " +
		"that nobody understands any more, at least not since the last person who wrote it left."
	msgs := []Message{{Index: 0, Role: "user", Text: long}}
	got := Offline(msgs)
	checkEntries(t, "long", msgs, got)
	if len(got) != 1 || got[0].Type != Decision {
		t.Fatalf("got %s, want one decision", dump(got))
	}
	q := got[0].Evidence[0].Quote
	if len(q) > maxQuote || !strings.Contains(q, "switch to pnpm") {
		t.Errorf("quote %q (%d bytes), want the clause with the trigger, at most %d bytes", q, len(q), maxQuote)
	}
}

// TestOfflineSkipsToolAndCode: tool output and code blocks are not claims.
func TestOfflineSkipsToolAndCode(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "tool", Text: "Bash: cat notes.md\nWe decided to use MySQL. Never use Postgres. TODO: migrate."},
		{Index: 1, Role: "assistant", Text: "Here is the snippet:\n```\n// we decided to use MySQL\n// TODO: never do this\n```"},
	}
	if got := Offline(msgs); len(got) != 0 {
		t.Errorf("got %s, want nothing", dump(got))
	}
}

// TestOfflineLessonPairsFailure: a fix quotes the tool failure it explains.
func TestOfflineLessonPairsFailure(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "The build is red."},
		{Index: 1, Role: "tool", Text: "Bash: go test ./... (error)\n--- FAIL: TestParse (0.00s)\n    parse_test.go:12: expected 3 fields, got 2\nFAIL"},
		{Index: 2, Role: "assistant", Text: "The problem was that the parser dropped the last empty field. I fixed it by splitting with `strings.Split` instead of `strings.Fields`."},
	}
	got := Offline(msgs)
	checkEntries(t, "lesson", msgs, got)
	if len(got) != 1 || got[0].Type != Lesson {
		t.Fatalf("got %s, want one lesson", dump(got))
	}
	var quotes []string
	for _, ev := range got[0].Evidence {
		quotes = append(quotes, ev.Quote)
	}
	want := []string{"parse_test.go:12: expected 3 fields, got 2", "The problem was that the parser dropped the last empty field.",
		"I fixed it by splitting with `strings.Split` instead of `strings.Fields`."}
	if !reflect.DeepEqual(quotes, want) {
		t.Errorf("quotes %q, want %q", quotes, want)
	}
}

// TestOfflineEmptyAndOdd: no messages, empty texts and odd roles are fine.
func TestOfflineEmptyAndOdd(t *testing.T) {
	t.Parallel()
	if got := Offline(nil); len(got) != 0 {
		t.Errorf("Offline(nil) = %v", got)
	}
	msgs := []Message{{Index: 0, Role: "", Text: "Never do X."}, {Index: 1, Role: "user", Text: ""}, {Index: 2, Role: "USER", Text: "   "}}
	if got := Offline(msgs); len(got) != 0 {
		t.Errorf("got %s, want nothing", dump(got))
	}
}

// TestLessonTriggerEndsAClause: a lesson's trigger that ends in a colon
// ("the real issue:") closes its own clause; the subject is the clause after
// it, not the trigger word. Cutting it from the trigger's clause panicked.
func TestLessonTriggerEndsAClause(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ text, subject string }{
		{"The real issue: pgbouncer was dropping prepared statements after a reload.", "pgbouncer dropping prepared"},
		{"The workaround: pin pgbouncer to 1.21 until the fix lands.", "pin pgbouncer 1.21"},
	} {
		s := newSent(0, 0, tt.text, false)
		hits, _ := analyze(s)
		if len(hits) == 0 || hits[0].typ != Lesson {
			t.Fatalf("%q: hits %+v, want a lesson first", tt.text, hits)
		}
		var c cand
		describeLesson(s, hits[0], &c)
		if c.subject != tt.subject {
			t.Errorf("%q: subject %q, want %q", tt.text, c.subject, tt.subject)
		}
	}
}

// TestFailed: a run's output shows a failure even when the run exited 0
// (its output piped, or ended by an echo); an edit's text never does.
func TestFailed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"Bash: ./gradlew test | tail -5\nerror: cannot find symbol JsonCreator\nBUILD FAILED", true},
		{"Bash: go test ./...\nok  \texample.com/ledger\t0.2s", false},
		{"Edit: main.go\n- log.Fatal(err)\n+ return fmt.Errorf(\"error: %w\", err)", false},
	} {
		if got := Failed(tt.text); got != tt.want {
			t.Errorf("Failed(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

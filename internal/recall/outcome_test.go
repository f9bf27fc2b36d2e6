package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

func TestOutcomeRE(t *testing.T) {
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"Last time we meant to squash the release branch into one commit. Did that land?", true},
		{"Where did we leave off last session?", true},
		{"Почему в прошлый раз импорт так и не закончили? Где мы остановились?", true},
		{"지난번 배포는 어떻게 됐어?", true},
		// How-questions and outcomes of things outside the project.
		{"gradle sync breaks on a fresh clone. How did we get past that before?", false},
		{"What happened to Python 2?", false},
		{"Did it work in Python 2?", false},
	} {
		if got := outcomeRE.MatchString(tt.prompt) && earlierRE.MatchString(tt.prompt); got != tt.want {
			t.Errorf("%q: outcome question = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

// "Did that go through?" is answered by what followed the recalled turn in
// its session: here a hook blocking the command that would have done it.
func TestRecallsWhatFollowed(t *testing.T) {
	db := storetest.Open(t)
	filler(t, db)
	ctx := context.Background()
	say(t, db, "ws", day,
		"i want the release branch to be one clean commit",
		"An interactive rebase is the cleanest way: squash the release branch's commits into one and force-push it.",
		"yes")
	evs := []store.Event{
		{Time: day.Add(4 * time.Minute), Type: store.TypeToolObservation, SessionID: "ws", Project: proj, DedupeKey: "ws:t1",
			Text: "Bash: git push --force origin release (error)\nPreToolUse:Bash hook error: BLOCKED: force push to a guarded branch refused"},
		{Time: day.Add(5 * time.Minute), Type: store.TypeAgentResponse, SessionID: "ws", Project: proj, DedupeKey: "ws:t2",
			Text: "The hook refused the push, so I stopped here."},
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		t.Fatal(err)
	}
	got := recallFor(t, db, defaults(), "Last time we wanted to squash the release branch into one commit. Did that go through?")
	for _, want := range []string{"squash", "force push to a guarded branch", "stopped here"} {
		if !strings.Contains(got, want) {
			t.Errorf("context lacks %q:\n%s", want, got)
		}
	}
	// The same words asked as a plain question get the plan, not the outcome.
	if got := recallFor(t, db, defaults(), "How does the release branch get squashed into one commit?"); strings.Contains(got, "guarded branch") {
		t.Errorf("an outcome shown for a how-question:\n%s", got)
	}
}

// With nothing recalled, "where did we leave off?" is answered by the end of
// the project's latest session.
func TestRecallsHowTheLastSessionEnded(t *testing.T) {
	db := storetest.Open(t)
	filler(t, db)
	ctx := context.Background()
	for i, id := range []string{"old", "latest"} {
		start := day.AddDate(0, 0, i)
		if err := db.Update(ctx, func(tx *store.Tx) error {
			return tx.TouchSession(ctx, store.Session{ID: id, Project: proj, StartedAt: start})
		}); err != nil {
			t.Fatal(err)
		}
		say(t, db, id, start, fmt.Sprintf("write the gateway's config module (%s)", id),
			fmt.Sprintf("Upstream model call failed: connection reset by peer (%s)", id))
	}
	got := recallFor(t, db, defaults(), "Вчера мы так и не закончили модуль. Где остановились?")
	if !strings.Contains(got, "connection reset by peer (latest)") || strings.Contains(got, "(old)") {
		t.Errorf("want the latest session's end:\n%s", got)
	}
}

// FuzzContext: whatever the prompt (idioms, synonyms, Russian endings, outcome
// questions included), composing the context never fails or panics, and what
// it injects is valid UTF-8.
func FuzzContext(f *testing.F) {
	for _, s := range []string{"Did that go through last time?", "Где лежит папка импорта?", "out of the box touch zones",
		"how often does it sync every 8-hour", "импорта\xff", "где мы остановились", "", "(((", "mem:t1 did we finish?",
		"the db is slow; check the database-facing loader", "paging page pagination", "토큰 만료 토큰을 갱신"} {
		f.Add(s)
	}
	db := storetest.Open(f)
	say(f, db, "s", day, "Release branch squashed for the api repo, every 8 hours the sync runs.", "Redis is at 10.44.0.7, not 10.44.0.1.")
	f.Fuzz(func(t *testing.T, prompt string) {
		out, err := Compose(context.Background(), db, defaults(), Request{Project: proj, SessionID: "now", Prompt: prompt, Now: day.AddDate(0, 1, 0), Glosses: repoGlosses()})
		if err != nil {
			t.Fatalf("%q: %v", prompt, err)
		}
		if !utf8.ValidString(out.Text) {
			t.Fatalf("%q: invalid UTF-8 injected", prompt)
		}
	})
}

func TestFailed(t *testing.T) {
	for text, want := range map[string]bool{
		"API Error: 529 overloaded":                                   true,
		"Error: the session could not reach the model":                true,
		"Upstream model call failed: connection reset by peer (x)":    true,
		"The deploy request timed out after 30 s":                     true,
		"Fixed the parse error in config.go.":                         false,
		"The timeout is now 30 s.":                                    false,
		"I changed the error handling so failed jobs are retried.":    false,
		"Error: x\nThen I ran the tests again and everything passed.": false,
	} {
		if got := failed(store.Event{Type: store.TypeAgentResponse, Text: text}); got != want {
			t.Errorf("failed(%q) = %v, want %v", text, got, want)
		}
	}
	// A tool run: the capture's mark, or a background command's status.
	for text, want := range map[string]bool{
		"Bash: npm test (error)\nExit code 1":                                       true,
		"BashOutput\n<status>failed</status>\n\n<exit_code>2</exit_code>\n<stderr>": true,
		"BashOutput\n<status>completed</status>\n\n<exit_code>1</exit_code>":        true,
		"BashOutput\n<status>completed</status>\n\n<exit_code>0</exit_code>\nok":    false,
		"BashOutput\n<status>running</status>\n\n<stdout>\nlistening":               false,
		"Bash: cat notes.md\n<status>failed</status> is what the page shows":        false,
	} {
		if got := failed(store.Event{Type: store.TypeToolObservation, Text: text}); got != want {
			t.Errorf("failed(tool %q) = %v, want %v", text, got, want)
		}
	}
}

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
		{"Last time we wanted to turn the embedded repos into submodules. Did that go through?", true},
		{"Where did we leave off last session?", true},
		{"Почему в прошлый раз шлюз так и не доделали? На чём оборвалась сессия?", true},
		{"지난번 배포는 어떻게 됐어?", true},
		// How-questions and outcomes of things outside the project.
		{"cargo build fails at compile time. How did we get around that before?", false},
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
		"i want one workspace for all three repos",
		"Git submodules is the cleanest way: turn the embedded api and firmware repos into submodules of the dashboard repo.",
		"yes")
	evs := []store.Event{
		{Time: day.Add(4 * time.Minute), Type: store.TypeToolObservation, SessionID: "ws", Project: proj, DedupeKey: "ws:t1",
			Text: "Bash: rm -rf api firmware (error)\nPreToolUse:Bash hook error: BLOCKED: Dangerous rm command detected and prevented"},
		{Time: day.Add(5 * time.Minute), Type: store.TypeAgentResponse, SessionID: "ws", Project: proj, DedupeKey: "ws:t2",
			Text: "The hook blocked the removal, so I stopped here."},
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		t.Fatal(err)
	}
	got := recallFor(t, db, defaults(), "Last time we wanted to turn the embedded repos into submodules. Did that go through?")
	for _, want := range []string{"submodules", "Dangerous rm command", "stopped here"} {
		if !strings.Contains(got, want) {
			t.Errorf("context lacks %q:\n%s", want, got)
		}
	}
	// The same words asked as a plain question get the plan, not the outcome.
	if got := recallFor(t, db, defaults(), "How do the embedded repos become submodules?"); strings.Contains(got, "Dangerous rm") {
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
	for _, s := range []string{"Did that go through last time?", "Где лежит проект шлюза?", "out of the box tap targets",
		"how often does it poll every 12-hour", "шлюза\xff", "на чём оборвалась сессия", "", "(((", "mem:t1 did we finish?"} {
		f.Add(s)
	}
	db := storetest.Open(f)
	say(f, db, "s", day, "Git submodules for the api repo, every 12 hours the sync polls.", "Postgres is at 172.20.0.5, not 172.17.0.1.")
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
}

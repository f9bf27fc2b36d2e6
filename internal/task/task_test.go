package task

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

func putEntry(t *testing.T, db *store.DB, typ, title string, at time.Time) store.Entry {
	t.Helper()
	x, _, err := db.PutEntry(context.Background(), store.Entry{Project: "/p", SessionID: "s1", Type: typ, Title: title,
		ClaimKey: typ + "|" + title, Stage: store.StageVerified, Created: at})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestCloseByHand(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	day := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	older := putEntry(t, db, "task", "Document the flags", day)
	newer := putEntry(t, db, "task", "Bump the schema version", day.Add(time.Hour))
	fact := putEntry(t, db, "fact", "The API listens on 8080", day)

	open, err := List(ctx, db, "/p", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 2 || open[0].CID != newer.CID || open[1].CID != older.CID {
		t.Fatalf("open tasks %v, want the two tasks newest first", open)
	}
	if _, err := Close(ctx, db, fact, Done, day); !errors.Is(err, ErrNotTask) {
		t.Errorf("closing a fact: %v, want ErrNotTask", err)
	}
	if ok, err := Close(ctx, db, older, Dropped, day); !ok || err != nil {
		t.Fatalf("drop: %v %v", ok, err)
	}
	if ok, err := Close(ctx, db, older, Done, day); ok || err != nil {
		t.Errorf("closing a closed task again: %v %v, want false, nil", ok, err)
	}
	open, _ = List(ctx, db, "/p", false)
	if len(open) != 1 || open[0].CID != newer.CID {
		t.Errorf("open after the drop: %v", open)
	}
	all, _ := List(ctx, db, "/p", true)
	if len(all) != 2 || all[1].Closed == nil || all[1].Closed.How != Dropped || !all[1].Closed.ByHand {
		t.Errorf("all tasks: %+v, want the dropped one closed by hand", all)
	}
}

func TestReportsDone(t *testing.T) {
	want := words("Let's leave the rate limiter metrics for tomorrow")
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"The rate limiter metrics are done", true},
		{"Finished the rate limiter metrics", true},
		{"rate limiter metrics: fixed", true},
		{"The rate limiter metrics aren't done", false},
		{"The rate limiter metrics are not finished yet", false},
		{"Are the rate limiter metrics done?", false},
		{"The rate limiter is done", true}, // two of the task's words, the whole of the report's
		{"The login page redesign is done", false},
		{"The rate limiter metrics need work", false},
	} {
		if got := reportsDone(tt.s, want); got != tt.want {
			t.Errorf("reportsDone(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// mayClose lets Finish skip listing the tasks only for a session in
// which nothing could close one: every kind of closing message says yes.
func TestMayClose(t *testing.T) {
	t.Parallel()
	prompt := func(text string) store.Event { return store.Event{Type: store.TypeUserPrompt, Text: text} }
	tool := func(text string) store.Event { return store.Event{Type: store.TypeToolObservation, Text: text} }
	for _, tt := range []struct {
		name string
		evs  []store.Event
		want bool
	}{
		{"a plan step completed", []store.Event{tool("TodoWrite: [completed] Add a page parameter")}, true},
		{"a user reports work done", []store.Event{prompt("Thanks. The export is done, I checked it.")}, true},
		{"nothing reported", []store.Event{prompt("Add pagination."), tool("TodoWrite: [pending] Add a page parameter")}, false},
		{"a question", []store.Event{prompt("Is the export done?")}, false},
		{"a negation", []store.Event{prompt("The export is not finished yet.")}, false},
		{"a slash command", []store.Event{prompt("/review done")}, false},
		{"the model's claim", []store.Event{{Type: store.TypeAgentResponse, Text: "The export is done."}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			texts := make([]string, len(tt.evs))
			for i, e := range tt.evs {
				if e.Type == store.TypeToolObservation {
					texts[i] = e.Text
				}
			}
			if got := mayClose(tt.evs, observation.Steps(texts)); got != tt.want {
				t.Errorf("mayClose = %v, want %v", got, tt.want)
			}
		})
	}
}

// A teammate's task is not listed: its closure would be their machine's
// event, never seen here, so it would stay open for good.
func TestListLeavesOutTeammatesTasks(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	day := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	own := putEntry(t, db, "task", "Document the flags", day)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.PutPulled(ctx, store.Pulled{SharedID: "t1", Project: "/p", Author: "alice", Type: "task",
			Title: "Rotate the staging keys", Stage: store.StageVerified, Status: store.StatusActive,
			Created: store.FormatTime(day), Quotes: []string{"later we should rotate the staging keys"}})
	}); err != nil {
		t.Fatal(err)
	}
	ts, err := List(ctx, db, "/p", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].CID != own.CID {
		t.Errorf("tasks %+v, want only one's own", ts)
	}
}

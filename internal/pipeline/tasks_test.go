package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/export"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/task"
)

// storeSession stores a session's messages: "user: …", "assistant: …" or
// "tool: …" each, a minute apart from start.
func storeSession(t *testing.T, db *store.DB, sid string, start time.Time, msgs ...string) {
	t.Helper()
	ctx := context.Background()
	types := map[string]string{"user": store.TypeUserPrompt, "assistant": store.TypeAgentResponse, "tool": store.TypeToolObservation}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		if err := tx.TouchSession(ctx, store.Session{ID: sid, Project: "/p"}); err != nil {
			return err
		}
		for i, m := range msgs {
			var role, text string
			fmt.Sscanf(m, "%s", &role)
			text = m[len(role)+1:]
			role = role[:len(role)-1]
			if _, err := tx.Append(ctx, store.Event{Time: start.Add(time.Duration(i) * time.Minute), Type: types[role],
				SessionID: sid, Project: "/p", Text: text, DedupeKey: fmt.Sprintf("t:%s:%d", sid, i)}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func taskTitles(ts []task.Task) []string {
	var out []string
	for _, x := range ts {
		out = append(out, x.Title)
	}
	return out
}

// TestTasksOpenThenFinished: a session leaves a plan step and a put-off
// piece of work open; the next session finishes both (the plan marks the
// step completed, the user reports the other done), and neither is open
// after it, each closure keeping the words that closed it.
func TestTasksOpenThenFinished(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	day := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	storeSession(t, db, "s1", day,
		"user: Add pagination to the orders endpoint.",
		"tool: TodoWrite: [in_progress] Add a page parameter to the orders handler; [pending] Document pagination in the API guide",
		"assistant: The handler takes a page parameter now.",
		"tool: TodoWrite: [completed] Add a page parameter to the orders handler; [pending] Document pagination in the API guide",
		"user: Good. Let's leave the rate limiter metrics for tomorrow.",
		"assistant: OK.")
	process(t, db, "s1")
	open, err := task.List(ctx, db, "/p", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 2 {
		t.Fatalf("open tasks after session 1: %q, want the pending todo and the put-off work", taskTitles(open))
	}

	storeSession(t, db, "s2", day.Add(24*time.Hour),
		"user: Carry on with what was left.",
		"tool: TodoWrite: [in_progress] Document pagination in the API guide",
		"tool: TodoWrite: [completed] Document pagination in the API guide",
		"user: Thanks. The rate limiter metrics are done too, I wired them up myself.")
	res := process(t, db, "s2")
	if res.TasksClosed != 2 {
		t.Errorf("session 2 closed %d tasks, want 2", res.TasksClosed)
	}
	if open, _ = task.List(ctx, db, "/p", false); len(open) != 0 {
		t.Errorf("still open after session 2: %q", taskTitles(open))
	}
	all, err := task.List(ctx, db, "/p", true)
	if err != nil {
		t.Fatal(err)
	}
	quotes := map[string]bool{}
	for _, x := range all {
		if x.Closed == nil || x.Closed.How != task.Done || x.Closed.SessionID != "s2" {
			t.Errorf("task %q: closure %+v, want done by s2", x.Title, x.Closed)
			continue
		}
		quotes[x.Closed.Quote] = true
	}
	for _, q := range []string{"Document pagination in the API guide", "The rate limiter metrics are done too"} {
		if !quotes[q] {
			t.Errorf("no closure quotes %q (quotes: %v)", q, quotes)
		}
	}

	// Processing the session again closes nothing twice.
	if res := process(t, db, "s2"); res.TasksClosed != 0 {
		t.Errorf("processing s2 again closed %d tasks", res.TasksClosed)
	}
}

// TestTasksNotClosedByOtherWork: a report that something else is done, a
// negated one, a question and the model's own claim leave the task open.
func TestTasksNotClosedByOtherWork(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	day := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	storeSession(t, db, "s1", day, "user: Let's leave the rate limiter metrics for tomorrow.", "assistant: OK.")
	process(t, db, "s1")
	storeSession(t, db, "s2", day.Add(24*time.Hour),
		"user: The login page redesign is done.",
		"user: The rate limiter metrics are not done yet.",
		"user: Are the rate limiter metrics done?",
		"assistant: The rate limiter metrics are done.")
	process(t, db, "s2")
	open, err := task.List(ctx, db, "/p", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) != 1 {
		t.Fatalf("open tasks %q, want the rate limiter task still open", taskTitles(open))
	}
}

// closedQuotes maps each closed task's title to the quote that closed it.
func closedQuotes(t *testing.T, db *store.DB) map[string]string {
	t.Helper()
	all, err := task.List(context.Background(), db, "/p", true)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, x := range all {
		if x.Closed != nil {
			out[x.Title] = x.Closed.Quote
		}
	}
	return out
}

// TestTaskClosureExportAndForget: a closure survives an export and its
// restore into another store with its quote; forgetting the closing
// session opens the task again, and forgetting the task takes its
// closure with it.
func TestTaskClosureExportAndForget(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	day := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	storeSession(t, db, "s1", day, "user: Let's leave the rate limiter metrics for tomorrow.", "assistant: OK.")
	process(t, db, "s1")
	storeSession(t, db, "s2", day.Add(24*time.Hour), "user: Morning.", "user: The rate limiter metrics are done.")
	process(t, db, "s2")
	want := map[string]string{"Let's leave the rate limiter metrics for tomorrow": "The rate limiter metrics are done."}
	if got := closedQuotes(t, db); !reflect.DeepEqual(got, want) {
		t.Fatalf("closed tasks %v, want %v", got, want)
	}

	var dump bytes.Buffer
	if err := export.Write(ctx, db, "/p", day, &dump); err != nil {
		t.Fatal(err)
	}
	other := storetest.Open(t)
	// Another store's row ids differ: a message stored first shifts them.
	storeSession(t, other, "s0", day.Add(-time.Hour), "user: Unrelated.", "user: Another unrelated prompt.")
	if _, err := export.Restore(ctx, other, bytes.NewReader(dump.Bytes()), io.Discard, export.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := closedQuotes(t, other); !reflect.DeepEqual(got, want) {
		t.Errorf("after export and restore: %v, want %v", got, want)
	}

	if _, err := db.Forget(ctx, store.ForgetSelector{SessionID: "s2"}); err != nil {
		t.Fatal(err)
	}
	open, _ := task.List(ctx, db, "/p", false)
	if len(open) != 1 {
		t.Fatalf("after forgetting the closing session: open %q, want the task open again", taskTitles(open))
	}
	if _, err := db.Forget(ctx, store.ForgetSelector{CID: open[0].CID}); err != nil {
		t.Fatal(err)
	}
	evs, err := other.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeTaskClosed}})
	if err != nil || len(evs) != 1 {
		t.Fatalf("the restored store's closures: %d, %v", len(evs), err)
	}
	cid := open[0].CID
	if _, err := other.Forget(ctx, store.ForgetSelector{CID: cid}); err != nil {
		t.Fatal(err)
	}
	if evs, _ := other.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeTaskClosed}}); len(evs) != 0 {
		t.Errorf("forgetting the task left its closure: %+v", evs)
	}
}

// TestTaskReopened: a closed task said again in a later session (the same
// step left pending in a new plan) is open again, and a later session that
// finishes it closes it again.
func TestTaskReopened(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	day := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	pending := "tool: TodoWrite: [completed] Bump the version; [pending] Run the database migration"
	done := "tool: TodoWrite: [completed] Run the database migration"
	for i, msgs := range [][]string{
		{"user: Release prep.", pending},
		{"user: Go on.", done},
		{"user: Next release.", pending},
	} {
		storeSession(t, db, fmt.Sprintf("s%d", i+1), day.AddDate(0, 0, i), msgs...)
		process(t, db, fmt.Sprintf("s%d", i+1))
		open, err := task.List(ctx, db, "/p", false)
		if err != nil {
			t.Fatal(err)
		}
		if want := i != 1; (len(open) == 1) != want || len(open) > 1 {
			t.Fatalf("after session %d: open %q, want the migration open: %v", i+1, taskTitles(open), want)
		}
	}
	open, _ := task.List(ctx, db, "/p", false)
	if ok, err := task.Close(ctx, db, open[0].Entry, task.Dropped, day.AddDate(0, 0, 3)); !ok || err != nil {
		t.Fatalf("dropping the reopened task: %v %v", ok, err)
	}
	storeSession(t, db, "s4", day.AddDate(0, 0, 4), "user: Go on.", done)
	process(t, db, "s4")
	if open, _ := task.List(ctx, db, "/p", false); len(open) != 0 {
		t.Errorf("open after the drop: %q", taskTitles(open))
	}
}

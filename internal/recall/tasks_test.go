package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/task"
)

// TestBriefOpenTasks: the brief lists the open tasks newest first, at most
// a few with a count of the rest, and neither a closed task nor a task
// among the key memories.
func TestBriefOpenTasks(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	put(t, db, "decision", "jwt signing", "Use RS256 keys in ./keys for JWT signing", "we will use RS256 keys stored in `./keys`", 0)
	var tasks []string
	for i := range briefTasks + 2 {
		title := fmt.Sprintf("Write the migration guide part %d", i)
		put(t, db, "task", "guide", title, "later we should write part "+fmt.Sprint(i), i+1)
		tasks = append(tasks, title)
	}
	closed := put(t, db, "task", "metrics", "Wire the rate limiter metrics", "let's leave the rate limiter metrics for tomorrow", 20)
	if ok, err := task.Close(ctx, db, closed, task.Done, day); !ok || err != nil {
		t.Fatal(ok, err)
	}
	got, err := Brief(ctx, db, defaults(), proj, "now")
	if err != nil {
		t.Fatal(err)
	}
	section := got[strings.Index(got, "Open tasks:"):]
	section, _, _ = strings.Cut(section, "Key memories:")
	lines := strings.Split(strings.TrimSpace(section), "\n")
	if len(lines) != 1+briefTasks+1 || lines[len(lines)-1] != "- and 2 more" {
		t.Fatalf("open tasks section:\n%s", section)
	}
	for i, l := range lines[1 : 1+briefTasks] {
		if want := tasks[len(tasks)-1-i]; !strings.HasSuffix(l, want) {
			t.Errorf("line %d %q, want task %q (newest first)", i, l, want)
		}
	}
	if strings.Contains(got, "rate limiter") {
		t.Errorf("the brief shows a closed task:\n%s", got)
	}
	if strings.Count(got, "migration guide") != briefTasks {
		t.Errorf("tasks repeated among key memories:\n%s", got)
	}
}

// TestRecallMarksClosedTasks: a task recalled for a prompt says it is
// closed once it is, so that finished work is not taken for work to do.
func TestRecallMarksClosedTasks(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	x := put(t, db, "task", "metrics", "Wire the rate limiter metrics into the dashboard", "let's wire the rate limiter metrics into the dashboard tomorrow", 0)
	prompt := func(id string) string {
		inj, err := Compose(ctx, db, defaults(), Request{Project: proj, SessionID: "s9", PromptID: id,
			Prompt: "What about the rate limiter metrics for the dashboard?", Now: day.AddDate(0, 0, 3)})
		if err != nil {
			t.Fatal(err)
		}
		return inj.Text
	}
	if got := prompt("p1"); !strings.Contains(got, x.CID) || strings.Contains(got, "task closed") {
		t.Fatalf("the open task recalled as:\n%s", got)
	}
	if _, err := task.Close(ctx, db, x, task.Done, day.AddDate(0, 0, 2)); err != nil {
		t.Fatal(err)
	}
	if got := prompt("p2"); !strings.Contains(got, x.CID+"] task") || !strings.Contains(got, "(task closed: done 2026-11-22)") {
		t.Errorf("the closed task recalled as:\n%s", got)
	}
}

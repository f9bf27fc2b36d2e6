package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/task"
)

// TestTasksTool: tasks lists the project's open tasks with their quotes;
// all adds the closed ones, marked so.
func TestTasksTool(t *testing.T) {
	t.Parallel()
	cfg, db := newStore(t)
	ctx := context.Background()
	day := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	put := func(title, quote string) store.Entry {
		var id int64
		if err := db.Update(ctx, func(tx *store.Tx) error {
			res, err := tx.Append(ctx, store.Event{Time: day, Type: store.TypeUserPrompt, SessionID: "s", Project: "/p", Text: quote, DedupeKey: "k:" + quote})
			id = res.IDs[0]
			return err
		}); err != nil {
			t.Fatal(err)
		}
		x, _, err := db.PutEntry(ctx, store.Entry{Project: "/p", SessionID: "s", Type: "task", Title: title, ClaimKey: "task|" + title,
			Stage: store.StageVerified, Created: day, Evidence: []store.Evidence{{SessionID: "s", EventID: id, Quote: quote, SpanEnd: len(quote), Method: "exact", Confidence: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	open := put("Document the flags", "later we should document the flags")
	done := put("Bump the schema version", "let's bump the schema version next week")
	if _, err := task.Close(ctx, db, done, task.Done, day); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cs := connect(t, &Server{Config: cfg, Project: "/p"})
	out, isErr := callText(t, cs, "tasks", nil)
	if isErr || !strings.Contains(out, open.CID) || !strings.Contains(out, "later we should document the flags") || strings.Contains(out, done.CID) {
		t.Errorf("tasks: %q", out)
	}
	out, _ = callText(t, cs, "tasks", map[string]any{"all": true})
	if !strings.Contains(out, "["+done.CID+"] done 2026-11-20") {
		t.Errorf("tasks all: %q", out)
	}
}

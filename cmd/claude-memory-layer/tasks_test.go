package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestTasksCommand: tasks lists the open tasks of --project, --json gives
// them with their state, close and drop close one by hand (once), and
// --all shows the closed ones too.
func TestTasksCommand(t *testing.T) {
	c := newCLI(t)
	db := c.db()
	ctx := context.Background()
	var cids []string
	for i, title := range []string{"Document the flags", "Bump the schema version", "Rename the worker pool"} {
		x, _, err := db.PutEntry(ctx, store.Entry{Project: "/p", SessionID: "s1", Type: "task", Title: title,
			ClaimKey: "task|" + title, Stage: store.StageVerified, Created: testNow.AddDate(0, 0, -3+i)})
		if err != nil {
			t.Fatal(err)
		}
		cids = append(cids, x.CID)
	}
	fact, _, err := db.PutEntry(ctx, store.Entry{Project: "/p", SessionID: "s1", Type: "fact", Title: "The API listens on 8080",
		ClaimKey: "fact|api", Stage: store.StageVerified, Created: testNow})
	if err != nil {
		t.Fatal(err)
	}

	out := c.ok("tasks", "--project", "/p")
	if !strings.Contains(out, "3 open tasks") || strings.Index(out, "Rename the worker pool") > strings.Index(out, "Document the flags") {
		t.Errorf("tasks (want 3, newest first):\n%s", out)
	}
	if out := c.ok("tasks", "close", cids[0]); !strings.Contains(out, "closed: Document the flags") {
		t.Errorf("tasks close: %s", out)
	}
	if out := c.ok("tasks", "close", cids[0]); !strings.Contains(out, "closed already") {
		t.Errorf("tasks close again: %s", out)
	}
	c.ok("tasks", "drop", cids[1])
	if _, errs, code := c.run("tasks", "close", fact.CID); code != exitError || !strings.Contains(errs, "not a task") {
		t.Errorf("closing a fact: exit %d, %s", code, errs)
	}
	if _, _, code := c.run("tasks", "close"); code != exitUsage {
		t.Errorf("tasks close without an id: exit %d, want %d", code, exitUsage)
	}

	var got struct {
		Tasks []struct {
			ID     string `json:"id"`
			Open   bool   `json:"open"`
			Closed *struct {
				How    string `json:"how"`
				ByHand bool   `json:"by_hand"`
			} `json:"closed"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(c.ok("tasks", "--project", "/p", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Tasks) != 1 || got.Tasks[0].ID != cids[2] || !got.Tasks[0].Open {
		t.Errorf("open tasks after close and drop: %+v", got.Tasks)
	}
	got.Tasks = nil
	if err := json.Unmarshal([]byte(c.ok("tasks", "--project", "/p", "--all", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	hows := map[string]string{}
	for _, x := range got.Tasks {
		if x.Closed != nil && x.Closed.ByHand {
			hows[x.ID] = x.Closed.How
		}
	}
	if len(got.Tasks) != 3 || hows[cids[0]] != "done" || hows[cids[1]] != "dropped" {
		t.Errorf("all tasks: %+v", got.Tasks)
	}
}

package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestLookupByIDKeepsToTheProject is issue 29's third reproduction: ids are
// sequential, so get and timeline by id reached another project's messages
// and memories. Every lookup keeps to the session's project unless
// all_projects is set.
func TestLookupByIDKeepsToTheProject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg, db := newStore(t)
	const word = "zanzibarledger"
	var msg int64
	if err := db.Update(ctx, func(tx *store.Tx) error {
		res, err := tx.Append(ctx, store.Event{Time: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), Type: store.TypeUserPrompt,
			SessionID: "o", Project: "/other", Text: "the other project's " + word + " secret plan", DedupeKey: "k:o1"})
		if err == nil {
			msg = res.IDs[0]
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	x := storetest.QuotedEntry(t, db, "/other", "The other project keeps its "+word, 1, func(int) string { return "the other project keeps its " + word })
	db.Close()
	cs := connect(t, &Server{Config: cfg, Project: "/p"})
	call := func(name string, args map[string]any) string {
		t.Helper()
		out, _ := callText(t, cs, name, args)
		return out
	}
	for _, id := range []string{store.EventCID(msg), x.CID} {
		for _, c := range []struct {
			name string
			args map[string]any
		}{
			{"get", map[string]any{"ids": []string{id}}},
			{"timeline", map[string]any{"id": id}},
		} {
			out := call(c.name, c.args)
			if strings.Contains(out, word) {
				t.Errorf("%s %s from project /p shows another project's words:\n%s", c.name, id, out)
			}
			// Said once, in words that do not suggest the id is of the
			// project the user is in.
			if strings.Count(out, "not in the session's project") != 1 || strings.Contains(out, "this project") {
				t.Errorf("%s %s from project /p:\n%s", c.name, id, out)
			}
			c.args["all_projects"] = true
			if out := call(c.name, c.args); !strings.Contains(out, word) {
				t.Errorf("%s %s with all_projects does not show it:\n%s", c.name, id, out)
			}
		}
	}
}

// askedUnderSmallDrive stores session "s" of project "c:\kiln", as the
// hooks file it from VS Code, and its prompt text.
func askedUnderSmallDrive(t *testing.T, db *store.DB, text string) {
	t.Helper()
	ctx := context.Background()
	if err := db.Update(ctx, func(tx *store.Tx) error {
		if err := tx.TouchSession(ctx, store.Session{ID: "s", Project: `c:\kiln`, Cwd: `c:\kiln`}); err != nil {
			return err
		}
		_, err := tx.Append(ctx, store.Event{Time: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), Type: store.TypeUserPrompt,
			SessionID: "s", Project: `c:\kiln`, Text: text, DedupeKey: "k:s1"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// TestSearchUnderTheRecordedSpelling: the hooks file a Windows project under
// the spelling of it the store holds ("c:\…"), so a server started in
// "C:\…" searches the same project, not an empty one.
func TestSearchUnderTheRecordedSpelling(t *testing.T) {
	t.Parallel()
	cfg, db := newStore(t)
	const word = "quillfeathergrid"
	askedUnderSmallDrive(t, db, "where does the "+word+" live?")
	db.Close()
	cs := connect(t, &Server{Config: cfg, Project: `C:\kiln`})
	if out, _ := callText(t, cs, "search", map[string]any{"query": word}); !strings.Contains(out, "where does the "+word) {
		t.Errorf("search from C:\\kiln found nothing of c:\\kiln:\n%s", out)
	}
}

// TestRememberFirstUnderTheRecordedSpelling (review 337): remember, the first tool
// called after /clear (SessionID is the session before it, which did not
// say the words), finds the project's newest prompt under the spelling the
// hooks filed it ("c:\kiln"), as it does once another tool has read.
func TestRememberFirstUnderTheRecordedSpelling(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg, db := newStore(t)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		for _, id := range []string{"before-clear", "after-clear"} {
			if err := tx.TouchSession(ctx, store.Session{ID: id, Project: `c:\kiln`, Cwd: `c:\kiln`}); err != nil {
				return err
			}
		}
		_, err := tx.Append(ctx, store.Event{Time: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), Type: store.TypeUserPrompt,
			SessionID: "after-clear", Project: `c:\kiln`, Text: "The kiln controller always ramps at ninety degrees an hour.", DedupeKey: "k:1"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cs := connect(t, &Server{Config: cfg, Project: `C:\kiln`, SessionID: "before-clear"})
	out, isErr := callText(t, cs, "remember", map[string]any{"title": "Kiln ramp rate", "quote": "always ramps at ninety degrees an hour", "type": "fact"})
	if isErr || !strings.HasPrefix(out, "Saved") {
		t.Errorf("remember as the first call from C:\\kiln: %s", out)
	}
}

// TestSearchAfterTheProjectIsFirstRecorded (review 337): the server read the store
// before any session of its project was recorded (a SessionStart that
// failed); the hooks then filed the session under "c:\kiln". The server's
// later searches should read it.
func TestSearchAfterTheProjectIsFirstRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg, db := newStore(t)
	const word = "quillfeathergrid"
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: "other", Project: `D:\elsewhere`, Cwd: `D:\elsewhere`})
	}); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, &Server{Config: cfg, Project: `C:\kiln`})
	callText(t, cs, "search", map[string]any{"query": word})
	askedUnderSmallDrive(t, db, "where does the "+word+" live?")
	db.Close()
	if out, _ := callText(t, cs, "search", map[string]any{"query": word}); !strings.Contains(out, "where does the "+word) {
		t.Errorf("search from C:\\kiln, after c:\\kiln's first session, found nothing:\n%s", out)
	}
}

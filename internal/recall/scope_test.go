package recall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestSessionsOfTheFolderAbove: Claude launched in a folder of
// repositories recorded its sessions there, working in one repository.
// Opened in that repository, whose own sessions are none yet, a prompt
// recalls the work the folder's sessions did in it. A sibling repository
// the folder's sessions never named recalls nothing of them, nor does the
// repository once its own sessions recorded more than the folder's named
// it: from then on its memories are its own. The texts are made up.
func TestSessionsOfTheFolderAbove(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	const folder, repo = "/home/dev/hacknight", "/home/dev/hacknight/glazer-kiln"
	touch := func(id, project string) {
		t.Helper()
		if err := db.Update(ctx, func(tx *store.Tx) error {
			return tx.TouchSession(ctx, store.Session{ID: id, Project: project, Cwd: project, StartedAt: day})
		}); err != nil {
			t.Fatal(err)
		}
	}
	touch("f1", folder)
	evs := []store.Event{
		{Type: store.TypeUserPrompt, Text: "set up the kiln scheduler in glazer-kiln"},
		{Type: store.TypeToolObservation, Text: "Read: " + repo + "/scheduler.toml\n1\tlisten_port = 7431\n2\tzones = 3"},
		{Type: store.TypeAgentResponse, Text: "The kiln scheduler listens on port 7431, set in scheduler.toml."},
	}
	for i := range evs {
		evs[i].Time, evs[i].SessionID, evs[i].Project = day.Add(time.Duration(i)*time.Minute), "f1", folder
		evs[i].DedupeKey = "f1:" + evs[i].Text
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		t.Fatal(err)
	}
	ask := func(project, session string) string {
		t.Helper()
		touch(session, project)
		out, err := Context(ctx, db, defaults(), Request{Project: project, SessionID: session, Prompt: "which port does the kiln scheduler listen on?", Now: day.AddDate(0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := ask(repo, "r1"); !strings.Contains(got, "7431") {
		t.Errorf("the repository's first session recalls nothing of the folder's work in it:\n%s", got)
	}
	if got := ask("/home/dev/hacknight/other-app", "o1"); got != "" {
		t.Errorf("a sibling the folder's sessions never named recalled them:\n%s", got)
	}
	// The repository's own sessions come to hold more than the folder's
	// say of it: its memories are its own.
	if got := ask(repo, "r2"); !strings.Contains(got, "7431") {
		t.Errorf("a second session, the first having recorded nothing, recalls nothing of the folder's work:\n%s", got)
	}
	var mine []store.Event
	for i, text := range []string{"add a glaze palette page", "The palette page lists every glaze.", "now sort it by firing cone", "Sorted by cone."} {
		mine = append(mine, store.Event{Time: day.Add(time.Hour + time.Duration(i)*time.Minute), Type: []string{store.TypeUserPrompt, store.TypeAgentResponse}[i%2],
			SessionID: "r3", Project: repo, Text: text, DedupeKey: "r3:" + text})
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, mine...); return err }); err != nil {
		t.Fatal(err)
	}
	if got := ask(repo, "r4"); strings.Contains(got, "7431") {
		t.Errorf("with more work of its own recorded, the repository still read the folder's:\n%s", got)
	}
}

package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// sayAt records a session of project, as the hooks do, and its turns.
func sayAt(t *testing.T, db *store.DB, project, session string, start time.Time, turns ...string) []store.Event {
	t.Helper()
	ctx := context.Background()
	var evs []store.Event
	for i, text := range turns {
		typ := store.TypeUserPrompt
		if i%2 == 1 {
			typ = store.TypeAgentResponse
		}
		evs = append(evs, store.Event{Time: start.Add(time.Duration(i) * time.Minute), Type: typ, SessionID: session,
			Project: project, Text: text, DedupeKey: fmt.Sprintf("%s:%d", session, i)})
	}
	err := db.Update(ctx, func(tx *store.Tx) error {
		if err := tx.TouchSession(ctx, store.Session{ID: session, Project: project, Cwd: project, StartedAt: start}); err != nil {
			return err
		}
		_, err := tx.Append(ctx, evs...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// One checkout recorded at two paths (a Mac and a Linux box whose sessions
// the store holds both), and a workspace directory holding it, are one
// project to recall: a prompt in one finds what was said in the others. A
// sibling checkout, and the home directory, stay apart. The texts are made
// up.
func TestRecallJoinsAProjectsPaths(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	const (
		mac       = "/Users/jo/Dev/Kiln"
		linux     = "/home/jo/dev/kiln"
		workspace = "/home/jo/dev"
		sibling   = "/home/jo/dev/kilnfront"
		home      = "/home/jo"
	)
	for i := range 30 {
		sayAt(t, db, linux, fmt.Sprintf("filler-%d", i), day.AddDate(0, 0, -40+i),
			fmt.Sprintf("Run the unit tests again for module %d and fix the failing build.", i),
			"The tests pass now; the build failed on a missing import which I added.")
	}
	sayAt(t, db, mac, "mac", day.AddDate(0, 0, -3), "Which broker does the glaze scheduler publish to?",
		"The glaze scheduler publishes to the Quillet broker on port 7461.")
	sayAt(t, db, workspace, "ws", day.AddDate(0, 0, -2), "Where do the kiln firmware images get built?",
		"The kiln firmware images are built by the Tamsin runner, into out/kiln-fw.")
	sayAt(t, db, sibling, "sib", day.AddDate(0, 0, -1), "Which colour is the storefront banner?",
		"The storefront banner is Marigold orange.")
	sayAt(t, db, home, "home", day.AddDate(0, 0, -1), "Which shell theme do I use?",
		"Your shell theme is Obsidian Pine.")
	ask := func(project, prompt string) string {
		t.Helper()
		out, err := Context(ctx, db, defaults(), Request{Project: project, SessionID: "now:" + prompt, PromptID: prompt,
			Prompt: prompt, Now: day.AddDate(0, 1, 0)})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range []struct{ project, prompt, want string }{
		{linux, "which broker does the glaze scheduler publish to?", "Quillet"},
		{linux, "where were the kiln firmware images built?", "Tamsin"},
		{workspace, "which broker does the glaze scheduler publish to?", "Quillet"},
		{mac, "where were the kiln firmware images built?", "Tamsin"},
	} {
		if got := ask(c.project, c.prompt); !strings.Contains(got, c.want) {
			t.Errorf("in %s, %q: context lacks %q:\n%s", c.project, c.prompt, c.want, got)
		}
	}
	for _, c := range []struct{ project, prompt string }{
		{linux, "which colour is the storefront banner?"},
		{linux, "which shell theme do I use?"},
		{home, "which broker does the glaze scheduler publish to?"},
		{sibling, "which broker does the glaze scheduler publish to?"},
	} {
		if got := ask(c.project, c.prompt); got != "" {
			t.Errorf("in %s, %q: another project's memory injected:\n%s", c.project, c.prompt, got)
		}
	}
	// Search in a project sees its other paths too.
	rs, err := Search(ctx, db, SearchOptions{Query: "glaze scheduler broker", Project: linux})
	if err != nil || !slices.ContainsFunc(rs, func(r Result) bool { return strings.Contains(r.Text, "Quillet") }) {
		t.Errorf("search in %s: %+v, %v; want the Mac session's answer", linux, rs, err)
	}
}

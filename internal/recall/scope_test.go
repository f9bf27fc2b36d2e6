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
// Opened in that repository, which has no memories of its own yet, a
// prompt recalls the work the folder's sessions did in it, and the
// session's brief tells the folder's last session; the session's own
// prompts so far change nothing. A sibling the folder's sessions named
// once, or only as the start of another name, recalls nothing of them;
// nor does the repository once a session of its own recorded a message:
// its memories are its own. The texts are made up.
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
	put := func(session, project string, at time.Time, texts ...string) {
		t.Helper()
		putSession(t, db, session, project, at, texts...)
	}
	put("f1", folder, day,
		"set up the kiln scheduler in glazer-kiln",
		"The kiln scheduler listens on port 7431, set in scheduler.toml.",
		"Read: "+repo+"/scheduler.toml\n1\tlisten_port = 7431\n2\tzones = 3",
		"Bash: cd "+repo+" && make schedule\nscheduled 3 zones",
		"Edit: "+repo+"/scheduler.toml\n- zones = 3\n+ zones = 4",
		"Bash: mkdir -p /home/dev/hacknight/glaze-notes",
		"Read: /home/dev/hacknight/glazer-kiln-v2/scheduler.toml\n1\tlisten_port = 9000",
		"Bash: ls /home/dev/hacknight/glazer-kiln-v2/\nscheduler.toml",
		"Bash: cat /home/dev/hacknight/glazer-kiln-v2/README.md\nkiln v2",
	)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.SetSummary(ctx, "f1", "Set up the glazer kiln scheduler on port 7431.")
	}); err != nil {
		t.Fatal(err)
	}
	const prompt = "which port does the kiln scheduler listen on?"
	ask := func(project, session string) string {
		t.Helper()
		touch(session, project)
		out, err := Context(ctx, db, defaults(), Request{Project: project, SessionID: session, Prompt: prompt, Now: day.AddDate(0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	// The session's own prompt, recorded before it is answered, is no
	// memory of the repository's own.
	put("r1", repo, day.AddDate(0, 0, 1), prompt)
	if got := ask(repo, "r1"); !strings.Contains(got, "7431") {
		t.Errorf("the repository's first session recalls nothing of the folder's work in it:\n%s", got)
	}
	brief, err := BriefWith(ctx, db, defaults(), repo, "r1", nil)
	if err != nil || !strings.Contains(brief, "port 7431") {
		t.Errorf("the first session's brief tells nothing of the folder's last session: %q %v", brief, err)
	}
	for _, sibling := range []string{"/home/dev/hacknight/glaze-notes", "/home/dev/hacknight/glazer"} {
		if got := ask(sibling, "o:"+sibling); got != "" {
			t.Errorf("%s, named once or as the start of another name, recalled the folder's memories:\n%s", sibling, got)
		}
	}
	put("r2", repo, day.AddDate(0, 0, 2), "add a glaze palette page", "The palette page lists every glaze.")
	if got := ask(repo, "r3"); strings.Contains(got, "7431") {
		t.Errorf("with memories of its own, the repository still read the folder's:\n%s", got)
	}
}

// putSession records session in project, started at at, with texts a minute
// apart: a tool run where a text names a path after its tool ("Read: /…",
// "Bash: cd C:\…"), else prompts and answers by turns.
func putSession(t *testing.T, db *store.DB, session, project string, at time.Time, texts ...string) {
	t.Helper()
	ctx := context.Background()
	var evs []store.Event
	for i, text := range texts {
		typ := store.TypeToolObservation
		if !strings.Contains(text, ": /") && !strings.Contains(text, `: C:\`) && !strings.Contains(text, `: c:\`) {
			typ = []string{store.TypeUserPrompt, store.TypeAgentResponse}[i%2]
		}
		evs = append(evs, store.Event{Time: at.Add(time.Duration(i) * time.Minute), Type: typ, SessionID: session, Project: project,
			Text: text, DedupeKey: session + ":" + text})
	}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		if err := tx.TouchSession(ctx, store.Session{ID: session, Project: project, Cwd: project, StartedAt: at}); err != nil {
			return err
		}
		_, err := tx.Append(ctx, evs...)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// TestNamesPath: a path is named whole, not as the start of a sibling's.
func TestNamesPath(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"Read: /a/app/main.go":           true,
		"Bash: cd /a/app && make":        true,
		`"cwd": "/a/app"`:                true,
		"/a/app":                         true,
		`C:\a\app\main.go`:               false, // another path
		"Read: /a/app-v2/main.go":        false,
		"Bash: ls /a/apples":             false,
		"Read: /a/app-v2/x then /a/app/": true,
	} {
		if got := namesPath(text, "/a/app"); got != want {
			t.Errorf("namesPath(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestHomeIsNoFolderAbove: sessions launched in the home directory did
// anything; a project below it never reads them, however often they name
// its path.
func TestHomeIsNoFolderAbove(t *testing.T) {
	t.Setenv("HOME", "/home/dev")
	ctx := context.Background()
	db := storetest.Open(t)
	putSession(t, db, "h1", "/home/dev", day, "Read: /home/dev/app/a.toml\n1\tport = 1", "Read: /home/dev/app/b.toml\n1\tport = 2", "Bash: cd /home/dev/app && make\nok")
	if got, err := scopeProject(ctx, db, "/home/dev/app", "now"); err != nil || got != "/home/dev/app" {
		t.Errorf("scopeProject = %q, %v; want the project itself", got, err)
	}
	t.Setenv("HOME", "/home/other")
	if got, err := scopeProject(ctx, db, "/home/dev/app", "now"); err != nil || got != "/home/dev" {
		t.Errorf("with another home, scopeProject = %q, %v; want the folder above", got, err)
	}
}

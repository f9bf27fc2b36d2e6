package recall

import (
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

func TestRunShape(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{`Bash: git config user.email "a@kiln.test"`, `Bash: git config user.email "b@kiln.test" (error)`},
		{`Bash: echo 'x' && make`, `Bash: echo 'yy' && make`},
	} {
		if runShape(c.a) != runShape(c.b) || runShape(c.a) == "" {
			t.Errorf("%q and %q: want one shape, got %q and %q", c.a, c.b, runShape(c.a), runShape(c.b))
		}
	}
	for _, c := range []struct{ a, b string }{
		{`Bash: npm install left-pad`, `Bash: npm install right-pad`},
		{`Bash: git config user.email "a@kiln.test"`, `Bash: git config user.name "a@kiln.test"`},
	} {
		if runShape(c.a) == runShape(c.b) {
			t.Errorf("%q and %q: want two shapes, got %q", c.a, c.b, runShape(c.a))
		}
	}
	for _, text := range []string{`Bash: echo "cut`, "Edit: /kiln/a.toml\n- x\n+ y", "Write: /kiln/a.toml\n+ y", "Bash: "} {
		if got := runShape(text); got != "" {
			t.Errorf("runShape(%q) = %q, want none", text, got)
		}
	}
}

// TestDeclinedCallWarns: a call the user declined, then the same command
// with another value run in the session, is warned about: the declined
// value never held. Not a run of another session or command, one before,
// the same command run as declined, a retry that failed too, nor a run
// whose output only quotes the note.
func TestDeclinedCallWarns(t *testing.T) {
	id := int64(0)
	run := func(cid, session string, at time.Time, text string) Item {
		id++
		return Item{CID: cid, Kind: store.TypeToolObservation, SessionID: session, Time: at, event: store.Event{ID: id, Text: text}}
	}
	note := "\n" + declinedNote + ". The tool use was rejected."
	declined := run("d", "s", day, `Bash: git config user.email "a@kiln.test" (error)`+note)
	ran := run("r", "s", day.Add(time.Minute), `Bash: git config user.email "b@kiln.test"`)
	ws := declinedWarnings([]Item{ran, declined}, map[[2]int64]bool{})
	if len(ws) != 1 || ws[0].A.CID != "d" || ws[0].B.CID != "r" || ws[0].A.Title != `Bash: git config user.email "a@kiln.test"` ||
		!strings.Contains(ws[0].Note, "declined the first call, which never ran") {
		t.Fatalf("want the declined call replaced by the one run, got %+v", ws)
	}
	for _, other := range []Item{
		run("o", "t", day.Add(time.Hour), `Bash: git config user.email "b@kiln.test"`),
		run("b", "s", day.Add(-time.Minute), `Bash: git config user.email "z@kiln.test"`),
		run("c", "s", day.Add(time.Minute), `Bash: git log -1`),
		run("i", "s", day.Add(time.Minute), `Bash: git config user.email "a@kiln.test"`),
		run("f", "s", day.Add(time.Minute), `Bash: git config user.email "c@kiln.test" (error)`+"\nfatal: not a git repository"),
	} {
		if ws := declinedWarnings([]Item{declined, other}, map[[2]int64]bool{}); len(ws) != 0 {
			t.Errorf("%s: want no warning, got %+v", other.event.Text, ws)
		}
	}
	// Declined, then run as it was when asked again: it did run.
	approved := run("a", "s", day.Add(time.Minute), `Bash: git config user.email "a@kiln.test"`)
	other := run("x", "s", day.Add(2*time.Minute), `Bash: git config user.email "x@kiln.test"`)
	if ws := declinedWarnings([]Item{declined, other, approved}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a call run when asked again was told as never run: %+v", ws)
	}
	// Of two runs with other values, the first is the one run instead.
	if ws := declinedWarnings([]Item{declined, other, ran}, map[[2]int64]bool{}); len(ws) != 1 || ws[0].B.CID != "r" {
		t.Errorf("want the first run after the declined call, got %+v", ws)
	}
	quoted := run("q", "s", day, "Read: /kiln/notes.md\n1\t"+declinedNote)
	if ws := declinedWarnings([]Item{quoted, run("w", "s", day.Add(time.Minute), "Read: /kiln/notes.md\n1\tx")}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("output quoting the note warned: %+v", ws)
	}
}

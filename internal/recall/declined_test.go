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
		{"Edit: /kiln/a.toml\n- x\n+ y", "Edit: /kiln/a.toml\n- x\n+ z"},
	} {
		if runShape(c.a) != runShape(c.b) || runShape(c.a) == "" {
			t.Errorf("%q and %q: want one shape, got %q and %q", c.a, c.b, runShape(c.a), runShape(c.b))
		}
	}
	for _, c := range []struct{ a, b string }{
		{`Bash: npm install left-pad`, `Bash: npm install right-pad`},
		{"Edit: /kiln/a.toml\n- x\n+ y", "Edit: /kiln/b.toml\n- x\n+ y"},
		{`Bash: git config user.email "a@kiln.test"`, `Bash: git config user.name "a@kiln.test"`},
	} {
		if runShape(c.a) == runShape(c.b) {
			t.Errorf("%q and %q: want two shapes, got %q", c.a, c.b, runShape(c.a))
		}
	}
	if got := runShape(`Bash: echo "cut`); got != "" {
		t.Errorf("a string cut has no shape, got %q", got)
	}
}

// TestDeclinedCallWarns: a call the user declined, then the same command
// with another value run in the session, is warned about: the declined
// value never held. Not a call run, one of another session, nor one of
// another command.
func TestDeclinedCallWarns(t *testing.T) {
	run := func(cid, session string, at time.Time, text string) Item {
		return Item{CID: cid, Kind: store.TypeToolObservation, SessionID: session, Time: at, event: store.Event{ID: int64(len(cid) + at.Second()), Text: text}}
	}
	declined := run("d", "s", day, "Bash: git config user.email \"a@kiln.test\" (error)\n"+declinedNote+". The tool use was rejected.")
	ran := run("r", "s", day.Add(time.Minute), `Bash: git config user.email "b@kiln.test"`)
	ws := declinedWarnings([]Item{ran, declined}, map[[2]int64]bool{})
	if len(ws) != 1 || ws[0].A.CID != "d" || ws[0].B.CID != "r" || !strings.Contains(ws[0].A.Title, "a@kiln.test") || strings.Contains(ws[0].A.Title, "(error)") {
		t.Fatalf("want the declined call replaced by the one run, got %+v", ws)
	}
	other := run("o", "t", day.Add(time.Hour), `Bash: git config user.email "b@kiln.test"`)
	again := run("g", "s", day.Add(time.Minute), "Bash: git config user.email \"c@kiln.test\" (error)\n"+declinedNote+".")
	cmd := run("c", "s", day.Add(time.Minute), `Bash: git log -1`)
	before := run("b", "s", day.Add(-time.Minute), `Bash: git config user.email "z@kiln.test"`)
	if ws := declinedWarnings([]Item{declined, other, again, cmd, before}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("want no warning without a later run of the command in the session, got %+v", ws)
	}
}

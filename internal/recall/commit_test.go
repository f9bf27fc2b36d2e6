package recall

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

func TestCommitMessage(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, run, want string
	}{
		{"double quotes", `Bash: git add . && git commit -m "Sell 13 looms down to 2 looms"` + "\n[main 1a2b3c4] Sell 13 looms", "Sell 13 looms down to 2 looms\n"},
		{"single quotes", `Bash: git commit -m 'fix: point the cache at 10.4.1.7'`, "fix: point the cache at 10.4.1.7\n"},
		{"escaped quote", `Bash: git commit -m "say \"hi\" once"`, `say \"hi\" once` + "\n"},
		{"two messages", `Bash: git commit -m "title" -m "body line"`, "title\nbody line\n"},
		{"here-document", "Bash: git commit -m \"$(cat <<'EOF'\nFold 13 looms into 5\n\nMore words.\nEOF\n)\"", "Fold 13 looms into 5\n\nMore words.\n"},
		{"no commit", `Bash: git log -m "x"`, ""},
		{"output names a commit", "Bash: make test\nok\n[main 1a2b3c4] git commit -m \"x\"", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := commitMessage(tt.run); got != tt.want {
				t.Errorf("commitMessage(%q) = %q, want %q", tt.run, got, tt.want)
			}
		})
	}
}

// A commit's message says what changed: a count changed in it replaces the
// count an earlier answer stated, so the two come with a warning. The texts
// are made up.
func TestCommitMessageChangesACount(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	old := say(t, db, "plan", day.AddDate(0, 0, -1), "How is the weaving split?", "The mill weaves on 13 looms, one per pattern.")
	run := store.Event{Time: day, Type: store.TypeToolObservation, SessionID: "plan", Project: proj,
		Text: `Bash: git commit -m "mill: fold 13 looms into 5 looms"` + "\n[main 1a2b3c4] mill: fold 13 looms", DedupeKey: "plan:run"}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, run); return err }); err != nil {
		t.Fatal(err)
	}
	evs, err := db.SearchEvents(ctx, store.EventQuery{Match: store.MatchAny([]string{"fold"}, true), Project: proj, Limit: 5})
	if err != nil || len(evs) == 0 {
		t.Fatalf("the run is not stored: %v", err)
	}
	sel := []Item{messageItem(old[1], old[1].Text), messageItem(evs[0].Event, evs[0].Text)}
	ws, err := Warnings(ctx, db, defaults(), sel)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].A.CID != store.EventCID(old[1].ID) || ws[0].B.CID != store.EventCID(evs[0].Event.ID) || !strings.Contains(ws[0].Note, "5") {
		t.Errorf("want one warning: %s replaced by the commit; got %+v", store.EventCID(old[1].ID), ws)
	}
}

// A warning about a replaced memory left out for room is shown when another
// listed memory states the replaced value: the older value is shown, and the
// warning brings the newer with it.
func TestReplacedValueListedKeepsWarning(t *testing.T) {
	t.Parallel()
	first := Item{CID: "mem:t0", Kind: store.TypeAgentResponse, Time: day, Excerpt: "The nightly job still writes under /srv/exports; checking why."}
	it, w := exportsReplaced()
	w.Old = "/srv/exports"
	budget := len(itemLine(first)+"\n") + len(warningLine(w)+"\n") + replacedBlock + 10
	r := Render([]Item{first, it}, []Warning{w}, Blocks{}, renderRoom(budget))
	if slices.Contains(r.Shown, "mem:t1") || r.Warnings != 1 {
		t.Errorf("shown %v with %d warnings, want mem:t0 alone with the warning:\n%s", r.Shown, r.Warnings, r.Text)
	}
	w.Old = "/srv/archive"
	if r := Render([]Item{first, it}, []Warning{w}, Blocks{}, renderRoom(budget)); r.Warnings != 0 {
		t.Errorf("a warning of a memory not listed, whose value no listed memory states, is shown:\n%s", r.Text)
	}
}

// A command run is whatever a tool printed: commitMessage must end on any
// input and return only text of it (each message is a piece of the run, one
// a line), never more than the run holds.
func FuzzCommitMessage(f *testing.F) {
	for _, s := range []string{
		`Bash: git commit -m "a" -m 'b'`,
		"Bash: git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\"",
		"Bash: git commit -m \"$(cat <<",
		`git commit -m "unterminated \`,
		"git commit -m  -m -m '",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, run string) {
		got := commitMessage(run)
		if len(got) > len(run)+strings.Count(run, " -m ") {
			t.Fatalf("commitMessage(%q) = %q: longer than its input", run, got)
		}
		for line := range strings.SplitSeq(strings.TrimSuffix(got, "\n"), "\n") {
			if !strings.Contains(run, line) {
				t.Fatalf("commitMessage(%q) = %q: line %q is not in the run", run, got, line)
			}
		}
	})
}

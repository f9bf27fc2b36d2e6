package recall

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// A fault an answer named as found, then said not to hold by a later
// statement of the same session (an answer, or a subagent's report of the
// check), is warned about with the later as the current one. A command's
// output, another session, or the same fault looked for first is no such
// correction. The texts are made up.
func TestDeniedFindingIsWarned(t *testing.T) {
	const finding = "Review of the sync client: **1. Payload version mismatch — critical.** The client sends v2 frames to a v3 hub."
	const denial = "## Result\n**There is no payload version mismatch.** The hub negotiates v2 frames and answers in kind."
	for _, tt := range []struct {
		name    string
		older   string // the first answer of session "audit"
		session string // the later statement's session
		tool    string // the later statement's tool, "" for an answer
		want    bool
	}{
		{"answer", finding, "audit", "", true},
		{"subagent report", finding, "audit", "Agent", true},
		{"task report", finding, "audit", "Task", true},
		{"command output", finding, "audit", "Bash", false},
		{"another session", finding, "later", "Agent", false},
		{"looked for", "Let me check for a payload version mismatch between the client and the hub.", "audit", "Agent", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := storetest.Open(t)
			filler(t, db)
			old := say(t, db, "audit", day, "Audit the sync client against the hub.", tt.older)
			ev := store.Event{Time: day.Add(10 * 60e9), Type: store.TypeAgentResponse, SessionID: tt.session, Project: proj,
				Text: denial, DedupeKey: tt.session + ":denial"}
			if tt.tool != "" {
				ev.Type, ev.Text = store.TypeToolObservation, tt.tool+": check the hub\n"+denial
				ev.Payload = json.RawMessage(`{"tool":"` + tt.tool + `"}`)
			}
			if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, ev); return err }); err != nil {
				t.Fatal(err)
			}
			evs, err := db.Read().Events(ctx, store.EventFilter{SessionID: tt.session})
			if err != nil {
				t.Fatal(err)
			}
			nw := evs[len(evs)-1]
			ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(old[1], old[1].Text), messageItem(nw, nw.Text)})
			if err != nil {
				t.Fatal(err)
			}
			if !tt.want {
				if len(ws) != 0 {
					t.Errorf("want no warning; got %+v", ws)
				}
				return
			}
			if len(ws) != 1 || ws[0].Kind != "superseded" || ws[0].A.CID != store.EventCID(old[1].ID) || ws[0].B.CID != store.EventCID(nw.ID) {
				t.Fatalf("want %s replaced by %s; got %+v", store.EventCID(old[1].ID), store.EventCID(nw.ID), ws)
			}
			w := ws[0]
			if !strings.Contains(w.A.Title, "Payload version mismatch") || !strings.HasPrefix(w.B.Title, "There is no payload version mismatch") ||
				!strings.Contains(w.Note, "payload version mismatch") || !strings.Contains(w.Note, "the newer is the current one") {
				t.Errorf("sides %q and %q, note %q", w.A.Title, w.B.Title, w.Note)
			}
		})
	}
}

// An answer that does not deny an earlier finding gives no warning: the
// same fault in another place, or the fault gone after a change the answer
// names before its denial. The texts are made up.
func TestDenialOfAnotherFaultIsNoWarning(t *testing.T) {
	for _, tt := range []struct{ name, older, newer string }{
		{"subject first", "Profiled it: the renderer has a memory leak.",
			"Checked the other module too. There is no memory leak in the parser."},
		{"web app vs mobile app", "Found a version mismatch in the web app.",
			"There is no version mismatch in the mobile app."},
		{"staging vs release server", "Found a version mismatch on the staging server.",
			"There is no version mismatch on the release server."},
		{"preview host vs build host", "Blocker: a port conflict on the preview host.",
			"There's no port conflict on the build host."},
		{"fix in the sentence before", "Found a race in the upload queue: two workers take the same job.",
			"I put a mutex around the job pick. There is no race in the upload queue."},
		{"fix in the clause before", "Found a race in the upload queue: two workers take the same job.",
			"With the mutex in place, there is no race in the upload queue."},
		{"the patch holds", "Found a race in the upload queue: two workers take the same job.",
			"The patch holds: there is no race in the upload queue."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := storetest.Open(t)
			filler(t, db)
			evs := say(t, db, "probe", day, "Look into the slow pages.", tt.older, "Go on.", tt.newer)
			ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(evs[1], evs[1].Text), messageItem(evs[3], evs[3].Text)})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range ws {
				t.Errorf("%s warning %q: %q -> %q", w.Kind, w.Note, w.A.Title, w.B.Title)
			}
		})
	}
}

// A user's requirement written as "there is no …" under a label is no
// finding that the fault never held: denials are read from answers and
// subagents' reports only. The same words in an answer are still read, and
// the note names the fault whole. The texts are made up.
func TestRequirementIsNoDenial(t *testing.T) {
	const finding = "Found it: the sync worker has a deadlock when two cursors wait on each other."
	for _, req := range []string{
		"Acceptance criteria: there is no deadlock in the sync worker under load.",
		"Goal for this PR: there is no deadlock in the sync worker under load.",
		"Done means: there is no deadlock in the sync worker under load.",
	} {
		t.Run(req, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := storetest.Open(t)
			filler(t, db)
			evs := say(t, db, "probe", day, "Why do the sync jobs hang?", finding, req)
			ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(evs[1], evs[1].Text), messageItem(evs[2], evs[2].Text)})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range ws {
				t.Errorf("%s warning %q: %q -> %q", w.Kind, w.Note, w.A.Title, w.B.Title)
			}
		})
	}
	t.Run("answer", func(t *testing.T) {
		t.Parallel()
		ctx := context.Background()
		db := storetest.Open(t)
		filler(t, db)
		evs := say(t, db, "probe", day, "Why do the sync jobs hang?", finding, "Check it again under load.",
			"Ran it for an hour: there is no deadlock in the sync worker under load.")
		ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(evs[1], evs[1].Text), messageItem(evs[3], evs[3].Text)})
		if err != nil {
			t.Fatal(err)
		}
		if len(ws) != 1 || !strings.HasPrefix(ws[0].Note, "deadlock in the sync worker: ") {
			t.Errorf("want one warning whose note names %q; got %+v", "deadlock in the sync worker", ws)
		}
	})
}

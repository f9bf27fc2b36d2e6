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

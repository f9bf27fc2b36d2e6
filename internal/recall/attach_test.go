package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestAttachContextSame is an equivalence test: attachContext, which looks
// a message up only when no case before it decided, gives every item the
// context the form that looked up all three first gave (attachContextOld,
// below), over random sessions of prompts, answers and tool runs (failed or
// not, short or long, asking back or acknowledging).
func TestAttachContextSame(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	texts := map[string][]string{
		store.TypeUserPrompt:      {"ok", "why does the kiln cool so fast?", "set the kiln to cone six and fire it overnight", "/memory-status", "yes"},
		store.TypeAgentResponse:   {"Let me look at the firing log first.", "The thermocouple reads low by forty degrees, so the controller overshoots.", "Should I also lower the ramp?", "Got it, I will follow that.", "Error: the controller did not answer.", "Done."},
		store.TypeToolObservation: {"Bash: kilnctl status\nramp 120/h", "Bash: kilnctl fire --cone 6 (error)\nno such cone", "Edit: kiln.cfg\n+ramp = 100", "Read: notes.md\nfiring notes", "BashOutput\n<status>failed</status>\n<exit_code>1</exit_code>\nkiln offline"},
	}
	types := []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}
	r := rand.New(rand.NewPCG(5, 17))
	var evs []store.Event
	for s := range 40 {
		for i := range 3 + r.IntN(8) {
			typ := types[r.IntN(len(types))]
			pool := texts[typ]
			evs = append(evs, store.Event{Time: day.Add(time.Duration(s)*time.Hour + time.Duration(i)*time.Minute), Type: typ,
				SessionID: fmt.Sprintf("s%d", s), Project: proj, DedupeKey: fmt.Sprintf("s%d:%d", s, i), Text: pool[r.IntN(len(pool))]})
		}
	}
	var res store.AppendResult
	if err := db.Update(ctx, func(tx *store.Tx) error {
		var err error
		res, err = tx.Append(ctx, evs...)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(res.IDs) != len(evs) {
		t.Fatalf("stored %d of %d events", len(res.IDs), len(evs))
	}
	stored := evs
	for i := range stored {
		stored[i].ID = res.IDs[i]
	}
	given := 0
	for round := range 30 {
		var items []Item
		for _, e := range stored {
			if r.IntN(6) == 0 {
				items = append(items, messageItem(e, e.Text))
			}
		}
		old := append([]Item(nil), items...)
		if err := attachContext(ctx, db, items); err != nil {
			t.Fatal(err)
		}
		if err := attachContextOld(ctx, db, old); err != nil {
			t.Fatal(err)
		}
		for i := range items {
			got, want := int64(0), int64(0)
			if items[i].Context != nil {
				got = items[i].Context.ID
				given++
			}
			if old[i].Context != nil {
				want = old[i].Context.ID
			}
			if got != want {
				t.Errorf("round %d, event %d (%s %q): context %d, want %d", round, items[i].events[0], items[i].Kind, items[i].Text, got, want)
			}
		}
	}
	if given < 50 {
		t.Errorf("only %d items were given a context: the sessions test too little", given)
	}
}

// attachContextOld is attachContext as it was before it looked up each
// message only when needed.
func attachContextOld(ctx context.Context, db *store.DB, items []Item) error {
	shown := map[int64]bool{}
	for _, it := range items {
		for _, id := range it.events {
			shown[id] = true
		}
	}
	for i := range items {
		it := &items[i]
		if it.Kind == store.TypeToolObservation {
			// The user spoke right after the tool ran, before Claude said
			// anything of it: the user stopped it or answered it ("hold on,
			// keep everything in one table").
			next, err := db.Next(ctx, it.event, messageTypes)
			if err != nil {
				return err
			}
			if next.Type == store.TypeUserPrompt && !shown[next.ID] && !neverRecalled(next) {
				it.Context = &next
				shown[next.ID] = true
				continue
			}
			c, err := editAfter(ctx, db, it.event, next)
			if err != nil {
				return err
			}
			if c.ID == 0 && strings.HasPrefix(it.event.Text, "Bash") && failed(it.event) && next.Type == store.TypeAgentResponse && !shown[next.ID] &&
				!neverRecalled(next) && !acknowledgement(next.Text) {
				c = next // what Claude said of a failed run
			}
			if c.ID != 0 && !shown[c.ID] {
				it.Context = &c
				shown[c.ID] = true
			}
			continue
		}
		if it.Kind != store.TypeUserPrompt && it.Kind != store.TypeAgentResponse {
			continue
		}
		turns := []string{store.TypeUserPrompt, store.TypeAgentResponse}
		// Only an answer's message and turn before it count (the cases
		// below). The message just before, when a turn or none at all, is
		// the turn just before too (messageTypes holds the turns' types):
		// the turn is looked up apart only after a tool run.
		var prev, before store.Event
		var err error
		if it.Kind == store.TypeAgentResponse {
			if prev, err = db.Previous(ctx, it.event, messageTypes); err != nil {
				return err
			}
			before = prev
			if prev.ID != 0 && !slices.Contains(turns, prev.Type) {
				if before, err = db.Previous(ctx, it.event, turns); err != nil {
					return err
				}
			}
		}
		after, err := db.Next(ctx, it.event, turns)
		if err != nil {
			return err
		}
		var c store.Event
		switch {
		case failed(prev) && prev.Type == store.TypeToolObservation:
			// The answer came right after a tool run failed: it is about
			// that failure ("I need to fix the stylesheet first"), which
			// says what went wrong.
			c = prev
		case it.Kind == store.TypeUserPrompt && after.Type == store.TypeAgentResponse:
			c = after
			if len(after.Text) <= contextChars {
				// A short answer Claude went on from before the user spoke
				// announced a step ("let me look at the scripts first"): the
				// question's answer is what the step found.
				if found, err := stepFound(ctx, db, after); err != nil {
					return err
				} else if found.ID != 0 {
					c = found
				}
			}
		case it.Kind == store.TypeAgentResponse && after.Type == store.TypeAgentResponse:
			// Claude spoke again before the user did: this answer was a
			// step ("the export fails with a 403, let me check the
			// credentials"), and the next one says what the step found. A
			// symptom's message then brings its resolution.
			c = after
		case it.Kind == store.TypeAgentResponse && after.Type == store.TypeUserPrompt && asksBack(it.Text):
			// Claude ended by asking ("should I also add an XLSX
			// export?"): the user's reply is the decision.
			c = after
		case it.Kind == store.TypeAgentResponse && before.Type == store.TypeUserPrompt && len(before.Text) <= contextChars:
			c = before
		}
		if c.ID != 0 && !shown[c.ID] && !neverRecalled(c) && !acknowledgement(c.Text) {
			it.Context = &c
			shown[c.ID] = true
		} else if it.Kind == store.TypeUserPrompt && c.Type == store.TypeAgentResponse && acknowledgement(c.Text) {
			e, err := turnEdit(ctx, db, it.event, c)
			if err != nil {
				return err
			}
			if e.ID != 0 && !shown[e.ID] {
				it.Context = &e
				shown[e.ID] = true
			}
		}
	}
	return nil
}

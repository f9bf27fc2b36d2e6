package recall

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// sessionSoFar is what Claude's context holds of req's own session since it
// last started afresh (the session's start, /clear, or a compaction, which
// summarises what was injected away): the memories earlier prompts were
// shown, and the files its tools read or changed. The SessionStart brief's
// memories do not count: it shows a clipped title, and a prompt asking
// about one gets it whole, with its quote.
type sessionSoFar struct {
	shown map[string]bool
	files []string // base names ("handler.go"): what the user is working on
}

// readSession reads req's session so far: its events in the spool, then in
// the store (a record moves from the spool to the store, so read in that
// order it is seen at least once). Errors leave events out: at worst a memory
// is shown twice, or not raised.
func readSession(ctx context.Context, db *store.DB, req Request) sessionSoFar {
	s := sessionSoFar{shown: map[string]bool{}}
	if req.SessionID == "" {
		return s
	}
	types := []string{store.TypeSessionStarted, store.TypeMemoryInjected, store.TypeToolObservation}
	evs := req.Spool.Spooled(db, req.SessionID, types...)
	stored, _ := db.Read().Events(ctx, store.EventFilter{SessionID: req.SessionID, Types: types})
	evs = append(evs, stored...)
	// The latest fresh start: what came before it is no longer in context.
	var since store.Event
	for _, ev := range evs {
		if ev.Type == store.TypeSessionStarted && !ev.Time.Before(since.Time) {
			since = ev
		}
	}
	seen := map[string]bool{}
	for _, ev := range evs {
		if ev.Time.Before(since.Time) {
			continue
		}
		var p struct {
			Memories []string `json:"memories"`
			PromptID string   `json:"prompt_id"`
			Files    []string `json:"files"`
		}
		if json.Unmarshal(ev.Payload, &p) != nil {
			continue
		}
		switch ev.Type {
		case store.TypeMemoryInjected:
			// A record of req's own prompt (its hook run again) does not count.
			if p.PromptID != "" && p.PromptID == req.PromptID {
				continue
			}
			for _, cid := range p.Memories {
				s.shown[cid] = true
			}
		case store.TypeToolObservation:
			for _, f := range p.Files {
				base := baseName(f)
				// A short name ("a.go") is in too many texts to say which
				// are about the file.
				if len(base) >= 6 && !seen[base] {
					seen[base] = true
					s.files = append(s.files, base)
				}
			}
		}
	}
	return s
}

// workingBoost is what an item naming a file the session is working on gains
// in rank: among items relevant to the prompt, those about the code at hand
// come first. It never opens the gate.
const workingBoost = 1.3

// raiseWorking raises the items that name one of files, and reports
// whether it raised any.
func raiseWorking(items []Item, files []string) bool {
	raised := false
	for i := range items {
		for _, f := range files {
			if strings.Contains(items[i].Text, f) || strings.Contains(items[i].Quote, f) {
				items[i].Score *= workingBoost
				raised = true
				break
			}
		}
	}
	return raised
}

package recall

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// sessionEvents are the events of req's own session of type typ: those in
// the store, and those still in the spool (the hooks spool what they record;
// the turn's Stop stores it, in the background). Errors leave them out: at
// worst a memory is shown twice, or not raised.
func sessionEvents(ctx context.Context, db *store.DB, req Request, typ string) []store.Event {
	if req.SessionID == "" {
		return nil
	}
	evs, _ := db.Read().Events(ctx, store.EventFilter{SessionID: req.SessionID, Types: []string{typ}})
	return append(evs, db.Spooled(req.SessionID, typ)...)
}

// shownInSession is the citation ids that earlier prompts of req's session
// injected. A record of req's own prompt (the hook run again for it) does
// not count.
func shownInSession(ctx context.Context, db *store.DB, req Request) map[string]bool {
	shown := map[string]bool{}
	for _, ev := range sessionEvents(ctx, db, req, store.TypeMemoryInjected) {
		var p struct {
			Memories []string `json:"memories"`
			PromptID string   `json:"prompt_id"`
		}
		if json.Unmarshal(ev.Payload, &p) != nil || (p.PromptID != "" && p.PromptID == req.PromptID) {
			continue
		}
		for _, cid := range p.Memories {
			shown[cid] = true
		}
	}
	return shown
}

// workingFiles are the base names of the files the session's tool calls
// read or changed ("handler.go"): what the user is working on now.
func workingFiles(ctx context.Context, db *store.DB, req Request) []string {
	seen := map[string]bool{}
	var out []string
	for _, ev := range sessionEvents(ctx, db, req, store.TypeToolObservation) {
		var p struct {
			Files []string `json:"files"`
		}
		if json.Unmarshal(ev.Payload, &p) != nil {
			continue
		}
		for _, f := range p.Files {
			// Either separator: a transcript may come from Windows.
			base := filepath.Base(strings.ReplaceAll(f, `\`, "/"))
			// A short name ("a.go", "x") is in too many texts to say which
			// are about the file.
			if len(base) >= 6 && !seen[base] {
				seen[base] = true
				out = append(out, base)
			}
		}
	}
	return out
}

// workingBoost is what an item naming a file the session is working on gains
// in rank: among items relevant to the prompt, those about the code at hand
// come first. It never opens the gate.
const workingBoost = 1.3

// raiseWorking raises the items that name one of files.
func raiseWorking(items []Item, files []string) {
	if len(files) == 0 {
		return
	}
	for i := range items {
		for _, f := range files {
			if strings.Contains(items[i].Text, f) || strings.Contains(items[i].Quote, f) {
				items[i].Score *= workingBoost
				break
			}
		}
	}
}

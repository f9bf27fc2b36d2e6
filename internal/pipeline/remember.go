package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/align"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// ErrNotAligned is returned by Remember when a quote is not found in the session's messages.
var ErrNotAligned = errors.New("quote not found in the session")

// Remembered is what Remember stored.
type Remembered struct {
	Entry     store.Entry
	Created   bool // false: the project already held the claim, and the quote was added to it
	Conflicts int
}

// Remember stores one memory the model asked to keep, quoting the session:
// the quotes are aligned against the session's messages exactly as an
// extracted entry's are, and the entry is stored only when every quote is
// found, verified. Otherwise nothing is stored and the error (wrapping
// ErrNotAligned) says which quote failed and why. Conflicts with the
// project's earlier entries are recorded as after extraction. Messages for
// which skip returns true are not quoted from (nil skips none): the memory
// tools' own results, which hold text of other sessions, must not vouch
// for a quote. Only stored messages are quoted: a caller quoting the turn
// under way folds the spool first (store.DB.Fold).
func (p *Processor) Remember(ctx context.Context, sessionID string, x extract.Entry, skip func(store.Event) bool) (Remembered, error) {
	var r Remembered
	rd := p.DB.Read()
	sess, err := rd.Session(ctx, sessionID)
	if errors.Is(err, store.ErrNotFound) {
		return r, fmt.Errorf("session %s has no stored messages to quote: %w", sessionID, ErrNotAligned)
	}
	if err != nil {
		return r, err
	}
	evs, err := rd.Events(ctx, store.EventFilter{SessionID: sessionID,
		Types: []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}})
	if err != nil {
		return r, err
	}
	if skip != nil {
		kept := evs[:0]
		for _, e := range evs {
			if !skip(e) {
				kept = append(kept, e)
			}
		}
		evs = kept
	}
	if len(evs) == 0 {
		return r, fmt.Errorf("session %s has no stored messages to quote: %w", sessionID, ErrNotAligned)
	}
	texts := make([]string, len(evs))
	for i, e := range evs {
		texts[i] = e.Text
	}
	// The model does not know message indexes: every quote is looked for
	// in the whole session (index -1 gives no hint to the aligner).
	for i := range x.Evidence {
		x.Evidence[i].MessageIndex = -1
	}
	e, events := p.entry(sess, evs, align.NewSession(texts), x, "remember")
	if e.Stage != store.StageVerified {
		return r, fmt.Errorf("%s: %w", strings.TrimPrefix(e.PromotionBlocked, "1 of 1 quotes did not align: "), ErrNotAligned)
	}
	if err := store.Prepare(events); err != nil {
		return r, err
	}
	for j, v := range e.Evidence {
		e.Evidence[j].EventID = evs[v.MessageIndex].ID
	}
	err = p.DB.Update(ctx, func(tx *store.Tx) error {
		stored, created, err := tx.PutEntries(ctx, []store.EntryWrite{{Entry: e, Events: events}})
		if err != nil {
			return err
		}
		if r.Conflicts, err = p.detectConflicts(ctx, tx, sess.Project, stored); err != nil {
			return err
		}
		r.Entry, r.Created = stored[0], created[0]
		return nil
	})
	if err != nil {
		return Remembered{Conflicts: r.Conflicts}, err
	}
	return r, nil
}

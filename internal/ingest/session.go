// Package ingest carries Claude Code sessions into the store: the steps a
// session goes through, shared by the hooks (live) and import (whole
// transcripts from disk, many at once).
package ingest

import (
	"context"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Register records a session (or its new fields) in tx and returns it as
// stored: of a new session, under the spelling of its project the store
// already files sessions under (store.Tx.RecordedProject).
func Register(ctx context.Context, tx *store.Tx, s store.Session) (store.Session, error) {
	p, err := tx.RecordedProject(ctx, s.Project)
	if err != nil {
		return store.Session{}, err
	}
	s.Project = p
	if err := tx.TouchSession(ctx, s); err != nil {
		return store.Session{}, err
	}
	return tx.Session(ctx, s.ID)
}

// Package ingest carries Claude Code sessions into the store: the steps a
// session goes through, shared by the hooks (live) and import (whole
// transcripts from disk, many at once).
package ingest

import (
	"context"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Register records a session (or its new fields) in tx and returns it as
// stored.
func Register(ctx context.Context, tx *store.Tx, s store.Session) (store.Session, error) {
	if err := tx.TouchSession(ctx, s); err != nil {
		return store.Session{}, err
	}
	return tx.Session(ctx, s.ID)
}

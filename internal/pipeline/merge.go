package pipeline

import (
	"context"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// MergeAbove is how many full-text segments (both indexes together) a
// store may hold before a worker merges them: every write transaction of a
// hook adds one, FTS5's automerge keeps a few per level, and each search
// seeks every segment holding its term.
const MergeAbove = 8

// MergeSteps bounds a worker's merge (store.MergeIndexes) to this many
// steps of store.MergePages pages: enough to merge the indexes of a store
// of 100,000 messages in one run; a larger store's merge goes on in the
// next worker's run.
const MergeSteps = 16

// MergeWanted reports whether the store's full-text indexes hold more than
// MergeAbove segments. It reads two rows, so a hook can ask it.
func MergeWanted(ctx context.Context, db *store.DB) (bool, error) {
	n, err := db.IndexSegments(ctx)
	return n > MergeAbove, err
}

// MergeIndexes merges the store's full-text indexes when MergeWanted, at
// most MergeSteps steps: the levels that hold two segments or more, which
// costs what the sessions since the last merge wrote (store.MergeIndexes). It is a worker's last step: a failure is logged,
// and the next worker tries again.
func (p *Processor) MergeIndexes(ctx context.Context) {
	want, err := MergeWanted(ctx, p.DB)
	if err != nil {
		p.Log.Error("full-text segments", "err", err)
		return
	}
	if !want {
		return
	}
	m, err := p.DB.MergeIndexes(ctx, false, store.MergePages, MergeSteps)
	if err != nil {
		p.Log.Error("merge the full-text indexes", "err", err)
		return
	}
	p.Log.Info("merged the full-text indexes", "steps", m.Steps, "done", m.Done)
}

package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// MergeAbove is how many full-text segments (both indexes together) the
// sessions since the last merge may add before a worker merges them: every
// write transaction of a hook adds one, FTS5's automerge keeps a few per
// level, and each search seeks every segment holding its term.
const MergeAbove = 8

// MergeSteps bounds a worker's merge (store.MergeIndexes) to this many
// steps of store.MergePages pages: enough to merge the indexes of a store
// of 100,000 messages in one run; a larger store's merge goes on in the
// next worker's run.
const MergeSteps = 16

// mergedFile holds how many segments the last finished merge left. A level
// merge leaves one segment a level, and the levels grow with the store (a
// store of 90,000 messages holds 14 in its two indexes), so a fixed count
// would ask for a merge that has nothing to do after every session.
const mergedFile = "fts.merged"

// MergeWanted reports whether the store's full-text indexes hold more than
// MergeAbove segments over what the last finished merge left. It reads two
// rows and a small file, so a hook can ask it.
func MergeWanted(ctx context.Context, db *store.DB, dataDir string) (bool, error) {
	n, err := db.IndexSegments(ctx)
	if err != nil {
		return false, err
	}
	return n > mergedLeft(dataDir)+MergeAbove, nil
}

// mergedLeft is the count recorded in mergedFile, 0 when there is none.
func mergedLeft(dataDir string) int {
	b, err := regular.ReadFile(filepath.Join(dataDir, mergedFile), 32)
	if err != nil {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// MergeIndexes merges the store's full-text indexes when MergeWanted, at
// most MergeSteps steps: the levels that hold two segments or more, which
// costs what the sessions since the last merge wrote (store.MergeIndexes).
// A merge that finished records what it left. It is a worker's last step:
// a failure is logged, and the next worker tries again.
func (p *Processor) MergeIndexes(ctx context.Context, dataDir string) {
	want, err := MergeWanted(ctx, p.DB, dataDir)
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
	if !m.Done {
		return // the next worker goes on from here
	}
	n, err := p.DB.IndexSegments(ctx)
	if err != nil {
		p.Log.Error("full-text segments", "err", err)
		return
	}
	f, err := regular.OpenFile(filepath.Join(dataDir, mergedFile), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		p.Log.Error("record the merge", "err", err)
		return
	}
	_, err = f.WriteString(strconv.Itoa(n) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		p.Log.Error("record the merge", "err", err)
	}
}

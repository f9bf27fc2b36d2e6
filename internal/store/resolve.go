package store

import (
	"context"
	"fmt"
)

// ConflictResolution is how a user settled a contradiction between two
// entries. Zero ids change nothing: keeping both only records the note.
type ConflictResolution struct {
	Note       string // stored in conflicts.resolution; must not be empty
	Superseded int64  // this entry is marked superseded by By
	By         int64
	Rejected   int64 // this entry moves to stage rejected
}

// ResolveConflict settles an open contradiction: it records the event,
// stores the note, applies the supersession or rejection, and returns to
// active each side that no other open contradiction keeps contested.
// Returns ErrNotFound when no open contradiction has the id.
func (db *DB) ResolveConflict(ctx context.Context, id int64, r ConflictResolution, ev Event) error {
	if r.Note == "" {
		return fmt.Errorf("resolve conflict %d: empty resolution", id)
	}
	err := db.Update(ctx, func(t *Tx) error {
		var older, newer int64
		err := t.queryRow(ctx, `SELECT older, newer FROM conflicts WHERE id = ? AND kind = 'contradicts' AND resolution = ''`, id).Scan(&older, &newer)
		if err != nil {
			return ErrNotFound
		}
		if _, err := t.Append(ctx, ev); err != nil {
			return err
		}
		if _, err := t.exec(ctx, `UPDATE conflicts SET resolution = ? WHERE id = ?`, r.Note, id); err != nil {
			return err
		}
		// Released first, so that the supersession below is not undone.
		if _, err := t.exec(ctx, `UPDATE entries SET status = ? WHERE id IN (?, ?) AND status = ? AND NOT EXISTS (
			SELECT 1 FROM conflicts c WHERE c.kind = 'contradicts' AND c.resolution = '' AND (c.older = entries.id OR c.newer = entries.id))`,
			StatusActive, older, newer, StatusContested); err != nil {
			return err
		}
		if r.Superseded != 0 {
			if _, err := t.exec(ctx, `UPDATE entries SET status = ?, superseded_by = ? WHERE id = ?`, StatusSuperseded, r.By, r.Superseded); err != nil {
				return err
			}
		}
		if r.Rejected != 0 {
			if _, err := t.exec(ctx, `UPDATE entries SET stage = ? WHERE id = ?`, StageRejected, r.Rejected); err != nil {
				return err
			}
		}
		return nil
	})
	if err == ErrNotFound {
		return fmt.Errorf("resolve conflict %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("resolve conflict %d: %w", id, err)
	}
	return nil
}

// Conflict returns one conflict by id; ErrNotFound when there is none.
func (db *DB) Conflict(ctx context.Context, id int64) (Conflict, error) {
	cs, err := scanConflicts(db.Read().query(ctx, `SELECT id, older, newer, kind, reason, detected_at, resolution FROM conflicts WHERE id = ?`, id))
	if err != nil {
		return Conflict{}, fmt.Errorf("conflict %d: %w", id, err)
	}
	if len(cs) == 0 {
		return Conflict{}, fmt.Errorf("conflict %d: %w", id, ErrNotFound)
	}
	return cs[0], nil
}

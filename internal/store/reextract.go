package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
)

// A re-extraction (pipeline.Reextract) derives a project's memories again
// from its stored messages. What it no longer derives, and the user never
// corrected, is retired: deleted, with its evidence, roles and conflicts
// (the schema cascades). A status would need the entries table rebuilt (its
// CHECK lists the statuses) and every reader taught to skip it, for a row
// the messages can derive again whenever an extractor says so. The events
// that showed it (memory_injected, memory_cited) stay in the log.

// RetireEntries deletes the entries ids, with everything that hangs on
// them, and sets back to active the entries whose conflict with one of them
// is gone with it: contested with no open contradiction left, superseded by
// a retired entry. The entries keep are left as they are (those the user
// corrected). It reports how many entries it set back to active.
func (t *Tx) RetireEntries(ctx context.Context, ids, keep []int64) (int, error) {
	var partners []int64
	for _, c := range chunks(ids) {
		in := placeholders(len(c))
		args := append(int64Args(c), int64Args(c)...)
		ps, err := queryAll(ctx, t, `SELECT newer FROM conflicts WHERE older IN (`+in+`)
			UNION SELECT older FROM conflicts WHERE newer IN (`+in+`)`, func(rows *sql.Rows) (id int64, err error) {
			return id, rows.Scan(&id)
		}, args...)
		if err != nil {
			return 0, fmt.Errorf("retire entries: %w", err)
		}
		partners = append(partners, ps...)
		if _, err := t.exec(ctx, `DELETE FROM entries WHERE id IN (`+in+`)`, int64Args(c)...); err != nil {
			return 0, fmt.Errorf("retire entries: %w", err)
		}
	}
	partners = slices.DeleteFunc(partners, func(id int64) bool { return slices.Contains(keep, id) })
	n := 0
	for _, c := range chunks(partners) {
		r, err := t.exec(ctx, `UPDATE entries SET status = ?, superseded_by = NULL WHERE id IN (`+placeholders(len(c))+`) AND (
			status = ? AND NOT EXISTS (SELECT 1 FROM conflicts c WHERE (c.older = entries.id OR c.newer = entries.id)
				AND c.kind = 'contradicts' AND c.resolution = '')
			OR status = ? AND superseded_by IS NULL)`, append([]any{StatusActive}, append(int64Args(c), StatusContested, StatusSuperseded)...)...)
		if err != nil {
			return 0, fmt.Errorf("retire entries: reopen: %w", err)
		}
		m, _ := r.RowsAffected()
		n += int(m)
	}
	return n, nil
}

// PruneEvidence deletes the evidence entry id has from session except the
// quotes keep: what a re-extraction of the session still quotes for it.
func (t *Tx) PruneEvidence(ctx context.Context, id int64, session string, keep []string) error {
	q := `DELETE FROM evidence WHERE entry_id = ? AND session_id = ?`
	args := []any{id, session}
	if len(keep) > 0 {
		q += ` AND quote_hash NOT IN (` + placeholders(len(keep)) + `)`
		for _, k := range keep {
			args = append(args, shortHash(k)[:32])
		}
	}
	if _, err := t.exec(ctx, q, args...); err != nil {
		return fmt.Errorf("prune evidence: %w", err)
	}
	return nil
}

// MoveUsage adds entry from's injection and citation counts to the entry
// of project with claim key to: the memory a re-extraction derives from the
// same words in its place. Nothing happens when there is no such entry.
func (t *Tx) MoveUsage(ctx context.Context, from int64, project, to string) error {
	_, err := t.exec(ctx, `UPDATE entries SET
		inject_count = entries.inject_count + f.inject_count, last_injected_at = max(entries.last_injected_at, f.last_injected_at),
		use_count = entries.use_count + f.use_count, last_used_at = max(entries.last_used_at, f.last_used_at)
		FROM (SELECT inject_count, last_injected_at, use_count, last_used_at FROM entries WHERE id = ?) AS f
		WHERE entries.project = ? AND entries.claim_key = ?`, from, project, to)
	if err != nil {
		return fmt.Errorf("move usage: %w", err)
	}
	return nil
}

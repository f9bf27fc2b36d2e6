package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// DigestType is the entry type of a session's digest: what an old session
// did, decided and left open, each line resting on a quote of it (see
// pipeline.Processor.Digests). A session has one digest at most.
const DigestType = "digest"

// TypeDigestSkipped marks a session old enough for a digest that has
// nothing to make one from (no line the user or a tool says): the worker
// does not read it again. Its dedupe key is DigestSkippedKey.
const TypeDigestSkipped = "digest_skipped"

// DigestSkippedKey is the dedupe key of session's TypeDigestSkipped event.
func DigestSkippedKey(session string) string { return Key(KeyKind(TypeDigestSkipped), session) }

// DigestsDue lists up to limit sessions of project (every project's when
// project is "") that need a digest, oldest first: their latest prompt,
// answer or tool call is before before, they hold a prompt, and they have
// neither a digest nor a TypeDigestSkipped mark.
func (t *Tx) DigestsDue(ctx context.Context, project string, before time.Time, limit int) ([]Session, error) {
	cut := FormatTime(before)
	// The cheap tests first, each an index lookup: a session that started
	// later cannot be old; most old sessions have their digest. The latest
	// message is the last stored (by id, through events_session), not the
	// maximum of every message's time: reading a session's every event
	// made this 0.3 s at 3,000 sessions.
	q := `SELECT ` + sessionColumns + ` FROM sessions s
		WHERE s.started_at < ? AND (? = '' OR s.project = ?)
		AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.session_id = s.id AND e.type = ?)
		AND NOT EXISTS (SELECT 1 FROM events d WHERE d.dedupe_key = 'digest_skipped:' || s.id)
		AND (SELECT m.ts FROM events m WHERE m.session_id = s.id AND m.type IN (?, ?, ?) ORDER BY m.id DESC LIMIT 1) < ?
		AND EXISTS (SELECT 1 FROM events p WHERE p.session_id = s.id AND p.type = ?)
		ORDER BY s.started_at, s.id`
	args := []any{cut, project, project, DigestType,
		TypeUserPrompt, TypeAgentResponse, TypeToolObservation, cut, TypeUserPrompt}
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	out, err := queryAll(ctx, t, q, func(rows *sql.Rows) (Session, error) { return scanSession(rows) }, args...)
	if err != nil {
		return nil, fmt.Errorf("sessions due a digest: %w", err)
	}
	return out, nil
}

// QuotingEntries returns the ids of the entries with a quote found in one
// of the events, in id order.
func (t *Tx) QuotingEntries(ctx context.Context, events []int64) ([]int64, error) {
	var out []int64
	for _, c := range chunks(events) {
		ids, err := queryIDs(ctx, t, `SELECT DISTINCT entry_id FROM evidence WHERE event_id IN (`+placeholders(len(c))+`)`, int64Args(c)...)
		if err != nil {
			return nil, fmt.Errorf("entries quoting events: %w", err)
		}
		out = append(out, ids...)
	}
	return out, nil
}

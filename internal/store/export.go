package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// ScanEvents calls fn for every event, oldest first, optionally of one project
// (and every forget's tombstone), with the content hash the store keeps next
// to it. Rows are streamed, so an export of a large log does not hold it in
// memory; fn must not write to the store. An error from fn stops the scan
// and is returned.
func (db *DB) ScanEvents(ctx context.Context, project string, fn func(e Event, contentHash string) error) error {
	q, args := `SELECT `+eventColumns+`, content_hash FROM events`, []any{}
	if project != "" {
		// With every forget: one of no project (--match, --before alone)
		// or of a memory of another project (which redacted its quotes
		// everywhere) covers this project's words too, and a restore of
		// its export honours them. A tombstone holds hashes and counts.
		q += ` WHERE project = ? OR type = ?`
		args = append(args, project, TypeForgotten)
	}
	q += ` ORDER BY id`
	rows, err := db.Read().query(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("scan events: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Event
		var ts, payload, hash string
		if err := rows.Scan(&e.ID, &ts, &e.Type, &e.SessionID, &e.Project, &e.SourceUUID, &e.Text, &payload, &e.DedupeKey, &e.Checksum, &hash); err != nil {
			return fmt.Errorf("scan events: %w", err)
		}
		e.Time = ParseTime(ts)
		e.Payload = []byte(payload)
		if err := fn(e, hash); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("scan events: %w", err)
	}
	return nil
}

// HasEvent reports whether an event with the dedupe key is stored.
func (t *Tx) HasEvent(ctx context.Context, dedupeKey string) (bool, error) {
	var one int
	err := t.queryRow(ctx, `SELECT 1 FROM events WHERE dedupe_key = ?`, dedupeKey).Scan(&one)
	switch {
	case err == sql.ErrNoRows:
		return false, nil
	case err != nil:
		return false, fmt.Errorf("event %s: %w", dedupeKey, err)
	}
	return true, nil
}

// EventIDs maps dedupe keys to the ids of the stored events that carry them;
// keys with no event are absent from the map.
func (db *DB) EventIDs(ctx context.Context, keys []string) (map[string]int64, error) {
	out := make(map[string]int64, len(keys))
	// Stay well under SQLite's limit on bound parameters.
	const chunk = 500
	for len(keys) > 0 {
		n := min(chunk, len(keys))
		args := make([]any, n)
		for i, k := range keys[:n] {
			args[i] = k
		}
		rows, err := db.Read().query(ctx, `SELECT dedupe_key, id FROM events WHERE dedupe_key IN (`+placeholders(n)+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("event ids: %w", err)
		}
		for rows.Next() {
			var k string
			var id int64
			if err := rows.Scan(&k, &id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("event ids: %w", err)
			}
			out[k] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("event ids: %w", err)
		}
		keys = keys[n:]
	}
	return out, nil
}

// EventChecksum is the checksum the store gives e when it is appended: a
// sha256 over its type, session, project, source uuid, text and canonical
// payload. It returns an error if the payload is not valid JSON.
func EventChecksum(e Event) (string, error) {
	payload, err := canonicalPayload(e.Payload)
	if err != nil {
		return "", err
	}
	return checksum(e, payload), nil
}

// Usage is how often an entry was injected into a prompt and cited by an
// answer, and when last.
type Usage struct {
	UseCount     int
	LastUsed     time.Time
	InjectCount  int
	LastInjected time.Time
}

// RestoreUsage raises an entry's use and injection counts and times to at
// least the given values, as a restore from an export does; it never lowers them.
func (db *DB) RestoreUsage(ctx context.Context, id int64, u Usage) error {
	err := db.Update(ctx, func(t *Tx) error {
		_, err := t.exec(ctx, `UPDATE entries SET use_count = max(use_count, ?), last_used_at = max(last_used_at, ?),
			inject_count = max(inject_count, ?), last_injected_at = max(last_injected_at, ?) WHERE id = ?`,
			u.UseCount, FormatTime(u.LastUsed), u.InjectCount, FormatTime(u.LastInjected), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("restore usage of entry %d: %w", id, err)
	}
	return nil
}

// HoldsType reports whether the store holds an event of one of types.
func (db *DB) HoldsType(ctx context.Context, types ...string) (bool, error) {
	var n int
	err := db.Read().queryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM events WHERE type IN (`+placeholders(len(types))+`) LIMIT 1)`,
		stringArgs(types)...).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("holds type: %w", err)
	}
	return n > 0, nil
}

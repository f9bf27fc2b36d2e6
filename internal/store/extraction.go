package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// extractionRecord is an entry_extracted or evidence_aligned event of a
// claim key.
type extractionRecord struct {
	id               int64
	session, subject string
}

func extractionRecords(ctx context.Context, t *Tx, project, key string) ([]extractionRecord, error) {
	rows, err := t.query(ctx, `SELECT id, session_id, coalesce(json_extract(payload, '$.subject'), '') FROM events
		WHERE project = ? AND type IN (?, ?) AND json_extract(payload, '$.claim_key') = ?`, project, TypeEntryExtracted, TypeEvidenceAligned, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []extractionRecord
	for rows.Next() {
		var r extractionRecord
		if err := rows.Scan(&r.id, &r.session, &r.subject); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// RekeyExtraction moves the extraction records of claim key from in
// project to claim key to: forget finds a memory's records by its claim
// key, so a memory whose claim moves to another's takes its records along.
func (t *Tx) RekeyExtraction(ctx context.Context, project, from, to string) error {
	records, err := extractionRecords(ctx, t, project, from)
	if err != nil {
		return fmt.Errorf("rekey extraction: %w", err)
	}
	if err := t.rekeyRecords(ctx, records, to); err != nil {
		return fmt.Errorf("rekey extraction: %w", err)
	}
	return nil
}

func (t *Tx) rekeyRecords(ctx context.Context, records []extractionRecord, key string) error {
	for _, r := range records {
		if err := rekeyRecord(ctx, t, r.id, key); err != nil {
			return err
		}
	}
	return nil
}

// rekeyRecord sets the claim key in event id's payload.
func rekeyRecord(ctx context.Context, t *Tx, id int64, key string) error {
	e, err := eventByID(ctx, t, id)
	if err != nil {
		return err
	}
	b, ok := WithClaimKey(e.Payload, key)
	if !ok {
		return fmt.Errorf("event %d: its payload holds no claim key", id)
	}
	_, err = t.exec(ctx, `UPDATE events SET payload = ?, checksum = ? WHERE id = ?`, string(b), checksum(e, string(b)), id)
	return err
}

// WithClaimKey returns payload, an extraction record's JSON object, with
// its claim_key set to key; ok is false when payload is no JSON object
// holding a claim_key.
func WithClaimKey(payload []byte, key string) (out []byte, ok bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(payload, &m) != nil || m["claim_key"] == nil {
		return nil, false
	}
	m["claim_key"], _ = json.Marshal(key)
	out, err := json.Marshal(m)
	return out, err == nil
}

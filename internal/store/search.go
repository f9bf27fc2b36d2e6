package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// QuoteTerm quotes one term for an FTS5 MATCH expression, so that user text can
// never be read as FTS5 syntax (a stray quote, a minus sign, a column filter).
func QuoteTerm(term string) string {
	// FTS5 reads a NUL byte as the end of the string, which leaves the quote open.
	term = strings.ReplaceAll(term, "\x00", "")
	return `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
}

// MatchAny builds an FTS5 expression matching any of the terms; with prefix,
// each term also matches as a prefix. Empty terms are dropped; no terms gives "".
func MatchAny(terms []string, prefix bool) string { return matchTerms(terms, prefix, " OR ") }

// MatchAll is MatchAny for rows that hold every one of the terms.
func MatchAll(terms []string, prefix bool) string { return matchTerms(terms, prefix, " AND ") }

func matchTerms(terms []string, prefix bool, op string) string {
	var b strings.Builder
	for _, t := range terms {
		if strings.TrimSpace(strings.ReplaceAll(t, "\x00", "")) == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(op)
		}
		b.WriteString(QuoteTerm(t))
		if prefix {
			b.WriteString("*")
		}
	}
	return b.String()
}

// EventQuery selects events by full-text match.
type EventQuery struct {
	Match          string // an FTS5 expression built with QuoteTerm/MatchAny; never raw user text
	Project        string // "" for all projects
	ExcludeSession string
	SessionID      string // "" for every session
	Types          []string
	Since          time.Time
	Until          time.Time // only events before this; zero for no bound
	Limit          int
}

// CountEventMatches counts the events a MATCH expression selects, up to
// limit: a cheap estimate of what ranking them would cost (FTS5 walks the
// term's document list without computing BM25).
func (db *DB) CountEventMatches(ctx context.Context, match string, limit int) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM events_fts WHERE events_fts MATCH ? LIMIT ?)`, match, limit).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count matches: %w", err)
	}
	return n, nil
}

// EventHit is an event found by SearchEvents, with its BM25 score (higher is better).
type EventHit struct {
	Event
	Score float64
}

// SearchEvents ranks events by BM25 against q.Match.
func (db *DB) SearchEvents(ctx context.Context, q EventQuery) ([]EventHit, error) {
	if q.Match == "" {
		return nil, nil
	}
	where := []string{"events_fts MATCH ?"}
	args := []any{q.Match}
	if q.Project != "" {
		where = append(where, "e.project = ?")
		args = append(args, q.Project)
	}
	if q.ExcludeSession != "" {
		where = append(where, "e.session_id <> ?")
		args = append(args, q.ExcludeSession)
	}
	if q.SessionID != "" {
		where = append(where, "e.session_id = ?")
		args = append(args, q.SessionID)
	}
	if len(q.Types) > 0 {
		where = append(where, "e.type IN ("+placeholders(len(q.Types))+")")
		for _, t := range q.Types {
			args = append(args, t)
		}
	}
	if !q.Since.IsZero() {
		where = append(where, "e.ts >= ?")
		args = append(args, FormatTime(q.Since))
	}
	if !q.Until.IsZero() {
		where = append(where, "e.ts < ?")
		args = append(args, FormatTime(q.Until))
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	sqlq := `SELECT e.id, e.ts, e.type, e.session_id, e.project, e.source_uuid, e.text, e.payload, e.dedupe_key, e.checksum,
			-bm25(events_fts) AS score
		FROM events_fts JOIN events e ON e.id = events_fts.rowid
		WHERE ` + strings.Join(where, " AND ") + `
		ORDER BY bm25(events_fts) LIMIT ` + fmt.Sprint(limit)
	rows, err := db.sql.QueryContext(ctx, sqlq, args...)
	if err != nil {
		return nil, fmt.Errorf("search events: %w", err)
	}
	defer rows.Close()
	var out []EventHit
	for rows.Next() {
		var h EventHit
		var ts, payload string
		if err := rows.Scan(&h.ID, &ts, &h.Type, &h.SessionID, &h.Project, &h.SourceUUID, &h.Text, &payload, &h.DedupeKey, &h.Checksum, &h.Score); err != nil {
			return nil, fmt.Errorf("search events: %w", err)
		}
		h.Time = ParseTime(ts)
		h.Payload = []byte(payload)
		out = append(out, h)
	}
	return out, rows.Err()
}

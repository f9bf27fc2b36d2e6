package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Session is what the store knows of one Claude Code session.
type Session struct {
	ID             string
	Project        string
	Cwd            string
	TranscriptPath string
	Source         string
	StartedAt      time.Time
	EndedAt        time.Time
	EndReason      string
	Offset         int64 // transcript bytes already ingested
	Summary        string
}

// TouchSession records a session, creating it on first sight and filling in
// fields that were empty; it never moves the ingest offset or the start time.
func (t *Tx) TouchSession(ctx context.Context, s Session) error {
	now := t.db.Now()
	start := s.StartedAt
	if start.IsZero() {
		start = now
	}
	_, err := t.exec(ctx, `INSERT INTO sessions (id, project, cwd, transcript_path, source, started_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET
			project = CASE WHEN sessions.project = '' THEN excluded.project ELSE sessions.project END,
			cwd = CASE WHEN sessions.cwd = '' THEN excluded.cwd ELSE sessions.cwd END,
			transcript_path = CASE WHEN excluded.transcript_path <> '' THEN excluded.transcript_path ELSE sessions.transcript_path END,
			source = CASE WHEN sessions.source = '' THEN excluded.source ELSE sessions.source END
		WHERE sessions.project = '' OR sessions.cwd = '' OR sessions.source = ''
			OR (excluded.transcript_path <> '' AND excluded.transcript_path <> sessions.transcript_path)`,
		s.ID, s.Project, s.Cwd, s.TranscriptPath, s.Source, FormatTime(start))
	if err != nil {
		return fmt.Errorf("touch session %s: %w", s.ID, err)
	}
	return nil
}

const sessionColumns = `id, project, cwd, transcript_path, source, started_at, ended_at, end_reason, ingest_offset, summary`

func scanSession(sc interface{ Scan(...any) error }) (Session, error) {
	var s Session
	var started, ended string
	if err := sc.Scan(&s.ID, &s.Project, &s.Cwd, &s.TranscriptPath, &s.Source, &started, &ended, &s.EndReason, &s.Offset, &s.Summary); err != nil {
		return Session{}, err
	}
	s.StartedAt, s.EndedAt = ParseTime(started), ParseTime(ended)
	return s, nil
}

// Session returns the session with the given id, or an error wrapping ErrNotFound.
func (t *Tx) Session(ctx context.Context, id string) (Session, error) {
	s, err := scanSession(t.queryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = ?`, id))
	if err == sql.ErrNoRows {
		return Session{}, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Session{}, fmt.Errorf("session %s: %w", id, err)
	}
	return s, nil
}

// RecordedProject is the project the store files a session of project (a
// directory's identity, project.Identify) under: project itself, or, for a
// path on a Windows drive, its spelling with the drive letter in the other
// case (DriveSpellings) where the store's sessions hold more of that one
// (project itself on a tie). Claude Code reports one Windows session's
// working directory as "c:\…" and "C:\…" by turns (VS Code writes the
// drive letter small): filed as two projects, each prompt recalled what
// one of them held. Folders' names are spelled as the system reports them,
// and a path of another system is its own spelling ("/home/Kiln" is not
// "/home/kiln"): those cost no query. Sessions filed apart before stay
// apart; the spelling of the most is read, and forget selects both.
func (t *Tx) RecordedProject(ctx context.Context, project string) (string, error) {
	spellings := DriveSpellings(project)
	if len(spellings) == 1 {
		return project, nil
	}
	rows, err := t.query(ctx, `SELECT project, count(*) FROM sessions WHERE project IN (?, ?) GROUP BY project`, spellings[0], spellings[1])
	if err != nil {
		return "", fmt.Errorf("recorded project: %w", err)
	}
	defer rows.Close()
	best, most := project, 0
	for rows.Next() {
		var p string
		var n int
		if err := rows.Scan(&p, &n); err != nil {
			return "", fmt.Errorf("recorded project: %w", err)
		}
		if n > most || n == most && p == project {
			best, most = p, n
		}
	}
	return best, rows.Err()
}

// DriveSpellings are the spellings of project that name one directory by
// the case of a Windows drive letter: project, and for a path on a drive
// ("C:\x", "c:/x", "C:") the same with the letter in the other case.
func DriveSpellings(project string) []string {
	if len(project) < 2 || project[1] != ':' || !('a' <= project[0]|0x20 && project[0]|0x20 <= 'z') ||
		len(project) > 2 && project[2] != '\\' && project[2] != '/' {
		return []string{project}
	}
	return []string{project, string(project[0]^0x20) + project[1:]}
}

// ProjectsRecorded reports which of projects have a session recorded.
func (db *DB) ProjectsRecorded(ctx context.Context, projects []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(projects) == 0 {
		return out, nil
	}
	args := make([]any, len(projects))
	for i, p := range projects {
		args[i] = p
	}
	rows, err := db.Read().query(ctx, `SELECT DISTINCT project FROM sessions WHERE project IN (`+placeholders(len(projects))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("projects recorded: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("projects recorded: %w", err)
		}
		out[p] = true
	}
	return out, rows.Err()
}

// Sessions lists sessions, newest first, optionally of one project.
func (db *DB) Sessions(ctx context.Context, project string, limit int) ([]Session, error) {
	q, args := `SELECT `+sessionColumns+` FROM sessions`, []any{}
	if project != "" {
		q += ` WHERE project = ?`
		args = append(args, project)
	}
	q += ` ORDER BY started_at DESC, id`
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	rows, err := db.Read().query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// AdvanceOffset moves a session's ingest offset forward to off, for a read
// that started at from; it never moves it back, so two hooks ingesting the
// same transcript at once cannot undo each other. Nor does it move it on
// from below from: another hook found the transcript replaced and set the
// offset back to read the new one from its start (SetOffset), and a read
// from the old offset began inside the new file (review 165).
func (t *Tx) AdvanceOffset(ctx context.Context, id string, from, off int64) error {
	_, err := t.exec(ctx, `UPDATE sessions SET ingest_offset = ? WHERE id = ? AND ingest_offset < ? AND ingest_offset >= ?`, off, id, off, from)
	if err != nil {
		return fmt.Errorf("advance offset of %s: %w", id, err)
	}
	return nil
}

// SetOffset sets a session's ingest offset to off, back or forward: for a
// transcript that shrank and was read again from its start.
func (t *Tx) SetOffset(ctx context.Context, id string, off int64) error {
	_, err := t.exec(ctx, `UPDATE sessions SET ingest_offset = ? WHERE id = ?`, off, id)
	if err != nil {
		return fmt.Errorf("set offset of %s: %w", id, err)
	}
	return nil
}

// EndSession records that a session ended.
func (t *Tx) EndSession(ctx context.Context, id, reason string, at time.Time) error {
	_, err := t.exec(ctx, `UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ?`, FormatTime(at), reason, id)
	if err != nil {
		return fmt.Errorf("end session %s: %w", id, err)
	}
	return nil
}

// SetSummary stores a session's one-paragraph summary.
func (t *Tx) SetSummary(ctx context.Context, id, summary string) error {
	// What a forget left a rule for is not written back (forget_rule.go),
	// here as in events. The summary is said now, from what the store holds
	// now: a session, project or date forget of what was said before does
	// not cover it (the rule kept those events out), so that a session that
	// goes on after its forget gets a summary of what it said since; the
	// words a forget matched stay forgotten. A restore, whose summary was
	// written elsewhere and earlier, dates it itself (export.Restore).
	if summary != "" {
		s, err := t.Session(ctx, id)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("set summary of %s: %w", id, err)
		}
		forgotten, err := t.Forgets(ctx, t.db.Now(), id, s.Project, summary)
		if err != nil {
			return fmt.Errorf("set summary of %s: %w", id, err)
		}
		if forgotten {
			return nil
		}
	}
	_, err := t.exec(ctx, `UPDATE sessions SET summary = ? WHERE id = ?`, summary, id)
	if err != nil {
		return fmt.Errorf("set summary of %s: %w", id, err)
	}
	return nil
}

// ErrAmbiguousSession is ResolveSession's error for a prefix several
// sessions start with.
var ErrAmbiguousSession = errors.New("ambiguous")

// ResolveSession turns a session id as listings print it (shortened; people
// paste it) into the full id: a unique prefix names its session, a session
// whose id is the prefix itself wins, and a prefix several share is
// ErrAmbiguousSession naming them. An id no session starts with is
// returned as it is, for the caller to find nothing under it. project ""
// looks in every project; otherwise only that project's sessions count, and
// no other is named.
func (db *DB) ResolveSession(ctx context.Context, prefix, project string) (string, error) {
	if prefix == "" {
		return prefix, nil
	}
	const most = 10
	rows, err := db.Read().query(ctx, `SELECT id FROM sessions WHERE substr(id, 1, ?) = ? AND (? = '' OR project = ?)
		ORDER BY id <> ?, id LIMIT ?`, utf8.RuneCountInString(prefix), prefix, project, project, prefix, most+1)
	if err != nil {
		return "", fmt.Errorf("sessions starting %q: %w", prefix, err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return "", fmt.Errorf("sessions starting %q: %w", prefix, err)
		}
		if id == prefix {
			return id, nil
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("sessions starting %q: %w", prefix, err)
	}
	switch {
	case len(ids) == 0:
		return prefix, nil
	case len(ids) == 1:
		return ids[0], nil
	case len(ids) > most:
		ids = append(ids[:most], "…")
	}
	return "", fmt.Errorf("session %q is %w: it starts %s (give more of the id)", prefix, ErrAmbiguousSession, strings.Join(ids, ", "))
}

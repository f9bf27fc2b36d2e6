package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/spaces"
)

// Event types written by the capture path and the pipeline.
const (
	TypeUserPrompt      = "user_prompt"
	TypeAgentResponse   = "agent_response"
	TypeToolObservation = "tool_observation"
	TypeSessionStarted  = "session_started"
	TypeSessionEnded    = "session_ended"
	// TypeSessionProcessed marks a transcript, at one size, as imported and
	// processed, so that importing it again can stop before reading it.
	TypeSessionProcessed = "session_processed"
	TypeEntryExtracted   = "entry_extracted"
	TypeEvidenceAligned  = "evidence_aligned"
	TypeMemoryInjected   = "memory_injected"
	// TypeMemoryCited records the memories an answer cited: those it had been
	// shown (uses) and those it had not or that do not exist (flagged).
	TypeMemoryCited = "memory_cited"
	TypeConflict    = "conflict_recorded"
	// TypeConflictResolved records how a user settled a contradiction.
	TypeConflictResolved = "conflict_resolved"
	TypeForgotten        = "memory_forgotten"
	TypeCertified        = "entry_certified"
	TypeRejected         = "entry_rejected"
	// A user's corrections of one memory; each payload names it by "cid".
	TypeEdited   = "entry_edited"
	TypePinned   = "entry_pinned"
	TypeUnpinned = "entry_unpinned"
	// TypeTaskClosed records that a task memory is done or dropped: by a
	// later session's evidence (the message it points to) or by hand. An
	// open task is one with no such event (internal/task).
	TypeTaskClosed = "task_closed"
	// TypeSpoolFolded records that a spool's fold file was stored (see
	// spool.go): a fold file left behind is not stored again.
	TypeSpoolFolded = "spool_folded"
	// An LLM extraction call and what it spent (internal/spend), and a
	// budget cap reached, once per window.
	TypeLLMCall       = "llm_call"
	TypeBudgetReached = "llm_budget_reached"
	// TypeSelfCheck is an LLM's verdict on one answer (internal/selfcheck);
	// TypeSelfCheckShown records that the user was shown it.
	TypeSelfCheck      = "self_check"
	TypeSelfCheckShown = "self_check_shown"
)

// EventTypes lists every event type, for the commands that filter by one.
var EventTypes = []string{TypeUserPrompt, TypeAgentResponse, TypeToolObservation, TypeSessionStarted, TypeSessionEnded,
	TypeSessionProcessed, TypeEntryExtracted, TypeEvidenceAligned, TypeMemoryInjected, TypeMemoryCited, TypeConflict,
	TypeConflictResolved, TypeForgotten, TypeCertified, TypeRejected, TypeEdited, TypePinned, TypeUnpinned, TypeSpoolFolded, TypeSelfCheck,
	TypeSelfCheckShown, TypeTaskClosed, TypeDigestSkipped, TypeLLMCall, TypeBudgetReached}

// Event is one row of the append-only log.
type Event struct {
	ID         int64
	Time       time.Time
	Type       string
	SessionID  string
	Project    string
	SourceUUID string
	Text       string
	Payload    json.RawMessage // a JSON object; nil is stored as {}
	DedupeKey  string          // required; a second event with the same key is not stored
	// SameContentAs, when not empty, lists kinds of key (KeyAny: any): the
	// event is not stored if the session already has an event of the same
	// type and text whose key is of one of them. It reconciles two views of
	// one thing with different keys, such as the Stop hook's copy of an
	// answer and the transcript's row.
	SameContentAs []KeyKind
	Checksum      string // set by the store

	// What Append derives from the fields above, when Prepare has done it.
	prepared            bool
	canonical, textHash string
	// until, when set, is the last time a text said over a span was said
	// (a summary: from its session's start, Time, to when it was written);
	// a forget's date covers the span's start, and the forget covers it
	// only when it ran after the span's end (forgetRule.filters).
	until time.Time
}

// Prepare computes ahead what Append derives from each event (its canonical
// payload and hashes), so that a writer holding the write lock does not
// have to: import prepares events on other cores. An event changed after
// Prepare must be prepared again.
func Prepare(evs []Event) error {
	for i := range evs {
		if err := evs[i].prepare(); err != nil {
			return err
		}
	}
	return nil
}

func (e *Event) prepare() error {
	payload, err := canonicalPayload(e.Payload)
	if err != nil {
		return fmt.Errorf("prepare %s: %w", e.DedupeKey, err)
	}
	e.canonical, e.textHash = payload, contentHash(e.Text)
	e.Checksum = checksum(*e, payload)
	e.prepared = true
	return nil
}

// Conversation reports whether the event is something said or done in a session
// (as opposed to bookkeeping such as session_started).
func (e Event) Conversation() bool {
	switch e.Type {
	case TypeUserPrompt, TypeAgentResponse, TypeToolObservation:
		return true
	}
	return false
}

// contentHash hashes text with whitespace runs folded, so that trailing newlines
// or reflowed spaces do not make two copies of one answer look different.
func contentHash(text string) string {
	if text == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(spaces.Fold(text)))
	return hex.EncodeToString(sum[:16])
}

func canonicalPayload(p json.RawMessage) (string, error) {
	if len(bytes.TrimSpace(p)) == 0 {
		return "{}", nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, p); err != nil {
		return "", fmt.Errorf("payload: %w", err)
	}
	return buf.String(), nil
}

// checksum hashes an event's fields, each written as "len:text;".
func checksum(e Event, payload string) string {
	fields := [...]string{e.Type, e.SessionID, e.Project, e.SourceUUID, e.Text, payload}
	n := 0
	for _, s := range fields {
		n += len(s) + 22
	}
	b := make([]byte, 0, n)
	for _, s := range fields {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
		b = append(b, ';')
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// AppendResult counts what Append did.
type AppendResult struct {
	Added, Duplicates int
	Forgotten         int     // refused by a forget's rule
	IDs               []int64 // ids of the added events, in order
	// ForgottenIn are the sessions of the events refused by a forget's
	// rule, each once, and ForgottenKeys their dedupe keys.
	ForgottenIn, ForgottenKeys []string
}

// Append stores events, skipping any whose dedupe key (or, with
// SameContentAs, whose content) is already present. Re-running a hook or
// re-importing a transcript therefore adds nothing.
func (t *Tx) Append(ctx context.Context, evs ...Event) (AppendResult, error) {
	return t.append(ctx, t.db.Now(), evs)
}

// insertChunk is how many rows one INSERT statement carries. FTS5 flushes its
// pending index data at every statement boundary, so one statement per row
// made ingest spend a fifth of its time flushing.
const insertChunk = 64

// append stores evs, giving those without a time, or with one after now, now.
func (t *Tx) append(ctx context.Context, now time.Time, evs []Event) (AppendResult, error) {
	var res AppendResult
	type row struct {
		e                 Event
		payload, hash, ts string
	}
	// What a forget left a rule for is not written back (forget_rule.go).
	evs, refused, err := t.unforgotten(ctx, evs)
	if err != nil {
		return res, fmt.Errorf("append: %w", err)
	}
	res.Forgotten = len(refused)
	for _, e := range refused {
		res.ForgottenKeys = append(res.ForgottenKeys, e.DedupeKey)
		if !slices.Contains(res.ForgottenIn, e.SessionID) {
			res.ForgottenIn = append(res.ForgottenIn, e.SessionID)
		}
	}
	rows := make([]row, 0, len(evs))
	prepared := make([]Event, 0, len(evs))
	for _, e := range evs {
		if e.Type == TypeForgotten {
			t.rulesRead = false // a forget in this transaction: its rule counts from now
		}
		if e.DedupeKey == "" || e.Type == "" {
			return res, fmt.Errorf("append %q: event needs a type and a dedupe key", e.Type)
		}
		if !e.prepared {
			if err := e.prepare(); err != nil {
				return res, fmt.Errorf("append: %w", err)
			}
		}
		prepared = append(prepared, e)
	}
	// Content checks: the copies the session holds already, and those
	// before the event in this batch, which are stored below.
	known, err := knownContent(ctx, t, prepared)
	if err != nil {
		return res, fmt.Errorf("append: %w", err)
	}
	batch := map[contentKey][]KeyKind{}
	for _, e := range prepared {
		payload, hash := e.canonical, e.textHash
		k := contentKey{e.SessionID, e.Type, hash}
		if len(e.SameContentAs) > 0 && hash != "" {
			if known[contentCheck{k, kindList(e.SameContentAs)}] ||
				slices.ContainsFunc(batch[k], func(kind KeyKind) bool { return matchesKind(e.SameContentAs, kind) }) {
				res.Duplicates++
				continue
			}
		}
		if hash != "" {
			batch[k] = append(batch[k], keyKind(e.DedupeKey, e.SessionID))
		}
		ts := e.Time
		if ts.IsZero() || ts.After(now) {
			// A time in the future is a clock that was ahead (a transcript
			// written elsewhere): stored as is, it would sort after
			// everything and escape forget --before.
			ts = now
		}
		rows = append(rows, row{e, payload, hash, FormatTime(ts)})
	}
	if len(rows) > 0 {
		if err := t.inserting(ctx, "events"); err != nil {
			return res, err
		}
	}
	args := make([]any, 0, 10*min(insertChunk, len(rows)))
	for len(rows) > 0 {
		chunk := rows[:min(insertChunk, len(rows))]
		rows = rows[len(chunk):]
		args = args[:0]
		for _, r := range chunk {
			e := r.e
			args = append(args, r.ts, e.Type, e.SessionID, e.Project, e.SourceUUID, e.Text, r.payload, e.DedupeKey, r.hash, e.Checksum)
		}
		ids, err := insertReturning(ctx, t, insertEvents(len(chunk)), args)
		if err != nil {
			return res, fmt.Errorf("append %d events: %w", len(chunk), err)
		}
		res.Added += len(ids)
		res.Duplicates += len(chunk) - len(ids)
		res.IDs = append(res.IDs, ids...)
	}
	return res, nil
}

// insertEvents is the statement inserting n events, returning the ids of
// those stored (a duplicate dedupe key is skipped).
func insertEvents(n int) string {
	return `INSERT INTO events (ts, type, session_id, project, source_uuid, text, payload, dedupe_key, content_hash, checksum) VALUES ` +
		repeated("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", n) +
		` ON CONFLICT(dedupe_key) DO NOTHING RETURNING id`
}

// insertReturning runs an INSERT … RETURNING id, which is a write: query
// alone would run it outside any transaction on a reader.
func insertReturning(ctx context.Context, t *Tx, q string, args []any) ([]int64, error) {
	if t.tx == nil {
		return nil, ErrReadOnly
	}
	rs, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var ids []int64
	for rs.Next() {
		var id int64
		if err := rs.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rs.Err()
}

// contentKey is what a content check compares: a session's events of one
// type whose text has one hash.
type contentKey struct{ session, typ, hash string }

// contentCheck is a content check: is there an event of contentKey whose
// key is of one of the kinds (kindList)?
type contentCheck struct {
	contentKey
	kinds string
}

// kindList is kinds as a comparable string.
func kindList(kinds []KeyKind) string {
	ss := make([]string, len(kinds))
	for i, k := range kinds {
		ss[i] = string(k)
	}
	return strings.Join(ss, ",")
}

// knownContent answers the content checks of evs (those with SameContentAs)
// that the stored events pass: one query per session, type and kinds, for
// the batch's hashes only, through the partial index events_content.
func knownContent(ctx context.Context, t *Tx, evs []Event) (map[contentCheck]bool, error) {
	type group struct {
		kinds  []KeyKind
		hashes []string
	}
	groups := map[contentCheck]*group{} // hash left empty: the group's key
	seen := map[contentCheck]bool{}
	for _, e := range evs {
		if len(e.SameContentAs) == 0 || e.textHash == "" {
			continue
		}
		c := contentCheck{contentKey{e.SessionID, e.Type, e.textHash}, kindList(e.SameContentAs)}
		if seen[c] {
			continue
		}
		seen[c] = true
		gk := c
		gk.hash = ""
		g := groups[gk]
		if g == nil {
			g = &group{kinds: e.SameContentAs}
			groups[gk] = g
		}
		g.hashes = append(g.hashes, e.textHash)
	}
	known := map[contentCheck]bool{}
	for gk, g := range groups {
		for _, hashes := range chunkStrings(g.hashes) {
			// content_hash <> '' lets SQLite use the partial index.
			q := `SELECT content_hash FROM events WHERE session_id = ? AND content_hash IN (` + placeholders(len(hashes)) + `)
				AND content_hash <> '' AND type = ?`
			args := append(append([]any{gk.session}, stringArgs(hashes)...), gk.typ)
			if !matchesKind(g.kinds, KeyAny) {
				q += ` AND key_kind IN (` + placeholders(len(g.kinds)) + `)`
				for _, kind := range g.kinds {
					args = append(args, string(kind))
				}
			}
			found, err := queryColumn[string](ctx, t, q, args...)
			if err != nil {
				return nil, err
			}
			for _, h := range found {
				c := gk
				c.hash = h
				known[c] = true
			}
		}
	}
	return known, nil
}

const eventColumns = `id, ts, type, session_id, project, source_uuid, text, payload, dedupe_key, checksum`

func scanEvent(sc interface{ Scan(...any) error }) (Event, error) {
	var e Event
	var ts, payload string
	if err := sc.Scan(&e.ID, &ts, &e.Type, &e.SessionID, &e.Project, &e.SourceUUID, &e.Text, &payload, &e.DedupeKey, &e.Checksum); err != nil {
		return Event{}, err
	}
	e.Time = ParseTime(ts)
	e.Payload = json.RawMessage(payload)
	return e, nil
}

// Event returns the event with the given id, or ErrNotFound.
func (db *DB) Event(ctx context.Context, id int64) (Event, error) {
	row := db.Read().queryRow(ctx, `SELECT `+eventColumns+` FROM events WHERE id = ?`, id)
	e, err := scanEvent(row)
	if err == sql.ErrNoRows {
		return Event{}, fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Event{}, fmt.Errorf("event %d: %w", id, err)
	}
	return e, nil
}

// EventFilter selects events for Events. Zero fields do not filter.
type EventFilter struct {
	Project   string
	SessionID string
	Types     []string
	Since     time.Time
	Before    time.Time
	AfterID   int64 // only ids greater than this
	Limit     int   // 0 means no limit
	Newest    bool  // newest first (default oldest first)
}

// Events lists events matching f.
func (t *Tx) Events(ctx context.Context, f EventFilter) ([]Event, error) {
	var where []string
	var args []any
	if f.Project != "" {
		where = append(where, "project = ?")
		args = append(args, f.Project)
	}
	if f.SessionID != "" {
		where = append(where, "session_id = ?")
		args = append(args, f.SessionID)
	}
	if len(f.Types) > 0 {
		where = append(where, "type IN ("+placeholders(len(f.Types))+")")
		for _, typ := range f.Types {
			args = append(args, typ)
		}
	}
	if !f.Since.IsZero() {
		where = append(where, "ts >= ?")
		args = append(args, FormatTime(f.Since))
	}
	if !f.Before.IsZero() {
		where = append(where, "ts < ?")
		args = append(args, FormatTime(f.Before))
	}
	if f.AfterID > 0 {
		where = append(where, "id > ?")
		args = append(args, f.AfterID)
	}
	q := `SELECT ` + eventColumns + ` FROM events`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	if f.Newest {
		q += " ORDER BY id DESC"
	} else {
		q += " ORDER BY id"
	}
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := t.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, fmt.Errorf("list events: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// CountEvents counts events, optionally of one project.
func (db *DB) CountEvents(ctx context.Context, project string) (int, error) {
	q, args := `SELECT count(*) FROM events`, []any{}
	if project != "" {
		q += ` WHERE project = ?`
		args = append(args, project)
	}
	var n int
	if err := db.Read().queryRow(ctx, q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("count events: %w", err)
	}
	return n, nil
}

// CountOtherEvents counts the events of project outside session exclude
// of one of types, up to limit.
func (db *DB) CountOtherEvents(ctx context.Context, project, exclude string, types []string, limit int) (int, error) {
	var n int
	err := db.Read().queryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM events WHERE project = ? AND session_id <> ? AND type IN (`+sqlStrings(types)+`) LIMIT ?)`,
		project, exclude, limit).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count events of %s: %w", project, err)
	}
	return n, nil
}

// CountSessionMessages counts a session's prompts, answers and tool observations.
func (t *Tx) CountSessionMessages(ctx context.Context, sessionID string) (int, error) {
	var n int
	err := t.queryRow(ctx, `SELECT count(*) FROM events WHERE session_id = ? AND type IN (?, ?, ?)`,
		sessionID, TypeUserPrompt, TypeAgentResponse, TypeToolObservation).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count messages of %s: %w", sessionID, err)
	}
	return n, nil
}

// EventCID is the citation id of a captured message: "mem:t" and its row id
// in base 36. "t" is no hex digit, so it never collides with an entry's id
// ("mem:" and hex), and the CLI, the hooks and any tool resolve both alike.
func EventCID(id int64) string { return "mem:t" + strconv.FormatInt(id, 36) }

// ParseEventCID returns the event id an EventCID names.
func ParseEventCID(cid string) (int64, bool) {
	s, ok := strings.CutPrefix(cid, "mem:t")
	if !ok || s == "" || len(s) > 12 {
		return 0, false
	}
	id, err := strconv.ParseInt(s, 36, 64)
	return id, err == nil && id > 0
}

// ErrChanged is returned by Tx.Unchanged when an event read earlier is no
// longer stored as it was read: forget deleted or redacted it meanwhile.
var ErrChanged = errors.New("events changed since they were read")

// Unchanged returns an error wrapping ErrChanged unless every event of evs
// is still stored under its id with its checksum. A writer that read events
// outside its transaction (the worker, which waits minutes for a model in
// between) calls it inside the transaction, so that nothing it derived from
// a message forgotten meanwhile is written back. The checksum, not the id
// alone, decides: a redacted event keeps its id.
func (t *Tx) Unchanged(ctx context.Context, evs []Event) error {
	want := make(map[int64]string, len(evs))
	ids := make([]int64, 0, len(evs))
	for _, e := range evs {
		want[e.ID] = e.Checksum
		ids = append(ids, e.ID)
	}
	found := 0
	for _, c := range chunks(ids) {
		rows, err := t.query(ctx, `SELECT id, checksum FROM events WHERE id IN (`+placeholders(len(c))+`)`, int64Args(c)...)
		if err != nil {
			return fmt.Errorf("unchanged: %w", err)
		}
		for rows.Next() {
			var id int64
			var sum string
			if err := rows.Scan(&id, &sum); err != nil {
				rows.Close()
				return fmt.Errorf("unchanged: %w", err)
			}
			if sum != want[id] {
				rows.Close()
				return fmt.Errorf("event %d: %w", id, ErrChanged)
			}
			found++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("unchanged: %w", err)
		}
	}
	if found != len(want) {
		return fmt.Errorf("%d of %d events gone: %w", len(want)-found, len(want), ErrChanged)
	}
	return nil
}

// QuotesBySaid returns the ids of an entry's evidence rows in the order
// their words were said: by the time of the message each was found in, or
// for a quote found nowhere, of its session's start. Evidence ids follow
// the order sessions were stored, and an import stores old sessions after
// new ones.
func (db *DB) QuotesBySaid(ctx context.Context, entryID int64) ([]int64, error) {
	ids, err := queryIDs(ctx, db.Read(), `SELECT v.id FROM evidence v
		LEFT JOIN events e ON e.id = v.event_id
		LEFT JOIN sessions s ON s.id = v.session_id
		WHERE v.entry_id = ?
		ORDER BY coalesce(e.ts, s.started_at, ''), v.id`, entryID)
	if err != nil {
		return nil, fmt.Errorf("quotes of entry %d: %w", entryID, err)
	}
	return ids, nil
}

// EntryEvents returns the events that record an entry's life, oldest first:
// its extraction and alignment in each session (matched by claim key), the
// conflicts naming it, the prompts it was injected into, the answers that
// cited it, and its certification or rejection.
func (db *DB) EntryEvents(ctx context.Context, e Entry) ([]Event, error) {
	evs, err := entryEvents(ctx, db.Read(), e)
	if err != nil {
		return nil, fmt.Errorf("events of %s: %w", e.CID, err)
	}
	return evs, nil
}

func entryEvents(ctx context.Context, t *Tx, e Entry) ([]Event, error) {
	// The type list up front lets events_type find the few records of a
	// memory's life instead of reading every message of the project.
	rows, err := t.query(ctx, `SELECT `+eventColumns+` FROM events WHERE project = ?
		AND type IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) AND (
			(type IN (?, ?) AND json_extract(payload, '$.claim_key') = ?)
			OR (type IN (?, ?) AND (json_extract(payload, '$.older') = ? OR json_extract(payload, '$.newer') = ?))
			OR (type = ? AND EXISTS (SELECT 1 FROM json_each(payload, '$.memories') WHERE value = ?))
			OR (type = ? AND EXISTS (SELECT 1 FROM json_each(payload, '$.cited') WHERE value = ?))
			OR (type IN (?, ?, ?, ?, ?) AND json_extract(payload, '$.cid') = ?))
		ORDER BY ts, id`,
		e.Project, TypeEntryExtracted, TypeEvidenceAligned, TypeConflict, TypeConflictResolved, TypeMemoryInjected, TypeMemoryCited,
		TypeCertified, TypeRejected, TypeEdited, TypePinned, TypeUnpinned,
		TypeEntryExtracted, TypeEvidenceAligned, e.ClaimKey,
		TypeConflict, TypeConflictResolved, e.CID, e.CID,
		TypeMemoryInjected, e.CID,
		TypeMemoryCited, e.CID,
		TypeCertified, TypeRejected, TypeEdited, TypePinned, TypeUnpinned, e.CID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		ev, err := scanEvent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, rows.Err()
}

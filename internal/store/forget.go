package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"modernc.org/sqlite"
)

// Redacted is the text an event keeps when forget redacts it: the source
// message of a forgotten memory keeps its row (and so its dedupe key, which
// stops a re-ingest of the transcript from storing the message again) but
// loses its text and payload.
const Redacted = "[forgotten]"

// SessionForgotten is the source a session row gets when forget leaves it
// without events. The row holds no content; it is kept so that the session's
// transcript is not ingested again from the start by a later hook or import.
const SessionForgotten = "forgotten"

// ErrEmptySelector is returned by PlanForget and Forget for a selector that selects nothing.
var ErrEmptySelector = errors.New("nothing selected")

// ErrCompactPending is returned by Compact when another connection kept the
// file from being rewritten; the deleted content is unreachable but may still
// be in the file's free pages until a later Compact succeeds.
var ErrCompactPending = errors.New("compaction pending: another connection is using the store")

// ForgetSelector picks what Forget removes: one memory (CID), or everything
// that matches all of the non-zero filters.
type ForgetSelector struct {
	CID       string    // one memory, "mem:ab12cd"; used alone
	SessionID string    // a session's events and the entries first extracted from it
	Project   string    // a project's events and entries
	Before    time.Time // events before this time and entries created before it
	Phrase    string    // user text, matched as one FTS5 phrase against event text and entry title/body/subject
	// Shared, with CID, also forgets the other memories that quote the
	// forgotten words; without it they are kept and listed in the plan's Kept.
	Shared bool
}

// Empty reports whether the selector selects nothing.
func (s ForgetSelector) Empty() bool {
	return s.CID == "" && s.SessionID == "" && s.Project == "" && s.Before.IsZero() && strings.TrimSpace(s.Phrase) == ""
}

// ForgetPlan lists what Forget removes (or, from PlanForget, would remove).
type ForgetPlan struct {
	Entries  []int64  // entries deleted, with their evidence and conflicts
	CIDs     []string // their citation ids
	Delete   []int64  // events deleted
	Redact   []int64  // events whose text becomes Redacted and whose payload becomes {}
	Evidence []int64  // evidence rows deleted, those of deleted entries included
	// Conflicts counts the conflict rows that go with the deleted entries.
	Conflicts int
	// Sessions lists the sessions that lose or redact events; their summaries
	// (which quote the first prompt) are cleared.
	Sessions []string
	// Emptied lists the sessions left without any event; their rows are kept,
	// content-free, with source SessionForgotten.
	Emptied []string
	// Injections lists memory_injected events that named a deleted entry; the
	// citation id is removed from their payload.
	Injections []int64
	// Released lists contested entries whose every conflict goes away; they become active again.
	Released []int64
	// Kept lists, for a memory forgotten without Shared, the citation ids of
	// other memories that quote the same words and are left alone.
	Kept []string
}

// Empty reports whether the plan removes nothing.
func (p ForgetPlan) Empty() bool {
	return len(p.Entries) == 0 && len(p.Delete) == 0 && len(p.Redact) == 0 && len(p.Evidence) == 0
}

// PlanForget computes what Forget would remove, without changing anything.
// It returns ErrEmptySelector for an empty selector and an error wrapping
// ErrNotFound for an unknown citation id.
func (db *DB) PlanForget(ctx context.Context, sel ForgetSelector) (ForgetPlan, error) {
	return plan(ctx, db.Read(), sel, db.Now())
}

// Forget removes what sel selects, in one transaction, and appends one
// memory_forgotten event that holds only counts, the kinds of selector and
// sha256 hashes of their values. What goes:
//
//   - selected events are deleted (their FTS rows go with them through the
//     delete trigger); memory_forgotten events are never deleted;
//   - for a memory (CID): the entry, and every message its quotes were found in
//     is redacted (text Redacted, payload {}), as is any other conversation
//     event that contains one of its quotes verbatim;
//   - evidence rows whose message is deleted, or that overlap a forgotten
//     quote in a redacted message, or (with Phrase) whose quote contains it;
//   - entries selected, plus entries that lose evidence from the session they
//     were extracted from (their title and body came from the forgotten text)
//     or that are left with no evidence at all; for one memory (CID), other
//     memories quoting the same words go only with Shared, and are otherwise
//     kept with their evidence and listed in Kept; with them their evidence,
//     conflicts, and their entry_extracted, evidence_aligned,
//     conflict_recorded, entry_certified and entry_rejected events;
//     memory_injected events keep their row but lose the entry's citation id;
//   - summaries of the sessions concerned are cleared.
//
// Deleted content stays in the file's free pages and FTS5 segments until
// Compact runs. Forget returns the plan it carried out; when the plan is
// empty nothing is written, not even the memory_forgotten event. Errors as PlanForget.
func (db *DB) Forget(ctx context.Context, sel ForgetSelector) (ForgetPlan, error) {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return ForgetPlan{}, fmt.Errorf("forget: %w", err)
	}
	defer conn.Close()
	// secure_delete zeroes the deleted rows in the pages this transaction
	// writes, which narrows what survives if Compact cannot run afterwards
	// (FTS5 segments and older WAL frames still hold the text until it does).
	// It is a per-connection setting.
	if _, err := conn.ExecContext(ctx, "PRAGMA secure_delete = ON"); err != nil {
		return ForgetPlan{}, fmt.Errorf("forget: %w", err)
	}
	defer conn.ExecContext(ctx, "PRAGMA secure_delete = OFF")
	db.turn.take()
	defer db.turn.done()
	sqltx, err := db.begin(ctx, conn)
	if err != nil {
		return ForgetPlan{}, fmt.Errorf("forget: begin: %w", err)
	}
	t := db.wrap(ctx, sqltx)
	defer t.Rollback()
	// Plan under the write lock: hooks writing meanwhile wait, so what is
	// deleted is exactly what was planned.
	p, err := plan(ctx, t, sel, db.Now())
	if err != nil || p.Empty() {
		return p, err
	}
	// The tombstone names the project from rows that apply deletes.
	tomb, err := tombstone(ctx, t, sel, p, db.Now())
	if err != nil {
		return p, err
	}
	// The tombstone goes in before anything is deleted, so it takes an id
	// above every deleted event. SQLite gives a new row the largest id plus
	// one, and memory_forgotten events are never deleted: an id forget frees
	// is therefore never handed out again, and nothing that still cites it
	// (evidence of a worker that read the event before) can find another
	// event under it.
	if _, err := t.append(ctx, db.Now(), []Event{tomb}); err != nil {
		return p, fmt.Errorf("forget: %w", err)
	}
	if err := apply(ctx, t, p); err != nil {
		return p, err
	}
	// The mark goes down before the commit and comes off only when Compact
	// succeeds: a forget killed or interrupted in between leaves the
	// forgotten bytes in free pages, FTS5 segments and the WAL, and the mark
	// tells doctor and the next forget that compaction is owed.
	pending := db.CompactPending()
	if err := os.WriteFile(db.path+pendingSuffix, nil, 0o600); err != nil {
		return p, fmt.Errorf("forget: mark compaction pending: %w", err)
	}
	if err := t.Commit(); err != nil {
		if !pending {
			os.Remove(db.path + pendingSuffix)
		}
		return p, fmt.Errorf("forget: %w", err)
	}
	return p, nil
}

// pendingSuffix names the file, next to the store, that marks a compaction
// owed by a forget that committed.
const pendingSuffix = "-compact-pending"

// CompactPending reports whether a forget committed and no Compact has
// succeeded since: the forgotten text may still be in the file's free pages,
// its full-text segments or its WAL.
func (db *DB) CompactPending() bool {
	_, err := os.Stat(db.path + pendingSuffix)
	return err == nil
}

// planner accumulates a ForgetPlan.
type planner struct {
	t        *Tx
	sel      ForgetSelector
	now      string // FormatTime of the forget's now: see before
	entries  map[int64]bool
	del      map[int64]eventKey // events deleted
	redact   map[int64]string
	spans    map[int64][][2]int // forgotten byte ranges inside redacted events
	needles  []string           // folded text of forgotten quotes
	evidence map[int64]bool
	sessions map[string]bool
	kept     map[int64]bool // other entries quoting the forgotten words, left alone (CID without Shared)
}

func plan(ctx context.Context, t *Tx, sel ForgetSelector, now time.Time) (ForgetPlan, error) {
	if sel.Empty() {
		return ForgetPlan{}, ErrEmptySelector
	}
	if sel.CID != "" && (sel.SessionID != "" || sel.Project != "" || !sel.Before.IsZero() || sel.Phrase != "") {
		return ForgetPlan{}, fmt.Errorf("forget: a memory id cannot be combined with filters")
	}
	if strings.TrimSpace(sel.Phrase) != "" && !hasWord(sel.Phrase) {
		// A phrase of punctuation matches no FTS5 token but would match many quotes as a substring.
		return ForgetPlan{}, fmt.Errorf("forget: phrase %q has no letter or digit: %w", sel.Phrase, ErrEmptySelector)
	}
	p := &planner{t: t, sel: sel, now: FormatTime(now), entries: map[int64]bool{}, del: map[int64]eventKey{}, redact: map[int64]string{},
		spans: map[int64][][2]int{}, evidence: map[int64]bool{}, sessions: map[string]bool{}, kept: map[int64]bool{}}
	var err error
	if sel.CID != "" {
		err = p.memory(ctx)
	} else {
		err = p.filters(ctx)
	}
	if err != nil {
		return ForgetPlan{}, err
	}
	if err := p.evidenceClosure(ctx); err != nil {
		return ForgetPlan{}, fmt.Errorf("forget: evidence: %w", err)
	}
	return p.finish(ctx)
}

// memory seeds the plan for one entry: the entry, and the redaction of the
// messages that hold its quotes.
func (p *planner) memory(ctx context.Context) error {
	cid := normCID(p.sel.CID)
	e, err := entryTx(ctx, p.t, "cid = ?", cid)
	if err != nil {
		return fmt.Errorf("forget %s: %w", cid, err)
	}
	p.entries[e.ID] = true
	var raw []string
	for _, v := range e.Evidence {
		raw = append(raw, v.Quote)
		if v.EventID == 0 {
			continue
		}
		ev, err := eventRef(ctx, p.t, v.EventID)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("forget %s: %w", cid, err)
		}
		p.redact[ev.ID] = ev.SessionID
		if v.SpanStart >= 0 && v.SpanStart < v.SpanEnd && v.SpanEnd <= len(ev.Text) {
			p.spans[ev.ID] = append(p.spans[ev.ID], [2]int{v.SpanStart, v.SpanEnd})
			raw = append(raw, ev.Text[v.SpanStart:v.SpanEnd])
		} else {
			p.spans[ev.ID] = append(p.spans[ev.ID], [2]int{0, len(ev.Text)})
		}
	}
	// The same words may have been said again elsewhere (a prompt quoting an
	// earlier answer, a tool output): search for every quote and redact
	// each conversation event that contains it verbatim (case and spacing aside).
	for _, n := range raw {
		f := fold(n)
		if len(f) < minNeedle || !hasWord(n) {
			continue
		}
		p.needles = append(p.needles, f)
		rows, err := p.t.query(ctx, `SELECT e.id, e.session_id, e.text FROM events_fts
			JOIN events e ON e.id = events_fts.rowid
			WHERE events_fts MATCH ? AND e.type IN (?, ?, ?)`, QuoteTerm(n), TypeUserPrompt, TypeAgentResponse, TypeToolObservation)
		if err != nil {
			return fmt.Errorf("forget %s: search copies: %w", cid, err)
		}
		for rows.Next() {
			var id int64
			var sess, text string
			if err := rows.Scan(&id, &sess, &text); err != nil {
				rows.Close()
				return fmt.Errorf("forget %s: search copies: %w", cid, err)
			}
			if !strings.Contains(fold(text), f) {
				continue
			}
			p.redact[id] = sess
			if i := strings.Index(text, n); i >= 0 {
				p.spans[id] = append(p.spans[id], [2]int{i, i + len(n)})
			} else {
				p.spans[id] = append(p.spans[id], [2]int{0, len(text)})
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("forget %s: search copies: %w", cid, err)
		}
	}
	return nil
}

// normCID accepts "mem:ab12cd" and "ab12cd".
func normCID(cid string) string {
	if !strings.HasPrefix(cid, "mem:") {
		return "mem:" + cid
	}
	return cid
}

// minNeedle is the shortest quote searched for elsewhere: shorter ones ("ok",
// "yes") would redact unrelated messages.
const minNeedle = 12

// eventKey is what the plan keeps of a deleted event.
type eventKey struct{ session, typ string }

func (k eventKey) conversation() bool {
	switch k.typ {
	case TypeUserPrompt, TypeAgentResponse, TypeToolObservation:
		return true
	}
	return false
}

type eventText struct {
	ID        int64
	SessionID string
	Text      string
}

func eventRef(ctx context.Context, t *Tx, id int64) (eventText, error) {
	rows, err := t.query(ctx, `SELECT id, session_id, text FROM events WHERE id = ?`, id)
	if err != nil {
		return eventText{}, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return eventText{}, err
		}
		return eventText{}, fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	var e eventText
	if err := rows.Scan(&e.ID, &e.SessionID, &e.Text); err != nil {
		return eventText{}, err
	}
	return e, rows.Err()
}

// filters seeds the plan with the events and entries matching every filter.
func (p *planner) filters(ctx context.Context) error {
	s := p.sel
	where := []string{"e.type <> ?"}
	args := []any{TypeForgotten}
	from := "events e"
	if phrase := strings.TrimSpace(s.Phrase); phrase != "" {
		from = "events_fts JOIN events e ON e.id = events_fts.rowid"
		where = append(where, "events_fts MATCH ?")
		args = append(args, QuoteTerm(phrase))
	}
	if s.SessionID != "" {
		where = append(where, "e.session_id = ?")
		args = append(args, s.SessionID)
	}
	if s.Project != "" {
		where = append(where, "e.project = ?")
		args = append(args, s.Project)
	}
	if !s.Before.IsZero() {
		where = append(where, p.before("e.ts"))
		args = append(args, FormatTime(s.Before), p.now)
	}
	rows, err := p.t.query(ctx, `SELECT e.id, e.session_id, e.type FROM `+from+` WHERE `+strings.Join(where, " AND "), args...)
	if err != nil {
		return fmt.Errorf("forget: select events: %w", err)
	}
	for rows.Next() {
		var id int64
		var k eventKey
		if err := rows.Scan(&id, &k.session, &k.typ); err != nil {
			rows.Close()
			return fmt.Errorf("forget: select events: %w", err)
		}
		p.del[id] = k
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("forget: select events: %w", err)
	}

	where, args, from = []string{"1 = 1"}, nil, "entries e"
	if phrase := strings.TrimSpace(s.Phrase); phrase != "" {
		from = "entries_fts JOIN entries e ON e.id = entries_fts.rowid"
		where = append(where, "entries_fts MATCH ?")
		args = append(args, QuoteTerm(phrase))
	}
	if s.SessionID != "" {
		where = append(where, "e.session_id = ?")
		args = append(args, s.SessionID)
	}
	if s.Project != "" {
		where = append(where, "e.project = ?")
		args = append(args, s.Project)
	}
	if !s.Before.IsZero() {
		where = append(where, p.before("e.created_at"))
		args = append(args, FormatTime(s.Before), p.now)
	}
	ids, err := queryIDs(ctx, p.t, `SELECT e.id FROM `+from+` WHERE `+strings.Join(where, " AND "), args...)
	if err != nil {
		return fmt.Errorf("forget: select entries: %w", err)
	}
	for _, id := range ids {
		p.entries[id] = true
	}
	return nil
}

// before is the condition of --before on a time column, taking the date
// and p.now as arguments. A time after now came from a clock that was ahead
// (the store cuts such times to now since, but older rows keep them): when
// it really happened is unknown, only that it was stored in the past, so it
// counts as before any date. Otherwise "forget everything before today"
// left it behind.
func (p *planner) before(col string) string {
	return "(" + col + " < ? OR " + col + " > ?)"
}

type evidenceRef struct {
	ID, EntryID, EventID int64
	SessionID            string
	Quote                string
	Start, End           int
}

func scanEvidenceRefs(ctx context.Context, t *Tx, query string, args ...any) ([]evidenceRef, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []evidenceRef
	for rows.Next() {
		var r evidenceRef
		if err := rows.Scan(&r.ID, &r.EntryID, &r.EventID, &r.SessionID, &r.Quote, &r.Start, &r.End); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

const evidenceRefColumns = `v.id, v.entry_id, coalesce(v.event_id, 0), v.session_id, v.quote, v.span_start, v.span_end`

// evidenceClosure decides which evidence rows go, and with them which further entries.
func (p *planner) evidenceClosure(ctx context.Context) error {
	removed := map[int64]evidenceRef{}
	// Quotes found in deleted or redacted messages.
	touched := make([]int64, 0, len(p.del)+len(p.redact))
	for id := range p.del {
		touched = append(touched, id)
	}
	for id := range p.redact {
		touched = append(touched, id)
	}
	for _, c := range chunks(touched) {
		refs, err := scanEvidenceRefs(ctx, p.t, `SELECT `+evidenceRefColumns+` FROM evidence v WHERE v.event_id IN (`+placeholders(len(c))+`)`, int64Args(c)...)
		if err != nil {
			return err
		}
		for _, r := range refs {
			_, deleted := p.del[r.EventID]
			if !deleted && !p.overlaps(r) {
				continue
			}
			if p.sel.CID != "" && !p.sel.Shared && !p.entries[r.EntryID] {
				p.kept[r.EntryID] = true // another memory saying the same words: the user did not ask
				continue
			}
			removed[r.ID] = r
		}
	}
	// Quotes that never aligned belong to no message; they go when their
	// session loses every conversation message.
	if p.sel.CID == "" {
		emptied, err := p.emptiedSessions(ctx, true)
		if err != nil {
			return err
		}
		for _, c := range chunkStrings(emptied) {
			refs, err := scanEvidenceRefs(ctx, p.t, `SELECT `+evidenceRefColumns+` FROM evidence v
				WHERE v.event_id IS NULL AND v.session_id IN (`+placeholders(len(c))+`)`, stringArgs(c)...)
			if err != nil {
				return err
			}
			for _, r := range refs {
				removed[r.ID] = r
			}
		}
	}
	// With a phrase, any quote that contains it.
	if f := fold(p.sel.Phrase); f != "" {
		where := []string{"1 = 1"}
		var args []any
		if p.sel.Project != "" {
			where = append(where, "e.project = ?")
			args = append(args, p.sel.Project)
		}
		if p.sel.SessionID != "" {
			where = append(where, "v.session_id = ?")
			args = append(args, p.sel.SessionID)
		}
		if !p.sel.Before.IsZero() {
			where = append(where, p.before("coalesce(ev.ts, e.created_at)"))
			args = append(args, FormatTime(p.sel.Before), p.now)
		}
		refs, err := scanEvidenceRefs(ctx, p.t, `SELECT `+evidenceRefColumns+` FROM evidence v
			JOIN entries e ON e.id = v.entry_id LEFT JOIN events ev ON ev.id = v.event_id
			WHERE `+strings.Join(where, " AND "), args...)
		if err != nil {
			return err
		}
		for _, r := range refs {
			if containsPhrase(fold(r.Quote), f) {
				removed[r.ID] = r
			}
		}
	}
	// An entry whose own session's evidence goes was written from forgotten
	// text; an entry left with no evidence has nothing to stand on.
	lost := map[int64]bool{}
	for _, r := range removed {
		p.evidence[r.ID] = true
		if !p.entries[r.EntryID] {
			lost[r.EntryID] = true
		}
	}
	for id := range lost {
		var own string
		var left int
		rows, err := p.t.query(ctx, `SELECT session_id FROM entries WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if rows.Next() {
			err = rows.Scan(&own)
		}
		rows.Close()
		if err != nil {
			return err
		}
		ev, err := scanEvidenceRefs(ctx, p.t, `SELECT `+evidenceRefColumns+` FROM evidence v WHERE v.entry_id = ?`, id)
		if err != nil {
			return err
		}
		for _, r := range ev {
			if !p.evidence[r.ID] {
				left++
			} else if r.SessionID == own {
				p.entries[id] = true
			}
		}
		if left == 0 {
			p.entries[id] = true
		}
	}
	// The evidence of deleted entries goes with them.
	for _, c := range chunks(keys(p.entries)) {
		ids, err := queryIDs(ctx, p.t, `SELECT id FROM evidence WHERE entry_id IN (`+placeholders(len(c))+`)`, int64Args(c)...)
		if err != nil {
			return err
		}
		for _, id := range ids {
			p.evidence[id] = true
		}
	}
	return nil
}

// overlaps reports whether an evidence row in a redacted message quotes any
// of the forgotten text.
func (p *planner) overlaps(r evidenceRef) bool {
	if _, ok := p.redact[r.EventID]; !ok {
		return false
	}
	for _, s := range p.spans[r.EventID] {
		if r.Start < s[1] && s[0] < r.End {
			return true
		}
	}
	q := fold(r.Quote)
	for _, n := range p.needles {
		if q != "" && (strings.Contains(q, n) || strings.Contains(n, q)) {
			return true
		}
	}
	return false
}

// emptiedSessions lists the sessions that lose events and keep none; with
// conversation, counting only prompts, answers and tool observations.
func (p *planner) emptiedSessions(ctx context.Context, conversation bool) ([]string, error) {
	lose := map[string]int{}
	for _, k := range p.del {
		if k.session == "" || conversation && !k.conversation() {
			continue
		}
		lose[k.session]++
	}
	var out []string
	for s, n := range lose {
		q := `SELECT count(*) FROM events WHERE session_id = ? AND type <> ?`
		args := []any{s, TypeForgotten}
		if conversation {
			q = `SELECT count(*) FROM events WHERE session_id = ? AND type IN (?, ?, ?)`
			args = []any{s, TypeUserPrompt, TypeAgentResponse, TypeToolObservation}
		}
		ids, err := queryIDs(ctx, p.t, q, args...)
		if err != nil {
			return nil, err
		}
		if len(ids) == 1 && int(ids[0]) <= n {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out, nil
}

// finish adds the events that record the deleted entries, the injections
// naming them, the conflicts that go, and the sessions concerned.
func (p *planner) finish(ctx context.Context) (ForgetPlan, error) {
	var out ForgetPlan
	for _, c := range chunks(keys(p.kept)) {
		rows, err := p.t.query(ctx, `SELECT cid FROM entries WHERE id IN (`+placeholders(len(c))+`) ORDER BY cid`, int64Args(c)...)
		if err != nil {
			return out, fmt.Errorf("forget: kept: %w", err)
		}
		for rows.Next() {
			var cid string
			if err := rows.Scan(&cid); err != nil {
				rows.Close()
				return out, fmt.Errorf("forget: kept: %w", err)
			}
			out.Kept = append(out.Kept, cid)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return out, fmt.Errorf("forget: kept: %w", err)
		}
	}
	injections, err := p.lifecycle(ctx, &out)
	if err != nil {
		return out, fmt.Errorf("forget: %w", err)
	}
	for id := range injections {
		if _, ok := p.del[id]; !ok {
			out.Injections = append(out.Injections, id)
		}
	}
	// A message both deleted and redacted is deleted.
	for id := range p.del {
		delete(p.redact, id)
	}
	conflicts := map[int64]bool{}
	others := map[int64]bool{}
	for _, c := range chunks(keys(p.entries)) {
		ph := placeholders(len(c))
		args := append(int64Args(c), int64Args(c)...)
		rows, err := p.t.query(ctx, `SELECT id, older, newer FROM conflicts WHERE older IN (`+ph+`) OR newer IN (`+ph+`)`, args...)
		if err != nil {
			return out, fmt.Errorf("forget: conflicts: %w", err)
		}
		for rows.Next() {
			var id, older, newer int64
			if err := rows.Scan(&id, &older, &newer); err != nil {
				rows.Close()
				return out, fmt.Errorf("forget: conflicts: %w", err)
			}
			conflicts[id] = true
			for _, o := range []int64{older, newer} {
				if !p.entries[o] {
					others[o] = true
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return out, fmt.Errorf("forget: conflicts: %w", err)
		}
	}
	out.Conflicts = len(conflicts)
	// A contested entry whose every contradiction is with a deleted entry is no longer contested.
	for o := range others {
		rows, err := p.t.query(ctx, `SELECT c.older, c.newer, e.status FROM conflicts c JOIN entries e ON e.id = ?
			WHERE (c.older = ? OR c.newer = ?) AND c.kind = 'contradicts'`, o, o, o)
		if err != nil {
			return out, fmt.Errorf("forget: conflicts: %w", err)
		}
		open, contested := false, false
		for rows.Next() {
			var older, newer int64
			var status string
			if err := rows.Scan(&older, &newer, &status); err != nil {
				rows.Close()
				return out, fmt.Errorf("forget: conflicts: %w", err)
			}
			contested = status == StatusContested
			if !p.entries[older] && !p.entries[newer] {
				open = true
			}
		}
		rows.Close()
		if contested && !open {
			out.Released = append(out.Released, o)
		}
	}
	for id, k := range p.del {
		if k.session != "" {
			p.sessions[k.session] = true
		}
		out.Delete = append(out.Delete, id)
	}
	for id, s := range p.redact {
		if s != "" {
			p.sessions[s] = true
		}
		out.Redact = append(out.Redact, id)
	}
	// With a phrase, a summary that contains it goes too, whatever its events.
	if f := fold(p.sel.Phrase); f != "" {
		rows, err := p.t.query(ctx, `SELECT id, summary FROM sessions WHERE summary <> ''`)
		if err != nil {
			return out, fmt.Errorf("forget: sessions: %w", err)
		}
		for rows.Next() {
			var id, summary string
			if err := rows.Scan(&id, &summary); err != nil {
				rows.Close()
				return out, fmt.Errorf("forget: sessions: %w", err)
			}
			if containsPhrase(fold(summary), f) {
				p.sessions[id] = true
			}
		}
		rows.Close()
	}
	emptied, err := p.emptiedSessions(ctx, false)
	if err != nil {
		return out, fmt.Errorf("forget: sessions: %w", err)
	}
	out.Emptied = emptied
	out.Entries = keys(p.entries)
	out.Evidence = keys(p.evidence)
	for s := range p.sessions {
		out.Sessions = append(out.Sessions, s)
	}
	sort.Strings(out.Sessions)
	for _, l := range [][]int64{out.Delete, out.Redact, out.Injections, out.Released} {
		sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	}
	return out, nil
}

// lifecycle adds to the deleted events those recording the deleted entries
// (as EntryEvents finds them, but one scan per project for all entries) and
// returns the memory_injected events that name one of them.
func (p *planner) lifecycle(ctx context.Context, out *ForgetPlan) (map[int64]bool, error) {
	type target struct{ claimKeys, cids map[string]bool }
	byProject := map[string]*target{}
	for _, c := range chunks(keys(p.entries)) {
		rows, err := p.t.query(ctx, `SELECT cid, project, claim_key FROM entries WHERE id IN (`+placeholders(len(c))+`) ORDER BY id`, int64Args(c)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var cid, project, claimKey string
			if err := rows.Scan(&cid, &project, &claimKey); err != nil {
				rows.Close()
				return nil, err
			}
			tg := byProject[project]
			if tg == nil {
				tg = &target{map[string]bool{}, map[string]bool{}}
				byProject[project] = tg
			}
			tg.claimKeys[claimKey], tg.cids[cid] = true, true
			out.CIDs = append(out.CIDs, cid)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	injections := map[int64]bool{}
	for project, tg := range byProject {
		rows, err := p.t.query(ctx, `SELECT id, session_id, type, payload FROM events WHERE project = ? AND type IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			project, TypeEntryExtracted, TypeEvidenceAligned, TypeConflict, TypeMemoryInjected, TypeCertified, TypeRejected, TypeMemoryCited,
			TypeEdited, TypePinned, TypeUnpinned)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var k eventKey
			var payload string
			if err := rows.Scan(&id, &k.session, &k.typ, &payload); err != nil {
				rows.Close()
				return nil, err
			}
			var v struct {
				ClaimKey string   `json:"claim_key"`
				Older    string   `json:"older"`
				Newer    string   `json:"newer"`
				CID      string   `json:"cid"`
				Memories []string `json:"memories"`
				Cited    []string `json:"cited"`
			}
			if json.Unmarshal([]byte(payload), &v) != nil {
				continue
			}
			switch k.typ {
			case TypeEntryExtracted, TypeEvidenceAligned:
				if tg.claimKeys[v.ClaimKey] {
					p.del[id] = k
				}
			case TypeConflict:
				if tg.cids[v.Older] || tg.cids[v.Newer] {
					p.del[id] = k
				}
			case TypeCertified, TypeRejected, TypeEdited, TypePinned, TypeUnpinned:
				if tg.cids[v.CID] { // an edit's payload holds the memory's old and new text
					p.del[id] = k
				}
			case TypeMemoryCited:
				// An answer's citations of a forgotten memory go with it.
				for _, c := range v.Cited {
					if tg.cids[c] {
						p.del[id] = k
					}
				}
			case TypeMemoryInjected:
				for _, c := range v.Memories {
					if tg.cids[c] {
						injections[id] = true
					}
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return injections, nil
}

// apply carries out a plan inside tx.
func apply(ctx context.Context, tx *Tx, p ForgetPlan) error {
	steps := []struct {
		what, q string
		ids     []int64
	}{
		{"evidence", `DELETE FROM evidence WHERE id IN (%s)`, p.Evidence},
		{"entries", `DELETE FROM entries WHERE id IN (%s)`, p.Entries},
		{"events", `DELETE FROM events WHERE id IN (%s)`, p.Delete},
		{"release", `UPDATE entries SET status = 'active' WHERE status = 'contested' AND id IN (%s)`, p.Released},
	}
	for _, s := range steps {
		for _, c := range chunks(s.ids) {
			if _, err := tx.exec(ctx, fmt.Sprintf(s.q, placeholders(len(c))), int64Args(c)...); err != nil {
				return fmt.Errorf("forget: delete %s: %w", s.what, err)
			}
		}
	}
	for _, id := range p.Redact {
		e, err := eventByID(ctx, tx, id)
		if err != nil {
			return fmt.Errorf("forget: redact: %w", err)
		}
		e.Text = Redacted
		if _, err := tx.exec(ctx, `UPDATE events SET text = ?, payload = '{}', content_hash = '', checksum = ? WHERE id = ?`,
			Redacted, checksum(e, "{}"), id); err != nil {
			return fmt.Errorf("forget: redact event %d: %w", id, err)
		}
	}
	gone := map[string]bool{}
	for _, cid := range p.CIDs {
		gone[cid] = true
	}
	for _, id := range p.Injections {
		e, err := eventByID(ctx, tx, id)
		if err != nil {
			return fmt.Errorf("forget: injections: %w", err)
		}
		var payload map[string]any
		if err := json.Unmarshal(e.Payload, &payload); err != nil {
			continue
		}
		list, _ := payload["memories"].([]any)
		kept := []any{}
		for _, v := range list {
			if cid, _ := v.(string); !gone[cid] {
				kept = append(kept, v)
			}
		}
		payload["memories"] = kept
		b, err := json.Marshal(payload)
		if err != nil {
			return fmt.Errorf("forget: injections: %w", err)
		}
		if _, err := tx.exec(ctx, `UPDATE events SET payload = ?, checksum = ? WHERE id = ?`, string(b), checksum(e, string(b)), id); err != nil {
			return fmt.Errorf("forget: injections: %w", err)
		}
	}
	for _, c := range chunkStrings(p.Sessions) {
		if _, err := tx.exec(ctx, `UPDATE sessions SET summary = '' WHERE id IN (`+placeholders(len(c))+`)`, stringArgs(c)...); err != nil {
			return fmt.Errorf("forget: sessions: %w", err)
		}
	}
	for _, c := range chunkStrings(p.Emptied) {
		if _, err := tx.exec(ctx, `UPDATE sessions SET source = ? WHERE id IN (`+placeholders(len(c))+`)`,
			append([]any{SessionForgotten}, stringArgs(c)...)...); err != nil {
			return fmt.Errorf("forget: sessions: %w", err)
		}
	}
	return nil
}

func eventByID(ctx context.Context, t *Tx, id int64) (Event, error) {
	rows, err := t.query(ctx, `SELECT `+eventColumns+` FROM events WHERE id = ?`, id)
	if err != nil {
		return Event{}, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return Event{}, err
		}
		return Event{}, fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	e, err := scanEvent(rows)
	if err != nil {
		return Event{}, err
	}
	return e, rows.Err()
}

// tombstone is the memory_forgotten event: counts, the kinds of selector and
// hashes of their values, and nothing that was forgotten.
func tombstone(ctx context.Context, t *Tx, sel ForgetSelector, p ForgetPlan, now time.Time) (Event, error) {
	targets := map[string]string{}
	var kinds []string
	add := func(kind, value string) {
		if value != "" {
			kinds = append(kinds, kind)
			targets[kind] = HashTarget(value)
		}
	}
	if sel.CID != "" {
		add("memory", normCID(sel.CID))
	}
	add("session", sel.SessionID)
	add("project", sel.Project)
	if !sel.Before.IsZero() {
		add("before", FormatTime(sel.Before))
	}
	add("match", strings.TrimSpace(sel.Phrase))
	payload := map[string]any{
		"selector": kinds, "targets": targets,
		"entries": len(p.Entries), "events_deleted": len(p.Delete), "events_redacted": len(p.Redact),
		"evidence": len(p.Evidence), "conflicts": p.Conflicts, "sessions": len(p.Sessions),
		"injections_rewritten": len(p.Injections),
	}
	b, err := json.Marshal(payload)
	if err != nil {
		return Event{}, fmt.Errorf("forget: tombstone: %w", err)
	}
	// A project that is itself forgotten is not named; otherwise the tombstone
	// belongs to the project it happened in, so per-project listings show it.
	var project string
	if sel.Project == "" {
		switch {
		case sel.CID != "":
			project = firstString(ctx, t, `SELECT project FROM entries WHERE cid = ?`, normCID(sel.CID))
		case sel.SessionID != "":
			project = firstString(ctx, t, `SELECT project FROM sessions WHERE id = ?`, sel.SessionID)
		}
	}
	return Event{Time: now, Type: TypeForgotten, Project: project, Payload: b,
		DedupeKey: "forgotten:" + FormatTime(now) + ":" + shortHash(string(b))[:16]}, nil
}

func firstString(ctx context.Context, t *Tx, query string, args ...any) string {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return ""
	}
	defer rows.Close()
	var s string
	if rows.Next() {
		rows.Scan(&s)
	}
	return s
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
	rows, err := t.query(ctx, `SELECT `+eventColumns+` FROM events WHERE project = ? AND (
			(type IN (?, ?) AND json_extract(payload, '$.claim_key') = ?)
			OR (type = ? AND (json_extract(payload, '$.older') = ? OR json_extract(payload, '$.newer') = ?))
			OR (type = ? AND EXISTS (SELECT 1 FROM json_each(payload, '$.memories') WHERE value = ?))
			OR (type = ? AND EXISTS (SELECT 1 FROM json_each(payload, '$.cited') WHERE value = ?))
			OR (type IN (?, ?, ?, ?, ?) AND json_extract(payload, '$.cid') = ?))
		ORDER BY ts, id`,
		e.Project, TypeEntryExtracted, TypeEvidenceAligned, e.ClaimKey,
		TypeConflict, e.CID, e.CID,
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

// Compact makes deleted content unrecoverable from the file: it rebuilds both
// FTS5 indexes (their segments keep deleted tokens until merged), copies the
// WAL into the database and truncates it, and VACUUMs so that no free page
// keeps old bytes. VACUUM and the WAL reset need the other connections to be
// idle; Compact retries a few times and then returns ErrCompactPending.
func (db *DB) Compact(ctx context.Context) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	defer conn.Close()
	// VACUUM builds the new file in a temporary database; keep it in memory so
	// no copy of the content lands in a temporary file.
	if _, err := conn.ExecContext(ctx, "PRAGMA temp_store = MEMORY"); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA secure_delete = ON"); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	defer conn.ExecContext(ctx, "PRAGMA secure_delete = OFF")
	// Hooks hold the store for milliseconds: wait briefly for each attempt
	// and retry, rather than sit out the connection's long busy timeout while
	// something else keeps a read open.
	var busyMS int
	if err := conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busyMS); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("compact: begin: %w", err)
	}
	for _, t := range []string{"events_fts", "entries_fts"} {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("INSERT INTO %s(%s) VALUES('rebuild')", t, t)); err != nil {
			tx.Rollback()
			return fmt.Errorf("compact: rebuild %s: %w", t, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("compact: commit: %w", err)
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", min(busyMS, compactBusyMS))); err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	defer conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", busyMS))
	var last error
	for attempt := range compactAttempts {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return fmt.Errorf("compact: %w", ctx.Err())
			case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
			}
		}
		last = compactOnce(ctx, conn)
		if last == nil {
			if err := os.Remove(db.path + pendingSuffix); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("compact: %w", err)
			}
			return nil
		}
		if !errors.Is(last, ErrCompactPending) {
			return last
		}
	}
	return last
}

// compactAttempts and compactBusyMS bound how long Compact waits for other
// connections: about 2.5 s in all.
const (
	compactAttempts = 5
	compactBusyMS   = 250
)

func compactOnce(ctx context.Context, conn *sql.Conn) error {
	if err := checkpoint(ctx, conn); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "VACUUM"); err != nil {
		if busy(err) {
			return fmt.Errorf("compact: vacuum: %w (%v)", ErrCompactPending, err)
		}
		return fmt.Errorf("compact: vacuum: %w", err)
	}
	return checkpoint(ctx, conn)
}

// checkpoint copies the WAL into the database file and truncates it to zero
// bytes, which needs every reader to be done with it.
func checkpoint(ctx context.Context, conn *sql.Conn) error {
	var blocked, logFrames, done int
	err := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&blocked, &logFrames, &done)
	if err != nil {
		if busy(err) {
			return fmt.Errorf("compact: checkpoint: %w (%v)", ErrCompactPending, err)
		}
		return fmt.Errorf("compact: checkpoint: %w", err)
	}
	if blocked != 0 {
		return fmt.Errorf("compact: checkpoint: %w", ErrCompactPending)
	}
	return nil
}

// busy reports whether err is SQLITE_BUSY or SQLITE_LOCKED (any extended code).
func busy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED
		return true
	}
	return false
}

// Backups lists the copies Open made before schema upgrades
// (memory.db.v<N>.bak); they hold everything the store held at the time.
func (db *DB) Backups() ([]string, error) {
	m, err := filepath.Glob(db.path + ".v*.bak")
	if err != nil {
		return nil, fmt.Errorf("list backups: %w", err)
	}
	sort.Strings(m)
	return m, nil
}

// RemoveBackups deletes the upgrade backups, which would otherwise keep
// forgotten content, and returns the paths it removed.
func (db *DB) RemoveBackups() ([]string, error) {
	paths, err := db.Backups()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return out, fmt.Errorf("remove backup: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

// HashTarget is how a forget target appears in the memory_forgotten event's
// payload: the citation id, session id, project, date (as stored) or phrase
// never appears in the clear.
func HashTarget(value string) string { return "sha256:" + shortHash(value) }

// fold lower-cases text and collapses whitespace runs, for "contains the same words" checks.
func fold(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// containsPhrase reports whether folded text contains the folded phrase as
// whole words: "key" is in "the api key." but not in "monkey".
func containsPhrase(text, phrase string) bool {
	if phrase == "" {
		return false
	}
	for from := 0; ; {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(phrase)
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if (i == 0 || !isWordRune(before)) && (end == len(text) || !isWordRune(after)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		from = i + size
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

func hasWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

func queryIDs(ctx context.Context, t *Tx, query string, args ...any) ([]int64, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// chunkSize keeps IN lists well under SQLite's limit on bound parameters.
const chunkSize = 500

func chunks(ids []int64) [][]int64 {
	var out [][]int64
	for len(ids) > 0 {
		n := min(chunkSize, len(ids))
		out = append(out, ids[:n])
		ids = ids[n:]
	}
	return out
}

func chunkStrings(ss []string) [][]string {
	var out [][]string
	for len(ss) > 0 {
		n := min(chunkSize, len(ss))
		out = append(out, ss[:n])
		ss = ss[n:]
	}
	return out
}

func int64Args(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

func stringArgs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func keys(m map[int64]bool) []int64 {
	out := make([]int64, 0, len(m))
	for id, ok := range m {
		if ok {
			out = append(out, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

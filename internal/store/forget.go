package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/question"
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
	// Remote says the forget came from the team server (a teammate forgot
	// a memory they shared): it is not queued to be sent back. A local
	// forget of one's own shared memories queues their forget for the team.
	Remote bool
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
	// Rewritten lists the entries that lose the quotes of the forgotten
	// text and keep those another session said the same fact with: their
	// title and body, written from the forgotten words, become their best
	// remaining quote, and what was derived from those words (claim key,
	// subject, roles, date, questions) is made again (see restate).
	Rewritten []int64
	// SpoolLeft is what the spool still held after Forget tried to store it
	// (its lock held by an appender past the wait, a file it could not
	// read): the forget's rule refuses what of it is forgotten when a later
	// write stores it, but until then its bytes are on disk.
	SpoolLeft int64
	// quotes are the forgotten memory's quotes, for the forget's rule.
	quotes []string
	// digest is the session whose digest was forgotten by its id: it is
	// marked so that the worker does not build it again.
	digest string
	// scrub are the memory records that keep their event with the
	// forgotten phrase cut from their text: the payload each becomes.
	scrub map[int64]string
	// requestion lists the other entries that lose quotes and survive:
	// their questions, some perhaps from the forgotten text, are made
	// again from what they say.
	requestion []int64
}

// Empty reports whether the plan removes nothing.
func (p ForgetPlan) Empty() bool {
	return len(p.Entries) == 0 && len(p.Delete) == 0 && len(p.Redact) == 0 && len(p.Evidence) == 0 && len(p.scrub) == 0
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
//     delete trigger); memory_forgotten events are never deleted, nor are
//     the llm_call and llm_budget_reached records of LLM spend (numbers
//     only), so that a forget does not give back a spent budget;
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
	// What hooks spooled is stored first, all of it, and so forgotten with
	// the rest; the plan is to cover everything.
	if err := t.foldAll(ctx); err != nil {
		return ForgetPlan{}, fmt.Errorf("forget: %w", err)
	}
	// Plan under the write lock: hooks writing meanwhile wait, so what is
	// deleted is exactly what was planned.
	now := db.Now()
	p, err := plan(ctx, t, sel, now)
	if err != nil {
		return p, err
	}
	p.SpoolLeft = t.spoolLeft
	// Nothing stored matches: nothing is written, unless the forgotten words
	// may still come, from a spool this fold could not take or a transcript
	// row no hook has read yet, which the rule is to refuse.
	if p.Empty() && p.SpoolLeft <= 0 && strings.TrimSpace(sel.Phrase) == "" {
		return p, nil
	}
	// The tombstone names the project from rows that apply deletes.
	tomb, err := tombstone(ctx, t, sel, p, now)
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
	if !sel.Remote {
		if err := t.enqueueForgets(ctx, p.Entries); err != nil {
			return p, fmt.Errorf("forget: %w", err)
		}
		// A shared memory that survives but loses quotes (a session's, or
		// the words --match forgot) goes to the server again as it is left,
		// so the server and teammates lose those quotes too.
		if err := t.shareTrimmed(ctx, p); err != nil {
			return p, fmt.Errorf("forget: %w", err)
		}
	}
	if err := apply(ctx, t, p); err != nil {
		return p, err
	}
	if p.digest != "" {
		mark := Event{Time: now, Type: TypeDigestSkipped, SessionID: p.digest, Project: tomb.Project, DedupeKey: DigestSkippedKey(p.digest)}
		if _, err := t.append(ctx, now, []Event{mark}); err != nil {
			return p, fmt.Errorf("forget: mark the digest's session: %w", err)
		}
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
	// Before restate, which reads the records of what it restates.
	for id, payload := range p.scrub {
		e, err := eventByID(ctx, tx, id)
		if err != nil {
			return fmt.Errorf("forget: records: %w", err)
		}
		if _, err := tx.exec(ctx, `UPDATE events SET payload = ?, checksum = ? WHERE id = ?`, payload, checksum(e, payload), id); err != nil {
			return fmt.Errorf("forget: record %d: %w", id, err)
		}
	}
	for _, id := range p.Rewritten {
		if err := restate(ctx, tx, id); err != nil {
			return err
		}
	}
	for _, id := range p.requestion {
		if err := requestion(ctx, tx, id); err != nil {
			return err
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

// restate makes entry id say what its best remaining quote says, from the
// session that quote is in: what is left of a fact after one session that
// said it was forgotten. Everything derived from the forgotten words goes
// with them: its subject becomes that session's own (from its extraction
// record), its claim key is made from the new title, its roles are parsed
// again (the pipeline backfills unparsed entries), its date is its
// earliest remaining quote's, and its questions are made again.
func restate(ctx context.Context, t *Tx, id int64) error {
	var quote, session, project, cid, oldKey string
	err := t.queryRow(ctx, `SELECT v.quote, v.session_id, e.project, e.cid, e.claim_key FROM evidence v JOIN entries e ON e.id = v.entry_id
		WHERE v.entry_id = ? ORDER BY v.method IN ('', 'none'), v.confidence DESC, v.id LIMIT 1`, id).Scan(&quote, &session, &project, &cid, &oldKey)
	if err != nil {
		return fmt.Errorf("forget: restate entry %d: %w", id, err)
	}
	body := strings.Join(strings.Fields(quote), " ")
	title := body
	if r := []rune(title); len(r) > restatedTitle {
		title = string(r[:restatedTitle-1]) + "…"
	}
	records, err := extractionRecords(ctx, t, project, oldKey)
	if err != nil {
		return fmt.Errorf("forget: restate entry %d: %w", id, err)
	}
	subject := ""
	for _, r := range records {
		if r.session == session && r.subject != "" {
			subject = r.subject
		}
	}
	key := claim.Key(subject, title)
	var other int64
	switch err := t.queryRow(ctx, `SELECT id FROM entries WHERE project = ? AND claim_key = ? AND id <> ?`, project, key, id).Scan(&other); {
	case err == nil:
		// Another memory holds the key: merging the two is beyond a
		// forget; the memory's own id keeps its key unique.
		key += " " + cid
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("forget: restate entry %d: %w", id, err)
	}
	// promotion_blocked goes too: it quotes the quote that did not align,
	// which may be the forgotten one.
	if _, err := t.exec(ctx, `UPDATE entries SET title = ?, body = ?, session_id = ?, subject = ?, claim_key = ?, roles_parsed = 0, promotion_blocked = '',
		created_at = coalesce((SELECT min(ev.ts) FROM evidence v JOIN events ev ON ev.id = v.event_id WHERE v.entry_id = entries.id), created_at)
		WHERE id = ?`, title, body, session, subject, key, id); err != nil {
		return fmt.Errorf("forget: restate entry %d: %w", id, err)
	}
	if _, err := t.exec(ctx, `DELETE FROM entry_roles WHERE entry_id = ?`, id); err != nil {
		return fmt.Errorf("forget: restate entry %d: %w", id, err)
	}
	// The remaining sessions' extraction records follow the memory to its
	// new key, so that forgetting it later finds them.
	if err := t.rekeyRecords(ctx, records, key); err != nil {
		return fmt.Errorf("forget: restate entry %d: %w", id, err)
	}
	return requestion(ctx, t, id)
}

// requestion makes entry id's questions again from its type, subject,
// title and body: the questions a forgotten session added to it (an
// extractor's, merged in when that session said the fact again) may hold
// the forgotten words.
func requestion(ctx context.Context, t *Tx, id int64) error {
	var typ, subject, title, body string
	if err := t.queryRow(ctx, `SELECT type, subject, title, body FROM entries WHERE id = ?`, id).Scan(&typ, &subject, &title, &body); err != nil {
		return fmt.Errorf("forget: questions of entry %d: %w", id, err)
	}
	qs := joinQuestions(question.For(typ, subject, title+"\n"+body))
	if _, err := t.exec(ctx, `UPDATE entries SET questions = ? WHERE id = ?`, qs, id); err != nil {
		return fmt.Errorf("forget: questions of entry %d: %w", id, err)
	}
	return nil
}

// restatedTitle is the length, in runes, of a title restate cuts from a
// quote: the extractors' titles are as long.
const restatedTitle = 80

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
	key, err := t.forgetKey(ctx, true)
	if err != nil {
		return Event{}, fmt.Errorf("forget: %w", err)
	}
	h := newRuleHasher(key)
	targets := map[string]string{}
	var kinds []string
	add := func(kind, value string) {
		if value != "" {
			kinds = append(kinds, kind)
			targets[kind] = h.of(value)
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
	if rule, ok := forgetRuleOf(sel, p.quotes, now, h); ok {
		payload["rule"] = rule
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
		DedupeKey: Key(KeyForgotten, FormatTime(now), shortHash(string(b))[:16])}, nil
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

// HashTarget is how a forget target appeared in the memory_forgotten
// event's payload before the hashes were keyed (ruleHasher): rules written
// then are still matched with it.
func HashTarget(value string) string { return "sha256:" + shortHash(value) }

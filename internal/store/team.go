package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Team memory's local side: the outbox of changes to push, the sync state,
// and teammates' memories pulled from the server. The server side, and
// everything that touches the network, is internal/team; the hooks link
// neither.

// Outbox change kinds.
const (
	OutboxPut    = "put"    // the memory as it is when pushed: shared, or corrected
	OutboxForget = "forget" // the memory is gone: delete it on the server
)

// OutboxChange is one change waiting to be pushed.
type OutboxChange struct {
	ID       int64
	Kind     string
	SharedID string
	Key      string // idempotency key on the server
	// Entry is the memory as it is now, with its evidence (a put only).
	Entry Entry
}

// NewSharedID returns a fresh random id: a shared memory's id on the server,
// or an idempotency key.
func NewSharedID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on a supported system
	}
	return hex.EncodeToString(b[:])
}

// enqueue adds a change to the outbox. A put replaces a put waiting for
// the same memory rather than counting on it: push reads the memory as it
// is then, but that one may be in a push under way, which read the memory
// before this change and removes the put once the server committed.
func (t *Tx) enqueue(ctx context.Context, kind, sharedID string) error {
	if kind == OutboxPut {
		if _, err := t.exec(ctx, `DELETE FROM team_outbox WHERE shared_id = ? AND kind = 'put'`, sharedID); err != nil {
			return fmt.Errorf("outbox: %w", err)
		}
	}
	_, err := t.exec(ctx, `INSERT INTO team_outbox (kind, shared_id, key, created_at) VALUES (?, ?, ?, ?)`,
		kind, sharedID, NewSharedID(), FormatTime(t.db.Now()))
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	return nil
}

// ShareCorrection queues a put for entry id when it is one's own shared
// memory: a correction (edit, reject, supersede, certify, pin) reaches the
// team. A teammate's memory corrected here stays corrected here only.
func (t *Tx) ShareCorrection(ctx context.Context, id int64) error {
	var shared string
	err := t.queryRow(ctx, `SELECT shared_id FROM entries WHERE id = ? AND author = '' AND shared_id <> ''`, id).Scan(&shared)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	return t.enqueue(ctx, OutboxPut, shared)
}

// shareTrimmed queues a put for each of one's own shared memories that
// forget plan p leaves in place but takes evidence from.
func (t *Tx) shareTrimmed(ctx context.Context, p ForgetPlan) error {
	done := make(map[int64]bool, len(p.Entries)) // deleted (forgotten on the server) or queued
	for _, id := range p.Entries {
		done[id] = true
	}
	for _, c := range chunks(p.Evidence) {
		ids, err := queryAll(ctx, t, `SELECT DISTINCT entry_id FROM evidence WHERE id IN (`+placeholders(len(c))+`)`,
			func(rows *sql.Rows) (id int64, err error) { err = rows.Scan(&id); return id, err }, int64Args(c)...)
		if err != nil {
			return fmt.Errorf("outbox: %w", err)
		}
		for _, id := range ids {
			if !done[id] {
				done[id] = true
				if err := t.ShareCorrection(ctx, id); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// enqueueForgets queues a forget for each of one's own shared memories
// among entries (about to be deleted), and drops the puts waiting for them.
// A teammate's memory forgotten here is forgotten here only: only its
// author removes it from the server.
func (t *Tx) enqueueForgets(ctx context.Context, entries []int64) error {
	for _, c := range chunks(entries) {
		ids, err := queryAll(ctx, t, `SELECT shared_id FROM entries WHERE author = '' AND shared_id <> '' AND id IN (`+placeholders(len(c))+`)`,
			func(rows *sql.Rows) (s string, err error) { err = rows.Scan(&s); return s, err }, int64Args(c)...)
		if err != nil {
			return fmt.Errorf("outbox: %w", err)
		}
		for _, id := range ids {
			if _, err := t.exec(ctx, `DELETE FROM team_outbox WHERE shared_id = ? AND kind = 'put'`, id); err != nil {
				return fmt.Errorf("outbox: %w", err)
			}
			if err := t.enqueue(ctx, OutboxForget, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// ShareVerified gives each of the project's own verified (or certified)
// active memories that has no shared id one, and queues it to be pushed. It
// returns how many it queued. The ids and keys are made here and go to
// SQLite as one JSON array, so the memories get their ids and the outbox
// its rows in one statement each, not two a memory: sharing a large store
// the first time was a third of its push. Digests stay on this machine:
// they stand for sessions a teammate does not have, and the worker builds
// them again.
func (db *DB) ShareVerified(ctx context.Context, project string) (int, error) {
	n := 0
	err := db.Update(ctx, func(t *Tx) error {
		ids, err := queryIDs(ctx, t, `SELECT id FROM entries WHERE project = ? AND author = '' AND shared_id = ''
			AND stage IN ('verified', 'certified') AND status IN ('active', 'contested') AND type <> ? ORDER BY id`, project, DigestType)
		if err != nil || len(ids) == 0 {
			return err
		}
		rows := make([][3]any, len(ids)) // entry id, shared id, idempotency key
		for i, id := range ids {
			rows[i] = [3]any{id, NewSharedID(), NewSharedID()}
		}
		js, err := json.Marshal(rows)
		if err != nil {
			return err
		}
		if _, err := t.exec(ctx, `UPDATE entries SET shared_id = j.value ->> 1 FROM json_each(?) j
			WHERE entries.id = j.value ->> 0`, string(js)); err != nil {
			return err
		}
		if _, err := t.exec(ctx, `INSERT INTO team_outbox (kind, shared_id, key, created_at)
			SELECT ?, j.value ->> 1, j.value ->> 2, ? FROM json_each(?) j ORDER BY j.key`,
			OutboxPut, FormatTime(t.db.Now()), string(js)); err != nil {
			return fmt.Errorf("outbox: %w", err)
		}
		n = len(ids)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("share: %w", err)
	}
	return n, nil
}

// Outbox returns up to n pending changes, oldest first, each put with its
// memory as it is now and its aligned evidence. It reads the whole batch in
// three statements (the changes, their memories, their evidence), not two
// a change: a memory forgotten in between is left out, as one forgotten
// before (its forget follows, and push skips a put without an entry).
func (db *DB) Outbox(ctx context.Context, n int) ([]OutboxChange, error) {
	return db.OutboxAfter(ctx, 0, n)
}

// OutboxAfter is Outbox from the change after row id after on: a push
// reads its next batch while the server still applies the one before.
func (db *DB) OutboxAfter(ctx context.Context, after int64, n int) ([]OutboxChange, error) {
	t := db.Read()
	type row struct {
		c     OutboxChange
		entry int64
	}
	rs, err := queryAll(ctx, t, `SELECT o.id, o.kind, o.shared_id, o.key, coalesce(e.id, 0) FROM team_outbox o
		LEFT JOIN entries e ON o.kind = 'put' AND e.shared_id = o.shared_id AND e.shared_id <> ''
		WHERE o.id > ? ORDER BY o.id LIMIT ?`,
		func(rows *sql.Rows) (r row, err error) {
			err = rows.Scan(&r.c.ID, &r.c.Kind, &r.c.SharedID, &r.c.Key, &r.entry)
			return r, err
		}, after, n)
	if err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	var ids []int64
	for _, r := range rs {
		if r.entry != 0 {
			ids = append(ids, r.entry)
		}
	}
	entries := make(map[int64]Entry, len(ids))
	for _, c := range chunks(ids) {
		es, err := scanEntries(ctx, t, `SELECT `+entryColumns+` FROM entries WHERE id IN (`+placeholders(len(c))+`)`, int64Args(c)...)
		if err == nil {
			err = loadEvidence(ctx, t, es)
		}
		if err != nil {
			return nil, fmt.Errorf("outbox: %w", err)
		}
		for _, e := range es {
			entries[e.ID] = e
		}
	}
	cs := make([]OutboxChange, len(rs))
	for i, r := range rs {
		cs[i] = r.c
		if e, ok := entries[r.entry]; ok && e.SharedID == r.c.SharedID {
			cs[i].Entry = e
		}
	}
	return cs, nil
}

// OutboxDone removes pushed changes: call it only after the server's
// transaction that applied them committed. It finds them by their keys:
// a change that replaced one of them meanwhile (a correction, a forget)
// has another key and stays.
func (db *DB) OutboxDone(ctx context.Context, cs []OutboxChange) error {
	return db.Update(ctx, func(t *Tx) error { return t.OutboxDone(ctx, cs) })
}

// OutboxDone is DB.OutboxDone in t.
func (t *Tx) OutboxDone(ctx context.Context, cs []OutboxChange) error {
	keys := make([]string, len(cs))
	for i, c := range cs {
		keys[i] = c.Key
	}
	for _, c := range chunkStrings(keys) {
		if _, err := t.exec(ctx, `DELETE FROM team_outbox WHERE key IN (`+placeholders(len(c))+`)`, stringArgs(c)...); err != nil {
			return fmt.Errorf("outbox done: %w", err)
		}
	}
	return nil
}

// OutboxPending counts the changes waiting to be pushed.
func (db *DB) OutboxPending(ctx context.Context) (int, error) {
	var n int
	err := db.Read().queryRow(ctx, `SELECT count(*) FROM team_outbox`).Scan(&n)
	return n, err
}

// TeamState returns the sync state's values ("" for a key never set).
func (db *DB) TeamState(ctx context.Context) (map[string]string, error) {
	rows, err := db.Read().query(ctx, `SELECT k, v FROM team_state`)
	if err != nil {
		return nil, fmt.Errorf("team state: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// SetTeamState sets sync state values; an empty value deletes the key.
func (db *DB) SetTeamState(ctx context.Context, kv map[string]string) error {
	return db.Update(ctx, func(t *Tx) error { return t.SetTeamState(ctx, kv) })
}

// SetTeamState is DB.SetTeamState in t.
func (t *Tx) SetTeamState(ctx context.Context, kv map[string]string) error {
	for k, v := range kv {
		var err error
		if v == "" {
			_, err = t.exec(ctx, `DELETE FROM team_state WHERE k = ?`, k)
		} else {
			_, err = t.exec(ctx, `INSERT INTO team_state (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`, k, v)
		}
		if err != nil {
			return fmt.Errorf("team state: %w", err)
		}
	}
	return nil
}

// SwapTeamState sets sync state k to v only if its value is still old (""
// for unset), and reports whether it did: a sync that moves its cursor on
// what it read earlier does not undo a join's Restart made meanwhile.
func (t *Tx) SwapTeamState(ctx context.Context, k, old, v string) (bool, error) {
	var cur string
	err := t.queryRow(ctx, `SELECT v FROM team_state WHERE k = ?`, k).Scan(&cur)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("team state: %w", err)
	}
	if cur != old {
		return false, nil
	}
	return true, t.SetTeamState(ctx, map[string]string{k: v})
}

// Teammate's memories as the server gives them are untrusted: these bound
// what one may put in the store.
const (
	maxPulledTitle  = 500
	maxPulledBody   = 4000
	maxPulledQuote  = 2000
	maxPulledQuotes = 20
	maxAuthor       = 63 // PostgreSQL's longest role name
)

// Pulled is a teammate's memory as pulled from the server.
type Pulled struct {
	SharedID string
	Project  string // the local project it belongs to
	Author   string
	Type     string
	Title    string
	Body     string
	Subject  string
	Stage    string
	Status   string
	Created  string // as FormatTime writes it, or RFC 3339
	Quotes   []string
	Pinned   bool // its author pinned it
}

// pulledLocal is the local copy of a shared memory, as PutPulled finds it.
type pulledLocal struct {
	id            int64
	author, stage string
}

// PutPulled stores or updates teammates' memories in t. A memory of one's
// own coming back from the server is left as it is (the local copy is
// authoritative); a teammate's memory one rejected stays rejected here, and
// one a forget's rule covers (forgotten here, or saying forgotten words)
// is not written back.
// Text that is not valid UTF-8 is repaired and every field is bounded. The
// local copies of a page of pulled memories are looked up in a statement a
// few hundred, not one each: a sync pulls one's own memories back too.
func (t *Tx) PutPulled(ctx context.Context, ps ...Pulled) error {
	ids := make([]string, 0, len(ps))
	for _, p := range ps {
		ids = append(ids, p.SharedID)
	}
	have := make(map[string]pulledLocal, len(ps))
	for _, c := range chunkStrings(ids) {
		rows, err := t.query(ctx, `SELECT shared_id, id, author, stage FROM entries WHERE shared_id <> ''
			AND shared_id IN (`+placeholders(len(c))+`)`, stringArgs(c)...)
		if err != nil {
			return fmt.Errorf("put pulled: %w", err)
		}
		for rows.Next() {
			var shared string
			var l pulledLocal
			if err := rows.Scan(&shared, &l.id, &l.author, &l.stage); err != nil {
				rows.Close()
				return fmt.Errorf("put pulled: %w", err)
			}
			have[shared] = l
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("put pulled: %w", err)
		}
	}
	rules, err := t.forgetRules(ctx)
	if err != nil {
		return fmt.Errorf("put pulled: %w", err)
	}
	for _, p := range ps {
		if !rules.empty() && rules.refusesAny(pulledAt(p, t.db.Now()), "team:"+p.SharedID, p.Project,
			append([]string{p.Title, p.Body, p.Subject}, p.Quotes...)) {
			continue
		}
		l, err := t.putPulled(ctx, p, have[p.SharedID])
		if err != nil {
			return err
		}
		have[p.SharedID] = l // the same memory again in this page updates this copy
	}
	return nil
}

// pulledAt is when a pulled memory was said: its creation time, or now
// when it has none.
func pulledAt(p Pulled, now time.Time) time.Time {
	if at := ParseTime(p.Created); !at.IsZero() {
		return at
	}
	return now
}

// putPulled stores or updates one pulled memory whose local copy is l (l.id
// 0 for none) and returns its local copy now.
func (t *Tx) putPulled(ctx context.Context, p Pulled, l pulledLocal) (pulledLocal, error) {
	p.Title = bound(p.Title, maxPulledTitle)
	p.Body = bound(p.Body, maxPulledBody)
	p.Subject = bound(p.Subject, maxPulledTitle)
	p.Type = bound(p.Type, 32)
	p.Author = AuthorName(p.Author)
	switch p.Stage {
	case StageVerified, StageCertified, StageRejected:
	default:
		p.Stage = StageVerified
	}
	switch p.Status {
	case StatusActive, StatusContested, StatusSuperseded:
	default:
		p.Status = StatusActive
	}
	created := FormatTime(pulledAt(p, t.db.Now()))
	id := l.id
	switch {
	case id == 0:
		claimKey := "team:" + p.SharedID
		if err := t.inserting(ctx, "entries"); err != nil {
			return l, err
		}
		// Its session is its own: recall takes two statements of one
		// session for one discussion, not a conflict. The citation id is
		// newCID's first choice, tried by the insert itself (a statement
		// less a memory, in a page of thousands); only when another entry
		// has it does newCID look further.
		insert := func(cid string) (int64, error) {
			r, err := t.exec(ctx, `INSERT INTO entries
				(cid, project, session_id, type, title, body, subject, claim_key, stage, status, created_at, author, shared_id, roles_parsed)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT (cid) DO NOTHING`,
				cid, p.Project, claimKey, p.Type, p.Title, p.Body, p.Subject, claimKey, p.Stage, p.Status, created, p.Author, p.SharedID)
			if err != nil {
				return 0, fmt.Errorf("put pulled: %w", err)
			}
			if n, _ := r.RowsAffected(); n == 0 {
				return 0, nil
			}
			return r.LastInsertId()
		}
		var err error
		if id, err = insert(firstCID(p.Project, claimKey)); err == nil && id == 0 {
			var cid string
			if cid, err = newCID(ctx, t, p.Project, claimKey); err == nil {
				id, err = insert(cid)
			}
		}
		if err == nil && id == 0 {
			err = fmt.Errorf("put pulled: no citation id for %s", p.SharedID)
		}
		if err != nil {
			return l, err
		}
		if p.Pinned {
			if err := t.pinPulled(ctx, id, true); err != nil {
				return l, err
			}
		}
	case l.author == "":
		return l, nil
	default:
		if l.stage == StageRejected {
			p.Stage = StageRejected
		}
		// The full-text triggers that an update fires take the row out
		// of the index: one this transaction inserted (the same memory
		// changed twice between two syncs) must be in it first.
		if last, ok := t.unindexed["entries"]; ok && id > last {
			if err := t.index(ctx); err != nil {
				return l, err
			}
		}
		if _, err := t.exec(ctx, `UPDATE entries SET type = ?, title = ?, body = ?, subject = ?, stage = ?, status = ?, author = ?
			WHERE id = ?`, p.Type, p.Title, p.Body, p.Subject, p.Stage, p.Status, p.Author, id); err != nil {
			return l, fmt.Errorf("put pulled: %w", err)
		}
		if _, err := t.exec(ctx, `DELETE FROM evidence WHERE entry_id = ?`, id); err != nil {
			return l, fmt.Errorf("put pulled: %w", err)
		}
		if err := t.pinPulled(ctx, id, p.Pinned); err != nil {
			return l, err
		}
	}
	l = pulledLocal{id: id, author: p.Author, stage: p.Stage}
	for i, q := range p.Quotes {
		if i == maxPulledQuotes {
			break
		}
		q = bound(q, maxPulledQuote)
		if strings.TrimSpace(q) == "" {
			continue
		}
		// The quote was aligned on the author's machine; here it has no
		// message to point at.
		if _, err := t.exec(ctx, `INSERT INTO evidence (entry_id, message_index, quote, quote_hash, method, confidence)
			VALUES (?, 0, ?, ?, 'exact', 1) ON CONFLICT(entry_id, session_id, quote_hash) DO NOTHING`,
			id, q, shortHash(q)[:32]); err != nil {
			return l, fmt.Errorf("put pulled: evidence: %w", err)
		}
	}
	return l, nil
}

// SharedCID returns the citation id of the local copy of a shared memory,
// or an error wrapping ErrNotFound.
func (db *DB) SharedCID(ctx context.Context, sharedID string) (string, error) {
	var cid string
	err := db.Read().queryRow(ctx, `SELECT cid FROM entries WHERE shared_id = ? AND shared_id <> ''`, sharedID).Scan(&cid)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("shared memory %s: %w", sharedID, ErrNotFound)
	}
	return cid, err
}

// bound repairs invalid UTF-8 and cuts s to at most n bytes on a rune boundary.
func bound(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\x00", "")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// AuthorName is the author as stored and shown: the characters of a plain
// PostgreSQL role name only (letters, digits, '_', '-', '.', '@'), at most
// 63, so a hostile server cannot smuggle markup or line breaks through it.
func AuthorName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= maxAuthor {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.', r == '@':
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "teammate"
	}
	return b.String()
}

// Author is one teammate whose memories are in the store.
type Author struct {
	Name     string
	Memories int
	Latest   time.Time // when the newest of them was said
}

// TeamAuthors lists the teammates whose memories were pulled, most first,
// and counts one's own memories shared with the team.
func (db *DB) TeamAuthors(ctx context.Context) (authors []Author, sharedOwn int, err error) {
	authors, err = queryAll(ctx, db.Read(), `SELECT author, count(*), max(created_at) FROM entries WHERE author <> ''
		GROUP BY author ORDER BY count(*) DESC, author`,
		func(rows *sql.Rows) (a Author, err error) {
			var latest string
			err = rows.Scan(&a.Name, &a.Memories, &latest)
			a.Latest = ParseTime(latest)
			return a, err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("team authors: %w", err)
	}
	err = db.Read().queryRow(ctx, `SELECT count(*) FROM entries WHERE author = '' AND shared_id <> ''`).Scan(&sharedOwn)
	return authors, sharedOwn, err
}

// TeamEntries lists the newest of teammates' memories.
func (db *DB) TeamEntries(ctx context.Context, limit int) ([]Entry, error) {
	return scanEntries(ctx, db.Read(), `SELECT `+entryColumns+` FROM entries WHERE author <> '' ORDER BY created_at DESC, id DESC LIMIT ?`, limit)
}

// pinPulled records the author's pin or unpin of a pulled memory as the
// pin events a local pin writes, when it changes its state here.
func (t *Tx) pinPulled(ctx context.Context, id int64, pin bool) error {
	var cid, project string
	if err := t.queryRow(ctx, `SELECT cid, project FROM entries WHERE id = ?`, id).Scan(&cid, &project); err != nil {
		return fmt.Errorf("put pulled: pin: %w", err)
	}
	var last string
	err := t.queryRow(ctx, `SELECT type FROM events WHERE type IN (?, ?) AND project = ? AND json_extract(payload, '$.cid') = ?
		ORDER BY id DESC LIMIT 1`, TypePinned, TypeUnpinned, project, cid).Scan(&last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("put pulled: pin: %w", err)
	}
	if (last == TypePinned) == pin {
		return nil
	}
	typ := TypeUnpinned
	if pin {
		typ = TypePinned
	}
	now := t.db.Now()
	payload, _ := json.Marshal(map[string]string{"cid": cid, "by": "team"})
	_, err = t.Append(ctx, Event{Time: now, Type: typ, Project: project, Payload: payload,
		DedupeKey: Key(KeyKind(typ), cid, FormatTime(now))})
	return err
}

// OutboxHeld returns the keys of those of cs still waiting to be pushed. A
// change read before is gone when a correction or a forget replaced it
// since: a push drops it from its batch, and the change that replaced it
// follows.
func (db *DB) OutboxHeld(ctx context.Context, cs []OutboxChange) (map[string]bool, error) {
	keys := make([]string, len(cs))
	for i, c := range cs {
		keys[i] = c.Key
	}
	held := make(map[string]bool, len(keys))
	for _, c := range chunkStrings(keys) {
		ks, err := queryAll(ctx, db.Read(), `SELECT key FROM team_outbox WHERE key IN (`+placeholders(len(c))+`)`,
			func(rows *sql.Rows) (s string, err error) { err = rows.Scan(&s); return s, err }, stringArgs(c)...)
		if err != nil {
			return nil, fmt.Errorf("outbox: %w", err)
		}
		for _, k := range ks {
			held[k] = true
		}
	}
	return held, nil
}

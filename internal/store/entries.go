package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Entry stages and statuses.
const (
	StageCandidate = "candidate"
	StageVerified  = "verified"
	StageCertified = "certified"
	StageRejected  = "rejected"

	StatusActive     = "active"
	StatusContested  = "contested"
	StatusSuperseded = "superseded"
	StatusForgotten  = "forgotten"
)

// Entry is a memory distilled from a session.
type Entry struct {
	ID               int64
	CID              string // "mem:ab12cd"
	Project          string
	SessionID        string
	Type             string
	Title            string
	Body             string
	Subject          string
	ClaimKey         string
	Stage            string
	Status           string
	SupersededBy     int64
	PromotionBlocked string
	Created          time.Time
	LastUsed         time.Time // when an answer last cited it after being shown it
	UseCount         int       // answers that cited it after being shown it
	LastInjected     time.Time
	InjectCount      int // prompts it was injected into
	// Author is "" for one's own memory, the teammate's PostgreSQL role for
	// one pulled from the team server (see internal/team).
	Author string
	// SharedID is the memory's id on the team server, "" when never shared.
	SharedID string
	// Questions are the short questions the memory answers, indexed with
	// it so that a prompt asking one in other words finds it.
	Questions []string
	Evidence  []Evidence
}

// Evidence is one quote backing an entry and where it was found.
type Evidence struct {
	ID           int64
	EntryID      int64
	EventID      int64 // 0 when the quote was not found
	SessionID    string
	SourceUUID   string
	MessageIndex int
	Quote        string
	SpanStart    int // byte offsets into the event's text
	SpanEnd      int
	Method       string // exact, normalized, fuzzy, none
	Confidence   float64
	Failure      string
	Ambiguous    bool
}

// Aligned reports whether the quote was found.
func (e Evidence) Aligned() bool { return e.Method != "" && e.Method != "none" }

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// PutEntry stores an extracted entry with its evidence and the events that
// record it, in one transaction. When the project already holds an entry with
// the same claim key (the same claim from an earlier session, or the same
// session processed again), the new evidence is added to that entry instead
// of creating a copy, and a candidate is promoted if this evidence verifies it.
// It reports the stored entry and whether it was created.
func (db *DB) PutEntry(ctx context.Context, e Entry, events ...Event) (Entry, bool, error) {
	return db.putEntry(ctx, EntryWrite{Entry: e, Events: events})
}

func (db *DB) putEntry(ctx context.Context, w EntryWrite) (Entry, bool, error) {
	var got []Entry
	var created []bool
	err := db.Update(ctx, func(t *Tx) error {
		var err error
		got, created, err = t.PutEntries(ctx, []EntryWrite{w})
		return err
	})
	if err != nil {
		return Entry{}, false, fmt.Errorf("put entry: %w", err)
	}
	if len(got) == 0 {
		return Entry{}, false, fmt.Errorf("put entry %q: %w", w.Entry.Title, ErrForgotten)
	}
	return got[0], created[0], nil
}

// EntryWrite is one entry for PutEntries with the events that record it.
type EntryWrite struct {
	Entry  Entry
	Events []Event
	// restored marks an entry from an export (RestoreEntry).
	restored bool
}

// RestoreEntry is PutEntry for an entry restored from an export: a memory
// forget's rule does not hold its quotes to it (see unforgottenEntries).
func (db *DB) RestoreEntry(ctx context.Context, e Entry) (Entry, bool, error) {
	return db.putEntry(ctx, EntryWrite{Entry: e, restored: true})
}

// PutEntries is PutEntry for a whole session's entries in one transaction:
// a session's entries cost one commit, not one each. It reports the stored
// entries, with the evidence of the sessions quoted in ws (EntryByID has all
// of it), and which were created, in the order given; an entry a forget's
// rule covers is left out of both.
func (t *Tx) PutEntries(ctx context.Context, ws []EntryWrite) (stored []Entry, created []bool, err error) {
	if len(ws) == 0 {
		return nil, nil, nil
	}
	// What a forget left a rule for is not written back (forget_rule.go).
	if ws, err = t.unforgottenEntries(ctx, ws); err != nil || len(ws) == 0 {
		return nil, nil, err
	}
	var events []Event
	var sessions []string
	seen := map[string]bool{}
	for _, w := range ws {
		e := w.Entry
		for _, v := range e.Evidence {
			if !seen[v.SessionID] {
				seen[v.SessionID] = true
				sessions = append(sessions, v.SessionID)
			}
		}
		if e.Project == "" && e.SessionID == "" || e.ClaimKey == "" || e.Title == "" {
			return nil, nil, fmt.Errorf("put entry %q: needs a claim key and a title", e.Title)
		}
		events = append(events, w.Events...)
	}
	now := t.db.Now()
	if _, err := t.append(ctx, now, events); err != nil {
		return nil, nil, err
	}
	ids := make([]int64, len(ws))
	created = make([]bool, len(ws))
	var quotes []entryEvidence
	for i, x := range ws {
		if ids[i], created[i], err = t.putEntry(ctx, x.Entry, now); err != nil {
			return nil, nil, err
		}
		for _, ev := range x.Entry.Evidence {
			quotes = append(quotes, entryEvidence{ids[i], ev})
		}
	}
	if err := t.insertEvidence(ctx, quotes); err != nil {
		return nil, nil, err
	}
	stored, err = scanEntries(ctx, t, `SELECT `+entryColumns+` FROM entries WHERE id IN (`+placeholders(len(ids))+`)`, int64Args(ids)...)
	if err == nil {
		// Only this batch's sessions: a claim repeated in every session of a
		// long history would otherwise read back all its quotes each time.
		err = loadEvidence(ctx, t, stored, sessions...)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("put entry: read back: %w", err)
	}
	byID := make(map[int64]Entry, len(stored))
	for _, e := range stored {
		byID[e.ID] = e
	}
	stored = make([]Entry, len(ids))
	for i, id := range ids {
		stored[i] = byID[id]
	}
	return stored, created, nil
}

// putEntry stores one entry and its evidence; see PutEntry.
func (t *Tx) putEntry(ctx context.Context, e Entry, now time.Time) (id int64, created bool, err error) {
	var stage, createdAt, questions string
	err = t.queryRow(ctx, `SELECT id, stage, created_at, questions FROM entries WHERE project = ? AND claim_key = ?`, e.Project, e.ClaimKey).Scan(&id, &stage, &createdAt, &questions)
	created = err == sql.ErrNoRows
	switch {
	case created:
		if e.Stage == "" {
			e.Stage = StageCandidate
		}
		if e.Status == "" {
			e.Status = StatusActive
		}
		if e.Created.IsZero() {
			e.Created = now
		}
		cid, err := newCID(ctx, t, e.Project, e.ClaimKey)
		if err != nil {
			return 0, false, err
		}
		if err := t.inserting(ctx, "entries"); err != nil {
			return 0, false, err
		}
		r, err := t.exec(ctx, `INSERT INTO entries
			(cid, project, session_id, type, title, body, subject, claim_key, stage, status, promotion_blocked, created_at, questions)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			cid, e.Project, e.SessionID, e.Type, e.Title, e.Body, e.Subject, e.ClaimKey,
			e.Stage, e.Status, e.PromotionBlocked, FormatTime(e.Created), joinQuestions(e.Questions))
		if err != nil {
			return 0, false, fmt.Errorf("put entry: %w", err)
		}
		id, _ = r.LastInsertId()
	case err != nil:
		return 0, false, fmt.Errorf("put entry: %w", err)
	default:
		// Seen before: a verified claim stays verified; a candidate is promoted
		// when this session's evidence all aligned.
		if stage == StageCandidate && e.Stage == StageVerified {
			if _, err := t.exec(ctx, `UPDATE entries SET stage = ?, promotion_blocked = '' WHERE id = ?`, StageVerified, id); err != nil {
				return 0, false, fmt.Errorf("put entry: promote: %w", err)
			}
		}
		// An entry dates from when it was first said: an older session
		// imported after a newer one moves the date back.
		if !e.Created.IsZero() && FormatTime(e.Created) < createdAt {
			if _, err := t.exec(ctx, `UPDATE entries SET created_at = ? WHERE id = ?`, FormatTime(e.Created), id); err != nil {
				return 0, false, fmt.Errorf("put entry: date: %w", err)
			}
		}
		// The fact said again may be asked about in other terms: its
		// questions are added to those it had.
		if all := joinQuestions(MergeQuestions(splitQuestions(questions), e.Questions)); all != questions {
			if _, err := t.exec(ctx, `UPDATE entries SET questions = ? WHERE id = ?`, all, id); err != nil {
				return 0, false, fmt.Errorf("put entry: questions: %w", err)
			}
		}
	}
	return id, created, nil
}

// entryEvidence is a quote to store for the entry of an id.
type entryEvidence struct {
	entry int64
	Evidence
}

// insertSizes are the sizes of multi-row inserts, largest first: one
// statement per row (66 quotes a session in the realistic history) cost
// an import more than the rows themselves, and a few fixed sizes keep to a
// few statements to prepare.
var insertSizes = []int{64, 16, 4, 1}

// rowsPerInsert is how many of n rows to insert next.
func rowsPerInsert(n int) int {
	return insertSizes[slices.IndexFunc(insertSizes, func(k int) bool { return k <= n })]
}

// insertEvidence stores quotes, in order, leaving a quote an entry has
// from that session already as it is.
func (t *Tx) insertEvidence(ctx context.Context, quotes []entryEvidence) error {
	for len(quotes) > 0 {
		n := rowsPerInsert(len(quotes))
		args := make([]any, 0, 13*n)
		for _, q := range quotes[:n] {
			args = append(args, q.entry, q.EventID, q.SessionID, q.SourceUUID, q.MessageIndex, q.Quote,
				shortHash(q.Quote)[:32], q.SpanStart, q.SpanEnd, orNone(q.Method), q.Confidence, q.Failure, q.Ambiguous)
		}
		if _, err := t.exec(ctx, `INSERT INTO evidence
			(entry_id, event_id, session_id, source_uuid, message_index, quote, quote_hash, span_start, span_end, method, confidence, failure, ambiguous)
			VALUES `+repeated("(?, NULLIF(?, 0), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", n)+`
			ON CONFLICT(entry_id, session_id, quote_hash) DO NOTHING`, args...); err != nil {
			return fmt.Errorf("put entry: evidence: %w", err)
		}
		quotes = quotes[n:]
	}
	return nil
}

func orNone(m string) string {
	if m == "" {
		return "none"
	}
	return m
}

// cidDigits is the length of a citation id's hash when no other entry has
// it: firstCID.
const cidDigits = 6

// firstCID is the citation id newCID gives an entry unless another has it.
// MemoryID is the citation id a memory of project with claimKey is given
// first (another, longer, only when two keys share its digits).
func MemoryID(project, claimKey string) string { return firstCID(project, claimKey) }

func firstCID(project, claimKey string) string {
	return "mem:" + shortHash(project + "\x00" + claimKey)[:cidDigits]
}

// newCID derives a stable citation id from the claim, lengthened on the rare
// collision with another claim.
func newCID(ctx context.Context, t *Tx, project, claimKey string) (string, error) {
	h := shortHash(project + "\x00" + claimKey)
	for n := cidDigits; n <= len(h); n++ {
		cid := "mem:" + h[:n]
		var one int
		err := t.queryRow(ctx, `SELECT 1 FROM entries WHERE cid = ?`, cid).Scan(&one)
		if err == sql.ErrNoRows {
			return cid, nil
		}
		if err != nil {
			return "", fmt.Errorf("citation id: %w", err)
		}
	}
	return "", fmt.Errorf("citation id: no free id for %q", claimKey)
}

const entryColumns = `id, cid, project, session_id, type, title, body, subject, claim_key, stage, status,
	coalesce(superseded_by, 0), promotion_blocked, created_at, last_used_at, use_count, last_injected_at, inject_count,
	author, shared_id, questions`

func scanEntries(ctx context.Context, t *Tx, query string, args ...any) ([]Entry, error) {
	return queryAll(ctx, t, query, func(rows *sql.Rows) (e Entry, err error) {
		var created, used, injected, questions string
		err = rows.Scan(&e.ID, &e.CID, &e.Project, &e.SessionID, &e.Type, &e.Title, &e.Body, &e.Subject, &e.ClaimKey,
			&e.Stage, &e.Status, &e.SupersededBy, &e.PromotionBlocked, &created, &used, &e.UseCount, &injected, &e.InjectCount,
			&e.Author, &e.SharedID, &questions)
		e.Created, e.LastUsed, e.LastInjected = ParseTime(created), ParseTime(used), ParseTime(injected)
		e.Questions = splitQuestions(questions)
		return e, err
	}, args...)
}

// maxQuestions bounds the questions one memory keeps: a fact said in many
// sessions is asked about in a few ways, not in one per session.
const maxQuestions = 4

// MergeQuestions returns have with the questions of add it lacks (compared
// without case), at most maxQuestions, the earliest first.
func MergeQuestions(have, add []string) []string {
	out := slices.Clone(have)
	for _, q := range add {
		q = strings.Join(strings.Fields(q), " ")
		if q == "" || len(out) >= maxQuestions {
			continue
		}
		if !slices.ContainsFunc(out, func(h string) bool { return strings.EqualFold(h, q) }) {
			out = append(out, q)
		}
	}
	return out
}

// joinQuestions is how an entry's questions are stored: one a line.
func joinQuestions(qs []string) string { return strings.Join(MergeQuestions(nil, qs), "\n") }

func splitQuestions(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// loadEvidence fills in the evidence of entries with one query; given
// sessions, only the evidence from those sessions.
func loadEvidence(ctx context.Context, t *Tx, entries []Entry, sessions ...string) error {
	if len(entries) == 0 {
		return nil
	}
	index := make(map[int64]int, len(entries))
	args := make([]any, 0, len(entries)+len(sessions))
	for i, e := range entries {
		index[e.ID] = i
		args = append(args, e.ID)
	}
	where := `entry_id IN (` + placeholders(len(entries)) + `)`
	if len(sessions) > 0 {
		where += ` AND session_id IN (` + placeholders(len(sessions)) + `)`
		for _, s := range sessions {
			args = append(args, s)
		}
	}
	rows, err := t.query(ctx, `SELECT `+evidenceColumns+` FROM evidence WHERE `+where+` ORDER BY id`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		v, err := scanEvidence(rows)
		if err != nil {
			return err
		}
		i := index[v.EntryID]
		entries[i].Evidence = append(entries[i].Evidence, v)
	}
	return rows.Err()
}

// bestEvidence fills in at most n aligned evidence rows of each entry, the
// most confident first, reading n rows of the evidence_best index for each.
// One statement for all the entries: a statement each was 30 a prompt, a
// twentieth of the prompt hook's time.
func bestEvidence(ctx context.Context, t *Tx, entries []Entry, n int) error {
	at := make(map[int64][]int, len(entries)) // an entry's places in entries
	var ids []int64
	for i, e := range entries {
		if at[e.ID] == nil {
			ids = append(ids, e.ID)
		}
		at[e.ID] = append(at[e.ID], i)
	}
	if len(ids) == 0 {
		return nil
	}
	idList, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	vs, err := queryAll(ctx, t, `SELECT `+evidenceColumns+` FROM (SELECT key AS pos, value AS entry FROM json_each(?)) AS j
		JOIN evidence ON evidence.id IN (SELECT w.id FROM evidence w
			WHERE w.entry_id = j.entry AND w.method NOT IN ('', 'none') ORDER BY w.confidence DESC, w.id LIMIT ?)
		ORDER BY j.pos, confidence DESC, id`,
		func(rows *sql.Rows) (Evidence, error) { return scanEvidence(rows) }, string(idList), n)
	if err != nil {
		return fmt.Errorf("best evidence: %w", err)
	}
	for _, v := range vs {
		for _, i := range at[v.EntryID] {
			entries[i].Evidence = append(entries[i].Evidence, v)
		}
	}
	return nil
}

// QuotingEntries returns the ids of the entries that quote any of the
// events, through the evidence_event index.
func (db *DB) QuotingEntries(ctx context.Context, events []int64) ([]int64, error) {
	if len(events) == 0 {
		return nil, nil
	}
	ids, err := queryIDs(ctx, db.Read(), `SELECT DISTINCT entry_id FROM evidence WHERE event_id IN (`+placeholders(len(events))+`) ORDER BY entry_id`, int64Args(events)...)
	if err != nil {
		return nil, fmt.Errorf("quoting entries: %w", err)
	}
	return ids, nil
}

// EvidenceLinks returns, for each of the entries, which of the events it
// quotes: what ties a recalled message to the entry distilled from it,
// through the evidence_event index, however many quotes the entry has.
func (db *DB) EvidenceLinks(ctx context.Context, entries, events []int64) (map[int64][]int64, error) {
	if len(entries) == 0 || len(events) == 0 {
		return nil, nil
	}
	args := append(int64Args(events), int64Args(entries)...)
	pairs, err := queryAll(ctx, db.Read(), `SELECT DISTINCT entry_id, event_id FROM evidence
		WHERE event_id IN (`+placeholders(len(events))+`) AND entry_id IN (`+placeholders(len(entries))+`)
		ORDER BY entry_id, event_id`, func(rows *sql.Rows) (p [2]int64, err error) { return p, rows.Scan(&p[0], &p[1]) }, args...)
	if err != nil {
		return nil, fmt.Errorf("evidence links: %w", err)
	}
	links := map[int64][]int64{}
	for _, p := range pairs {
		links[p[0]] = append(links[p[0]], p[1])
	}
	return links, nil
}

const evidenceColumns = `id, entry_id, coalesce(event_id, 0), session_id, source_uuid, message_index, quote,
		span_start, span_end, method, confidence, failure, ambiguous`

func scanEvidence(sc interface{ Scan(...any) error }) (Evidence, error) {
	var v Evidence
	err := sc.Scan(&v.ID, &v.EntryID, &v.EventID, &v.SessionID, &v.SourceUUID, &v.MessageIndex, &v.Quote,
		&v.SpanStart, &v.SpanEnd, &v.Method, &v.Confidence, &v.Failure, &v.Ambiguous)
	return v, err
}

// EntryQuoted returns the entry with row id id and, as its only evidence, its
// best aligned quote: the most confident, the first stored of equals (what
// recall shows of an entry). A claim said in every session carries hundreds
// of evidence rows; a conflict warning and the brief need one.
func (t *Tx) EntryQuoted(ctx context.Context, id int64) (Entry, error) {
	es, err := t.EntriesQuoted(ctx, []int64{id})
	if err != nil {
		return Entry{}, err
	}
	e, ok := es[id]
	if !ok {
		return Entry{}, fmt.Errorf("entry: %w", ErrNotFound)
	}
	return e, nil
}

// EntriesQuoted is EntryQuoted of each of ids, by id, in two statements for
// them all: a prompt's conflict warnings read both sides of up to a dozen
// rows. An id of no entry is left out.
func (t *Tx) EntriesQuoted(ctx context.Context, ids []int64) (map[int64]Entry, error) {
	out := make(map[int64]Entry, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	es, err := t.Entries(ctx, EntryFilter{IDs: ids})
	if err != nil {
		return nil, fmt.Errorf("entry: %w", err)
	}
	if err := bestEvidence(ctx, t, es, 1); err != nil {
		return nil, fmt.Errorf("entry evidence: %w", err)
	}
	for _, e := range es {
		out[e.ID] = e
	}
	return out, nil
}

func entryTx(ctx context.Context, t *Tx, where string, args ...any) (Entry, error) {
	es, err := scanEntries(ctx, t, `SELECT `+entryColumns+` FROM entries WHERE `+where, args...)
	if err != nil {
		return Entry{}, fmt.Errorf("entry: %w", err)
	}
	if len(es) == 0 {
		return Entry{}, fmt.Errorf("entry: %w", ErrNotFound)
	}
	if err := loadEvidence(ctx, t, es[:1]); err != nil {
		return Entry{}, fmt.Errorf("entry evidence: %w", err)
	}
	return es[0], nil
}

// EntryByCID returns the entry with a citation id ("mem:ab12cd" or "ab12cd"),
// with its evidence, or an error wrapping ErrNotFound.
func (db *DB) EntryByCID(ctx context.Context, cid string) (Entry, error) {
	if !strings.HasPrefix(cid, "mem:") {
		cid = "mem:" + cid
	}
	return entryTx(ctx, db.Read(), "cid = ?", cid)
}

// EntryByID returns the entry with its evidence, or an error wrapping ErrNotFound.
func (t *Tx) EntryByID(ctx context.Context, id int64) (Entry, error) {
	return entryTx(ctx, t, "id = ?", id)
}

// EntryFilter selects entries. Zero fields do not filter.
type EntryFilter struct {
	Project   string
	SessionID string
	Subject   string
	Stages    []string
	Statuses  []string
	Types     []string
	IDs       []int64
	// Rivals selects the entries of Project that give one of these roles a
	// value other than the one given, or hold one of Values, through the
	// indexes of entry_roles (SetEntryRoles).
	Rivals []RoleValue
	Values []string
	// RolesUnparsed selects the entries whose roles were never set.
	RolesUnparsed bool
	Limit         int
	Evidence      bool // load evidence too
}

// Entries lists entries matching f, newest first.
func (t *Tx) Entries(ctx context.Context, f EntryFilter) ([]Entry, error) {
	var es []Entry
	var err error
	if len(f.Rivals)+len(f.Values) > 0 {
		es, err = t.rivals(ctx, f)
	} else {
		where, args := entryWhere(f, "")
		es, err = scanEntries(ctx, t, entriesQuery(entryColumns, "entries", where, f), args...)
	}
	if err != nil {
		return nil, fmt.Errorf("list entries: %w", err)
	}
	if f.Evidence {
		if err := loadEvidence(ctx, t, es); err != nil {
			return nil, fmt.Errorf("list entries: %w", err)
		}
	}
	return es, nil
}

// EntryIDs is Entries' ids, in its order, without reading the entries: for
// a caller that keeps the entries it has read (pipeline's facts). It ignores
// f.Evidence.
func (t *Tx) EntryIDs(ctx context.Context, f EntryFilter) ([]int64, error) {
	var ids []int64
	var err error
	if len(f.Rivals)+len(f.Values) > 0 {
		ids, err = t.rivalIDs(ctx, f)
	} else {
		where, args := entryWhere(f, "")
		ids, err = queryIDs(ctx, t, entriesQuery("id", "entries", where, f), args...)
	}
	if err != nil {
		return nil, fmt.Errorf("list entries: %w", err)
	}
	return ids, nil
}

// entryWhere is f's conditions but the roles, on the columns of the entries
// table as named by prefix ("e." in a join).
func entryWhere(f EntryFilter, prefix string) (where []string, args []any) {
	eq := func(col, v string) {
		if v != "" {
			where = append(where, prefix+col+" = ?")
			args = append(args, v)
		}
	}
	in := func(col string, vs []string) {
		if len(vs) > 0 {
			where = append(where, prefix+col+" IN ("+placeholders(len(vs))+")")
			for _, v := range vs {
				args = append(args, v)
			}
		}
	}
	eq("project", f.Project)
	eq("session_id", f.SessionID)
	eq("subject", f.Subject)
	in("stage", f.Stages)
	in("status", f.Statuses)
	in("type", f.Types)
	if len(f.IDs) > 0 {
		where = append(where, prefix+"id IN ("+placeholders(len(f.IDs))+")")
		for _, id := range f.IDs {
			args = append(args, id)
		}
	}
	if f.RolesUnparsed {
		where = append(where, prefix+"roles_parsed = 0")
	}
	if f.Subject != "" {
		// A subject's entries are few: look them up through the partial
		// index on (project, subject), which the planner uses only given
		// subject <> '', and sort them. Walking the project's entries in
		// date order instead (its choice otherwise) made conflict detection
		// read every entry of the project for each subject.
		where = append(where, prefix+"subject <> ''")
	}
	return where, args
}

// entriesQuery selects cols from the entries in from matching where, newest first.
func entriesQuery(cols, from string, where []string, f EntryFilter) string {
	order := "created_at"
	if f.Subject != "" || f.RolesUnparsed {
		// See entryWhere: few entries have a subject, fewer still no roles
		// yet; walking the project's entries by date for them read them all,
		// at every session an import stored (a tenth of its time).
		order = "+created_at"
	}
	if len(f.IDs) > 0 {
		// Entries given by id are looked up by id (NOT INDEXED leaves SQLite
		// the primary key only) and sorted. Given a project too, it walked
		// the project's entries by date to spare the sort, or by status,
		// reading more of them the larger the store: 35,000 virtual machine
		// steps for three ids in a 55k-message import's store, where looking
		// them up takes a few dozen. An import reads its rivals and facts so.
		from += " NOT INDEXED"
	}
	q := `SELECT ` + cols + ` FROM ` + from
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY " + order + " DESC, id DESC"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	return q
}

// rivals lists the entries matching f that give one of f.Rivals' roles
// another value or hold one of f.Values, newest first. Each role's and each
// value's newest are found apart, through entry_roles' indexes by role or
// value and date: a common role (a path) has thousands of entries, and
// finding the newest few among them by walking the project's entries by date
// read most of them (a rare value, all of them). The newest of what the
// lookups found are the newest of all.
func (t *Tx) rivals(ctx context.Context, f EntryFilter) ([]Entry, error) {
	ids, err := t.rivalIDs(ctx, f)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	es, err := scanEntries(ctx, t, `SELECT `+entryColumns+` FROM entries WHERE id IN (`+placeholders(len(ids))+`)`, int64Args(ids)...)
	if err != nil {
		return nil, err
	}
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	sort.Slice(es, func(i, j int) bool { return at[es[i].ID] < at[es[j].ID] })
	return es, nil
}

// roleRow is an entry a role lookup found, and its date.
type roleRow struct {
	id      int64
	created string
}

// rivalIDs is rivals' ids, in its order, without reading the entries.
func (t *Tx) rivalIDs(ctx context.Context, f EntryFilter) ([]int64, error) {
	var all []roleRow
	seen := map[int64]bool{}
	add := func(q string, args []any) error {
		key := ""
		if t.tx != nil {
			key = fmt.Sprintf("%s\x00%#v", q, args)
		}
		found, ok := t.looked[key]
		if !ok {
			var err error
			if found, err = queryAll(ctx, t, q, func(rows *sql.Rows) (x roleRow, err error) {
				return x, rows.Scan(&x.id, &x.created)
			}, args...); err != nil {
				return err
			}
			if key != "" {
				if t.looked == nil {
					t.looked = map[string][]roleRow{}
				}
				t.looked[key] = found
			}
		}
		for _, x := range found {
			if !seen[x.id] {
				seen[x.id] = true
				all = append(all, x)
			}
		}
		return nil
	}
	limit := ""
	if f.Limit > 0 {
		limit = fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	base, baseArgs := entryWhere(f, "e.")
	lookup := func(cond string, condArgs ...any) error {
		// DISTINCT: an entry giving a role two other values has two rows.
		where := append([]string{"r.project = ?", cond}, base...)
		args := append(append([]any{f.Project}, condArgs...), baseArgs...)
		return add(`SELECT DISTINCT r.entry_id, r.created_at FROM entry_roles r JOIN entries e ON e.id = r.entry_id
			WHERE `+strings.Join(where, " AND ")+` ORDER BY r.created_at DESC, r.entry_id DESC`+limit, args)
	}
	for _, r := range f.Rivals {
		if err := lookup("r.role = ? AND r.value <> ?", r.Role, r.Value); err != nil {
			return nil, err
		}
	}
	for _, v := range f.Values {
		if err := lookup("r.value = ?", v); err != nil {
			return nil, err
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].created != all[j].created {
			return all[i].created > all[j].created
		}
		return all[i].id > all[j].id
	})
	if f.Limit > 0 && len(all) > f.Limit {
		all = all[:f.Limit]
	}
	ids := make([]int64, len(all))
	for i, x := range all {
		ids[i] = x.id
	}
	return ids, nil
}

// EntryQuery selects entries by full-text match.
type EntryQuery struct {
	Match     Match
	Project   string
	SessionID string   // the session it was first extracted from; "" for all
	Types     []string // decision, fact, ...; empty for all
	Stages    []string
	Statuses  []string
	Limit     int
	// Quotes, when not 0, loads at most this many aligned evidence rows per
	// entry, the most confident first, instead of all of them: a claim said
	// in every session carries thousands, and reading them was the costliest
	// query of the prompt path (EvidenceLinks finds which messages an entry
	// quotes).
	Quotes int
	// RankNewest, when not 0, ranks by BM25 only the newest this many of the
	// entries Match selects: FTS5 finds them walking its index backwards and
	// stops, where ranking evaluates every match (1,171 of 9,244 entries for
	// two common words, 2.7 ms).
	RankNewest int
}

// EntryHit is an entry found by SearchEntries with its BM25 score (higher is better).
type EntryHit struct {
	Entry
	Score float64
}

// SearchEntries ranks entries by BM25 over title, body, subject and questions.
func (db *DB) SearchEntries(ctx context.Context, q EntryQuery) ([]EntryHit, error) {
	expr := q.Match.expr()
	if expr == "" {
		return nil, nil
	}
	where := []string{"entries_fts MATCH ?"}
	args := []any{expr}
	if q.Project != "" {
		where = append(where, "e.project = ?")
		args = append(args, q.Project)
	}
	if q.SessionID != "" {
		where = append(where, "e.session_id = ?")
		args = append(args, q.SessionID)
	}
	// Literals, so that a prompt's searches of one shape share a prepared
	// statement (sqlStrings).
	if len(q.Types) > 0 {
		where = append(where, "e.type IN ("+sqlStrings(q.Types)+")")
	}
	if len(q.Stages) > 0 {
		where = append(where, "e.stage IN ("+sqlStrings(q.Stages)+")")
	}
	if len(q.Statuses) > 0 {
		where = append(where, "e.status IN ("+sqlStrings(q.Statuses)+")")
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	if q.RankNewest > 0 {
		var n, oldest int64
		err := db.Read().queryRow(ctx, `SELECT count(*), coalesce(min(rowid), 0) FROM (SELECT rowid FROM entries_fts
			WHERE entries_fts MATCH ? ORDER BY rowid DESC LIMIT ?)`, expr, q.RankNewest).Scan(&n, &oldest)
		if err != nil {
			return nil, fmt.Errorf("search entries: %w", err)
		}
		if n == int64(q.RankNewest) {
			where = append(where, "entries_fts.rowid >= ?")
			args = append(args, oldest)
		}
	}
	rows, err := db.Read().query(ctx, `SELECT e.id, -bm25(entries_fts, 2.0, 1.0, 1.5, 1.0) FROM entries_fts
		JOIN entries e ON e.id = entries_fts.rowid
		WHERE `+strings.Join(where, " AND ")+`
		ORDER BY bm25(entries_fts, 2.0, 1.0, 1.5, 1.0) LIMIT `+fmt.Sprint(limit), args...)
	if err != nil {
		return nil, fmt.Errorf("search entries: %w", err)
	}
	var ids []int64
	scores := map[int64]float64{}
	for rows.Next() {
		var id int64
		var s float64
		if err := rows.Scan(&id, &s); err != nil {
			rows.Close()
			return nil, fmt.Errorf("search entries: %w", err)
		}
		ids = append(ids, id)
		scores[id] = s
	}
	rows.Close()
	if len(ids) == 0 {
		return nil, rows.Err()
	}
	es, err := db.Read().Entries(ctx, EntryFilter{IDs: ids, Evidence: q.Quotes == 0})
	if err == nil && q.Quotes > 0 {
		err = bestEvidence(ctx, db.Read(), es, q.Quotes)
	}
	if err != nil {
		return nil, err
	}
	byID := map[int64]Entry{}
	for _, e := range es {
		byID[e.ID] = e
	}
	out := make([]EntryHit, 0, len(ids))
	for _, id := range ids {
		out = append(out, EntryHit{Entry: byID[id], Score: scores[id]})
	}
	return out, nil
}

// SetStage moves an entry to a stage (certify, reject) and records the event.
func (db *DB) SetStage(ctx context.Context, id int64, stage string, ev Event) error {
	return db.updateEntry(ctx, `UPDATE entries SET stage = ? WHERE id = ?`, []any{stage, id}, ev)
}

// SetText changes an entry's type, title and body, a user's correction,
// and records the event; the full-text index follows through its trigger.
func (db *DB) SetText(ctx context.Context, id int64, typ, title, body string, ev Event) error {
	return db.updateEntry(ctx, `UPDATE entries SET type = ?, title = ?, body = ? WHERE id = ?`, []any{typ, title, body, id}, ev)
}

// Reword gives an entry the title and body of a later statement of its
// fact that reads better on its own (pipeline's merge); its id, claim key,
// quotes and questions stay. The full-text index follows through its
// trigger. One's own shared memory goes to the team again, so teammates
// read the new wording too.
func (t *Tx) Reword(ctx context.Context, id int64, title, body string) error {
	if _, err := t.exec(ctx, `UPDATE entries SET title = ?, body = ? WHERE id = ?`, title, body, id); err != nil {
		return fmt.Errorf("reword entry %d: %w", id, err)
	}
	return t.ShareCorrection(ctx, id)
}

// Pinned returns the ids of the project's entries that are pinned: the last
// of their entry_pinned and entry_unpinned events is a pin.
func (db *DB) Pinned(ctx context.Context, project string) (map[string]bool, error) {
	evs, err := db.Read().Events(ctx, EventFilter{Project: project, Types: []string{TypePinned, TypeUnpinned}})
	if err != nil {
		return nil, fmt.Errorf("pinned: %w", err)
	}
	out := map[string]bool{}
	for _, e := range evs {
		var v struct {
			CID string `json:"cid"`
		}
		if json.Unmarshal(e.Payload, &v) != nil || v.CID == "" {
			continue
		}
		if e.Type == TypePinned {
			out[v.CID] = true
		} else {
			delete(out, v.CID)
		}
	}
	return out, nil
}

// SetStatus changes an entry's status (contested, superseded), pointing a
// superseded entry at its successor, and records the event.
func (db *DB) SetStatus(ctx context.Context, id int64, status string, supersededBy int64, ev Event) error {
	return db.updateEntry(ctx, `UPDATE entries SET status = ?, superseded_by = NULLIF(?, 0) WHERE id = ?`, []any{status, supersededBy, id}, ev)
}

func (db *DB) updateEntry(ctx context.Context, q string, args []any, ev Event) error {
	err := db.Update(ctx, func(t *Tx) error {
		if ev.Type != "" {
			if _, err := t.Append(ctx, ev); err != nil {
				return err
			}
		}
		if _, err := t.exec(ctx, q, args...); err != nil {
			return err
		}
		// The entry's id is the statement's last argument.
		return t.ShareCorrection(ctx, args[len(args)-1].(int64))
	})
	if err != nil {
		return fmt.Errorf("update entry: %w", err)
	}
	return nil
}

// MarkInjected records ev, the memory_injected event of one prompt, and
// bumps the injection count and last-injected time of the entries its
// payload's "memories" name, in one transaction. The event alone says what
// to count, so a spooled injection (Spool) is counted when it is folded in,
// and an entry forgotten meanwhile is not. Being shown is not being used:
// MarkUsed counts uses.
func (db *DB) MarkInjected(ctx context.Context, ev Event) error {
	return db.Update(ctx, func(t *Tx) error { return t.MarkInjected(ctx, ev) })
}

// errNoInjection is an event MarkInjected cannot count.
var errNoInjection = errors.New("mark injected: not a memory_injected event whose payload is a JSON object")

// MarkInjected is DB.MarkInjected in t. Memories its payload names that
// are gone (forgotten after the prompt hook read them, before this stores
// its record) are left out of the event, as forget leaves them out of the
// injections it keeps.
func (t *Tx) MarkInjected(ctx context.Context, ev Event) error {
	var p map[string]json.RawMessage
	var cids []string
	if ev.Type != TypeMemoryInjected || json.Unmarshal(ev.Payload, &p) != nil || json.Unmarshal(p["memories"], &cids) != nil {
		return fmt.Errorf("%w: %s", errNoInjection, ev.DedupeKey)
	}
	var entries []string
	var events []int64
	for _, cid := range cids {
		if id, ok := ParseEventCID(cid); ok {
			events = append(events, id) // a message: cited, with no counts
		} else {
			entries = append(entries, cid)
		}
	}
	type entry struct {
		id  int64
		cid string
	}
	var found []entry
	for _, c := range chunkStrings(entries) {
		es, err := queryAll(ctx, t, `SELECT id, cid FROM entries WHERE cid IN (`+placeholders(len(c))+`)`,
			func(r *sql.Rows) (e entry, err error) { return e, r.Scan(&e.id, &e.cid) }, stringArgs(c)...)
		if err != nil {
			return fmt.Errorf("mark injected: %w", err)
		}
		found = append(found, es...)
	}
	stored := map[string]bool{}
	ids := make([]int64, len(found))
	for i, e := range found {
		stored[e.cid], ids[i] = true, e.id
	}
	for _, c := range chunks(events) {
		have, err := queryColumn[int64](ctx, t, `SELECT id FROM events WHERE id IN (`+placeholders(len(c))+`)`, int64Args(c)...)
		if err != nil {
			return fmt.Errorf("mark injected: %w", err)
		}
		for _, id := range have {
			stored[EventCID(id)] = true
		}
	}
	if kept := slices.DeleteFunc(slices.Clone(cids), func(cid string) bool { return !stored[cid] }); len(kept) < len(cids) {
		p["memories"], _ = json.Marshal(kept)
		ev.Payload, _ = json.Marshal(p)
		ev.prepared = false
	}
	if ev.Time.IsZero() {
		ev.Time = t.db.Now() // what append stores for it
	}
	return t.bump(ctx, "inject_count", "last_injected_at", ids, ev.Time, ev)
}

// MarkUsed bumps the use count and last-used time of entries an answer cited
// after being shown them, and records the event that says so, in one
// transaction. An event already recorded (the same turn checked again)
// changes nothing.
func (db *DB) MarkUsed(ctx context.Context, ids []int64, at time.Time, ev Event) error {
	return db.Update(ctx, func(t *Tx) error { return t.bump(ctx, "use_count", "last_used_at", ids, at, ev) })
}

func (t *Tx) bump(ctx context.Context, count, last string, ids []int64, at time.Time, ev Event) error {
	res, err := t.append(ctx, at, []Event{ev})
	if err != nil {
		return fmt.Errorf("bump %s: %w", count, err)
	}
	if res.Added == 0 {
		return nil // this turn was recorded already
	}
	for _, id := range ids {
		if _, err := t.exec(ctx, `UPDATE entries SET `+count+` = `+count+` + 1, `+last+` = ? WHERE id = ?`, FormatTime(at), id); err != nil {
			return fmt.Errorf("bump %s: %w", count, err)
		}
	}
	return nil
}

// Conflict is a recorded disagreement between two entries.
type Conflict struct {
	ID         int64
	Older      int64
	Newer      int64
	Kind       string // supersedes (newer replaces older) or contradicts
	Reason     string
	Detected   time.Time
	Resolution string
}

// AddConflict records a conflict between two entries with its event and the
// status change it implies: supersedes marks the older entry superseded,
// contradicts marks both contested. A conflict already recorded is left alone.
func (db *DB) AddConflict(ctx context.Context, c Conflict, ev Event) (bool, error) {
	var n int
	err := db.Update(ctx, func(t *Tx) error {
		var err error
		n, err = t.AddConflicts(ctx, []ConflictWrite{{Conflict: c, Event: ev}})
		return err
	})
	if err != nil {
		return false, fmt.Errorf("add conflict: %w", err)
	}
	return n == 1, nil
}

// ConflictWrite is one conflict for AddConflicts with the event recording it.
type ConflictWrite struct {
	Conflict Conflict
	Event    Event
}

// RoleValue is one decision of an entry: a role and the value it gives it.
type RoleValue struct{ Role, Value string }

// SetEntryRoles records the roles an entry's claims fill and their values,
// replacing those recorded before, and marks the entry parsed (an empty
// list included).
func (t *Tx) SetEntryRoles(ctx context.Context, id int64, project string, rvs []RoleValue) error {
	return t.SetRoles(ctx, project, []EntryRoles{{ID: id, Roles: rvs}})
}

// EntryRoles are the roles an entry's claims fill, for SetRoles.
type EntryRoles struct {
	ID    int64
	Roles []RoleValue
}

// SetRoles is SetEntryRoles for several entries of a project, in a few
// statements for all of them: per entry, a read of its rows, their inserts
// and the mark were 4 % of an import. An entry listed twice gets the
// roles listed last.
func (t *Tx) SetRoles(ctx context.Context, project string, es []EntryRoles) error {
	if err := t.setRoles(ctx, project, es); err != nil {
		return fmt.Errorf("set entry roles: %w", err)
	}
	return nil
}

func (t *Tx) setRoles(ctx context.Context, project string, es []EntryRoles) error {
	if len(es) == 0 {
		return nil
	}
	last := make(map[int64]int, len(es))
	ids := make([]int64, 0, len(es))
	for i, e := range es {
		if _, ok := last[e.ID]; !ok {
			ids = append(ids, e.ID)
		}
		last[e.ID] = i
	}
	idList, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	// Only the rows that differ are written. A claim said again in a later
	// session mostly parses as before, or gains or loses a value with that
	// session's quotes: rewriting all its rows each time was a tenth of an
	// import's time. The rows kept have the entry's date already, through
	// the entries_roles_date trigger.
	type row struct {
		id int64
		projectRole
	}
	have, err := queryAll(ctx, t, `SELECT entry_id, role, value, project FROM entry_roles WHERE entry_id IN (SELECT value FROM json_each(?))`,
		func(rows *sql.Rows) (r row, err error) { return r, rows.Scan(&r.id, &r.Role, &r.Value, &r.project) }, string(idList))
	if err != nil {
		return err
	}
	want := make(map[int64]map[RoleValue]bool, len(ids))
	for _, id := range ids {
		rvs := es[last[id]].Roles
		want[id] = make(map[RoleValue]bool, len(rvs))
		for _, r := range rvs {
			want[id][r] = true
		}
	}
	kept := map[row]bool{}
	for _, r := range have {
		if want[r.id][r.RoleValue] && r.project == project {
			kept[row{r.id, projectRole{RoleValue: r.RoleValue}}] = true
			continue
		}
		if _, err := t.exec(ctx, `DELETE FROM entry_roles WHERE entry_id = ? AND role = ? AND value = ?`, r.id, r.Role, r.Value); err != nil {
			return err
		}
	}
	var add []row
	for _, id := range ids {
		for _, r := range es[last[id]].Roles {
			k := row{id, projectRole{RoleValue: r}}
			if !kept[k] {
				kept[k] = true // a role listed twice is inserted once
				add = append(add, k)
			}
		}
	}
	for len(add) > 0 {
		n := rowsPerInsert(len(add))
		args := make([]any, 0, 5*n)
		for _, r := range add[:n] {
			args = append(args, r.id, project, r.Role, r.Value, r.id)
		}
		// With the entry's date, for the index rivals walks newest first.
		if _, err := t.exec(ctx, `INSERT INTO entry_roles (entry_id, project, role, value, created_at) VALUES `+
			repeated(`(?, ?, ?, ?, coalesce((SELECT created_at FROM entries WHERE id = ?), ''))`, n)+
			` ON CONFLICT DO NOTHING`, args...); err != nil {
			return err
		}
		add = add[n:]
	}
	_, err = t.exec(ctx, `UPDATE entries SET roles_parsed = 1 WHERE id IN (SELECT value FROM json_each(?)) AND roles_parsed = 0`, string(idList))
	return err
}

// projectRole is a row of entry_roles: a decision and its project.
type projectRole struct {
	RoleValue
	project string
}

// roleValuesQuery names its index: left to choose, SQLite walked
// entry_roles_value_recent, already in value order for DISTINCT, through
// every role of the project (5,200 rows for a role of 800 in the 10k bench
// store, a hundred pages a prompt) instead of this role's rows alone. The
// table is WITHOUT ROWID, so the index holds value too. The few distinct
// values are sorted in Go: with ORDER BY, SQLite sorted every row of the
// role before dropping the repeats (a role of 2,700 rows at 100k messages:
// 1.3 ms a prompt, 0.6 ms without).
const roleValuesQuery = `SELECT DISTINCT value FROM entry_roles INDEXED BY entry_roles_recent WHERE project = ? AND role = ?`

// RoleValues lists the values the project's entries give a role, in byte
// order, through entry_roles_recent without reading the entries.
func (t *Tx) RoleValues(ctx context.Context, project, role string) ([]string, error) {
	vs, err := queryColumn[string](ctx, t, roleValuesQuery, project, role)
	if err != nil {
		return nil, fmt.Errorf("role values: %w", err)
	}
	// Go compares strings byte by byte, as SQLite's BINARY collation does.
	slices.Sort(vs)
	return vs, nil
}

// AddConflicts is AddConflict for several conflicts, in order. It returns
// how many were new.
func (t *Tx) AddConflicts(ctx context.Context, cs []ConflictWrite) (int, error) {
	evs := make([]Event, len(cs))
	for i, c := range cs {
		evs[i] = c.Event
	}
	now := t.db.Now()
	if _, err := t.append(ctx, now, evs); err != nil {
		return 0, err
	}
	added := 0
	for _, w := range cs {
		c := w.Conflict
		at := c.Detected
		if at.IsZero() {
			at = now
		}
		// Its reason is said text: what a forget left a rule for is not
		// written back (forget_rule.go).
		if forgotten, err := t.Forgets(ctx, at, w.Event.SessionID, w.Event.Project, c.Reason); err != nil || forgotten {
			if err != nil {
				return 0, fmt.Errorf("add conflict: %w", err)
			}
			continue
		}
		r, err := t.exec(ctx, `INSERT INTO conflicts (older, newer, kind, reason, detected_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT(older, newer) DO NOTHING`, c.Older, c.Newer, c.Kind, c.Reason, FormatTime(at))
		if err != nil {
			return 0, fmt.Errorf("add conflict: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			continue
		}
		added++
		switch c.Kind {
		case "supersedes":
			_, err = t.exec(ctx, `UPDATE entries SET status = ?, superseded_by = ? WHERE id = ?`, StatusSuperseded, c.Newer, c.Older)
		default:
			_, err = t.exec(ctx, `UPDATE entries SET status = ? WHERE id IN (?, ?) AND status = ?`, StatusContested, c.Older, c.Newer, StatusActive)
		}
		if err != nil {
			return 0, fmt.Errorf("add conflict: %w", err)
		}
	}
	return added, nil
}

// Conflicts lists the conflicts involving any of the entries (all when ids
// is empty), oldest first, at most limit of them (0: all). A claim restated
// in every session can be in hundreds.
func (db *DB) Conflicts(ctx context.Context, ids []int64, limit int) ([]Conflict, error) {
	q := `SELECT id, older, newer, kind, reason, detected_at, resolution FROM conflicts`
	var args []any
	if len(ids) > 0 {
		p := placeholders(len(ids))
		q += ` WHERE older IN (` + p + `) OR newer IN (` + p + `)`
		for range 2 {
			for _, id := range ids {
				args = append(args, id)
			}
		}
	}
	q += ` ORDER BY id`
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	out, err := scanConflicts(db.Read().query(ctx, q, args...))
	if err != nil {
		return nil, fmt.Errorf("list conflicts: %w", err)
	}
	return out, nil
}

// OpenConflicts lists a project's unresolved contradictions, newest first
// ("" lists every project's). It starts from the conflicts table, which is
// small, rather than from entries.
func (db *DB) OpenConflicts(ctx context.Context, project string, limit int) ([]Conflict, error) {
	rows, err := db.Read().query(ctx, `SELECT c.id, c.older, c.newer, c.kind, c.reason, c.detected_at, c.resolution
		FROM conflicts c JOIN entries e ON e.id = c.older
		WHERE c.kind = 'contradicts' AND c.resolution = '' AND (? = '' OR e.project = ?) AND e.status = ?
		ORDER BY c.id DESC LIMIT ?`, project, project, StatusContested, limit)
	out, err := scanConflicts(rows, err)
	if err != nil {
		return nil, fmt.Errorf("open conflicts: %w", err)
	}
	return out, nil
}

// scanConflicts reads the rows of a query selecting the conflicts table's
// columns in order.
func scanConflicts(rows *sql.Rows, err error) ([]Conflict, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Conflict
	for rows.Next() {
		var c Conflict
		var at string
		if err := rows.Scan(&c.ID, &c.Older, &c.Newer, &c.Kind, &c.Reason, &at, &c.Resolution); err != nil {
			return nil, err
		}
		c.Detected = ParseTime(at)
		out = append(out, c)
	}
	return out, rows.Err()
}

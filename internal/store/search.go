package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Match selects rows by full-text match on words, which are user text: the
// store quotes each one when it builds the FTS5 MATCH expression, so no word
// can be read as FTS5 syntax (a stray quote, a minus sign, a column filter).
// The zero Match, or one with only empty words, selects nothing.
type Match struct {
	Words  []string
	All    bool // rows holding every word; otherwise any of them
	Prefix bool // each word also matches as a prefix
	// Stems matches an ASCII word by its stem alone, as the index stores it
	// ("ports" holds "port"), and only words in other scripts also as a
	// prefix (the index keeps a Korean word with its particle). A prefix
	// query merges the document lists of every word it starts: "port*" is
	// port, portal, porter, ports..., 23,000 messages of 190,000.
	Stems bool
}

// MatchStems is a Match of rows holding any of the words, ASCII words by
// their stem and others also as a prefix (see Match.Stems).
func MatchStems(words []string) Match { return Match{Words: words, Stems: true} }

// MatchAny is a Match of rows holding any of the words; with prefix, each
// word also matches as a prefix.
func MatchAny(words []string, prefix bool) Match { return Match{Words: words, Prefix: prefix} }

// MatchAll is MatchAny for rows that hold every one of the words.
func MatchAll(words []string, prefix bool) Match {
	return Match{Words: words, All: true, Prefix: prefix}
}

// Empty reports whether m selects nothing.
func (m Match) Empty() bool { return m.expr() == "" }

// expr is the FTS5 expression of m; "" for a Match of no words.
func (m Match) expr() string {
	op := " OR "
	if m.All {
		op = " AND "
	}
	var b strings.Builder
	seen := make(map[string]bool, len(m.Words))
	for _, t := range m.Words {
		// A word twice selects the same rows once, but FTS5 reads its
		// document list twice: for a prefix of a common word, megabytes.
		if strings.TrimSpace(strings.ReplaceAll(t, "\x00", "")) == "" || seen[t] {
			continue
		}
		seen[t] = true
		if b.Len() > 0 {
			b.WriteString(op)
		}
		// Among stems, a word ending in "*" is a prefix: a word of another
		// language searched by the part it shares with its cognates.
		t, star := strings.CutSuffix(t, "*")
		b.WriteString(quoteTerm(t))
		if m.Prefix || m.Stems && (star || !ascii(t)) {
			b.WriteString("*")
		}
	}
	return b.String()
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// quoteTerm quotes one term for an FTS5 MATCH expression.
func quoteTerm(term string) string {
	// FTS5 reads a NUL byte as the end of the string, which leaves the quote open.
	term = strings.ReplaceAll(term, "\x00", "")
	return `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
}

// EventQuery selects events by full-text match.
type EventQuery struct {
	Match          Match
	Project        string // "" for all projects
	ExcludeSession string
	SessionID      string // "" for every session
	Types          []string
	Since          time.Time
	Until          time.Time // only events before this; zero for no bound
	// After ranks only the events whose id is greater: FTS5 skips the rest
	// of each document list, so a query of common words costs what the
	// newest of their rows cost instead of all of them.
	After int64
	Limit int
	// Newest returns the newest matches, unranked: FTS5 walks its index in
	// row order and stops at Limit, where ranking by BM25 evaluates every
	// match first.
	Newest bool
}

// CountEventMatches counts the events m selects, up to limit: a cheap
// estimate of what ranking them would cost (FTS5 walks the term's document
// list without computing BM25).
func (db *DB) CountEventMatches(ctx context.Context, m Match, limit int) (int, error) {
	expr := m.expr()
	if expr == "" {
		return 0, nil
	}
	var n int
	err := db.Read().queryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM events_fts WHERE events_fts MATCH ? LIMIT ?)`, expr, limit).Scan(&n)
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
	expr := q.Match.expr()
	if expr == "" {
		return nil, nil
	}
	where := []string{"events_fts MATCH ?"}
	args := []any{expr}
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
		// Literals, so that a prompt's searches of one shape share a
		// prepared statement (sqlStrings).
		where = append(where, "e.type IN ("+sqlStrings(q.Types)+")")
	}
	if !q.Since.IsZero() {
		where = append(where, "e.ts >= ?")
		args = append(args, FormatTime(q.Since))
	}
	if !q.Until.IsZero() {
		where = append(where, "e.ts < ?")
		args = append(args, FormatTime(q.Until))
	}
	// The bound is there when no After is given too, as 0 (every rowid is
	// above it): the prompt path searches with a window and then without
	// (recall's messageItems), and one statement is prepared once in a
	// process where two were each prepared, the costliest statement of
	// the hook to prepare.
	where = append(where, "events_fts.rowid > ?")
	args = append(args, max(q.After, 0))
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	score, order, outer := "-bm25(events_fts)", "bm25(events_fts)", "r.score DESC, r.id"
	if q.Newest {
		score, order, outer = "0", "events_fts.rowid DESC", "r.id DESC"
	}
	// The matches are ranked by id and score alone, and only the rows
	// that make the limit are read whole: carrying every match's text and
	// payload through the sort cost more than ranking it. The outer query
	// sorts the few rows kept again, so that their order does not hang on
	// the plan; equal scores come oldest first, as the full-text index
	// yields them.
	sqlq := `SELECT e.id, e.ts, e.type, e.session_id, e.project, e.source_uuid, e.text, e.payload, e.dedupe_key, e.checksum, r.score
		FROM (SELECT events_fts.rowid AS id, ` + score + ` AS score
			FROM events_fts JOIN events e ON e.id = events_fts.rowid
			WHERE ` + strings.Join(where, " AND ") + `
			ORDER BY ` + order + ` LIMIT ` + fmt.Sprint(limit) + `) AS r
		JOIN events e ON e.id = r.id
		ORDER BY ` + outer
	rows, err := db.Read().query(ctx, sqlq, args...)
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

// termWindow and termSample bound what counting a word costs: a word in
// termSample or more of the newest termWindow events is counted there and
// the count scaled to the store. Counting walks the word's whole document
// list (0.5 ms for one in 20,000 of 190,000 messages, a prompt has several),
// and the count only weighs a prompt's words by rarity, on a log scale; a
// rarer word is counted exactly, cheaply.
const (
	termWindow = 8192
	termSample = 32
)

// TermDocs counts, for each word, the events whose text holds it as the
// full-text index matches it (an ASCII word by its porter stem, "cache"
// finds "caching"; a word ending in "*" as a prefix, a Korean word with its
// particle attached), and returns an estimate of how many events there are:
// what recall needs to weigh a prompt's words by rarity. A common word's
// count is estimated from the newest events (termWindow); a word no event
// holds is counted in the memories' questions. The newest sessionTurns
// prompts and answers of session exclude ("" for none) are not counted in
// a word's exact count: the prompt being answered can be stored before
// recall reads the store, and the session's earlier turns echo its words,
// so every word of it would count as one the project wrote, and none as
// unseen. The estimate of a common word is not corrected: a word in many
// of the newest events is common whatever the session said (one repeated
// in every turn of a long session is counted common too). The session's
// tool runs count: a file it read is the project's. said reports the words
// the session's turns hold: not the project's, yet a search for them finds
// the memories that say them.
func (db *DB) TermDocs(ctx context.Context, words []string, exclude string) (docs []int, said []bool, total int, err error) {
	docs, said = make([]int, len(words)), make([]bool, len(words))
	// max(id) is read from the table's b-tree in one step; events without
	// text count too, which only flattens every weight a little.
	if err := db.Read().queryRow(ctx, `SELECT coalesce(max(id), 0) FROM events`).Scan(&total); err != nil {
		return nil, nil, 0, fmt.Errorf("term docs: %w", err)
	}
	// The session's turns, read once: their ids, and the first of them,
	// from which the index is scanned for a word's matches among them (the
	// newest events, the end of each word's list).
	var own string
	var first int64
	if exclude != "" {
		if err := db.Read().queryRow(ctx, `SELECT coalesce(json_group_array(id), '[]'), coalesce(min(id), 0) FROM (SELECT id FROM events WHERE session_id = ? AND type IN ('`+TypeUserPrompt+`', '`+TypeAgentResponse+`') ORDER BY id DESC LIMIT ?)`,
			exclude, sessionTurns).Scan(&own, &first); err != nil {
			return nil, nil, 0, fmt.Errorf("term docs: %w", err)
		}
	}
	for i, w := range words {
		p, prefix := strings.CutSuffix(w, "*")
		m := Match{Words: []string{p}, Prefix: prefix}
		if m.Empty() {
			continue
		}
		if total > termWindow {
			// A word in many of the newest events is common whatever the
			// session's few turns say.
			n, err := db.countMatches(ctx, m, int64(total-termWindow))
			if err != nil {
				return nil, nil, 0, err
			}
			if n >= termSample {
				docs[i] = n * total / termWindow
				continue
			}
		}
		n, err := db.countMatches(ctx, m, 0)
		if err != nil {
			return nil, nil, 0, err
		}
		if n > 0 && first > 0 { // the session has turns (ids start at 1)
			// "+rowid" keeps the list out of the index's choice, so that
			// the scan starts at first.
			var in int
			err := db.Read().queryRow(ctx, `SELECT count(*) FROM events_fts WHERE events_fts MATCH ? AND rowid >= ? AND +rowid IN (SELECT value FROM json_each(?))`,
				m.expr(), first, own).Scan(&in)
			if err != nil {
				return nil, nil, 0, fmt.Errorf("term docs: %w", err)
			}
			n, said[i] = max(n-in, 0), in > 0
		}
		if docs[i] = n; n == 0 {
			// A word no message holds may be one a memory's questions ask
			// it by ("which package manager"): a word of the project all
			// the same.
			if docs[i], err = db.countQuestions(ctx, m); err != nil {
				return nil, nil, 0, err
			}
		}
	}
	return docs, said, total, nil
}

// sessionTurns is how many of a session's newest prompts and answers
// TermDocs leaves out of its counts: a long session's recent turns.
const sessionTurns = 200

// AnyHolds reports whether any event's text holds one of words (as
// MatchAny finds them): one query where TermDocs asks two or three a word,
// for callers that only go on when some word is there at all.
func (db *DB) AnyHolds(ctx context.Context, words []string) (bool, error) {
	m := MatchAny(words, false)
	if m.Empty() {
		return false, nil
	}
	n, err := db.countMatches(ctx, m, 0)
	return n > 0, err
}

// VocabDocs is how many events' texts hold each of terms, as the
// full-text index stores a word (the porter stem of a lower-case one),
// read from the index's own term table (events_vocab) in one query, where
// TermDocs asks two or three a word: for asking many words, most of which
// no event holds (recall's loanword candidates).
func (db *DB) VocabDocs(ctx context.Context, terms []string) ([]int, error) {
	docs := make([]int, len(terms))
	if len(terms) == 0 {
		return docs, nil
	}
	at := make(map[string][]int, len(terms)) // a term's places in terms
	var args []any
	for i, t := range terms {
		if at[t] == nil {
			args = append(args, t)
		}
		at[t] = append(at[t], i)
	}
	rows, err := db.Read().query(ctx, `SELECT term, doc FROM events_vocab WHERE term IN (`+placeholders(len(args))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("vocab docs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var term string
		var n int
		if err := rows.Scan(&term, &n); err != nil {
			return nil, fmt.Errorf("vocab docs: %w", err)
		}
		for _, i := range at[term] {
			docs[i] = n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("vocab docs: %w", err)
	}
	return docs, nil
}

// countQuestions counts the entries whose questions m selects.
func (db *DB) countQuestions(ctx context.Context, m Match) (int, error) {
	var n int
	err := db.Read().queryRow(ctx, `SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?`, "{questions} : ("+m.expr()+")").Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("term docs: questions: %w", err)
	}
	return n, nil
}

// countMatches counts the events m selects whose id is greater than after.
func (db *DB) countMatches(ctx context.Context, m Match, after int64) (int, error) {
	var n int
	err := db.Read().queryRow(ctx, `SELECT count(*) FROM events_fts WHERE events_fts MATCH ? AND rowid > ?`, m.expr(), after).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("term docs: %w", err)
	}
	return n, nil
}

// Previous returns the conversation event of the given types just before ev
// in its session; a zero Event when there is none.
func (db *DB) Previous(ctx context.Context, ev Event, types []string) (Event, error) {
	return db.neighbour(ctx, ev, `id < ? AND type IN (`+sqlStrings(types)+`) ORDER BY id DESC`)
}

// Next returns the conversation event of the given types just after ev in
// its session; a zero Event when there is none.
func (db *DB) Next(ctx context.Context, ev Event, types []string) (Event, error) {
	return db.neighbour(ctx, ev, `id > ? AND type IN (`+sqlStrings(types)+`) ORDER BY id`)
}

func (db *DB) neighbour(ctx context.Context, ev Event, cond string) (Event, error) {
	e, err := scanEvent(db.Read().queryRow(ctx, `SELECT `+eventColumns+` FROM events WHERE session_id = ? AND `+cond+` LIMIT 1`, ev.SessionID, ev.ID))
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Event{}, fmt.Errorf("adjacent events: %w", err)
	}
	return e, nil
}

// SupersededQuotes returns which of the given events are quoted by a
// superseded entry: a replaced statement recall shows only inside the
// warning that names its replacement.
func (db *DB) SupersededQuotes(ctx context.Context, eventIDs []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(eventIDs) == 0 {
		return out, nil
	}
	ids, err := queryIDs(ctx, db.Read(), `SELECT DISTINCT v.event_id FROM evidence v JOIN entries e ON e.id = v.entry_id
		WHERE e.status = 'superseded' AND v.event_id IN (`+placeholders(len(eventIDs))+`)`, int64Args(eventIDs)...)
	if err != nil {
		return nil, fmt.Errorf("superseded quotes: %w", err)
	}
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

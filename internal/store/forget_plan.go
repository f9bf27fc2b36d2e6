package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

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
	digest   string         // the session of a digest forgotten by its id
	// own are the entries first extracted from a forgotten session, and
	// rewrite those of them, or of the entries losing their own session's
	// quotes, that another session also said: they keep its quotes (see
	// ForgetPlan.Rewritten).
	own, rewrite map[int64]bool
	// requestion are the other entries that lose quotes and survive.
	requestion map[int64]bool
	// lostQuotes are the quotes each entry loses, with the session that
	// said them (quotingRecords).
	lostQuotes map[int64][]lostQuote
	// scrub are the records that keep their event with the forgotten
	// phrase cut from their text: the payload each is rewritten to.
	scrub map[int64]string
}

// lostQuote is a quote an entry loses: folded, and the session it was said in.
type lostQuote struct{ session, quote string }

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
		spans: map[int64][][2]int{}, evidence: map[int64]bool{}, sessions: map[string]bool{}, kept: map[int64]bool{},
		own: map[int64]bool{}, rewrite: map[int64]bool{}, requestion: map[int64]bool{}, lostQuotes: map[int64][]lostQuote{}, scrub: map[int64]string{}}
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
	if e.Type == DigestType {
		// A digest is an account of its session made of the session's own
		// quotes, not words of its own: forgetting it drops the account, and
		// the messages it quotes (and the memories quoting them) stay. To
		// forget a line of it, forget that memory or --match its words.
		p.digest = e.SessionID
		return nil
	}
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
	// Each distinct quote once: a claim repeated in every session has as many
	// quotes as sessions, mostly the same words, and each search reads the
	// whole index (66 s for 1,623 quotes, 299 distinct, at 100k messages).
	searched := map[string]bool{}
	for _, n := range raw {
		f := fold(n)
		if len(f) < minNeedle || !hasWord(n) || searched[n] {
			continue
		}
		searched[n] = true
		p.needles = append(p.needles, f)
		rows, err := p.t.query(ctx, `SELECT e.id, e.session_id, e.text FROM events_fts
			JOIN events e ON e.id = events_fts.rowid
			WHERE events_fts MATCH ? AND e.type IN (?, ?, ?)`, quoteTerm(n), TypeUserPrompt, TypeAgentResponse, TypeToolObservation)
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
	from, where, args := p.matching("events", "ts")
	// Tombstones stay, and so do the marks of stored spool files, which
	// keep a file left behind from being stored again (spool.go), and the
	// records of LLM spend, which hold numbers only: forgetting a session
	// must not give back the budget it spent.
	where, args = append(where, "e.type NOT IN (?, ?, ?, ?)"), append(args, TypeForgotten, TypeSpoolFolded, TypeLLMCall, TypeBudgetReached)
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

	from, where, args = p.matching("entries", "created_at")
	ids, err := queryIDs(ctx, p.t, `SELECT e.id FROM `+from+` WHERE `+strings.Join(where, " AND "), args...)
	if err != nil {
		return fmt.Errorf("forget: select entries: %w", err)
	}
	// Forgetting a session forgets what it said: a memory it was the first
	// to say goes unless a session kept also said it (one memory per fact
	// holds every session's quotes), which evidenceClosure decides.
	sessionOnly := p.sel.SessionID != "" && strings.TrimSpace(p.sel.Phrase) == "" && p.sel.Before.IsZero()
	for _, id := range ids {
		if sessionOnly {
			p.own[id] = true
		} else {
			p.entries[id] = true
		}
	}
	return nil
}

// matching is the FROM and the conditions selecting the rows of table
// (events or entries, aliased e, its full-text index table_fts) that match
// every filter of the selector; timeCol is the table's time column.
func (p *planner) matching(table, timeCol string) (from string, where []string, args []any) {
	from, where = table+" e", []string{"1 = 1"}
	if phrase := strings.TrimSpace(p.sel.Phrase); phrase != "" {
		from = table + "_fts JOIN " + table + " e ON e.id = " + table + "_fts.rowid"
		where = append(where, table+"_fts MATCH ?")
		args = append(args, quoteTerm(phrase))
	}
	w, a := p.scope(timeCol)
	return from, append(where, w...), append(args, a...)
}

// scope is the conditions on a table aliased e, with time column timeCol,
// of the selector's session, project and date.
func (p *planner) scope(timeCol string) (where []string, args []any) {
	s := p.sel
	if s.SessionID != "" {
		where = append(where, "e.session_id = ?")
		args = append(args, s.SessionID)
	}
	if s.Project != "" {
		where, args = append(where, projectIn("e.project", s.Project)), appendSpellings(args, s.Project)
	}
	if !s.Before.IsZero() {
		where = append(where, p.before("e."+timeCol))
		args = append(args, FormatTime(s.Before), p.now)
	}
	return where, args
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
	return queryAll(ctx, t, query, func(rows *sql.Rows) (r evidenceRef, err error) {
		return r, rows.Scan(&r.ID, &r.EntryID, &r.EventID, &r.SessionID, &r.Quote, &r.Start, &r.End)
	}, args...)
}

const evidenceRefColumns = `v.id, v.entry_id, coalesce(v.event_id, 0), v.session_id, v.quote, v.span_start, v.span_end`

// evidenceClosure decides which evidence rows go, and with them which further entries.
func (p *planner) evidenceClosure(ctx context.Context) error {
	removed := map[int64]evidenceRef{}
	digests := map[int64]bool{} // entries found to be digests, or not
	isDigest := func(id int64) (bool, error) {
		d, ok := digests[id]
		if !ok {
			var typ string
			if err := p.t.queryRow(ctx, `SELECT type FROM entries WHERE id = ?`, id).Scan(&typ); err != nil && err != sql.ErrNoRows {
				return false, err
			}
			d = typ == DigestType
			digests[id] = d
		}
		return d, nil
	}
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
				// A digest goes with the words it quotes: it is the
				// session's account, not a memory of its own the user
				// might want to keep, and the worker builds it again
				// from what is left.
				d, err := isDigest(r.EntryID)
				if err != nil {
					return err
				}
				if !d {
					p.kept[r.EntryID] = true // another memory saying the same words: the user did not ask
					continue
				}
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
			where, args = append(where, projectIn("e.project", p.sel.Project)), appendSpellings(args, p.sel.Project)
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
			if q := fold(r.Quote); q != "" {
				p.lostQuotes[r.EntryID] = append(p.lostQuotes[r.EntryID], lostQuote{r.SessionID, q})
			}
		}
	}
	for id := range p.own {
		lost[id] = true
	}
	for id := range lost {
		var own string
		var left int
		var shared bool
		rows, err := p.t.query(ctx, `SELECT session_id, shared_id <> '' OR author <> '' FROM entries WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if rows.Next() {
			err = rows.Scan(&own, &shared)
		}
		rows.Close()
		if err != nil {
			return err
		}
		ev, err := scanEvidenceRefs(ctx, p.t, `SELECT `+evidenceRefColumns+` FROM evidence v WHERE v.entry_id = ?`, id)
		if err != nil {
			return err
		}
		ownLost, others := p.own[id], false
		for _, r := range ev {
			if !p.evidence[r.ID] {
				left++
				others = others || r.SessionID != own
			} else if r.SessionID == own {
				ownLost = true
			}
		}
		switch {
		case left == 0:
			p.entries[id] = true
		case ownLost && others && p.sel.CID == "" && !shared:
			// Its words were the forgotten session's; another session
			// said it too: it stands on that session's quotes. (A memory
			// on the team server goes, as before: the server's copy holds
			// the forgotten words, and the forget is sent for it.)
			p.rewrite[id] = true
		case ownLost:
			p.entries[id] = true
		default:
			// It keeps its words but loses a session's quotes, and with
			// them the questions that session added.
			p.requestion[id] = true
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
	if err := p.quotingRecords(ctx); err != nil {
		return out, fmt.Errorf("forget: records: %w", err)
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
	out.quotes = p.needles
	out.digest = p.digest
	out.Entries = keys(p.entries)
	out.Evidence = keys(p.evidence)
	for id, payload := range p.scrub {
		if _, gone := p.del[id]; !gone {
			if out.scrub == nil {
				out.scrub = map[int64]string{}
			}
			out.scrub[id] = payload
		}
	}
	for id := range p.rewrite {
		if !p.entries[id] {
			out.Rewritten = append(out.Rewritten, id)
		}
	}
	for id := range p.requestion {
		if !p.entries[id] {
			out.requestion = append(out.requestion, id)
		}
	}
	for s := range p.sessions {
		out.Sessions = append(out.Sessions, s)
	}
	sort.Strings(out.Sessions)
	for _, l := range [][]int64{out.Delete, out.Redact, out.Injections, out.Released, out.Rewritten} {
		sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	}
	return out, nil
}

// RecordTypes are the events that record a memory, by its claim key or
// citation id: forget deletes those of a memory it deletes (lifecycle), and
// a restore leaves out those of a memory it leaves out.
var RecordTypes = []string{TypeEntryExtracted, TypeEvidenceAligned, TypeConflict, TypeConflictResolved, TypeCertified, TypeRejected,
	TypeMemoryCited, TypeEdited, TypePinned, TypeUnpinned, TypeTaskClosed, TypeSelfCheck}

// Record is what a memory's record (RecordTypes, and memory_injected)
// names in its payload: the memory by its claim key or its citation id.
type Record struct {
	ClaimKey string   `json:"claim_key"`
	Older    string   `json:"older"`
	Newer    string   `json:"newer"`
	CID      string   `json:"cid"`
	Memories []string `json:"memories"`
	Cited    []string `json:"cited"`
	Shown    []string `json:"shown"`       // a self-check's
	Against  []string `json:"contradicts"` // a self-check's
}

// ParseRecord reads a record's payload, false when it is no JSON object.
func ParseRecord(payload []byte) (Record, bool) {
	var r Record
	return r, json.Unmarshal(payload, &r) == nil
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
		types := append(slices.Clone(RecordTypes), TypeMemoryInjected)
		rows, err := p.t.query(ctx, `SELECT id, session_id, type, payload FROM events WHERE project = ? AND type IN (`+placeholders(len(types))+`)`,
			append([]any{project}, stringArgs(types)...)...)
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
			v, ok := ParseRecord([]byte(payload))
			if !ok {
				continue
			}
			switch k.typ {
			case TypeEntryExtracted, TypeEvidenceAligned:
				if tg.claimKeys[v.ClaimKey] {
					p.del[id] = k
				}
			case TypeConflict, TypeConflictResolved:
				if tg.cids[v.Older] || tg.cids[v.Newer] {
					p.del[id] = k
				}
			case TypeCertified, TypeRejected, TypeEdited, TypePinned, TypeUnpinned, TypeTaskClosed:
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
			case TypeSelfCheck:
				// A verdict naming a forgotten memory would tell the next
				// prompt "contradicts mem:…" about it.
				for _, c := range append(v.Shown, v.Against...) {
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

// quotingRecords takes the forgotten words out of the records of the
// memories that stay (lifecycle takes the records of those that go):
//
//   - with a phrase, a memory record in the selection's sessions, project
//     and dates whose text holds it keeps its event, its ids and its marks
//     (an edit, a pin, a "remember" extraction are the user's corrections,
//     which later extractions honour), with each text holding the phrase
//     replaced by Redacted;
//   - a memory another session also said survives the quotes it loses: the
//     records of its extraction in the session that said them (that
//     session's words, read from the forgotten message) go.
//
// Before, a surviving memory's record of its extraction from the forgotten
// message kept that message's words.
func (p *planner) quotingRecords(ctx context.Context) error {
	if phrase := fold(p.sel.Phrase); phrase != "" {
		if err := p.scrubRecords(ctx, phrase); err != nil {
			return err
		}
	}
	type lostKey struct{ project, session, claimKey string }
	lost := map[lostKey][]string{}
	var projects, sessions []string
	for id, quotes := range p.lostQuotes {
		if p.entries[id] {
			continue
		}
		var project, key string
		if err := p.t.queryRow(ctx, `SELECT project, claim_key FROM entries WHERE id = ?`, id).Scan(&project, &key); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			return err
		}
		projects = append(projects, project)
		for _, q := range quotes {
			k := lostKey{project, q.session, key}
			lost[k] = append(lost[k], q.quote)
			sessions = append(sessions, q.session)
		}
	}
	if len(lost) == 0 {
		return nil
	}
	// Not held to the selection's dates: a record is written when its
	// session is distilled, which may be long after the words were said.
	projects, sessions = uniq(projects), uniq(sessions)
	types := []string{TypeEntryExtracted, TypeEvidenceAligned}
	return p.scanRecords(ctx, `e.type IN (`+placeholders(len(types))+`) AND e.project IN (`+placeholders(len(projects))+`) AND e.session_id IN (`+placeholders(len(sessions))+`)`,
		slices.Concat(stringArgs(types), stringArgs(projects), stringArgs(sessions)),
		func(id int64, k eventKey, project string, v any) {
			m, _ := v.(map[string]any)
			key, _ := m["claim_key"].(string)
			for _, q := range lost[lostKey{project, k.session, key}] {
				if recordSays(v, func(s string) bool { return strings.Contains(fold(s), q) }) {
					p.del[id] = k
					return
				}
			}
		})
}

// scrubRecords plans the rewriting of the memory records in the
// selection's scope whose text holds phrase (folded).
func (p *planner) scrubRecords(ctx context.Context, phrase string) error {
	where, args := p.scope("ts")
	where = append([]string{"e.type IN (" + placeholders(len(textRecordTypes)) + ")"}, where...)
	args = append(stringArgs(textRecordTypes), args...)
	if w := longestASCIIWord(phrase); w != "" {
		// Most records cannot hold it, and a scan that only compares bytes
		// says so without decoding them: LIKE folds ASCII case, and an ASCII
		// word is written as itself in JSON.
		where, args = append(where, "e.payload LIKE ?"), append(args, "%"+w+"%")
	}
	return p.scanRecords(ctx, strings.Join(where, " AND "), args, func(id int64, _ eventKey, _ string, v any) {
		says := func(s string) bool { return containsPhrase(fold(s), phrase) }
		if !recordSays(v, says) {
			return
		}
		b, err := json.Marshal(redactText(v, says))
		if err == nil {
			p.scrub[id] = string(b)
		}
	})
}

// scanRecords calls f with each record event, not already deleted, that
// meets the condition where on events aliased e, and its payload decoded
// (numbers kept as written).
func (p *planner) scanRecords(ctx context.Context, where string, args []any, f func(id int64, k eventKey, project string, v any)) error {
	rows, err := p.t.query(ctx, `SELECT e.id, e.session_id, e.type, e.project, e.payload FROM events e WHERE `+where, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var k eventKey
		var project, payload string
		if err := rows.Scan(&id, &k.session, &k.typ, &project, &payload); err != nil {
			return err
		}
		if _, ok := p.del[id]; ok {
			continue
		}
		d := json.NewDecoder(strings.NewReader(payload))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			continue
		}
		f(id, k, project, v)
	}
	return rows.Err()
}

// textRecordTypes are the memory records (RecordTypes) that hold text; the
// others hold ids and marks only.
var textRecordTypes = []string{TypeEntryExtracted, TypeEvidenceAligned, TypeConflict, TypeConflictResolved, TypeEdited, TypeSelfCheck}

// recordTextKeys name the fields of a memory record that hold what was said
// or written (a title, a quote, an edit's old and new text, a conflict's
// reason); the others are ids and marks (a claim key, a stage, a method,
// an extractor's name), which a phrase forgotten does not reach.
var recordTextKeys = map[string]bool{"title": true, "body": true, "subject": true, "questions": true, "quote": true, "text": true,
	"from": true, "to": true, "reason": true, "resolution": true, "note": true, "old_value": true, "new_value": true, "summary": true, "line": true}

// recordSays reports whether one text of a decoded record satisfies says.
func recordSays(v any, says func(string) bool) bool {
	found := false
	walkText(v, false, func(s string) string {
		found = found || says(s)
		return s
	})
	return found
}

// redactText returns v with each of its texts that says replaced by
// Redacted.
func redactText(v any, says func(string) bool) any {
	return walkText(v, false, func(s string) string {
		if says(s) {
			return Redacted
		}
		return s
	})
}

// walkText calls f on every string of v under a text field
// (recordTextKeys), each alone, and returns v with the strings f returns.
func walkText(v any, text bool, f func(string) string) any {
	switch v := v.(type) {
	case string:
		if text {
			return f(v)
		}
	case []any:
		for i := range v {
			v[i] = walkText(v[i], text, f)
		}
	case map[string]any:
		for k := range v {
			v[k] = walkText(v[k], text || recordTextKeys[k], f)
		}
	}
	return v
}

// uniq returns ss sorted, each once.
func uniq(ss []string) []string {
	slices.Sort(ss)
	return slices.Compact(ss)
}

// longestASCIIWord is the longest run of ASCII letters and digits in s, or "".
func longestASCIIWord(s string) string {
	best := ""
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) {
		if len(w) > len(best) {
			best = w
		}
	}
	return best
}

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

// projectIn is the condition that column holds project in any of its
// spellings (DriveSpellings: a forget of "C:\\kiln" takes what sessions
// filed under "c:\\kiln" too); appendSpellings adds them to args.
func projectIn(column, project string) string {
	return column + " IN (" + placeholders(len(DriveSpellings(project))) + ")"
}

func appendSpellings(args []any, project string) []any {
	for _, p := range DriveSpellings(project) {
		args = append(args, p)
	}
	return args
}

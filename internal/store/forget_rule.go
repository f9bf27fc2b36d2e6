package store

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"golang.org/x/text/unicode/norm"
)

// A forget leaves a rule standing in its memory_forgotten event, and every
// later write honours it (Tx.append refuses an event the rule covers): what
// was forgotten can still wait outside the database, in the spool, in a fold
// file a fold could not take, in a transcript row a later Stop re-reads, and
// none of it may be written back. The rule holds no forgotten text: ids and
// phrases as hashes, as the rest of the event.
//
// The filters of a selector (session, project, date) cover what had been
// said when the forget ran, events dated up to it: the session or project
// goes on afterwards. Phrases (the --match words, the quotes of a forgotten
// memory) cover every later event too: the forgotten words stay forgotten.
// Phrases are matched word for word, case and accents aside; the forget
// itself also matched other forms of the words (FTS5's stemmer), which a
// text that comes back verbatim does not need.
//
// Its hashes are keyed with the store's secret (ruleHasher): a tombstone
// travels (export, history --json, the dashboard), and an unkeyed hash of a
// word or a phrase is read back by hashing guesses. Rules written before
// the key (Keyed false) keep their unkeyed hashes and are matched so.
type forgetRule struct {
	Until   time.Time    `json:"until"`
	Keyed   bool         `json:"keyed,omitempty"`
	Session string       `json:"session,omitempty"` // hash of the session id
	Project string       `json:"project,omitempty"` // hash of the project
	Before  time.Time    `json:"before,omitzero"`
	Phrases []phraseHash `json:"phrases,omitempty"` // any of them
	// memory is set, as the rule is read, for the rule of a forget of one
	// memory: its phrases are that memory's quotes, which refuse a message
	// saying them again but not the other memories that quote the same
	// words, which the forget kept (without --shared).
	memory bool
}

// phraseHash is a phrase as a rule keeps it: its number of words, the hash
// of its first word (a cheap test before a window of words is hashed) and
// the hash of all its words.
type phraseHash struct {
	Words int    `json:"n"`
	First uint32 `json:"first"`
	Hash  string `json:"hash"`
}

// newPhraseHash returns the rule's form of phrase, false when it has no word.
func newPhraseHash(phrase string, h *ruleHasher) (phraseHash, bool) {
	w := words(phrase)
	if len(w) == 0 {
		return phraseHash{}, false
	}
	return phraseHash{Words: len(w), First: h.first(w[0]), Hash: h.of(strings.Join(w, " "))}, true
}

// ruleHasher hashes what a rule keeps: with the store's key, HMAC-SHA256;
// without (a rule written before the key), as such rules were written.
type ruleHasher struct {
	mac   hash.Hash // nil: unkeyed
	buf   []byte
	words map[string]uint32 // first, remembered: an HMAC per word of every event costs about 1 µs
}

func newRuleHasher(key []byte) *ruleHasher {
	if key == nil {
		return &ruleHasher{}
	}
	return &ruleHasher{mac: hmac.New(sha256.New, key)}
}

func (h *ruleHasher) sum(kind byte, s string) []byte {
	h.mac.Reset()
	h.mac.Write([]byte{kind})
	io.WriteString(h.mac, s)
	h.buf = h.mac.Sum(h.buf[:0])
	return h.buf
}

// first is the hash of a phrase's first word, a cheap test before a window
// of words is hashed whole.
func (h *ruleHasher) first(w string) uint32 {
	if h.mac == nil {
		return wordHash(w)
	}
	if v, ok := h.words[w]; ok {
		return v
	}
	v := binary.BigEndian.Uint32(h.sum('w', w))
	if h.words == nil || len(h.words) >= maxRememberedWords {
		h.words = map[string]uint32{}
	}
	h.words[w] = v
	return v
}

// maxRememberedWords bounds ruleHasher.words.
const maxRememberedWords = 1 << 16

// of is the hash of a phrase, a session id or a project.
func (h *ruleHasher) of(s string) string {
	if h.mac == nil {
		return HashTarget(s)
	}
	return "hmac:" + hex.EncodeToString(h.sum('t', s))
}

// wordHash is the unkeyed hash of one word of rules written before the
// key: FNV-1a, 32 bits.
func wordHash(w string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		h ^= uint32(w[i])
		h *= 16777619
	}
	return h
}

// words splits s into lower-case words without accents, as FTS5's unicode61
// tokenizer does.
func words(s string) []string {
	var b strings.Builder
	b.Grow(len(s))
	if !isASCII(s) {
		s = norm.NFD.String(s)
	}
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf: // most text: no table lookups
			c := byte(r)
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				b.WriteByte(c)
			case 'A' <= c && c <= 'Z':
				b.WriteByte(c + 'a' - 'A')
			default:
				b.WriteByte(' ')
			}
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Fields(b.String())
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// forgetRuleOf is the rule a forget of sel leaves, with needles the
// forgotten memory's quotes; false when it would hold nothing to match (a
// memory whose quotes are all too short to search for), since such a rule
// would cover every event.
func forgetRuleOf(sel ForgetSelector, needles []string, now time.Time, h *ruleHasher) (forgetRule, bool) {
	r := forgetRule{Until: now, Keyed: h.mac != nil, Before: sel.Before}
	if sel.SessionID != "" {
		r.Session = h.of(sel.SessionID)
	}
	if sel.Project != "" {
		r.Project = h.of(sel.Project)
	}
	for _, n := range append([]string{strings.TrimSpace(sel.Phrase)}, needles...) {
		if ph, ok := newPhraseHash(n, h); ok {
			r.Phrases = append(r.Phrases, ph)
		}
	}
	return r, !r.empty()
}

// empty reports whether the rule has nothing to match an event by. Stores
// written before forgetRuleOf refused such a rule may hold one: it covers
// nothing.
func (r forgetRule) empty() bool {
	return len(r.Phrases) == 0 && r.Session == "" && r.Project == "" && r.Before.IsZero()
}

// wellFormed reports whether every phrase of the rule has words, as
// newPhraseHash makes them: a rule from a file (a restore) may not, and a
// phrase of no word, or of fewer than none, would match anything or
// nothing sensible.
func (r forgetRule) wellFormed() bool {
	for _, ph := range r.Phrases {
		if ph.Words < 1 || ph.Words > maxPhraseWords {
			return false
		}
	}
	return true
}

// maxPhraseWords bounds a phrase's words in a well-formed rule: a quote is
// at most a few hundred words.
const maxPhraseWords = 1 << 12

// hashed reports whether the rule holds a hash (a session, a project, a
// phrase): only those are matched with a key.
func (r forgetRule) hashed() bool {
	return r.Session != "" || r.Project != "" || len(r.Phrases) > 0
}

// filters reports whether e is within the rule's session, project and
// date, said by the time of the forget; a rule without them takes any event.
// A project is one in either case of its Windows drive letter
// (DriveSpellings): a forget of "C:\\kiln" refuses what a session then
// spells "c:\\kiln".
func (r forgetRule) filters(e Event, h *ruleHasher) bool {
	if r.Session == "" && r.Project == "" && r.Before.IsZero() {
		return true
	}
	said := e.Time
	if !e.until.IsZero() {
		said = e.until
	}
	return !e.Time.IsZero() && !said.After(r.Until) &&
		(r.Session == "" || h.of(e.SessionID) == r.Session) &&
		(r.Project == "" || slices.ContainsFunc(DriveSpellings(e.Project), func(p string) bool { return h.of(p) == r.Project })) &&
		(r.Before.IsZero() || e.Time.Before(r.Before))
}

// ruleSet is every forget's rule, their phrases indexed by the hash of
// their first word: an event's words are hashed once, and only a window
// that starts with a phrase's first word is hashed whole. Keyed rules and
// those written before the key have an index each (byFirst[1], [0]).
type ruleSet struct {
	rules   []forgetRule
	hashers [2]*ruleHasher
	byFirst [2]map[uint32][]phraseRef
}

type phraseRef struct {
	rule int
	ph   phraseHash
}

// newRuleSet indexes rules, keyed ones with key; without a key (none was
// found) a keyed rule with hashes cannot be matched and is left out (one of
// a date alone needs none).
func newRuleSet(rules []forgetRule, key []byte) *ruleSet {
	s := &ruleSet{hashers: [2]*ruleHasher{newRuleHasher(nil), newRuleHasher(key)}}
	for _, r := range rules {
		if r.empty() || r.Keyed && r.hashed() && key == nil || !r.wellFormed() {
			continue
		}
		s.rules = append(s.rules, r)
	}
	for i, r := range s.rules {
		k := keyIndex(r)
		if s.byFirst[k] == nil {
			s.byFirst[k] = map[uint32][]phraseRef{}
		}
		for _, ph := range r.Phrases {
			s.byFirst[k][ph.First] = append(s.byFirst[k][ph.First], phraseRef{i, ph})
		}
	}
	return s
}

func keyIndex(r forgetRule) int {
	if r.Keyed {
		return 1
	}
	return 0
}

func (s *ruleSet) empty() bool { return s == nil || len(s.rules) == 0 }

// refuses reports whether a rule covers e: its filters take e and, for a
// rule with phrases, its text or payload says one of them.
func (s *ruleSet) refuses(e Event) bool {
	for _, r := range s.rules {
		if len(r.Phrases) == 0 && !r.empty() && r.filters(e, s.hashers[keyIndex(r)]) {
			return true
		}
	}
	if len(s.byFirst[0]) == 0 && len(s.byFirst[1]) == 0 {
		return false
	}
	for _, text := range append([]string{e.Text}, payloadValues(e.Payload)...) {
		ws := words(text)
		for k, index := range s.byFirst {
			if len(index) == 0 {
				continue
			}
			h := s.hashers[k]
			for i, w := range ws {
				for _, ref := range index[h.first(w)] {
					if i+ref.ph.Words <= len(ws) && h.of(strings.Join(ws[i:i+ref.ph.Words], " ")) == ref.ph.Hash && s.rules[ref.rule].filters(e, h) {
						return true
					}
				}
			}
		}
	}
	return false
}

// payloadValues returns the string values of a JSON payload, unescaped, each
// on its own: its keys ("command", "tool_use_id") are the plugin's words, not
// what was said, and its escapes ("\nhunter2", "\u003c") would glue or split
// the words of the values. A value that is itself JSON (a tool's response
// kept as a string) is read the same way. A payload that is not JSON is
// read whole.
func payloadValues(payload []byte) []string {
	if len(payload) == 0 {
		return nil
	}
	if !gjson.ValidBytes(payload) {
		return []string{string(payload)}
	}
	var out []string
	var walk func(v gjson.Result, depth int)
	walk = func(v gjson.Result, depth int) {
		switch {
		case v.Type == gjson.String:
			str := v.String()
			if t := strings.TrimSpace(str); depth < maxPayloadDepth && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && gjson.Valid(t) {
				walk(gjson.Parse(t), depth+1)
				return
			}
			out = append(out, str)
		case v.IsObject() || v.IsArray():
			if depth >= maxPayloadDepth {
				out = append(out, v.Raw) // deeper than any payload the plugin writes: read whole
				return
			}
			v.ForEach(func(_, item gjson.Result) bool {
				walk(item, depth+1)
				return true
			})
		}
	}
	walk(gjson.ParseBytes(payload), 0)
	return out
}

// maxPayloadDepth bounds the walk of payloadValues.
const maxPayloadDepth = 32

// forgetRules are the rules of every forget in the store, read once per
// transaction (and again after a forget in it).
func (t *Tx) forgetRules(ctx context.Context) (*ruleSet, error) {
	if t.rulesRead {
		return t.rules, nil
	}
	rows, err := t.query(ctx, `SELECT payload FROM events WHERE type = ?`, TypeForgotten)
	if err != nil {
		return nil, fmt.Errorf("forget rules: %w", err)
	}
	defer rows.Close()
	var rules []forgetRule
	for rows.Next() {
		var payload string
		if err := rows.Scan(&payload); err != nil {
			return nil, fmt.Errorf("forget rules: %w", err)
		}
		if r, ok := forgetRuleIn([]byte(payload)); ok {
			rules = append(rules, r)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("forget rules: %w", err)
	}
	var key []byte
	if len(rules) > 0 {
		if key, err = t.forgetKey(ctx, false); err != nil {
			return nil, fmt.Errorf("forget rules: %w", err)
		}
	}
	others := slices.DeleteFunc(slices.Clone(rules), func(r forgetRule) bool { return r.memory })
	t.rules, t.entryRules, t.rulesRead = newRuleSet(rules, key), newRuleSet(others, key), true
	return t.rules, nil
}

// unforgotten returns evs without the events a forget's rule refuses, and
// those it left out.
func (t *Tx) unforgotten(ctx context.Context, evs []Event) (kept, refused []Event, err error) {
	rules, err := t.forgetRules(ctx)
	if err != nil || rules.empty() {
		return evs, nil, err
	}
	kept = make([]Event, 0, len(evs))
	for _, e := range evs {
		// A forget's own marks are never refused: they hold no content.
		if e.Type != TypeForgotten && e.Type != TypeSpoolFolded && rules.refuses(e) {
			refused = append(refused, e)
			continue
		}
		kept = append(kept, e)
	}
	return kept, refused, nil
}

// ErrForgotten is returned by PutEntry for an entry a forget's rule covers.
var ErrForgotten = errors.New("it holds what a forget removed")

// entryTexts are what an entry says in its own words: title, body,
// subject, the reason it is not promoted, and its questions. Its quotes are
// its sessions' words, each read in its own session.
func entryTexts(e Entry) []string {
	return append([]string{e.Title, e.Body, e.Subject, e.PromotionBlocked}, e.Questions...)
}

// unforgottenEntries returns ws without the entries a forget's rule covers,
// read as an event's text: their own words, dated when the entry was said
// and in its session, or one of their quotes, read in the session and at
// the time it was said (a memory holds the quotes of every session that
// said its fact, and a forgotten session's quote must not come back under
// another's memory); and without a digest of a session whose digest was
// forgotten.
func (t *Tx) unforgottenEntries(ctx context.Context, ws []EntryWrite) ([]EntryWrite, error) {
	all, err := t.forgetRules(ctx)
	if err != nil {
		return nil, err
	}
	said, err := t.saidAt(ctx, ws, all)
	if err != nil {
		return nil, err
	}
	out := make([]EntryWrite, 0, len(ws))
	for _, w := range ws {
		e := w.Entry
		// A restored memory is not held to a memory forget's rule: the
		// memories quoting its words were kept (without --shared), and
		// the forgotten one goes by its id (ForgottenMemory). Anything
		// else is: a memory extracted again from a transcript that still
		// holds the forgotten words.
		rules := all
		if w.restored {
			rules = t.entryRules
		}
		if e.Type == DigestType {
			// A forgotten digest leaves no rule (its quotes are its
			// session's, which stay) but the session's mark, which the
			// worker reads too: none is made for it again.
			skipped, err := t.HasEvent(ctx, DigestSkippedKey(e.SessionID))
			if err != nil {
				return nil, err
			}
			if skipped {
				continue
			}
		}
		if rules.empty() {
			out = append(out, w)
			continue
		}
		if e.Created.IsZero() {
			e.Created = t.db.Now()
		}
		if rules.refusesAny(e.Created, e.SessionID, e.Project, entryTexts(e)) || quotesForgotten(rules, e, said) {
			continue
		}
		out = append(out, w)
	}
	return out, nil
}

// quotesForgotten reports whether a rule covers one of e's quotes, read in
// the session and at the time it was said. One is enough: the entry's
// words were written from its quotes, a forgotten one's among them (a
// --match forget rewrote the memory from what was left; a memory forget
// keeps no rule for a quote too short to search for).
func quotesForgotten(rules *ruleSet, e Entry, said map[int64]time.Time) bool {
	for _, v := range e.Evidence {
		at, ok := said[v.EventID]
		if !ok || v.EventID == 0 {
			at = e.Created
		}
		if rules.refusesAny(at, quoteSession(e, v), e.Project, []string{v.Quote}) {
			return true
		}
	}
	return false
}

// saidAt maps the messages ws's quotes were found in to when they were
// said, for the rules' dates (none without rules): a quote is dated by its
// message, and by its entry's date when its message is unknown.
func (t *Tx) saidAt(ctx context.Context, ws []EntryWrite, rules *ruleSet) (map[int64]time.Time, error) {
	said := map[int64]time.Time{}
	if rules.empty() {
		return said, nil
	}
	var ids []int64
	for _, w := range ws {
		for _, v := range w.Entry.Evidence {
			if v.EventID != 0 {
				ids = append(ids, v.EventID)
			}
		}
	}
	for _, c := range chunks(ids) {
		rows, err := t.query(ctx, `SELECT id, ts FROM events WHERE id IN (`+placeholders(len(c))+`)`, int64Args(c)...)
		if err != nil {
			return nil, fmt.Errorf("forget rules: %w", err)
		}
		for rows.Next() {
			var id int64
			var ts string
			if err := rows.Scan(&id, &ts); err != nil {
				rows.Close()
				return nil, fmt.Errorf("forget rules: %w", err)
			}
			said[id] = ParseTime(ts)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("forget rules: %w", err)
		}
	}
	return said, nil
}

// quoteSession is the session a quote was said in: its message's, or for
// evidence written before quotes kept theirs, its entry's.
func quoteSession(e Entry, v Evidence) string {
	if v.SessionID != "" {
		return v.SessionID
	}
	return e.SessionID
}

// refusesAny reports whether a rule covers one of texts as an event's
// text, said at at in session and project. Each text is read on its own:
// a phrase does not run from a title into a body.
func (s *ruleSet) refusesAny(at time.Time, session, project string, texts []string) bool {
	for _, text := range texts {
		if s.refuses(Event{Time: at, SessionID: session, Project: project, Text: text}) {
			return true
		}
	}
	return false
}

// ForgetsSummary reports whether a forget's rule covers a session's
// summary written elsewhere (a restored export's), at written, of what the
// session had said since started: a session, project or date forget covers
// it when it ran after the summary was written (the summary holds what it
// removed; one written after the forget does not), and the words a forget
// matched, as it covers them in any text.
func (t *Tx) ForgetsSummary(ctx context.Context, started, written time.Time, session, project, summary string) (bool, error) {
	rules, err := t.forgetRules(ctx)
	if err != nil || rules.empty() {
		return false, err
	}
	return rules.refuses(Event{Time: started, until: written, SessionID: session, Project: project, Text: summary}), nil
}

// Forgets reports whether a forget's rule covers one of texts (each read
// as an event's text on its own) said at at in session and project. It is
// the rule check of what is not an event or an entry: a summary, a
// conflict's reason.
func (t *Tx) Forgets(ctx context.Context, at time.Time, session, project string, texts ...string) (bool, error) {
	rules, err := t.forgetRules(ctx)
	if err != nil || rules.empty() {
		return false, err
	}
	return rules.refusesAny(at, session, project, texts), nil
}

// ForgetKey returns the store's secret key for the hashes of forget rules,
// nil when it has none (no forget ever ran in it).
func (db *DB) ForgetKey(ctx context.Context) ([]byte, error) {
	return db.Read().forgetKey(ctx, false)
}

// AdoptForgetKey makes key the store's key for the hashes of forget rules,
// so that the keyed rules of the store it came from (restored from an
// export written with it) are matched here. It reports false, and changes
// nothing, when the store already has another key: its own keyed rules
// hold hashes made with that one, and a rule knows no key but the store's.
func (db *DB) AdoptForgetKey(ctx context.Context, key []byte) (bool, error) {
	if len(key) != 32 {
		return false, fmt.Errorf("forget key: %d bytes, not 32", len(key))
	}
	adopted := false
	err := db.Update(ctx, func(t *Tx) error {
		cur, err := t.forgetKey(ctx, false)
		if err != nil {
			return err
		}
		if cur != nil {
			adopted = hmac.Equal(cur, key)
			return nil
		}
		if _, err := t.exec(ctx, createForgetKey); err != nil {
			return fmt.Errorf("forget key: %w", err)
		}
		if _, err := t.exec(ctx, `INSERT INTO forget_key (id, key) VALUES (1, ?)`, key); err != nil {
			return fmt.Errorf("forget key: %w", err)
		}
		t.rulesRead, adopted = false, true
		return nil
	})
	return adopted, err
}

// ForgetKeyID names a forget key without telling it: the start of an HMAC
// of a fixed text with it. An export carries it, so that a restore into
// the store that wrote it knows that its keyed rules are matched there.
func ForgetKeyID(key []byte) string {
	if key == nil {
		return ""
	}
	m := hmac.New(sha256.New, key)
	io.WriteString(m, "claude-memory-layer forget key id")
	return hex.EncodeToString(m.Sum(nil)[:8])
}

// KeyedForgetRule reports whether a memory_forgotten event's payload holds
// a rule whose hashes are keyed (readable only with the key of the store
// that wrote it).
func KeyedForgetRule(payload []byte) bool {
	r, ok := forgetRuleIn(payload)
	return ok && r.Keyed && r.hashed()
}

// ForeignRuleProblem says why a store should not take the rule of a
// memory_forgotten event from a file (a restore), "" when it may: a rule
// dated after now (a forget covers what was said by the time it ran: one
// to come would refuse what the store is yet to hear, for good), one with
// a phrase of no word, and one with phrases hashed before rules were keyed
// (nothing tells it from a planted one, which could name any word: "the").
func ForeignRuleProblem(payload []byte, now time.Time) string {
	r, ok := forgetRuleIn(payload)
	switch {
	case !ok:
		return ""
	case r.Until.After(now.Add(clockSkew)):
		return "a forget dated ahead of this machine's clock"
	case !r.wellFormed():
		return "a forget rule with a phrase of no words"
	case !r.Keyed && len(r.Phrases) > 0:
		return "a forget rule of words written before rules were keyed, which a restore cannot tell from a planted one"
	}
	return ""
}

// clockSkew is how far ahead of this machine's clock a restored forget may
// be dated: the clock of the machine that wrote it may run ahead.
const clockSkew = 24 * time.Hour

// ForgottenMemory reports whether a forget of the memory made at created,
// under one of cids, ran in this store after it, by the hash its tombstone keeps: a
// memory whose quotes were all too short to leave a rule (forgetRuleOf) is
// known by its id alone, and so is, to a restore, a memory forget's own
// memory (its rule no longer refuses entries: unforgottenEntries).
func (t *Tx) ForgottenMemory(ctx context.Context, created time.Time, cids ...string) (bool, error) {
	key, err := t.forgetKey(ctx, false)
	if err != nil {
		return false, err
	}
	want := map[string]bool{}
	for _, cid := range cids {
		if cid == "" {
			continue
		}
		cid = normCID(cid)
		want[newRuleHasher(nil).of(cid)] = true
		if key != nil {
			want[newRuleHasher(key).of(cid)] = true
		}
	}
	// A memory made after the forget (its fact said again: its id is its
	// project's and claim's) is another.
	rows, err := t.query(ctx, `SELECT ts, json_extract(payload, '$.targets.memory') FROM events WHERE type = ? AND json_extract(payload, '$.targets.memory') IS NOT NULL`, TypeForgotten)
	if err != nil {
		return false, fmt.Errorf("forgotten memory: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ts, h string
		if err := rows.Scan(&ts, &h); err != nil {
			return false, fmt.Errorf("forgotten memory: %w", err)
		}
		if want[h] && !created.After(ParseTime(ts)) {
			return true, nil
		}
	}
	return false, rows.Err()
}

// forgetRuleIn is the rule a memory_forgotten event's payload holds, false
// when it holds none that can match (a forget from before rules).
func forgetRuleIn(payload []byte) (forgetRule, bool) {
	var p struct {
		Selector []string    `json:"selector"`
		Rule     *forgetRule `json:"rule"`
	}
	if json.Unmarshal(payload, &p) != nil || p.Rule == nil || p.Rule.empty() {
		return forgetRule{}, false
	}
	p.Rule.memory = slices.Contains(p.Selector, "memory")
	return *p.Rule, true
}

// createForgetKey makes the table of the store's forget key (forgetKey).
const createForgetKey = `CREATE TABLE IF NOT EXISTS forget_key (id INTEGER PRIMARY KEY CHECK (id = 1), key BLOB NOT NULL)`

// forgetKey returns the store's secret key for the hashes of forget rules,
// making it first when create is set (nil without it when there is none).
// It is random and tells nothing of what was forgotten: a forget of
// everything leaves it. It lives in a table of its own, which export does
// not copy, created by the first forget: the table needs no migration (the
// schema's versioning is being reworked), and a store without it has no
// keyed rule to match.
func (t *Tx) forgetKey(ctx context.Context, create bool) ([]byte, error) {
	if create {
		if _, err := t.exec(ctx, createForgetKey); err != nil {
			return nil, fmt.Errorf("forget key: %w", err)
		}
		key := make([]byte, 32)
		rand.Read(key)
		if _, err := t.exec(ctx, `INSERT OR IGNORE INTO forget_key (id, key) VALUES (1, ?)`, key); err != nil {
			return nil, fmt.Errorf("forget key: %w", err)
		}
	} else if firstString(ctx, t, `SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'forget_key'`) == "" {
		return nil, nil
	}
	var key []byte
	if err := t.queryRow(ctx, `SELECT key FROM forget_key WHERE id = 1`).Scan(&key); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("forget key: %w", err)
	}
	if len(key) == 0 {
		return nil, nil
	}
	return key, nil
}

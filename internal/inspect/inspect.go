// Package inspect gathers the record behind a citation id: the memory or message it names, in context.
package inspect

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// ErrBadID is returned for text that is no citation id at all.
var ErrBadID = errors.New("not a citation id: want mem: followed by hex digits, or #N for a captured message")

// ErrNotFound is returned for a well-formed id that names nothing stored.
var ErrNotFound = errors.New("no such memory or message")

// Ref is what a citation id names: an entry or an event, never both.
type Ref struct {
	Entry *store.Entry
	Event *store.Event
}

// ID is the citation id of what r names: "mem:…" for an entry, "#N" for an event.
func (r Ref) ID() string {
	if r.Entry != nil {
		return r.Entry.CID
	}
	if r.Event != nil {
		return EventID(r.Event.ID)
	}
	return ""
}

// EventID is the citation id of a captured message or other event.
func EventID(id int64) string { return "#" + strconv.FormatInt(id, 10) }

// Parse checks the form of a citation id. It returns the memory id for an
// entry, or the event's number for an event; ErrBadID for anything else.
func Parse(id string) (cid string, event int64, err error) {
	id = strings.TrimSpace(strings.Trim(strings.TrimSpace(id), "[]"))
	// A recalled message's citation id names its event.
	if n, ok := store.ParseEventCID(id); ok {
		return "", n, nil
	}
	if rest, ok := strings.CutPrefix(id, "mem:"); ok {
		if len(rest) < 4 || strings.Trim(rest, "0123456789abcdef") != "" {
			return "", 0, fmt.Errorf("%q: %w", id, ErrBadID)
		}
		return id, 0, nil
	}
	if n, err := strconv.ParseInt(strings.TrimPrefix(id, "#"), 10, 64); err == nil && n > 0 {
		return "", n, nil
	}
	// Models and people drop the prefix: "ab12cd" is mem:ab12cd, "t2bx" the
	// message mem:t2bx. Bare digits stay a message number (#N), never a
	// memory id.
	if strings.Trim(id, "0123456789") != "" && !strings.Contains(id, ":") {
		if cid, n, err := Parse("mem:" + id); err == nil {
			return cid, n, nil
		}
	}
	return "", 0, fmt.Errorf("%q: %w", id, ErrBadID)
}

// Lookup resolves a citation id, of an entry or of an event, to what it
// names. It is the one place ids are resolved: show, the MCP tools and the
// citation check at Stop all come through here. Returns ErrBadID for a
// malformed id and ErrNotFound for one that names nothing.
func Lookup(ctx context.Context, db *store.DB, id string) (Ref, error) {
	cid, n, err := Parse(id)
	if err != nil {
		return Ref{}, err
	}
	if cid != "" {
		x, err := db.EntryByCID(ctx, cid)
		if errors.Is(err, store.ErrNotFound) {
			return Ref{}, fmt.Errorf("%s: %w", cid, ErrNotFound)
		}
		if err != nil {
			return Ref{}, err
		}
		return Ref{Entry: &x}, nil
	}
	ev, err := db.Event(ctx, n)
	if errors.Is(err, store.ErrNotFound) {
		return Ref{}, fmt.Errorf("%s: %w", EventID(n), ErrNotFound)
	}
	if err != nil {
		return Ref{}, err
	}
	return Ref{Event: &ev}, nil
}

// SortEvents orders events by time, then by id.
func SortEvents(evs []store.Event) {
	sort.SliceStable(evs, func(i, j int) bool {
		if !evs[i].Time.Equal(evs[j].Time) {
			return evs[i].Time.Before(evs[j].Time)
		}
		return evs[i].ID < evs[j].ID
	})
}

// Sessions loads each session's events once, in the order they happened.
type Sessions struct {
	db   *store.DB
	byID map[string][]store.Event
}

// NewSessions returns an empty cache over db.
func NewSessions(db *store.DB) *Sessions {
	return &Sessions{db: db, byID: map[string][]store.Event{}}
}

var conversationTypes = []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}

// Conversation returns the session's prompts, answers and tool observations in time order.
func (c *Sessions) Conversation(ctx context.Context, session string) ([]store.Event, error) {
	if evs, ok := c.byID[session]; ok {
		return evs, nil
	}
	evs, err := c.db.Read().Events(ctx, store.EventFilter{SessionID: session, Types: conversationTypes})
	if err != nil {
		return nil, err
	}
	SortEvents(evs)
	c.byID[session] = evs
	return evs, nil
}

// Around returns up to n events before and after ev in its session: among
// the conversation for a conversation event, among all events otherwise.
func (c *Sessions) Around(ctx context.Context, ev store.Event, n int) (before, after []store.Event, err error) {
	if ev.SessionID == "" || n == 0 {
		return nil, nil, nil
	}
	var evs []store.Event
	if ev.Conversation() {
		evs, err = c.Conversation(ctx, ev.SessionID)
	} else {
		evs, err = c.db.Read().Events(ctx, store.EventFilter{SessionID: ev.SessionID})
		SortEvents(evs)
	}
	if err != nil {
		return nil, nil, err
	}
	i := indexOfEvent(evs, ev.ID)
	if i < 0 {
		return nil, nil, nil
	}
	return evs[max(0, i-n):i], evs[i+1 : min(len(evs), i+1+n)], nil
}

func indexOfEvent(evs []store.Event, id int64) int {
	for i, e := range evs {
		if e.ID == id {
			return i
		}
	}
	return -1
}

// Memory is everything known about one entry.
type Memory struct {
	Entry store.Entry
	// Evidence is the quotes LoadMemory was asked for, in the order they
	// were said; Quotes is how many the memory has: a claim said in every
	// session has one in each.
	Evidence  []Evidence
	Quotes    int
	Conflicts []Conflict
	// Injections and Citations are the memory_injected and memory_cited
	// events that name it: the prompts it was shown in, the answers that used it.
	Injections []store.Event
	Citations  []store.Event
	// Corrections are the user's verify, reject, edit, pin and unpin of it,
	// oldest first; Pinned is where the last pin or unpin left it.
	Corrections []store.Event
	Pinned      bool
}

// Evidence is one quote of a memory, with the message it was found in and
// that message's neighbours.
type Evidence struct {
	store.Evidence
	N             int          // its place among the memory's quotes in the order they were said, from 1
	Event         *store.Event // nil when the message is no longer stored
	Before, After []store.Event
}

// Conflict is one recorded disagreement, seen from the memory's side.
type Conflict struct {
	Other      string // the other side's citation id, "" when it is gone
	OtherTitle string
	Relation   string // supersedes, superseded_by, contradicts
	Kind       string
	Reason     string
	Detected   time.Time
	Resolution string
}

// LoadMemory gathers a memory with its quotes in the order they were said,
// each with the message it was found in and n messages on either side, its
// conflicts and its history. With max > 0 it reads at most max quotes: the
// first said, where the memory came from, and the latest. Returns an error
// wrapping ErrNotFound when no entry has the id.
func LoadMemory(ctx context.Context, db *store.DB, sc *Sessions, cid string, n, max int) (Memory, error) {
	var m Memory
	x, err := db.EntryByCID(ctx, cid)
	if errors.Is(err, store.ErrNotFound) {
		return m, fmt.Errorf("%s: %w", cid, ErrNotFound)
	}
	if err != nil {
		return m, err
	}
	m.Entry = x
	quotes, err := bySaid(ctx, db, x)
	if err != nil {
		return m, err
	}
	m.Quotes = len(quotes)
	for _, i := range sample(len(quotes), max) {
		v := quotes[i]
		ev := Evidence{Evidence: v, N: i + 1}
		if v.EventID != 0 {
			src, err := db.Event(ctx, v.EventID)
			switch {
			case errors.Is(err, store.ErrNotFound):
			case err != nil:
				return m, err
			default:
				ev.Event = &src
				if ev.Before, ev.After, err = sc.Around(ctx, src, n); err != nil {
					return m, err
				}
			}
		}
		m.Evidence = append(m.Evidence, ev)
	}
	if m.Conflicts, err = conflicts(ctx, db, x); err != nil {
		return m, err
	}
	evs, err := db.EntryEvents(ctx, x)
	if err != nil {
		return m, err
	}
	for _, ev := range evs {
		switch ev.Type {
		case store.TypeMemoryInjected:
			m.Injections = append(m.Injections, ev)
		case store.TypeMemoryCited:
			m.Citations = append(m.Citations, ev)
		case store.TypeCertified, store.TypeRejected, store.TypeEdited, store.TypePinned, store.TypeUnpinned:
			m.Corrections = append(m.Corrections, ev)
			if ev.Type == store.TypePinned || ev.Type == store.TypeUnpinned {
				m.Pinned = ev.Type == store.TypePinned
			}
		}
	}
	return m, nil
}

// Note says which of the memory's quotes LoadMemory left out, or is ""
// when it read them all. When it left some out it read as many as it was
// allowed, so that number names what was shown.
func (m Memory) Note() string {
	left := m.Quotes - len(m.Evidence)
	if left <= 0 {
		return ""
	}
	return fmt.Sprintf("%s not shown; shown: %s", plural.Of(left, "more quote"), firstAndLatest(len(m.Evidence), " said"))
}

// bySaid returns x's quotes in the order they were said
// (store.QuotesBySaid). One stored since x was read is left out.
func bySaid(ctx context.Context, db *store.DB, x store.Entry) ([]store.Evidence, error) {
	ids, err := db.QuotesBySaid(ctx, x.ID)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]store.Evidence, len(x.Evidence))
	for _, v := range x.Evidence {
		byID[v.ID] = v
	}
	out := make([]store.Evidence, 0, len(x.Evidence))
	for _, id := range ids {
		if v, ok := byID[id]; ok {
			out = append(out, v)
		}
	}
	return out, nil
}

// sample picks which of n quotes (or records), oldest first, to read: at
// most max of them (all when max is 0), the first and the max-1 latest.
func sample(n, max int) []int {
	out := make([]int, 0, n)
	for i := range n {
		if max <= 0 || n <= max || i == 0 || i >= n-(max-1) {
			out = append(out, i)
		}
	}
	return out
}

// firstAndLatest names what sample keeps of more than max: "the first said
// and the 4 latest".
func firstAndLatest(max int, verb string) string {
	switch max {
	case 1:
		return "the first" + verb
	case 2:
		return "the first" + verb + " and the latest"
	}
	return fmt.Sprintf("the first%s and the %d latest", verb, max-1)
}

func conflicts(ctx context.Context, db *store.DB, x store.Entry) ([]Conflict, error) {
	cs, err := db.Conflicts(ctx, []int64{x.ID}, 0)
	if err != nil {
		return nil, err
	}
	var out []Conflict
	seenSuccessor := false
	for _, c := range cs {
		other := c.Older
		rel := "contradicts"
		if c.Older == x.ID {
			other = c.Newer
		}
		if c.Kind == "supersedes" {
			rel = "supersedes"
			if c.Older == x.ID {
				rel = "superseded_by"
				seenSuccessor = seenSuccessor || other == x.SupersededBy
			}
		}
		cv := Conflict{Relation: rel, Kind: c.Kind, Reason: c.Reason, Detected: c.Detected, Resolution: c.Resolution}
		if o, err := db.Read().EntryByID(ctx, other); err == nil {
			cv.Other, cv.OtherTitle = o.CID, o.Title
		}
		out = append(out, cv)
	}
	if x.SupersededBy != 0 && !seenSuccessor {
		cv := Conflict{Relation: "superseded_by", Kind: "supersedes"}
		if o, err := db.Read().EntryByID(ctx, x.SupersededBy); err == nil {
			cv.Other, cv.OtherTitle = o.CID, o.Title
		}
		out = append(out, cv)
	}
	return out, nil
}

// Item is one event of a timeline and why it is there.
type Item struct {
	store.Event
	Role string // evidence (a quoted message), context (near one), lifecycle (the memory's own record)
}

// Omitted counts what a timeline left out.
type Omitted struct {
	Quotes  int // quotes whose messages are not shown
	Records int // events of the memory's own record not shown
	limit   int // Timeline's max
}

// Note says what the timeline left out, or is "" when nothing.
func (o Omitted) Note() string {
	var parts []string
	if o.Quotes > 0 {
		parts = append(parts, "the messages around "+plural.Of(o.Quotes, "more quote"))
	}
	if o.Records > 0 {
		parts = append(parts, plural.Of(o.Records, "more record")+" of the memory's life")
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("not shown: %s; shown of each kind: %s", strings.Join(parts, " and "), firstAndLatest(o.limit, ""))
}

// Timeline gathers, in time order, the messages within window positions of
// each quoted message of x and the events that record the memory's life.
// With max > 0 it takes at most max quotes found in a message, as
// LoadMemory does, and at most max records of each kind: the first and the
// latest. A claim said in 900 sessions otherwise brings 900 extractions and
// 900 alignments.
func Timeline(ctx context.Context, db *store.DB, x store.Entry, window, max int) ([]Item, Omitted, error) {
	left := Omitted{limit: max}
	sc := NewSessions(db)
	roles := map[int64]string{}
	byID := map[int64]store.Event{}
	quotes, err := bySaid(ctx, db, x)
	if err != nil {
		return nil, left, err
	}
	quotes = slices.DeleteFunc(quotes, func(v store.Evidence) bool { return v.EventID == 0 }) // no messages around them
	picked := sample(len(quotes), max)
	left.Quotes = len(quotes) - len(picked)
	for _, i := range picked {
		v := quotes[i]
		src, err := db.Event(ctx, v.EventID)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, left, err
		}
		before, after, err := sc.Around(ctx, src, window)
		if err != nil {
			return nil, left, err
		}
		for _, ev := range append(before, after...) {
			if roles[ev.ID] == "" {
				roles[ev.ID], byID[ev.ID] = "context", ev
			}
		}
		roles[src.ID], byID[src.ID] = "evidence", src
	}
	life, err := db.EntryEvents(ctx, x)
	if err != nil {
		return nil, left, err
	}
	byType := map[string][]store.Event{}
	for _, ev := range life {
		byType[ev.Type] = append(byType[ev.Type], ev)
	}
	for _, evs := range byType {
		picked := sample(len(evs), max)
		left.Records += len(evs) - len(picked)
		for _, i := range picked {
			roles[evs[i].ID], byID[evs[i].ID] = "lifecycle", evs[i]
		}
	}
	evs := make([]store.Event, 0, len(byID))
	for _, ev := range byID {
		evs = append(evs, ev)
	}
	SortEvents(evs)
	out := make([]Item, len(evs))
	for i, ev := range evs {
		out[i] = Item{ev, roles[ev.ID]}
	}
	return out, left, nil
}

package recall

import (
	"context"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Kinds of search result.
const (
	KindEntry = "entry"
)

// SearchOptions select what Search looks through.
type SearchOptions struct {
	Query   string
	Project string   // "" searches every project
	Kinds   []string // entry, user_prompt, agent_response, tool_observation; empty means all
	Stages  []string // entry stages; empty means all but rejected
	Types   []string // entry types (decision, fact, ...); empty means all. Events have none, so a type leaves them out
	Session string   // "" searches every session
	Since   time.Time
	Until   time.Time // results before this only; zero for no bound
	Limit   int
}

// Result is one ranked search result: a memory entry or a captured event.
type Result struct {
	ID          string // "mem:ab12cd" for an entry, the event id for an event
	Kind        string // entry, user_prompt, agent_response, tool_observation
	Stage       string // entries only
	Status      string // entries only
	Type        string // entries: decision, fact, ...
	Title       string // entries only
	SessionID   string
	Project     string
	Timestamp   time.Time
	Score       float64
	Text        string
	SourceUUIDs []string // transcript rows the result was built from
}

// Tuning of the event ranking, measured on the LoCoMo dev split
// (internal/recall/locomo_test.go; scripts/locomo.sh for the CLI run).
const (
	eventCandidates = 400 // FTS hits re-ranked per query
	coverageWeight  = 2.5 // bonus per share of the query's terms a result contains
	neighbourWeight = 0.6 // share of an adjacent turn's score a result inherits
	sessionWeight   = 1.0 // share of its session's strength a result inherits
	entryWeight     = 0.4 // entry scores relative to the best event's: a distilled claim is short, so raw BM25 overrates it
)

// Search ranks entries and events for a query. Events are scored by BM25,
// then re-ranked by how many of the query's terms they contain, by the
// strength of the adjacent turns (an answer often sits next to its question)
// and by the strength of their session (related turns cluster). Entries are
// merged in on the same scale.
func Search(ctx context.Context, db *store.DB, opt SearchOptions) ([]Result, error) {
	terms := Terms(opt.Query)
	if len(terms) == 0 {
		return nil, nil
	}
	limit := opt.Limit
	if limit <= 0 {
		limit = 10
	}
	want := func(kind string) bool {
		if len(opt.Kinds) == 0 {
			return true
		}
		for _, k := range opt.Kinds {
			if k == kind {
				return true
			}
		}
		return false
	}
	var out []Result
	var eventTypes []string
	for _, t := range []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation} {
		if want(t) && len(opt.Types) == 0 {
			eventTypes = append(eventTypes, t)
		}
	}
	best := 1.0
	if len(eventTypes) > 0 {
		evs, err := searchEvents(ctx, db, opt, terms, eventTypes)
		if err != nil {
			return nil, err
		}
		if len(evs) > 0 {
			best = evs[0].Score
		}
		out = append(out, evs...)
	}
	if want(KindEntry) {
		es, err := searchEntries(ctx, db, opt, terms, best)
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return dedupe(out, limit), nil
}

// dedupe drops results that add nothing: an entry whose evidence rows are all
// covered by results ranked above it, or an event already quoted by an entry
// above it. It stops at limit results.
func dedupe(rs []Result, limit int) []Result {
	seen := map[string]bool{}
	var out []Result
	for _, r := range rs {
		if len(out) == limit {
			break
		}
		fresh := len(r.SourceUUIDs) == 0
		for _, u := range r.SourceUUIDs {
			if !seen[u] {
				fresh = true
			}
		}
		if !fresh {
			continue
		}
		for _, u := range r.SourceUUIDs {
			seen[u] = true
		}
		out = append(out, r)
	}
	return out
}

func searchEvents(ctx context.Context, db *store.DB, opt SearchOptions, terms []string, types []string) ([]Result, error) {
	hits, err := eventHits(ctx, db, store.EventQuery{Project: opt.Project, SessionID: opt.Session, Types: types,
		Since: opt.Since, Until: opt.Until, Limit: eventCandidates}, terms)
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	evs := make([]store.Event, len(hits))
	base := make([]float64, len(hits))
	for i, h := range hits {
		text := strings.ToLower(h.Text)
		matched := 0
		for _, t := range terms {
			if containsTerm(text, t) {
				matched++
			}
		}
		evs[i], base[i] = h.Event, h.Score*(1+coverageWeight*float64(matched)/float64(len(terms)))
	}
	var out []Result
	for i, s := range inContext(evs, base) {
		h := hits[i]
		out = append(out, Result{
			ID: strconv.FormatInt(h.ID, 10), Kind: h.Type, SessionID: h.SessionID, Project: h.Project,
			Timestamp: h.Time, Score: s, Text: h.Text, SourceUUIDs: eventUUIDs(h.Event),
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out, nil
}

// inContext raises each event's own score, base[i], by a share of its
// adjacent turns' (an answer often sits next to its question) and by the
// strength of its session (related turns cluster): the mean of the session's
// three best turns, relative to the best session's.
func inContext(evs []store.Event, base []float64) []float64 {
	at := make(map[int64]int, len(evs))
	session := map[string][]float64{}
	for i, e := range evs {
		at[e.ID] = i
		session[e.SessionID] = append(session[e.SessionID], base[i])
	}
	strength, top := map[string]float64{}, 0.0
	for sid, ss := range session {
		sort.Sort(sort.Reverse(sort.Float64Slice(ss)))
		sum := 0.0
		for _, v := range ss[:min(3, len(ss))] {
			sum += v
		}
		strength[sid] = sum / 3
		top = math.Max(top, strength[sid])
	}
	out := make([]float64, len(evs))
	for i, e := range evs {
		s := base[i]
		for _, n := range []int64{e.ID - 1, e.ID + 1} {
			if j, ok := at[n]; ok && evs[j].SessionID == e.SessionID {
				s += neighbourWeight * base[j] / 2
			}
		}
		if top > 0 {
			s *= 1 + sessionWeight*strength[e.SessionID]/top
		}
		out[i] = s
	}
	return out
}

// rankBudget is about how many rows one full-text query may rank: BM25 is
// computed for every row a MATCH selects, ~1.5 µs a row here, and a query
// of common words over a large store (half of 100k messages hold "test")
// spent ~90 ms ranking rows of which it keeps 400.
const rankBudget = 5000

// eventHits returns the events to re-rank. The rows holding every term come
// first: in a large store a query of common words is answered from them
// alone, cheaply. They are matched on whole (stemmed) words: a prefix query
// merges the lists of every word that starts with the term ("20" with
// "2026", "2027", ...), a third of a search's time on 100k messages. When they do not fill the list and the terms' rows
// together stay within rankBudget (any store of a few thousand messages),
// it is the best by BM25 of the rows holding any term, as always. Beyond the
// budget, the rows holding the rarest terms (those within the budget, the
// rarest one at least) are added to those holding every term: rows holding
// only the common terms rank low anyway, BM25 weighing a term by its rarity.
func eventHits(ctx context.Context, db *store.DB, q store.EventQuery, terms []string) ([]store.EventHit, error) {
	var all []store.EventHit
	if len(terms) > 1 {
		q.Match = store.MatchAll(terms, false)
		hits, err := db.SearchEvents(ctx, q)
		if err != nil || len(hits) >= q.Limit {
			return hits, err
		}
		all = hits
	}
	type df struct {
		term string
		n    int
	}
	dfs := make([]df, len(terms))
	total := 0
	for i, t := range terms {
		n, err := db.CountEventMatches(ctx, store.MatchAny([]string{t}, true), rankBudget+1)
		if err != nil {
			return nil, err
		}
		dfs[i] = df{t, n}
		total += n
	}
	if total <= rankBudget {
		q.Match = store.MatchAny(terms, true)
		return db.SearchEvents(ctx, q)
	}
	sort.SliceStable(dfs, func(i, j int) bool { return dfs[i].n < dfs[j].n })
	var rare []string
	sum := 0
	for _, d := range dfs {
		if len(rare) > 0 && sum+d.n > rankBudget {
			break
		}
		rare, sum = append(rare, d.term), sum+d.n
	}
	q.Match = store.MatchAny(rare, true)
	hits, err := db.SearchEvents(ctx, q)
	if err != nil {
		return nil, err
	}
	all = union(all, hits, eventID)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Score > all[j].Score })
	return all[:min(len(all), q.Limit)], nil
}

// eventUUIDs are the transcript rows an event came from: its own uuid, or the
// uuids listed in its payload for a message merged from several rows.
func eventUUIDs(e store.Event) []string {
	if e.SourceUUID != "" {
		return []string{e.SourceUUID}
	}
	var p struct {
		UUIDs []string `json:"uuids"`
	}
	if json.Unmarshal(e.Payload, &p) == nil && len(p.UUIDs) > 0 {
		return p.UUIDs[:1]
	}
	return []string{}
}

func searchEntries(ctx context.Context, db *store.DB, opt SearchOptions, terms []string, bestEvent float64) ([]Result, error) {
	stages := opt.Stages
	if len(stages) == 0 {
		stages = []string{store.StageCandidate, store.StageVerified, store.StageCertified}
	}
	q := store.EntryQuery{Project: opt.Project, SessionID: opt.Session, Types: opt.Types, Stages: stages,
		Statuses: []string{store.StatusActive, store.StatusContested, store.StatusSuperseded}, Limit: 50}
	var hits []store.EntryHit
	var err error
	// As for events (see eventHits): the entries holding every term first.
	if len(terms) > 1 {
		q.Match = store.MatchAll(terms, false)
		if hits, err = db.SearchEntries(ctx, q); err != nil {
			return nil, err
		}
	}
	if len(hits) < q.Limit {
		q.Match = store.MatchAny(terms, true)
		if hits, err = db.SearchEntries(ctx, q); err != nil {
			return nil, err
		}
	}
	if len(hits) == 0 {
		return nil, nil
	}
	bestEntry := hits[0].Score
	var out []Result
	for _, h := range hits {
		if !opt.Since.IsZero() && h.Created.Before(opt.Since) || !opt.Until.IsZero() && !h.Created.Before(opt.Until) {
			continue
		}
		text := strings.ToLower(entryText(h.Entry))
		matched := 0
		for _, t := range terms {
			if containsTerm(text, t) {
				matched++
			}
		}
		s := h.Score / bestEntry * bestEvent * entryWeight * (0.5 + float64(matched)/float64(len(terms)))
		s *= stageWeight(h.Stage) * statusWeight(h.Status)
		if h.Stage == store.StageCandidate {
			s *= 0.7
		}
		if h.Status == store.StatusSuperseded {
			s *= 0.6
		}
		uuids := []string{}
		seen := map[string]bool{}
		for _, v := range h.Evidence {
			if v.SourceUUID != "" && !seen[v.SourceUUID] {
				seen[v.SourceUUID] = true
				uuids = append(uuids, v.SourceUUID)
			}
		}
		text = h.Title
		if h.Body != "" && h.Body != h.Title {
			text += " — " + h.Body
		}
		out = append(out, Result{
			ID: h.CID, Kind: KindEntry, Stage: h.Stage, Status: h.Status, Type: h.Type, Title: h.Title,
			SessionID: h.SessionID, Project: h.Project, Timestamp: h.Created, Score: s, Text: text, SourceUUIDs: uuids,
		})
	}
	return out, nil
}

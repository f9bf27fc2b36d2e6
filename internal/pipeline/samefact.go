package pipeline

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// One memory per fact. The store merges a claim said again under the same
// claim key (the same subject and the same content words); facts tells
// when a claim in other words is the same fact as one the project holds,
// by the rule the offline extractor merges a session's own repeats by (same
// kind and subject, most words shared), so that a later session adds its
// quote to the memory instead of making a second one. A claim that gives
// another value, or says it changes one, is never the same fact: that is a
// conflict for the ledger.

// sameFactWords is the share of their content words (Jaccard) two claims
// about one subject share at least to be one fact.
const sameFactWords = 0.5

// fact is what facts compares of a stored or planned entry.
type fact struct {
	typ, claimKey string
	about         string   // its subject
	subject       []string // its subject's words
	words         []string // the content words of its title (ClaimKey's)
	text          string   // title and body, for its values
	// closed is a memory no longer held (forgotten, superseded or
	// rejected): a fact said again after it was replaced is a reversal,
	// a memory of its own, not a quote for the closed one.
	closed  bool
	created time.Time
	id      int64 // 0 for a write not stored yet
}

func factOf(e store.Entry) fact {
	_, words, _ := strings.Cut(e.ClaimKey, "|")
	subject := strings.FieldsFunc(e.Subject, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return fact{typ: e.Type, claimKey: e.ClaimKey, about: e.Subject, subject: subject,
		words: strings.Fields(words), text: e.Title + "\n" + e.Body, created: e.Created, id: e.ID,
		closed: e.Status == store.StatusForgotten || e.Status == store.StatusSuperseded || e.Stage == store.StageRejected}
}

// facts is a project's entries by subject, read from the store as needed
// and added to as writes land on them.
type facts struct {
	project   string
	bySubject map[string][]fact
	// cache, when set, keeps what was read for the sessions after this
	// one (Processor.facts); nil reads the store again each time.
	cache *factCache
	// parse is claim.Parse, or the Processor's cache of it.
	parse func(string) []claim.Claim
	// valueIDs keeps the ids sameValue looked up (with cache set), by type
	// and values. Apply places one session's writes with a facts of their
	// own, and the store does not change meanwhile; the session's claims
	// often give the same values (a fifth of the lookups in the realistic
	// history).
	valueIDs map[string][]int64
	// Reextract sets these: a claim whose own entry repeats an older one
	// (two memories of one fact, stored before they were merged) moves to
	// the older, unless its entry is in kept (the user corrected it);
	// moved maps the claim keys moved to their new ones.
	kept  map[string]bool
	moved map[string]string
}

func newFacts(project string) *facts {
	return &facts{project: project, bySubject: map[string][]fact{}, parse: claim.Parse}
}

// place gives each write the claim key of the project's entry it repeats,
// when it has no entry of its own key yet, and records it for the writes
// after it.
func (f *facts) place(ctx context.Context, st *store.Tx, writes []store.EntryWrite) error {
	for i := range writes {
		e := &writes[i].Entry
		if e.Subject == "" {
			continue // no subject: only its claim key says what it repeats
		}
		known, ok := f.bySubject[e.Subject]
		if !ok {
			var err error
			if known, err = f.subject(ctx, st, e.Subject); err != nil {
				return err
			}
		}
		w := factOf(*e)
		if f.moved != nil && !f.kept[w.claimKey] {
			k, err := f.older(ctx, st, known, w)
			if err != nil {
				return err
			}
			if k != "" {
				f.moved[w.claimKey] = k
				if err := rekey(&writes[i], k); err != nil {
					return err
				}
				w.claimKey = k
				f.bySubject[e.Subject] = append(known, w)
				continue
			}
		}
		if !slices.ContainsFunc(known, func(k fact) bool { return k.claimKey == w.claimKey }) {
			k, err := f.match(ctx, st, known, w)
			if err != nil {
				return err
			}
			// A change is a memory of its own (sameFactAt): the entries
			// giving its values cannot take it, so they are not looked up.
			// 44 % of the lookups in the bench's 22k-message import.
			if k == "" && !claim.ChangeCue(w.text) {
				others, err := f.sameValue(ctx, st, w)
				if err != nil {
					return err
				}
				if k, err = f.match(ctx, st, others, w); err != nil {
					return err
				}
			}
			if k != "" {
				if err := rekey(&writes[i], k); err != nil {
					return err
				}
				w.claimKey = k
			}
			known = append(known, w)
		}
		f.bySubject[e.Subject] = known
	}
	return nil
}

// subject returns the facts of the project's entries about subject, newest
// first (as Entries lists them).
func (f *facts) subject(ctx context.Context, st *store.Tx, subject string) ([]fact, error) {
	if known, ok := f.cache.get(f.project, subject); ok {
		return known, nil
	}
	es, err := st.Entries(ctx, store.EntryFilter{Project: f.project, Subject: subject})
	if err != nil {
		return nil, err
	}
	known := make([]fact, len(es))
	for i, x := range es {
		known[i] = factOf(x)
	}
	f.cache.put(f.project, subject, known)
	return known, nil
}

// match is sameFact on facts that may come from the cache: the entry a
// claim would merge into is read again first, and when it changed since
// it was cached (forgotten, superseded or rejected meanwhile, or gone
// with a rolled-back write) the choice is made again on what it is now.
// Merging only ever writes into an entry as the store holds it.
func (f *facts) match(ctx context.Context, st *store.Tx, known []fact, w fact) (string, error) {
	checked := map[int64]bool{}
	for {
		i := sameFactAt(known, w, f.parse)
		if i < 0 {
			return "", nil
		}
		k := known[i]
		if f.cache == nil || k.id == 0 || checked[k.id] {
			return k.claimKey, nil
		}
		checked[k.id] = true
		es, err := st.Entries(ctx, store.EntryFilter{Project: f.project, IDs: []int64{k.id}})
		if err != nil {
			return "", err
		}
		now := k
		now.closed = true // gone, or no longer the entry cached
		if len(es) == 1 && es[0].ClaimKey == k.claimKey && es[0].Subject == k.about {
			now = factOf(es[0])
		}
		if now.same(k) {
			return k.claimKey, nil
		}
		known[i] = now
		f.cache.update(f.project, now)
	}
}

// rekey moves w onto the memory of claim key k, and its extraction
// records with it: forget finds those records by the claim key of the
// memory forgotten, and one left under w's own key would keep its title,
// quotes and questions after the memory is gone.
func rekey(w *store.EntryWrite, k string) error {
	w.Entry.ClaimKey = k
	for i := range w.Events {
		b, ok := store.WithClaimKey(w.Events[i].Payload, k)
		if !ok {
			continue
		}
		w.Events[i].Payload = b
		if err := store.Prepare(w.Events[i : i+1]); err != nil {
			return err
		}
	}
	return nil
}

// older returns the claim key of a fact older than w's own entry that w
// states (of known, or giving one of its values), "" when w has no entry
// of its own or none is.
func (f *facts) older(ctx context.Context, st *store.Tx, known []fact, w fact) (string, error) {
	i := slices.IndexFunc(known, func(k fact) bool { return k.claimKey == w.claimKey })
	if i < 0 {
		return "", nil
	}
	others, err := f.sameValue(ctx, st, w)
	if err != nil {
		return "", err
	}
	var before []fact
	for _, k := range append(slices.Clone(known), others...) {
		if k.claimKey != w.claimKey && earlier(k, known[i]) {
			before = append(before, k)
		}
	}
	slices.SortStableFunc(before, func(a, b fact) int {
		switch {
		case earlier(a, b):
			return -1
		case earlier(b, a):
			return 1
		}
		return 0
	})
	return sameFact(before, w, f.parse), nil
}

// earlier reports whether a was said before b, the one stored first of
// two said at once.
func earlier(a, b fact) bool {
	if !a.created.Equal(b.created) {
		return a.created.Before(b.created)
	}
	return a.id != 0 && (b.id == 0 || a.id < b.id)
}

// sameValue lists the entries that may state w's fact under a subject
// worded otherwise ("sdk server" and "backend (sdk server)"): those giving
// one of w's values (through the entry_roles index) whose subject shares a
// word with w's.
func (f *facts) sameValue(ctx context.Context, st *store.Tx, w fact) ([]fact, error) {
	var values []string
	for _, c := range f.parse(w.text) {
		if !c.Negated && !slices.Contains(values, c.Value) {
			values = append(values, c.Value)
		}
	}
	if len(values) == 0 {
		return nil, nil
	}
	filter := store.EntryFilter{Project: f.project, Types: []string{w.typ}, Values: values, Limit: sameValueLimit}
	var all []fact
	if f.cache == nil {
		es, err := st.Entries(ctx, filter)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			all = append(all, factOf(e))
		}
	} else {
		// The entries found are mostly the same from one session to the
		// next (a value said in every session): only those not read yet
		// are.
		key := w.typ + "\x00" + strings.Join(values, "\x00")
		ids, ok := f.valueIDs[key]
		if !ok {
			var err error
			if ids, err = st.EntryIDs(ctx, filter); err != nil {
				return nil, err
			}
			if f.valueIDs == nil {
				f.valueIDs = map[string][]int64{}
			}
			f.valueIDs[key] = ids
		}
		got := f.cache.byIDs(ids)
		var missing []int64
		for _, id := range ids {
			if _, ok := got[id]; !ok {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			es, err := st.Entries(ctx, store.EntryFilter{Project: f.project, IDs: missing})
			if err != nil {
				return nil, err
			}
			for _, e := range es {
				got[e.ID] = factOf(e)
			}
			f.cache.stored(f.project, es)
		}
		for _, id := range ids {
			if k, ok := got[id]; ok {
				all = append(all, k)
			}
		}
	}
	var known []fact
	for _, k := range all {
		if slices.ContainsFunc(k.subject, func(s string) bool { return slices.Contains(w.subject, s) }) {
			known = append(known, k)
		}
	}
	return known, nil
}

// sameValueLimit bounds the entries sameValue compares: a value said in
// every session (localhost) is in many.
const sameValueLimit = 50

// sameFact returns the claim key of the first of known (same subject as w)
// that states w's fact, "" for none; parse is claim.Parse or a cache of it.
func sameFact(known []fact, w fact, parse func(string) []claim.Claim) string {
	if i := sameFactAt(known, w, parse); i >= 0 {
		return known[i].claimKey
	}
	return ""
}

// sameFactAt is sameFact's index in known, -1 for none.
func sameFactAt(known []fact, w fact, parse func(string) []claim.Claim) int {
	if claim.ChangeCue(w.text) {
		return -1 // a change is a memory of its own, which supersedes
	}
	var mine []claim.Claim
	parsed := false
	for i, k := range known {
		if k.closed || k.typ != w.typ || jaccard(k.words, w.words) < sameFactWords || valueWords(k.words, w.words) {
			continue
		}
		if !parsed {
			mine, parsed = parse(w.text), true
		}
		if rel, _, _, _ := claim.Compare(parse(k.text), mine); rel == claim.Contradicts || rel == claim.Supersedes {
			continue
		}
		return i
	}
	return -1
}

// valueWords reports whether the words only one of two claims has include
// a value: a number, a version, a path, a name in code ("port 8080" and
// "port 3000" share most words and disagree).
func valueWords(a, b []string) bool {
	for _, pair := range [2][2][]string{{a, b}, {b, a}} {
		for _, w := range pair[0] {
			if !slices.Contains(pair[1], w) && strings.ContainsAny(w, "0123456789./_:@") {
				return true
			}
		}
	}
	return false
}

// jaccard is the Jaccard index of two word sets.
func jaccard(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for _, w := range a {
		if slices.Contains(b, w) {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// factCache keeps the facts of the entries a Processor read and stored,
// by project and subject and by id, so that an import reads an entry
// once, not at every session that names its subject or value: a subject
// said in every session has hundreds of entries (641 in the realistic
// history), and reading them again per session cost the import a third
// more time. Like roleCache, it can miss an entry another process adds
// meanwhile, costing a merge (the fact gets a second memory, as before
// the merge existed); an entry it holds is read again before a claim
// merges into it (facts.match).
type factCache struct {
	mu        sync.Mutex
	bySubject map[[2]string][]fact // newest first, as Entries lists them
	byID      map[int64]fact
}

// get returns a copy of the facts cached for a project's subject.
func (c *factCache) get(project, subject string) ([]fact, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	known, ok := c.bySubject[[2]string{project, subject}]
	return slices.Clone(known), ok
}

// put caches the facts read for a project's subject.
func (c *factCache) put(project, subject string, known []fact) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.room(len(known))
	c.bySubject[[2]string{project, subject}] = slices.Clone(known)
	for _, k := range known {
		c.byID[k.id] = k
	}
}

// room makes room for n facts more, forgetting everything when full.
func (c *factCache) room(n int) {
	if c.byID == nil || len(c.byID)+n > claim.MaxCached {
		c.bySubject, c.byID = map[[2]string][]fact{}, map[int64]fact{}
	}
}

// byIDs returns the facts cached of the entries ids.
func (c *factCache) byIDs(ids []int64) map[int64]fact {
	c.mu.Lock()
	defer c.mu.Unlock()
	got := make(map[int64]fact, len(ids))
	for _, id := range ids {
		if k, ok := c.byID[id]; ok {
			got[id] = k
		}
	}
	return got
}

// stored records entries as the store holds them (PutEntries stored them,
// created or merged into: an older session moves the date back; or they
// were read), in the facts of their subjects already cached, in the order
// Entries lists them.
func (c *factCache) stored(project string, es []store.Entry) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.room(len(es))
	for _, e := range es {
		if e.ID != 0 {
			c.set(project, factOf(e))
		}
	}
}

// update records what k's entry is now.
func (c *factCache) update(project string, k fact) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.room(1)
	c.set(project, k)
}

func (c *factCache) set(project string, k fact) {
	if _, ok := c.byID[k.id]; ok || len(c.byID) < claim.MaxCached {
		c.byID[k.id] = k
	}
	key := [2]string{project, k.about}
	known, ok := c.bySubject[key]
	if !ok || k.about == "" {
		return
	}
	if i := slices.IndexFunc(known, func(x fact) bool { return x.id == k.id }); i >= 0 {
		known[i] = k
	} else {
		known = append(known, k)
	}
	// Newest first, the later stored first of two said at once.
	slices.SortStableFunc(known, func(a, b fact) int {
		if c := b.created.Compare(a.created); c != 0 {
			return c
		}
		return cmp.Compare(b.id, a.id)
	})
	c.bySubject[key] = known
}

// reset forgets everything: what a failed write left cached may never
// have been stored.
func (c *factCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bySubject, c.byID = nil, nil
}

// same reports whether two facts of one entry say the same thing.
func (a fact) same(b fact) bool {
	return a.id == b.id && a.typ == b.typ && a.claimKey == b.claimKey && a.about == b.about &&
		a.text == b.text && a.closed == b.closed && a.created.Equal(b.created)
}

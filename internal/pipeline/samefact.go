package pipeline

import (
	"context"
	"slices"
	"strings"
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
	return fact{typ: e.Type, claimKey: e.ClaimKey, subject: subject,
		words: strings.Fields(words), text: e.Title + "\n" + e.Body, created: e.Created, id: e.ID,
		closed: e.Status == store.StatusForgotten || e.Status == store.StatusSuperseded || e.Stage == store.StageRejected}
}

// facts is a project's entries by subject, read from the store as needed
// and added to as writes land on them.
type facts struct {
	project   string
	bySubject map[string][]fact
	// Reextract sets these: a claim whose own entry repeats an older one
	// (two memories of one fact, stored before they were merged) moves to
	// the older, unless its entry is in kept (the user corrected it);
	// moved maps the claim keys moved to their new ones.
	kept  map[string]bool
	moved map[string]string
}

func newFacts(project string) *facts {
	return &facts{project: project, bySubject: map[string][]fact{}}
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
			es, err := st.Entries(ctx, store.EntryFilter{Project: f.project, Subject: e.Subject})
			if err != nil {
				return err
			}
			for _, x := range es {
				known = append(known, factOf(x))
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
			k := sameFact(known, w)
			if k == "" {
				others, err := f.sameValue(ctx, st, w)
				if err != nil {
					return err
				}
				k = sameFact(others, w)
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
	return sameFact(before, w), nil
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
	for _, c := range claim.Parse(w.text) {
		if !c.Negated && !slices.Contains(values, c.Value) {
			values = append(values, c.Value)
		}
	}
	if len(values) == 0 {
		return nil, nil
	}
	es, err := st.Entries(ctx, store.EntryFilter{Project: f.project, Types: []string{w.typ}, Values: values, Limit: sameValueLimit})
	if err != nil {
		return nil, err
	}
	var known []fact
	for _, e := range es {
		if k := factOf(e); slices.ContainsFunc(k.subject, func(s string) bool { return slices.Contains(w.subject, s) }) {
			known = append(known, k)
		}
	}
	return known, nil
}

// sameValueLimit bounds the entries sameValue compares: a value said in
// every session (localhost) is in many.
const sameValueLimit = 50

// sameFact returns the claim key of the first of known (same subject as w)
// that states w's fact, "" for none.
func sameFact(known []fact, w fact) string {
	if claim.ChangeCue(w.text) {
		return "" // a change is a memory of its own, which supersedes
	}
	var mine []claim.Claim
	parsed := false
	for _, k := range known {
		if k.closed || k.typ != w.typ || jaccard(k.words, w.words) < sameFactWords || valueWords(k.words, w.words) {
			continue
		}
		if !parsed {
			mine, parsed = claim.Parse(w.text), true
		}
		if rel, _, _, _ := claim.Compare(claim.Parse(k.text), mine); rel == claim.Contradicts || rel == claim.Supersedes {
			continue
		}
		return k.claimKey
	}
	return ""
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

package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// backfillBatch bounds how many entries stored without roles (before the
// role index existed, or by import) one session end parses.
const backfillBatch = 2000

// detectConflicts records, for each entry of this session, a conflict with
// every active or contested entry of another session of the project that
// decides the same role
// (internal/claim) differently: the newer supersedes the older when it says
// so (it names the old value as replaced or rejected, or says it changes the
// same thing), otherwise both become contested. Entries deciding the same
// role are found through the entry_roles index, not by reading the project.
// It returns how many conflicts were new.
func (p *Processor) detectConflicts(ctx context.Context, st *store.Tx, project string, fresh []store.Entry) (int, error) {
	parse := func(e store.Entry) []claim.Claim { return p.claims.Parse(entryText(e)) }
	// This call wrote the fresh entries: what was kept of them is stale.
	p.rivals.forget(fresh)
	// Earlier entries without roles get them now, so the index finds them.
	old, err := st.Entries(ctx, store.EntryFilter{Project: project, RolesUnparsed: true, Limit: backfillBatch, Evidence: true})
	if err != nil {
		return 0, err
	}
	// A new entry this call wrote is among the unparsed ones too: its
	// roles are written once, from the fresh entry (set last, as before).
	isFresh := make(map[int64]bool, len(fresh))
	for _, e := range fresh {
		isFresh[e.ID] = true
	}
	var roles []store.EntryRoles
	for _, e := range old {
		rvs := decisions(parse(e))
		p.roles.add(project, rvs)
		if !isFresh[e.ID] {
			roles = append(roles, store.EntryRoles{ID: e.ID, Roles: rvs})
		}
	}
	for _, e := range fresh {
		rvs := decisions(parse(e))
		roles = append(roles, store.EntryRoles{ID: e.ID, Roles: rvs})
		p.roles.add(project, rvs)
	}
	if err := st.SetRoles(ctx, project, roles); err != nil {
		return 0, err
	}

	looked := map[string][]store.Entry{} // rivals, by what was looked up
	superseded := map[int64]bool{}       // by a conflict found in this call
	recorded := map[[2]int64]bool{}
	var found []store.ConflictWrite
	for _, e := range fresh {
		if !(conflictTypes[e.Type] || changeTypes[e.Type]) || e.Stage == store.StageRejected {
			continue
		}
		rivals, values := lookup(parse(e))
		rivals, err := p.roles.contested(ctx, st, project, rivals)
		if err != nil {
			return 0, err
		}
		if len(rivals)+len(values) == 0 {
			continue
		}
		key := fmt.Sprint(rivals, values)
		others, ok := looked[key]
		if !ok {
			var err error
			// Without evidence: an earlier entry's title and body say what it
			// decided, and a claim repeated in every session has as many
			// quotes as sessions.
			// Their ids first, which says which are active or contested
			// now; the entries are mostly the ones read at the sessions
			// before (a role decided in every session).
			ids, err := st.EntryIDs(ctx, store.EntryFilter{Project: project, Rivals: rivals, Values: values,
				Statuses: []string{store.StatusActive, store.StatusContested}, Limit: maxRivals})
			if err != nil {
				return 0, err
			}
			if others, err = p.rivals.entries(ctx, st, project, ids); err != nil {
				return 0, err
			}
			looked[key] = others
		}
		for _, o := range others {
			// Across sessions only: one session's plan often says both
			// "migrate from X to Y" and "keep X running meanwhile".
			if o.ID == e.ID || o.SessionID == e.SessionID || o.ClaimKey == e.ClaimKey ||
				!(conflictTypes[o.Type] || changeTypes[o.Type]) || o.Stage == store.StageRejected {
				continue
			}
			older, newer := o, e
			if newer.Created.Before(older.Created) || (newer.Created.Equal(older.Created) && newer.ID < older.ID) {
				// The fresh entry is the older one (a history imported out
				// of order): the rival is read by its title and body.
				older, newer = e, o
			}
			if recorded[[2]int64{older.ID, newer.ID}] || superseded[older.ID] {
				continue
			}
			if newer.Stage == store.StageCandidate && (older.Stage == store.StageVerified || older.Stage == store.StageCertified) {
				// An unverified claim (the model's own words, a quote that
				// did not align) changes no verified memory: it neither
				// replaces nor contests one.
				continue
			}
			rel, role, ov, nv := claim.Compare(parse(older), parse(newer))
			if !conflictTypes[older.Type] || !conflictTypes[newer.Type] && rel != claim.Supersedes {
				// A lesson or task takes part only as the newer side of an
				// explicit change ("X turned out too slow, use Y").
				continue
			}
			var kind, reason string
			switch rel {
			case claim.Supersedes:
				kind, reason = "supersedes", fmt.Sprintf("%s replaces %s: %s %s instead of %s", newer.CID, older.CID, role, orSomething(nv), ov)
				superseded[older.ID] = true
			case claim.Contradicts:
				kind, reason = "contradicts", fmt.Sprintf("both decide %s: %s vs %s", role, ov, nv)
			default:
				continue
			}
			recorded[[2]int64{older.ID, newer.ID}] = true
			payload, _ := json.Marshal(map[string]any{"older": older.CID, "newer": newer.CID, "kind": kind, "reason": reason,
				"role": role, "old_value": ov, "new_value": nv, "subject": e.Subject})
			found = append(found, store.ConflictWrite{
				Conflict: store.Conflict{Older: older.ID, Newer: newer.ID, Kind: kind, Reason: reason, Detected: p.now()},
				Event: store.Event{Time: p.now(), Type: store.TypeConflict, SessionID: e.SessionID, Project: project,
					DedupeKey: store.Key(store.KeyConflict, older.CID, newer.CID), Payload: payload}})
		}
	}
	return st.AddConflicts(ctx, found)
}

// maxRivals bounds the entries one lookup reads: the newest of a role are
// the ones a new statement changes.
const maxRivals = 30

// lookup says which earlier entries may conflict with claims cs: those that
// give one of its roles another value (not for identifier roles, a path or
// a branch, which conflict only when named as replaced), and those holding
// a value it replaces or rejects. Entries that agree are not read at all.
func lookup(cs []claim.Claim) (rivals []store.RoleValue, values []string) {
	addValue := func(v string) {
		if v != "" && !slices.Contains(values, v) {
			values = append(values, v)
		}
	}
	for _, c := range cs {
		addValue(c.Replaces)
		if c.Negated {
			addValue(c.Value)
			continue
		}
		if claim.Identifier(c.Role) {
			continue
		}
		for _, rv := range decisions([]claim.Claim{c}) {
			if !slices.Contains(rivals, rv) {
				rivals = append(rivals, rv)
			}
		}
	}
	return rivals, values
}

// decisions lists what claims decide, for the index: each claim's role and
// value, and the value under every other role it can fill, so that a tool
// read in two roles ("Lerna": monorepo tool, release tool) is found
// whichever one each statement read it in. A rejected value decides nothing.
func decisions(cs []claim.Claim) []store.RoleValue {
	var out []store.RoleValue
	add := func(rv store.RoleValue) {
		if !slices.Contains(out, rv) {
			out = append(out, rv)
		}
	}
	for _, c := range cs {
		if c.Negated {
			continue
		}
		add(store.RoleValue{Role: c.Role, Value: c.Value})
		for _, r := range claim.RolesOf(c.Value) {
			add(store.RoleValue{Role: r, Value: c.Value})
		}
	}
	return out
}

// conflictTypes are the entry types that state something that can be
// contradicted; lessons, tasks and references accumulate instead.
var conflictTypes = map[string]bool{"decision": true, "fact": true, "constraint": true, "preference": true}

// changeTypes may still carry a decision's change: a lesson ("X turned out
// too slow, use Y") or a task ("move the backup to 04:30") supersedes an
// earlier decision it names, but is never contested or superseded itself.
var changeTypes = map[string]bool{"lesson": true, "task": true}

func orSomething(v string) string {
	if v == "" {
		return "something else"
	}
	return v
}

// entryText is everything an entry says: title, body and its distinct
// quotes, at most maxQuotes of them (a claim repeated in every session has
// as many quotes as sessions, mostly the same words).
func entryText(e store.Entry) string {
	parts := []string{e.Title, e.Body}
	for _, v := range e.Evidence {
		if len(parts) == 2+maxQuotes {
			break
		}
		if !slices.Contains(parts, v.Quote) {
			parts = append(parts, v.Quote)
		}
	}
	return strings.Join(parts, "\n")
}

// maxQuotes bounds the quotes of an entry that are parsed for its claims.
const maxQuotes = 4

// roleCache holds, per project and role, the values the store's entries
// give the role, as this process read them once and wrote them since. A
// rival lookup asks for the newest entries giving a role another value; when
// every entry gives it the same one ("auth method": 866 entries, one value,
// in the realistic history), the lookup walked all of them to find none.
// Another process's writes meanwhile can be missed, costing a conflict this
// import would have recorded; conflicts are found again at the next session
// that states either side.
type roleCache struct {
	mu sync.Mutex
	m  map[[2]string]map[string]bool
}

// contested returns the rivals whose role has a value besides theirs.
func (c *roleCache) contested(ctx context.Context, st *store.Tx, project string, rivals []store.RoleValue) ([]store.RoleValue, error) {
	var out []store.RoleValue
	for _, r := range rivals {
		if err := c.load(ctx, st, project, r.Role); err != nil {
			return nil, err
		}
		c.mu.Lock()
		vs := c.m[[2]string{project, r.Role}]
		other := len(vs) > 1 || len(vs) == 1 && !vs[r.Value]
		c.mu.Unlock()
		if other {
			out = append(out, r)
		}
	}
	return out, nil
}

// load reads the values of a role the first time it is asked for.
func (c *roleCache) load(ctx context.Context, st *store.Tx, project, role string) error {
	k := [2]string{project, role}
	c.mu.Lock()
	_, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return nil
	}
	list, err := st.RoleValues(ctx, project, role)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[[2]string]map[string]bool{}
	}
	if _, ok := c.m[k]; !ok {
		vs := map[string]bool{}
		for _, v := range list {
			vs[v] = true
		}
		c.m[k] = vs
	}
	return nil
}

// add records values written for a role, if the role was read before.
func (c *roleCache) add(project string, rvs []store.RoleValue) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range rvs {
		if vs, ok := c.m[[2]string{project, r.Role}]; ok {
			vs[r.Value] = true
		}
	}
}

// rivalCache keeps the entries conflict detection read as rivals, by id,
// without evidence: an import compares each session's entries with the
// newest entries of the same roles, mostly those it read at the sessions
// before, and reading them in full again was most of conflict detection's
// time on a large history. Which entries are rivals is read from the store
// each time (their ids, by status); only their contents are kept. An entry
// this Processor stores is forgotten (detectConflicts is given every entry
// a session stored), and everything is forgotten when a write fails. Like
// roleCache, it can miss another process's change to an entry meanwhile (a
// memory reworded or rejected by hand during an import): the conflict is
// then judged on what the entry said when read.
type rivalCache struct {
	mu sync.Mutex
	m  map[int64]store.Entry
}

// entries returns the entries ids of project, in that order, reading those
// not kept.
func (c *rivalCache) entries(ctx context.Context, st *store.Tx, project string, ids []int64) ([]store.Entry, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	out := make([]store.Entry, len(ids))
	var missing []int64
	c.mu.Lock()
	for i, id := range ids {
		e, ok := c.m[id]
		if !ok {
			missing = append(missing, id)
		}
		out[i] = e
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	read, err := st.Entries(ctx, store.EntryFilter{Project: project, IDs: missing})
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m)+len(read) > claim.MaxCached {
		c.m = map[int64]store.Entry{}
	}
	byID := make(map[int64]store.Entry, len(read))
	for _, e := range read {
		byID[e.ID] = e
		c.m[e.ID] = e
	}
	// An id the lookup found is in the same transaction's entries table;
	// one missing here would be a broken invariant, so it is left out
	// rather than compared as an empty entry.
	kept := out[:0]
	for i, id := range ids {
		if out[i].ID == 0 {
			e, ok := byID[id]
			if !ok {
				continue
			}
			out[i] = e
		}
		kept = append(kept, out[i])
	}
	return kept, nil
}

// forget drops what is kept of entries es.
func (c *rivalCache) forget(es []store.Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range es {
		delete(c.m, e.ID)
	}
}

// reset forgets everything: what a failed write left kept may never have
// been stored.
func (c *rivalCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}

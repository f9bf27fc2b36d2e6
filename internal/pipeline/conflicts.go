package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

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
func (p *Processor) detectConflicts(ctx context.Context, st Store, project string, fresh []store.Entry) (int, error) {
	claims := map[int64][]claim.Claim{} // parsed entries, by id
	parse := func(e store.Entry) []claim.Claim {
		cs, ok := claims[e.ID]
		if !ok {
			cs = claim.Parse(entryText(e))
			claims[e.ID] = cs
		}
		return cs
	}
	// Earlier entries without roles get them now, so the index finds them.
	old, err := st.Entries(ctx, store.EntryFilter{Project: project, RolesUnparsed: true, Limit: backfillBatch, Evidence: true})
	if err != nil {
		return 0, err
	}
	for _, e := range append(old, fresh...) {
		if err := st.SetEntryRoles(ctx, e.ID, project, roles(parse(e))); err != nil {
			return 0, err
		}
	}

	byRoles := map[string][]store.Entry{} // rivals by the roles looked up
	superseded := map[int64]bool{}        // by a conflict found in this call
	recorded := map[[2]int64]bool{}
	var found []store.ConflictWrite
	for _, e := range fresh {
		if !(conflictTypes[e.Type] || changeTypes[e.Type]) || e.Stage == store.StageRejected {
			continue
		}
		look := lookup(parse(e))
		if len(look) == 0 {
			continue
		}
		key := strings.Join(look, "\x00")
		others, ok := byRoles[key]
		if !ok {
			var err error
			others, err = st.Entries(ctx, store.EntryFilter{Project: project, Roles: look,
				Statuses: []string{store.StatusActive, store.StatusContested}, Evidence: true, Limit: maxRivals})
			if err != nil {
				return 0, err
			}
			byRoles[key] = others
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
				older, newer = e, o // rare: the fresh entry is the older one
			}
			if recorded[[2]int64{older.ID, newer.ID}] || superseded[older.ID] {
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
					DedupeKey: "conflict:" + older.CID + ":" + newer.CID, Payload: payload}})
		}
	}
	return st.AddConflicts(ctx, found)
}

// maxRivals bounds the entries one lookup reads: the newest of a role are
// the ones a new statement changes.
const maxRivals = 500

// lookup lists the roles to look rivals up by: those of roles(cs), except an
// identifier role (a path, a branch) that no claim names as replaced or
// rejected, since such a claim conflicts with nothing; a project has many
// paths, and reading them all for each new entry would be a scan.
func lookup(cs []claim.Claim) []string {
	var keep []claim.Claim
	for _, c := range cs {
		if !claim.Identifier(c.Role) || c.Replaces != "" || c.Negated {
			keep = append(keep, c)
		}
	}
	return roles(keep)
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

// roles lists the distinct roles of claims, sorted: each claim's own, every
// role its value can fill, and those of the value it replaces, so that a
// tool named in two roles ("Lerna": monorepo tool, release tool) is found
// whichever one each statement read it in.
func roles(cs []claim.Claim) []string {
	var out []string
	add := func(r string) {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, c := range cs {
		add(c.Role)
		for _, r := range claim.RolesOf(c.Value) {
			add(r)
		}
		for _, r := range claim.RolesOf(c.Replaces) {
			add(r)
		}
	}
	slices.Sort(out)
	return out
}

// entryText is everything an entry says: title, body and quotes.
func entryText(e store.Entry) string {
	parts := []string{e.Title, e.Body}
	for _, v := range e.Evidence {
		parts = append(parts, v.Quote)
	}
	return strings.Join(parts, "\n")
}

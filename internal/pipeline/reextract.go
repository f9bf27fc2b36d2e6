package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// ReextractResult counts what Reextract did.
type ReextractResult struct {
	Projects  int    `json:"projects"`
	Sessions  int    `json:"sessions"`
	Kept      int    `json:"kept"`      // memories derived again
	New       int    `json:"new"`       // memories no earlier extraction made
	Retired   int    `json:"retired"`   // memories no longer derived, deleted
	Corrected int    `json:"corrected"` // memories the user corrected, kept as corrected
	Reopened  int    `json:"reopened"`  // contested or superseded only by a retired memory, active again
	Digests   int    `json:"digests"`   // digests of old sessions built again
	Extractor string `json:"extractor"`
	DryRun    bool   `json:"dry_run,omitempty"`
}

func (r *ReextractResult) add(o ReextractResult) {
	r.Projects += o.Projects
	r.Sessions += o.Sessions
	r.Kept += o.Kept
	r.New += o.New
	r.Retired += o.Retired
	r.Corrected += o.Corrected
	r.Reopened += o.Reopened
	r.Digests += o.Digests
	if o.Extractor != "" {
		r.Extractor = o.Extractor
	}
}

// errDryRun rolls back a dry run's transaction.
var errDryRun = errors.New("dry run")

// Reextract derives the memories of project's sessions (every project's
// when project is "") again from their stored messages with p's extractor,
// so that a better extractor improves old sessions too. Each project is
// written in one transaction:
//
//   - a memory derived again (same claim key) keeps its row, its citation
//     id, its stage and status and its counts; the quotes the extractor no
//     longer gives for it are dropped, unless the user corrected it;
//   - a memory the user corrected (certified, rejected, edited, pinned,
//     superseded or resolved by hand) is never retired, and a re-derived
//     claim quoting the same words in other terms lands on it instead of
//     coming back as a new active memory;
//   - a memory no longer derived and never corrected is retired (see
//     store.RetireEntries); when a new memory quotes the same words, it
//     takes over the retired one's injection and citation counts;
//   - what a forget removed stays removed: its messages are gone, and
//     PutEntries refuses what its rule covers.
//
// Running it again changes nothing. dryRun does it all and rolls back.
// The caller holds the worker lock (Lock), as for Process.
func (p *Processor) Reextract(ctx context.Context, project string, dryRun bool) (ReextractResult, error) {
	sessions, err := p.DB.Sessions(ctx, project, 0)
	if err != nil {
		return ReextractResult{}, err
	}
	byProject := map[string][]store.Session{}
	var projects []string
	for _, s := range sessions {
		if _, ok := byProject[s.Project]; !ok {
			projects = append(projects, s.Project)
		}
		byProject[s.Project] = append(byProject[s.Project], s)
	}
	slices.Sort(projects)
	total := ReextractResult{DryRun: dryRun}
	for _, proj := range projects {
		for attempt := 1; ; attempt++ {
			res, err := p.reextractProject(ctx, proj, byProject[proj], dryRun)
			if err == nil {
				total.add(res)
				break
			}
			if !errors.Is(err, store.ErrChanged) || attempt == maxReplans {
				return total, fmt.Errorf("reextract %s: %w", proj, err)
			}
		}
	}
	return total, nil
}

func (p *Processor) reextractProject(ctx context.Context, project string, sessions []store.Session, dryRun bool) (ReextractResult, error) {
	res := ReextractResult{Projects: 1}
	var plans []*Plan
	derived := map[string]bool{} // sessions derived again
	for _, s := range sessions {
		plan, err := p.load(ctx, p.DB.Read(), s.ID)
		if err != nil {
			return res, err
		}
		if len(plan.Events) == 0 {
			continue // nothing to derive from: its memories are left alone
		}
		plans = append(plans, plan)
		derived[s.ID] = true
		res.Extractor = plan.res.Extractor
	}
	res.Sessions = len(plans)
	err := p.DB.Update(ctx, func(tx *store.Tx) error {
		for _, plan := range plans {
			if err := tx.Unchanged(ctx, plan.Events); err != nil {
				return err
			}
		}
		old, err := tx.Entries(ctx, store.EntryFilter{Project: project, Evidence: true})
		if err != nil {
			return err
		}
		// Digests are not derived by the extractor: the derived sessions'
		// go, and are built again below from the memories derived now.
		var digests []int64
		old = slices.DeleteFunc(old, func(e store.Entry) bool {
			if e.Type != store.DigestType {
				return false
			}
			if derived[e.SessionID] {
				digests = append(digests, e.ID)
			}
			return true
		})
		corrected, err := correctedEntries(ctx, tx, project, old)
		if err != nil {
			return err
		}
		byKey := make(map[string]int, len(old))
		quoting := map[int64][]int{} // event id → old entries quoting it
		for i, e := range old {
			byKey[e.ClaimKey] = i
			for _, v := range e.Evidence {
				if v.EventID != 0 {
					quoting[v.EventID] = append(quoting[v.EventID], i)
				}
			}
		}
		overlap := func(plan *Plan, w store.EntryWrite) []int {
			var out []int
			for _, v := range w.Entry.Evidence {
				if !v.Aligned() {
					continue
				}
				id := plan.Events[v.MessageIndex].ID
				for _, i := range quoting[id] {
					for _, o := range old[i].Evidence {
						if o.EventID == id && o.SpanStart < v.SpanEnd && v.SpanStart < o.SpanEnd && !slices.Contains(out, i) {
							out = append(out, i)
						}
					}
				}
			}
			return out
		}
		produced := map[int64]bool{}
		successor := map[int64]string{}            // a retired entry → the claim key quoting its words
		quotes := map[string]map[string][]string{} // claim key → session → quotes
		// Each write lands on the entry of the fact it states, as Apply
		// will place it: an earlier session's, or one derived again.
		same := newFacts(project)
		same.kept, same.moved = map[string]bool{}, map[string]string{}
		for _, e := range old {
			if corrected[e.ID] {
				same.kept[e.ClaimKey] = true
			}
		}
		for _, plan := range plans {
			if err := same.place(ctx, tx, plan.writes); err != nil {
				return err
			}
			plan.placed = true
			for j := range plan.writes {
				w := &plan.writes[j]
				if i, ok := byKey[w.Entry.ClaimKey]; ok {
					produced[old[i].ID] = true
				} else {
					same := overlap(plan, *w)
					for _, i := range same {
						if corrected[old[i].ID] {
							// The user's correction holds for the claim in
							// its new terms: it lands on the corrected entry.
							if err := rekey(w, old[i].ClaimKey); err != nil {
								return err
							}
							w.Entry.Subject = old[i].Subject
							produced[old[i].ID] = true
							break
						}
					}
					for _, i := range same {
						if !corrected[old[i].ID] {
							successor[old[i].ID] = w.Entry.ClaimKey
						}
					}
				}
				k := w.Entry.ClaimKey
				if quotes[k] == nil {
					quotes[k] = map[string][]string{}
				}
				for _, v := range w.Entry.Evidence {
					quotes[k][v.SessionID] = append(quotes[k][v.SessionID], v.Quote)
				}
			}
		}
		// A memory whose claim moved to an older one of the same fact is
		// retired below; the older takes over its counts.
		for _, e := range old {
			if k, ok := same.moved[e.ClaimKey]; ok && !produced[e.ID] {
				successor[e.ID] = k
			}
		}
		// The records stored under a moved claim key follow it: the
		// writes' own are the same events (the same dedupe keys), so
		// Apply does not store them again.
		for from, to := range same.moved {
			if err := tx.RekeyExtraction(ctx, project, from, to); err != nil {
				return err
			}
		}
		for _, plan := range plans {
			r, err := p.Apply(ctx, tx, plan)
			if err != nil {
				return err
			}
			res.New += r.New
		}
		var retire, keep []int64
		for _, e := range old {
			switch {
			case corrected[e.ID]:
				res.Corrected++
				keep = append(keep, e.ID)
			case produced[e.ID]:
				res.Kept++
				pruned := map[string]bool{}
				for _, v := range e.Evidence {
					if s := v.SessionID; derived[s] && !pruned[s] {
						pruned[s] = true
						if err := tx.PruneEvidence(ctx, e.ID, s, quotes[e.ClaimKey][s]); err != nil {
							return err
						}
					}
				}
			case derivedFrom(e, derived):
				retire = append(retire, e.ID)
				if k, ok := successor[e.ID]; ok {
					if err := tx.MoveUsage(ctx, e.ID, project, k); err != nil {
						return err
					}
				}
			default:
				res.Kept++ // quoted in a session with no messages left to derive it from
			}
		}
		res.Retired = len(retire)
		if res.Reopened, err = tx.RetireEntries(ctx, retire, keep); err != nil {
			return err
		}
		if res.Digests, err = p.redigest(ctx, tx, plans, digests); err != nil {
			return err
		}
		if dryRun {
			return errDryRun
		}
		return nil
	})
	if err != nil {
		p.Forget() // rolled back, as a dry run always is
	}
	if errors.Is(err, errDryRun) {
		err = nil
	}
	return res, err
}

// redigest deletes the digests given and builds again those of the
// plans' sessions old enough for one (DigestAge) and not marked as having
// none, from their memories as derived now; it returns how many it built.
func (p *Processor) redigest(ctx context.Context, tx *store.Tx, plans []*Plan, digests []int64) (int, error) {
	if _, err := tx.RetireEntries(ctx, digests, nil); err != nil {
		return 0, err
	}
	if p.DigestAge <= 0 {
		return 0, nil
	}
	before := p.now().Add(-p.DigestAge)
	n := 0
	for _, plan := range plans {
		if !latest(plan.Events).Before(before) {
			continue
		}
		// A session marked as having no digest (none to make, or the
		// user forgot it) keeps none.
		skipped, err := tx.HasEvent(ctx, store.DigestSkippedKey(plan.Session.ID))
		if err != nil {
			return n, err
		}
		if skipped {
			continue
		}
		built, err := p.digestIn(ctx, tx, plan.Session)
		if err != nil {
			return n, err
		}
		if built {
			n++
		}
	}
	return n, nil
}

// derivedFrom reports whether every quote of e is from a session derived
// again: only then does its absence from the new extraction mean the
// extractor no longer makes it.
func derivedFrom(e store.Entry, derived map[string]bool) bool {
	if len(e.Evidence) == 0 {
		return false
	}
	for _, v := range e.Evidence {
		if !derived[v.SessionID] {
			return false
		}
	}
	return true
}

// correctedEntries are the entries of project the user corrected: certified
// or rejected, or named by a correction event (edited, pinned, a supersede
// or a conflict resolved by hand).
func correctedEntries(ctx context.Context, tx *store.Tx, project string, entries []store.Entry) (map[int64]bool, error) {
	evs, err := tx.Events(ctx, store.EventFilter{Project: project, Types: []string{store.TypeCertified, store.TypeRejected,
		store.TypeEdited, store.TypePinned, store.TypeUnpinned, store.TypeConflict, store.TypeConflictResolved, store.TypeEntryExtracted}})
	if err != nil {
		return nil, err
	}
	cids := map[string]bool{}
	remembered := map[string]bool{} // claim keys of memories saved through remember
	for _, ev := range evs {
		var p struct {
			CID, Older, Newer, By string
			ClaimKey              string `json:"claim_key"`
			Extractor             string `json:"extractor"`
		}
		if err := json.Unmarshal(ev.Payload, &p); err != nil {
			continue // not a correction this build wrote
		}
		switch {
		case ev.Type == store.TypeEntryExtracted:
			// A memory the user had saved (the remember tool) is theirs,
			// whatever the extractor derives now.
			if p.Extractor == rememberExtractor {
				remembered[p.ClaimKey] = true
			}
		case ev.Type == store.TypeConflict && p.By != "user":
			// detected by the pipeline, not a correction
		case ev.Type == store.TypeConflict || ev.Type == store.TypeConflictResolved:
			cids[p.Older], cids[p.Newer] = true, true
		default:
			cids[p.CID] = true
		}
	}
	out := map[int64]bool{}
	for _, e := range entries {
		// A shared memory (on the team server, or a teammate's) is kept as
		// it is: retiring or pruning it here would leave the server's copy
		// behind, out of forget's reach.
		if cids[e.CID] || e.Stage == store.StageCertified || e.Stage == store.StageRejected || remembered[e.ClaimKey] ||
			e.SharedID != "" || e.Author != "" {
			out[e.ID] = true
		}
	}
	return out, nil
}

package recall

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Feedback: once a prompt is answered, the line of its best item that
// matched the prompt's rarest word is read as a second query (pseudo-relevance
// feedback: Rocchio's query expansion with the top document). "How do we
// get numbers back on the Kestrel panel?" matches "Kestrel panel: /stats
// (Plotwise/Tallyboard view)"; the message that answers ("the Plotwise view
// only renders when STATS_SINK=local is set") shares no word with the
// prompt, but two with that line. General because it reads only which words
// stand beside the prompt's own in the project's text, weighed by their
// rarity in the store: no list of words.

const (
	// feedbackWords is how many words of the anchor line the prompt lacks
	// the second query adds: the rarest.
	feedbackWords = 3
	// feedbackMaxDF is the most messages such a word may be in: a word
	// many messages hold says nothing about this line.
	feedbackMaxDF = 25
	// feedbackItems is how many items the second query may add.
	feedbackItems = 2
)

// feedback finds the items the anchor's line leads to: those holding one of
// the line's rarest words the prompt lacks, relevant to the line as a query.
// The words the prompt's recall counted (counts) are not counted again.
// They never open the gate (it is judged before) and only fill the places
// the prompt's own matches leave (Select); tool output is left out.
func feedback(ctx context.Context, db *store.DB, counts *termCounts, req Request, cs []concept, anchor Item, items []Item) ([]Item, error) {
	line := anchorLine(anchor, cs)
	if line == "" {
		return nil, nil
	}
	lcs := concepts(line, req.Glosses)
	if !slices.ContainsFunc(lcs, func(c concept) bool { return mayAdd(cs, c) }) {
		return nil, nil // nothing to weigh: counting the line's words is most of the cost
	}
	lcs, total, err := counts.weigh(ctx, lcs, false)
	if err != nil || len(lcs) == 0 {
		return nil, err
	}
	var added []concept
	for _, c := range lcs {
		if c.specific == 0 || c.df == 0 || c.df > feedbackMaxDF || !mayAdd(cs, c) {
			continue
		}
		added = append(added, c)
	}
	if len(added) == 0 {
		return nil, nil
	}
	slices.SortStableFunc(added, func(a, b concept) int { return a.df - b.df })
	added = added[:min(len(added), feedbackWords)]
	find := plan(added, total)
	seen := map[string]bool{}
	digested := map[string]bool{} // a session whose digest stands in for its turns (standIn)
	for _, it := range items {
		seen[it.CID] = true
		if it.Kind == KindEntry && it.Type == store.DigestType {
			digested[it.SessionID] = true
		}
		for _, e := range it.events {
			seen[store.EventCID(e)] = true
		}
	}
	msgs, err := messageItems(ctx, db, req, lcs, find, nil, false, false, nil)
	if err != nil {
		return nil, err
	}
	best := 1.0
	if len(msgs) > 0 {
		best = msgs[0].Score
	}
	ents, err := entryItems(ctx, db, req, lcs, find, nil, best, nil)
	if err != nil {
		return nil, err
	}
	cands := merge(ents, msgs)
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].Score > cands[j].Score })
	var out []Item
	for _, it := range cands {
		if seen[it.CID] || it.CID == anchor.CID || it.Kind == store.TypeToolObservation || it.Kind != KindEntry && digested[it.SessionID] {
			continue
		}
		it.Score = relFloor * anchor.Score * (1 + it.Relevance)
		it.Relevance = 0 // judged against the line, not the prompt
		out = append(out, it)
		if len(out) == feedbackItems {
			break
		}
	}
	return out, nil
}

// anchorLine is the line of it that holds the prompt's rarest concept it
// matches.
func anchorLine(it Item, cs []concept) string {
	text := it.Excerpt
	if text == "" {
		text = it.Text
	}
	bestW, line := 0.0, ""
	for _, l := range strings.Split(text, "\n") {
		tk := keysOf(l)
		for _, c := range cs {
			if c.specific == 0 || c.weight <= bestW {
				continue
			}
			for _, k := range c.keys {
				if tk.has(k) {
					bestW, line = c.weight, l
					break
				}
			}
		}
	}
	return line
}

// mayAdd reports whether the second query may add line concept c, as far
// as is known before the store is asked how many messages hold it: a word
// of the project's own (weigh gives a generic one no specificity), not
// glued from parts, not the prompt's, not a number.
func mayAdd(cs []concept, c concept) bool {
	return !isGeneric(c.forms[0]) && !c.glued && !inPrompt(cs, c) && !isNumber(c.forms[0])
}

func inPrompt(cs []concept, c concept) bool {
	for _, p := range cs {
		for _, k := range p.keys {
			if slices.Contains(c.keys, k) {
				return true
			}
		}
	}
	return false
}

// isNumber reports a word of digits only (or an empty one).
func isNumber(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}

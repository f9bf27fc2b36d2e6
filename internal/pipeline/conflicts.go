package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// conflictTypes are the entry types that state something that can be
// contradicted; tasks, lessons and references accumulate instead.
var conflictTypes = map[string]bool{"decision": true, "fact": true, "constraint": true, "preference": true}

// replaces matches wording that says a statement replaces an earlier one.
var replaces = regexp.MustCompile(`(?i)\b(switch(ed|ing)? (from|to|over)|instead of|no longer|not .{1,30} any ?more|replac(e|ed|ing)|moved? (from|to|over to)|migrat(e|ed|ing) (from|to)|rather than|drop(ped)? .{1,30} (for|in favou?r of)|deprecat(e|ed)|revert(ed)? to)\b|대신|변경|바꾸|바꿨|교체|전환|더 이상`)

// Supersedes reports whether text explicitly says it replaces something earlier.
func Supersedes(text string) bool { return replaces.MatchString(text) }

// detectConflicts records, for each entry of this session, a conflict with every
// active entry of the project about the same subject whose claim differs: the
// newer supersedes the older when it says so explicitly, otherwise both become
// contested. It reads first and records everything in one transaction; it
// returns how many conflicts were new.
func (p *Processor) detectConflicts(ctx context.Context, st Store, project string, fresh []store.Entry) (int, error) {
	bySubject := map[string][]store.Entry{} // the subject's active and contested entries
	superseded := map[int64]bool{}          // by a conflict found in this call
	// Whether an entry's text says it replaces something: the same newer
	// entry meets many older ones, and the regexp is the costly part.
	says := map[string]bool{}
	replacesSomething := func(e store.Entry) bool {
		text := entryText(e)
		v, ok := says[text]
		if !ok {
			v = Supersedes(text)
			says[text] = v
		}
		return v
	}
	var found []store.ConflictWrite
	for _, e := range fresh {
		if e.Subject == "" || !conflictTypes[e.Type] || e.Stage == store.StageRejected {
			continue
		}
		others, ok := bySubject[e.Subject]
		if !ok {
			var err error
			others, err = st.Entries(ctx, store.EntryFilter{Project: project, Subject: e.Subject,
				Statuses: []string{store.StatusActive, store.StatusContested}})
			if err != nil {
				return 0, err
			}
			bySubject[e.Subject] = others
		}
		for _, o := range others {
			if o.ID == e.ID || o.ClaimKey == e.ClaimKey || !conflictTypes[o.Type] || o.Stage == store.StageRejected || superseded[o.ID] {
				continue
			}
			if jaccard(words(o.Title), words(e.Title)) >= 0.5 {
				continue // the same claim in other words, or a refinement of it
			}
			older, newer := o, e
			if newer.Created.Before(older.Created) || (newer.Created.Equal(older.Created) && newer.ID < older.ID) {
				// Rare: the fresh entry is the older one. Its rival's quotes are
				// needed to see whether it says it replaces it.
				var err error
				if newer, err = st.EntryByID(ctx, o.ID); err != nil {
					return 0, err
				}
				older = e
			}
			kind, reason := "contradicts", fmt.Sprintf("both about %q but they say different things", e.Subject)
			if replacesSomething(newer) {
				kind, reason = "supersedes", fmt.Sprintf("%s replaces %s about %q", newer.CID, older.CID, e.Subject)
				superseded[older.ID] = true
			}
			payload, _ := json.Marshal(map[string]any{"older": older.CID, "newer": newer.CID, "kind": kind, "reason": reason, "subject": e.Subject})
			found = append(found, store.ConflictWrite{
				Conflict: store.Conflict{Older: older.ID, Newer: newer.ID, Kind: kind, Reason: reason, Detected: p.now()},
				Event: store.Event{Time: p.now(), Type: store.TypeConflict, SessionID: e.SessionID, Project: project,
					DedupeKey: "conflict:" + older.CID + ":" + newer.CID, Payload: payload}})
		}
	}
	return st.AddConflicts(ctx, found)
}

// entryText is everything an entry says: title, body and quotes.
func entryText(e store.Entry) string {
	parts := []string{e.Title, e.Body}
	for _, v := range e.Evidence {
		parts = append(parts, v.Quote)
	}
	return strings.Join(parts, "\n")
}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > 1 && !claimStopwords[w] {
			m[w] = true
		}
	}
	return m
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

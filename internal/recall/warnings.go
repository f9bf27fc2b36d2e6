package recall

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
	"github.com/tidwall/gjson"
)

// perKind caps each kind of warning.
const perKind = 5

// perNewer caps the warnings of one newer item's removals and replacements
// of names the context shows (claimWarnings), and the store searches a
// prompt makes for where removed code stood (introduced).
const perNewer = 2

// doubtWords are the English words of doubtRE, lower-case ASCII: SelfFlag
// looks for them as they are written here.
var doubtWords = []string{"wrong", "incorrect", "mistaken", "outdated", "obsolete", "deprecated", "not sure", "unclear", "unverified", "broken"}

// doubtRE matches wording inside a memory that doubts what it says: the
// self-flag signal. Change wording ("switched to", "instead of") is not doubt:
// a memory that reports its own change states the current choice.
var doubtRE = lazyregexp.New(`(?i)\b(` + strings.Join(doubtWords, "|") + `)\b|잘못|틀렸|폐기|불확실`)

// SelfFlag grades the doubt in a text by its distinct signals: LOW for one,
// MEDIUM for two, HIGH for three or more; 0 for none. A word repeated is one
// signal.
func SelfFlag(text string) (config.Severity, []string) {
	// An ASCII text holds a match only if it holds one of the words in
	// lower case: a few substring searches rule most texts out before the
	// expression's slower scan (FuzzSelfFlag holds the two to one result).
	if isASCII(text) {
		lower := strings.ToLower(text)
		if !slices.ContainsFunc(doubtWords, func(w string) bool { return strings.Contains(lower, w) }) {
			return 0, nil
		}
	}
	return selfFlag(text)
}

// selfFlag is SelfFlag by doubtRE alone.
func selfFlag(text string) (config.Severity, []string) {
	seen := map[string]bool{}
	var uniq []string
	for _, f := range doubtRE.FindAllString(text, -1) {
		f = strings.ToLower(f)
		if !seen[f] {
			seen[f] = true
			uniq = append(uniq, f)
		}
	}
	switch n := len(uniq); {
	case n >= 3:
		return config.High, uniq
	case n == 2:
		return config.Medium, uniq
	case n == 1:
		return config.Low, uniq
	}
	return 0, nil
}

// itemMemory is an item as one side of a warning.
func itemMemory(it Item) Memory {
	if it.Kind == KindEntry {
		return memory(it.entry)
	}
	return Memory{CID: it.CID, Type: kindLabel(it), Date: it.Time, Title: it.Excerpt}
}

// Warnings collects the conflict signals among the selected items: the ledger
// (recorded supersessions and contradictions of a selected entry, with the
// other side fetched even if it was not selected), and self-flags at or above
// the configured severity.
func Warnings(ctx context.Context, db *store.DB, cfg config.Recall, sel []Item) ([]Warning, error) {
	var ids, msgs []int64
	for _, it := range sel {
		if id := it.EntryID(); id != 0 {
			ids = append(ids, id)
		} else {
			msgs = append(msgs, it.events...)
		}
	}
	// A message shown is the source of the entries quoting it: what the
	// ledger says of them holds for it ("CI builds with 1.23 from today"
	// replaced "go 1.21", whichever of the two the prompt recalled).
	quoting, err := db.QuotingEntries(ctx, msgs)
	if err != nil {
		return nil, err
	}
	for _, id := range quoting {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	var out []Warning
	paired := map[[2]int64]bool{}
	// A pair can be recorded both ways round, and a side can fail to load:
	// four times perKind rows leave room for both. No entry selected, no
	// ledger to read: Conflicts of no ids is every conflict in the store.
	var cs []store.Conflict
	if len(ids) > 0 {
		if cs, err = db.Conflicts(ctx, ids, 4*perKind); err != nil {
			return nil, err
		}
	}
	// The sides are read for the rows that can still make a warning, not
	// for all: the ledger of an entry often holds more rows than a prompt
	// shows (20 for 5 warnings, 22 sides, on the bench's prompts). A row
	// past those read is read with the rows after it when a side was
	// missing.
	quoted := map[int64]store.Entry{}
	read := 0 // cs[:read] have their sides in quoted
	n := 0
	for i, c := range cs {
		if n == perKind || paired[pair(c.Older, c.Newer)] {
			continue
		}
		if i >= read {
			read = sidesFor(cs, i, perKind-n, paired)
			maps.Copy(quoted, conflictSides(ctx, db, cs[i:read]))
		}
		older, ok := quoted[c.Older]
		if !ok {
			continue
		}
		newer, ok := quoted[c.Newer]
		if !ok {
			continue
		}
		w := Warning{Severity: "HIGH", A: memory(older), B: memory(newer)}
		if c.Kind == "supersedes" {
			w.Kind = "superseded"
			w.Note = fmt.Sprintf("The newer statement (%s) explicitly replaces the older; it is the current one.", date(newer.Created))
		} else {
			w.Kind = "contested"
			w.Note = fmt.Sprintf("Neither says it replaces the other; the newer is from %s.", date(newer.Created))
		}
		out = append(out, w)
		paired[pair(c.Older, c.Newer)] = true
		n++
	}

	// Claim and stated-change warnings read the claims of the same
	// answers shown (an answer's excerpt): each is parsed once.
	pc := &claim.Cache{}
	claims, err := claimWarnings(ctx, db, pc, sel, out, paired)
	if err != nil {
		return nil, err
	}
	out = append(out, claims...)
	out = append(out, diagnosisWarnings(sel, paired)...)
	out = append(out, againWarnings(sel, paired)...)
	out = append(out, denialWarnings(sel, paired)...)
	reverts, err := revertWarnings(ctx, db, sel, paired)
	if err != nil {
		return nil, err
	}
	out = append(out, reverts...)
	// The files' snapshots shown are read once for the three that
	// compare an edit or a write with them.
	snaps := snapshots(sel)
	out = append(out, editWarnings(sel, snaps, paired)...)
	out = append(out, hunkWarnings(sel, snaps, paired)...)
	out = append(out, writeWarnings(sel, snaps, paired)...)
	out = append(out, removedSettingWarnings(sel, paired)...)
	out = append(out, labelledWarnings(sel, out, paired)...)
	out = append(out, statedChangeWarnings(pc, sel, out, paired)...)
	out = append(out, fieldWarnings(sel, paired)...)
	out = append(out, negationWarnings(sel, paired)...)
	out = append(out, declinedWarnings(sel, paired)...)
	settings, err := settingWarnings(ctx, db, sel, out, paired)
	if err != nil {
		return nil, err
	}
	out = append(out, settings...)

	n = 0
	for _, it := range sel {
		if n == perKind {
			break
		}
		sev, words := SelfFlag(it.Excerpt + "\n" + it.Quote)
		if sev == 0 || sev < cfg.ConflictSeverity {
			continue
		}
		out = append(out, Warning{Severity: sev.String(), Kind: "self-flag", A: itemMemory(it), Note: strings.Join(words, ", ")})
		n++
	}
	return out, nil
}

func tokens(s string) map[string]bool {
	m := map[string]bool{}
	words := lowerRuns(s)
	stops := stopsOf(words)
	for _, w := range words {
		if len(w) > 1 && !stops.has(w) {
			m[w] = true
		}
	}
	return m
}

// said is one recalled item with the decisions it states.
type said struct {
	Item
	claims []claim.Claim
	// answer marks Claude's answer shown with a prompt (shownAnswer): an
	// aside to what matched, compared with what is shown, never looked up
	// in the store.
	answer bool
}

// claimWarnings finds recalled items that give different values for the same
// thing (a tool, a version, a port, a path, a policy): the newer explicitly
// replacing the older, or the two contradicting each other. An item that
// reports its own change ("we switched from jest to vitest") is the current
// state; its older side is looked up in the store, so the warning can show
// when and where the replaced choice was made.
func claimWarnings(ctx context.Context, db *store.DB, pc *claim.Cache, sel []Item, ledger []Warning, paired map[[2]int64]bool) ([]Warning, error) {
	items := make([]said, 0, len(sel))
	for _, it := range sel {
		if it.Kind == store.TypeToolObservation && subagentReport(it.event) {
			continue // a subagent's report names what it looked at, decided or not
		}
		// Code and command output are values no one decided; a commit's
		// message is read (claimSource).
		if cs := pc.Parse(claimSource(it)); len(cs) > 0 {
			items = append(items, said{Item: it, claims: cs})
		}
		if a, ok := shownAnswer(it); ok {
			if cs := pc.Parse(a.Excerpt); len(cs) > 0 {
				items = append(items, said{Item: a, claims: cs, answer: true})
			}
		}
	}
	var out []Warning
	done := map[string]bool{} // the newer side's citation id, once warned about
	for _, w := range ledger {
		done[w.B.CID] = true
	}
	for i := range items {
		for j := range items {
			older, newer := items[i], items[j]
			if i == j || !later(newer.Item, older.Item, j, i) {
				continue
			}
			if len(out) == perKind || done[newer.CID] || paired[pair(itemKey(older.Item), itemKey(newer.Item))] {
				continue
			}
			if slices.ContainsFunc(older.events, func(id int64) bool { return slices.Contains(newer.events, id) }) {
				// An entry and the message it quotes say one thing once: a
				// change the message reports is no change from itself; its
				// older side is looked up below.
				continue
			}
			rel, role, ov, nv := claim.Compare(older.claims, newer.claims)
			if ov == "" || nv == "" || sameValue(ov, nv) || unlike(rel, role, ov, nv) {
				// A warning names both values: a statement that drops one
				// without naming what replaces it says too little to tell
				// Claude which side holds.
				continue
			}
			if rel != claim.Supersedes && (rel != claim.Contradicts || !knownRole(role) || older.SessionID == newer.SessionID) {
				// Two paths or two ports in one project are mostly about
				// different things, one session's statements are one
				// discussion, and a role read from a label ("Face
				// grouping: …") names no choice: there only an explicit
				// change is a conflict.
				continue
			}
			if restates(older.claims, role, ov, nv) || rel == claim.Supersedes && told(out, older, ov) {
				continue
			}
			if (everyday(ov) || everyday(nv) || len(claim.Values(role)) > 0 && listed(role, ov) != listed(role, nv)) && !statesChange(newer.claims, role, ov, nv) {
				// An everyday word, or a name the role's table does not
				// list set against one it lists, is a value when a
				// statement names it replacing the other ("hosting from
				// fly to render"); read from two statements apart it is as
				// often another word of the sentence (a layout
				// "consistent with the kiln's other pages" is no frontend
				// framework replacing React, a device "now sending its
				// readings" no database replacing PostgreSQL).
				continue
			}
			w := claimWarning(rel, role, ov, nv, older, newer)
			if !asksClaim(newer.Item, role, w) {
				continue
			}
			out = append(out, w)
			paired[pair(itemKey(older.Item), itemKey(newer.Item))] = true
			done[newer.CID] = true
		}
	}
	looked := map[string][]stated{} // replaced's messages, by project, time and value
	lookups := 0                    // introduced's searches
	for _, n := range items {
		if len(out) == perKind || done[n.CID] {
			continue
		}
		// One statement may remove or replace several names, each shown by
		// an older item of its own: each is warned (namedBefore passes over
		// the items already paired), up to perNewer, so that one long list
		// of changes does not take every warning's place.
		shown := 0
		for _, c := range n.claims {
			if len(out) == perKind || shown == perNewer {
				break
			}
			o, name, ok := namesRemoved(sel, paired, n, c)
			if !ok && name != "" && n.Kind != KindEntry && !n.answer && lookups < perNewer {
				// Nothing shown names the removed code: the store is asked
				// where it stood before, perNewer times a prompt at most
				// (each a search), as a warning's room allows few more. An
				// entry's message is an item of its own.
				lookups++
				var err error
				if o, ok, err = introduced(ctx, db, n, name); err != nil {
					return nil, err
				}
			}
			if ok {
				if !told(out, o, c.Value) {
					out = append(out, removalWarning(c, name, o, n))
					shown++
				}
				paired[pair(itemKey(o.Item), itemKey(n.Item))] = true
				done[n.CID] = true
				continue
			}
			if c.Replaces == "" {
				continue
			}
			if o, ok := namesReplaced(sel, paired, n, c); ok && !sameValue(c.Replaces, c.Value) && !unlike(claim.Supersedes, c.Role, c.Replaces, c.Value) {
				if w := claimWarning(claim.Supersedes, c.Role, c.Replaces, c.Value, o, n); !told(out, o, c.Replaces) && asksClaim(n.Item, c.Role, w) {
					out = append(out, w)
					shown++
				}
				paired[pair(itemKey(o.Item), itemKey(n.Item))] = true
				done[n.CID] = true
			}
		}
		if done[n.CID] || n.answer {
			continue
		}
		// The store is asked for a change nothing shown tells of.
		for _, c := range n.claims {
			if len(out) == perKind {
				break
			}
			if c.Replaces == "" {
				continue
			}
			o, ok, err := replaced(ctx, db, looked, n, c)
			if err != nil {
				return nil, err
			}
			if ok {
				rel, role, ov, nv := claim.Compare(o.claims, n.claims)
				if ov == "" || nv == "" || sameValue(ov, nv) || unlike(rel, role, ov, nv) || rel == claim.Supersedes && told(out, o, ov) {
					continue
				}
				w := claimWarning(rel, role, ov, nv, o, n)
				if !asksClaim(n.Item, role, w) {
					continue
				}
				out = append(out, w)
				done[n.CID] = true
				break
			}
		}
	}
	return out, nil
}

// told reports a change already told of the older item o, the value old
// replaced: two newer items telling one change (a list's line and a
// heading, a message and the entry quoting it) warn once; the second
// would repeat the first at the cost of a memory's room.
func told(out []Warning, o said, old string) bool {
	return slices.ContainsFunc(out, func(w Warning) bool { return w.Kind == "superseded" && w.A.CID == o.CID && sameValue(w.Old, old) })
}

// namesReplaced returns a shown item said before n that names the value c
// replaces and not the one it sets: what a tool reported of the project
// before the change ("expo-av@~16.0.8 - primary audio playback library")
// is what the change made stale, whoever decided it. It is asked before
// the store (replaced): the warning is there to mark what the context
// shows as stale.
//
// Only an explicit change between two names a word search cannot mistake:
// no everyday word on either side, and a value no table knows has a mark
// of a name (a digit, "-", ".", "_", "@"), or is a host the older item
// names as one, after a scheme or before a port ("instead of
// localhost:3000" replaces the host localhost; "The backend validates
// tokens" names no host backend). Not a path: tool runs name every file
// they touch, and a statement's list of files ("remove X from a.js, fix
// b.py") is no file replacing another.
func namesReplaced(sel []Item, paired map[[2]int64]bool, n said, c claim.Claim) (said, bool) {
	if !c.Changed || c.Negated || c.Weak || c.Role == "path" || everyday(c.Value) || everyday(c.Replaces) {
		return said{}, false
	}
	asHost := !knownRole(c.Role) && !strings.ContainsAny(c.Replaces, "0123456789-._@")
	if asHost && c.Role != "host" {
		return said{}, false
	}
	return namedBefore(sel, paired, n, func(text string) bool {
		text = strings.ToLower(text)
		if asHost && !namesHost(text, c.Replaces) {
			return false
		}
		return wordIn(text, c.Replaces) && !wordIn(text, c.Value)
	})
}

// namesHost reports whether text, lower-case, names host as a host: the
// whole name, after "://" or "@", or before a port ("localhost:3000").
// "Backend: validates tokens" and "http://backend-v2.internal" do not
// name the host backend.
func namesHost(text, host string) bool {
	return host != "" && anyAt(text, host, func(k int) bool {
		before, after := text[:k], text[k+len(host):]
		if before != "" && isHostByte(before[len(before)-1]) {
			return false // the end of a longer name
		}
		if after != "" && isHostByte(after[0]) && (after[0] != '.' || len(after) > 1 && isHostByte(after[1])) {
			return false // the start of a longer name; a full stop ends a sentence
		}
		port := len(after) > 1 && after[0] == ':' && '0' <= after[1] && after[1] <= '9'
		return port || strings.HasSuffix(before, "://") || strings.HasSuffix(before, "@")
	})
}

// isHostByte reports a byte a host name holds: a letter, a digit, "-" or ".".
func isHostByte(b byte) bool {
	return 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '-' || b == '.'
}

// namesRemoved returns a shown item said before n that names a piece of
// code c says n removed ("Completely removed `fetchMock()`") and does not
// remove it itself, and the name as n writes it: the older item shows the
// code as it was. Only a name n writes as code (in a code span) with a
// mark of code (a call, a dotted or joined name), which a word search
// cannot mistake, and not a path, a version or a number (a removal undone
// in its statement, "and reinstalled", is none: claim.Claim.Removed). An
// edit's removed lines are the removal itself, not the code as it was;
// its added and kept lines are.
// The name is returned for such a removal even when no shown item names
// it (ok false), for the store to be asked (introduced).
func namesRemoved(sel []Item, paired map[[2]int64]bool, n said, c claim.Claim) (said, string, bool) {
	src := claimSource(n.Item)
	if !c.Removed || c.Role == "path" || strings.HasPrefix(c.Role, "version:") || numeric(c.Value) || everyday(c.Value) || !strings.ContainsAny(c.Value, "-._@()") ||
		c.Start < 0 || c.End > len(src) || c.Start >= c.End {
		return said{}, "", false
	}
	stmt := src[c.Start:c.End]
	at := indexFold(stmt, "`"+c.Value+"`")
	if at < 0 {
		return said{}, "", false
	}
	name, bare := stmt[at+1:at+1+len(c.Value)], strings.TrimSuffix(c.Value, "()") // a call names it with its arguments
	o, ok := namedBefore(sel, paired, n, func(text string) bool {
		if _, _, _, ok := editLines(text); ok {
			text = strings.Join(editHeld(text), "\n") // the code as it stands after it
		}
		text = strings.ToLower(text)
		return wordIn(text, bare) && !slices.ContainsFunc(claim.Parse(text), func(o claim.Claim) bool {
			return o.Removed && strings.TrimSuffix(o.Value, "()") == bare
		})
	})
	return o, name, ok
}

// introduced looks up Claude's latest message before the turn of message
// n (not an entry) that names the code n removed (name, as n writes it) in
// a code span, in a statement that tells no change of it (claim.Settled):
// where the removed code stood before ("Added `audio_service` as a direct
// dependency"), which the warning shows beside the removal, that sentence
// as its older side. The turn that removed it tells its own change, in
// each of its messages ("`x` only supports one player. We need to remove
// it"); a session with no prompt before n is read outside it. A user's
// lines ask for a change or describe one wanted ("Please delete `x`"), and
// a tool run names code without deciding it.
func introduced(ctx context.Context, db *store.DB, n said, name string) (said, bool, error) {
	turn, unprompted := n.event, false // the turn's prompt, or n
	if n.event.Type != store.TypeUserPrompt {
		p, err := db.Previous(ctx, n.event, []string{store.TypeUserPrompt})
		if err != nil {
			return said{}, false, err
		}
		if p.ID != 0 {
			turn = p
		} else {
			unprompted = true
		}
	}
	hits, err := db.SearchEvents(ctx, store.EventQuery{
		// Newest first, unranked, before the turn: as replaced does.
		Match: store.MatchAny([]string{strings.TrimSuffix(name, "()")}, true), Project: n.event.Project, Until: turn.Time,
		Types: []string{store.TypeAgentResponse}, Limit: 20, Newest: true,
	})
	if err != nil {
		return said{}, false, err
	}
	for _, h := range hits {
		// Before the turn by time (Until); in the turn's session, by order
		// too. A session imported later may be stored after it, and is
		// older still.
		if h.SessionID == turn.SessionID && (unprompted || h.ID >= turn.ID) || neverRecalled(h.Event) {
			continue
		}
		if s := sentenceWith(h.Text, "`"+name+"`"); s != "" && claim.Settled(s) {
			return said{Item: messageItem(h.Event, s)}, true, nil // statement shows s
		}
	}
	return said{}, false, nil
}

// namedBefore returns the first shown item said before n, not already
// paired with it and sharing none of its events, whose text (what the
// context shows of it) names holds.
func namedBefore(sel []Item, paired map[[2]int64]bool, n said, names func(text string) bool) (said, bool) {
	at := slices.IndexFunc(sel, func(it Item) bool { return it.CID == n.CID })
	if at < 0 {
		return said{}, false
	}
	for j, it := range sel {
		if j == at || !later(n.Item, it, at, j) || paired[pair(itemKey(it), itemKey(n.Item))] ||
			slices.ContainsFunc(it.events, func(id int64) bool { return slices.Contains(n.events, id) }) {
			continue
		}
		text := it.Excerpt
		if it.Kind == KindEntry {
			text = claimSource(it)
		}
		if names(text) {
			return said{Item: it}, true
		}
	}
	return said{}, false
}

// sameValue reports two spellings of one value: quoted or not, with the
// name it is set to or without (`model="gpt-4o-mini"` and "gpt-4o-mini").
// Two names are two things, whatever follows them ("db:5432" and
// "cache:5432", "ci-base:3" and "ci-slim:3").
func sameValue(a, b string) bool {
	split := func(v string) (name, value string) {
		if k := strings.IndexAny(v, "=:"); k > 0 && settingName(v[:k]) {
			name, v = v[:k], v[k+1:]
		}
		return name, strings.Trim(v, "\"'` ")
	}
	an, av := split(a)
	bn, bv := split(b)
	if an != "" && bn != "" && !strings.EqualFold(an, bn) {
		return false
	}
	return strings.EqualFold(av, bv)
}

// settingName reports a name a value is set to: letters, digits, '_', '-'
// and '.', a letter or '_' first.
func settingName(s string) bool {
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '.')) {
			return false
		}
	}
	return s != ""
}

// unlike reports two values of different kinds, which are no alternatives
// for one thing whatever the claim parser read: a number and a name
// ("3001" for "gameplanpro"), or an everyday English word and a name or
// term ("testing" for "supabase", "properly" for "shiki", "push" for
// "github pages"). A statement that names both as a change of a role the
// claim tables know ("we moved hosting from fly to render") is taken at its
// word, unless the everyday word is an -ing or -ly form, which names no tool
// (derived). Three kinds are told apart before any change is taken at its
// word: a noun of an action (actionNoun, "deployment") is never a value of
// a role that is no identifier, a phrase of common words (commonPhrase) no
// value of a table's role that the table does not list, and a file no
// alternative to a folder or a command. Versions are not read so: "latest"
// is one.
func unlike(rel claim.Relation, role, a, b string) bool {
	if strings.HasPrefix(role, "version") {
		return false // "latest", "lts", "stable" are versions too
	}
	if numeric(a) != numeric(b) || !claim.Identifier(role) && (actionNoun(a) || actionNoun(b)) {
		return true
	}
	if len(claim.Values(role)) > 0 && (commonPhrase(a) && !listed(role, a) || commonPhrase(b) && !listed(role, b)) {
		return true // "Frontend → Backend URL" names no frontend framework
	}
	if role == "path" && (fileName(a) && folderOrCommand(b, a) || fileName(b) && folderOrCommand(a, b)) {
		return true // "root has no package.json" for "X-DEMO/frontend"
	}
	ea, eb := everyday(a), everyday(b)
	if ea == eb {
		return false
	}
	if rel != claim.Supersedes || len(claim.Values(role)) == 0 {
		return true
	}
	w := a
	if eb {
		w = b
	}
	return derived(w)
}

// derived reports an -ing or -ly form of an everyday word ("testing",
// "properly"), which names no tool; "string" and "fly" are no such forms.
func derived(w string) bool {
	for _, suf := range []string{"ing", "ly"} {
		if stem, ok := strings.CutSuffix(w, suf); ok && len(stem) >= 3 &&
			(wordfreq.Everyday(stem) || wordfreq.Everyday(stem+"e")) {
			return true
		}
	}
	return false
}

// commonPhrase reports words apart that name a component's part: a
// component's name ("backend", "frontend": claim.Qualifier) and words of
// code's English (codeWord), the last one of them ("Backend URL", "server
// endpoint"). A product named by common words names no component ("Cloud
// SQL", "App Runner"), and a tool a table lists by several words ("cloud
// run") is listed. Words joined by a hyphen are not read so: a package may
// be named by English words ("form-data").
func commonPhrase(v string) bool {
	words := strings.Fields(v)
	if len(words) < 2 || !codeWord(words[len(words)-1]) || !slices.ContainsFunc(words, claim.Qualifier) {
		return false
	}
	return !slices.ContainsFunc(words, func(w string) bool { return !codeWord(w) && !claim.Qualifier(w) })
}

// fileName reports a path whose last part names a file: a dot-name
// (".eslintrc", ".env") or a name with an extension the claim parser
// knows ("prp.md", "app.svelte", "build.gradle"); not a folder or a command
// ("x-demo/frontend", "/start-development") nor a host ("api.example.com").
func fileName(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	if strings.HasPrefix(base, ".") && len(base) > 1 {
		return true
	}
	k := strings.LastIndexByte(base, '.')
	return k > 0 && claim.FileExt(base[k+1:])
}

// folderOrCommand reports a path p that names a folder or a slash command
// in place of the file f: a path with a slash ("x-demo/frontend",
// "/start-development") whose last part has no dot and is not f's name
// without its extension ("src/utils/" for "src/utils.ts" is the same
// thing moved). A bare word ("dockerfile", "readme") may be a file.
func folderOrCommand(p, f string) bool {
	p = strings.TrimSuffix(p, "/")
	base := p[strings.LastIndexByte(p, '/')+1:]
	fbase := f[strings.LastIndexByte(f, '/')+1:]
	stem, _, _ := strings.Cut(strings.TrimPrefix(fbase, "."), ".")
	return strings.Contains(p, "/") && base != "" && !strings.Contains(base, ".") && base != stem
}

// actionNoun reports a noun made of a verb or an adjective of English
// ("deployment" of "deploy", "readiness" of "ready"): the doing of a thing
// or a state, never a thing chosen ("For Your Render Deployment", then "now
// ready for deployment to Render": no hosting service replaced by Render).
// Only -ment and -ness are read, whose base is a word of its own; nouns in
// -tion, -sion or -ity name things chosen too ("sessions", "functions", an
// "integration" environment). A word the tables list, or naming an
// environment or a component (claim.Qualifier), is a value.
func actionNoun(v string) bool {
	if !plainWord(v) || len(claim.RolesOf(v)) > 0 || claim.Qualifier(v) {
		return false
	}
	for _, suf := range []string{"ments", "ment", "ness"} {
		base, ok := strings.CutSuffix(v, suf)
		if !ok || len(base) < 3 {
			continue
		}
		if suf == "ness" && strings.HasSuffix(base, "i") {
			base = base[:len(base)-1] + "y" // "readiness" of "ready"
		}
		return wordfreq.Zipf(base) > 0
	}
	return false
}

// numeric reports a value that is a quantity: a digit first, after a sign,
// a point or a "v" ("30", "30s", "512m", "1.2.3", "0.5", "-1", "v2").
func numeric(v string) bool {
	v = strings.TrimLeft(v, "-+.v")
	return v != "" && v[0] >= '0' && v[0] <= '9'
}

// everyday reports a value that is a plain everyday English word
// (wordfreq) and names no tool the claim tables know.
func everyday(v string) bool {
	return plainWord(v) && wordfreq.Everyday(v) && len(claim.RolesOf(v)) == 0
}

// diagnosisWarnings finds, among recalled items of one session, a later
// diagnosis that says it names the real cause of a problem the session named
// another cause for ("the problem is the font download", later "the real
// problem is the API throttling us"). Only within a session: one session debugs one
// problem, while two sessions' causes are mostly of different problems.
func diagnosisWarnings(sel []Item, paired map[[2]int64]bool) []Warning {
	type diagnosed struct {
		Item
		ds []claim.Diagnosis
	}
	var items []diagnosed
	for _, it := range sel {
		if it.Kind == store.TypeToolObservation {
			continue
		}
		if ds := claim.Diagnoses(claimSource(it)); len(ds) > 0 {
			items = append(items, diagnosed{it, ds})
		}
	}
	// A newer side warned about for another value still gets its cause's
	// warning: that one is about something else. Pairs already warned
	// about are not warned about twice.
	var out []Warning
	for j, newer := range items {
		if len(out) == perKind {
			break
		}
		// The cause a later one corrects: first one that was itself
		// claimed as the real cause (a plain "the problem is …" between
		// them is often a step towards the later one), then the one about
		// the same thing, with the most words in common.
		var best struct {
			older Item
			o, n  claim.Diagnosis
			rank  [2]int
			found bool
		}
		for i, older := range items {
			if i == j || older.SessionID != newer.SessionID || !later(newer.Item, older.Item, j, i) ||
				paired[pair(itemKey(older.Item), itemKey(newer.Item))] {
				continue
			}
			for _, n := range newer.ds {
				for _, o := range older.ds {
					if !claim.Revises(o, n) {
						continue
					}
					rank := [2]int{0, claim.Shared(o, n)}
					if o.Revised {
						rank[0] = 1
					}
					if !best.found || rank[0] > best.rank[0] || rank[0] == best.rank[0] && rank[1] > best.rank[1] {
						best.older, best.o, best.n, best.rank, best.found = older.Item, o, n, rank, true
					}
				}
			}
		}
		if !best.found {
			continue
		}
		out = append(out, Warning{Severity: "HIGH", Kind: "superseded", A: diagnosisSide(best.older, best.o), B: diagnosisSide(newer.Item, best.n), kept: true, standsFor: true,
			Note: fmt.Sprintf("cause: %s (%s) was named later as the real one, after %s; the newer is the current one.",
				Inert(clipAtWord(best.n.Cause, maxCauseNote)), date(newer.Time), Inert(clipAtWord(best.o.Cause, maxCauseNote)))})
		paired[pair(itemKey(best.older), itemKey(newer.Item))] = true
	}
	return out
}

// denialWarnings finds, among recalled items of one session, a statement
// that a fault does not hold ("there is no version mismatch", "the cache is
// not the problem") after an earlier one named that fault as found: the
// later finding corrects the earlier. A subagent's report counts as a
// statement here: it is prose written to report what an investigation
// found, and the one that checks an earlier finding is where it is denied.
// A user's prompt can name a fault but denies none: "there is no deadlock"
// from the user is a requirement ("Done means: …") or a belief, not what a
// check found.
// Only within a session, as for causes: one session investigates one
// question, and two sessions' faults are mostly different faults.
func denialWarnings(sel []Item, paired map[[2]int64]bool) []Warning {
	type denying struct {
		Item
		ds []claim.Denial
	}
	var items []denying
	for _, it := range sel {
		if it.Kind == store.TypeToolObservation && !subagentReport(it.event) {
			continue
		}
		var ds []claim.Denial
		if it.Kind == store.TypeAgentResponse || it.Kind == store.TypeToolObservation {
			ds = claim.Denials(claimSource(it))
		}
		items = append(items, denying{it, ds})
	}
	var out []Warning
	for j, newer := range items {
		if len(out) == perKind {
			break
		}
		// The statement corrected: the latest earlier one naming the fault.
		var best struct {
			older      Item
			d          claim.Denial
			start, end int
			i          int
			found      bool
		}
		for _, d := range newer.ds {
			for i, older := range items {
				if i == j || older.SessionID != newer.SessionID || !later(newer.Item, older.Item, j, i) ||
					paired[pair(itemKey(older.Item), itemKey(newer.Item))] {
					continue
				}
				if best.found && !later(older.Item, best.older, i, best.i) {
					continue
				}
				if start, end, ok := claim.Denies(claimSource(older.Item), d); ok {
					best.older, best.d, best.start, best.end, best.i, best.found = older.Item, d, start, end, i, true
				}
			}
		}
		if !best.found {
			continue
		}
		a, b := itemMemory(best.older), itemMemory(newer.Item)
		a.Title, a.Quote = claimSource(best.older)[best.start:best.end], ""
		b.Title, b.Quote = claimSource(newer.Item)[best.d.Start:best.d.End], ""
		out = append(out, Warning{Severity: "HIGH", Kind: "superseded", A: a, B: b,
			Note: fmt.Sprintf("%s: said later not to hold (%s), after it was named as found; the newer is the current one.",
				Inert(clipAtWord(best.d.What, maxCauseNote)), date(newer.Time))})
		paired[pair(itemKey(best.older), itemKey(newer.Item))] = true
	}
	return out
}

// revertWarnings finds, among recalled messages of one session, Claude's
// report that it undid a change ("I've reverted the buttons back to scroll
// behavior"; claim.Reversions) and the statement shown, from an earlier turn
// of that session, that made the change (claim.Reverts: the one sharing most
// of its words; "Linked payment buttons to …"): what that statement says
// may no longer hold. The report is Claude's or the user's own lines ("I
// reverted the buttons myself"; a user's "revert it" asks, and says
// nothing was undone); the change, Claude's account of what it did (a
// user's lines ask for a change, and a tool run's output names code
// without deciding it). Only an earlier turn: the undoing's own turn tells
// of it ("You want to revert the other buttons"), and a session with no
// prompt before the report has no turn to bound.
func revertWarnings(ctx context.Context, db *store.DB, sel []Item, paired map[[2]int64]bool) ([]Warning, error) {
	var out []Warning
	for _, newer := range sel {
		if len(out) == perKind {
			break
		}
		if newer.Kind != store.TypeAgentResponse && newer.Kind != store.TypeUserPrompt {
			continue
		}
		candidate := func(older Item) bool {
			return older.Kind == store.TypeAgentResponse && older.SessionID == newer.SessionID && older.event.ID < newer.event.ID &&
				!paired[pair(itemKey(older), itemKey(newer))]
		}
		if !slices.ContainsFunc(sel, candidate) {
			continue // no statement to find: no query for the turn
		}
		// What the item shows (a user's own lines above a paste): an
		// undoing left out is not what it was recalled for.
		src := claimSource(newer)
		rs := claim.Reversions(src)
		if len(rs) == 0 {
			continue
		}
		// The turn's prompt; none before the report leaves turn zero, and
		// no event is before it.
		turn := newer.event
		if turn.Type != store.TypeUserPrompt {
			var err error
			if turn, err = db.Previous(ctx, newer.event, []string{store.TypeUserPrompt}); err != nil {
				return nil, err
			}
		}
		// The statement that shares most of what was undone; of two alike,
		// the later: it is what the undoing undid.
		var best struct {
			older              Item
			r                  claim.Reversion
			start, end, shared int
			i                  int
			found              bool
		}
		for _, r := range rs {
			for i, older := range sel {
				if !candidate(older) || older.event.ID >= turn.ID {
					continue
				}
				start, end, shared, ok := claim.Reverts(older.Excerpt, r)
				if ok && (!best.found || shared > best.shared || shared == best.shared && later(older, best.older, i, best.i)) {
					best.older, best.r, best.start, best.end, best.shared, best.i, best.found = older, r, start, end, shared, i, true
				}
			}
		}
		if !best.found || slices.ContainsFunc(out, func(w Warning) bool { return w.A.CID == best.older.CID }) {
			continue // two reports of one undoing (the user's and Claude's) warn once
		}
		a, b := itemMemory(best.older), itemMemory(newer)
		a.Title, a.Quote = strings.TrimRight(best.older.Excerpt[best.start:best.end], "*_: "), "" // a heading's emphasis and colon
		b.Title, b.Quote = src[best.r.Start:best.r.End], ""
		out = append(out, Warning{Severity: "HIGH", Kind: "superseded", A: a, B: b,
			Note: fmt.Sprintf("the newer message says it undid a change (%s); what the older says of it may no longer hold.", date(newer.Time))})
		paired[pair(itemKey(best.older), itemKey(newer))] = true
	}
	return out, nil
}

// subagentReport reports whether ev is the report a subagent returned (the
// Task or Agent tool): prose written to be read, unlike a command's output.
func subagentReport(ev store.Event) bool {
	return observation.Subagent(gjson.GetBytes(ev.Payload, "tool").String())
}

// notice reports whether ev is a background task's notice, which Claude
// Code submits as a prompt (transcript.TaskNotification): not the user's
// words.
func notice(ev store.Event) bool {
	return ev.Type == store.TypeUserPrompt && transcript.TaskNotification(ev.Text)
}

// declinedNote is what Claude Code returns for a tool call the user
// declined: the call never ran (an edit's new text was not written, a
// command not run).
const declinedNote = "The user doesn't want to proceed with this tool use"

// declinedWarnings finds, among recalled tool runs, a call the user
// declined and a later one shown of the same command with other quoted
// values, run, in the same session ("git config user.email \"a@x\"",
// declined, then "… \"b@y\"" run): what the declined call would have set
// never held, and the later call is what the user let run. A call
// declined is retried as the user asks, not days later. Only a command's
// quoted values tell what the retry changed: a later edit of the same
// file may change anything else.
func declinedWarnings(sel []Item, paired map[[2]int64]bool) []Warning {
	var out []Warning
	for i, o := range sel {
		if len(out) == perKind {
			break
		}
		if o.Kind != store.TypeToolObservation || !declined(o.event.Text) {
			continue
		}
		shape, head := runShape(o.event.Text), strings.TrimSuffix(firstLine(o.event.Text), " (error)")
		if shape == "" {
			continue
		}
		// The runs after it, in the session, that ran: the same command run
		// says the user let it run when asked again, and the first of those
		// with other values is the one run instead.
		first := -1
		for j, n := range sel {
			nhead := firstLine(n.event.Text)
			if n.Kind != store.TypeToolObservation || n.SessionID != o.SessionID || !later(n, o, j, i) || strings.HasSuffix(nhead, " (error)") {
				continue
			}
			if nhead == head {
				first = -1
				break
			}
			if runShape(n.event.Text) == shape && (first < 0 || later(sel[first], n, first, j)) {
				first = j
			}
		}
		if first < 0 || paired[pair(itemKey(o), itemKey(sel[first]))] {
			continue
		}
		n := sel[first]
		a := Memory{CID: o.CID, Type: kindLabel(o), Date: o.Time, Title: head}
		b := Memory{CID: n.CID, Type: kindLabel(n), Date: n.Time, Title: firstLine(n.event.Text)}
		out = append(out, Warning{Severity: "HIGH", Kind: "superseded", A: a, B: b, kept: true, standsFor: true,
			Note: fmt.Sprintf("the user declined the first call, which never ran; the second ran instead (%s).", date(n.Time))})
		paired[pair(itemKey(o), itemKey(n))] = true
	}
	return out
}

// declined reports a tool run's text that records a call the user
// declined: a failed call (" (error)") whose output opens with Claude
// Code's note (declinedNote), not output that quotes it.
func declined(text string) bool {
	head, body, _ := strings.Cut(text, "\n")
	return strings.HasSuffix(head, " (error)") && strings.HasPrefix(strings.TrimSpace(body), declinedNote)
}

// runShape is what two runs of one command with other values share: the
// tool and its argument with quoted strings left out ("Bash: git config
// user.email \"\""); "" for a run with no argument, a file's edit or
// write, or a string left open (its shape is not known).
func runShape(text string) string {
	line := strings.TrimSuffix(firstLine(text), " (error)")
	tool, arg, ok := strings.Cut(line, ": ")
	if !ok || arg == "" || tool == "Edit" || tool == "MultiEdit" || tool == "Write" {
		return ""
	}
	var b strings.Builder
	b.WriteString(tool + ": ")
	for k := 0; k < len(arg); k++ {
		c := arg[k]
		if c != '"' && c != '\'' {
			b.WriteByte(c)
			continue
		}
		end := strings.IndexByte(arg[k+1:], c)
		if end < 0 {
			return ""
		}
		b.WriteString(`""`)
		k += end + 1
	}
	return b.String()
}

// labelledWarnings finds, among recalled memories, one that states a change
// as a line labelled before and the next labelled after ("Before: …",
// "After: …"; claim.LabelledChanges), or inside a line ("from `#1e293b` to
// `#0f172a`", "@v3 → @v4", "90.0% (up from 71.4%)"; claim.InlineChanges),
// where the memory shown holds either side. Like a file edit's changed line
// it names both sides of one change, and other memories may still state the
// older: the warning is listed with the memory where it fits
// (Warning.inItem), unless an earlier warning already holds the memory to
// an older one. Only Claude's words and what was distilled from them state
// changes made (changeSource).
func labelledWarnings(sel []Item, earlier []Warning, paired map[[2]int64]bool) []Warning {
	told := toldEvents(sel, earlier)
	var out []Warning
	for _, it := range sel {
		if len(out) == perKind {
			break
		}
		text, ok := changeSource(it)
		if !ok || paired[pair(itemKey(it), itemKey(it))] || toldOf(it, earlier, told) {
			continue
		}
		shown := " " + foldWords(it.Excerpt) + " "
		labelled := slices.DeleteFunc(claim.LabelledChanges(text), func(c claim.LabelledChange) bool {
			return !namesAsked(it.promptConcepts, c.Old, c.New, lineAbove(text, c.Old))
		})
		for i, c := range append(labelled, askedFirst(claim.InlineChanges(text), text, it.promptConcepts)...) {
			// A change the excerpt leaves out is not what the memory was
			// recalled for. A labelled line is a line of its own; a value
			// changed inside a line may be named elsewhere too ("~250ms
			// latency" above the table saying "~250ms → ~10ms"), so the
			// excerpt must show both.
			if i < len(labelled) && !showsLine(shown, c.Old) && !showsLine(shown, c.New) ||
				i >= len(labelled) && !(showsLine(shown, c.Old) && showsLine(shown, c.New)) {
				continue
			}
			old, new := diffWindow(c.Old, c.New, editQuote)
			a := Memory{CID: it.CID, Type: kindLabel(it), Date: it.Time, Title: old}
			b := a
			b.Title = new
			out = append(out, Warning{Severity: "HIGH", Kind: "superseded", A: a, B: b, inItem: true,
				Note: fmt.Sprintf("the memory (%s) states the change from the first to the second; the second is the newer.", date(it.Time))})
			paired[pair(itemKey(it), itemKey(it))] = true
			break
		}
	}
	return out
}

// toldEvents is the messages an earlier warning already holds as the newer
// side: a statement of a change held to an older memory ("moved the queue
// from zorvix-mq to plenk-mq" against the config naming zorvix-mq) is
// told once, whether the warning names its message or an entry quoting
// it (toldOf).
func toldEvents(sel []Item, earlier []Warning) map[int64]bool {
	told := map[int64]bool{}
	for _, w := range earlier {
		for _, it := range sel {
			if it.CID == w.B.CID {
				for _, id := range it.events {
					told[id] = true
				}
			}
		}
	}
	return told
}

// toldOf reports a memory an earlier warning holds as the newer side: by
// its citation id (an entry may have no message of its own), or by a
// message of it told (toldEvents).
func toldOf(it Item, earlier []Warning, told map[int64]bool) bool {
	return slices.ContainsFunc(earlier, func(w Warning) bool { return w.B.CID == it.CID }) ||
		slices.ContainsFunc(it.events, func(id int64) bool { return told[id] })
}

// lineAbove is the last line with words before the first line of text
// holding v: the line a labelled change stands under ("Status badge
// colour:" over "Before: …" and "After: …"), which names what changed.
func lineAbove(text, v string) string {
	k := strings.Index(text, v)
	if k < 0 {
		return ""
	}
	above := text[:strings.LastIndexByte(text[:k], '\n')+1]
	for above != "" {
		above = strings.TrimSuffix(above, "\n")
		line := above[strings.LastIndexByte(above, '\n')+1:]
		if strings.TrimSpace(line) != "" {
			return line
		}
		above = above[:len(above)-len(line)]
	}
	return ""
}

// askedFirst orders the changes a text states inside its lines by how much
// of the prompt's concepts cs the line stating each names, most specific
// first, then most covered, the text's order among equals: a summary that
// lists a package swapped ("expo-av → expo-audio") above the close button
// resized ("28px … (was oversized 56px)") warns of the one the prompt asks
// about ("how big is the close button now?"). A change whose line names
// none of the prompt's specific concepts is dropped when the prompt has
// such concepts, one alone too (namesAsked): a list of changes is not all
// about what was asked ("how thick is the progress bar now?" asks neither
// of those two); a prompt naming nothing specific ("what did we change?")
// keeps them all.
// The line alone is read, not the heading it stands under: a heading
// names the summary's subject ("### UI/UX Redesign"), which the prompt
// shares with every change in it.
func askedFirst(changes []claim.LabelledChange, text string, cs []concept) []claim.LabelledChange {
	type scored struct {
		change    claim.LabelledChange
		cov, spec float64
	}
	ss := make([]scored, len(changes))
	for i, c := range changes {
		ss[i].change = c
		for l := range strings.Lines(text) {
			if strings.Contains(l, c.Old) && strings.Contains(l, c.New) {
				ss[i].cov, ss[i].spec = coverage(cs, keysOf(l))
				break
			}
		}
	}
	slices.SortStableFunc(ss, func(a, b scored) int {
		if d := cmp.Compare(b.spec, a.spec); d != 0 {
			return d
		}
		return cmp.Compare(b.cov, a.cov)
	})
	specific := hasSpecific(cs)
	var out []claim.LabelledChange
	for _, s := range ss {
		if s.spec > 0 || !specific {
			out = append(out, s.change)
		}
	}
	return out
}

// changeSource is the text of a memory that can state a change made: an
// answer of Claude's, an entry distilled from one, a subagent's report
// (a Task result, or a background agent's, which Claude Code delivers as a
// user message opening with <task-notification> and holding its <result>),
// or a plan Claude had
// approved. A user's lines ask for a change or describe one wanted; a
// tool's output states no decision.
func changeSource(it Item) (string, bool) {
	switch {
	case it.Kind == store.TypeAgentResponse:
		return it.event.Text, true
	case notice(it.event) && strings.Contains(it.event.Text, "<result>"):
		// An agent's report carries its result; a background command's
		// notice ("Background command … completed") is a tool's.
		return it.event.Text, true
	case it.Kind == KindEntry:
		return it.Text + "\n" + it.Quote, true
	case it.Kind == store.TypeToolObservation && (subagentReport(it.event) || planTool(it.event)):
		return it.event.Text, true
	}
	return "", false
}

// planTool reports a run of the tool Claude Code presents a plan for
// approval with: its input is Claude's plan.
func planTool(ev store.Event) bool {
	tool := gjson.GetBytes(ev.Payload, "tool").String()
	return tool == "ExitPlanMode" || tool == "exit_plan_mode"
}

// negationWarnings finds a shown answer or entry that says a thing the
// prompt names is gone ("React bundled, no CDN", "built without Babel"),
// said after a shown memory that names it as there ("React + Babel from
// CDN"): what the project held before the newer statement. The thing is
// one of the prompt's specific words, and the words "no" or "without"
// before it make a phrase it ends: "no CDN caching" is about caching.
func negationWarnings(sel []Item, paired map[[2]int64]bool) []Warning {
	var out []Warning
	for _, n := range sel {
		if len(out) == perKind {
			break
		}
		if n.Kind != store.TypeAgentResponse && n.Kind != KindEntry {
			continue // a user's "no X" asks for it; a tool's output states no decision
		}
		text := claimSource(n)
		for _, c := range n.promptConcepts {
			if c.specific == 0 {
				continue
			}
			t := c.forms[0]
			at := negatedAt(text, t)
			if at < 0 {
				continue
			}
			var older *Item
			for i, o := range sel {
				if o.CID == n.CID || !o.Time.Before(n.Time) || o.Kind == store.TypeUserPrompt || paired[pair(itemKey(o), itemKey(n))] {
					continue
				}
				if ot := claimSource(o); affirmedAt(ot, t) >= 0 && negatedAt(ot, t) < 0 && (older == nil || o.Time.After(older.Time)) {
					older = &sel[i]
				}
			}
			if older == nil {
				continue
			}
			ot := claimSource(*older)
			a := Memory{CID: older.CID, Type: kindLabel(*older), Date: older.Time, Title: sentenceAt(ot, affirmedAt(ot, t))}
			b := Memory{CID: n.CID, Type: kindLabel(n), Date: n.Time, Title: sentenceAt(text, at)}
			out = append(out, Warning{Severity: "HIGH", Kind: "superseded", A: a, B: b, Old: t,
				Note: fmt.Sprintf("the newer (%s) says there is no %s, which the older shows; the newer is the current one.", date(n.Time), Inert(text[at:at+len(t)]))})
			paired[pair(itemKey(*older), itemKey(n))] = true
			break
		}
	}
	return out
}

// negatedAt is where text, in any case, says "no t" or "without t" with t
// ending the phrase (a punctuation mark, the line's end, "and", "or",
// "but" after it), or -1.
func negatedAt(text, t string) int {
	for k := range wordAt(text, t) {
		if w := wordBefore(text, k); w != "no" && w != "without" {
			continue
		}
		rest := strings.ToLower(strings.TrimLeft(text[k+len(t):], " "))
		if rest == "" || strings.ContainsRune(".,;:)!?\n", rune(rest[0])) ||
			strings.HasPrefix(rest, "and ") || strings.HasPrefix(rest, "or ") || strings.HasPrefix(rest, "but ") {
			return k
		}
	}
	return -1
}

// affirmedAt is where text, in any case, names t as a word with no
// negation just before it ("no", "not", "without"), or -1.
func affirmedAt(text, t string) int {
	for k := range wordAt(text, t) {
		switch wordBefore(text, k) {
		case "no", "not", "without":
			continue
		}
		return k
	}
	return -1
}

// wordAt yields the offsets where text, in any case, holds t, lower-case,
// as a word of its own ("cdn" in "no CDN.", not in "CDNs"); none where
// lower-casing changes text's length, as offsets would not hold.
func wordAt(text, t string) iter.Seq[int] {
	return func(yield func(int) bool) {
		low := strings.ToLower(text)
		if len(low) != len(text) || t == "" {
			return
		}
		for i := 0; ; {
			j := strings.Index(low[i:], t)
			if j < 0 {
				return
			}
			k := i + j
			i = k + len(t)
			if (k > 0 && isWordByte(low[k-1])) || (i < len(low) && isWordByte(low[i])) {
				continue
			}
			if !yield(k) {
				return
			}
		}
	}
}

// wordBefore is the word of text just before byte k, lower-case, an
// opening parenthesis left out: "no" in "(no CDN)".
func wordBefore(text string, k int) string {
	fields := strings.Fields(text[max(0, k-12):k])
	if len(fields) == 0 {
		return ""
	}
	return strings.ToLower(strings.TrimLeft(fields[len(fields)-1], "("))
}

// sentenceAt is the sentence of text holding byte k: from the last ";",
// line break or ". " before it to the first after it (a period inside
// "fly.io" or "v1.2" ends nothing).
func sentenceAt(text string, k int) string {
	start := strings.LastIndexAny(text[:k], ";\n") + 1
	if d := strings.LastIndex(text[:k], ". "); d+1 > start {
		start = d + 1
	}
	end := len(text)
	if e := strings.IndexAny(text[k:], ";\n"); e >= 0 {
		end = k + e
	}
	if d := strings.Index(text[k:], ". "); d >= 0 && k+d+1 < end {
		end = k + d + 1
	}
	return strings.TrimSpace(text[start:end])
}

// docExts are the extensions of documents, whose fields ("**Backend**:
// FastAPI") state how the project stands as the writer saw it.
var docExts = map[string]bool{".md": true, ".mdx": true, ".markdown": true, ".rst": true, ".txt": true}

// fieldWarnings finds two documents shown, each a read or a write of the
// whole file or a spec in the user's own message (specLines), that state
// one field the prompt's words name (its label; of one document over time,
// a specific word of its value too) with another value ("**AI
// Framework**: LangChain with LangGraph" in a CLAUDE.md read,
// "**AI Framework**: Claude Agent SDK" in a README written later): the
// older is what the project held before, or a document left behind; the
// newer is the current one. A field a document states twice is a
// template's (a report of each bug, each with its "**Severity**:"), not
// one value; an edit shows a part of a file, which may be one such entry.
func fieldWarnings(sel []Item, paired map[[2]int64]bool) []Warning {
	type field struct {
		it                       Item
		file, label, value, line string
		// byLabel: the prompt names the label's words (any of them);
		// byValue: a specific word of the value ("MySQL" of "**Database**:
		// MySQL + Supabase").
		byLabel, byValue bool
	}
	var fs []field
	for _, it := range sel {
		var file string
		var lines []string
		switch it.Kind {
		case store.TypeToolObservation:
			if file, lines = docLines(it.event.Text); file == "" || !docExts[strings.ToLower(filepath.Ext(file))] {
				continue
			}
		case store.TypeUserPrompt:
			if lines = specLines(claimSource(it)); lines == nil {
				continue
			}
		default:
			continue
		}
		shown := " " + foldWords(it.Excerpt) + " "
		count := map[string]int{}
		var mine []field
		for _, l := range lines {
			label, value := claim.Field(l)
			if label == "" {
				continue
			}
			count[label]++
			if showsLine(shown, l) {
				lk, vk := keysOf(label), keysOf(value)
				byLabel := slices.ContainsFunc(it.promptConcepts, func(c concept) bool { return hasAny(lk, c.keys) })
				byValue := slices.ContainsFunc(it.promptConcepts, func(c concept) bool { return c.specificIn(vk) })
				mine = append(mine, field{it, file, label, value, l, byLabel, byValue})
			}
		}
		for _, f := range mine {
			if count[f.label] == 1 {
				fs = append(fs, f)
			}
		}
	}
	var out []Warning
	told := map[string]bool{} // the newer side's label, once
	for _, n := range fs {
		for _, o := range fs {
			if len(out) == perKind {
				return out
			}
			if told[n.label] {
				break
			}
			if o.label != n.label || !o.it.Time.Before(n.it.Time) || paired[pair(itemKey(o.it), itemKey(n.it))] || sameField(o.value, n.value) {
				continue
			}
			// The label asked, or a value asked of one document over time:
			// two documents sharing a label ("**Database**:" of each
			// service's page) may each be right of its own thing.
			if !n.byLabel && !((o.byValue || n.byValue) && samePath(o.file, n.file)) {
				continue
			}
			var note string
			switch {
			case samePath(o.file, n.file):
				note = fmt.Sprintf("%s (%s) states the field otherwise than it did before; the newer is the current one.",
					fieldSource(n.file), date(n.it.Time))
			case o.file == "":
				note = fmt.Sprintf("%s (%s) states the field otherwise than your message did (%s); the newer is the current one.",
					fieldSource(n.file), date(n.it.Time), date(o.it.Time))
			default:
				note = fmt.Sprintf("%s (%s) states the field otherwise than %s (%s) did; the newer is the current one, the older a document left behind.",
					fieldSource(n.file), date(n.it.Time), fieldSource(o.file), date(o.it.Time))
			}
			// Superseded, whichever file: a document written or read later
			// tells how the project stood then, and the older is shown
			// only with it.
			out = append(out, Warning{Severity: "HIGH", Kind: "superseded", Note: note, Old: o.value,
				A: Memory{CID: o.it.CID, Type: kindLabel(o.it), Date: o.it.Time, Title: o.line},
				B: Memory{CID: n.it.CID, Type: kindLabel(n.it), Date: n.it.Time, Title: n.line}})
			paired[pair(itemKey(o.it), itemKey(n.it))] = true
			told[n.label] = true
		}
	}
	return out
}

// fieldSource names where a field was stated: its document, or "your
// message" for the user's own (file "").
func fieldSource(file string) string {
	if file == "" {
		return "your message"
	}
	return curlyQuotes.Replace(Inert(baseName(file)))
}

// specLines are the lines of a user's message that is a spec written or
// pasted ("**Database**: SQLite", a line a field): two fields at least,
// and half its lines or more. A message that quotes a field among its own
// words ("the old wiki page said: **Database**: MySQL") states none. Nil
// for any other message.
func specLines(text string) []string {
	var lines []string
	fields := 0
	for l := range strings.Lines(text) {
		if t := strings.TrimSpace(l); t != "" {
			lines = append(lines, t)
			if label, _ := claim.Field(t); label != "" {
				fields++
			}
		}
	}
	if fields < 2 || 2*fields < len(lines) {
		return nil
	}
	return lines
}

// docLines are the lines a read from the first line, or a write, of a
// file shows, trimmed, blank ones left out; "" for any other text. Of a
// text cut when stored, the lines either side of the cut too: a field's
// line cut short still names its label and the start of its value (see
// sameField), where a snapshot must hold the file's lines as they are.
func docLines(text string) (file string, lines []string) {
	head, body, _ := strings.Cut(text, "\n")
	name, file, ok := strings.Cut(head, ": ")
	if !ok || file == "" || strings.HasSuffix(file, " (error)") || name != "Read" && name != "Write" || partRead(text) {
		return "", nil
	}
	for l := range strings.Lines(body) {
		if cutLine(l) {
			continue
		}
		if name == "Read" {
			l = withoutLineNumber(l)
		} else {
			l = strings.TrimPrefix(l, "+ ")
		}
		if t := strings.TrimSpace(l); t != "" {
			lines = append(lines, t)
		}
	}
	return file, lines
}

// sameField reports two values of a field that say one thing: the same
// words, or one the other's start with more detail ("FastAPI", "FastAPI
// with async SQLAlchemy"), or cut short when stored.
func sameField(a, b string) bool {
	a, b = strings.TrimRight(foldWords(a), ".;, "), strings.TrimRight(foldWords(b), ".;, ")
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

// showsLine reports whether an excerpt, folded and padded with a space at
// each end, shows a line: the line's words from their start, whole, the
// first 40 bytes of a long line (an excerpt may clip its end). A short
// line is shown whole, not as a part of a longer token: after a space or
// an opening bracket or quote ("(kelbo-mq → …"), and before a space, a
// closing bracket or quote, "," or ";", or a full stop, colon, "!" or "?"
// that ends a sentence ("(was oversized 56px)"); "v1.2" is not shown by
// "v1.2.3", nor "config.ts" by "src/config.ts". A line of a few letters
// ("on") is in any excerpt, so it shows nothing; three characters with a
// digit among others are a measure or a version ("3px", "v18", "@v4"),
// which names one value.
func showsLine(shown, line string) bool {
	l := foldWords(line)
	if len(l) < 3 || len(l) == 3 && !measureLike(l) {
		return false
	}
	if len(l) > 40 {
		return strings.Contains(shown, " "+cutRunes(l, 40))
	}
	return anyAt(shown, l, func(at int) bool {
		before, rest := shown[:at], shown[at+len(l):]
		if b, _ := utf8.DecodeLastRuneInString(before); before != "" && !strings.ContainsRune(" ([{\"'<“‘", b) {
			return false
		}
		r, n := utf8.DecodeRuneInString(rest)
		switch {
		case rest == "" || strings.ContainsRune(" )]}\"'>”’,;", r):
			return true
		case strings.ContainsRune(".:!?", r):
			return len(rest) == n || rest[n] == ' '
		}
		return false
	})
}

// measureLike reports a value holding digits and another character, a
// unit or a mark ("3px", "v18", "@v4"; "1.5", whose dot is one too), not
// digits alone ("100") or a word ("api"). It counts bytes: a value of
// another script has no digit among them.
func measureLike(v string) bool {
	digits := 0
	for i := 0; i < len(v); i++ {
		if v[i] >= '0' && v[i] <= '9' {
			digits++
		}
	}
	return digits > 0 && digits < len(v)
}

// later reports whether a, ranked i, was said after b, ranked j.
func later(a, b Item, i, j int) bool {
	if !a.Time.Equal(b.Time) {
		return a.Time.After(b.Time)
	}
	return logOrder(b, a, j, i)
}

// maxCauseNote bounds a cause in a warning's note: its words may join long
// paths and URLs, and the statement itself is shown in full beside it.
const maxCauseNote = 100

// diagnosisSide is one side of a diagnosis warning: the statement naming
// the cause.
func diagnosisSide(it Item, d claim.Diagnosis) Memory {
	m := itemMemory(it)
	if src := claimSource(it); d.Start >= 0 && d.End <= len(src) && d.Start < d.End {
		m.Title, m.Quote = src[d.Start:d.End], ""
	}
	return m
}

// conflictSides reads both sides of each of cs at once, each with the one
// quote a warning shows, not all its evidence: a memory replaced or
// contested by several is on a side of each of their rows. A side that
// cannot be read is missing from the map, which leaves its row out, as a
// side not found does; the other rows are still shown.
func conflictSides(ctx context.Context, db *store.DB, cs []store.Conflict) map[int64]store.Entry {
	var ids []int64
	for _, c := range cs {
		ids = append(ids, c.Older, c.Newer)
	}
	quoted, _ := db.Read().EntriesQuoted(ctx, ids)
	return quoted
}

// sidesFor is the end of the rows of cs from i on whose sides are read
// together: as many as make the want warnings left if every side loads. A
// pair warned about already, or met before among them, makes none.
func sidesFor(cs []store.Conflict, i, want int, paired map[[2]int64]bool) int {
	seen := map[[2]int64]bool{}
	for j := i; j < len(cs); j++ {
		p := pair(cs[j].Older, cs[j].Newer)
		if paired[p] || seen[p] {
			continue
		}
		seen[p] = true
		if len(seen) == want {
			return j + 1
		}
	}
	return len(cs)
}

// pair is the key of two sides in the pairs already warned about, either
// way round.
func pair(a, b int64) [2]int64 {
	if a > b {
		a, b = b, a
	}
	return [2]int64{a, b}
}

// itemKey identifies an item in the pairs already warned about: an entry by
// its id, a message by its event id, negated.
func itemKey(it Item) int64 {
	if id := it.EntryID(); id != 0 {
		return id
	}
	return -it.event.ID
}

// logOrder reports whether a, ranked i, comes before b, ranked j, among
// items stated at the same time: by their first message's position in the
// log ("Update: …" said after the value it updates, in one session or an
// import dated alike), else by rank.
func logOrder(a, b Item, i, j int) bool {
	if len(a.events) > 0 && len(b.events) > 0 {
		if pa, pb := slices.Min(a.events), slices.Min(b.events); pa != pb {
			return pa < pb
		}
	}
	return i < j
}

// replaced looks up the earlier message that stated the value c says it
// replaces, about the same thing.
//
// The messages found for a project, value and time, with their claims, are
// kept in cache: two items that report the same change at one time (an
// entry and the message it quotes) search and parse them once. The time is
// the search's bound: a change said again later reads a page of its own, or
// the talk between the two sayings filled the earlier one's.
func replaced(ctx context.Context, db *store.DB, cache map[string][]stated, n said, c claim.Claim) (said, bool, error) {
	project := n.event.Project
	if n.Kind == KindEntry {
		project = n.entry.Project
	}
	key := project + "\x00" + store.FormatTime(n.Time) + "\x00" + c.Replaces
	found, ok := cache[key]
	if !ok {
		hits, err := db.SearchEvents(ctx, store.EventQuery{
			// Newest first, unranked: the latest statement of the replaced
			// value before this one is the side to show, and ranking every
			// message that names a common value would cost the prompt its
			// time. Only those before it: messages after the change that
			// name the old value (the migration's own talk of it) filled
			// the page, and the statement it replaced was never read.
			Match: store.MatchAny([]string{c.Replaces}, true), Project: project, Until: n.Time,
			Types: messageTypes, Limit: 20, Newest: true,
		})
		if err != nil {
			return said{}, false, err
		}
		found = make([]stated, len(hits)) // claims parsed when first compared
		for i, h := range hits {
			found[i].Item = messageItem(h.Event, h.Text)
		}
		cache[key] = found
	}
	for i := range found {
		h := &found[i]
		if !h.Time.Before(n.Time) || neverRecalled(h.event) || slices.Contains(n.events, h.event.ID) || h.Kind == store.TypeToolObservation {
			// A tool run names values without deciding them (a search
			// for the replaced name is no statement of it).
			continue
		}
		text := h.event.Text
		if own, ok := ownLines(h.event); ok {
			text = own
		}
		if !h.parsed {
			h.claims, h.parsed = claim.Parse(text), true
		}
		if rel, role, ov, nv := claim.Compare(h.claims, n.claims); rel == claim.Supersedes && ov == c.Replaces && !restates(h.claims, role, ov, nv) {
			return h.said, true, nil
		}
	}
	return said{}, false, nil
}

// stated is a message replaced found, its claims parsed once asked.
type stated struct {
	said
	parsed bool
}

// shownAnswer is Claude's answer shown with a prompt (Item.Context) as an
// item of its own, what it says read as Claude's, dated when said, cited
// by the prompt's id: "The endpoint should be /api/v2/x (not /v1/x)"
// under the report of a failure is the newest word on the endpoint.
func shownAnswer(it Item) (Item, bool) {
	if it.Kind != store.TypeUserPrompt || it.Context == nil || it.Context.Type != store.TypeAgentResponse || it.ContextExcerpt == "" {
		return Item{}, false
	}
	return contextItem(it), true
}

// contextItem is the turn shown with it (Item.Context, which must be
// set) as an item of its own: the turn's kind, time, text and excerpt;
// the rest is it's (its citation id, its prompt's concepts).
func contextItem(it Item) Item {
	c := it
	c.Kind, c.Time, c.event, c.Excerpt = it.Context.Type, it.Context.Time, *it.Context, it.ContextExcerpt
	c.Context, c.ContextExcerpt = nil, ""
	return c
}

// claimSource is the text an item's decisions are read from: of a command
// run, only the message of a commit it made, which Claude wrote to say what
// changed ("folded 14 looms into 8"); the rest of a run is code and
// output, values no one decided.
func claimSource(it Item) string {
	switch {
	case it.Kind == KindEntry:
		return it.Text + "\n" + it.Quote
	case it.Kind == store.TypeToolObservation && !subagentReport(it.event):
		return commitMessage(it.Excerpt)
	case it.Kind == store.TypeUserPrompt:
		if own, ok := ownLines(it.event); ok {
			return own
		}
	}
	return it.Excerpt
}

// ownLines returns the lines a user wrote above the output pasted into a
// prompt ("the build fails again:" over forty log lines), and whether the
// prompt holds a paste. A compiler's "not assignable to type X" is no one's
// choice of X.
func ownLines(ev store.Event) (string, bool) {
	if ev.Type != store.TypeUserPrompt {
		return "", false
	}
	at, ok := extract.PastedOutput(ev.Text)
	return ev.Text[:at], ok
}

// commitMessage returns the messages a "git commit -m" in a command run
// gives, one a line, or "": quoted ('…' or "…") or a here-document
// ("$(cat <<'EOF' … EOF)").
func commitMessage(run string) string {
	cmd, _, _ := strings.Cut(run, "\n[") // the output opens "[main 048b166] …"
	k := strings.Index(cmd, "git commit")
	if k < 0 {
		return ""
	}
	var b strings.Builder
	rest := cmd[k:]
	for {
		m := strings.Index(rest, " -m ")
		if m < 0 {
			break
		}
		rest = strings.TrimLeft(rest[m+4:], " ")
		if rest == "" || rest[0] != '"' && rest[0] != '\'' {
			continue
		}
		q := rest[0]
		body := rest[1:]
		if h := strings.Index(body, "<<"); strings.HasPrefix(body, "$(cat") && h >= 0 {
			// A here-document: its lines up to the line that ends it.
			tag := strings.Trim(strings.Fields(body[h+2:] + " x")[0], `'"`)
			if nl := strings.IndexByte(body, '\n'); nl >= 0 && tag != "" {
				body = body[nl+1:]
				if e := strings.Index(body, "\n"+tag); e >= 0 {
					b.WriteString(body[:e])
					b.WriteByte('\n')
					rest = body[e:]
					continue
				}
			}
			break
		}
		end := closingQuote(body, q)
		if end < 0 {
			b.WriteString(body) // cut in the excerpt: what is shown of it
			break
		}
		b.WriteString(body[:end])
		b.WriteByte('\n')
		rest = body[end+1:]
	}
	return b.String()
}

// closingQuote returns the index in s of the quote q that closes a shell
// string, past escaped ones in a double-quoted string, or -1.
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && q == '"':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// claimWarning is the warning that newer replaced (rel Supersedes) or
// contradicts older's value ov of role with nv. The note names the role
// where the claim tables know it (a table role one of the values is listed
// in, a version, a shape such as a port or a path) or where a side says it
// as a word ("model", "db_host"); a role read from a label ("Available at:
// …") may be a stem ("availabl"), which says nothing, and a table role given
// to two values it does not list, for a word beside them ("remove WebSearch
// dependencies and use MCP": no package manager), says something untrue.
func claimWarning(rel claim.Relation, role, ov, nv string, older, newer said) Warning {
	w := Warning{Severity: "HIGH", A: statement(older, role, ov), B: statement(newer, role, nv), kept: knownRole(role)}
	label := ""
	if w.kept && (len(claim.Values(role)) == 0 || listed(role, ov) || listed(role, nv)) || claim.Shape(role) ||
		wordIn(strings.ToLower(w.A.Title+" "+w.B.Title), role) {
		label = Inert(role) + ": "
	}
	if rel == claim.Supersedes {
		w.Kind, w.Old = "superseded", ov
		w.Note = fmt.Sprintf("%s%s (%s) replaced %s; the newer is the current one.", label, Inert(nv), date(newer.Time), Inert(ov))
	} else {
		w.Kind = "contested"
		w.Note = fmt.Sprintf("%s%s vs %s; neither says it replaces the other, the newer is from %s.", label, Inert(ov), Inert(nv), date(newer.Time))
	}
	return w
}

// removalWarning says that newer removed the code c names (name, as newer
// writes it), which older shows.
func removalWarning(c claim.Claim, name string, older, newer said) Warning {
	return Warning{Severity: "HIGH", Kind: "superseded", Old: c.Value, A: statement(older, c.Role, c.Value), B: statement(newer, c.Role, c.Value), kept: true,
		Note: fmt.Sprintf("%s was removed (%s); the older memory shows it as it was.", Inert(name), date(newer.Time))}
}

// listed reports a value the claim tables list for role.
func listed(role, v string) bool { return slices.Contains(claim.RolesOf(v), role) }

// knownRole reports a role the claim tables know as a choice: a table
// role (a database, a test runner) or a product's version.
func knownRole(role string) bool {
	return strings.HasPrefix(role, "version") || len(claim.Values(role)) > 0
}

// restates reports an older statement that already tells of the change a
// newer one makes from ov to nv for role: it says ov was replaced, or it
// names nv in a statement of change ("here's a plan to migrate to
// Postgres", then "direct Postgres control via Prisma"). Two tellings of one
// change replace nothing. nv named as an option ("we could consider
// Postgres later") or for another thing ("analytics runs on Postgres") is
// no telling of the change. One statement of change naming both values
// tells it too, whatever role the parser gave each ("Replaced `import …
// from 'kelbo'` with `import … from 'quillet'`" reads the imports' names
// as roles). Which way it went is not read: the order of the names says
// it one way in "replaced X with Y" and the other in "Y instead of X", so
// a change undone right after, told with garbled roles, reads as told
// again.
func restates(older []claim.Claim, role, ov, nv string) bool {
	if slices.ContainsFunc(older, func(c claim.Claim) bool {
		return c.Role == role && (c.Replaces == ov || c.Value == nv && c.Changed && !c.Negated)
	}) {
		return true
	}
	changedTo := func(c claim.Claim, v string) bool { return c.Changed && !c.Negated && sameValue(c.Value, v) }
	return slices.ContainsFunc(older, func(o claim.Claim) bool {
		return changedTo(o, ov) && slices.ContainsFunc(older, func(n claim.Claim) bool {
			return n.Start == o.Start && n.End == o.End && changedTo(n, nv)
		})
	})
}

// statement is one side of a warning: the sentence of the item that states
// the value for role, so the value is never clipped away. A message naming
// the value for other things too ("TTS priority: X > Y", then "both
// systems will use X only") shows the sentence the warning is about.
func statement(s said, role, value string) Memory {
	m := itemMemory(s.Item)
	if s.Kind == KindEntry {
		// An entry's own quote says it verbatim; its title restates it.
		if q := sentenceWith(s.Quote, value); q != "" {
			m.Title, m.Quote = q, ""
		}
		return m
	}
	text := claimSource(s.Item)
	at := -1
	for i, c := range s.claims {
		if (c.Value == value || c.Replaces == value) && c.Start >= 0 && c.End <= len(text) && c.Start < c.End {
			if c.Role == role {
				at = i
				break
			}
			if at < 0 {
				at = i
			}
		}
	}
	if at >= 0 {
		m.Title, m.Quote = text[s.claims[at].Start:s.claims[at].End], ""
	} else if q := sentenceWith(s.Excerpt, value); q != "" {
		m.Title, m.Quote = q, "" // an item that names the value without deciding it
	}
	return m
}

// sentenceWith returns the sentence of text that holds value, or "". A
// sentence ends at ";", a line break, or a period followed by a space (a
// period inside "fly.io" or "v1.2" ends nothing).
func sentenceWith(text, value string) string {
	i := indexFold(text, value)
	if value == "" || i < 0 {
		return ""
	}
	ends := func(k int) bool {
		switch text[k] {
		case ';', '\n':
			return true
		case '.':
			return k+1 == len(text) || text[k+1] == ' '
		}
		return false
	}
	start := 0
	for k := i - 1; k >= 0; k-- {
		if ends(k) {
			start = k + 1
			break
		}
	}
	end := len(text)
	for k := i + len(value); k < len(text); k++ {
		if ends(k) {
			end = k + 1
			break
		}
	}
	return strings.TrimSpace(text[start:end])
}

// statedChangeWarnings finds a shown answer, entry or report that itself
// states a change of a role the prompt asks the value of ("Replaced:
// MySQL → CockroachDB", asked "which database holds the ledger now?"): the
// older value is in the context beside the newer, and only the
// statement's words say which holds. What is shown is read (an entry's
// claim, a message's excerpt), so both values are there. The role asked
// ties the change to the prompt; a summary's change of another role is
// not what was asked, and claimWarnings pairs statements of other items.
// A role found by its values' shape is not read: two paths or ports in a
// sentence are as often two things ("jwt.key" and "jwt.pub", both kept).
// The statement must say it changes something (claim.ChangeCue): "use
// pnpm, never npm" is a choice with the alternative it turned down, and
// "the logs from 09:00 to 09:10" a range read, no change made.
func statedChangeWarnings(pc *claim.Cache, sel []Item, earlier []Warning, paired map[[2]int64]bool) []Warning {
	// A memory an earlier warning holds as the newer side, by its message
	// or an entry quoting it, is told of there.
	told := toldEvents(sel, earlier)
	var out []Warning
	for i, it := range sel {
		if len(out) == perKind {
			break
		}
		if len(it.promptRoles) == 0 || paired[pair(itemKey(it), itemKey(it))] || toldOf(it, earlier, told) {
			continue
		}
		if _, ok := changeSource(it); !ok {
			continue
		}
		for _, c := range pc.Parse(it.Excerpt) {
			if !c.Changed || c.Replaces == "" || c.Negated || c.Weak || !slices.Contains(it.promptRoles, c.Role) || claim.Shape(c.Role) ||
				sameValue(c.Replaces, c.Value) || unlike(claim.Supersedes, c.Role, c.Replaces, c.Value) ||
				everyday(c.Value) || everyday(c.Replaces) || !claim.ChangeCue(it.Excerpt[c.Start:c.End]) || replacedValue(it, sel, earlier, c) || statedLater(pc, sel, i, c) {
				continue
			}
			a := Memory{CID: it.CID, Type: kindLabel(it), Date: it.Time, Title: c.Replaces}
			b := a
			b.Title = c.Value
			out = append(out, Warning{Severity: "HIGH", Kind: "superseded", A: a, B: b, inItem: true, Old: c.Replaces,
				Note: fmt.Sprintf("the memory (%s) states this change of the %s; the newer is the current one.", date(it.Time), Inert(c.Role))})
			paired[pair(itemKey(it), itemKey(it))] = true
			for _, id := range it.events {
				told[id] = true // an entry quoting the message tells it again
			}
			break
		}
	}
	return out
}

// replacedValue reports an earlier warning that holds it, or an entry
// quoting it, as the older side of a change of a value c states: c's newer
// value is no longer current. A warning about another thing of it (a port
// it names) leaves c as it is.
func replacedValue(it Item, sel []Item, earlier []Warning, c claim.Claim) bool {
	return slices.ContainsFunc(earlier, func(w Warning) bool {
		if w.Old == "" || !sameValue(w.Old, c.Value) && !sameValue(w.Old, c.Replaces) {
			return false
		}
		return w.A.CID == it.CID || slices.ContainsFunc(sel, func(o Item) bool {
			return o.CID == w.A.CID && slices.ContainsFunc(o.events, func(id int64) bool { return slices.Contains(it.events, id) })
		})
	})
}

// statedLater reports a memory of sel said after sel[i] that states a
// change to another value of c's role: the change c states was followed
// by another, and c's newer value is not the current one. A later mention
// of a value ("check the MySQL connection string") changes nothing.
func statedLater(pc *claim.Cache, sel []Item, i int, c claim.Claim) bool {
	for j, o := range sel {
		if j == i || !later(o, sel[i], j, i) {
			continue
		}
		if slices.ContainsFunc(pc.Parse(claimSource(o)), func(n claim.Claim) bool {
			return n.Role == c.Role && n.Changed && !n.Negated && !n.Weak && !sameValue(n.Value, c.Value)
		}) {
			return true
		}
	}
	return false
}

// namesAsked reports whether lines name a specific concept of the prompt
// (cs), or the prompt names none: a change shown is warned of when it is
// about what the prompt asks, not because its memory was recalled for
// other lines ("output = build" of a kiln.toml recalled for its firing
// schedule).
func namesAsked(cs []concept, lines ...string) bool {
	if !hasSpecific(cs) {
		return true
	}
	_, spec := coverage(cs, keysOf(strings.Join(lines, "\n")))
	return spec > 0
}

// hasSpecific reports whether the prompt's concepts cs hold a specific one.
func hasSpecific(cs []concept) bool {
	return slices.ContainsFunc(cs, func(c concept) bool { return c.specific > 0 })
}

// asksClaim reports whether the claim warning w, of role, is about what
// the prompt asks: the role is the one asked, or a statement of the two
// names a specific concept of the prompt (namesAsked).
func asksClaim(it Item, role string, w Warning) bool {
	return slices.Contains(it.promptRoles, role) || namesAsked(it.promptConcepts, w.A.Title, w.B.Title)
}

// statesChange reports a claim of cs that names ov replaced by nv in role.
func statesChange(cs []claim.Claim, role, ov, nv string) bool {
	return slices.ContainsFunc(cs, func(c claim.Claim) bool {
		return c.Role == role && sameValue(c.Value, nv) && sameValue(c.Replaces, ov)
	})
}

// Package recall chooses the verified memories to inject for a prompt and renders them with conflict warnings and a citation trace.
package recall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/glossary"
	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/task"
)

// Request is one prompt to recall for.
type Request struct {
	Project   string
	SessionID string
	PromptID  string
	Prompt    string
	Now       time.Time
	// InContext returns text the client already put in Claude's context
	// (the project's CLAUDE.md files, claudemd.Read): an item it holds is
	// not injected again. It is called only for a prompt that passes the
	// relevance gate, so most prompts read no file; nil means none.
	InContext func() string
	// Terms are the project glossary's terms the prompt uses
	// (glossary.Glossary.Used, from a glossary.Load that removed private
	// sections and secrets): they are injected whether or not a memory
	// passes the gate.
	Terms []glossary.Term
	// Glosses translates the words of a prompt in another language than
	// English (withGlosses); nil translates nothing.
	Glosses *glosses.Dict
	// Spool is the hook's reader of the session's spooled events, shared
	// with its other readers so that the files are read once; nil reads
	// them.
	Spool *store.SessionSpool
}

// charsPerToken approximates tokens for budgeting; prose runs near four
// characters a token, code and Korean lower, so three errs on the small side.
const charsPerToken = 3

// candidates is how many entries the full-text index returns per prompt.
const candidates = 30

func stageWeight(s string) float64 {
	if s == store.StageCertified {
		return 1.3
	}
	return 1
}

func statusWeight(s string) float64 {
	if s == store.StatusContested {
		return 0.85
	}
	return 1
}

// recency halves a memory's weight over about six months, never below 0.5:
// old decisions still matter, newer ones win ties.
func recency(now, created time.Time) float64 {
	if created.IsZero() || created.After(now) {
		return 1
	}
	days := now.Sub(created).Hours() / 24
	return 0.5 + 0.5*math.Exp(-days/180)
}

func entryText(e store.Entry) string {
	parts := append([]string{e.Title, e.Body, e.Subject}, e.Questions...)
	for _, v := range e.Evidence {
		parts = append(parts, v.Quote)
	}
	return strings.Join(parts, "\n")
}

// containsTerm reports whether a word of text starts with term (the query is a
// prefix query, so "token" matches "tokens").
func containsTerm(text, term string) bool { return findWord(text, term, nil) }

// wordIn reports w in text as a word of its own: no letter, digit or '_'
// on either side.
func wordIn(text, w string) bool {
	return findWord(text, w, func(next byte) bool { return !isWordByte(next) })
}

// findWord reports whether text holds w where a word starts and, when ends
// is not nil, where ends accepts the byte after it (the text's end is
// always a word's end).
func findWord(text, w string, ends func(next byte) bool) bool {
	return anyAt(text, w, func(j int) bool {
		end := j + len(w)
		return (j == 0 || !isWordByte(text[j-1])) && (ends == nil || end == len(text) || ends(text[end]))
	})
}

// anyAt reports whether ok holds at one of the offsets where text holds w.
func anyAt(text, w string, ok func(at int) bool) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		if ok(j) {
			return true
		}
		i = j + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b >= 0x80
}

// memory converts an entry for rendering, with its best aligned quote.
func memory(e store.Entry) Memory {
	m := Memory{CID: e.CID, Type: e.Type, Date: e.Created, Title: e.Title, Body: e.Body, Author: e.Author}
	best := -1.0
	for _, v := range e.Evidence {
		if v.Aligned() && v.Confidence > best {
			best, m.Quote = v.Confidence, v.Quote
		}
	}
	return m
}

// Injection is the context chosen for one prompt and the record of it.
type Injection struct {
	Text string // "" when nothing stored is relevant enough
	ev   store.Event
}

// Compose selects and renders the memories for a prompt. It only reads, so it
// answers in time even while another process holds the write lock (WAL
// readers never wait); Record writes the injection down afterwards.
//
// The glossary terms of req are injected even when no memory is, or when
// recall fails: then the error comes with them.
func Compose(ctx context.Context, db *store.DB, cfg config.Recall, req Request) (Injection, error) {
	blocks := Blocks{Trace: cfg.CitationTrace, Verification: cfg.Verification, Clarification: cfg.Clarification, Terms: req.Terms}
	maxChars := cfg.TokenBudget * charsPerToken
	// Read where the project's sessions were recorded; the injection is
	// recorded in the session's own project.
	read := req
	var err error
	read.Project, err = scopeProject(ctx, db, req.Project, req.SessionID)
	var sel []Item
	if err == nil {
		sel, err = Select(ctx, db, cfg, read)
	}
	if err == nil && len(sel) > 0 {
		err = markClosed(ctx, db, read.Project, sel)
	}
	var warns []Warning
	if err == nil && len(sel) > 0 && cfg.ConflictWarnings {
		warns, err = Warnings(ctx, db, cfg, sel)
	}
	if err != nil {
		return Injection{Text: Render(nil, nil, blocks, maxChars).Text}, err
	}
	r := Render(current(sel, warns), warns, blocks, maxChars)
	inj := Injection{Text: r.Text}
	if len(r.Shown) == 0 {
		return inj, nil // terms alone are no injection of memories to record
	}
	key := req.PromptID
	if key == "" {
		key = fmt.Sprintf("%x", store.FormatTime(req.Now))
	}
	payload, _ := json.Marshal(map[string]any{"memories": r.Shown, "warnings": r.Warnings, "chars": len(r.Text), "prompt_id": req.PromptID})
	inj.ev = store.Event{Time: req.Now, Type: store.TypeMemoryInjected, SessionID: req.SessionID,
		Project: req.Project, DedupeKey: store.Key(store.KeyInject, req.SessionID, key), Payload: payload}
	return inj, nil
}

// current leaves out of the memory list the items a warning shows as
// replaced: a superseded statement is shown beside its replacement. An item
// that says more than the replaced statement stays, marked, since the rest
// of what it says may still hold. A message a superseded entry quotes (stale)
// is left to the ledger's warning; without one (warnings off) it is not shown,
// as it is not the current state.
func current(sel []Item, warns []Warning) []Item {
	replaced := map[string]string{}
	for _, w := range warns {
		// An edit's or a labelled change's warning quotes two lines of the
		// one memory shown: the memory holds the newer, and stays as it is.
		if w.Kind == "superseded" && !w.inItem {
			replaced[w.A.CID] = w.B.CID
		}
	}
	out := make([]Item, 0, len(sel))
	for _, it := range sel {
		by, ok := replaced[it.CID]
		switch {
		case it.stale:
		case !ok:
			out = append(out, it)
		case len(it.Excerpt) > 2*len(statementOf(warns, it.CID)):
			it.ReplacedBy = by
			out = append(out, it)
		}
	}
	if len(out) == 0 && len(replaced) > 0 {
		// Only replaced statements matched: they are shown, and the
		// warnings after them say what replaced them.
		return sel
	}
	return out
}

// statementOf is the replaced statement a warning quotes for an item.
func statementOf(warns []Warning, cid string) string {
	for _, w := range warns {
		if w.A.CID == cid {
			return w.A.Title
		}
	}
	return ""
}

// Record stores which memories were injected in which turn and bumps their
// injection count. An injection of no memories records nothing.
func Record(ctx context.Context, db *store.DB, inj Injection) error {
	if inj.ev.Type == "" {
		return nil
	}
	return db.MarkInjected(ctx, inj.ev)
}

// Event is the injection's record, a memory_injected event, for a hook that
// spools it (store.Spool) rather than write it; ok is false when no memory
// was injected.
func (inj Injection) Event() (ev store.Event, ok bool) { return inj.ev, inj.ev.Type != "" }

// Context composes and records the memories for a prompt.
func Context(ctx context.Context, db *store.DB, cfg config.Recall, req Request) (string, error) {
	inj, err := Compose(ctx, db, cfg, req)
	if err == nil {
		err = Record(ctx, db, inj)
	}
	if err != nil {
		return "", err
	}
	return inj.Text, nil
}

// Brief is a short account of the project for SessionStart: the last session's
// summary, the most used verified memories and open conflicts, within the
// brief budget. A project with no history gets "".
func Brief(ctx context.Context, db *store.DB, cfg config.Recall, project, sessionID string) (string, error) {
	return BriefWith(ctx, db, cfg, project, sessionID, nil)
}

// BriefWith is Brief with notices the user must hear of (an LLM budget
// reached) first, so that the budget never cuts them; a project with no
// history gets the notices alone.
func BriefWith(ctx context.Context, db *store.DB, cfg config.Recall, project, sessionID string, notices []string) (string, error) {
	lines := slices.Clone(notices)
	project, err := scopeProject(ctx, db, project, sessionID)
	if err != nil {
		return "", err
	}
	sessions, err := db.Sessions(ctx, project, 5)
	if err != nil {
		return "", err
	}
	for _, s := range sessions {
		if s.ID != sessionID && s.Summary != "" {
			lines = append(lines, fmt.Sprintf("Last session (%s): %s", date(s.StartedAt), clipRunes(Inert(s.Summary), 300)))
			break
		}
	}
	tasks, err := openTasks(ctx, db, project)
	if err != nil {
		return "", err
	}
	if len(tasks) > 0 {
		lines = append(lines, "Open tasks:")
		lines = append(lines, tasks...)
	}
	top, err := db.Read().Entries(ctx, store.EntryFilter{Project: project, Stages: []string{store.StageVerified, store.StageCertified},
		Statuses: []string{store.StatusActive}, Limit: 40})
	if err != nil {
		return "", err
	}
	// A digest tells an old session, in full only for a prompt about it.
	// Tasks have their own section above: open ones are there, and a
	// closed one is no key memory of the project's present.
	top = slices.DeleteFunc(top, func(e store.Entry) bool { return e.Type == store.DigestType || e.Type == "task" })
	sort.SliceStable(top, func(i, j int) bool {
		if top[i].UseCount != top[j].UseCount {
			return top[i].UseCount > top[j].UseCount
		}
		return briefRank(top[i].Type) < briefRank(top[j].Type)
	})
	top = top[:min(5, len(top))]
	// Pinned memories always come first; superseded and rejected ones
	// never appear, pinned or not.
	pins, err := pinnedEntries(ctx, db, project)
	if err != nil {
		return "", err
	}
	for _, p := range pins {
		top = slices.DeleteFunc(top, func(e store.Entry) bool { return e.ID == p.ID })
	}
	top = append(pins, top...)
	if len(top) > 0 {
		lines = append(lines, "Key memories:")
		for _, e := range top {
			pin := ""
			if slices.ContainsFunc(pins, func(p store.Entry) bool { return p.ID == e.ID }) {
				pin = ", pinned"
			}
			lines = append(lines, fmt.Sprintf("- [%s] %s%s, %s: %s%s", e.CID, typeLabel(e.Type), pin, date(e.Created), sharedBy(e.Author), clipRunes(Inert(e.Title), 160)))
		}
	}
	open, err := openConflicts(ctx, db, project)
	if err != nil {
		return "", err
	}
	if len(open) > 0 {
		lines = append(lines, "Open conflicts:")
		lines = append(lines, open...)
	}
	if len(lines) == 0 {
		return "", nil
	}
	maxChars := min(cfg.BriefTokens*charsPerToken, hardCap)
	var b strings.Builder
	b.WriteString(privacy.FenceOpen + "\nProject memory (claude-memory-layer):\n")
	heading := "" // a section's heading ("Key memories:"), written with its first line
	wrote := false
	for _, l := range lines {
		if strings.HasSuffix(l, ":") && !strings.HasPrefix(l, "- ") {
			heading = l + "\n"
			continue
		}
		if b.Len()+len(heading)+len(l)+1+len(privacy.FenceClose) > maxChars {
			break
		}
		b.WriteString(heading + l + "\n")
		heading = ""
		wrote = true
	}
	if !wrote {
		return "", nil // nothing fits: no brief rather than a heading alone
	}
	b.WriteString(privacy.FenceClose)
	return b.String(), nil
}

// markClosed marks the selected tasks that are closed, so that the model
// does not take finished work for work still to do. The closures are read
// only when a task was selected: most prompts pay nothing.
func markClosed(ctx context.Context, db *store.DB, project string, sel []Item) error {
	if !slices.ContainsFunc(sel, func(it Item) bool { return it.Kind == KindEntry && it.Type == "task" }) {
		return nil
	}
	closed, err := task.Closures(ctx, db, project)
	if err != nil {
		return err
	}
	for i, it := range sel {
		if c := closed[it.CID]; it.Kind == KindEntry && c.Holds(it.entry) {
			sel[i].Closed = c.How + " " + date(c.Time)
		}
	}
	return nil
}

// briefTasks is how many open tasks the brief lists at most: a few lines,
// so that a long backlog cannot crowd out the rest; the CLI lists them all.
const briefTasks = 5

// openTasks renders the project's open tasks for the brief, newest first,
// one short line each.
func openTasks(ctx context.Context, db *store.DB, project string) ([]string, error) {
	ts, err := task.List(ctx, db, project, false)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, t := range ts[:min(briefTasks, len(ts))] {
		lines = append(lines, fmt.Sprintf("- [%s] %s: %s", t.CID, date(t.Created), clipRunes(Inert(t.Title), 120)))
	}
	if n := len(ts) - briefTasks; n > 0 {
		lines = append(lines, fmt.Sprintf("- and %d more", n))
	}
	return lines, nil
}

// pinnedEntries returns the project's pinned memories that may be shown:
// not superseded, not rejected, not forgotten.
func pinnedEntries(ctx context.Context, db *store.DB, project string) ([]store.Entry, error) {
	cids, err := db.Pinned(ctx, project)
	if err != nil {
		return nil, err
	}
	var out []store.Entry
	for cid := range cids {
		e, err := db.EntryByCID(ctx, cid)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if e.Stage == store.StageRejected || e.Status == store.StatusSuperseded {
			continue
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// briefRank orders entry types for the brief: what constrains work first.
func briefRank(t string) int {
	switch t {
	case "decision":
		return 0
	case "constraint":
		return 1
	case "preference":
		return 2
	case "fact":
		return 3
	}
	return 4
}

// openConflicts renders the project's unresolved contradictions, both sides each.
func openConflicts(ctx context.Context, db *store.DB, project string) ([]string, error) {
	cs, err := db.OpenConflicts(ctx, project, 3)
	if err != nil {
		return nil, err
	}
	quoted := conflictSides(ctx, db, cs)
	var lines []string
	for _, c := range cs {
		a, okA := quoted[c.Older]
		b, okB := quoted[c.Newer]
		if !okA || !okB {
			continue
		}
		lines = append(lines, fmt.Sprintf("- %s vs %s", side(memory(a)), side(memory(b))))
	}
	return lines, nil
}

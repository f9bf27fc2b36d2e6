// Package citation checks the memories an answer cites against those it was shown.
package citation

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/inspect"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

// idRe finds memory citation ids, not inside a longer word: an entry's
// ("mem:" and at least four hex digits) or a recalled message's ("mem:t" and
// its event id in base 36, see store.EventCID).
var idRe = lazyregexp.New(`(?:^|[^A-Za-z0-9_])(mem:(?:t[0-9a-z]{1,12}|[0-9a-f]{4,64}))(?:[^A-Za-z0-9_]|$)`)

// usedRe is the line the citation trace asks an answer to end with.
var usedRe = lazyregexp.New(`(?im)^[ \t*_>-]*memories used[*_]*[ \t]*:(.*)$`)

// markRe is a citation mark in running text, as the injected memories show them.
var markRe = lazyregexp.New(`\[(mem:(?:t[0-9a-z]{1,12}|[0-9a-f]{4,64}))\]`)

// IDs returns the distinct memory ids that occur in text, in order.
func IDs(text string) []string {
	var out []string
	seen := map[string]bool{}
	// A separator is consumed by one match, so adjacent ids ("[mem:a] [mem:b]")
	// are found by searching again from each match's id end.
	for i := 0; i < len(text); {
		m := idRe.FindStringSubmatchIndex(text[i:])
		if m == nil {
			break
		}
		id := text[i+m[2] : i+m[3]]
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
		i += m[3]
	}
	return out
}

// Cited is what an answer says it used.
type Cited struct {
	// Listed are the ids on the "Memories used:" line (the last one, when
	// an answer has several); Marked are the [mem:…] marks elsewhere.
	Listed []string
	Marked []string
	// Line reports whether the answer has a "Memories used:" line at all.
	Line bool
}

// All is every id cited, listed first, without repeats.
func (c Cited) All() []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range append(append([]string{}, c.Listed...), c.Marked...) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// Parse reads the citations of an answer.
func Parse(answer string) Cited {
	var c Cited
	lines := usedRe.FindAllStringSubmatchIndex(answer, -1)
	rest := answer
	if n := len(lines); n > 0 {
		last := lines[n-1]
		c.Line = true
		c.Listed = IDs(answer[last[2]:last[3]])
		rest = answer[:last[0]] + "\n" + answer[last[1]:]
	}
	for _, m := range markRe.FindAllStringSubmatch(rest, -1) {
		c.Marked = append(c.Marked, m[1])
	}
	c.Marked = IDs(strings.Join(c.Marked, " "))
	return c
}

// Check is the outcome of checking one answer.
type Check struct {
	Cited   []string // every id the answer cited
	Used    []string // cited and shown in the turn: counted as uses
	Unshown []string // cited, stored, but not shown in the turn
	// Earlier are those of Unshown that an earlier turn's tool result
	// showed: still in the model's context, unless compacted.
	Earlier []string
	Unknown []string // cited but naming nothing stored
	Shown   []string // what the turn showed: injected or returned by a memory tool
}

// Flagged reports whether the answer cited anything it could not have been shown.
func (c Check) Flagged() bool { return len(c.Unshown)+len(c.Unknown) > 0 }

// Turn identifies the answer being checked.
type Turn struct {
	SessionID string
	Project   string
	PromptID  string
	Answer    string
	Now       time.Time
}

// Record checks an answer's citations against what its turn was shown: the
// memories injected for the prompt (the memory_injected event's payload) and
// those tool results of the turn named (the tool_observation events'
// "memories"). Cited memories that were shown get a use each; the check is
// stored as one memory_cited event, once per turn. An answer that cites
// nothing records nothing and returns a zero Check.
func Record(ctx context.Context, db *store.DB, t Turn) (Check, error) {
	var c Check
	c.Cited = Parse(t.Answer).All()
	if len(c.Cited) == 0 {
		return c, nil
	}
	// What the turn was shown may still be in the spool (the prompt hook
	// spools its injection); Stop's writes fold it first, unless it had
	// nothing to write.
	if err := db.Fold(ctx); err != nil {
		return c, err
	}
	shown, before, err := shownIn(ctx, db, t.SessionID, t.PromptID)
	if err != nil {
		return c, err
	}
	c.Shown = shown
	isShown := map[string]bool{}
	for _, id := range shown {
		isShown[id] = true
	}
	var used []int64
	for _, id := range c.Cited {
		ref, err := inspect.Lookup(ctx, db, id)
		switch {
		case errors.Is(err, inspect.ErrNotFound), errors.Is(err, inspect.ErrBadID):
			c.Unknown = append(c.Unknown, id)
		case err != nil:
			return c, err
		case !isShown[id]:
			c.Unshown = append(c.Unshown, id)
			if before[id] {
				c.Earlier = append(c.Earlier, id)
			}
		default:
			c.Used = append(c.Used, id)
			if ref.Entry != nil {
				used = append(used, ref.Entry.ID)
			}
		}
	}
	payload, err := json.Marshal(map[string]any{
		"prompt_id": t.PromptID, "cited": nonNil(c.Cited), "used": nonNil(c.Used),
		"unshown": nonNil(c.Unshown), "earlier": nonNil(c.Earlier), "unknown": nonNil(c.Unknown), "shown": nonNil(c.Shown),
	})
	if err != nil {
		return c, err
	}
	key := t.PromptID
	if key == "" {
		key = "t" + store.FormatTime(t.Now)
	}
	ev := store.Event{Time: t.Now, Type: store.TypeMemoryCited, SessionID: t.SessionID, Project: t.Project,
		DedupeKey: store.Key(store.KeyCite, t.SessionID, key), Payload: payload}
	return c, db.MarkUsed(ctx, used, t.Now, ev)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Shown lists the memory ids a turn showed the model: those in the
// session's start brief and injected for its prompts so far, and those in
// the results of its tool calls (the memory tools' search, get and timeline
// among them). Without a prompt id no tool result can be tied to the turn.
func Shown(ctx context.Context, db *store.DB, sessionID, promptID string) ([]string, error) {
	shown, _, err := shownIn(ctx, db, sessionID, promptID)
	return shown, err
}

// shownIn is Shown, plus the ids the session showed before in other turns'
// tool results.
func shownIn(ctx context.Context, db *store.DB, sessionID, promptID string) (turn []string, before map[string]bool, err error) {
	before = map[string]bool{}
	// A turn's events are among the session's latest; a long session must
	// not make every Stop read all of its history.
	evs, err := db.Read().Events(ctx, store.EventFilter{SessionID: sessionID, Newest: true, Limit: 2000,
		Types: []string{store.TypeMemoryInjected, store.TypeToolObservation, store.TypeSessionStarted}})
	if err != nil {
		return nil, nil, err
	}
	var ids []string
	for _, ev := range evs {
		p := gjson.ParseBytes(ev.Payload)
		mems := p.Get("memories").Array()
		if len(mems) == 0 {
			continue
		}
		// The start brief and what earlier prompts injected stay in the
		// model's context for the session (recall withholds a memory an
		// earlier prompt injected on that ground): they are shown to every
		// turn. An earlier turn's tool result is not counted so: the model
		// asked for it then, not now.
		this := ev.Type == store.TypeSessionStarted || ev.Type == store.TypeMemoryInjected ||
			promptID != "" && p.Get("prompt_id").String() == promptID
		for _, m := range mems {
			if this {
				ids = append(ids, m.String())
			} else {
				before[m.String()] = true
			}
		}
	}
	return IDs(strings.Join(ids, " ")), before, nil
}

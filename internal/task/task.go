// Package task tells a project's open tasks: the task memories no later work closed.
//
// A task is an ordinary memory of type "task" (internal/extract makes them).
// Closing one is an event, task_closed, naming the memory by its citation id,
// like a pin: the memory itself is not changed, so re-extracting a session
// keeps it closed, forgetting the memory takes its closure with it, and
// forgetting the message that closed it (the closing session) opens it again.
package task

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// How a task was closed.
const (
	Done    = "done"    // later work finished it
	Dropped = "dropped" // the user gave it up
)

// Task is a task memory and, once closed, how.
type Task struct {
	store.Entry
	Closed *Closure // nil while the task is open
}

// Closure is how a task was closed.
type Closure struct {
	How       string    // Done or Dropped
	ByHand    bool      // closed by the user (CLI or dashboard), not by a session
	Time      time.Time // when it was closed
	SessionID string    // the session whose messages closed it; "" by hand
	EventID   int64     // the message that closed it; 0 by hand or once forgotten
	Quote     string    // the words of that message that closed it; "" by hand or once forgotten

	event      string // the message's dedupe key
	start, end int    // Quote's span in the message's text
	seq        int64  // the task_closed event's row: what was said after it reopens the task
}

// Holds reports whether c still closes task e: no quote of e was stored
// after the closure. A task said again later ("Run the migration" left
// pending in a new plan) is open again; its memory is the same, since the
// same words make the same claim. A nil c holds nothing.
func (c *Closure) Holds(e store.Entry) bool {
	if c == nil {
		return false
	}
	for _, v := range e.Evidence {
		if v.EventID > c.seq {
			return false
		}
	}
	return true
}

// closed is the payload of a task_closed event. The quote is not copied
// into it: it points into the message, so that forgetting the message
// leaves no copy of its words behind. The message is named by its dedupe
// key, which an export and its restore keep, not by its row id, which
// they do not.
type closed struct {
	CID    string `json:"cid"`
	How    string `json:"how"`
	ByHand bool   `json:"by_hand,omitempty"`
	Event  string `json:"event,omitempty"` // the closing message's dedupe key
	Start  int    `json:"start,omitempty"`
	End    int    `json:"end,omitempty"`
}

// ErrNotTask is returned when asked to close a memory that is not a task.
var ErrNotTask = errors.New("not a task")

// showable are the statuses of a task still worth listing: a superseded
// or forgotten memory is not.
var showable = []string{store.StatusActive, store.StatusContested}

// List returns the project's tasks, newest first: the open ones, or with
// all every task, closed ones with their closure. Rejected memories are
// left out.
func List(ctx context.Context, db *store.DB, project string, all bool) ([]Task, error) {
	ts, err := list(ctx, db.Read(), project, all)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, t := range ts {
		if c := t.Closed; c != nil && c.event != "" {
			keys = append(keys, c.event)
		}
	}
	if len(keys) == 0 {
		return ts, nil
	}
	ids, err := db.EventIDs(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("tasks: %w", err)
	}
	for _, t := range ts {
		if c := t.Closed; c != nil && ids[c.event] != 0 {
			c.EventID = ids[c.event]
			c.Quote = quoteOf(ctx, db, c)
		}
	}
	return ts, nil
}

func list(ctx context.Context, st *store.Tx, project string, all bool) ([]Task, error) {
	es, err := st.Entries(ctx, store.EntryFilter{Project: project, Types: []string{"task"}, Statuses: showable, Evidence: true})
	if err != nil {
		return nil, fmt.Errorf("tasks: %w", err)
	}
	closures, err := closures(ctx, st, project)
	if err != nil {
		return nil, err
	}
	var out []Task
	for _, e := range es {
		if e.Stage == store.StageRejected || e.Author != "" {
			// A teammate's task: closures are this machine's events and are
			// not shared, so it would stay open here after they finished it.
			continue
		}
		c := closures[e.CID]
		if !c.Holds(e) {
			c = nil
		} else if !all {
			continue
		}
		out = append(out, Task{Entry: e, Closed: c})
	}
	return out, nil
}

// Closures returns the latest closure of each task of project that has
// one, by citation id, without the closing words: for a reader that only
// needs to know whether a task is still open (recall marks a closed task
// it shows). Closure.Holds tells whether the task was reopened since.
func Closures(ctx context.Context, db *store.DB, project string) (map[string]*Closure, error) {
	return closures(ctx, db.Read(), project)
}

// closures reads the project's task_closed events; the latest one of a
// memory is the one that counts.
func closures(ctx context.Context, st *store.Tx, project string) (map[string]*Closure, error) {
	evs, err := st.Events(ctx, store.EventFilter{Project: project, Types: []string{store.TypeTaskClosed}})
	if err != nil {
		return nil, fmt.Errorf("task closures: %w", err)
	}
	out := map[string]*Closure{}
	for _, e := range evs {
		var v closed
		if json.Unmarshal(e.Payload, &v) != nil || v.CID == "" {
			continue
		}
		out[v.CID] = &Closure{How: v.How, ByHand: v.ByHand, Time: e.Time, SessionID: e.SessionID,
			event: v.Event, start: v.Start, end: v.End, seq: e.ID}
	}
	return out, nil
}

// quoteOf reads the closing words from the message c points to; "" when
// the message was forgotten or no longer holds the span.
func quoteOf(ctx context.Context, db *store.DB, c *Closure) string {
	start, end := c.start, c.end
	ev, err := db.Event(ctx, c.EventID)
	if err != nil || ev.Text == store.Redacted || start < 0 || end > len(ev.Text) || start >= end ||
		!utf8.ValidString(ev.Text[start:end]) {
		return ""
	}
	return ev.Text[start:end]
}

// Close closes task x by hand as done or dropped. It reports false,
// changing nothing, when x was closed already; ErrNotTask for a memory of
// another type.
func Close(ctx context.Context, db *store.DB, x store.Entry, how string, now time.Time) (bool, error) {
	if x.Type != "task" {
		return false, fmt.Errorf("%s is a %s: %w", x.CID, x.Type, ErrNotTask)
	}
	if how != Done && how != Dropped {
		return false, fmt.Errorf("close %s: how %q: want %s or %s", x.CID, how, Done, Dropped)
	}
	var added bool
	err := db.Update(ctx, func(tx *store.Tx) error {
		cs, err := closures(ctx, tx, x.Project)
		if err != nil {
			return err
		}
		if x, err = tx.EntryByID(ctx, x.ID); err != nil { // its quotes as now stored, for Holds
			return err
		}
		if cs[x.CID].Holds(x) {
			return nil
		}
		ev, err := event(x.Project, "", closed{CID: x.CID, How: how, ByHand: true}, store.FormatTime(now), now)
		if err != nil {
			return err
		}
		res, err := tx.Append(ctx, ev)
		added = len(res.IDs) > 0
		return err
	})
	if err != nil {
		return false, fmt.Errorf("close %s: %w", x.CID, err)
	}
	return added, nil
}

// event is the task_closed event of v, keyed by the memory's id and by
// what closed it (the closing message's key, or the time of a close by
// hand), so that processing a session again closes nothing twice while a
// task reopened later can be closed again.
func event(project, session string, v closed, by string, now time.Time) (store.Event, error) {
	payload, err := json.Marshal(v)
	if err != nil {
		return store.Event{}, err
	}
	return store.Event{Time: now, Type: store.TypeTaskClosed, Project: project, SessionID: session, Payload: payload,
		DedupeKey: store.Key(store.KeyKind(store.TypeTaskClosed), v.CID, by)}, nil
}

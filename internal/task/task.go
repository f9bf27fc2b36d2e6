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
	ByHand    bool      // closed by the user (CLI, dashboard, MCP is read-only), not by evidence
	Time      time.Time // when it was closed
	SessionID string    // the session whose messages closed it; "" by hand
	EventID   int64     // the message that closed it; 0 by hand or once forgotten
	Quote     string    // the words of that message that closed it; "" by hand or once forgotten

	event      string // the message's dedupe key
	start, end int    // Quote's span in the message's text
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
		if c != nil && !all {
			continue
		}
		out = append(out, Task{Entry: e, Closed: c})
	}
	return out, nil
}

// Closures returns how each closed task of project was closed, by
// citation id, without the closing words: for a reader that only needs to
// know a task is no longer open (recall marks a closed task it shows).
func Closures(ctx context.Context, db *store.DB, project string) (map[string]*Closure, error) {
	return closures(ctx, db.Read(), project)
}

// closures reads the project's task_closed events; the first one of a
// memory holds (their dedupe key is the memory's id, so there is one).
func closures(ctx context.Context, st *store.Tx, project string) (map[string]*Closure, error) {
	evs, err := st.Events(ctx, store.EventFilter{Project: project, Types: []string{store.TypeTaskClosed}})
	if err != nil {
		return nil, fmt.Errorf("task closures: %w", err)
	}
	out := map[string]*Closure{}
	for _, e := range evs {
		var v closed
		if json.Unmarshal(e.Payload, &v) != nil || v.CID == "" || out[v.CID] != nil {
			continue
		}
		out[v.CID] = &Closure{How: v.How, ByHand: v.ByHand, Time: e.Time, SessionID: e.SessionID,
			event: v.Event, start: v.Start, end: v.End}
	}
	return out, nil
}

// quoteOf reads the closing words from the message c points to; "" when
// the message was forgotten or no longer holds the span.
func quoteOf(ctx context.Context, db *store.DB, c *Closure) string {
	start, end := c.start, c.end
	ev, err := db.Event(ctx, c.EventID)
	if err != nil || ev.Text == store.Redacted || start < 0 || end > len(ev.Text) || start >= end {
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
		ev, err := event(x.Project, "", closed{CID: x.CID, How: how, ByHand: true}, now)
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

// event is the task_closed event of v. Its dedupe key is the memory's id
// alone, so a task is closed once, by whichever came first.
func event(project, session string, v closed, now time.Time) (store.Event, error) {
	payload, err := json.Marshal(v)
	if err != nil {
		return store.Event{}, err
	}
	return store.Event{Time: now, Type: store.TypeTaskClosed, Project: project, SessionID: session, Payload: payload,
		DedupeKey: store.Key(store.KeyKind(store.TypeTaskClosed), v.CID)}, nil
}

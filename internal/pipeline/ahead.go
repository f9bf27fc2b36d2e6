package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Ahead is the offline extraction of a session's messages started on a
// goroutine before they are stored: SessionEnd stores a transcript's
// messages and then extracts them, each about as costly as the other on a
// fresh session, and the extractor needs only their texts, which are known
// before the store has written them. Plan takes its entries when the
// messages it reads back from the store are the same (role and text, in
// order), and extracts them itself when they are not (a message the store
// found stored already, one forgotten meanwhile): extraction is a function
// of the messages alone, so the entries are the same either way.
//
// The goroutine is the caller's to join: Wait returns when it has ended.
// A nil *Ahead has nothing to offer.
type Ahead struct {
	msgs    []extract.Message
	done    chan struct{}
	entries []extract.Entry
	ok      bool // false after a panic
}

// ExtractAhead starts extracting the messages among evs, the session's
// events in the order the store will hold them, with the offline
// extractor. A panic in the goroutine is logged to log (nil discards it)
// as the hook logs its own, and Plan then extracts the messages itself.
func ExtractAhead(evs []store.Event, log *slog.Logger) *Ahead {
	return extractAhead(evs, log, func(msgs []extract.Message) []extract.Entry {
		return extract.OfflineWith(msgs, &claim.Cache{})
	})
}

// extractAhead is ExtractAhead extracting with run.
func extractAhead(evs []store.Event, log *slog.Logger, run func([]extract.Message) []extract.Entry) *Ahead {
	a := &Ahead{msgs: messages(evs), done: make(chan struct{})}
	go func() {
		defer close(a.done)
		defer func() {
			if r := recover(); r != nil && log != nil {
				log.Error("panic", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			}
		}()
		a.entries = run(a.msgs)
		a.ok = true
	}()
	return a
}

// Wait returns when the extraction has ended.
func (a *Ahead) Wait() {
	if a != nil {
		<-a.done
	}
}

// take returns the entries extracted ahead when they are of msgs, waiting
// for them until ctx is done. It reports false, and ctx's error if that ended
// the wait, when the caller has to extract msgs itself.
func (a *Ahead) take(ctx context.Context, msgs []extract.Message) ([]extract.Entry, bool, error) {
	if a == nil || len(a.msgs) != len(msgs) {
		return nil, false, nil
	}
	for i, m := range msgs {
		if a.msgs[i] != m {
			return nil, false, nil
		}
	}
	select {
	case <-a.done:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	if !a.ok {
		return nil, false, nil
	}
	// The entries are handed over once: Plan's callers may change them.
	entries := a.entries
	a.entries, a.ok = nil, false
	return entries, true, nil
}

// messages are the extractor's messages of a session's events: prompts,
// responses and tool observations, in order, indexed by their position
// among them.
func messages(evs []store.Event) []extract.Message {
	msgs := make([]extract.Message, 0, len(evs))
	for _, e := range evs {
		switch e.Type {
		case store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation:
			msgs = append(msgs, extract.Message{Index: len(msgs), Role: role(e.Type), Text: e.Text})
		}
	}
	return msgs
}

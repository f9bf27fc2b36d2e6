package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestForgetRuleRefusesSaidFields checks that what is said outside an
// event's text or an entry's title and body (a session's summary, a
// memory's questions, a conflict's reason) is not written back either.
func TestForgetRuleRefusesSaidFields(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	if err := db.Update(ctx, func(tx *Tx) error {
		return tx.TouchSession(ctx, Session{ID: "s", Project: "/p", Cwd: "/p", StartedAt: at})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{Phrase: "quillfeather42"}); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx *Tx) error {
		return tx.SetSummary(ctx, "s", "Where is quillfeather42 kept?")
	}); err != nil {
		t.Fatal(err)
	}
	if s, err := db.Read().Session(ctx, "s"); err != nil || s.Summary != "" {
		t.Errorf("summary %q, %v: want none", s.Summary, err)
	}
	if err := db.Update(ctx, func(tx *Tx) error {
		return tx.SetSummary(ctx, "s", "Where is the deploy key kept?")
	}); err != nil {
		t.Fatal(err)
	}
	if s, _ := db.Read().Session(ctx, "s"); s.Summary != "Where is the deploy key kept?" {
		t.Errorf("summary %q: a summary no rule covers is not set", s.Summary)
	}

	_, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s", Type: "fact", Title: "The deploy key is in vault",
		Body: "The deploy key is in vault", ClaimKey: "deploy key", Stage: StageCandidate, Questions: []string{"Is quillfeather42 the deploy key?"}})
	if !errors.Is(err, ErrForgotten) {
		t.Errorf("an entry whose question holds forgotten words: %v, want ErrForgotten", err)
	}

	var ids [2]int64
	for i, title := range []string{"Deploy with make ship", "Deploy with make release"} {
		e, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s", Type: "decision", Title: title, Body: title, ClaimKey: title, Stage: StageCandidate})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = e.ID
	}
	added, err := db.AddConflict(ctx, Conflict{Older: ids[0], Newer: ids[1], Kind: "contradicts", Reason: "quillfeather42 says otherwise", Detected: at},
		Event{Time: at, Type: TypeConflict, SessionID: "s", Project: "/p", DedupeKey: "conflict:test", Payload: []byte(`{"reason":"quillfeather42 says otherwise"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if cs, _ := db.Conflicts(ctx, nil, 0); added || len(cs) != 0 {
		t.Errorf("a conflict whose reason holds forgotten words was recorded: %+v", cs)
	}
}

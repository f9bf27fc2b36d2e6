package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestForgetNeverFreesAnIDForReuse: SQLite gives a new row the largest id plus
// one, so deleting the newest events used to hand their ids to the next
// events stored, and evidence that still cited a forgotten message then
// pointed at whatever came next.
func TestForgetNeverFreesAnIDForReuse(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := db.Append(ctx,
		Event{Type: TypeUserPrompt, SessionID: "old", Project: "/p", Text: "keep me", DedupeKey: "k1"},
		Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", Text: "forget me", DedupeKey: "k2"})
	if err != nil {
		t.Fatal(err)
	}
	forgotten := r.IDs[1]
	read, err := db.Event(ctx, forgotten)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{SessionID: "s"}); err != nil {
		t.Fatal(err)
	}
	if e, err := db.Event(ctx, forgotten); !errors.Is(err, ErrNotFound) {
		t.Errorf("after forget, id %d holds a %s event (%v)", forgotten, e.Type, err)
	}
	r, err = db.Append(ctx, Event{Type: TypeUserPrompt, SessionID: "new", Project: "/p", Text: "later", DedupeKey: "k3"})
	if err != nil {
		t.Fatal(err)
	}
	if r.IDs[0] <= forgotten {
		t.Errorf("new event got id %d, not above the forgotten %d", r.IDs[0], forgotten)
	}
	// A writer that read the forgotten event before finds it changed.
	tx, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if err := tx.Unchanged(ctx, []Event{read}); !errors.Is(err, ErrChanged) {
		t.Errorf("Unchanged(forgotten event) = %v, want ErrChanged", err)
	}
	kept, _ := db.Event(ctx, 1)
	if err := tx.Unchanged(ctx, []Event{kept}); err != nil {
		t.Errorf("Unchanged(kept event) = %v", err)
	}
}

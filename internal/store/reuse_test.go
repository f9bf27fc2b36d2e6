package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestForgetNeverFreesAnIDForReuse: SQLite gives a new row the largest id plus
// one, so deleting the newest events used to hand their ids to the next
// events stored, and evidence that still cited a forgotten message then
// pointed at whatever came next.
func TestForgetNeverFreesAnIDForReuse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := appendEvents(ctx, db,
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
	r, err = appendEvents(ctx, db, Event{Type: TypeUserPrompt, SessionID: "new", Project: "/p", Text: "later", DedupeKey: "k3"})
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

// TestForgetBeforeTakesFutureDates: events dated in the future (a clock that
// was ahead) used to survive every forget --before. New ones are stored at
// now; ones stored so by an older build count as before any date.
func TestForgetBeforeTakesFutureDates(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	future := now.AddDate(4, 0, 0)
	r, err := appendEvents(ctx, db, Event{Time: future, Type: TypeUserPrompt, SessionID: "s", Project: "/p", Text: "ahead of its time", DedupeKey: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := db.Event(ctx, r.IDs[0]); !e.Time.Equal(now) {
		t.Errorf("a future time was stored as %v, want now (%v)", e.Time, now)
	}
	// A row an older build stored with its future time.
	if _, err := db.SQL().ExecContext(ctx, `INSERT INTO events(ts, type, session_id, project, text, dedupe_key, checksum)
		VALUES (?, ?, 's', '/p', 'legacy future row', 'k2', 'x')`, FormatTime(future), TypeUserPrompt); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `INSERT INTO events_fts(rowid, text) SELECT id, text FROM events WHERE dedupe_key = 'k2'`); err != nil {
		t.Fatal(err)
	}
	p, err := db.Forget(ctx, ForgetSelector{Before: now.Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Delete) != 1 {
		t.Errorf("forget --before an hour ago deleted %d events, want the legacy future row", len(p.Delete))
	}
	if _, err := db.Forget(ctx, ForgetSelector{Before: now.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.CountEvents(ctx, "/p"); n != 0 {
		var left []string
		evs, _ := db.Read().Events(ctx, EventFilter{})
		for _, e := range evs {
			left = append(left, e.Type+" "+e.Text)
		}
		t.Errorf("after forget --before now, %d events left in /p: %q", n, left)
	}
}

package store

import (
	"context"
	"testing"
)

// TestRetireEntries: retiring entries deletes them with their conflicts and
// sets active again the entries those conflicts had contested or
// superseded, unless they are among those kept as the user left them, or
// still contested by an entry that stays.
func TestRetireEntries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	got, _, err := putEntries(ctx, db, []EntryWrite{
		{Entry: entry("s1", "a", "Use HS256", "HS256", StageVerified)},
		{Entry: entry("s1", "b", "Use RS256", "RS256", StageVerified)},
		{Entry: entry("s1", "c", "Use EdDSA", "EdDSA", StageVerified)},
		{Entry: entry("s1", "d", "Use ES256", "ES256", StageVerified)},
		{Entry: entry("s1", "e", "Use PS256", "PS256", StageVerified)},
		{Entry: entry("s1", "f", "Use none", "none", StageVerified)},
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c, d, e, f := got[0].ID, got[1].ID, got[2].ID, got[3].ID, got[4].ID, got[5].ID
	if _, err := addConflicts(ctx, db, []ConflictWrite{
		{Conflict{Older: a, Newer: b, Kind: "supersedes"}, Event{Type: TypeConflict, DedupeKey: "c:ab"}},
		{Conflict{Older: c, Newer: b, Kind: "contradicts"}, Event{Type: TypeConflict, DedupeKey: "c:cb"}},
		{Conflict{Older: d, Newer: b, Kind: "contradicts"}, Event{Type: TypeConflict, DedupeKey: "c:db"}},
		{Conflict{Older: d, Newer: e, Kind: "contradicts"}, Event{Type: TypeConflict, DedupeKey: "c:de"}},
		{Conflict{Older: f, Newer: b, Kind: "supersedes"}, Event{Type: TypeConflict, DedupeKey: "c:fb"}},
	}); err != nil {
		t.Fatal(err)
	}
	var reopened int
	if err := db.Update(ctx, func(tx *Tx) error {
		reopened, err = tx.RetireEntries(ctx, []int64{b}, []int64{f})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if reopened != 2 {
		t.Errorf("reopened %d, want 2 (a and c)", reopened)
	}
	if _, err := db.Read().EntryByID(ctx, b); err == nil {
		t.Error("the retired entry is still stored")
	}
	want := map[int64]string{a: StatusActive, c: StatusActive, d: StatusContested, e: StatusContested, f: StatusSuperseded}
	for id, status := range want {
		x, err := db.Read().EntryByID(ctx, id)
		if err != nil || x.Status != status {
			t.Errorf("entry %s: status %q, want %q (%v)", x.Title, x.Status, status, err)
		}
	}
	if cs, err := db.Conflicts(ctx, []int64{a, c, d}, 0); err != nil || len(cs) != 1 || cs[0].Newer != e {
		t.Errorf("conflicts left: %+v, %v; want d's with e alone", cs, err)
	}
}

package correct

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

var now = time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)

func open(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Now = func() time.Time { return now }
	t.Cleanup(func() { db.Close() })
	return db
}

func put(t *testing.T, db *store.DB, key, title string) store.Entry {
	t.Helper()
	x, _, err := db.PutEntry(context.Background(), store.Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: title,
		ClaimKey: key, Stage: store.StageVerified, Created: now,
		Evidence: []store.Evidence{{SessionID: "s1", Quote: title, Method: "exact", Confidence: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// contested records a contradiction between two fresh entries and returns it with them.
func contested(t *testing.T, db *store.DB) (store.Conflict, store.Entry, store.Entry) {
	t.Helper()
	ctx := context.Background()
	a, b := put(t, db, "db-a", "We use Postgres"), put(t, db, "db-b", "We use MySQL")
	if _, err := db.AddConflict(ctx, store.Conflict{Older: a.ID, Newer: b.ID, Kind: "contradicts", Reason: "database"},
		store.Event{Type: store.TypeConflict, Project: "/p", DedupeKey: "c:" + a.CID + b.CID, Time: now}); err != nil {
		t.Fatal(err)
	}
	cs, err := db.OpenConflicts(ctx, "/p", 10)
	if err != nil || len(cs) != 1 {
		t.Fatalf("open conflicts %v, %v", cs, err)
	}
	return cs[0], a, b
}

func entry(t *testing.T, db *store.DB, id int64) store.Entry {
	t.Helper()
	x, err := db.Read().EntryByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// Each resolution of a contradiction closes it and leaves the two sides
// as the user chose.
func TestResolve(t *testing.T) {
	for _, tt := range []struct {
		choice                   string
		olderStatus, newerStatus string
		olderStage, newerStage   string
		supersededBy             string // "older", "newer" or ""
	}{
		{"supersede-older", store.StatusSuperseded, store.StatusActive, store.StageVerified, store.StageVerified, "newer"},
		{"supersede-newer", store.StatusActive, store.StatusSuperseded, store.StageVerified, store.StageVerified, "older"},
		{"keep-both", store.StatusActive, store.StatusActive, store.StageVerified, store.StageVerified, ""},
		{"reject-older", store.StatusActive, store.StatusActive, store.StageRejected, store.StageVerified, ""},
		{"reject-newer", store.StatusActive, store.StatusActive, store.StageVerified, store.StageRejected, ""},
	} {
		t.Run(tt.choice, func(t *testing.T) {
			ctx := context.Background()
			db := open(t)
			c, a, b := contested(t, db)
			if got := entry(t, db, a.ID).Status; got != store.StatusContested {
				t.Fatalf("before: older is %s", got)
			}
			if err := Resolve(ctx, db, c, a, b, tt.choice, now); err != nil {
				t.Fatal(err)
			}
			x, y := entry(t, db, a.ID), entry(t, db, b.ID)
			if x.Status != tt.olderStatus || y.Status != tt.newerStatus || x.Stage != tt.olderStage || y.Stage != tt.newerStage {
				t.Errorf("older %s/%s, newer %s/%s", x.Stage, x.Status, y.Stage, y.Status)
			}
			switch tt.supersededBy {
			case "newer":
				if x.SupersededBy != b.ID {
					t.Errorf("older superseded by %d, want %d", x.SupersededBy, b.ID)
				}
			case "older":
				if y.SupersededBy != a.ID {
					t.Errorf("newer superseded by %d, want %d", y.SupersededBy, a.ID)
				}
			}
			if open, _ := db.OpenConflicts(ctx, "/p", 10); len(open) != 0 {
				t.Errorf("still open: %+v", open)
			}
			if err := Resolve(ctx, db, c, a, b, tt.choice, now.Add(time.Second)); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("resolving again: %v, want ErrNotFound", err)
			}
		})
	}
	db := open(t)
	c, a, b := contested(t, db)
	if err := Resolve(context.Background(), db, c, a, b, "toss-a-coin", now); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown choice: %v, want ErrInvalid", err)
	}
}

// Stage, Pin, Edit and Supersede report whether they changed anything, and
// refuse what cannot be done.
func TestCorrections(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	a, b := put(t, db, "k1", "Deploys go through ArgoCD"), put(t, db, "k2", "Deploys go through Flux")
	for i, want := range []bool{true, false} {
		if got, err := Stage(ctx, db, entry(t, db, a.ID), store.StageCertified, now.Add(time.Duration(i)*time.Second)); err != nil || got != want {
			t.Errorf("certify #%d = %v, %v; want %v", i, got, err, want)
		}
	}
	if _, err := Stage(ctx, db, a, store.StageVerified, now); !errors.Is(err, ErrInvalid) {
		t.Errorf("stage verified by hand: %v, want ErrInvalid", err)
	}
	for i, want := range []bool{true, false} {
		if got, err := Pin(ctx, db, a, true, now.Add(time.Duration(i)*time.Second)); err != nil || got != want {
			t.Errorf("pin #%d = %v, %v; want %v", i, got, err, want)
		}
	}
	if p, _ := db.Pinned(ctx, "/p"); !p[a.CID] {
		t.Errorf("pinned = %v", p)
	}
	title, typ := "  Deploys   go through Argo CD ", "Fact"
	y, changed, err := Edit(ctx, db, a, Text{Title: &title, Type: &typ}, now)
	if err != nil || !changed || y.Title != "Deploys go through Argo CD" || y.Type != "fact" {
		t.Errorf("edit = %+v, %v, %v", y, changed, err)
	}
	if got := entry(t, db, a.ID); got.Title != y.Title || got.Type != "fact" {
		t.Errorf("stored %q %q", got.Title, got.Type)
	}
	bad := "opinion"
	if _, _, err := Edit(ctx, db, a, Text{Type: &bad}, now); !errors.Is(err, ErrInvalid) {
		t.Errorf("edit to type %q: %v, want ErrInvalid", bad, err)
	}
	if _, _, err := Edit(ctx, db, a, Text{}, now); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty edit: %v, want ErrInvalid", err)
	}
	if _, err := Supersede(ctx, db, a, a, now); !errors.Is(err, ErrInvalid) {
		t.Errorf("self-supersede: %v, want ErrInvalid", err)
	}
	if added, err := Supersede(ctx, db, a, b, now); err != nil || !added {
		t.Errorf("supersede = %v, %v", added, err)
	}
	if got := entry(t, db, a.ID); got.Status != store.StatusSuperseded || got.SupersededBy != b.ID {
		t.Errorf("after supersede: %s by %d", got.Status, got.SupersededBy)
	}
}

// TestEditFiltersText checks that an edit's title and body pass the
// privacy filter as every captured text does: the CLI's edit and the
// dashboard's form store what the user typed.
func TestEditFiltersText(t *testing.T) {
	t.Parallel()
	db := open(t)
	x := put(t, db, "deploy", "Deploys go through the release pipeline")
	const token, private = "ghp_1234567890abcdefghijABCDEFGHIJ123456", "my home is 12 Elm Street"
	title, body := "Deploys push with the token "+token, "The pager kit is kept <private>"+private+"</private> for on call."
	if _, _, err := Edit(context.Background(), db, x, Text{Title: &title, Body: &body}, now); err != nil {
		t.Fatal(err)
	}
	db.Close()
	storetest.NotOnDisk(t, db.Path(), token[:20], private)
}

// TestEditFiltersTheOldText: an edit that takes out a secret stored before
// the filter knew its shape does not copy it into the edit's record.
func TestEditFiltersTheOldText(t *testing.T) {
	t.Parallel()
	db := open(t)
	const cookie = "8f3k2j4h5g6f7d8s9a0q"
	x := put(t, db, "login", "Log in to staging with Cookie: sid="+cookie)
	title := "Log in to staging with the team's session"
	if _, _, err := Edit(context.Background(), db, x, Text{Title: &title}, now); err != nil {
		t.Fatal(err)
	}
	evs, err := db.Read().Events(context.Background(), store.EventFilter{Types: []string{store.TypeEdited}})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 {
		t.Fatalf("%d edit records", len(evs))
	}
	if p := string(evs[0].Payload); strings.Contains(p, cookie) || !strings.Contains(p, "staging") {
		t.Errorf("the edit's record: %s", p)
	}
}

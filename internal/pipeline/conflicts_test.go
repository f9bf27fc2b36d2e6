package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestConflictsByRole: a later session's statement is linked to an earlier
// one deciding the same role, whatever subject label extraction gave either:
// an explicit change supersedes, compatible statements are not linked.
func TestConflictsByRole(t *testing.T) {
	tests := []struct {
		name, first, second string
		kind                string // "" for no conflict
	}{
		{"switch", "We decided to use memcached for the session cache.",
			"We decided to move the session cache to Redis instead of memcached.", "supersedes"},
		{"no longer", "For the API docs we'll use Sphinx.",
			"We decided we no longer use Sphinx; the API docs are built with MkDocs.", "supersedes"},
		{"version", "We decided to pin Python 3.11 for the workers.",
			"We decided to upgrade the workers to Python 3.12.", "supersedes"},
		{"korean", "배포는 Heroku로 하기로 했어요.", "Heroku 대신 이제 Render.com으로 배포합니다.", "supersedes"},
		{"korean no longer", "메시지 큐는 RabbitMQ를 씁니다.", "RabbitMQ는 더 이상 안 쓰고 NATS로 보냅니다.", "supersedes"},
		{"same value", "We decided to use Postgres 16 for billing.", "We decided that billing on Postgres 16 uses pgbouncer.", ""},
		{"two components", "We decided the iOS app uses CocoaPods.", "We decided the Android app uses Gradle for dependencies.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := storetest.Open(t)
			ctx := context.Background()
			ingest(t, db, "s1", writeTranscript(t, "s1", tt.first, "Okay."))
			ingest(t, db, "s2", writeTranscript(t, "s2", tt.second, "Okay."))
			process(t, db, "s1")
			process(t, db, "s2")
			es, err := db.Read().Entries(ctx, store.EntryFilter{Project: "/p", Evidence: true})
			if err != nil {
				t.Fatal(err)
			}
			cs, err := db.Conflicts(ctx, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tt.kind == "" {
				if len(cs) != 0 {
					t.Fatalf("conflicts %+v, want none\nentries %s", cs, titles(es))
				}
				return
			}
			if len(cs) != 1 || cs[0].Kind != tt.kind {
				t.Fatalf("conflicts %+v, want one %s\nentries %s", cs, tt.kind, titles(es))
			}
			older, _ := db.Read().EntryByID(ctx, cs[0].Older)
			newer, _ := db.Read().EntryByID(ctx, cs[0].Newer)
			if older.SessionID != "s1" || newer.SessionID != "s2" {
				t.Fatalf("older from %s, newer from %s", older.SessionID, newer.SessionID)
			}
			if tt.kind == "supersedes" {
				if older.Status != store.StatusSuperseded {
					t.Fatalf("older is %s, want superseded", older.Status)
				}
				// The next session's brief shows the newer, not the older.
				brief, err := recall.Brief(ctx, db, config.Default("").Recall, "/p", "s3")
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(brief, older.CID) || !strings.Contains(brief, newer.CID) {
					t.Fatalf("brief shows %s (superseded) or lacks %s:\n%s", older.CID, newer.CID, brief)
				}
			}
			evs, _ := db.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeConflict}})
			if len(evs) != 1 || !strings.Contains(string(evs[0].Payload), `"role"`) {
				t.Fatalf("conflict events %+v", evs)
			}
		})
	}
}

// TestConflictsFindEntriesStoredWithoutRoles: an entry stored before the role
// index (or by a path that does not parse it) gets its roles at the next
// session end, so a later change still finds it.
func TestConflictsFindEntriesStoredWithoutRoles(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	_, _, err := db.PutEntry(ctx, store.Entry{Project: "/p", SessionID: "s0", Type: "decision",
		Title: "Use yarn for installs", ClaimKey: "yarn|installs", Stage: store.StageVerified,
		Created: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	ingest(t, db, "s1", writeTranscript(t, "s1", "We decided to switch from yarn to pnpm for installs.", "Okay."))
	process(t, db, "s1")
	cs, _ := db.Conflicts(ctx, nil, 0)
	if len(cs) != 1 || cs[0].Kind != "supersedes" {
		es, _ := db.Read().Entries(ctx, store.EntryFilter{Project: "/p"})
		t.Fatalf("conflicts %+v, want one supersedes\nentries %s", cs, titles(es))
	}
	unparsed, _ := db.Read().Entries(ctx, store.EntryFilter{Project: "/p", RolesUnparsed: true})
	if len(unparsed) != 0 {
		t.Fatalf("%d entries still without roles", len(unparsed))
	}
}

func titles(es []store.Entry) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString("\n  " + e.SessionID + " " + e.Type + " [" + e.Subject + "] " + e.Title)
	}
	return b.String()
}

// TestRoleCache checks the cache that spares a rival lookup of a role every
// entry gives the same value: none while the role has one value, the rival
// once another entry gives it another, read or written.
func TestRoleCache(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	tx, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	put := func(title string, rvs ...store.RoleValue) {
		t.Helper()
		stored, _, err := tx.PutEntries(ctx, []store.EntryWrite{{Entry: store.Entry{Project: "/p", SessionID: "s", Type: "decision", Title: title,
			ClaimKey: title, Stage: store.StageVerified}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := tx.SetEntryRoles(ctx, stored[0].ID, "/p", rvs); err != nil {
			t.Fatal(err)
		}
	}
	put("one", store.RoleValue{Role: "auth method", Value: "oauth"})
	put("two", store.RoleValue{Role: "auth method", Value: "oauth"})
	var c roleCache
	ask := []store.RoleValue{{Role: "auth method", Value: "oauth"}}
	if got, err := c.contested(ctx, tx, "/p", ask); err != nil || len(got) != 0 {
		t.Errorf("one value in the store: %v, %v; want no rival to look up", got, err)
	}
	c.add("/p", []store.RoleValue{{Role: "auth method", Value: "saml"}})
	if got, err := c.contested(ctx, tx, "/p", ask); err != nil || len(got) != 1 {
		t.Errorf("after another value was written: %v, %v; want the rival", got, err)
	}
	put("three", store.RoleValue{Role: "linter", Value: "biome"}, store.RoleValue{Role: "linter", Value: "eslint"})
	if got, err := c.contested(ctx, tx, "/p", []store.RoleValue{{Role: "linter", Value: "biome"}}); err != nil || len(got) != 1 {
		t.Errorf("two values read from the store: %v, %v; want the rival", got, err)
	}
}

// BenchmarkDetectConflicts: a session's 20 lessons naming a contested role
// against 600 earlier decisions giving it one of two values, each lookup
// reading the newest 30 of the other value. "fresh" is a Processor per
// session, as a hook builds; "import" one Processor for every session, as
// an import keeps, whose rival entries are read once.
func BenchmarkDetectConflicts(b *testing.B) {
	ctx := context.Background()
	db := storetest.Open(b)
	decision := func(i int) store.EntryWrite {
		v := []string{"memcached", "Redis"}[i%2]
		e := store.Entry{Project: "/p", SessionID: fmt.Sprint("old", i), Type: "decision", Stage: store.StageVerified,
			Title: "We decided to use " + v + " for the session cache.", ClaimKey: fmt.Sprint("session cache|", i),
			Created: time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC)}
		return store.EntryWrite{Entry: e}
	}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		var ws []store.EntryWrite
		for i := range 600 {
			ws = append(ws, decision(i))
		}
		stored, _, err := tx.PutEntries(ctx, ws)
		if err != nil {
			return err
		}
		for _, e := range stored {
			if err := tx.SetEntryRoles(ctx, e.ID, "/p", decisions(claim.Parse(entryText(e)))); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	for _, kept := range []bool{false, true} {
		b.Run(map[bool]string{false: "fresh", true: "import"}[kept], func(b *testing.B) {
			b.ReportAllocs()
			p := &Processor{}
			n := 0
			for b.Loop() {
				if !kept {
					p = &Processor{}
				}
				if err := db.Update(ctx, func(tx *store.Tx) error {
					var ws []store.EntryWrite
					sid := fmt.Sprint("new", n)
					for range 20 {
						// A lesson is never contested, so the store stays
						// the same but for the lessons.
						ws = append(ws, store.EntryWrite{Entry: store.Entry{Project: "/p", SessionID: sid, Type: "lesson",
							Stage: store.StageVerified, Title: "We use memcached for the session cache.",
							ClaimKey: fmt.Sprint("lesson|", n), Created: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)}})
						n++
					}
					stored, _, err := tx.PutEntries(ctx, ws)
					if err != nil {
						return err
					}
					_, err = p.detectConflicts(ctx, tx, "/p", stored)
					return err
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package team

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/team/pgtest"
)

// TestTeamScale pushes and pulls CML_TEAM_BENCH memories (100,000 is the
// issue's figure) through a real server and reports the rates. It runs only
// when CML_TEAM_BENCH is set: scripts/bench.sh territory, not the suite's.
func TestTeamScale(t *testing.T) {
	var n int
	if _, err := fmt.Sscan(os.Getenv("CML_TEAM_BENCH"), &n); err != nil || n <= 0 {
		t.Skip("set CML_TEAM_BENCH=100000 to measure push and pull")
	}
	ctx := context.Background()
	srv := pgtest.Start(t)
	t.Setenv("PGPASSFILE", srv.PassFile)
	srv.AddRole(t, "alice")
	srv.AddRole(t, "bob")
	admin, err := Connect(ctx, srv.URL(srv.Superuser))
	if err != nil {
		t.Fatal(err)
	}
	if err := Init(ctx, admin, "devs"); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"alice", "bob"} {
		if err := AddMember(ctx, admin, "devs", m); err != nil {
			t.Fatal(err)
		}
	}
	admin.Close(ctx)
	open := func(dir string) *store.DB {
		db, err := store.Open(ctx, filepath.Join(dir, "memory.db"), store.Options{Bulk: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	aliceDir, bobDir := t.TempDir(), t.TempDir()
	alice, bob := open(aliceDir), open(bobDir)
	for start := 0; start < n; start += 5000 {
		err := alice.Update(ctx, func(tx *store.Tx) error {
			var ws []store.EntryWrite
			for i := start; i < min(start+5000, n); i++ {
				title := fmt.Sprintf("Service %d listens on port %d and logs to bucket b%d", i, 10000+i%50000, i)
				ws = append(ws, store.EntryWrite{Entry: store.Entry{Project: "/a/shop", SessionID: "s", Type: "fact", Title: title,
					ClaimKey: title, Stage: store.StageVerified, Evidence: []store.Evidence{{SessionID: "s", Quote: title, Method: "exact", Confidence: 1}}}})
			}
			_, _, err := tx.PutEntries(ctx, ws)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ac := Config{URL: srv.URL("alice"), Team: "devs", Projects: map[string]string{"/a/shop": "github.com/acme/shop"}}
	bc := Config{URL: srv.URL("bob"), Team: "devs", Projects: map[string]string{"/b/shop": "github.com/acme/shop"}}
	start := time.Now()
	res, err := Sync(ctx, alice, aliceDir, ac, time.Now())
	if err != nil || res.Pushed != n {
		t.Fatalf("push: %+v, %v", res, err)
	}
	push := time.Since(start)
	start = time.Now()
	res, err = Sync(ctx, bob, bobDir, bc, time.Now())
	if err != nil || res.Pulled != n {
		t.Fatalf("pull: %+v, %v", res, err)
	}
	pull := time.Since(start)
	t.Logf("%d memories: push (with alice's pull of her own) %v, %.0f/s; pull %v, %.0f/s",
		n, push.Round(time.Millisecond), float64(n)/push.Seconds(), pull.Round(time.Millisecond), float64(n)/pull.Seconds())
}

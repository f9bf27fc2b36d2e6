package dashboard

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/team"
)

// TestTeamPage: the team page shows the team, the server without its
// password, the pending count, the last error, and who shared what; a
// machine in no team is told so. It reads only local state.
func TestTeamPage(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	s, err := New(db, testAddr, Options{Now: func() time.Time { return now }, DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, s: s, db: db}
	if code, body := f.get("/team"); code != http.StatusOK || !strings.Contains(body, "in no team") {
		t.Fatalf("GET /team before joining = %d:\n%s", code, body)
	}
	if err := team.SaveConfig(dir, team.Config{URL: "postgres://alice:s3cret@db.example/team", Team: "devs",
		Projects: map[string]string{"/home/alice/shop": "github.com/acme/shop"}}); err != nil {
		t.Fatal(err)
	}
	err = db.Update(ctx, func(tx *store.Tx) error {
		for i, a := range []string{"bob", "bob", "carol"} {
			p := store.Pulled{SharedID: "x" + string(rune('0'+i)), Project: "/home/alice/shop", Author: a, Type: "fact",
				Title: "Shared by " + a + " number " + string(rune('0'+i)), Stage: store.StageVerified, Created: "2026-11-20T10:00:00.000000Z"}
			if err := tx.PutPulled(ctx, p); err != nil {
				return err
			}
		}
		return tx.SetTeamState(ctx, map[string]string{"last_error": "connect to postgres://alice@db.example/team: refused"})
	})
	if err != nil {
		t.Fatal(err)
	}
	_, body := f.get("/team")
	for _, want := range []string{"devs", "postgres://alice@db.example/team", "0 changes waiting", "refused",
		"github.com/acme/shop", "<td>bob</td><td>2</td>", "<td>carol</td><td>1</td>", "Shared by carol number 2", "shared by bob"} {
		if !strings.Contains(body, want) {
			t.Errorf("the team page lacks %q", want)
		}
	}
	if strings.Contains(body, "s3cret") {
		t.Error("the team page shows the password")
	}
}

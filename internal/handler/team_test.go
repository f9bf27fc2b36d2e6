package handler

import (
	"context"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/team"
	"github.com/claude-memory-layer/claude-memory-layer/internal/team/pgtest"
)

// TestSessionEndStartsTeamSync: a session small enough for the SessionEnd
// hook to process itself still reaches the team: the hook (which never
// touches the network) starts the CLI's team sync in the background, and
// the session's verified memory lands on the server as alice's.
func TestSessionEndStartsTeamSync(t *testing.T) {
	srv := pgtest.Start(t)
	srv.AddRole(t, "alice")
	t.Setenv("PGPASSFILE", srv.PassFile)
	ctx := context.Background()
	admin, err := team.Connect(ctx, srv.URL(srv.Superuser))
	if err != nil {
		t.Fatal(err)
	}
	if err := team.Init(ctx, admin, "devs"); err != nil {
		t.Fatal(err)
	}
	if err := team.AddMember(ctx, admin, "devs", "alice"); err != nil {
		t.Fatal(err)
	}
	admin.Close(ctx)
	data := t.TempDir()
	if err := team.SaveConfig(data, team.Config{URL: srv.URL("alice"), Team: "devs", Projects: map[string]string{"/p": "name:p"}}); err != nil {
		t.Fatal(err)
	}
	tp := transcript(t)
	validReply(t, runBinary(t, "session-end", data, hookInput(tp)("SessionEnd", `,"reason":"logout"`), "PGPASSFILE="+srv.PassFile), "SessionEnd")
	waitFor(t, data, "the team sync SessionEnd started", func() bool {
		out, err := srv.TrySQL(srv.Superuser, `SELECT count(*) FROM cml.memories WHERE author = 'alice' AND title ILIKE '%redis%'`)
		return err == nil && out == "1"
	})
}

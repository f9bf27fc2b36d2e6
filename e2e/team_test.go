package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/team/pgtest"
)

// TestRealClientTeamMemory: two machines (two data directories, two
// checkouts at different paths) share a team on a real PostgreSQL server.
// A decision alice states in a real Claude Code session reaches the server
// by her sync, and bob's real session is answered from it, with her name on
// it.
func TestRealClientTeamMemory(t *testing.T) {
	srv := pgtest.Start(t)
	t.Setenv("PGPASSFILE", srv.PassFile) // the CLI, as pgx, reads the password there
	t.Setenv("PGPASSWORD", "")
	srv.AddRole(t, "alice")
	srv.AddRole(t, "bob")
	alice, bob := newWorld(t), newWorld(t)
	alice.cli("team", "init", "--url", srv.URL(srv.Superuser), "--team", "devs")
	for _, r := range []string{"alice", "bob"} {
		alice.cli("team", "add-member", "--url", srv.URL(srv.Superuser), "--team", "devs", r)
	}
	for _, w := range []struct {
		w    *world
		role string
	}{{alice, "alice"}, {bob, "bob"}} {
		project := filepath.Join(w.w.work, "project")
		if err := os.MkdirAll(project, 0o755); err != nil {
			t.Fatal(err)
		}
		w.w.cli("team", "join", "--url", srv.URL(w.role), "--team", "devs", "--project", project, "--name", "acme-shop")
	}

	alice.session("s1", nil, "For the orders service we decided to keep carts in Valkey with a 90 minute expiry.")
	// SessionEnd's worker extracts the memory (and syncs); sync until it is on the server.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		alice.cli("team", "sync")
		if srv.SQL(t, srv.Superuser, `SELECT count(*) FROM cml.memories WHERE title ILIKE '%valkey%' OR array_to_string(quotes, ' ') ILIKE '%valkey%'`) != "0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("alice's memory never reached the server; her entries:\n%s", alice.cli("entries", "--all-projects"))
		}
		time.Sleep(time.Second)
	}

	bob.cli("team", "sync")
	const ask = "How long do carts stay in Valkey in the orders service?"
	s2 := bob.session("s2", nil, ask)
	// The memory reaches bob's session with alice's name on it: in the
	// SessionStart brief (then the prompt is not given it again) or in the
	// prompt's injection.
	req := requestWith(t, requests(t, s2), ask)
	memory := regexp.MustCompile(`\[mem:[0-9a-f]+\] decision, [0-9-]+: shared by alice: [^\n"]*Valkey with a 90 minute`)
	if !memory.MatchString(req) {
		t.Errorf("bob's session was not given alice's memory with her name:\n%.3000s", req)
	}
}

package mcpserver

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func seed(t *testing.T, cfg config.Config, text string) {
	t.Helper()
	db, err := store.Open(context.Background(), cfg.DBPath(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(context.Background(), func(tx *store.Tx) error {
		_, err := tx.Append(context.Background(), store.Event{Time: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), Type: store.TypeUserPrompt,
			SessionID: "s", Project: "/p", Text: text, DedupeKey: "k:" + text})
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// newStore opens a store in a new data directory; close it before the
// server reads it.
func newStore(t *testing.T) (config.Config, *store.DB) {
	t.Helper()
	cfg := config.Default(t.TempDir())
	db, err := store.Open(context.Background(), cfg.DBPath(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg, db
}

// callText calls a tool and returns its text and whether it is an error.
func callText(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func connect(t *testing.T, s *Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx, "test", st); close(done) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); cancel(); <-done })
	return cs
}

func search(t *testing.T, cs *mcp.ClientSession, q string) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": q}})
	if err != nil || res.IsError {
		t.Fatalf("search %q: %v %+v", q, err, res)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// Calls run at once share the kept read connection; a store removed and
// made again (uninstall --purge, then a new session) is opened again.
func TestReadConnection(t *testing.T) {
	t.Parallel()
	cfg := config.Default(t.TempDir())
	seed(t, cfg, "the ledger uses port 7443")
	cs := connect(t, &Server{Config: cfg, Project: "/p"})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if out := search(t, cs, "ledger port"); !strings.Contains(out, "7443") {
				t.Errorf("search: %q", out)
			}
		})
	}
	wg.Wait()
	for _, f := range []string{"", "-wal", "-shm"} {
		os.Remove(cfg.DBPath() + f)
	}
	if out := search(t, cs, "ledger port"); !strings.Contains(out, "nothing has been captured") {
		t.Errorf("after the store was removed: %q", out)
	}
	seed(t, cfg, "the billing service uses port 9000")
	if out := search(t, cs, "billing port"); !strings.Contains(out, "9000") || strings.Contains(out, "7443") {
		t.Errorf("after the store was made again: %q", out)
	}
}

// get shows a memory quoted in many sessions by its first and latest
// quotes and says how many it left out, not every copy of the same words.
func TestGetManyQuotes(t *testing.T) {
	t.Parallel()
	cfg, db := newStore(t)
	const sessions = 40
	x := storetest.QuotedEntry(t, db, "/p", "The ledger listens on port 7443", sessions, func(i int) string {
		return fmt.Sprintf("the ledger listens on port 7443 (session %d)", i)
	})
	db.Close()
	cs := connect(t, &Server{Config: cfg, Project: "/p"})
	out, isErr := callText(t, cs, "get", map[string]any{"ids": []string{x.CID}})
	if isErr {
		t.Fatalf("get: %s", out)
	}
	for _, want := range []string{"Evidence 1: ", "Evidence 37: ", "Evidence 40: ", fmt.Sprintf("(%d more quotes", sessions-getQuotes)} {
		if !strings.Contains(out, want) {
			t.Errorf("get lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\nEvidence "); n != getQuotes {
		t.Errorf("get shows %d quotes, want %d:\n%s", n, getQuotes, out)
	}
	if out, isErr = callText(t, cs, "timeline", map[string]any{"id": x.CID}); isErr {
		t.Fatalf("timeline: %s", out)
	}
	if n := strings.Count(out, "\n>["); n != timelineQuotes || !strings.Contains(out, fmt.Sprintf("around %d more quotes", sessions-timelineQuotes)) {
		t.Errorf("timeline shows %d quotes, want %d and the rest counted:\n%s", n, timelineQuotes, out)
	}
}

// search's since and until take what models write ("yesterday", "3d"),
// counted from the server's clock, as well as dates.
func TestSearchRelativeSince(t *testing.T) {
	t.Parallel()
	cfg := config.Default(t.TempDir())
	seed(t, cfg, "the ledger uses port 7443") // 2026-11-20 09:00 UTC
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	cs := connect(t, &Server{Config: cfg, Project: "/p", Now: func() time.Time { return now }})
	for _, c := range []struct {
		since string
		found bool
	}{
		{"yesterday", true}, {"2d", true}, {"1 week ago", true}, {"12h", false}, {"today", false}, {"2026-11-20", true}, {"2026-11-21", false},
	} {
		out, isErr := callText(t, cs, "search", map[string]any{"query": "ledger port", "since": c.since})
		if isErr || strings.Contains(out, "7443") != c.found {
			t.Errorf("search since %q: error %v, found %v, want %v: %s", c.since, isErr, !isErr && strings.Contains(out, "7443"), c.found, out)
		}
	}
	if out, isErr := callText(t, cs, "search", map[string]any{"query": "ledger port", "until": "3 days ago"}); isErr || strings.Contains(out, "7443") {
		t.Errorf("search until 3 days ago: error %v: %s", isErr, out)
	}
}

// get answers each id on its own: a malformed or unknown id gets a line
// saying so and the rest are still shown; ids without "mem:" are accepted.
func TestGetPerIDErrors(t *testing.T) {
	t.Parallel()
	cfg, db := newStore(t)
	x := storetest.QuotedEntry(t, db, "/p", "The ledger listens on port 7443", 1, func(int) string {
		return "the ledger listens on port 7443"
	})
	evs, err := db.Read().Events(context.Background(), store.EventFilter{Types: []string{store.TypeUserPrompt}, Limit: 1})
	if err != nil || len(evs) == 0 {
		t.Fatalf("events: %v %v", evs, err)
	}
	msg := strings.TrimPrefix(store.EventCID(evs[0].ID), "mem:")
	db.Close()
	cs := connect(t, &Server{Config: cfg, Project: "/p"})
	bare := strings.TrimPrefix(x.CID, "mem:")
	out, isErr := callText(t, cs, "get", map[string]any{"ids": []string{"mem:zz", bare, "mem:ffff9999", msg}})
	if isErr {
		t.Fatalf("get with one bad id failed whole: %s", out)
	}
	for _, want := range []string{"The ledger listens on port 7443", "mem:zz: not a memory id", "mem:ffff9999: not found", evs[0].Text} {
		if !strings.Contains(out, want) {
			t.Errorf("get lacks %q:\n%s", want, out)
		}
	}
}

// TestSearchShortSession: search takes a session id as every listing
// prints it (its first 8 characters), as the CLI's --session does; before,
// the prefix matched no session and search found nothing. A prefix two of
// the project's sessions share is an error naming them; another project's
// sessions are neither found nor named.
func TestSearchShortSession(t *testing.T) {
	t.Parallel()
	cfg, db := newStore(t)
	ctx := context.Background()
	sessions := map[string]string{
		"3a7f0c11-0000-4000-8000-000000000001": "/p",
		"3a7f0c22-0000-4000-8000-000000000002": "/p",
		"3a7f0c33-0000-4000-8000-000000000003": "/q",
	}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		for id, p := range sessions {
			if err := tx.TouchSession(ctx, store.Session{ID: id, Project: p, StartedAt: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}); err != nil {
				return err
			}
			if _, err := tx.Append(ctx, store.Event{Time: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC), Type: store.TypeUserPrompt,
				SessionID: id, Project: p, Text: "the ledger port in session " + id[:8], DedupeKey: "k:" + id}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cs := connect(t, &Server{Config: cfg, Project: "/p"})
	out, isErr := callText(t, cs, "search", map[string]any{"query": "ledger port", "session": "3a7f0c11"})
	if isErr || !strings.Contains(out, "session 3a7f0c11") || strings.Contains(out, "session 3a7f0c22") {
		t.Errorf("search in session 3a7f0c11: error %v:\n%s", isErr, out)
	}
	out, isErr = callText(t, cs, "search", map[string]any{"query": "ledger port", "session": "3a7f0c"})
	if !isErr || !strings.Contains(out, "3a7f0c11-0000") || !strings.Contains(out, "3a7f0c22-0000") || strings.Contains(out, "3a7f0c33") {
		t.Errorf("search in the ambiguous session 3a7f0c: error %v: %s", isErr, out)
	}
	out, _ = callText(t, cs, "search", map[string]any{"query": "ledger port", "session": "3a7f0c33"})
	if strings.Contains(out, "session 3a7f0c33") {
		t.Errorf("search found another project's session:\n%s", out)
	}
}

// TestGetShowsQuestions: get lists the questions a memory answers.
func TestGetShowsQuestions(t *testing.T) {
	t.Parallel()
	cfg, db := newStore(t)
	x := storetest.QuotedEntry(t, db, "/p", "The ledger listens on port 7443", 1, func(int) string { return "the ledger listens on port 7443" })
	again := x
	again.Questions, again.Evidence = []string{"What port does the ledger listen on?"}, nil
	if _, _, err := db.PutEntry(context.Background(), again); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cs := connect(t, &Server{Config: cfg, Project: "/p"})
	if out, isErr := callText(t, cs, "get", map[string]any{"ids": []string{x.CID}}); isErr || !strings.Contains(out, "Answers: What port does the ledger listen on?") {
		t.Errorf("get does not list the question the memory answers:\n%s", out)
	}
}

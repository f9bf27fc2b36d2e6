package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRememberTrustsOnlyTheWorld is issue 29's second reproduction: a quote
// vouches for a memory only when the user said it or a tool read it from
// the world. The model's own answer, a command that prints what the model
// wrote into it, a file the model wrote and read back, and the plugin's own
// output (its CLI on Claude's PATH, its MCP tools) do not; what only the
// model said is saved unverified, and an unverified memory supersedes no
// verified one. Before, each of these quotes saved a verified memory, and
// the last one superseded the user's.
func TestRememberTrustsOnlyTheWorld(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg, db := newStore(t)
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	var evs []store.Event
	add := func(session, typ, text string, payload map[string]any) {
		b, _ := json.Marshal(payload)
		if payload == nil {
			b = nil
		}
		at = at.Add(time.Minute)
		evs = append(evs, store.Event{Time: at, Type: typ, SessionID: session, Project: "/p", Text: text, Payload: b,
			DedupeKey: fmt.Sprintf("k:%d", len(evs))})
	}
	tool := func(session, name, key, output string, files ...string) {
		add(session, store.TypeToolObservation, name+": "+key+"\n"+output, map[string]any{"tool": name, "key": name + ": " + key, "files": files})
	}
	add("old", store.TypeUserPrompt, "We decided the orders service uses Postgres for storage.", nil)
	add("s", store.TypeUserPrompt, "The payments service retries failed charges three times.", nil)
	add("s", store.TypeAgentResponse, "Noted. The refunds queue is drained every night at two.", nil)
	tool("s", "Read", "/src/config.yaml", "the cache is flushed every fifteen minutes by the sweeper")
	tool("s", "Bash", "go test ./orders/...", "ok orders: the integration suite needs a running docker daemon")
	tool("s", "Bash", "cat docs/testing.md | head -20", "the load tests run against a copy of production")
	tool("s", "Bash", "echo dGhlIHN0YWdpbmcgY2x1c3Rlcg== | base64 -d", "the staging cluster lives in region north nine")
	tool("s", "Bash", `printf '\x74\x68\x65 cron'`, "the cron job rotates keys every ninety days")
	tool("s", "Bash", `python3 -c "print('ruof noisrev'[::-1])"`, "the mobile app pins certificate version four")
	tool("s", "Bash", "rev /tmp/r.txt", "the search index rebuilds on every sunday morning")
	tool("s", "Bash", "cat > /tmp/plan.md <<EOF the primary EOF", "")
	tool("s", "Bash", "cat /tmp/plan.md", "the primary database fails over to replica b")
	tool("s", "Bash", "git log --oneline | tee /tmp/t.txt > /dev/null", "")
	tool("s", "Bash", "head -5 /tmp/t.txt", "the metrics exporter listens on port ninety ninety")
	tool("s", "Bash", "grep -rn exporter .", "notes.md: the alerting rules page the on call phone")
	tool("s", "Bash", `echo "the billing service stores invoices in bucket alpha seven"`, "the billing service stores invoices in bucket alpha seven")
	tool("s", "Write", "/tmp/notes.md", "File created successfully at: /tmp/notes.md", "/tmp/notes.md")
	tool("s", "Read", "/tmp/notes.md", "the deploy window is every tuesday at noon sharp", "/tmp/notes.md")
	tool("s", "Bash", "claude-memory-layer search ledger", "the ledger database is named ledger prod two")
	tool("s", "mcp__plugin_memory-layer_memory__search", "audit", "the audit log is kept for four hundred days")
	add("s", store.TypeAgentResponse, "The orders service now uses MySQL instead of Postgres for storage.", nil)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		for _, id := range []string{"old", "s"} {
			if err := tx.TouchSession(ctx, store.Session{ID: id, Project: "/p", Cwd: "/p", StartedAt: at}); err != nil {
				return err
			}
		}
		_, err := tx.Append(ctx, evs...)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	remember := func(cs *mcp.ClientSession, title, quote string) (string, bool) {
		t.Helper()
		return callText(t, cs, "remember", map[string]any{"title": title, "quote": quote, "type": "decision", "subject": "storage"})
	}
	old := connect(t, &Server{Config: cfg, Project: "/p", SessionID: "old"})
	out, isErr := remember(old, "The orders service uses Postgres", "the orders service uses Postgres for storage")
	userCID := regexp.MustCompile(`mem:[0-9a-f]+`).FindString(out)
	if isErr || savedStage(out) != "verified" || userCID == "" {
		t.Fatalf("remember the user's words: %s", out)
	}

	cs := connect(t, &Server{Config: cfg, Project: "/p", SessionID: "s"})
	for _, tt := range []struct {
		source, quote string
		want          string // verified, unverified, refused
	}{
		{"the user's prompt", "retries failed charges three times", "verified"},
		{"a file read", "the cache is flushed every fifteen minutes", "verified"},
		{"a command that reads a file", "the load tests run against a copy of production", "verified"},
		{"a build's output", "the integration suite needs a running docker daemon", "unverified"},
		{"a base64 the model decoded", "the staging cluster lives in region north nine", "unverified"},
		{"a printf", "the cron job rotates keys every ninety days", "unverified"},
		{"a python -c", "the mobile app pins certificate version four", "unverified"},
		{"a rev", "the search index rebuilds on every sunday morning", "unverified"},
		{"a heredoc file read back", "the primary database fails over to replica b", "unverified"},
		{"a tee file read back", "the metrics exporter listens on port ninety ninety", "unverified"},
		{"a search of a tree the model wrote to", "the alerting rules page the on call phone", "unverified"},
		{"the model's answer", "the refunds queue is drained every night at two", "unverified"},
		{"an echo of the model's words", "stores invoices in bucket alpha seven", "unverified"},
		{"a file the model wrote, read back", "the deploy window is every tuesday at noon", "unverified"},
		{"the plugin's CLI", "the ledger database is named ledger prod two", "refused"},
		{"the plugin's MCP tool", "the audit log is kept for four hundred days", "refused"},
	} {
		out, isErr := remember(cs, "Memory from "+tt.source, tt.quote)
		var got string
		switch {
		case isErr:
			got = "refused"
		case savedStage(out) == "verified":
			got = "verified"
		default:
			got = "unverified"
		}
		if got != tt.want {
			t.Errorf("a quote of %s: %s, want %s:\n%s", tt.source, got, tt.want, out)
		}
	}

	out, isErr = remember(cs, "The orders service now uses MySQL", "now uses MySQL instead of Postgres for storage")
	if isErr || savedStage(out) == "verified" {
		t.Errorf("remember the model's own claim of a change: %s", out)
	}
	db, err := store.Open(ctx, cfg.DBPath(), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e, err := db.EntryByCID(ctx, userCID)
	if err != nil {
		t.Fatal(err)
	}
	if e.Status != store.StatusActive || e.Stage != store.StageVerified {
		t.Errorf("the user's memory is %s, %s after the model's unverified claim; want verified, active", e.Stage, e.Status)
	}
}

// savedStage is the stage remember's answer gives the memory it saved:
// "Saved [mem:ab12cd] decision, verified: ..." or "..., candidate, not
// verified: ...".
func savedStage(out string) string {
	m := regexp.MustCompile(`^Saved \[mem:[0-9a-f]+\] [a-z_]+, ([a-z_]+)[,:]`).FindStringSubmatch(out)
	if m == nil {
		return ""
	}
	return m[1]
}

// TestRememberFiltersTheQuote checks that a quote the model copies from
// its context, where the user's secret or private section is still whole,
// stores neither: the stored message has it masked, a long quote still
// finds it by a fuzzy match, and the quote was stored as given.
func TestRememberFiltersTheQuote(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg, db := newStore(t)
	const token, private = "ghp_1234567890abcdefghijABCDEFGHIJ123456", "my home is 12 Elm Street"
	said := []string{
		"For the staging deploy we always push the release with the deploy token " + token +
			" so that the pipeline can tag the images and publish the chart to the internal registry before the smoke tests run" +
			" against the cluster every morning at nine.",
		"The courier service delivers the spare hardware for the lab to the office address, and for the weekend on-call" +
			" rotation <private>" + private + "</private> is where the pager kit is kept, so whoever is on call picks it up" +
			" on friday afternoon before the office closes for the weekend at six.",
	}
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		if err := tx.TouchSession(ctx, store.Session{ID: "s", Project: "/p", Cwd: "/p", StartedAt: at}); err != nil {
			return err
		}
		for i, text := range said {
			if _, err := tx.Append(ctx, store.Event{Time: at.Add(time.Duration(i) * time.Minute), Type: store.TypeUserPrompt,
				SessionID: "s", Project: "/p", Text: privacy.Filter(text), DedupeKey: fmt.Sprintf("k:%d", i)}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cs := connect(t, &Server{Config: cfg, Project: "/p", SessionID: "s"})
	// The model quotes what it saw: the secret whole, the private section
	// with or without its tags (review 162), or the secret without its
	// key's name. Found by a near match, the quote is kept as the stored
	// message's words.
	for _, q := range []struct{ title, quote string }{
		{"Staging deploys push with the deploy token", said[0]},
		{"The pager kit is kept for the on-call rotation", said[1]},
		{"The pager kit's place for the weekend rotation", strings.Replace(strings.Replace(said[1], "<private>", "", 1), "</private>", "", 1)},
		{"The staging token tags the images", strings.TrimPrefix(said[0], "For the staging deploy we always push the release with the deploy token ")},
	} {
		out, isErr := callText(t, cs, "remember", map[string]any{"title": q.title, "quote": q.quote, "type": "fact"})
		if isErr || savedStage(out) != "verified" {
			t.Fatalf("remember %q: %s", q.title, out)
		}
	}
	storetest.NotOnDisk(t, cfg.DBPath(), token[:20], private)
}

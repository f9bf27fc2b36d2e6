package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
)

const mcpProject = "/home/dev/shop-api"

// seedMCP writes a store with one processed session of mcpProject: two
// prompts, two answers and a tool call, and the memories the offline
// extractor distils from them.
func seedMCP(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, config.DBFile), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	// The store's clock after the last message: it dates a future event now.
	db.Now = func() time.Time { return t0.Add(time.Hour) }
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: "s1", Project: mcpProject, Cwd: mcpProject, StartedAt: t0})
	}); err != nil {
		t.Fatal(err)
	}
	msgs := []struct{ typ, text string }{
		{store.TypeUserPrompt, "Add JWT authentication to the orders API."},
		{store.TypeAgentResponse, "Decision: we will use RS256 keys stored in ./keys instead of a shared HS256 secret, so services that only verify tokens never hold the signing key."},
		{store.TypeToolObservation, "Bash: npm test\n1 failing: expected 200 OK, got 401 Unauthorized"},
		{store.TypeUserPrompt, "npm test fails now: test/orders.test.js gets 401 on GET /api/orders. Fix the test, not the middleware."},
		{store.TypeAgentResponse, "The test now signs a token with a throwaway key pair from test/fixtures/keys."},
	}
	for i, m := range msgs {
		ev := store.Event{Time: t0.Add(time.Duration(i) * time.Minute), Type: m.typ, SessionID: "s1", Project: mcpProject,
			Text: m.text, DedupeKey: "seed:" + string(rune('a'+i))}
		if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, ev); return err }); err != nil {
			t.Fatal(err)
		}
	}
	p := &pipeline.Processor{DB: db, Extractor: pipeline.Offline{}, Now: db.Now}
	if _, err := p.Process(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
}

// mcpSession starts the built CLI's mcp command as Claude Code would, a child
// process spoken to over its stdin and stdout, and connects the SDK's client.
func mcpSession(t *testing.T, bin, data string, env ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, "mcp", "--project", mcpProject)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + data, "CLAUDE_MEMORY_DIR=" + data}, env...)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "claude-memory-layer")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// call calls a tool and returns its text and whether it is a tool error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func TestMCPOverStdio(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
	data := t.TempDir()
	seedMCP(t, data)
	cs := mcpSession(t, bin, data)
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if len(tl.Description) < 40 {
			t.Errorf("tool %s: description %q tells the model too little", tl.Name, tl.Description)
		}
		// No tool deletes: all but remember only read, and remember destroys nothing.
		if a := tl.Annotations; a == nil || tl.Name != "remember" && !a.ReadOnlyHint || a.DestructiveHint != nil && *a.DestructiveHint {
			t.Errorf("tool %s: annotations %+v", tl.Name, a)
		}
	}
	sort.Strings(names)
	if got, want := strings.Join(names, " "), "conflicts get remember search tasks timeline"; got != want {
		t.Fatalf("tools = %s, want %s", got, want)
	}

	out, isErr := call(t, cs, "search", map[string]any{"query": "RS256 signing keys"})
	t.Logf("search:\n%s", out)
	cid := regexp.MustCompile(`\[(mem:[0-9a-f]+)\] decision`).FindStringSubmatch(out)
	if isErr || cid == nil || !strings.Contains(out, "[mem:t2] agent_response") {
		t.Fatalf("search RS256: error %v, want the decision and its message:\n%s", isErr, out)
	}
	if out, _ := call(t, cs, "search", map[string]any{"query": "RS256 signing keys", "kind": []string{"entry"}}); strings.Contains(out, "[mem:t2] ") {
		t.Errorf("search kind=entry lists a message:\n%s", out)
	}
	if out, _ := call(t, cs, "search", map[string]any{"query": "RS256", "until": "2026-11-01"}); !strings.HasPrefix(out, "Nothing found") {
		t.Errorf("search until before everything:\n%s", out)
	}
	if out, _ := call(t, cs, "search", map[string]any{"query": "RS256", "all_projects": true, "session": "other"}); !strings.HasPrefix(out, "Nothing found") {
		t.Errorf("search in another session:\n%s", out)
	}
	page1, _ := call(t, cs, "search", map[string]any{"query": "test keys RS256 orders", "limit": 1})
	page2, _ := call(t, cs, "search", map[string]any{"query": "test keys RS256 orders", "limit": 1, "offset": 1})
	if !strings.Contains(page1, "More: offset=1") || !strings.HasPrefix(page2, "Results 2-2") {
		t.Errorf("paging:\n%s\n--\n%s", page1, page2)
	}

	out, isErr = call(t, cs, "get", map[string]any{"ids": []string{cid[1], "#4", "mem:ffffffff"}})
	t.Logf("get:\n%s", out)
	for _, want := range []string{"[" + cid[1] + "] decision, verified", "History: saved 2026-11-20 in session s1; injected into 0 prompts; used by 0 answers.", "Evidence 1:", "> [mem:t2] agent_response:", "»", "[mem:t4] user_prompt", "Fix the test, not the middleware.", "mem:ffffffff: not found"} {
		if isErr || !strings.Contains(out, want) {
			t.Errorf("get: no %q in:\n%s", want, out)
		}
	}

	out, isErr = call(t, cs, "timeline", map[string]any{"id": cid[1], "window": 1})
	t.Logf("timeline:\n%s", out)
	if isErr || !strings.Contains(out, ">[mem:t2] ") || !strings.Contains(out, " [mem:t1] ") || !strings.Contains(out, " [mem:t3] ") {
		t.Errorf("timeline of %s:\n%s", cid[1], out)
	}
	out, isErr = call(t, cs, "timeline", map[string]any{"date": "2026-11-20T09:03:00Z", "window": 1})
	if isErr || !strings.Contains(out, "[mem:t3] ") || !strings.Contains(out, "[mem:t4] ") || strings.Contains(out, "[mem:t5] ") {
		t.Errorf("timeline around 09:03:\n%s", out)
	}

	out, isErr = call(t, cs, "remember", map[string]any{"title": "Fix failing tests, not the middleware", "type": "preference",
		"quote": "Fix the test, not the middleware.", "subject": "orders tests"})
	if isErr || !regexp.MustCompile(`^Saved \[mem:[0-9a-f]+\] preference, verified: quote found \(exact match\) in \[mem:t4\]\.`).MatchString(out) {
		t.Errorf("remember a quote of the session:\n%s", out)
	}
	saved := regexp.MustCompile(`mem:[0-9a-f]+`).FindString(out)
	if got, _ := call(t, cs, "get", map[string]any{"ids": []string{saved}}); !strings.Contains(got, "> [mem:t4] user_prompt") {
		t.Errorf("the remembered memory's evidence:\n%s", got)
	}
	// The model's own words pass the privacy filter as captured text does.
	const secret = "sk-ant-api03-Zq8wLx2Vb7Nc4Rt6Yp1Kd9Hs3Jf5Gm0Qa-AbCdEfGh"
	out, isErr = call(t, cs, "remember", map[string]any{"title": "The orders tests run against the API key " + secret,
		"body": "<private>my own notes</private>The test suite reproduces the 401.", "quote": "gets 401 on GET /api/orders"})
	if isErr || strings.Contains(out, secret) {
		t.Fatalf("remember with a secret in the title: %v %s", isErr, out)
	}
	got, _ := call(t, cs, "get", map[string]any{"ids": []string{regexp.MustCompile(`mem:[0-9a-f]+`).FindString(out)}})
	t.Logf("get of a memory saved with a secret:\n%s", got)
	if strings.Contains(got, secret) || strings.Contains(got, "my own notes") || !strings.Contains(got, "The orders tests run against the API key") {
		t.Errorf("a remembered secret or private section reached the store:\n%s", got)
	}
	out, isErr = call(t, cs, "remember", map[string]any{"title": "We deploy on Fridays", "quote": "we always deploy on Fridays at five"})
	if !isErr || !strings.Contains(out, "not saved") {
		t.Errorf("remember an invented quote: error %v:\n%s", isErr, out)
	}

	// The turn under way waits in the spool (the prompt hook spools its
	// prompt); its words are the session's to quote.
	if store.SpoolSupported {
		spooled := store.Event{Time: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), Type: store.TypeUserPrompt, SessionID: "s1",
			Text: "Pin the orders service to Go 1.25 until the release.", DedupeKey: store.Key(store.KeyPrompt, "s1", "spooled")}
		if err := store.Spool(ctx, filepath.Join(data, "memory.db"), store.Session{ID: "s1", Project: mcpProject, Cwd: mcpProject}, spooled); err != nil {
			t.Fatal(err)
		}
		out, isErr = call(t, cs, "remember", map[string]any{"title": "Orders service pinned to Go 1.25", "quote": "Pin the orders service to Go 1.25 until the release."})
		if isErr || !strings.HasPrefix(out, "Saved [") {
			t.Errorf("remember a quote of the spooled prompt: error %v:\n%s", isErr, out)
		}
	}

	// Claude Code names the session it started the server for; after /clear
	// the conversation goes on as another session, whose quotes still count.
	cleared := mcpSession(t, bin, data, "CLAUDE_CODE_SESSION_ID=before-clear")
	out, isErr = call(t, cleared, "remember", map[string]any{"title": "Orders API requests need a JWT", "quote": "Add JWT authentication to the orders API."})
	if isErr || !strings.Contains(out, "in [mem:t1].") {
		t.Errorf("remember with a stale session id: %v %s", isErr, out)
	}

	if out, isErr := call(t, cs, "conflicts", map[string]any{}); isErr || out == "" {
		t.Errorf("conflicts: error %v: %q", isErr, out)
	}

	for _, bad := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search", map[string]any{}, "query"},
		{"search", map[string]any{"query": "x", "limit": "ten"}, "limit"},
		{"search", map[string]any{"query": "x", "limit": 500}, "limit 500"},
		{"search", map[string]any{"query": "x", "since": "soonish"}, "since"},
		{"timeline", map[string]any{"date": "soonish"}, "date"},
		{"search", map[string]any{"query": "x", "kind": []string{"memo"}}, "kind"},
		{"search", map[string]any{"query": "x", "surprise": 1}, "surprise"},
		{"timeline", map[string]any{}, "id or date"},
		{"timeline", map[string]any{"id": "DROP TABLE"}, "not a citation id"},
		{"timeline", map[string]any{"id": "mem:abcdef99"}, "no such memory"},
		{"get", map[string]any{"ids": []string{}}, "ids"},
		{"get", map[string]any{"ids": []string{"mem:zz"}}, "not a citation id"},
		{"remember", map[string]any{"title": "x", "quote": "y", "type": "rumour"}, "type"},
		{"remember", map[string]any{"title": "x"}, "quote"},
		{"conflicts", map[string]any{"limit": -1}, "limit"},
	} {
		out, isErr := call(t, cs, bad.tool, bad.args)
		if !isErr || !strings.Contains(out, bad.want) {
			t.Errorf("%s(%v) = error %v, %q; want a tool error naming %q", bad.tool, bad.args, isErr, out, bad.want)
		}
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "forget", Arguments: map[string]any{}}); err == nil {
		t.Error("calling a tool that does not exist succeeded")
	}
}

// A server started before anything was captured answers, and creates nothing.
func TestMCPNoStore(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
	data := t.TempDir()
	cs := mcpSession(t, bin, data)
	out, isErr := call(t, cs, "search", map[string]any{"query": "anything"})
	if isErr || !strings.Contains(out, "nothing has been captured") {
		t.Errorf("search with no store: error %v: %q", isErr, out)
	}
	if _, err := os.Stat(filepath.Join(data, config.DBFile)); !os.IsNotExist(err) {
		t.Errorf("a read created the store: %v", err)
	}
}

// TestMCPRememberSpooledAfterClear: after /clear Claude Code still names
// the old session, and the new session's first prompt is only in the
// spool; remember must quote it all the same.
func TestMCPRememberSpooledAfterClear(t *testing.T) {
	t.Parallel()
	if !store.SpoolSupported {
		t.Skip("no spool on this platform")
	}
	bin := buildCLI(t)
	data := t.TempDir()
	seedMCP(t, data)
	ctx := context.Background()
	// The new session's SessionStart registered it.
	db, err := store.Open(ctx, filepath.Join(data, config.DBFile), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: "after-clear", Project: mcpProject, Cwd: mcpProject, StartedAt: time.Date(2026, 11, 20, 11, 0, 0, 0, time.UTC)})
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	ev := store.Event{Time: time.Date(2026, 11, 20, 11, 0, 1, 0, time.UTC), Type: store.TypeUserPrompt, SessionID: "after-clear",
		Text: "Rotate the signing keys every ninety days from now on.", DedupeKey: store.Key(store.KeyPrompt, "after-clear", "p1")}
	if err := store.Spool(ctx, filepath.Join(data, config.DBFile), store.Session{ID: "after-clear", Project: mcpProject, Cwd: mcpProject}, ev); err != nil {
		t.Fatal(err)
	}
	cs := mcpSession(t, bin, data, "CLAUDE_CODE_SESSION_ID=s1")
	out, isErr := call(t, cs, "remember", map[string]any{"title": "Keys rotate every 90 days", "quote": "Rotate the signing keys every ninety days from now on."})
	if isErr || !strings.HasPrefix(out, "Saved [") {
		t.Errorf("remember a quote of the cleared session's spooled prompt: error %v:\n%s", isErr, out)
	}
}

// TestMCPSurvivesMalformedInput is issue 29's ninth reproduction: the
// server exited on any malformed message. Each request gets a JSON-RPC
// error (id null when it has none), a response none, and the server goes
// on: a valid request after all of them is answered.
func TestMCPSurvivesMalformedInput(t *testing.T) {
	t.Parallel()
	bin := buildCLI(t)
	data := t.TempDir()
	bad := []string{
		"this is not json",
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"`,
		`[{"jsonrpc":"2.0","id":4,"method":"ping"}]`,
		strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000),
		`{"jsonrpc":"2.0","id":5,"params":` + strings.Repeat(`{"a":`, 20_000) + "1" + strings.Repeat("}", 20_000) + `,"method":"ping"}`,
		`"just a string"`,
		`{"no":"method"}`,
		// Valid JSON the guard took that the SDK cannot decode, which ended
		// the server: nesting past the SDK's own limit, a duplicate key
		// (gjson reads the first, the SDK the last), an id past float64, an
		// error of the wrong shape.
		`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"a":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}`,
		`{"jsonrpc":"2.0","id":7,"id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","jsonrpc":"1.0","id":8,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9,"method":"ping","method":5}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
	}
	// A response the SDK cannot decode is skipped unanswered: JSON-RPC
	// answers no response (review 165).
	unanswered := `{"jsonrpc":"2.0","id":10,"error":5}`
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	in := strings.Join(bad, "\n") + "\n" + unanswered + "\n" + init + "\n"
	cmd := exec.Command(bin, "mcp")
	cmd.Env = []string{"CLAUDE_MEMORY_DIR=" + data, "HOME=" + data, "PATH=" + os.Getenv("PATH")}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { io.WriteString(stdin, in) }()
	// Stdin stays open until initialize is answered: a server that stopped
	// reading closes stdout instead, and the loop ends.
	var errs int
	answered := false
	var out strings.Builder
	sc := bufio.NewScanner(stdout)
	for !answered && sc.Scan() {
		line := sc.Text()
		out.WriteString(line + "\n")
		switch {
		case gjson.Get(line, "error.code").Int() != 0 && gjson.Get(line, "jsonrpc").String() == "2.0":
			errs++
		case gjson.Get(line, "id").Int() == 1 && gjson.Get(line, "result.serverInfo.name").String() != "":
			answered = true
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("mcp: %v\nstderr: %s", err, stderr.String())
	}
	if errs != len(bad) || !answered {
		t.Errorf("%d JSON-RPC errors for %d malformed messages, initialize answered: %v\nstdout:\n%s\nstderr:\n%s", errs, len(bad), answered, clip(out.String(), 2000), stderr.String())
	}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

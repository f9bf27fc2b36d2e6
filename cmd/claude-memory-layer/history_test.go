package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// updateGolden reports whether golden files are to be rewritten instead of
// compared (go test -run X -update). The package's -update flag is registered
// once, by another test file (import_test.go); two registrations would panic,
// so this looks it up by name.
func updateGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// transcripts is the shared folder of realistic Claude Code transcripts.
const transcripts = fixtureDir

// Sessions and projects of the fixture transcripts.
const (
	basicSession = "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30"
	basicProject = "/home/dev/shop-api"
	edgeSession  = "9b3d6f12-4a8c-4e57-b1d9-6c2f8a0e4d73"
	edgeProject  = "/Users/minji/work/payment_api"
)

// testNow is the clock of every CLI test.
var testNow = time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)

// cli is a data directory and a way to run the CLI against it in-process.
type cli struct {
	t   *testing.T
	dir string
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	return &cli{t: t, dir: t.TempDir()}
}

func (c *cli) getenv(k string) string {
	switch k {
	case "CLAUDE_MEMORY_DIR":
		return c.dir
	case "HOME":
		return c.dir
	}
	return ""
}

// run runs the CLI with args and returns stdout, stderr and the exit code.
func (c *cli) run(args ...string) (string, string, int) {
	c.t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: c.getenv,
		now: func() time.Time { return testNow }, exe: filepath.Join(c.dir, "bin", "claude-memory-layer")}
	code := run(context.Background(), args, e)
	return out.String(), errb.String(), code
}

// ok runs the CLI and fails the test unless it exits 0.
func (c *cli) ok(args ...string) string {
	c.t.Helper()
	out, errs, code := c.run(args...)
	if code != exitOK {
		c.t.Fatalf("%v: exit %d, stderr %s", args, code, errs)
	}
	return out
}

// db opens the CLI's store with the test clock; it is closed when the test ends.
func (c *cli) db() *store.DB {
	c.t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(c.dir, config.DBFile), store.Options{})
	if err != nil {
		c.t.Fatal(err)
	}
	db.Now = func() time.Time { return testNow }
	c.t.Cleanup(func() { db.Close() })
	return db
}

// importFixture stores a fixture transcript through the live path: register
// the session, ingest the transcript, run the offline pipeline.
func importFixture(t *testing.T, db *store.DB, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join(transcripts, name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("fixture missing: %v", err)
	}
	ids := map[string][2]string{"basic.jsonl": {basicSession, basicProject}, "edge-cases.jsonl": {edgeSession, edgeProject}}[name]
	ctx := context.Background()
	s := store.Session{ID: ids[0], Project: project.Identify(ids[1]), Cwd: ids[1], TranscriptPath: path, Source: "import",
		StartedAt: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	if err := db.Update(ctx, func(tx *store.Tx) error { return tx.TouchSession(ctx, s) }); err != nil {
		t.Fatal(err)
	}
	sess, err := db.Read().Session(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	if _, err := (&capture.Recorder{DB: db, Log: log}).Ingest(ctx, sess, true); err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Processor{DB: db, Extractor: pipeline.Offline{}, Log: log, Now: func() time.Time { return testNow }}
	if _, err := p.Process(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// inject runs recall for a prompt in a later session, recording a memory_injected event.
func inject(t *testing.T, db *store.DB, session, prompt string) string {
	t.Helper()
	cfg := config.Default(t.TempDir()).Recall
	text, err := recall.Context(context.Background(), db, cfg, recall.Request{Project: basicProject, SessionID: session,
		PromptID: "p-" + session, Prompt: prompt, Now: testNow.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// seeded returns a CLI whose store holds basic.jsonl, processed, and one injection.
func seeded(t *testing.T) (*cli, *store.DB) {
	t.Helper()
	c := newCLI(t)
	db := c.db()
	importFixture(t, db, "basic.jsonl")
	inject(t, db, "later-session", "how do we sign the JWT tokens, which algorithm and where are the keys?")
	return c, db
}

// normalize replaces what differs between runs and machines: the temporary
// data directory, the fixtures' location and the store's size in bytes. Ids and times are stable because
// the clock is fixed and the store is seeded the same way every time.
func (c *cli) normalize(s string) string {
	s = strings.ReplaceAll(s, c.dir, "$DATA")
	if abs, err := filepath.Abs(transcripts); err == nil {
		s = strings.ReplaceAll(s, abs, "$FIXTURES")
	}
	s = regexp.MustCompile(`"db_bytes": \d+`).ReplaceAllString(s, `"db_bytes": 0`)
	s = regexp.MustCompile(`\(\d+(\.\d)? (B|KiB|MiB)\)`).ReplaceAllString(s, "(SIZE)")
	return s
}

// checkGolden compares got with testdata/<cmd>/<name>.golden, or rewrites it under -update.
func checkGolden(t *testing.T, cmd, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", cmd, name+".golden")
	if updateGolden() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n%s", path, lineDiff(string(want), got))
	}
}

// lineDiff lists the lines that differ, for a readable failure.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
		}
	}
	return b.String()
}

// usageCase is one row of a flag-parsing table: args and the exit code.
type usageCase struct {
	name string
	args []string
	code int
}

// checkUsage runs each case against a fresh store and checks the exit code;
// usage errors (2) must say what is wrong on stderr.
func checkUsage(t *testing.T, cases []usageCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			_, errs, code := c.run(tt.args...)
			if code != tt.code {
				t.Fatalf("%v: exit %d, want %d (stderr %q)", tt.args, code, tt.code, errs)
			}
			if tt.code == exitUsage && !strings.Contains(errs, "claude-memory-layer") {
				t.Errorf("usage error without a message: %q", errs)
			}
		})
	}
}

func TestParseHistory(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, getenv: c.getenv}
	o, err := parseHistory(e, []string{"--session", "s1", "--type", "user_prompt", "--type", "agent_response", "--limit", "3", "--json"})
	if err != nil {
		t.Fatal(err)
	}
	if o.session != "s1" || strings.Join(o.types, ",") != "user_prompt,agent_response" || o.limit != 3 || !o.json {
		t.Fatalf("parseHistory=%+v", o)
	}
	checkUsage(t, []usageCase{
		{"defaults", []string{"history", "--all-projects"}, exitOK},
		{"zero limit", []string{"history", "--limit", "0"}, exitUsage},
		{"both scopes", []string{"history", "--project", "/x", "--all-projects"}, exitUsage},
		{"stray argument", []string{"history", "what"}, exitUsage},
		{"unknown flag", []string{"history", "--nope"}, exitUsage},
		{"help", []string{"history", "--help"}, exitOK},
	})
}

func TestHistory(t *testing.T) {
	t.Parallel()
	c, _ := seeded(t)
	checkGolden(t, "history", "basic.txt", c.normalize(c.ok("history", "--project", basicProject, "--limit", "12")))
	checkGolden(t, "history", "prompts.json", c.normalize(c.ok("history", "--session", basicSession, "--type", "user_prompt", "--json")))

	var got struct {
		Events []map[string]any `json:"events"`
	}
	if err := json.Unmarshal([]byte(c.ok("history", "--all-projects", "--json", "--limit", "1000")), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Events) < 10 {
		t.Fatalf("history --json: %d events", len(got.Events))
	}
	for _, ev := range got.Events {
		if len(ev) != 6 {
			t.Fatalf("event has fields %v, want exactly id,type,session_id,project,timestamp,text", ev)
		}
		for _, k := range []string{"id", "type", "session_id", "project", "timestamp", "text"} {
			if _, ok := ev[k].(string); !ok {
				t.Fatalf("event field %q is %T, want a string: %v", k, ev[k], ev)
			}
		}
	}
	// Newest first.
	if a, b := got.Events[0]["id"].(string), got.Events[1]["id"].(string); len(a) < len(b) || len(a) == len(b) && a < b {
		t.Errorf("history is not newest first: %s then %s", a, b)
	}
}

func TestHistoryEmptyStore(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	if got := c.ok("history", "--all-projects", "--json"); strings.TrimSpace(got) != `{
  "events": []
}` {
		t.Errorf("empty history --json = %q", got)
	}
	if got := c.ok("history", "--all-projects"); got != "no events\n" {
		t.Errorf("empty history = %q", got)
	}
}

// A session id as listings print it (its first 8 characters) names the
// session in history and forget; a prefix two sessions share is a usage
// error naming both.
func TestShortSessionID(t *testing.T) {
	t.Parallel()
	c, db := seeded(t)
	ctx := context.Background()
	other := "5f0c1111-0000-4000-8000-000000000000"
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: other, Project: "/elsewhere"})
	}); err != nil {
		t.Fatal(err)
	}
	short := shortID(basicSession)
	full := c.ok("history", "--session", basicSession, "--json")
	if got := c.ok("history", "--session", short, "--json"); got != full || !strings.Contains(got, `"session_id": "`+basicSession) {
		t.Errorf("history --session %s differs from the full id's:\n%s\nwant\n%s", short, got, full)
	}
	out, errs, code := c.run("forget", "--session", short)
	if code != exitOK || !strings.Contains(out, basicSession) {
		t.Errorf("forget --session %s (preview): exit %d, %s %s; want the full id in the preview", short, code, out, errs)
	}
	for _, args := range [][]string{{"history", "--session", "5f0c"}, {"forget", "--session", "5f0c"}} {
		out, errs, code := c.run(args...)
		if code != exitUsage || !strings.Contains(errs, basicSession) || !strings.Contains(errs, other) {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want a usage error naming both sessions", args, code, errs, out)
		}
	}
}

// history --json gives every event a text: the bookkeeping events, which
// store none of their own, get the summary the human listing prints.
func TestHistoryJSONTextEveryType(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	db := c.db()
	ctx := context.Background()
	payloads := map[string]string{
		store.TypeSessionStarted:   `{"source":"startup"}`,
		store.TypeSessionEnded:     `{"reason":"clear"}`,
		store.TypeSessionProcessed: `{"path":"/t.jsonl","bytes":4096,"offset":4096,"messages":12,"extractor":"offline"}`,
		store.TypeEvidenceAligned:  `{"aligned":2,"failed":1,"stage":"verified"}`,
		store.TypeMemoryInjected:   `{"memories":["mem:ab12cd"],"chars":300}`,
		store.TypeMemoryCited:      `{"cited":["mem:ab12cd"],"used":["mem:ab12cd"]}`,
		store.TypeConflict:         `{"kind":"contradiction","older":"mem:ab12cd","newer":"mem:cd34ef","reason":"ports differ"}`,
		store.TypeConflictResolved: `{"conflict":1,"older":"mem:ab12cd","newer":"mem:cd34ef","resolution":"mem:cd34ef supersedes mem:ab12cd","by":"user"}`,
		store.TypeForgotten:        `{"selector":["session"],"entries":1,"events_deleted":3,"events_redacted":0}`,
		store.TypeCertified:        `{"cid":"mem:ab12cd"}`,
		store.TypeRejected:         `{"cid":"mem:ab12cd"}`,
		store.TypeEdited:           `{"cid":"mem:ab12cd","from":{"title":"a"},"to":{"title":"b"}}`,
		store.TypePinned:           `{"cid":"mem:ab12cd"}`,
		store.TypeUnpinned:         `{"cid":"mem:ab12cd"}`,
		store.TypeSpoolFolded:      `{"file":"f","records":4}`,
		store.TypeLLMCall:          `{"extractor":"claude","input_tokens":1200,"output_tokens":300}`,
		store.TypeBudgetReached:    `{"cap":"daily_tokens","window":"day","limit":100000,"spent":100200}`,
	}
	types := append(append([]string{}, store.EventTypes...), store.TypeLLMCall, store.TypeBudgetReached)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		if err := tx.TouchSession(ctx, store.Session{ID: "s1", Project: "/p"}); err != nil {
			return err
		}
		for i, typ := range types {
			ev := store.Event{Time: testNow.Add(time.Duration(i) * time.Second), Type: typ, SessionID: "s1", Project: "/p",
				Payload: json.RawMessage(payloads[typ]), DedupeKey: "k:" + typ}
			if _, ok := payloads[typ]; !ok {
				ev.Text = "words of " + typ // what was said, or the memory's title
			}
			if _, err := tx.Append(ctx, ev); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Events []eventJSON `json:"events"`
	}
	if err := json.Unmarshal([]byte(c.ok("history", "--all-projects", "--json", "--limit", "1000")), &got); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, ev := range got.Events {
		seen[ev.Type] = true
		if ev.Text == "" || ev.Text == ev.Type || strings.HasPrefix(ev.Text, "{") || strings.Contains(ev.Text, ev.Type+" {") {
			t.Errorf("%s: text %q, want a short summary", ev.Type, ev.Text)
		}
	}
	for _, typ := range types {
		if !seen[typ] {
			t.Errorf("history --json lists no %s event", typ)
		}
	}
}

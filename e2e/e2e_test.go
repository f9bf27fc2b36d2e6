// Package e2e runs the plugin inside the real Claude Code CLI (offline, against
// internal/fakeapi on a loopback port) and checks what reached the model and the store.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline/workertest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/synthetic"
)

// pluginDir is the repository root, which is the plugin (bin/ must be built).
func pluginDir(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "bin", "user-prompt-submit")); err != nil {
		t.Fatalf("plugin binaries not built: run scripts/build.sh first")
	}
	return root
}

type world struct {
	t       *testing.T
	claude  string
	plugin  string
	work    string
	dataDir string
}

func newWorld(t *testing.T) *world {
	w := &world{t: t, claude: claudeBin(t), plugin: pluginDir(t), work: t.TempDir()}
	w.dataDir = filepath.Join(w.work, "memory")
	// The sessions' hooks start workers that go on writing into the data
	// directory after the session; it goes once they are done (cleanups run
	// last registered first).
	t.Cleanup(func() {
		if left := workertest.Wait(w.dataDir, 5*time.Minute); len(left) > 0 {
			t.Errorf("workers still running against the data directory after 5 minutes: %v", left)
			workertest.Kill(w.dataDir)
		}
	})
	return w
}

// session runs one Claude Code session with the given prompts in the shared
// project; extra is added to the environment (CLAUDE_REAL_* knobs: see
// sessionRun). It returns the run's directory.
func (w *world) session(name string, extra []string, prompts ...string) string {
	w.t.Helper()
	dir := filepath.Join(w.work, name)
	r := &sessionRun{claude: w.claude, plugin: w.plugin, dir: dir, project: filepath.Join(w.work, "project"),
		env: append([]string{"CLAUDE_MEMORY_DIR=" + w.dataDir}, extra...)}
	if _, err := r.run(prompts...); err != nil {
		w.t.Fatalf("session %s: %v", name, err)
	}
	return dir
}

// projectFile writes text to name in the shared project the sessions run
// in, and returns its path.
func (w *world) projectFile(name, text string) string {
	w.t.Helper()
	project := filepath.Join(w.work, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		w.t.Fatal(err)
	}
	path := filepath.Join(project, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return path
}

func (w *world) openStore() *store.DB {
	w.t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(w.dataDir, "memory.db"), store.Options{})
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { db.Close() })
	return db
}

// requests returns the bodies of the Messages API requests of a session run.
func requests(t *testing.T, dir string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "api-requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var rec struct {
			Path string          `json:"path"`
			Body json.RawMessage `json:"body"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Path == "/v1/messages" {
			out = append(out, string(rec.Body))
		}
	}
	return out
}

// toolInput is a tool call's input as CALLTOOL takes it, its fields as JSON.
func toolInput(t *testing.T, fields map[string]string) string {
	t.Helper()
	b, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// toolChanged fails the test unless file, after the session in dir,
// holds the text (holds) or no longer does: the fake model's tool call did
// not run, and what the test asks of the memory next would mean nothing.
func toolChanged(t *testing.T, dir, file, text string, holds bool) {
	t.Helper()
	b, _ := os.ReadFile(file)
	if strings.Contains(string(b), text) != holds {
		t.Fatalf("the tool call did not change %s (want %q held: %v); hooks fired: %v\n%s", filepath.Base(file), text, holds, fired(t, dir), b)
	}
}

// fired lists the hook events the capture plugin saw, e.g. "Stop-1".
func fired(t *testing.T, dir string) map[string]bool {
	t.Helper()
	m := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "hooks", "*.json"))
	for _, f := range files {
		m[strings.TrimSuffix(filepath.Base(f), ".json")] = true
	}
	return m
}

const (
	fact   = "the billing service reaches the ledger over gRPC on port 7443 with the FLAMINGO-42 handshake"
	secret = "hunter2-PRIVATE-XYZZY-9931"
)

func TestRealClientCaptureAndRecall(t *testing.T) {
	w := newWorld(t)
	readme := filepath.Join(w.work, "notes.txt")
	os.WriteFile(readme, []byte("ledger notes\n"), 0o644)

	s1 := w.session("s1", nil,
		"Remember that "+fact+". <private>My staging password is "+secret+"</private>",
		"Show me the notes READFILE "+readme+" and RUNBASH echo ledger-check",
	)
	hooks := fired(t, s1)
	for _, h := range []string{"SessionStart-1", "UserPromptSubmit-1", "UserPromptSubmit-2", "PostToolUse-1", "Stop-1", "Stop-2", "SessionEnd-1"} {
		if !hooks[h] {
			t.Errorf("session 1: hook %s did not fire (fired: %v)", h, hooks)
		}
	}
	sid1 := strings.TrimSpace(readFile(t, filepath.Join(s1, "session_id")))

	s2 := w.session("s2", nil, "Which port and handshake does the billing service use for the ledger?")
	reqs := requests(t, s2)
	if len(reqs) == 0 {
		t.Fatal("session 2 made no API request")
	}
	found := false
	for _, r := range reqs {
		if strings.Contains(r, "FLAMINGO-42") && strings.Contains(r, "7443") {
			found = true
		}
	}
	if !found {
		t.Errorf("session 2's requests do not carry the fact from session 1")
	}

	// Every hook exited 0: Claude Code's debug log records each hook's outcome.
	for _, dir := range []string{s1, s2} {
		dbg := readFile(t, filepath.Join(dir, "debug.log"))
		for _, bad := range []string{"non-blocking status code", "Hook cancelled", "hook error", "blocking error"} {
			if strings.Contains(dbg, bad) && strings.Contains(dbg, "claude-memory-layer") {
				t.Errorf("%s: debug log reports %q for a hook", filepath.Base(dir), bad)
			}
		}
	}

	db := w.openStore()
	ctx := context.Background()
	evs, err := db.Read().Events(ctx, store.EventFilter{SessionID: sid1})
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]int{}
	seen := map[string]string{}
	for _, e := range evs {
		types[e.Type]++
		if !e.Conversation() {
			continue
		}
		k := e.Type + "\x00" + strings.Join(strings.Fields(e.Text), " ")
		if prev, dup := seen[k]; dup {
			t.Errorf("stored twice: %s (%s and %s)", e.Type, prev, e.DedupeKey)
		}
		seen[k] = e.DedupeKey
	}
	for _, typ := range []string{store.TypeSessionStarted, store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation, store.TypeSessionEnded} {
		if types[typ] == 0 {
			t.Errorf("session 1 stored no %s event (types: %v)", typ, types)
		}
	}
	if types[store.TypeUserPrompt] != 2 {
		t.Errorf("session 1 stored %d prompts, want 2", types[store.TypeUserPrompt])
	}

	// The private section never reached the disk, in any file of the data directory.
	db.Close()
	files, _ := filepath.Glob(filepath.Join(w.dataDir, "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("the private secret is in %s", f)
		}
	}
	if log := readFile(t, filepath.Join(w.dataDir, "claude-memory-layer.log")); strings.Contains(log, "level=ERROR") {
		t.Errorf("errors logged:\n%s", log)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// cli runs the plugin's CLI against the world's data directory.
func (w *world) cli(args ...string) []byte {
	w.t.Helper()
	cmd := exec.Command(filepath.Join(w.plugin, "bin", "claude-memory-layer"), args...)
	cmd.Env = append(os.Environ(), "CLAUDE_MEMORY_DIR="+w.dataDir)
	out, err := cmd.Output()
	if err != nil {
		w.t.Fatalf("claude-memory-layer %v: %v\n%s", args, err, out)
	}
	return out
}

type entriesJSON struct {
	Entries []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Title    string `json:"title"`
		Stage    string `json:"stage"`
		Status   string `json:"status"`
		Evidence []struct {
			Quote      string  `json:"quote"`
			Method     string  `json:"method"`
			Confidence float64 `json:"confidence"`
			SpanStart  int     `json:"span_start"`
			SpanEnd    int     `json:"span_end"`
			SourceUUID string  `json:"source_uuid"`
		} `json:"evidence"`
	} `json:"entries"`
}

// TestRealClientVerifiedDecision: a decision stated in a real session becomes a
// verified entry whose evidence span, applied to the stored message, is the quote.
func TestRealClientVerifiedDecision(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "For the cache layer we decided to use Redis 7 with TLS instead of memcached.")
	var got entriesJSON
	if err := json.Unmarshal(w.cli("entries", "--json", "--all-projects"), &got); err != nil {
		t.Fatal(err)
	}
	db := w.openStore()
	ok := false
	for _, e := range got.Entries {
		if e.Stage != "verified" || !strings.Contains(e.Title+e.Evidence[0].Quote, "Redis") {
			continue
		}
		for _, v := range e.Evidence {
			evs, err := db.Read().Events(context.Background(), store.EventFilter{})
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				if ev.SourceUUID == v.SourceUUID && v.SpanEnd <= len(ev.Text) && ev.Text[v.SpanStart:v.SpanEnd] == v.Quote {
					ok = true
				}
			}
		}
	}
	if !ok {
		t.Fatalf("no verified Redis decision whose span yields its quote in %+v", got)
	}
}

// TestRealClientConflictAcrossSessions: HS256 in session 1, reversed to RS256 in
// session 2; in session 3 a prompt about token signing gets both memories, a
// conflict warning naming both and the citation trace, and an unrelated prompt
// gets no memory at all.
func TestRealClientConflictAcrossSessions(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "For JWT signing we'll use HS256 with a shared secret.")
	w.session("s2", nil, "Let's switch from HS256 to RS256 keys in ./keys for JWT signing.")
	var got entriesJSON
	json.Unmarshal(w.cli("entries", "--json", "--all-projects"), &got)
	ids := map[string]string{}
	for _, e := range got.Entries {
		if e.Type == "decision" && strings.Contains(e.Title, "RS256") {
			ids["rs"] = e.ID
		} else if e.Type == "decision" && strings.Contains(e.Title, "HS256") {
			ids["hs"] = e.ID
		}
	}
	if ids["rs"] == "" || ids["hs"] == "" {
		t.Fatalf("decisions not extracted: %+v", got)
	}

	s3 := w.session("s3", nil, "How should we sign the JWT tokens for the API?", "What is a good name for a cat?")
	reqs := requests(t, s3)
	if len(reqs) < 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	first, last := reqs[0], reqs[len(reqs)-1]
	for _, want := range []string{ids["rs"], ids["hs"], "[CONFLICT WARNINGS]", "[/CONFLICT WARNINGS]", "[CITATION TRACE]"} {
		if !strings.Contains(first, want) {
			t.Errorf("session 3's signing prompt: request lacks %q", want)
		}
	}
	const ups = "UserPromptSubmit hook additional context"
	if n1, n2 := strings.Count(first, ups), strings.Count(last, ups); n2 != n1 {
		t.Errorf("the unrelated prompt got injected context (%d injections before, %d after)", n1, n2)
	}
}

// TestRealClientSlashCommand: /memory-search runs the CLI inside a real
// session and its results reach the model.
func TestRealClientSlashCommand(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "For JWT signing we decided to use RS256 keys stored in ./keys.")
	s2 := w.session("s2", nil, "/memory-layer:memory-search jwt signing")
	reqs := requests(t, s2)
	if len(reqs) == 0 {
		t.Fatal("the slash command made no request")
	}
	last := reqs[len(reqs)-1]
	if !strings.Contains(last, "RS256") || !strings.Contains(last, "mem:") {
		t.Errorf("the search results did not reach the model; request tail: %.600s", last[max(0, len(last)-600):])
	}
}

// TestRealClientSlashCommandArgumentsNeverRunAsShell: a multi-line argument
// holding the delimiter line of the heredoc the commands used to pass it in,
// followed by shell commands, is searched for as text; nothing it names runs.
func TestRealClientSlashCommandArgumentsNeverRunAsShell(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "For JWT signing we decided to use RS256 keys stored in ./keys.")
	pwned := filepath.Join(t.TempDir(), "pwned")
	for i, args := range []string{
		"jwt\nCML_ARGS_7c1e94b2\ntouch " + pwned + "-1\ncat <<'CML_ARGS_7c1e94b2'",
		"jwt $(touch " + pwned + "-2) `touch " + pwned + "-3` ${CLAUDE_PLUGIN_ROOT} ; touch " + pwned + "-4",
	} {
		s := w.session(fmt.Sprintf("s%d", i+2), nil, "/memory-layer:memory-search "+args)
		reqs := requests(t, s)
		if len(reqs) == 0 {
			t.Fatal("the slash command made no request")
		}
		if last := reqs[len(reqs)-1]; !strings.Contains(last, "touch") {
			t.Errorf("the CLI did not search for the text as given; request tail: %.600s", last[max(0, len(last)-600):])
		}
	}
	if m, _ := filepath.Glob(pwned + "*"); len(m) > 0 {
		t.Fatalf("slash-command arguments ran as shell commands: %v", m)
	}
}

// TestRealClientDuringImport: a real session runs while the CLI imports a
// 50 MB history into the same store. Its prompt is stored by the hook itself
// (not only later from the transcript), no hook gives up on the write lock,
// and the import finishes whole.
func TestRealClientDuringImport(t *testing.T) {
	w := newWorld(t)
	tmpl, err := os.ReadFile(filepath.Join("..", "testdata", "claude-code", "transcripts", "basic.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	hist := filepath.Join(w.work, "history")
	files, _, err := synthetic.History(tmpl, hist, 50<<20, 3)
	if err != nil {
		t.Fatal(err)
	}
	imp := exec.Command(filepath.Join(w.plugin, "bin", "claude-memory-layer"), "import", "--dir", hist, "--json")
	imp.Env = append(os.Environ(), "CLAUDE_MEMORY_DIR="+w.dataDir)
	var out bytes.Buffer
	imp.Stdout, imp.Stderr = &out, &out
	began := time.Now()
	if err := imp.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the import holds the store by now
	w.session("s1", nil, "The nightly export job writes to the s3 bucket acme-exports-eu in eu-west-1.")
	if err := imp.Wait(); err != nil {
		t.Fatalf("import: %v\n%s", err, out.Bytes())
	}
	ended := time.Now()
	var sum struct {
		Imported int `json:"sessions_imported"`
		Failed   int `json:"sessions_failed"`
	}
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil || sum.Imported != files || sum.Failed != 0 {
		t.Fatalf("import summary %+v (%v), want %d sessions imported:\n%s", sum, err, files, out.Bytes())
	}

	db := w.openStore()
	evs, err := db.Read().Events(context.Background(), store.EventFilter{Types: []string{store.TypeUserPrompt}, Since: began})
	if err != nil {
		t.Fatal(err)
	}
	var hooked *store.Event
	for i := range evs {
		if strings.Contains(evs[i].Text, "acme-exports-eu") && strings.Contains(string(evs[i].Payload), `"source":"hook"`) {
			hooked = &evs[i]
		}
	}
	if hooked == nil {
		t.Fatalf("the prompt was not stored by UserPromptSubmit (events: %d); log:\n%s", len(evs), readFile(t, filepath.Join(w.dataDir, "claude-memory-layer.log")))
	}
	if hooked.Time.Before(began) || hooked.Time.After(ended) {
		t.Fatalf("the prompt was stored at %v, outside the import (%v to %v): nothing was tested", hooked.Time, began, ended)
	}
	if log := readFile(t, filepath.Join(w.dataDir, "claude-memory-layer.log")); strings.Contains(log, "level=ERROR") {
		t.Errorf("errors in the log:\n%s", log)
	}
	t.Logf("import of %d sessions took %v; the prompt was stored %v into it", files, ended.Sub(began).Round(time.Millisecond), hooked.Time.Sub(began).Round(time.Millisecond))
}

// TestRealClientRecallFromMessages: what the user said in earlier sessions is
// recalled verbatim, with no extracted entry needed: a decision reversed in a
// later session comes back with a warning naming both sides, their ids and
// dates; a Korean question finds a Korean statement; an unrelated prompt
// gets nothing.
func TestRealClientRecallFromMessages(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "Our unit tests run with mocha and chai; npm test wires it up.")
	w.session("s2", nil, "We moved the unit tests from mocha to vitest this sprint.")
	w.session("s3", nil, "결제 서비스는 포트 7443에서 gRPC로 원장 서비스와 통신합니다.")
	s4 := w.session("s4", nil, "Which test framework should the new tests use?", "What is a good name for a cat?", "결제 서비스는 원장과 몇 번 포트로 통신하나요?")
	reqs := requests(t, s4)
	if len(reqs) < 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	// Each request carries the whole conversation so far: the n-th holds
	// what the n-th prompt's hook injected.
	const ups = "UserPromptSubmit hook additional context"
	first := reqs[0]
	_, block, ok := strings.Cut(first, "[CONFLICT WARNINGS]")
	if !ok {
		t.Fatalf("no conflict warning for the reversed decision:\n%s", first)
	}
	block, _, _ = strings.Cut(block, "[/CONFLICT WARNINGS]")
	// Both sides cited: the verified entries distilled from the two
	// sessions, which outrank the messages they quote.
	if n := len(citedIDRE.FindAllString(block, -1)); n < 2 {
		t.Errorf("the warning cites %d ids, want both sides:\n%s", n, block)
	}
	warningHolds(t, block, "mocha", "vitest", "superseded")
	var second, third string
	for _, r := range reqs {
		if strings.Contains(r, "good name for a cat") && second == "" {
			second = r
		}
		if strings.Contains(r, "몇 번 포트로") && third == "" {
			third = r
		}
	}
	if n1, n2 := strings.Count(first, ups), strings.Count(second, ups); n2 != n1 {
		t.Errorf("the unrelated prompt got injected context (%d injections before, %d after)", n1, n2)
	}
	if !strings.Contains(third, "7443") {
		t.Errorf("the Korean question did not recall the Korean statement")
	}
}

// TestRealClientBriefAfterOneExchange: a one-exchange session that states a
// convention leaves a fact, not the assistant's acknowledgement; the next
// session's SessionStart brief names it, and its "Last session" line says
// what the session did rather than repeating the prompt.
func TestRealClientBriefAfterOneExchange(t *testing.T) {
	w := newWorld(t)
	prompt := "Our unit tests run with jest; use npx jest to run them."
	w.session("s1", nil, prompt)
	var got entriesJSON
	if err := json.Unmarshal(w.cli("entries", "--json", "--all-projects"), &got); err != nil {
		t.Fatal(err)
	}
	fact := ""
	for _, e := range got.Entries {
		if e.Stage == "verified" && strings.Contains(e.Evidence[0].Quote, "Our unit tests run with jest") {
			fact = e.ID
		}
		if e.Type == "constraint" && !strings.Contains(e.Evidence[0].Quote, "jest") {
			t.Errorf("an acknowledgement became a constraint: %+v", e)
		}
	}
	if fact == "" {
		t.Fatalf("no verified entry quoting the convention in %+v", got)
	}
	dir := w.session("s2", nil, "hello")
	brief := ""
	for _, r := range requests(t, dir) {
		if i := strings.Index(r, "Project memory (claude-memory-layer)"); i >= 0 {
			brief = r[i:min(len(r), i+2000)]
			break
		}
	}
	if brief == "" {
		t.Fatal("no SessionStart brief reached the model")
	}
	t.Logf("brief as the model received it: %.600s", brief)
	if !strings.Contains(brief, fact) {
		t.Errorf("brief lacks %s:\n%s", fact, brief)
	}
	for _, line := range strings.Split(strings.ReplaceAll(brief, `\n`, "\n"), "\n") {
		if strings.HasPrefix(line, "Last session") && strings.Contains(line, prompt) {
			t.Errorf("the last-session line repeats the prompt: %q", line)
		}
	}
}

// TestRealClientFiveReversals: five decisions in one session, each reversed
// in a later one (the five reversals of issue 12: Redis→RabbitMQ,
// black→ruff, Postgres→MySQL, poetry→uv, vitest→jest). The ledger marks the
// five older entries superseded, and the next session's brief shows the
// current decisions only, with a summary of the last session rather than its
// first prompt.
func TestRealClientFiveReversals(t *testing.T) {
	w := newWorld(t)
	w.session("decide", nil,
		"We use Redis for the background job queue.",
		"Format the Python code with black.",
		"The main database is Postgres.",
		"Manage the Python dependencies with poetry.",
		"Unit tests run with vitest.")
	w.session("reverse", nil,
		"We switched the background job queue from Redis to RabbitMQ.",
		"We moved from black to ruff for formatting the Python code.",
		"We migrated the main database from Postgres to MySQL.",
		"Switch from poetry to uv for the Python dependencies.",
		"We replaced vitest with jest for the unit tests.")
	var got entriesJSON
	if err := json.Unmarshal(w.cli("entries", "--json", "--all-projects"), &got); err != nil {
		t.Fatal(err)
	}
	stale := map[string]string{"redis": "", "black": "", "postgres": "", "poetry": "", "vitest": ""}
	for _, e := range got.Entries {
		for old := range stale {
			if e.Status == "superseded" && strings.Contains(strings.ToLower(e.Title), old) {
				stale[old] = e.ID
			}
		}
	}
	for old, id := range stale {
		if id == "" {
			t.Errorf("no superseded entry for %s in %+v", old, got.Entries)
		}
	}
	dir := w.session("next", nil, "hello")
	brief := ""
	for _, r := range requests(t, dir) {
		if i := strings.Index(r, "Project memory (claude-memory-layer)"); i >= 0 {
			brief = r[i:min(len(r), i+3000)]
			brief, _, _ = strings.Cut(brief, "</claude-memory-layer-context>")
			break
		}
	}
	if brief == "" {
		t.Fatal("no SessionStart brief reached the model")
	}
	t.Logf("brief as the model received it:\n%s", strings.ReplaceAll(brief, `\n`, "\n"))
	for _, id := range stale {
		if id != "" && strings.Contains(brief, id) {
			t.Errorf("the brief shows the superseded %s", id)
		}
	}
	for _, now := range []string{"RabbitMQ", "ruff", "MySQL", "uv", "jest"} {
		if !strings.Contains(brief, now) {
			t.Errorf("the brief lacks the current %s", now)
		}
	}
	// A summary of what the session did ("Decided: …"), not its first prompt.
	summary := false
	for _, line := range strings.Split(strings.ReplaceAll(brief, `\n`, "\n"), "\n") {
		if strings.HasPrefix(line, "Last session") {
			_, rest, _ := strings.Cut(line, "): ")
			summary = strings.HasPrefix(rest, "Decided:") && strings.Contains(rest, "+3 more")
		}
	}
	if !summary {
		t.Errorf("the brief's last-session line is no summary of the five decisions")
	}
}

// citedIDRE matches a citation id, an entry's or a message's.
var citedIDRE = regexp.MustCompile(`\[mem:[0-9a-z]+\]`)

// TestRealClientOutcome: "did that go through?" in a later session gets what
// followed the plan in the real session: the command that failed.
func TestRealClientOutcome(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil,
		"Let's move the shared fonts folder into its own npm workspace of the site.",
		"yes, do it RUNBASH sh -c 'echo npm error: workspace fonts-shared already exists in the lockfile >&2; exit 1'")
	dir := w.session("s2", nil, "Last time we wanted to move the shared fonts folder into its own npm workspace. Did that go through?")
	const ups = "UserPromptSubmit hook additional context"
	var got string
	for _, r := range requests(t, dir) {
		if i := strings.Index(r, ups); i >= 0 {
			got = r[i:min(len(r), i+3000)]
			break
		}
	}
	if got == "" {
		t.Fatal("nothing was injected for the prompt")
	}
	for _, want := range []string{"already exists in the lockfile", "(error)", "mem:t"} {
		if !strings.Contains(got, want) {
			t.Errorf("the injected context lacks %q:\n%s", want, got)
		}
	}
}

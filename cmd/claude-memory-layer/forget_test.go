package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/cmdargs"
	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

func TestParseForget(t *testing.T) {
	t.Parallel()
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	tests := []struct {
		name string
		args []string
		want forgetOptions
	}{
		{"memory", []string{"mem:ab12cd"}, forgetOptions{cid: "mem:ab12cd"}},
		{"memory confirmed", []string{"mem:ab12cd", "--yes", "--json"}, forgetOptions{cid: "mem:ab12cd", yes: true, json: true}},
		{"session", []string{"--session", "s1"}, forgetOptions{session: "s1"}},
		{"before", []string{"--before", "2026-01-02"}, forgetOptions{before: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}},
		{"match in project", []string{"--match", "  api key  ", "--project", "/p"}, forgetOptions{match: "api key", project: "/p"}},
		{"compact", []string{"--compact"}, forgetOptions{compact: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseForget(e, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("parseForget(%q) = %+v, want %+v", tt.args, got, tt.want)
			}
		})
	}
	checkUsage(t, []usageCase{
		{"nothing selected", []string{"forget"}, exitUsage},
		{"only --yes", []string{"forget", "--yes"}, exitUsage},
		{"not a memory id", []string{"forget", "42"}, exitUsage},
		{"two ids", []string{"forget", "mem:ab12cd", "mem:cd34ef"}, exitUsage},
		{"id and filter", []string{"forget", "mem:ab12cd", "--session", "s1"}, exitUsage},
		{"bad date", []string{"forget", "--before", "last tuesday"}, exitUsage},
		{"empty match", []string{"forget", "--match", "  "}, exitUsage},
		{"empty session", []string{"forget", "--session="}, exitUsage},
		{"compact with filter", []string{"forget", "--compact", "--session", "s1"}, exitUsage},
		{"unknown flag", []string{"forget", "--all"}, exitUsage},
		{"punctuation match", []string{"forget", "--match", "..."}, exitUsage},
		{"unknown memory, no store", []string{"forget", "mem:abcdef"}, exitError},
		{"match, no store", []string{"forget", "--match", "anything"}, exitOK},
		{"help", []string{"forget", "-h"}, exitOK},
	})
}

func TestForgetUnknownMemory(t *testing.T) {
	t.Parallel()
	c, _ := seeded(t)
	for _, args := range [][]string{{"forget", "mem:abcdef"}, {"forget", "mem:abcdef", "--yes"}} {
		_, errs, code := c.run(args...)
		if code != exitError || !strings.Contains(errs, "no memory mem:abcdef") {
			t.Errorf("%v: exit %d, stderr %q; want 1 and a clear message", args, code, errs)
		}
	}
}

// cidOf finds an entry of the basic fixture by the start of its title.
func cidOf(t *testing.T, db *store.DB, title string) string {
	t.Helper()
	es, err := db.Read().Entries(context.Background(), store.EntryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if strings.HasPrefix(e.Title, title) {
			return e.CID
		}
	}
	t.Fatalf("no entry titled %q", title)
	return ""
}

func TestForgetPreviewChangesNothing(t *testing.T) {
	t.Parallel()
	c, db := seeded(t)
	cid := cidOf(t, db, "Sign JWTs with RS256 keys")
	before := c.ok("export")
	checkGolden(t, "forget", "memory.txt", c.normalize(c.ok("forget", cid)))
	checkGolden(t, "forget", "memory.json", c.normalize(c.ok("forget", cid, "--json")))
	checkGolden(t, "forget", "match.txt", c.normalize(c.ok("forget", "--match", "HS256 secret", "--project", basicProject)))
	checkGolden(t, "forget", "nothing.txt", c.normalize(c.ok("forget", "--match", "no such words anywhere")))
	if after := c.ok("export"); after != before {
		t.Error("a preview changed the store")
	}
}

// TestForgetAcceptance imports both fixture transcripts, then forgets one
// memory, one session and one date range, and checks after each that the
// forgotten words are in no table (FTS5 shadow tables included), match
// nothing, come out of no search, export or injection, and are not in the
// bytes of memory.db or memory.db-wal; and that the rest is still there.
func TestForgetAcceptance(t *testing.T) {
	c := newCLI(t)
	// This handle stays open while the CLI runs, as a hook's would: the WAL
	// file then outlives each command and can be grepped.
	db := c.db()
	importFixture(t, db, "basic.jsonl")
	importFixture(t, db, "edge-cases.jsonl")
	inject(t, db, "later-session", "how are JWT tokens signed, HS256 or RS256, and where are the keys kept?")
	ctx := context.Background()

	steps := []struct {
		name string
		args func() []string
		// words unique to what is forgotten: roots the FTS5 porter stemmer keeps whole
		words []string
	}{
		{"memory", func() []string { return []string{"forget", cidOf(t, db, "Sign JWTs with RS256 keys"), "--yes"} }, []string{"hs256"}},
		{"session", func() []string { return []string{"forget", "--session", edgeSession, "--yes"} }, []string{"리프레시", "결제"}},
		{"before", func() []string { return []string{"forget", "--before", "2026-11-20T09:15:00Z", "--yes"} }, []string{"morgan", "healthrouter"}},
	}
	for _, s := range steps {
		for _, w := range s.words {
			if !inTables(t, db, w) {
				t.Fatalf("%s: %q is not in the store before forgetting; the test would prove nothing", s.name, w)
			}
		}
	}
	for _, s := range steps {
		args := s.args()
		out := c.ok(args...)
		if !strings.Contains(out, "Store compacted") {
			t.Errorf("%s: %v did not compact:\n%s", s.name, args, out)
		}
		for _, w := range s.words {
			assertForgotten(t, c, db, w)
		}
	}

	// The memory's source message was redacted, not deleted: its row keeps the
	// transcript from being ingested into it again.
	evs, err := db.Read().Events(ctx, store.EventFilter{SessionID: basicSession})
	if err != nil {
		t.Fatal(err)
	}
	var conv, redacted int
	for _, ev := range evs {
		if ev.Conversation() {
			conv++
			if ev.Text == store.Redacted {
				redacted++
			}
		}
	}
	// The second turn (09:16:40 on) is still there; the first is gone.
	if conv != 7 || redacted != 0 {
		t.Errorf("basic session keeps %d messages (%d redacted), want the 7 of its second turn", conv, redacted)
	}
	es, err := db.Read().Entries(ctx, store.EntryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, e := range es {
		titles = append(titles, e.Title)
	}
	if len(es) != 2 {
		t.Errorf("entries left: %q, want the two of the second turn (its lesson and rule)", titles)
	}
	tombs, _ := db.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeForgotten}})
	if len(tombs) != 3 {
		t.Errorf("%d memory_forgotten events, want 3", len(tombs))
	}
	for _, tb := range tombs {
		if tb.Text != "" || strings.Contains(string(tb.Payload), edgeSession) || strings.Contains(string(tb.Payload), "mem:") {
			t.Errorf("tombstone holds an identifier in the clear: %s", tb.Payload)
		}
	}
	if sess, err := db.Read().Session(ctx, edgeSession); err != nil || sess.Source != store.SessionForgotten || sess.Summary != "" {
		t.Errorf("forgotten session row = %+v, %v", sess, err)
	}
	var st struct {
		Sessions          int `json:"sessions"`
		ForgottenSessions int `json:"forgotten_sessions"`
		Entries           int `json:"entries"`
	}
	if err := json.Unmarshal([]byte(c.ok("stats", "--all-projects", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Sessions != 1 || st.ForgottenSessions != 1 || st.Entries != 2 {
		t.Errorf("stats after forgetting = %+v", st)
	}
}

func inTables(t *testing.T, db *store.DB, word string) bool {
	t.Helper()
	for _, vals := range allText(t, db) {
		for _, v := range vals {
			if strings.Contains(strings.ToLower(v), word) {
				return true
			}
		}
	}
	return false
}

// allText returns every text and blob value of every table named in
// sqlite_master, the FTS5 shadow tables (events_fts_data, ...) included.
func allText(t *testing.T, db *store.DB) map[string][]string {
	t.Helper()
	ctx := context.Background()
	rows, err := db.SQL().QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	rows.Close()
	if len(names) < 10 {
		t.Fatalf("sqlite_master lists only %v", names)
	}
	out := map[string][]string{}
	for _, n := range names {
		rows, err := db.SQL().QueryContext(ctx, `SELECT * FROM "`+n+`"`)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				switch v := v.(type) {
				case string:
					out[n] = append(out[n], v)
				case []byte:
					out[n] = append(out[n], string(v))
				}
			}
		}
		rows.Close()
	}
	return out
}

// assertForgotten checks every way a forgotten word could come back.
func assertForgotten(t *testing.T, c *cli, db *store.DB, word string) {
	t.Helper()
	ctx := context.Background()
	for table, vals := range allText(t, db) {
		for _, v := range vals {
			if strings.Contains(strings.ToLower(v), word) {
				t.Errorf("%q still in table %s", word, table)
				break
			}
		}
	}
	for _, fts := range []string{"events_fts", "entries_fts"} {
		var n int
		if err := db.SQL().QueryRowContext(ctx, `SELECT count(*) FROM `+fts+` WHERE `+fts+` MATCH ?`, `"`+word+`"*`).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s MATCH %q: %d rows, %v", fts, word, n, err)
		}
	}
	path := filepath.Join(c.dir, config.DBFile)
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if i := bytes.Index(bytes.ToLower(b), []byte(word)); i >= 0 {
			t.Errorf("%q still in the bytes of %s at offset %d", word, filepath.Base(p), i)
		}
	}
	if out := c.ok("search", word, "--all-projects", "--json"); strings.Contains(strings.ToLower(out), word) {
		t.Errorf("search %q still finds it:\n%s", word, out)
	}
	if out := c.ok("export"); strings.Contains(strings.ToLower(out), word) {
		t.Errorf("export still holds %q", word)
	}
	cfg := config.Default(c.dir).Recall
	for _, proj := range []string{basicProject, edgeProject} {
		text, err := recall.Context(ctx, db, cfg, recall.Request{Project: proj, SessionID: "probe", Prompt: "what about " + word + "?", Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ToLower(text), word) {
			t.Errorf("recall injects %q into %s:\n%s", word, proj, text)
		}
	}
}

// commandsDir holds the plugin's slash commands.
const commandsDir = "../../commands"

// slashCommands maps each slash command to the CLI arguments its shell part must start with.
var slashCommands = map[string]string{
	"memory-search":  "search --args-from-prompt=text",
	"memory-show":    "show --args-from-prompt",
	"memory-history": "history --args-from-prompt",
	"memory-stats":   "stats --args-from-prompt",
	"memory-list":    "list --args-from-prompt",
	"memory-import":  "import --args-from-prompt",
	"memory-forget":  "forget --args-from-prompt",
	"memory-entries": "entries --args-from-prompt",
	"memory-tasks":   "tasks --args-from-prompt",
	// the user's corrections
	"memory-verify":    "verify --args-from-prompt",
	"memory-reject":    "reject --args-from-prompt",
	"memory-supersede": "supersede --args-from-prompt",
	"memory-edit":      "edit --args-from-prompt",
	"memory-pin":       "pin --args-from-prompt",
	"memory-unpin":     "unpin --args-from-prompt",
	// per-prompt injection for the session
	"memory-off": "injection off",
	"memory-on":  "injection on",
	// the project's glossary, created when missing
	"memory-glossary": "glossary init",
}

const cliPath = `"${CLAUDE_PLUGIN_ROOT}/bin/claude-memory-layer"`

type slashCommand struct {
	front map[string]string
	body  string
	shell string // the fenced ```! block, without its fences
}

// readSlashCommand parses a commands/*.md file: a frontmatter of "key: value"
// lines between --- lines (values may be quoted), then the body.
func readSlashCommand(t *testing.T, path string) slashCommand {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		t.Fatalf("%s: no frontmatter", path)
	}
	fm, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		t.Fatalf("%s: unterminated frontmatter", path)
	}
	c := slashCommand{front: map[string]string{}, body: body}
	for _, line := range strings.Split(fm, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(k) == "" || strings.HasPrefix(line, " ") {
			t.Fatalf("%s: frontmatter line %q is not key: value", path, line)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
			v = v[1 : len(v)-1]
		}
		c.front[strings.TrimSpace(k)] = v
	}
	if strings.Count(body, "```!\n") != 1 {
		t.Fatalf("%s: want exactly one ```! block", path)
	}
	_, after, _ := strings.Cut(body, "```!\n")
	shell, _, ok := strings.Cut(after, "\n```\n")
	if !ok {
		t.Fatalf("%s: unterminated ```! block", path)
	}
	c.shell = shell
	return c
}

func TestSlashCommands(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join(commandsDir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(slashCommands) {
		t.Errorf("commands/ holds %d files, want %d: %v", len(paths), len(slashCommands), paths)
	}
	inline := regexp.MustCompile("(^|\\s)!`")
	positional := regexp.MustCompile(`\$[0-9]|\$ARGUMENTS\[|\$\{?CLAUDE_SESSION_ID`)
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".md")
		t.Run(name, func(t *testing.T) {
			want, ok := slashCommands[name]
			if !ok {
				t.Fatalf("unexpected command file %s", path)
			}
			c := readSlashCommand(t, path)
			keys := []string{"description", "allowed-tools"}
			if strings.Contains(want, "--args-from-prompt") {
				keys = append(keys, "argument-hint")
			}
			for _, k := range keys {
				if c.front[k] == "" {
					t.Errorf("frontmatter has no %s", k)
				}
			}
			if got := c.front["allowed-tools"]; got != "Bash(${CLAUDE_PLUGIN_ROOT}/bin/claude-memory-layer:*)" {
				t.Errorf("allowed-tools = %q", got)
			}
			// Claude may not invoke these itself: their arguments are the user's.
			if c.front["disable-model-invocation"] != "true" {
				t.Errorf("disable-model-invocation = %q, want true", c.front["disable-model-invocation"])
			}
			// The shell part is one command, the CLI, and holds no user text:
			// Claude Code substitutes $ARGUMENTS into it as text, and no
			// quoting (a quoted heredoc included: an argument line equal to
			// its delimiter ends it) survives text chosen to break it. The CLI
			// takes the arguments the UserPromptSubmit hook saved.
			if c.shell != cliPath+" "+want {
				t.Errorf("shell part = %q, want %q", c.shell, cliPath+" "+want)
			}
			if n := strings.Count(c.body, "$ARGUMENTS"); n != 0 {
				t.Errorf("$ARGUMENTS appears %d times, want none", n)
			}
			if m := positional.FindString(c.body); m != "" {
				t.Errorf("body uses %q, which Claude Code substitutes textually", m)
			}
			if inline.MatchString(c.body) {
				t.Error("body has an inline !` command, which Claude Code runs")
			}
			if !strings.Contains(c.body, "${CLAUDE_PLUGIN_ROOT}/bin/claude-memory-layer") {
				t.Error("body does not name the plugin's CLI")
			}
			sub := strings.Fields(want)[0]
			if _, ok := commands()[sub]; !ok {
				t.Errorf("no CLI subcommand %q", sub)
			}
			if name == "memory-forget" && strings.Contains(c.shell, "--yes") {
				t.Error("memory-forget passes --yes")
			}
		})
	}
}

// TestSlashCommandShellIsLiteral runs memory-forget's shell part with bash,
// the way Claude Code does after substituting $ARGUMENTS, against the built
// CLI, with arguments that would be shell syntax anywhere but in the heredoc.
func TestSlashCommandShellIsLiteral(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	root := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(root, "bin", "claude-memory-layer"), ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	c := readSlashCommand(t, filepath.Join(commandsDir, "memory-forget.md"))
	marker := t.TempDir()
	data := t.TempDir()
	const sid = "35ef2068-8d1b-4eef-8ee9-014d49224857"
	// As in a session: the hook saves what was typed after the command, then
	// Claude Code runs the shell part with the session id in its environment.
	shell := func(args string) (string, string, int) {
		if err := cmdargs.Save(data, sid, args); err != nil {
			t.Fatal(err)
		}
		script := strings.ReplaceAll(c.shell, "${CLAUDE_PLUGIN_ROOT}", root)
		cmd := exec.Command(bash, "-c", script)
		cmd.Dir = marker
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + data, "CLAUDE_MEMORY_DIR=" + data, "CLAUDE_CODE_SESSION_ID=" + sid}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
	pwned := filepath.Join(marker, "pwned")
	tests := []struct {
		args, want string
	}{
		{`--match x"; touch ` + pwned + `-$RANDOM; echo "`, `text matching "x; touch ` + pwned + `-$RANDOM; echo"`},
		{`--match $(touch ` + pwned + `1) ` + "`touch " + pwned + "2`", `text matching "$(touch`},
		{`--match 'it''s "quoted"' ; touch ` + pwned + `3 && echo`, `text matching "its \"quoted\""`},
		// The attack on the quoted heredoc the commands used before.
		{"--match x\nCML_ARGS_7c1e94b2\ntouch " + pwned + "4\ncat <<'CML_ARGS_7c1e94b2'", `text matching "x CML_ARGS_7c1e94b2`},
	}
	for _, tt := range tests {
		out, errs, code := shell(tt.args)
		// Extra words after --match are refused as a memory id: exit 2 is fine,
		// what matters is that the shell ran nothing.
		if !strings.Contains(out+errs, tt.want) && code == 0 {
			t.Errorf("args %q: output lacks %q:\n%s%s", tt.args, tt.want, out, errs)
		}
		if code != 0 && !strings.Contains(errs, "claude-memory-layer forget") {
			t.Errorf("args %q: exit %d without a CLI message: %s", tt.args, code, errs)
		}
	}
	if left, _ := os.ReadDir(marker); len(left) > 0 {
		t.Errorf("the shell ran user text: %s was created", left[0].Name())
	}
	out, _, code := shell(`--match x"; touch ` + pwned + `-$RANDOM; echo "`)
	if code != 0 || !strings.Contains(out, `$RANDOM`) {
		t.Errorf("exit %d, output %q: want the literal $RANDOM back", code, out)
	}
	// A confirmation typed into the slash command is refused.
	_, errs, code := shell("mem:abcdef --yes")
	if code != exitUsage || !strings.Contains(errs, "--yes is not taken from a slash command's arguments") {
		t.Errorf("--yes through the slash command: exit %d, %q", code, errs)
	}
}

func TestExpandStdinArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args  []string
		stdin string
		want  []string
	}{
		{[]string{"--limit", "3"}, "ignored", []string{"--limit", "3"}},
		{[]string{"--args-stdin", "--json"}, "--session 'a b' \"c \\\"d\\\"\" e\\ f\n", []string{"--session", "a b", `c "d"`, "e f", "--json"}},
		{[]string{"--args-stdin"}, "\n", []string{}},
		{[]string{"--args-stdin=words"}, `x"; touch /tmp/p; echo "`, []string{"x; touch /tmp/p; echo "}},
		{[]string{"--args-stdin"}, `$(rm -rf /) ` + "`id`", []string{"$(rm", "-rf", "/)", "`id`"}},
		{[]string{"--args-stdin"}, `unterminated 'quote here`, []string{"unterminated", "quote here"}},
		{[]string{"--limit", "2", "--args-stdin=text"}, "  -why --json fails  \n", []string{"--limit", "2", "--", "-why --json fails"}},
		{[]string{"--args-stdin=text"}, "", []string{}},
		{[]string{"--", "--args-stdin"}, "x", []string{"--", "--args-stdin"}},
	}
	for _, tt := range tests {
		e := &env{stdin: strings.NewReader(tt.stdin)}
		got, _, err := expandStdinArgs(e, tt.args)
		if err != nil {
			t.Fatalf("expandStdinArgs(%q, %q): %v", tt.args, tt.stdin, err)
		}
		if strings.Join(got, "\x00") != strings.Join(tt.want, "\x00") {
			t.Errorf("expandStdinArgs(%q, %q) = %q, want %q", tt.args, tt.stdin, got, tt.want)
		}
	}
	if _, _, err := expandStdinArgs(&env{stdin: strings.NewReader("x")}, []string{"--args-stdin=lines"}); err == nil {
		t.Error("unknown --args-stdin mode accepted")
	}
	big := strings.Repeat("a ", maxStdinArgs)
	if _, _, err := expandStdinArgs(&env{stdin: strings.NewReader(big)}, []string{"--args-stdin"}); err == nil {
		t.Error("oversized stdin accepted")
	}
}

// TestForgetCompactionPending keeps a read transaction open on the store, as
// a hook in the middle of its work would: forget deletes, says compaction is
// pending and exits 1; forget --compact finishes the job once the reader is gone.
func TestForgetCompactionPending(t *testing.T) {
	t.Parallel()
	c, db := seeded(t)
	ctx := context.Background()
	reader, err := sql.Open("sqlite", "file:"+filepath.Join(c.dir, config.DBFile)+"?_pragma=busy_timeout(50)")
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	tx, err := reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	out, errs, code := c.run("forget", "--match", "morgan", "--yes")
	if code != exitError || !strings.Contains(errs, "compaction pending") || !strings.Contains(errs, "forget --compact") {
		t.Fatalf("forget with a reader: exit %d, stderr %q", code, errs)
	}
	if !strings.Contains(out, "Forgot text matching") || strings.Contains(out, "Store compacted") {
		t.Errorf("forget with a reader printed:\n%s", out)
	}
	// Deleted and unsearchable already.
	var hits int
	if err := db.SQL().QueryRowContext(ctx, `SELECT count(*) FROM events_fts WHERE events_fts MATCH 'morgan'`).Scan(&hits); err != nil || hits != 0 {
		t.Errorf("morgan still matches %d events (%v)", hits, err)
	}
	tx.Rollback()
	reader.Close()
	if out := c.ok("forget", "--compact"); !strings.Contains(out, "Store compacted") {
		t.Errorf("forget --compact: %q", out)
	}
	assertForgotten(t, c, db, "morgan")
}

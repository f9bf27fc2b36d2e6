package torture

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// secretLine is one line of internal/privacy/testdata/secrets.txt: the line
// with its « » marks removed, and the secret values they marked.
type secretLine struct {
	num     int
	text    string
	secrets []string
}

// readSecrets parses the privacy package's corpus (same format as its
// readCorpus: "# kind" headers, secrets between « and »).
func readSecrets(t *testing.T) []secretLine {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "internal", "privacy", "testdata", "secrets.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []secretLine
	sc := bufio.NewScanner(f)
	for num := 1; sc.Scan(); num++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		sl := secretLine{num: num}
		rest := strings.ReplaceAll(line, "⏎", "\n") // a line break inside one corpus line
		for {
			i := strings.Index(rest, "«")
			if i < 0 {
				sl.text += rest
				break
			}
			j := strings.Index(rest[i:], "»")
			if j < 0 {
				t.Fatalf("secrets.txt:%d: « without »", num)
			}
			sl.text += rest[:i]
			v := rest[i+len("«") : i+j]
			sl.text += v
			sl.secrets = append(sl.secrets, v)
			rest = rest[i+j+len("»"):]
		}
		if len(sl.secrets) == 0 {
			t.Fatalf("secrets.txt:%d: no «secret»", num)
		}
		out = append(out, sl)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// secretConversation makes one turn per corpus line; turn k carries line k in
// its prompt, k+1 in the intro, k+2 in the tool command, k+3 in the tool
// output and k+4 in the final answer, so every secret shows up in every field.
// Each line starts a line of its own, as in the corpus.
func secretConversation(id, tag, cwd string, lines []secretLine) *conversation {
	c := &conversation{ID: id, Cwd: cwd, start: time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)}
	n := len(lines)
	for k := range lines {
		l := func(d int) string { return lines[(k+d)%n].text }
		c.Turns = append(c.Turns, turn{
			PromptID:    fmt.Sprintf("%s-p%03d", tag, k),
			Prompt:      fmt.Sprintf("Remember that the staging deploy of %s needs this (step %d):\n%s", tag, k, l(0)),
			IntroMsgID:  fmt.Sprintf("msg_%s_%03dA", tag, k),
			Intro:       fmt.Sprintf("I'll check the config for step %d of %s:\n%s", k, tag, l(1)),
			ToolID:      fmt.Sprintf("toolu_%s_%03d", tag, k),
			Command:     l(2),
			ToolOutput:  fmt.Sprintf("config dump for step %d:\n%s\nexit 0", k, l(3)),
			AnswerMsgID: fmt.Sprintf("msg_%s_%03dB", tag, k),
			Answer:      fmt.Sprintf("Noted for step %d of %s. Decision: we will keep this in the vault, not in git:\n%s", k, tag, l(4)),
			uPrompt:     fmt.Sprintf("%s-u%03d-1", tag, k), uIntro: fmt.Sprintf("%s-u%03d-2", tag, k), uTool: fmt.Sprintf("%s-u%03d-3", tag, k),
			uResult: fmt.Sprintf("%s-u%03d-4", tag, k), uAnswer: fmt.Sprintf("%s-u%03d-5", tag, k),
		})
	}
	return c
}

// withoutSecrets is the line with its secret values taken out.
func withoutSecrets(l secretLine) string {
	s := l.text
	for _, v := range l.secrets {
		s = strings.ReplaceAll(s, v, " ")
	}
	return s
}

// forms are the ways a value can appear in a file: as is, JSON-escaped,
// Go-quoted (slog's text handler), each without the surrounding quotes.
func forms(v string) []string {
	out := []string{v}
	j, _ := json.Marshal(v)
	q := strconv.Quote(v)
	for _, f := range []string{string(j[1 : len(j)-1]), q[1 : len(q)-1]} {
		if f != v {
			out = append(out, f)
		}
	}
	return out
}

// TestSecretsNeverStored sends every secret of the privacy corpus through
// every ingest path (prompts, tool outputs and inputs, Stop's answer,
// transcript rows read by Stop/SessionEnd and by import) and checks that no
// value reaches the store's files, the log, the CLI's output or the context
// injected into later prompts.
func TestSecretsNeverStored(t *testing.T) {
	need(t)
	began := time.Now()
	lines := readSecrets(t)
	var values []string
	seen := map[string]bool{}
	for _, l := range lines {
		for _, v := range l.secrets {
			if !seen[v] {
				seen[v] = true
				values = append(values, v)
			}
		}
	}
	t.Logf("%d corpus lines, %d distinct secret values", len(lines), len(values))
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	os.MkdirAll(proj, 0o755)
	data := newDataDir(t)

	fire := func(event string, in []byte) result {
		r := run(proc{bin: hookBin(event), dataDir: data, stdin: in})
		if p := hookProblem(r, event); p != "" {
			t.Errorf("%s: %s", event, p)
		}
		return r
	}
	var outputs []string // every stdout and stderr, to be checked too
	keep := func(what string, r result) {
		outputs = append(outputs, what+" stdout:\n"+r.stdout, what+" stderr:\n"+r.stderr)
	}

	// 1. A session seen by every hook, with its transcript growing turn by turn.
	hooked := secretConversation("secrets-hooked", "hooked", proj, lines)
	tpH := filepath.Join(root, "hooked.jsonl")
	f, err := os.Create(tpH)
	if err != nil {
		t.Fatal(err)
	}
	keep("SessionStart", fire("SessionStart", hooked.startInput(tpH)))
	// Hold a read transaction from here on: no checkpoint can reset the WAL
	// past it, so memory.db-wal keeps every page written after this point
	// and the raw check below sees every intermediate state, not just the last.
	release := holdSnapshot(t, dbPath(data))
	for i := range hooked.Turns {
		keep("UserPromptSubmit", fire("UserPromptSubmit", hooked.promptInput(tpH, i)))
		f.Write(hooked.promptRows(i))
		f.Write(hooked.toolRows(i))
		keep("PostToolUse", fire("PostToolUse", hooked.toolInput(tpH, i)))
		f.Write(hooked.answerRows(i))
		keep("Stop", fire("Stop", hooked.stopInput(tpH, i)))
	}
	f.Close()
	keep("SessionEnd", fire("SessionEnd", hooked.endInput(tpH)))

	// 2. A session known only from its transcript, read by Stop and SessionEnd;
	// Stop's last_assistant_message differs from the transcript's answer.
	rows := secretConversation("secrets-transcript", "rows", proj, lines)
	tpR := filepath.Join(root, "rows.jsonl")
	rows.write(t, tpR)
	keep("SessionStart", fire("SessionStart", rows.startInput(tpR)))
	stop := hookInput("Stop", rows.ID, tpR, proj, map[string]any{"prompt_id": "last", "stop_hook_active": false,
		"last_assistant_message": "All set; the credentials are:\n" + lines[len(lines)/2].text})
	keep("Stop", fire("Stop", stop))
	keep("SessionEnd", fire("SessionEnd", rows.endInput(tpR)))

	// 3. A transcript brought in by import.
	imp := secretConversation("secrets-import", "import", proj, lines)
	tpI := filepath.Join(root, "import.jsonl")
	imp.write(t, tpI)
	ri := run(proc{bin: "claude-memory-layer", args: []string{"import", "--transcript", tpI, "--json"}, dataDir: data})
	if ri.code != 0 || !strings.Contains(ri.stdout, `"sessions_failed": 0`) {
		t.Errorf("import: exit %d %s %s", ri.code, ri.stdout, ri.stderr)
	}
	keep("import", ri)

	// Processing done: no worker left, every session summarised.
	waitWorkers(t, data, 2*time.Minute)
	ok, why := poll(2*time.Minute, 50*time.Millisecond, func() (bool, string) {
		db := openRO(t, dbPath(data))
		defer db.Close()
		n := queryInt(t, db, `SELECT count(*) FROM sessions WHERE summary = ''`)
		return n == 0 && len(workers(data)) == 0, fmt.Sprintf("%d sessions not processed", n)
	})
	if !ok {
		t.Errorf("processing: %s", why)
	}

	// 4. Later prompts that should recall those memories.
	recallC := &conversation{ID: "secrets-recall", Cwd: proj}
	tpRC := filepath.Join(root, "recall.jsonl")
	keep("SessionStart(recall)", fire("SessionStart", recallC.startInput(tpRC)))
	injected := 0
	var contexts []string
	for k, l := range lines {
		hint := withoutSecrets(l)
		in := hookInput("UserPromptSubmit", recallC.ID, tpRC, proj, map[string]any{"prompt_id": fmt.Sprintf("recall-%03d", k),
			"prompt": fmt.Sprintf("What does the staging deploy need for step %d? Something like %s", k, hint)})
		r := fire("UserPromptSubmit", in)
		keep("UserPromptSubmit(recall)", r)
		if c := gjson.Get(r.stdout, "hookSpecificOutput.additionalContext").String(); c != "" {
			injected++
			contexts = append(contexts, c)
		}
	}
	t.Logf("%d of %d recall prompts got memories injected", injected, len(lines))
	if injected == 0 {
		t.Errorf("no recall prompt got any memory: the injected-context check checked nothing")
	}

	// 5. What the CLI shows.
	cli := func(args ...string) string {
		r := run(proc{bin: "claude-memory-layer", args: args, dataDir: data})
		if r.code != 0 {
			t.Errorf("%v: exit %d: %s", args, r.code, clip(r.stderr, 300))
		}
		keep(args[0], r)
		return r.stdout
	}
	export := cli("export")
	entries := cli("entries", "--json", "--all-projects", "--limit", "100000")
	if n := len(gjson.Get(entries, "entries").Array()); n == 0 {
		t.Errorf("entries --json listed nothing")
	} else {
		t.Logf("entries --json lists %d entries", n)
	}
	history := cli("history", "--json", "--all-projects", "--limit", "100000")
	var searches []string
	for _, q := range []string{"staging deploy", "vault", "password", "token", "secret", "key", "Bearer", "AWS", "config dump", "export"} {
		searches = append(searches, cli("search", q, "--json", "--all-projects", "--limit", "100"))
	}
	for _, l := range lines[:20] {
		searches = append(searches, cli("search", withoutSecrets(l), "--json", "--all-projects", "--limit", "100"))
	}

	// The store's files, read raw while nothing holds them.
	artifacts := map[string][]byte{}
	for _, name := range []string{"memory.db", "memory.db-wal", "memory.db-shm", "claude-memory-layer.log", "claude-memory-layer.log.1"} {
		if b, err := os.ReadFile(filepath.Join(data, name)); err == nil {
			artifacts[name] = b
		}
	}
	release()
	// And the database file once everything is checkpointed into it.
	if b, err := checkpointed(dbPath(data)); err != nil {
		t.Errorf("checkpoint: %v", err)
	} else {
		artifacts["memory.db (checkpointed)"] = b
	}
	artifacts["export"] = []byte(export)
	artifacts["entries --json"] = []byte(entries)
	artifacts["history --json"] = []byte(history)
	artifacts["search --json"] = []byte(strings.Join(searches, "\n"))
	artifacts["injected context"] = []byte(strings.Join(contexts, "\n"))
	artifacts["hook and CLI stdout/stderr"] = []byte(strings.Join(outputs, "\n"))
	sizes := map[string]int{}
	leaks := 0
	for name, b := range artifacts {
		sizes[name] = len(b)
		for _, v := range values {
			for _, form := range forms(v) {
				if bytes.Contains(b, []byte(form)) {
					leaks++
					i := bytes.Index(b, []byte(form))
					t.Errorf("%s contains secret %q: …%q…", name, v, b[max(0, i-80):min(len(b), i+len(form)+40)])
					break
				}
			}
		}
	}
	if artifacts["memory.db"] == nil {
		t.Errorf("no memory.db")
	}
	t.Logf("checked %d secret values (%d forms each at most) in %v; %d leaks", len(values), 3, sizes, leaks)
	t.Logf("total %v", time.Since(began).Round(time.Millisecond))
}

// holdSnapshot opens a read transaction on the store and keeps it until the
// returned func is called.
func holdSnapshot(t *testing.T, path string) func() {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var n int
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM events").Scan(&n); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release := func() {
		once.Do(func() {
			conn.ExecContext(ctx, "ROLLBACK")
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// checkpointed moves the WAL into the database file and returns the file.
func checkpointed(path string) ([]byte, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// TestSecretsCutAtMaxText: a prompt longer than the capture cap is cut
// before it is filtered. A secret that straddles the cut must not leave its
// first part behind.
func TestSecretsCutAtMaxText(t *testing.T) {
	need(t)
	const maxText = 256 << 10 // internal/capture.MaxText
	lines := readSecrets(t)
	data := newDataDir(t)
	var leaked []string
	checked := 0
	for k, l := range lines {
		v := l.secrets[0]
		if len(v) < 16 {
			continue
		}
		checked++
		i := strings.Index(l.text, v)
		// Fill so that the cut falls in the middle of the value.
		pad := maxText - i - len(v)/2
		filler := strings.Repeat("lorem ipsum dolor sit amet\n", pad/27+1)[:pad-1] + "\n"
		prompt := filler + l.text + "\nthe end"
		in := hookInput("UserPromptSubmit", "cut", "", "/proj/cut", map[string]any{"prompt_id": fmt.Sprintf("cut-%03d", k), "prompt": prompt})
		if p := hookProblem(run(proc{bin: "user-prompt-submit", dataDir: data, stdin: in}), "UserPromptSubmit"); p != "" {
			t.Errorf("line %d: %s", l.num, p)
		}
		// The prompt hook spools the prompt; the turn's Stop stores it.
		stop := hookInput("Stop", "cut", "", "/proj/cut", map[string]any{"last_assistant_message": fmt.Sprintf("noted %d", k)})
		if p := hookProblem(run(proc{bin: "stop", dataDir: data, stdin: stop}), "Stop"); p != "" {
			t.Errorf("line %d: %s", l.num, p)
		}
		db := openRO(t, dbPath(data))
		var text string
		if err := db.QueryRow(`SELECT text FROM events WHERE dedupe_key = ?`, "prompt:cut:"+fmt.Sprintf("cut-%03d", k)).Scan(&text); err != nil {
			t.Fatalf("line %d: %v", l.num, err)
		}
		db.Close()
		head := v[:len(v)/2]
		if strings.Contains(text, v) {
			leaked = append(leaked, fmt.Sprintf("secrets.txt:%d whole value %q", l.num, v))
		} else if strings.Contains(text, head) {
			leaked = append(leaked, fmt.Sprintf("secrets.txt:%d first half %q of %q (stored tail %q)", l.num, head, v, text[max(0, len(text)-60):]))
		}
	}
	t.Logf("checked %d secret values of 16 bytes or more, cut in the middle at %d bytes", checked, maxText)
	if len(leaked) > 0 {
		t.Errorf("a secret that straddles the MaxText cut has its first half stored: %d of %d values, e.g.\n  %s", len(leaked), checked, strings.Join(leaked[:min(len(leaked), 8)], "\n  "))
	}
}

// TestSecretsMalformedHookInput: a hook input that is not valid JSON is
// logged with its first 120 bytes; a prompt in them must not carry its
// secrets into the log.
func TestSecretsMalformedHookInput(t *testing.T) {
	need(t)
	lines := readSecrets(t)
	data := newDataDir(t)
	for k, l := range lines {
		// A truncated input whose prompt comes first (key order is not fixed).
		in := `{"prompt":` + strconv.Quote(l.text) + `,"session_id":"bad","hook_event_name":"UserPromptSubmit","prompt_id":"` + fmt.Sprint(k)
		if p := hookProblem(run(proc{bin: "user-prompt-submit", dataDir: data, stdin: []byte(in)}), "UserPromptSubmit"); p != "" {
			t.Errorf("line %d: %s", l.num, p)
		}
	}
	log, _ := os.ReadFile(logPath(data))
	if !bytes.Contains(log, []byte("level=ERROR")) {
		t.Errorf("malformed input not logged")
	}
	var leaked []string
	for _, l := range lines {
		for _, v := range l.secrets {
			for _, form := range forms(v) {
				if bytes.Contains(log, []byte(form)) {
					leaked = append(leaked, fmt.Sprintf("secrets.txt:%d %q", l.num, v))
					break
				}
			}
		}
	}
	t.Logf("%d malformed inputs, %d secret values checked in the log", len(lines), len(lines))
	if len(leaked) > 0 {
		t.Errorf("secrets in undecodable hook input reach the log: %d of %d values, e.g. %s", len(leaked), len(lines), strings.Join(leaked[:min(len(leaked), 5)], ", "))
	}
}

package e2e

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/fakeapi"
)

// claudeBin is the real Claude Code CLI the tests drive: $CML_CLAUDE, which
// scripts/e2e.sh sets to what scripts/setup-claude.sh installed. A missing
// CLI fails the test: it is never skipped quietly.
func claudeBin(t *testing.T) string {
	t.Helper()
	if os.Getenv("CML_E2E") == "" {
		t.Skip("set CML_E2E=1 (scripts/e2e.sh does) to run the real-client tests")
	}
	bin := os.Getenv("CML_CLAUDE")
	if bin == "" {
		t.Fatal("CML_CLAUDE is not set: run the tests through scripts/e2e.sh, which installs Claude Code with scripts/setup-claude.sh")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("the Claude Code CLI: %v (run scripts/setup-claude.sh)", err)
	}
	return bin
}

// sessionRun is one run of the real CLI: one session, one user turn per
// prompt, the plugin and the capture plugin loaded, the model played by
// fakeapi on a loopback port. A run leaves in dir:
//
//	home/                 HOME for claude; the transcript is under home/.claude/projects/
//	hooks/<Event>-<n>.json  what the capture plugin saw (stdin; .env; .transcript.jsonl)
//	api-requests.jsonl    every request fakeapi got (fakeapi.Record per line)
//	stream.jsonl | turn-<n>.json  claude's stdout (stream mode | resume mode)
//	claude.stderr, debug.log, session_id, session_ids, transcripts/<id>.jsonl
//
// Running again on the same dir starts a new session with the same HOME.
type sessionRun struct {
	claude  string
	plugin  string // "" loads only the capture plugin
	dir     string
	project string // the session's working directory; default dir/project
	// env is added to claude's environment (and so the hooks'), except the
	// knobs, named CLAUDE_REAL_<knob> as in the shared harness and read from
	// the test's environment too: MODE (stream, or resume: one claude -p per
	// prompt, --session-id then --resume), MODEL, SETTINGS, ARGS
	// (space-separated), TIMEOUT (seconds, default 180), MARKER, NO_CAPTURE=1,
	// PERMISSIONS (bypass, the default, or default).
	env []string
	// beforePrompt, when set, runs before each prompt after the first (i
	// counts from 0) in stream mode: a test waits there for background
	// work of the turn before. Its error ends the session.
	beforePrompt func(i int) error
}

// knob reads CLAUDE_REAL_<name> from the run's env, then the test's.
func (r *sessionRun) knob(name string) string {
	for i := len(r.env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(r.env[i], "CLAUDE_REAL_"+name+"="); ok {
			return v
		}
	}
	return os.Getenv("CLAUDE_REAL_" + name)
}

func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// run runs the session and returns its id. Claude's own failures come back
// as an error with its stderr's tail.
func (r *sessionRun) run(prompts ...string) (string, error) {
	if len(prompts) == 0 {
		return "", fmt.Errorf("no prompt")
	}
	home, hooks := filepath.Join(r.dir, "home"), filepath.Join(r.dir, "hooks")
	project := r.project
	if project == "" {
		project = filepath.Join(r.dir, "project")
	}
	for _, d := range []string{home, hooks, filepath.Join(r.dir, "transcripts"), project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
	}
	apiLog, err := os.OpenFile(filepath.Join(r.dir, "api-requests.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return "", err
	}
	defer apiLog.Close()
	api := httptest.NewServer(&fakeapi.Server{Log: apiLog, Marker: r.knob("MARKER")})
	defer api.Close()

	// A clean environment, so that nothing of a surrounding Claude Code
	// session (CLAUDECODE, a real API key) leaks in.
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"ANTHROPIC_BASE_URL=" + api.URL,
		"ANTHROPIC_API_KEY=sk-ant-fake-key",
		"DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1",
		// Without it the CLI also calls hosts on the internet.
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CML_CAPTURE_DIR=" + hooks,
	}
	for _, k := range []string{"USER", "SHELL", "TMPDIR", "TZ", "GOCOVERDIR", "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	for _, kv := range r.env {
		if !strings.HasPrefix(kv, "CLAUDE_REAL_") {
			env = append(env, kv)
		}
	}

	var args []string
	if r.knob("NO_CAPTURE") != "1" {
		capture, err := filepath.Abs(filepath.Join("testdata", "capture-plugin"))
		if err != nil {
			return "", err
		}
		args = append(args, "--plugin-dir", capture)
	}
	if r.plugin != "" {
		args = append(args, "--plugin-dir", r.plugin)
	}
	switch p := r.knob("PERMISSIONS"); p {
	case "", "bypass":
		// As root the CLI refuses to skip permissions outside a sandbox.
		args = append(args, "--dangerously-skip-permissions")
		env = append(env, "IS_SANDBOX=1")
	case "default":
	default:
		return "", fmt.Errorf("CLAUDE_REAL_PERMISSIONS=%s: want bypass or default", p)
	}
	if m := r.knob("MODEL"); m != "" {
		args = append(args, "--model", m)
	}
	if s := r.knob("SETTINGS"); s != "" {
		args = append(args, "--settings", s)
	}
	args = append(args, "--debug-file", filepath.Join(r.dir, "debug.log"))
	args = append(args, strings.Fields(r.knob("ARGS"))...)

	timeout := 180 * time.Second
	if s := r.knob("TIMEOUT"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return "", fmt.Errorf("CLAUDE_REAL_TIMEOUT=%s: %v", s, err)
		}
		timeout = time.Duration(n) * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()

	sid := newUUID()
	if err := os.WriteFile(filepath.Join(r.dir, "session_id"), []byte(sid+"\n"), 0o644); err != nil {
		return "", err
	}
	if err := appendFile(filepath.Join(r.dir, "session_ids"), sid+"\n"); err != nil {
		return "", err
	}
	stderr, err := os.OpenFile(filepath.Join(r.dir, "claude.stderr"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return "", err
	}
	defer stderr.Close()

	switch mode := r.knob("MODE"); mode {
	case "", "stream":
		err = r.stream(ctx, env, project, stderr, append([]string{"-p", "--input-format", "stream-json", "--output-format", "stream-json",
			"--verbose", "--session-id", sid}, args...), prompts)
	case "resume":
		for i, p := range prompts {
			sess := []string{"--session-id", sid}
			if i > 0 {
				sess = []string{"--resume", sid}
			}
			cmd := exec.CommandContext(ctx, r.claude, append(append([]string{"-p", "--output-format", "json"}, sess...), args...)...)
			cmd.Dir, cmd.Env, cmd.Stdin, cmd.Stderr = project, env, strings.NewReader(p), stderr
			var out []byte
			if out, err = cmd.Output(); err == nil {
				err = os.WriteFile(filepath.Join(r.dir, fmt.Sprintf("turn-%d.json", i+1)), out, 0o644)
			}
			if err != nil {
				break
			}
		}
	default:
		return sid, fmt.Errorf("CLAUDE_REAL_MODE=%s: want stream or resume", mode)
	}

	transcripts, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", sid+".jsonl"))
	for _, t := range transcripts {
		if b, err := os.ReadFile(t); err == nil {
			os.WriteFile(filepath.Join(r.dir, "transcripts", sid+".jsonl"), b, 0o644)
		}
	}
	if err != nil {
		tail, _ := os.ReadFile(filepath.Join(r.dir, "claude.stderr"))
		return sid, fmt.Errorf("claude: %w\n%s", err, tail[max(0, len(tail)-2000):])
	}
	return sid, nil
}

// stream runs one claude process and feeds it the prompts as stream-json
// user messages, each after the previous turn's result line.
func (r *sessionRun) stream(ctx context.Context, env []string, project string, stderr io.Writer, args, prompts []string) error {
	cmd := exec.CommandContext(ctx, r.claude, args...)
	cmd.Dir, cmd.Env, cmd.Stderr = project, env, stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(filepath.Join(r.dir, "stream.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	if err := cmd.Start(); err != nil {
		return err
	}
	send := func(p string) error {
		msg, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": p}})
		_, err := stdin.Write(append(msg, '\n'))
		return err
	}
	next := 0
	var gateErr error
	sendNext := func() {
		if next > 0 && next < len(prompts) && r.beforePrompt != nil && gateErr == nil {
			gateErr = r.beforePrompt(next)
		}
		if next < len(prompts) && gateErr == nil {
			send(prompts[next])
			next++
		} else {
			stdin.Close()
		}
	}
	sendNext()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		out.Write(append(sc.Bytes(), '\n'))
		var line struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Type == "result" {
			sendNext()
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		return err
	}
	if gateErr != nil {
		return gateErr
	}
	if next < len(prompts) {
		return fmt.Errorf("claude ended after %d of %d prompts", next, len(prompts))
	}
	return nil
}

func appendFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(s)
	return err
}

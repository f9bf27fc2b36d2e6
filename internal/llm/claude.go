package llm

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
)

// Claude extracts entries with the user's own Claude Code login, running
// `claude -p` headless: one turn, no tools, no hooks, plugins, MCP servers or
// CLAUDE.md, no saved session, in a fresh temporary working directory. See args and
// childEnv for what each setting isolates; checked against Claude Code
// 2.1.330.
type Claude struct {
	Bin    string // the claude executable
	Model  string // passed as --model when set; "" keeps the user's default model
	Limits Limits
	// Env is the child's base environment, normally os.Environ(): the login
	// and provider settings (HOME, CLAUDE_CONFIG_DIR, ANTHROPIC_*, proxies)
	// must reach it. childEnv removes a surrounding Claude Code session's
	// variables and adds the isolation ones.
	Env []string
	// TempDir is where the run's working directory is created; "" means
	// os.TempDir().
	TempDir string
	Log     *slog.Logger // nil: discard
}

// NewClaude configures the backend from c. env is the child's base
// environment (normally os.Environ()). It returns an error when c.ClaudeBin
// is not an executable found on PATH.
func NewClaude(c config.LLM, env []string, log *slog.Logger) (*Claude, error) {
	bin := c.ClaudeBin
	if bin == "" {
		bin = "claude"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("claude: %w", err)
	}
	return &Claude{Bin: path, Model: c.Model, Limits: LimitsFrom(c), Env: env, Log: log}, nil
}

// Name implements the pipeline's Extractor.
func (c *Claude) Name() string { return "claude" }

// Extract runs one headless turn and parses its result. It returns
// ErrCostCap without running anything when the prompt would be too large,
// context.DeadlineExceeded (wrapped) after Limits.Timeout, a *ClaudeError
// when the CLI exits non-zero or reports an error, and for the result text
// the errors of Parse and ErrNoValidEntry.
func (c *Claude) Extract(ctx context.Context, msgs []extract.Message) ([]extract.Entry, error) {
	return extractWith(ctx, "claude", c.Log, c.Limits, msgs, c.run)
}

// Ask runs one headless turn with its own system prompt and returns its
// result text. Its errors are those of Extract, less the entries' own.
func (c *Claude) Ask(ctx context.Context, system, prompt string) (string, error) {
	return askWith(ctx, "claude", c.Limits, system, prompt, c.run)
}

// ClaudeError is returned when the claude CLI exits non-zero or its result
// envelope says is_error.
type ClaudeError struct {
	ExitCode  int    // -1 when it did not exit normally
	Subtype   string // the envelope's subtype, when there was one
	APIStatus int    // the envelope's api_error_status, 0 when absent
	Detail    string // an excerpt of the result or of stderr
}

func (e *ClaudeError) Error() string {
	s := fmt.Sprintf("claude -p exited %d", e.ExitCode)
	if e.Subtype != "" {
		s += " (" + e.Subtype + ")"
	}
	if e.APIStatus != 0 {
		s += fmt.Sprintf(", api status %d", e.APIStatus)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// envelope is the single object `claude -p --output-format json` prints.
type envelope struct {
	Type           string          `json:"type"`
	Subtype        string          `json:"subtype"`
	IsError        bool            `json:"is_error"`
	Result         *string         `json:"result"` // absent on some errors (error_max_turns)
	Errors         []string        `json:"errors"`
	SessionID      string          `json:"session_id"`
	APIErrorStatus *int            `json:"api_error_status"`
	Usage          *anthropicUsage `json:"usage"`
	TotalCostUSD   float64         `json:"total_cost_usd"`
}

// run executes the CLI with text on stdin and returns the result text.
func (c *Claude) run(ctx context.Context, system, text string, l Limits) (string, error) {
	dir, err := os.MkdirTemp(c.TempDir, "cml-extract-")
	if err != nil {
		return "", fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(dir)
	// The CLI names the project after its real working directory (getcwd
	// resolves symlinks such as macOS's /var -> /private/var); cleanup must
	// use the same path.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	sid := newSessionID()
	env := childEnv(c.Env, l.MaxOutputTok)
	cmd := exec.CommandContext(ctx, c.Bin, c.args(sid, system)...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader(text)
	stdout := &capped{max: maxResponseBytes}
	stderr := &capped{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// If a grandchild keeps the pipes open after the CLI is killed, stop
	// waiting for it.
	cmd.WaitDelay = 2 * time.Second
	runErr := cmd.Run()

	var env0 envelope
	envErr := decodeEnvelope(stdout.buf.Bytes(), &env0)
	c.cleanup(env, dir, sid, env0.SessionID)
	if envErr == nil && (env0.Usage != nil || env0.TotalCostUSD > 0) {
		var u anthropicUsage
		if env0.Usage != nil {
			u = *env0.Usage
		}
		spend.Report(ctx, u.usage(env0.TotalCostUSD))
	}

	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("run %s: %w", filepath.Base(c.Bin), err)
	}
	if stdout.over {
		return "", fmt.Errorf("%w: claude output over %d bytes", ErrTooLarge, maxResponseBytes)
	}
	code := 0
	if runErr != nil {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return "", fmt.Errorf("run %s: %w", c.Bin, runErr) // did not start
		}
		code = ee.ExitCode()
	}
	if envErr != nil {
		if code != 0 {
			return "", &ClaudeError{ExitCode: code, Detail: excerpt(stderr.buf.String(), "")}
		}
		return "", envErr
	}
	if env0.IsError || code != 0 {
		e := &ClaudeError{ExitCode: code, Subtype: env0.Subtype, Detail: excerpt(deref(env0.Result)+" "+strings.Join(env0.Errors, "; "), "")}
		if env0.APIErrorStatus != nil {
			e.APIStatus = *env0.APIErrorStatus
		}
		if e.Detail == "" {
			e.Detail = excerpt(stderr.buf.String(), "")
		}
		return "", e
	}
	return *env0.Result, nil
}

// args are the CLI arguments of one extraction turn. Every flag below was
// checked against Claude Code 2.1.330 (`claude --help`, the option table in
// the binary, and runs against the harness's fake API with a settings hook,
// a --plugin-dir plugin's hooks and a user MCP server in place, each flag
// removed in turn):
//
//   - -p: print mode, one non-interactive turn; the prompt is read from
//     stdin, so it never shows in the process list.
//   - --output-format json: print one {"type":"result","result":…,
//     "is_error":…,"session_id":…} object.
//   - --tools "": "Built-in tools to make available: "" for none". The
//     request then carries "tools":[]; without it twelve tools (Bash, Edit,
//     Read, Write, Agent, …) are offered.
//   - --max-turns 1: hidden option "Stop after this many turns (only works
//     with --print)". At most one model request: with tools enabled on
//     purpose, a tool_use reply ended the run with subtype error_max_turns
//     (exit 1) and no second request was sent.
//   - --no-session-persistence: "Don't save sessions to disk; they can't be
//     resumed (only works with --print)". No transcript is written, so the
//     run never appears in `claude --resume`; without it
//     ~/.claude/projects/<slug>/<session>.jsonl appears. cleanup still looks
//     for one, in case a CLI version ignores the flag.
//   - --session-id: a UUID chosen here, so cleanup knows the transcript's
//     name even when the run is killed before printing its envelope.
//   - --strict-mcp-config: "Only use MCP servers from --mcp-config, ignoring
//     all other MCP configurations"; with no --mcp-config none is started
//     (without it a user's MCP server was spawned and its tools could be
//     offered, as --tools only covers built-in tools).
//   - --disable-slash-commands: "Disable all skills and commands", so
//     neither a skill listing nor a prompt starting with "/" changes the
//     turn.
//   - --safe-mode: "Start with all customizations (CLAUDE.md, skills,
//     installed plugins, hooks, MCP servers, custom commands and agents,
//     output styles, …) disabled … Auth, model selection, built-in tools and
//     plugins, and permissions work normally." Alone it stopped the
//     settings hook, the plugin's hooks and the MCP server, and kept
//     ~/.claude/CLAUDE.md out of the request. The narrower flags around it
//     stay as a second guard in case its scope changes.
//   - --settings {"disableAllHooks":true}: the settings key "Disable all
//     hooks and statusLine execution: the hooks defined in settings files
//     and by installed plugins" (present in the binary's settings schema).
//     Without it both a ~/.claude/settings.json hook and a plugin's hooks
//     ran. CLAUDE_MEMORY_DISABLE=1 (childEnv) makes our own hooks no-ops as
//     a second guard, so extraction can never recurse.
//   - --system-prompt: replaces the coding-agent system prompt with the
//     extractor's (or an Ask caller's) (the CLI still prepends its short SDK preamble).
//   - --model: only when configured; otherwise the user's default model.
//
// Not isolated: the CLI still reads the user's settings and credentials (it
// must, to log in; --bare would skip hooks too but reads only
// ANTHROPIC_API_KEY, never the OAuth login), rewrites ~/.claude.json (plugin usage counters; a
// backup under ~/.claude/backups) without adding a project entry, and leaves
// $TMPDIR/claude-<uid>/fswatch-probe-*/ and $TMPDIR/cc-socks/ behind, as any
// run does. With these flags it writes nothing under ~/.claude/projects.
func (c *Claude) args(sessionID, system string) []string {
	a := []string{
		"-p",
		"--output-format", "json",
		"--tools", "", // variadic: must be followed by another option, as here
		"--max-turns", "1",
		"--no-session-persistence",
		"--session-id", sessionID,
		"--strict-mcp-config",
		"--disable-slash-commands",
		"--safe-mode",
		"--settings", `{"disableAllHooks":true}`,
		"--system-prompt", system,
	}
	if c.Model != "" {
		a = append(a, "--model", c.Model)
	}
	return a
}

// childEnv is the environment of the CLI: base without the variables of a
// surrounding Claude Code session (see isSessionVar), plus
//
//   - CLAUDE_MEMORY_DISABLE=1: this plugin's hooks do nothing if any still
//     run, so extraction cannot recurse into capture or extraction;
//   - CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1: no telemetry, error
//     reporting or update checks, and no HEAD /api/hello; the only request
//     left is POST /v1/messages (checked against the fake API);
//   - CLAUDE_CODE_MAX_OUTPUT_TOKENS: the request's max_tokens (the CLI has
//     no flag for it).
func childEnv(base []string, maxOutputTok int) []string {
	add := []string{
		"CLAUDE_MEMORY_DISABLE=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_MAX_OUTPUT_TOKENS=" + strconv.Itoa(maxOutputTok),
	}
	env := make([]string, 0, len(base)+len(add))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case isSessionVar(k), k == "CLAUDE_MEMORY_DISABLE", k == "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", k == "CLAUDE_CODE_MAX_OUTPUT_TOKENS":
			continue
		}
		env = append(env, kv)
	}
	return append(env, add...)
}

// isSessionVar reports whether k describes a surrounding Claude Code session
// (the worker may be started from a hook). Those belong to that session, not
// to the extraction turn, so the child does not inherit them; CLAUDECODE, for
// one, switches the 2.1.330 CLI into child-session behaviour.
func isSessionVar(k string) bool {
	switch k {
	case "CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_SSE_PORT",
		"CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "CLAUDE_ENV_FILE":
		return true
	}
	return false
}

// decodeEnvelope reads the CLI's stdout: one JSON object of type "result"
// with a string result unless it is an error.
func decodeEnvelope(out []byte, env *envelope) error {
	out = bytes.TrimSpace(out)
	if err := json.Unmarshal(out, env); err != nil {
		return fmt.Errorf("%w: claude output is not a result object: %v", ErrMalformed, err)
	}
	if env.Type != "result" || (env.Result == nil && !env.IsError) {
		return fmt.Errorf("%w: claude output of type %q has no result", ErrMalformed, excerpt(env.Type, ""))
	}
	return nil
}

// cleanup removes what the run may have left under the Claude config
// directory for its working directory: the transcript <sid>.jsonl and the
// <sid>/ directory (subagent transcripts, tool results) of either session
// id, then the project directory and its memory/ directory if they are
// empty. The project directory is named after dir, a fresh temporary
// directory, so nothing of the user's is touched. With
// --no-session-persistence there is normally nothing to remove. Failures
// are logged: the extraction itself succeeded.
func (c *Claude) cleanup(env []string, dir string, sids ...string) {
	log := logger(c.Log)
	root := configDir(env)
	if root == "" {
		return
	}
	for _, pd := range transcript.SessionDirs(filepath.Join(root, "projects"), dir) {
		for _, sid := range sids {
			if sid == "" || strings.ContainsAny(sid, `/\`) || strings.Contains(sid, "..") {
				continue
			}
			if err := os.Remove(filepath.Join(pd, sid+".jsonl")); err == nil {
				log.Info("removed the extraction run's transcript", "path", filepath.Join(pd, sid+".jsonl"))
			} else if !errors.Is(err, os.ErrNotExist) {
				log.Warn("remove the extraction run's transcript", "err", err)
			}
			if err := os.RemoveAll(filepath.Join(pd, sid)); err != nil {
				log.Warn("remove the extraction run's session directory", "err", err)
			}
		}
		// Remove fails on a non-empty directory, which is what we want.
		_ = os.Remove(filepath.Join(pd, "memory"))
		_ = os.Remove(pd)
	}
}

// configDir is the CLI's config directory in env: $CLAUDE_CONFIG_DIR, else
// .claude in the home directory (config.ClaudeDir), or "" when env names none.
func configDir(env []string) string {
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	dir, err := config.ClaudeDir(func(k string) string { return vars[k] })
	if err != nil {
		return ""
	}
	return dir
}

// newSessionID returns a random version 4 UUID.
func newSessionID() string {
	var u [16]byte
	rand.Read(u[:]) // never fails (crypto/rand, Go 1.24+)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// capped keeps the first max bytes written to it and notes whether more
// came. It never fails a write, so the child is not killed by a broken pipe.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if len(p) > room {
		c.over = true
		p2 := p[:max(room, 0)]
		c.buf.Write(p2)
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// wine runs the Windows binaries of CML_WINDOWS_BIN under the Wine loader
// CML_WINE in the prefix WINEPREFIX (scripts/wine-check.sh sets all three).
type wine struct {
	t      *testing.T
	loader string
	prefix string
}

// winPath is how a Windows program under Wine names a file of this system.
func winPath(p string) string {
	return `Z:` + strings.ReplaceAll(p, "/", `\`)
}

// run runs a Windows program (a Windows path) with stdin and returns its
// stdout; a non-zero exit fails the test. Only Wine's own variables and PATH
// pass, so that a CLAUDE_* or XDG_* of this machine does not steer the
// program: it finds its directories as on Windows.
func (w *wine) run(stdin []byte, exe string, args ...string) []byte {
	w.t.Helper()
	cmd := exec.Command(w.loader, append([]string{exe}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "WINEPREFIX=" + w.prefix, "WINEDEBUG=-all"}
	for _, k := range []string{"HOME", "USER", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		w.t.Fatalf("%s %q: %v\nstdout: %s\nstderr: %s", exe, args, err, out.Bytes(), errb.Bytes())
	}
	return out.Bytes()
}

// oneReply checks a hook's stdout: nothing, or exactly one JSON object.
func oneReply(t *testing.T, name string, out []byte) gjson.Result {
	t.Helper()
	if len(bytes.TrimSpace(out)) == 0 {
		return gjson.Result{}
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("%s printed %q: not one JSON object (%v)", name, out, err)
	}
	if dec.More() {
		t.Fatalf("%s printed more than one JSON value: %q", name, out)
	}
	return gjson.ParseBytes(out)
}

// TestWindowsUnderWine runs the windows/amd64 build as Claude Code on Windows
// would: install registers the hooks in %USERPROFILE%\.claude\settings.json,
// each hook runs the .exe registered there (no shell) on the fixture inputs,
// two sessions in a row, and the CLI reads the store back from
// %LOCALAPPDATA%\claude-memory-layer.
func TestWindowsUnderWine(t *testing.T) {
	loader, bin, prefix := os.Getenv("CML_WINE"), os.Getenv("CML_WINDOWS_BIN"), os.Getenv("WINEPREFIX")
	if loader == "" {
		t.Skip("scripts/wine-check.sh runs this test (CML_WINE, CML_WINDOWS_BIN, WINEPREFIX)")
	}
	if bin == "" || prefix == "" {
		t.Fatal("CML_WINE is set but CML_WINDOWS_BIN or WINEPREFIX is not; run scripts/wine-check.sh")
	}
	w := &wine{t: t, loader: loader, prefix: prefix}

	// The plugin as a Windows user has it: the checkout with bin\*.exe built.
	plugin := filepath.Join(t.TempDir(), "memory-layer")
	for _, f := range []string{".claude-plugin/plugin.json", "hooks/hooks.json"} {
		copyTo(t, filepath.Join("..", f), filepath.Join(plugin, f))
	}
	exes, _ := filepath.Glob(filepath.Join(bin, "*.exe"))
	if len(exes) != 6 {
		t.Fatalf("%d binaries in %s, want 6", len(exes), bin)
	}
	for _, e := range exes {
		copyTo(t, e, filepath.Join(plugin, "bin", filepath.Base(e)))
	}
	cli := winPath(filepath.Join(plugin, "bin", "claude-memory-layer.exe"))

	out := w.run(nil, cli, "install", "--plugin-dir", winPath(plugin))
	// A fresh prefix has no settings.json yet: install creates it.
	if !strings.Contains(string(out), "added the memory hooks to") && !strings.Contains(string(out), "with the memory hooks") {
		t.Fatalf("install: %s", out)
	}
	users, _ := filepath.Glob(filepath.Join(prefix, "drive_c", "users", "*", ".claude", "settings.json"))
	if len(users) != 1 {
		t.Fatalf("settings.json under %%USERPROFILE%%\\.claude: found %v", users)
	}
	settings, err := os.ReadFile(users[0])
	if err != nil {
		t.Fatal(err)
	}
	// What Claude Code would run for each event: the exec-form command and its args.
	command := func(event string) (string, []string) {
		h := gjson.GetBytes(settings, "hooks."+event+".0.hooks.0")
		var args []string
		for _, a := range h.Get("args").Array() {
			args = append(args, a.String())
		}
		cmd := h.Get("command").String()
		if !strings.HasSuffix(cmd, ".exe") || !strings.HasPrefix(cmd, `Z:\`) || len(args) == 0 {
			t.Fatalf("%s is registered as %q %q, want an exec-form .exe", event, cmd, args)
		}
		return cmd, args
	}

	dir := t.TempDir()
	transcript := filepath.Join(dir, "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30.jsonl")
	copyTo(t, filepath.Join("..", "testdata", "claude-code", "transcripts", "basic.jsonl"), transcript)
	input := func(name string, set ...string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "claude-code", name))
		if err != nil {
			t.Fatal(err)
		}
		set = append([]string{"transcript_path", winPath(transcript), "cwd", `C:\Users\dev\shop-api`}, set...)
		for i := 0; i < len(set); i += 2 {
			if b, err = sjson.SetBytes(b, set[i], set[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	hook := func(event string, in []byte) gjson.Result {
		cmd, args := command(event)
		return oneReply(t, event, w.run(in, cmd, args...))
	}

	// Session 1, every hook in the order Claude Code fires them.
	for _, s := range []struct{ event, fixture string }{
		{"SessionStart", "session-start.json"}, {"UserPromptSubmit", "user-prompt-submit.json"},
		{"PostToolUse", "post-tool-use.json"}, {"Stop", "stop.json"}, {"PreCompact", "pre-compact.json"},
		{"SessionEnd", "session-end.json"},
	} {
		if r := hook(s.event, input(s.fixture)); r.Exists() && s.event != "SessionStart" && s.event != "UserPromptSubmit" {
			t.Errorf("%s replied %s, want nothing", s.event, r.Raw)
		}
	}

	// Session 2 in the same project, its directory spelled with a small
	// drive letter as VS Code reports it: the brief and the recalled
	// decision of the project filed under "C:\…".
	const small = `c:\Users\dev\shop-api`
	start := hook("SessionStart", input("session-start.json", "session_id", "second-session", "cwd", small))
	if start.Get("hookSpecificOutput.hookEventName").String() != "SessionStart" || start.Get("hookSpecificOutput.additionalContext").String() == "" {
		t.Errorf("second SessionStart replied %q, want a brief", start.Raw)
	}
	prompt := hook("UserPromptSubmit", input("user-prompt-submit.json", "session_id", "second-session", "prompt_id", "p2", "cwd", small,
		"prompt", "How do we sign the JWT tokens, which keys?"))
	if ctx := prompt.Get("hookSpecificOutput.additionalContext").String(); !strings.Contains(ctx, "RS256") || !strings.Contains(ctx, "[mem:") {
		t.Errorf("the second session's prompt got %q, want the RS256 memory with its id", prompt.Raw)
	}

	// The store, where Windows keeps local application data, read back.
	data, _ := filepath.Glob(filepath.Join(prefix, "drive_c", "users", "*", "AppData", "Local", "claude-memory-layer"))
	if len(data) != 1 {
		t.Fatalf("data directory under %%LOCALAPPDATA%%: %v", data)
	}
	for _, f := range []string{"memory.db", "memory.db-turn", "claude-memory-layer.log"} {
		if _, err := os.Stat(filepath.Join(data[0], f)); err != nil {
			t.Errorf("data directory: %v", err)
		}
	}
	if log, _ := os.ReadFile(filepath.Join(data[0], "claude-memory-layer.log")); bytes.Contains(log, []byte("level=ERROR")) {
		t.Errorf("errors logged:\n%s", log)
	}
	stats := gjson.ParseBytes(w.run(nil, cli, "stats", "--all-projects", "--json"))
	if stats.Get("sessions").Int() != 2 || stats.Get("entries").Int() == 0 {
		t.Errorf("stats: %s", stats.Raw)
	}
	search := gjson.ParseBytes(w.run(nil, cli, "search", "RS256 keys", "--all-projects", "--json"))
	if n := len(search.Get("results").Array()); n == 0 {
		t.Errorf("search found nothing: %s", search.Raw)
	}
	entries := w.run(nil, cli, "entries", "--all-projects", "--json")
	if !strings.Contains(string(entries), `"verified"`) || !strings.Contains(string(entries), "RS256") {
		t.Errorf("no verified RS256 entry: %.500s", entries)
	}

	// An import of the awkward transcript, then a search in Korean.
	edge := filepath.Join(dir, "edge-cases.jsonl")
	copyTo(t, filepath.Join("..", "testdata", "claude-code", "transcripts", "edge-cases.jsonl"), edge)
	imp := gjson.ParseBytes(w.run(nil, cli, "import", "--json", "--transcript", winPath(edge)))
	if imp.Get("sessions_imported").Int() != 1 || imp.Get("sessions_failed").Int() != 0 {
		t.Errorf("import: %s", imp.Raw)
	}
	if res := gjson.ParseBytes(w.run(nil, cli, "search", "리프레시 토큰", "--all-projects", "--json")); len(res.Get("results").Array()) == 0 {
		t.Errorf("Korean search found nothing: %s", res.Raw)
	}

	doctor := gjson.ParseBytes(w.run(nil, cli, "doctor", "--json"))
	for _, c := range doctor.Get("checks").Array() {
		n, status := c.Get("name").String(), c.Get("status").String()
		// A settings install's hooks check warns that the MCP tools and
		// slash commands come only with the plugin: that, and nothing else.
		settingsOnly := n == "hooks" && status == "warn" && strings.Contains(c.Raw, "MCP tools")
		if (n == "binaries" || n == "hooks") && status != "ok" && !settingsOnly {
			t.Errorf("doctor %s: %s", n, c.Raw)
		}
	}
	t.Logf("under %s: install into settings.json, 8 hook runs of 5 .exe, %d events and %d entries read back, an import, doctor",
		loader, stats.Get("events").Int(), stats.Get("entries").Int())
}

func copyTo(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/scripttest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/settings"
)

// installEnv is an env whose HOME and data directory are temporary.
func installEnv(t *testing.T, path string) (*env, *bytes.Buffer, string) {
	t.Helper()
	home := t.TempDir()
	var out bytes.Buffer
	return &env{stdout: &out, stderr: &out, exe: filepath.Join("..", "..", "bin", "claude-memory-layer"), getenv: func(k string) string {
		switch k {
		case "HOME":
			return home
		case "CLAUDE_MEMORY_DIR":
			return filepath.Join(home, "mem")
		case "PATH":
			return path
		}
		return ""
	}}, &out, home
}

func TestInstallSettingsMergeKeepsUserHooks(t *testing.T) {
	t.Parallel()
	e, out, home := installEnv(t, "")
	settings := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o700)
	user := `{"model":"opus","hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"/usr/local/bin/my-linter"}]}],"Notification":[{"hooks":[{"type":"command","command":"notify-send hi"}]}]}}`
	os.WriteFile(settings, []byte(user), 0o600)
	plugin, _ := filepath.Abs("../..")
	args := []string{"install", "--mode", "settings", "--plugin-dir", plugin}
	for i := range 2 { // installing twice changes nothing the second time
		if code := run(context.Background(), args, e); code != 0 {
			t.Fatalf("install #%d exit %d: %s", i+1, code, out)
		}
	}
	var got struct {
		Model string                      `json:"model"`
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	b, _ := os.ReadFile(settings)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Model != "opus" || len(got.Hooks["Notification"]) != 1 {
		t.Fatalf("user settings not kept: %s", b)
	}
	ups := got.Hooks["UserPromptSubmit"]
	if len(ups) != 2 || !strings.Contains(string(b), "/usr/local/bin/my-linter") {
		t.Fatalf("UserPromptSubmit groups: %d (want the user's and ours): %s", len(ups), b)
	}
	for _, ev := range []string{"SessionStart", "PostToolUse", "PostToolUseFailure", "Stop", "PreCompact", "SessionEnd"} {
		if len(got.Hooks[ev]) != 1 {
			t.Errorf("%s: %d groups, want 1", ev, len(got.Hooks[ev]))
		}
	}
	if !strings.Contains(string(b), plugin+"/hooks/run") || strings.Contains(string(b), "${CLAUDE_PLUGIN_ROOT}") {
		t.Errorf("commands not made absolute: %s", b)
	}
	if old, _ := os.ReadFile(settings + ".bak"); !bytes.Contains(old, []byte("my-linter")) {
		t.Errorf("no backup of the user's settings")
	}
	if code := run(context.Background(), []string{"doctor"}, e); !strings.Contains(out.String(), "hooks registered in") {
		t.Errorf("doctor (exit %d) did not see the registration: %s", code, out)
	}
	// It says plainly what a settings install lacks, and how to add the tools.
	if !strings.Contains(out.String(), "MCP tools") || !strings.Contains(out.String(), "claude mcp add memory-layer -- ") {
		t.Errorf("doctor does not say the settings install lacks the MCP tools and slash commands: %s", out)
	}

	// Uninstall removes ours and only ours; memories are kept.
	os.MkdirAll(filepath.Join(home, "mem"), 0o700)
	if code := run(context.Background(), []string{"uninstall", "--claude", "no-such-claude"}, e); code != 0 {
		t.Fatalf("uninstall exit %d: %s", code, out)
	}
	b, _ = os.ReadFile(settings)
	if strings.Contains(string(b), "/hooks/run") || !strings.Contains(string(b), "my-linter") || !strings.Contains(string(b), "notify-send") {
		t.Fatalf("after uninstall: %s", b)
	}
	if _, err := os.Stat(filepath.Join(home, "mem")); err != nil {
		t.Fatalf("uninstall without --purge removed the data: %v", err)
	}
	// --purge without --yes previews the files and deletes nothing.
	os.WriteFile(filepath.Join(home, "mem", "memory.db"), make([]byte, 2048), 0o600)
	out.Reset()
	if code := run(context.Background(), []string{"uninstall", "--purge", "--claude", "no-such-claude"}, e); code != exitUsage {
		t.Fatalf("uninstall --purge without --yes: exit %d, want %d: %s", code, exitUsage, out)
	}
	if _, err := os.Stat(filepath.Join(home, "mem", "memory.db")); err != nil {
		t.Fatalf("uninstall --purge without --yes deleted the data: %v", err)
	}
	if !strings.Contains(out.String(), "memory.db") || !strings.Contains(out.String(), "2.0 KiB") || !strings.Contains(out.String(), "--yes") {
		t.Errorf("no preview naming the files, their sizes and --yes: %s", out)
	}
	if code := run(context.Background(), []string{"uninstall", "--purge", "--yes", "--claude", "no-such-claude"}, e); code != 0 {
		t.Fatalf("uninstall --purge --yes: exit %d: %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(home, "mem")); !os.IsNotExist(err) {
		t.Fatalf("uninstall --purge kept the data")
	}
}

// TestInstallPluginMode drives a scripted fake claude and checks the calls.
func TestInstallPluginMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	fake := filepath.Join(dir, "claude")
	scripttest.Write(t, fake, "#!/bin/sh\necho \"$@\" >> "+log+"\necho ok\n", 0o755)
	e, out, _ := installEnv(t, dir)
	plugin, _ := filepath.Abs("../..")
	if code := run(context.Background(), []string{"install", "--mode", "plugin", "--claude", fake, "--plugin-dir", plugin}, e); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	calls, _ := os.ReadFile(log)
	want := "plugin marketplace add " + plugin + "\nplugin install memory-layer@memory-layer --scope user\n"
	if string(calls) != want {
		t.Fatalf("claude calls:\n%s\nwant:\n%s", calls, want)
	}
	if code := run(context.Background(), []string{"install", "--plugin-dir", t.TempDir()}, e); code != 2 {
		t.Fatalf("install from a non-plugin directory: exit %d, want 2", code)
	}
}

func TestManifestsValid(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"../../.claude-plugin/plugin.json", "../../.claude-plugin/marketplace.json", "../../hooks/hooks.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if name, ok := v["name"].(string); ok && strings.HasPrefix(name, "claude-") {
			t.Errorf("%s: name %q is reserved by Claude Code (names starting with claude-)", p, name)
		}
	}
}

// TestInstallWindows: on Windows the hooks go into settings.json, each an
// exec-form command naming the hook's .exe in bin/ (no POSIX shell, no
// launcher script), even with the claude CLI on PATH; uninstall finds them.
func TestInstallWindows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fake := filepath.Join(dir, "claude")
	scripttest.Write(t, fake, "#!/bin/sh\necho called >> "+filepath.Join(dir, "calls")+"\n", 0o755)
	e, out, home := installEnv(t, dir)
	e.goos = "windows"
	plugin, _ := filepath.Abs("../..")
	if code := run(context.Background(), []string{"install", "--claude", fake, "--plugin-dir", plugin}, e); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "calls")); err == nil {
		t.Errorf("install ran the claude CLI (plugin mode) on Windows")
	}
	b, err := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Type, Command string
				Args          []string
				Async         bool
			}
		}
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "PostToolUse": "post-tool-use",
		"PostToolUseFailure": "post-tool-use", "Stop": "stop", "PreCompact": "session-end", "SessionEnd": "session-end"}
	for ev, name := range want {
		gs := got.Hooks[ev]
		if len(gs) != 1 || len(gs[0].Hooks) != 1 {
			t.Errorf("%s: %+v", ev, gs)
			continue
		}
		h := gs[0].Hooks[0]
		if h.Type != "command" || h.Command != filepath.Join(plugin, "bin", name+".exe") || len(h.Args) != 1 || h.Args[0] != name {
			t.Errorf("%s runs %q %q, want exec form %q", ev, h.Command, h.Args, filepath.Join(plugin, "bin", name+".exe"))
		}
	}
	if !got.Hooks["Stop"][0].Hooks[0].Async {
		t.Errorf("Stop lost its async flag")
	}
	if code := run(context.Background(), []string{"install", "--mode", "plugin", "--claude", fake, "--plugin-dir", plugin}, e); code != 2 {
		t.Errorf("--mode plugin on Windows: exit %d, want 2 (usage)", code)
	}
	out.Reset()
	if code := run(context.Background(), []string{"uninstall", "--claude", "no-such-claude"}, e); code != 0 || !strings.Contains(out.String(), "removed 7 memory hooks") {
		t.Fatalf("uninstall exit %d: %s", code, out)
	}
}

// TestInstallTwiceNoDoubleHooks: install without the claude CLI (settings
// mode), then with it (plugin mode), used to leave both registrations, so
// every hook and memory block ran twice while doctor said OK. Now doctor
// reports it, the plugin install removes the settings hooks, a settings
// install with the plugin enabled adds none, and uninstall without the
// claude CLI disables the plugin and says so.
func TestInstallTwiceNoDoubleHooks(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "claude")
	// The scripted claude records the plugin in settings.json as Claude Code does.
	e, out, home := installEnv(t, dir)
	settingsFile := filepath.Join(home, ".claude", "settings.json")
	scripttest.Write(t, fake, `#!/bin/sh
case "$*" in
"plugin install"*) sed -i '1s/^{/{"enabledPlugins":{"memory-layer@memory-layer":true},/' "`+settingsFile+`" ;;
esac
echo ok
`, 0o755)
	plugin, _ := filepath.Abs("../..")
	ctx := context.Background()
	mustRun := func(args ...string) {
		t.Helper()
		out.Reset()
		if code := run(ctx, args, e); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, out)
		}
	}
	hooksIn := func() bool {
		s, err := settings.Read(settingsFile)
		if err != nil {
			t.Fatal(err)
		}
		return settings.HasOurHooks(s)
	}
	mustRun("install", "--mode", "settings", "--plugin-dir", plugin)
	// What the earlier build left: settings hooks and the plugin, both on.
	s, _ := settings.Read(settingsFile)
	s["enabledPlugins"] = map[string]any{settings.PluginKey: true}
	settings.Write(settingsFile, s)
	out.Reset()
	if code := run(ctx, []string{"doctor"}, e); code == 0 || !strings.Contains(out.String(), "installed twice") {
		t.Errorf("doctor (exit %d) does not report the double installation:\n%s", code, out)
	}

	mustRun("install", "--mode", "plugin", "--claude", fake, "--plugin-dir", plugin)
	if hooksIn() {
		t.Errorf("plugin install left the settings.json hooks: %s", out)
	}
	mustRun("install", "--mode", "settings", "--plugin-dir", plugin)
	if hooksIn() {
		t.Errorf("settings install added hooks while the plugin is enabled: %s", out)
	}
	out.Reset()
	run(ctx, []string{"doctor"}, e)
	if strings.Contains(out.String(), "installed twice") {
		t.Errorf("doctor still reports a double installation:\n%s", out)
	}

	mustRun("uninstall", "--claude", "no-such-claude")
	if s, _ := settings.Read(settingsFile); settings.PluginEnabled(s) || !strings.Contains(out.String(), "disabled the memory-layer plugin") {
		t.Errorf("uninstall without claude left the plugin enabled or said nothing: %s", out)
	}
}

// TestInstallSettingsNamesOnlyABackupItWrote: with no settings.json yet, or
// with --dry-run, install wrote no settings.json.bak, and used to say it had.
func TestInstallSettingsNamesOnlyABackupItWrote(t *testing.T) {
	t.Parallel()
	plugin, _ := filepath.Abs("../..")
	for _, tt := range []struct {
		name, want string
		args       []string
	}{
		{"no settings.json yet", "created ", nil},
		{"dry run", "would add the memory hooks", []string{"--dry-run"}},
	} {
		e, out, home := installEnv(t, "")
		path := filepath.Join(home, ".claude", "settings.json")
		args := append([]string{"install", "--mode", "settings", "--plugin-dir", plugin}, tt.args...)
		if code := run(context.Background(), args, e); code != 0 {
			t.Fatalf("%s: install exit %d: %s", tt.name, code, out)
		}
		if _, err := os.Stat(path + ".bak"); err == nil {
			t.Errorf("%s: a backup was written", tt.name)
		}
		if strings.Contains(out.String(), ".bak") || !strings.Contains(out.String(), tt.want) {
			t.Errorf("%s: install said %q; want %q and no backup named", tt.name, out, tt.want)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
)

// The plugin's name in Claude Code. Names starting with "claude-" are
// reserved for Anthropic's own plugins, so the product's plugin is "memory-layer".
const (
	pluginName      = "memory-layer"
	marketplaceName = "memory-layer"
)

type installOptions struct {
	pluginDir string
	mode      string // auto, plugin, settings
	scope     string
	claudeBin string
	dryRun    bool
}

func runInstall(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "install", "[--plugin-dir DIR] [--mode auto|plugin|settings] [--scope user|project|local]")
	o := installOptions{}
	fs.StringVar(&o.pluginDir, "plugin-dir", defaultPluginDir(e), "the plugin checkout to register")
	fs.StringVar(&o.mode, "mode", "auto", "plugin: via 'claude plugin'; settings: merge hooks into settings.json; auto: plugin when the claude CLI is on PATH")
	fs.StringVar(&o.scope, "scope", "user", "plugin install scope")
	fs.StringVar(&o.claudeBin, "claude", "claude", "the Claude Code CLI")
	fs.BoolVar(&o.dryRun, "dry-run", false, "print what would change and change nothing")
	if err := parse(fs, args); err != nil {
		return err
	}
	return install(ctx, e, o)
}

// defaultPluginDir is the checkout this binary was built into (bin/..).
func defaultPluginDir(e *env) string {
	return filepath.Dir(filepath.Dir(e.exe))
}

func install(ctx context.Context, e *env, o installOptions) error {
	dir, err := filepath.Abs(o.pluginDir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, ".claude-plugin", "plugin.json")); err != nil {
		return usagef("%s is not the plugin directory (no .claude-plugin/plugin.json); pass --plugin-dir", dir)
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	if !o.dryRun {
		if err := config.EnsureDir(cfg.DataDir); err != nil {
			return err
		}
	}
	mode := o.mode
	if mode == "auto" {
		mode = "settings"
		// A plugin's hooks.json cannot name a different command per OS, and
		// ours runs the POSIX launcher hooks/run: on Windows the hooks go into
		// settings.json, each running its .exe.
		if _, err := exec.LookPath(o.claudeBin); err == nil && e.os() != "windows" {
			mode = "plugin"
		}
	}
	if mode == "plugin" && e.os() == "windows" {
		return usagef("--mode plugin: the plugin's hooks run hooks/run, a POSIX shell script; on Windows use --mode settings")
	}
	switch mode {
	case "plugin":
		steps := [][]string{
			{"plugin", "marketplace", "add", dir},
			{"plugin", "install", pluginName + "@" + marketplaceName, "--scope", o.scope},
		}
		for _, s := range steps {
			fmt.Fprintf(e.stdout, "$ %s %s\n", o.claudeBin, strings.Join(s, " "))
			if o.dryRun {
				continue
			}
			out, err := exec.CommandContext(ctx, o.claudeBin, s...).CombinedOutput()
			e.stdout.Write(out)
			if err != nil && !bytes.Contains(out, []byte("already")) {
				return fmt.Errorf("%s %s: %w", o.claudeBin, strings.Join(s, " "), err)
			}
		}
		// An earlier install without the claude CLI merged the hooks into
		// settings.json: with the plugin enabled too, each would run twice.
		if err := dropSettingsHooks(e, o.dryRun, "the plugin runs them now"); err != nil {
			return err
		}
	case "settings":
		path := settingsPath(e)
		settings, err := readSettings(path)
		if err != nil {
			return err
		}
		if pluginEnabled(settings) {
			fmt.Fprintf(e.stdout, "the %s plugin is enabled in Claude Code (%s), so its hooks already run: none are added to settings.json\n", pluginName, path)
			if err := dropSettingsHooks(e, o.dryRun, "the plugin runs them"); err != nil {
				return err
			}
			break
		}
		changed, err := mergeHooks(path, dir, e.os(), o.dryRun)
		if err != nil {
			return err
		}
		if changed {
			fmt.Fprintf(e.stdout, "added the memory hooks to %s (your other settings and hooks are kept; a backup is at %s.bak)\n", path, path)
		} else {
			fmt.Fprintf(e.stdout, "the memory hooks are already in %s\n", path)
		}
	default:
		return usagef("--mode %q: want auto, plugin or settings", o.mode)
	}
	fmt.Fprintf(e.stdout, "installed; memories are kept in %s\n", cfg.DataDir)
	return nil
}

func runUninstall(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "uninstall", "[--purge]")
	purge := fs.Bool("purge", false, "also delete the data directory with every stored memory")
	claudeBin := fs.String("claude", "claude", "the Claude Code CLI")
	if err := parse(fs, args); err != nil {
		return err
	}
	if _, err := exec.LookPath(*claudeBin); err == nil {
		for _, s := range [][]string{{"plugin", "uninstall", pluginName + "@" + marketplaceName}, {"plugin", "marketplace", "remove", marketplaceName}} {
			out, err := exec.CommandContext(ctx, *claudeBin, s...).CombinedOutput()
			fmt.Fprintf(e.stdout, "$ %s %s\n%s", *claudeBin, strings.Join(s, " "), out)
			if err != nil {
				fmt.Fprintf(e.stdout, "(%v; continuing)\n", err)
			}
		}
	}
	path := settingsPath(e)
	if removed, err := removeHooks(path, false); err != nil {
		return err
	} else if removed > 0 {
		fmt.Fprintf(e.stdout, "removed %s from %s\n", plural(removed, "memory hook"), path)
	}
	// Without the claude CLI (or if it failed) the plugin is still enabled:
	// turn it off in settings.json and say so, rather than leave it running.
	settings, err := readSettings(path)
	if err != nil {
		return err
	}
	if pluginEnabled(settings) {
		enabledPlugins(settings)[pluginKey] = false
		if err := writeSettings(path, settings); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "disabled the %s plugin in %s (enabledPlugins); the claude CLI was not there to uninstall it: "+
			"'claude plugin uninstall %s' removes it for good\n", pluginName, path, pluginKey)
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	if *purge {
		if err := os.RemoveAll(cfg.DataDir); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "deleted %s\n", cfg.DataDir)
	} else {
		fmt.Fprintf(e.stdout, "your memories are kept in %s (uninstall --purge deletes them)\n", cfg.DataDir)
	}
	return nil
}

func settingsPath(e *env) string {
	root, err := config.ClaudeDir(e.getenv)
	if err != nil {
		root = ".claude"
	}
	return filepath.Join(root, "settings.json")
}

// pluginHooks reads the plugin's hooks/hooks.json and rewrites its commands to
// absolute paths, since settings hooks have no ${CLAUDE_PLUGIN_ROOT}. For
// Windows, where an exec-form command must be a real .exe and there is no
// POSIX shell to run hooks/run, each hook runs its binary in bin/ directly;
// its one argument, the binary's name, is ignored by the binary and tells
// ours() the group is ours.
func pluginHooks(dir, goos string) (map[string][]any, error) {
	b, err := os.ReadFile(filepath.Join(dir, "hooks", "hooks.json"))
	if err != nil {
		return nil, err
	}
	var f struct {
		Hooks map[string][]any `json:"hooks"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("parse hooks.json: %w", err)
	}
	for _, groups := range f.Hooks {
		for _, g := range groups {
			gm, _ := g.(map[string]any)
			hs, _ := gm["hooks"].([]any)
			for _, h := range hs {
				m, _ := h.(map[string]any)
				cmd, _ := m["command"].(string)
				args, _ := m["args"].([]any)
				name, _ := firstString(args)
				if goos == "windows" && strings.HasSuffix(cmd, "/hooks/run") && slices.Contains(hookBinaries, name) {
					m["command"] = filepath.Join(dir, "bin", name+".exe")
					continue
				}
				m["command"] = strings.ReplaceAll(cmd, "${CLAUDE_PLUGIN_ROOT}", dir)
				for i, a := range args {
					if s, ok := a.(string); ok {
						args[i] = strings.ReplaceAll(s, "${CLAUDE_PLUGIN_ROOT}", dir)
					}
				}
			}
		}
	}
	return f.Hooks, nil
}

func firstString(args []any) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	s, ok := args[0].(string)
	return s, ok
}

// ours reports whether a settings matcher group runs one of this plugin's
// hooks: a hooks/run launcher, or on Windows the hook's .exe itself, whose
// first argument names one of our hook binaries.
func ours(group any) bool {
	g, _ := group.(map[string]any)
	hs, _ := g["hooks"].([]any)
	for _, h := range hs {
		m, _ := h.(map[string]any)
		cmd, _ := m["command"].(string)
		args, _ := m["args"].([]any)
		name, _ := firstString(args)
		if !slices.Contains(hookBinaries, name) {
			continue
		}
		// Either separator: a settings file written on Windows may be read here.
		base := cmd[strings.LastIndexAny(cmd, `/\`)+1:]
		if strings.HasSuffix(cmd, "/hooks/run") || strings.EqualFold(base, name+".exe") {
			return true
		}
	}
	return false
}

// mergeHooks adds the plugin's hooks to a settings file, keeping every other
// setting and hook; entries of an earlier install of ours are replaced.
func mergeHooks(path, dir, goos string, dryRun bool) (bool, error) {
	settings, err := readSettings(path)
	if err != nil {
		return false, err
	}
	add, err := pluginHooks(dir, goos)
	if err != nil {
		return false, err
	}
	hooks, _ := settings["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
	}
	before, _ := json.Marshal(hooks)
	for event, groups := range add {
		existing, _ := hooks[event].([]any)
		var kept []any
		for _, g := range existing {
			if !ours(g) {
				kept = append(kept, g)
			}
		}
		hooks[event] = append(kept, groups...)
	}
	after, _ := json.Marshal(hooks)
	if bytes.Equal(before, after) {
		return false, nil
	}
	settings["hooks"] = hooks
	if dryRun {
		return true, nil
	}
	return true, writeSettings(path, settings)
}

// pluginKey is the plugin's name in Claude Code's enabledPlugins.
const pluginKey = pluginName + "@" + marketplaceName

// enabledPlugins is the settings' enabledPlugins object (nil if none).
func enabledPlugins(settings map[string]any) map[string]any {
	m, _ := settings["enabledPlugins"].(map[string]any)
	return m
}

// pluginEnabled reports whether settings enable this plugin: 'claude plugin
// install --scope user' records it in the user settings' enabledPlugins.
func pluginEnabled(settings map[string]any) bool {
	on, _ := enabledPlugins(settings)[pluginKey].(bool)
	return on
}

// hasOurHooks reports whether settings hold any hook group of this plugin.
func hasOurHooks(settings map[string]any) bool {
	hooks, _ := settings["hooks"].(map[string]any)
	for _, groups := range hooks {
		list, _ := groups.([]any)
		if slices.ContainsFunc(list, ours) {
			return true
		}
	}
	return false
}

// dropSettingsHooks removes this plugin's hooks from the user settings and
// says why.
func dropSettingsHooks(e *env, dryRun bool, why string) error {
	path := settingsPath(e)
	removed, err := removeHooks(path, dryRun)
	if err != nil {
		return err
	}
	if removed > 0 {
		fmt.Fprintf(e.stdout, "removed %s an earlier install added to %s: %s, and both would run each hook twice\n",
			plural(removed, "memory hook"), path, why)
	}
	return nil
}

// removeHooks deletes this plugin's hook groups from a settings file; with
// dryRun it only counts them.
func removeHooks(path string, dryRun bool) (int, error) {
	settings, err := readSettings(path)
	if err != nil {
		return 0, err
	}
	hooks, _ := settings["hooks"].(map[string]any)
	removed := 0
	for event, v := range hooks {
		groups, _ := v.([]any)
		var kept []any
		for _, g := range groups {
			if ours(g) {
				removed++
				continue
			}
			kept = append(kept, g)
		}
		if len(kept) == 0 {
			delete(hooks, event)
		} else {
			hooks[event] = kept
		}
	}
	if removed == 0 || dryRun {
		return removed, nil
	}
	if len(hooks) == 0 {
		delete(settings, "hooks")
	}
	return removed, writeSettings(path, settings)
}

func readSettings(path string) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, err
	}
	settings := map[string]any{}
	if len(bytes.TrimSpace(b)) == 0 {
		return settings, nil
	}
	if err := json.Unmarshal(b, &settings); err != nil {
		return nil, fmt.Errorf("%s is not valid JSON (%v); fix it or use --mode plugin", path, err)
	}
	return settings, nil
}

// writeSettings writes atomically after keeping the previous file as .bak.
func writeSettings(path string, settings map[string]any) error {
	b, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	if old, err := os.ReadFile(path); err == nil {
		if err := os.WriteFile(path+".bak", old, 0o600); err != nil {
			return err
		}
	}
	tmp := fmt.Sprintf("%s.tmp-%d", path, time.Now().UnixNano())
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

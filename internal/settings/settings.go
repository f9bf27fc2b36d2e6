// Package settings edits this plugin's entries in Claude Code's settings.json.
package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
)

// The plugin's name in Claude Code. Names starting with "claude-" are
// reserved for Anthropic's own plugins, so the product's plugin is "memory-layer".
const (
	PluginName  = "memory-layer"
	Marketplace = "memory-layer"
)

// HookBinaries are the binaries hooks/hooks.json runs through hooks/run.
var HookBinaries = []string{"session-start", "user-prompt-submit", "stop", "session-end", "post-tool-use"}

// Path is the user settings file, settings.json in Claude Code's
// configuration directory (config.ClaudeDir), or under .claude when getenv
// names none.
func Path(getenv func(string) string) string {
	root, err := config.ClaudeDir(getenv)
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
				if goos == "windows" && strings.HasSuffix(cmd, "/hooks/run") && slices.Contains(HookBinaries, name) {
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
		if !slices.Contains(HookBinaries, name) {
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

// MergeHooks adds the plugin's hooks to a settings file, keeping every other
// setting and hook; entries of an earlier install of ours are replaced.
func MergeHooks(path, dir, goos string, dryRun bool) (bool, error) {
	settings, err := Read(path)
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
	return true, Write(path, settings)
}

// PluginKey is the plugin's name in Claude Code's enabledPlugins.
const PluginKey = PluginName + "@" + Marketplace

// EnabledPlugins is the settings' enabledPlugins object (nil if none).
func EnabledPlugins(settings map[string]any) map[string]any {
	m, _ := settings["enabledPlugins"].(map[string]any)
	return m
}

// PluginEnabled reports whether settings enable this plugin: 'claude plugin
// install --scope user' records it in the user settings' enabledPlugins.
func PluginEnabled(settings map[string]any) bool {
	on, _ := EnabledPlugins(settings)[PluginKey].(bool)
	return on
}

// HasOurHooks reports whether settings hold any hook group of this plugin.
func HasOurHooks(settings map[string]any) bool {
	hooks, _ := settings["hooks"].(map[string]any)
	for _, groups := range hooks {
		list, _ := groups.([]any)
		if slices.ContainsFunc(list, ours) {
			return true
		}
	}
	return false
}

// RemoveHooks deletes this plugin's hook groups from a settings file; with
// dryRun it only counts them.
func RemoveHooks(path string, dryRun bool) (int, error) {
	settings, err := Read(path)
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
	return removed, Write(path, settings)
}

// Read reads a settings file; a missing or empty one is an empty object.
func Read(path string) (map[string]any, error) {
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

// Write writes a settings file atomically after keeping the previous file as .bak.
func Write(path string, settings map[string]any) error {
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

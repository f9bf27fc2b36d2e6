package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/settings"
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
	choices(fs, "mode", []string{"auto", "plugin", "settings"})
	choices(fs, "scope", []string{"user", "project", "local"})
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
			{"plugin", "install", settings.PluginName + "@" + settings.Marketplace, "--scope", o.scope},
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
		path := settings.Path(e.getenv)
		cur, err := settings.Read(path)
		if err != nil {
			return err
		}
		if settings.PluginEnabled(cur) {
			fmt.Fprintf(e.stdout, "the %s plugin is enabled in Claude Code (%s), so its hooks already run: none are added to settings.json\n", settings.PluginName, path)
			if err := dropSettingsHooks(e, o.dryRun, "the plugin runs them"); err != nil {
				return err
			}
			break
		}
		// settings.Write keeps a copy of a file that was there: say so only then.
		_, statErr := os.Stat(path)
		existed := statErr == nil
		changed, err := settings.MergeHooks(path, dir, e.os(), o.dryRun)
		if err != nil {
			return err
		}
		switch {
		case changed && o.dryRun:
			fmt.Fprintf(e.stdout, "would add the memory hooks to %s (--dry-run: nothing written)\n", path)
		case changed && existed:
			fmt.Fprintf(e.stdout, "added the memory hooks to %s (your other settings and hooks are kept; a backup is at %s.bak)\n", path, path)
		case changed:
			fmt.Fprintf(e.stdout, "created %s with the memory hooks\n", path)
		default:
			fmt.Fprintf(e.stdout, "the memory hooks are already in %s\n", path)
		}
	default:
		return usagef("--mode %q: want auto, plugin or settings", o.mode)
	}
	fmt.Fprintf(e.stdout, "installed; memories are kept in %s\n", cfg.DataDir)
	return nil
}

func runUninstall(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "uninstall", "[--purge [--yes]]")
	purge := fs.Bool("purge", false, "also delete the data directory with every stored memory")
	yes := fs.Bool("yes", false, "with --purge: delete without asking")
	claudeBin := fs.String("claude", "claude", "the Claude Code CLI")
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	// Deleting every memory cannot be undone: without --yes, show what would
	// go and change nothing (not even the registration), so a second run with
	// --yes is the whole uninstall.
	if *purge && !*yes {
		previewPurge(e, cfg.DataDir)
		return usagef("--purge deletes the files above for good; run 'uninstall --purge --yes' to do it")
	}
	if _, err := exec.LookPath(*claudeBin); err == nil {
		for _, s := range [][]string{{"plugin", "uninstall", settings.PluginName + "@" + settings.Marketplace}, {"plugin", "marketplace", "remove", settings.Marketplace}} {
			out, err := exec.CommandContext(ctx, *claudeBin, s...).CombinedOutput()
			fmt.Fprintf(e.stdout, "$ %s %s\n%s", *claudeBin, strings.Join(s, " "), out)
			if err != nil {
				fmt.Fprintf(e.stdout, "(%v; continuing)\n", err)
			}
		}
	}
	path := settings.Path(e.getenv)
	if removed, err := settings.RemoveHooks(path, false); err != nil {
		return err
	} else if removed > 0 {
		fmt.Fprintf(e.stdout, "removed %s from %s\n", plural.Of(removed, "memory hook"), path)
	}
	// Without the claude CLI (or if it failed) the plugin is still enabled:
	// turn it off in settings.json and say so, rather than leave it running.
	cur, err := settings.Read(path)
	if err != nil {
		return err
	}
	if settings.PluginEnabled(cur) {
		settings.EnabledPlugins(cur)[settings.PluginKey] = false
		if err := settings.Write(path, cur); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "disabled the %s plugin in %s (enabledPlugins); the claude CLI was not there to uninstall it: "+
			"'claude plugin uninstall %s' removes it for good\n", settings.PluginName, path, settings.PluginKey)
	}
	if *purge {
		if err := os.RemoveAll(cfg.DataDir); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "deleted %s\n", cfg.DataDir)
	} else {
		fmt.Fprintf(e.stdout, "your memories are kept in %s (uninstall --purge --yes deletes them)\n", cfg.DataDir)
	}
	return nil
}

// previewPurge lists the files under dir with their sizes, and the total.
func previewPurge(e *env, dir string) {
	var n int
	var total int64
	fmt.Fprintf(e.stdout, "uninstall --purge would delete %s:\n", dir)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n++
		total += info.Size()
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(e.stdout, "  %10s  %s\n", byteSize(info.Size()), rel)
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(e.stdout, "  (could not list everything: %v)\n", err)
	}
	fmt.Fprintf(e.stdout, "%s, %s in all\n", plural.Of(n, "file"), byteSize(total))
}

// dropSettingsHooks removes this plugin's hooks from the user settings and
// says why.
func dropSettingsHooks(e *env, dryRun bool, why string) error {
	path := settings.Path(e.getenv)
	removed, err := settings.RemoveHooks(path, dryRun)
	if err != nil {
		return err
	}
	if removed > 0 {
		fmt.Fprintf(e.stdout, "removed %s an earlier install added to %s: %s, and both would run each hook twice\n",
			plural.Of(removed, "memory hook"), path, why)
	}
	return nil
}

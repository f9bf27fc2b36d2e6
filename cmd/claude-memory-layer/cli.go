package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/agnivade/levenshtein"
	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/when"
	"github.com/spf13/pflag"
)

// Exit codes, as DESIGN.md's CLI contract fixes them.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// env is what a command gets from the outside world; tests fill it with buffers.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	now            func() time.Time
	// exe is the path of this binary, to find the sibling hook binaries.
	exe string
	// goos is the operating system to install for; "" is runtime.GOOS.
	goos string
	// onFlags, when set, is given every flag set newFlags makes: completion
	// learns each command's flags from the command itself.
	onFlags func(*pflag.FlagSet)
}

// os is the operating system the CLI acts for.
func (e *env) os() string {
	if e.goos != "" {
		return e.goos
	}
	return runtime.GOOS
}

// command is one subcommand. run parses args itself (one options struct per
// command) and returns an error; usageError marks errors that exit 2.
type command struct {
	summary string
	run     func(ctx context.Context, e *env, args []string) error
}

func commands() map[string]command {
	return map[string]command{
		"search":    {"search memories and past sessions", runSearch},
		"show":      {"show a memory with its evidence in context, or an event", runShow},
		"history":   {"list captured events", runHistory},
		"timeline":  {"what happened around a memory, in order", runTimeline},
		"stats":     {"counts, store size, last ingest, recall figures", runStats},
		"list":      {"list Claude Code sessions on disk and whether they are imported", runList},
		"import":    {"import Claude Code transcripts through the same pipeline as a live session", runImport},
		"export":    {"export a project's events and entries as JSONL", runExport},
		"forget":    {"delete memories, sessions or date ranges for good", runForget},
		"entries":   {"list memory entries", runEntries},
		"verify":    {"certify a memory (user-confirmed)", runVerify},
		"reject":    {"reject a memory: it is never injected", runReject},
		"supersede": {"record that one memory replaces another (settles a conflict between them)", runSupersede},
		"conflicts": {"list open conflicts between memories and how to settle them", runConflicts},
		"tasks":     {"list what sessions left to do (open tasks); tasks close|drop mem:ID closes one", runTasks},
		"edit":      {"correct a memory's title, body or type", runEdit},
		"pin":       {"pin a memory: the session brief always shows it", runPin},
		"injection": {"turn per-prompt memory injection off or on for this session, or say whether it is on", runInjection},
		"unpin":     {"unpin a memory", runUnpin},
		"process":   {"extract memories from a session (the SessionEnd hook's worker)", runProcess},
		"selfcheck": {"judge a session's last answer with the LLM (the Stop hook's worker when llm.self_check is on)", runSelfCheck},
		"digest":    {"digest sessions older than digest.after_days: one quoted memory each (the worker does it too)", runDigest},
		"reextract": {"derive stored sessions' memories again with this build's extractor", runReextract},
		"upgrade":   {"bring the store to this build's schema (the hooks start it for a large store)", runUpgrade},
		"config":    {"print the effective settings: value, default, where each came from, meaning, range", runConfig},
		"doctor":    {"check the installation and the store, and say what to fix", runDoctor},
		"install":   {"register the plugin with Claude Code", runInstall},
		"uninstall": {"unregister the plugin (memories kept unless --purge)", runUninstall},
		"version":   {"print the version", runVersion},
		"mcp":       {"serve the memory tools to Claude over MCP on stdin/stdout", runMCP},
		"ui":        {"open the local web dashboard: memories, evidence, sessions, conflicts, forget", runUI},
		"team":      {"share verified memories with a team on PostgreSQL: init, add-member, join, sync, status, leave", runTeam},
		"glossary":  {"where the project's glossary is and the terms it defines; init creates it", runGlossary},

		// Completes the commands above, from this table and their flag sets.
		"completion": {"print a bash, zsh or fish script that completes commands and flags", runCompletion},
	}
}

// usageError is an error in how the command was called (exit 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func run(ctx context.Context, args []string, e *env) int {
	if e.now == nil {
		e.now = time.Now
	}
	if e.getenv == nil {
		e.getenv = os.Getenv
	}
	if e.exe == "" {
		e.exe, _ = os.Executable()
	}
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(e.stdout, cmds)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-V" {
		args = append([]string{"version"}, args[1:]...)
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "claude-memory-layer: unknown command %q\n", args[0])
		if s := suggest(args[0], sortedKeys(cmds)); s != "" {
			fmt.Fprintf(e.stderr, "did you mean %q?\n\n", s)
		}
		printUsage(e.stderr, cmds)
		return exitUsage
	}
	if !readOut[args[0]] {
		vw := &visibleWriter{w: e.stdout}
		ve := *e
		ve.stdout = vw
		err := c.run(ctx, &ve, args[1:])
		if ferr := vw.flush(); err == nil {
			err = ferr
		}
		return exitCode(e.stderr, args[0], err)
	}
	err := c.run(ctx, e, args[1:])
	return exitCode(e.stderr, args[0], err)
}

// exitCode maps an error to the exit code, in this one place.
func exitCode(stderr io.Writer, name string, err error) int {
	var u usageError
	switch {
	case err == nil, errors.Is(err, pflag.ErrHelp):
		return exitOK
	case errors.As(err, &u):
		fmt.Fprintf(stderr, "claude-memory-layer %s: %v\n", name, err)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "claude-memory-layer %s: %v\n", name, err)
		return exitError
	}
}

// suggest is the name (of a command, subcommand or flag) closest to a
// mistyped one: within two edits, or one it starts (an abbreviation), or ""
// when none is.
func suggest(typed string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		d := levenshtein.ComputeDistance(typed, n)
		if len(typed) >= 3 && strings.HasPrefix(n, typed) {
			d = min(d, 1)
		}
		if d < bestD || d == bestD && n < best {
			best, bestD = n, d
		}
	}
	return best
}

func printUsage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: claude-memory-layer <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'claude-memory-layer <command> --help' for a command's flags.")
}

// newFlags returns a flag set that reports errors instead of exiting (pflag's
// ExitOnError would exit 2 from deep inside a command).
func newFlags(e *env, name, usage string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: claude-memory-layer %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	if e.onFlags != nil {
		e.onFlags(fs)
	}
	return fs
}

// parse parses args, turning flag errors into usage errors; a mistyped
// flag names the one meant.
func parse(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		var unknown *pflag.NotExistError
		if errors.As(err, &unknown) && unknown.GetSpecifiedShortnames() == "" {
			var names []string
			fs.VisitAll(func(f *pflag.Flag) {
				if !f.Hidden {
					names = append(names, f.Name)
				}
			})
			if s := suggest(unknown.GetSpecifiedName(), names); s != "" {
				return usagef("%v (did you mean --%s?)", err, s)
			}
		}
		return usageError{err}
	}
	return nil
}

func loadConfig(e *env) (config.Config, error) {
	cfg, err := config.Load(e.getenv)
	if err != nil {
		return cfg, err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	return cfg, nil
}

// openStore opens the store for a command that writes.
func openStore(ctx context.Context, e *env) (*store.DB, config.Config, error) {
	return openStoreWith(ctx, e, store.Options{})
}

// openStoreWith is openStore with options; the busy timeout is always 10 s.
func openStoreWith(ctx context.Context, e *env, opt store.Options) (*store.DB, config.Config, error) {
	cfg, err := loadConfig(e)
	if err != nil {
		return nil, cfg, err
	}
	opt.BusyTimeout = 10 * time.Second
	db, err := store.Open(ctx, cfg.DBPath(), opt)
	if err != nil {
		return nil, cfg, err
	}
	db.Now = e.now
	return db, cfg, nil
}

// writeJSON prints v as indented JSON: the --json output of every listing.
// The characters output drops (recall.Hidden) are written as \u escapes
// instead: a program reading it gets the text exactly as stored, and nothing
// hidden is left in the bytes for a terminal or a model to take in.
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	out := b.Bytes()
	if bytes.IndexFunc(out, recall.Hidden) >= 0 {
		// They can only stand inside JSON strings, where an escape means the same.
		var esc bytes.Buffer
		for _, r := range string(out) {
			if !recall.Hidden(r) {
				esc.WriteRune(r)
				continue
			}
			if r > 0xFFFF {
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(&esc, `\u%04x\u%04x`, r1, r2)
			} else {
				fmt.Fprintf(&esc, `\u%04x`, r)
			}
		}
		out = esc.Bytes()
	}
	_, err := w.Write(out)
	return err
}

// isTerminal reports whether w is a character device (a terminal), so that
// progress bars and colour are used only there and piped output stays plain.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// projectFlag resolves a --project value (a directory) to the project identity
// hooks use; empty means the current directory's project.
func projectFlag(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return project.Identify(abs), nil
}

// optionalProject is projectFlag for a --project that may be left out to
// mean every project: "" stays "".
func optionalProject(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	return projectFlag(dir)
}

// parseDate parses a --since or --before value: a date, an RFC 3339 time or
// a relative one ("yesterday", "3d", "2 weeks ago"); see package when.
func parseDate(e *env, s string) (time.Time, error) {
	now := time.Now
	if e.now != nil {
		now = e.now
	}
	t, err := when.Parse(s, now())
	if err != nil {
		return time.Time{}, usagef("date %v", err)
	}
	return t, nil
}

func fileMissing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, os.ErrNotExist)
}

// widenScope answers a read that defaulted to the current directory's project
// (no --project given) with every project when that one has no events, saying
// so on stderr in human output: run from another directory or a script, a
// command should show what there is rather than nothing. It returns the scope
// to use.
func widenScope(ctx context.Context, e *env, db *store.DB, scope, flag string, quiet bool, what string) string {
	if scope == "" || flag != "" {
		return scope
	}
	if n, err := db.CountEvents(ctx, scope); err == nil && n == 0 {
		if !quiet {
			fmt.Fprintf(e.stderr, "no %s for %s; using all projects\n", what, scope)
		}
		return ""
	}
	return scope
}

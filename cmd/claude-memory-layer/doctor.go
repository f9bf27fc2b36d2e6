package main

import (
	"bufio"
	"context"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
	"github.com/claude-memory-layer/claude-memory-layer/internal/settings"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/team"
)

type check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok, warn, fail
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

func runDoctor(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "doctor", "[--json]")
	asJSON := fs.Bool("json", false, "print the checks as JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	checks := doctor(ctx, e)
	failed := 0
	for _, c := range checks {
		if c.Status == "fail" {
			failed++
		}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"checks": checks, "ok": failed == 0}); err != nil {
			return err
		}
	} else {
		for _, c := range checks {
			fmt.Fprintf(e.stdout, "%-4s  %-10s %s\n", strings.ToUpper(c.Status), c.Name, c.Detail)
			if c.Fix != "" {
				fmt.Fprintf(e.stdout, "      %-10s fix: %s\n", "", c.Fix)
			}
		}
	}
	if failed > 0 {
		return fmt.Errorf("%s failed", plural.Of(failed, "check"))
	}
	return nil
}

func doctor(ctx context.Context, e *env) []check {
	var out []check
	add := func(name, status, detail, fix string) { out = append(out, check{name, status, detail, fix}) }
	cfg, err := config.Load(e.getenv)
	if err != nil {
		add("config", "fail", err.Error(), "set CLAUDE_MEMORY_DIR or HOME")
		return out
	}
	if len(cfg.Warnings) > 0 {
		add("config", "warn", strings.Join(cfg.Warnings, "; "), "correct "+filepath.Join(cfg.DataDir, config.ConfigFile)+" or the environment")
	} else {
		add("config", "ok", "extractor "+cfg.Extractor, "")
	}
	out = append(out, checkDataDir(cfg.DataDir))
	out = append(out, checkStore(ctx, cfg)...)
	if c, ok := checkSpend(ctx, e, cfg); ok {
		out = append(out, c)
	}
	if c, ok := checkSelfCheck(cfg, e); ok {
		out = append(out, c)
	}
	out = append(out, checkBinaries(e.exe, e.os())...)
	out = append(out, checkGlosses(filepath.Dir(e.exe)))
	out = append(out, checkRegistration(e))
	out = append(out, checkLog(cfg.LogPath(), e.now()))
	out = append(out, checkTeam(ctx, cfg)...)
	return out
}

// checkSelfCheck says, when llm.self_check is on, whether it has an LLM to
// ask: without one it does nothing.
func checkSelfCheck(cfg config.Config, e *env) (check, bool) {
	if !cfg.LLM.SelfCheck {
		return check{}, false
	}
	if _, err := buildBackend(cfg, nil, e.getenv, os.Environ()); err != nil {
		return check{"self-check", "warn", "llm.self_check is on but no LLM is available (" + err.Error() + "): answers are not checked",
			"set extractor to claude, anthropic or openai (with its key or model), or llm.self_check to false"}, true
	}
	return check{"self-check", "ok", "on: the " + cfg.Extractor + " extractor's model judges each answer, within llm.budget", ""}, true
}

func checkDataDir(dir string) check {
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return check{"data dir", "warn", dir + " does not exist yet (created by the first hook run)", ""}
	}
	if err != nil {
		return check{"data dir", "fail", err.Error(), "make " + dir + " readable"}
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return check{"data dir", "warn", fmt.Sprintf("%s has mode %o; others can read your memories", dir, fi.Mode().Perm()), "chmod 700 " + dir}
	}
	probe := filepath.Join(dir, ".doctor-probe")
	if err := os.WriteFile(probe, nil, 0o600); err != nil {
		return check{"data dir", "fail", dir + " is not writable: " + err.Error(), "make it writable by you"}
	}
	os.Remove(probe)
	return check{"data dir", "ok", dir + " (mode 700)", ""}
}

func checkStore(ctx context.Context, cfg config.Config) []check {
	path := cfg.DBPath()
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return []check{{"store", "warn", path + " does not exist yet (created by the first hook run)", ""}}
	}
	// A failed background upgrade leaves the hooks without memories (see
	// pipeline.SpawnUpgrade); the open below upgrades in the foreground.
	why, at, failed := pipeline.UpgradeFailure(cfg.DataDir)
	if failed {
		why = fmt.Sprintf("the background upgrade failed at %s: %s", at.Format(time.RFC3339), why)
	}
	db, err := store.Open(ctx, path, store.Options{BusyTimeout: 5 * time.Second})
	if err != nil {
		detail := err.Error()
		if failed {
			detail += "; " + why
		}
		return []check{{"store", "fail", detail, "see the log; a backup of an upgraded store is kept as memory.db.v<N>.bak"}}
	}
	defer db.Close()
	var out []check
	if failed {
		// The store is at this build's schema now: the failure no longer
		// holds back the hooks, nor should it hold back the next upgrade.
		pipeline.RecordUpgrade(cfg.DataDir, nil)
		out = append(out, check{"upgrade", "warn", why + "; the store is upgraded now", ""})
	}
	v, err := db.Version(ctx)
	switch {
	case err != nil:
		out = append(out, check{"schema", "fail", err.Error(), ""})
	case v != store.SchemaVersion():
		out = append(out, check{"schema", "fail", fmt.Sprintf("version %d, this build expects %d", v, store.SchemaVersion()), "update the plugin"})
	default:
		out = append(out, check{"schema", "ok", fmt.Sprintf("version %d", v), ""})
	}
	var res string
	if err := db.SQL().QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res); err != nil || res != "ok" {
		out = append(out, check{"integrity", "fail", fmt.Sprintf("quick_check: %s %v", res, err), "restore from a backup or re-import transcripts"})
	} else {
		out = append(out, check{"integrity", "ok", "quick_check ok", ""})
	}
	if _, err := db.SearchEvents(ctx, store.EventQuery{Match: store.MatchAny([]string{"doctor"}, false), Limit: 1}); err != nil {
		out = append(out, check{"fts5", "fail", err.Error(), ""})
	} else if n, err := db.IndexSegments(ctx); err != nil {
		out = append(out, check{"fts5", "warn", "full-text search works; " + err.Error(), ""})
	} else {
		// Each search seeks every segment holding its term: the workers
		// merge them once the sessions since the last merge added more than
		// pipeline.MergeAbove.
		out = append(out, check{"fts5", "ok", "full-text search works, " + plural.Of(n, "index segment"), ""})
	}
	if db.CompactPending() {
		out = append(out, check{"forget", "fail", "a forget was interrupted before compaction: forgotten text may remain in " +
			filepath.Base(path) + " or its WAL", "claude-memory-layer forget --compact (with no Claude Code session open)"})
	}
	out = append(out, checkSpool(db.SpoolState(), time.Now()))
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm() != 0o600 {
		out = append(out, check{"store", "warn", fmt.Sprintf("%s has mode %o", path, fi.Mode().Perm()), "chmod 600 " + path})
	} else if err == nil {
		n, _ := db.CountEvents(ctx, "")
		out = append(out, check{"store", "ok", fmt.Sprintf("%s: %s, %s", path, plural.Of(n, "event"), byteSize(fi.Size())), ""})
	}
	return out
}

// spoolStale is how long records may wait in the spool before doctor
// warns: a session's Stop stores them every turn.
const spoolStale = time.Hour

// checkSpool reports what the hooks spooled and no write has stored yet.
func checkSpool(st store.SpoolState, now time.Time) check {
	switch {
	case st.Bytes == 0 && st.FoldFiles == 0:
		return check{"spool", "ok", "empty: every hook's record is stored", ""}
	case st.Full || now.Sub(st.Since) > spoolStale:
		return check{"spool", "warn", fmt.Sprintf("%s waiting since %s in %s", byteSize(st.Bytes), st.Since.Format(time.RFC3339), plural.Of(st.FoldFiles+1, "file")),
			"the next hook that writes (a turn's Stop) stores it; if it stays, the log says why"}
	}
	return check{"spool", "ok", fmt.Sprintf("%s waiting for the next write", byteSize(st.Bytes)), ""}
}

// checkBinaries looks for the hook binaries beside the CLI (name.exe on
// Windows, which has no execute bit) and, on Linux, checks that each is static.
func checkBinaries(exe, goos string) []check {
	dir := filepath.Dir(exe)
	var missing, dynamic []string
	for _, name := range settings.HookBinaries {
		p := filepath.Join(dir, name)
		if goos == "windows" {
			p += ".exe"
		}
		fi, err := os.Stat(p)
		if err != nil || (goos != "windows" && fi.Mode()&0o111 == 0) {
			missing = append(missing, name)
			continue
		}
		// Only Linux binaries are ELF; a Go binary on macOS always links libSystem.
		if goos == "linux" && !isStatic(p) {
			dynamic = append(dynamic, name)
		}
	}
	build := "run scripts/build.sh in the plugin directory (" + filepath.Dir(dir) + ")"
	switch {
	case len(missing) > 0:
		return []check{{"binaries", "fail", "missing in " + dir + ": " + strings.Join(missing, ", "), build}}
	case len(dynamic) > 0:
		return []check{{"binaries", "warn", "not statically linked: " + strings.Join(dynamic, ", "), "rebuild with scripts/build.sh (CGO_ENABLED=0)"}}
	}
	if goos != "linux" {
		return []check{{"binaries", "ok", fmt.Sprintf("%d hook binaries in %s", len(settings.HookBinaries), dir), ""}}
	}
	return []check{{"binaries", "ok", fmt.Sprintf("%d hook binaries in %s, statically linked", len(settings.HookBinaries), dir), ""}}
}

// checkGlosses warns when the dictionaries recall translates a prompt in
// another language with are not beside the binaries (scripts/build.sh copies
// them): such a prompt is then searched by its own words only.
func checkGlosses(dir string) check {
	g := glosses.Installed(dir)
	if m := glosses.Open(g).Missing(); len(m) > 0 {
		return check{"glosses", "warn", "missing in " + g + ": " + strings.Join(m, ", ") +
			"; a prompt in their languages is searched by its own words only",
			"run scripts/build.sh in the plugin directory (" + filepath.Dir(dir) + ")"}
	}
	return check{"glosses", "ok", "dictionaries in " + g, ""}
}

// isStatic reports whether an ELF file has no program interpreter (no dynamic loader).
func isStatic(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return false
		}
	}
	return true
}

// checkRegistration looks for the plugin in Claude Code's installed plugins or
// for our hooks in its user settings, and fails when both are there: then
// every hook runs twice and every brief and memory block reaches the model
// twice.
func checkRegistration(e *env) check {
	root, _ := config.ClaudeDir(e.getenv)
	path := settings.Path(e.getenv)
	cur, err := settings.Read(path)
	if err != nil {
		return check{"hooks", "fail", err.Error(), "fix " + path}
	}
	installed := filepath.Join(root, "plugins", "installed_plugins.json")
	plugin := settings.PluginEnabled(cur)
	if _, set := settings.EnabledPlugins(cur)[settings.PluginKey]; !set {
		// No word in settings.json: installed means enabled.
		b, err := os.ReadFile(installed)
		plugin = err == nil && strings.Contains(string(b), `"`+settings.PluginKey+`"`)
	}
	hooks := settings.HasOurHooks(cur)
	switch {
	case plugin && hooks:
		return check{"hooks", "fail", "installed twice: the " + settings.PluginName + " plugin is enabled and " + path +
			" also runs its hooks, so every hook, brief and memory block runs twice",
			"claude-memory-layer install (it removes the settings.json hooks while the plugin is enabled)"}
	case plugin:
		return check{"hooks", "ok", "plugin " + settings.PluginName + " installed and enabled", ""}
	case hooks:
		// The settings install registers hooks only: say what it lacks.
		return check{"hooks", "warn", "hooks registered in " + path + ": memories are captured and injected, but the memory MCP tools " +
			"(search, get, remember, …) and the /memory-layer: slash commands come only with the plugin",
			"install the plugin (scripts/install.sh with the claude CLI on PATH), or add the tools yourself: claude mcp add memory-layer -- " +
				filepath.Join(filepath.Dir(e.exe), "claude-memory-layer") + " mcp"}
	}
	return check{"hooks", "warn", "the plugin is not registered with Claude Code under " + root, "run claude-memory-layer install (or scripts/install.sh)"}
}

// checkLog counts error lines of the last 24 hours in the log file.
func checkLog(path string, now time.Time) check {
	f, err := regular.Open(path) // a FIFO here would hang doctor
	if errors.Is(err, regular.ErrNotRegular) {
		return check{"log", "warn", err.Error(), "remove " + path + " (hooks then create it)"}
	}
	if errors.Is(err, os.ErrNotExist) {
		return check{"log", "ok", "no log yet", ""}
	}
	if err != nil {
		return check{"log", "warn", err.Error(), ""}
	}
	defer f.Close()
	since := now.Add(-24 * time.Hour)
	var n int
	var last string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "level=ERROR") {
			continue
		}
		if ts, ok := strings.CutPrefix(line, "time="); ok {
			if i := strings.IndexByte(ts, ' '); i > 0 {
				if t, err := time.Parse(time.RFC3339Nano, ts[:i]); err == nil && t.Before(since) {
					continue
				}
			}
		}
		n++
		last = line
	}
	if n == 0 {
		return check{"log", "ok", "no errors in the last 24 hours", ""}
	}
	if len(last) > 300 {
		last = last[:300] + "…"
	}
	return check{"log", "warn", fmt.Sprintf("%s in the last 24 hours in %s; last: %s", plural.Of(n, "error"), path, last), "read the log; most errors cost one memory, not a prompt"}
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// checkTeam checks team memory when this machine is in a team (nothing
// otherwise): the server answers as a member, its schema is this build's,
// row-level security is on, and what waits to be pushed.
func checkTeam(ctx context.Context, cfg config.Config) []check {
	tc, err := team.LoadConfig(cfg.DataDir)
	if errors.Is(err, team.ErrNotJoined) {
		return nil
	}
	if err != nil {
		return []check{{"team", "fail", err.Error(), "run team leave, then team join again"}}
	}
	var out []check
	if db, err := store.Open(ctx, cfg.DBPath(), store.Options{ReadOnly: true}); err == nil {
		st, err := team.LocalStatus(ctx, db, tc)
		db.Close()
		switch {
		case err != nil:
			out = append(out, check{"team sync", "fail", err.Error(), ""})
		case st.LastErr != "":
			out = append(out, check{"team sync", "warn", fmt.Sprintf("%s pending; the last sync failed: %s", plural.Of(st.Pending, "change"), st.LastErr),
				"claude-memory-layer team sync (the worker tries again after " + st.NextTry + ")"})
		default:
			last := st.LastSync
			if last == "" {
				last = "never"
			}
			out = append(out, check{"team sync", "ok", fmt.Sprintf("%s pending; last sync %s", plural.Of(st.Pending, "change"), last), ""})
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := team.ConnectConfig(ctx, tc)
	if err != nil {
		return append(out, check{"team server", "fail", err.Error(), "check the server, and the password (" + tc.Secret.Describe() + ")"})
	}
	defer conn.Close(ctx)
	ss, err := team.Check(ctx, conn, tc.Team)
	switch {
	case err != nil:
		return append(out, check{"team server", "fail", err.Error(), ""})
	case !ss.Member:
		return append(out, check{"team server", "fail", fmt.Sprintf("%s is not a member of team %s", ss.User, tc.Team),
			"an admin runs team add-member --team " + tc.Team + " " + ss.User})
	case ss.SchemaVersion != team.SchemaVersion:
		return append(out, check{"team server", "fail", fmt.Sprintf("schema version %d, this build expects %d", ss.SchemaVersion, team.SchemaVersion),
			"an admin runs team init with this build, or update the plugin"})
	case !ss.RowSecurity:
		return append(out, check{"team server", "fail", "row-level security is off on the team tables: every role reads every team's memories",
			"an admin runs ALTER TABLE cml.memories ENABLE ROW LEVEL SECURITY (and cml.changes, cml.applied)"})
	}
	return append(out, check{"team server", "ok", fmt.Sprintf("team %s as %s on %s: schema version %d, row-level security on, %s; the password is %s",
		tc.Team, ss.User, tc.URL, ss.SchemaVersion, plural.Of(int(ss.Memories), "shared memory"), tc.Secret.Describe()), ""})
}

// spendWarn is the share of a cap from which doctor warns.
const spendWarn = 0.8

// checkSpend compares what LLM extraction spent today and this month with
// the caps: a warning from 80 % of one, another when one is reached (the
// sessions are then extracted offline). It says nothing for the offline
// extractor with no caps and no spend.
func checkSpend(ctx context.Context, e *env, cfg config.Config) (check, bool) {
	db, err := openReadStore(ctx, e)
	if err != nil || db == nil {
		return check{}, false
	}
	defer db.Close()
	st, err := spend.Read(ctx, db, cfg.LLM.Budget, e.now())
	if err != nil {
		return check{"llm budget", "warn", err.Error(), ""}, true
	}
	if cfg.Extractor == "offline" && !cfg.LLM.Budget.Capped() && st.Month.Calls == 0 {
		return check{}, false
	}
	line := spendLine(*spendOf(st))
	fix := "raise the cap in " + filepath.Join(cfg.DataDir, config.ConfigFile) + " (llm.budget) or wait for the window to end"
	if _, ok := st.Reached(); ok {
		return check{"llm budget", "warn", line, fix}, true
	}
	for _, c := range st.Set() {
		if c.Fraction() >= spendWarn {
			return check{"llm budget", "warn", fmt.Sprintf("%s; %.0f %% of %s", line, 100*c.Fraction(), c.Key), fix}, true
		}
	}
	if !cfg.LLM.Budget.Capped() {
		line += "; no cap set (llm.budget)"
	}
	return check{"llm budget", "ok", line, ""}, true
}

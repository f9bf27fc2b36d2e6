package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/team"
)

const teamUsage = `init --url URL --team NAME | add-member --url URL --team NAME ROLE |
  join --url URL --team NAME [--project DIR] [--name NAME] | sync | status | leave    (each with --json)

Team memory shares this machine's verified memories of a project (with their
evidence quotes, corrections and forgets) with a team on a PostgreSQL server,
and brings the teammates' into recall. Raw messages are never shared.
The URL is kept without its password. A password given in the URL to join
goes to the OS keyring when one answers (else to the pgpass file, ~/.pgpass
or PGPASSFILE), and leave removes it; or keep it yourself in the pgpass file
or PGPASSWORD. TLS as the URL's sslmode says.`

// teamCommands are the team subcommands.
func teamCommands() map[string]func(context.Context, *env, []string) error {
	return map[string]func(context.Context, *env, []string) error{
		"init": runTeamInit, "add-member": runTeamAddMember, "join": runTeamJoin,
		"sync": runTeamSync, "status": runTeamStatus, "leave": runTeamLeave,
	}
}

// runTeam dispatches the team subcommands.
func runTeam(ctx context.Context, e *env, args []string) error {
	subs := teamCommands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintf(e.stderr, "usage: claude-memory-layer team %s\n", teamUsage)
		if len(args) == 0 {
			return usagef("team needs a subcommand")
		}
		return nil
	}
	run, ok := subs[args[0]]
	if !ok {
		if s := suggest(args[0], sortedKeys(subs)); s != "" {
			return usagef("unknown team subcommand %q: did you mean %q?", args[0], s)
		}
		return usagef("unknown team subcommand %q (want init, add-member, join, sync, status or leave)", args[0])
	}
	return run(ctx, e, args[1:])
}

type teamOptions struct {
	url, team, project, name string
	json, background         bool
	args                     []string
}

// parseTeam parses a team subcommand's flags; want lists the flags it takes
// besides --json, nargs how many arguments.
func parseTeam(e *env, name, usage string, args []string, nargs int, want ...string) (teamOptions, error) {
	var o teamOptions
	fs := newFlags(e, "team "+name, usage)
	for _, w := range want {
		switch w {
		case "url":
			fs.StringVar(&o.url, "url", "", "the server: postgres://ROLE@HOST:PORT/DB?sslmode=...")
		case "team":
			fs.StringVar(&o.team, "team", "", "the team: a PostgreSQL role its members are granted")
		case "project":
			fs.StringVar(&o.project, "project", "", "the project to share (default: the current directory's)")
		case "name":
			fs.StringVar(&o.name, "name", "", "the project's name across machines when it has no git remote")
		case "background":
			fs.BoolVar(&o.background, "background", false, "as the worker after a session: heed the backoff, write to the log only")
		}
	}
	fs.BoolVar(&o.json, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	o.args = fs.Args()
	if len(o.args) != nargs {
		return o, usagef("want %d argument(s), got %d: %s", nargs, len(o.args), usage)
	}
	for _, w := range want {
		if w == "url" && o.url == "" || w == "team" && o.team == "" {
			return o, usagef("--%s is required", w)
		}
	}
	if o.team != "" {
		if err := team.CheckName("team", o.team); err != nil {
			return o, usageError{err}
		}
	}
	return o, nil
}

func runTeamInit(ctx context.Context, e *env, args []string) error {
	o, err := parseTeam(e, "init", "--url URL --team NAME [--json]", args, 0, "url", "team")
	if err != nil {
		return err
	}
	conn, err := team.Connect(ctx, o.url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if err := team.Init(ctx, conn, o.team); err != nil {
		return err
	}
	if o.json {
		return writeJSON(e.stdout, map[string]any{"team": o.team, "schema_version": team.SchemaVersion})
	}
	fmt.Fprintf(e.stdout, "team %s ready on %s (schema version %d); add members with team add-member\n", o.team, team.StripPassword(o.url), team.SchemaVersion)
	return nil
}

func runTeamAddMember(ctx context.Context, e *env, args []string) error {
	o, err := parseTeam(e, "add-member", "--url URL --team NAME ROLE [--json]", args, 1, "url", "team")
	if err != nil {
		return err
	}
	role := o.args[0]
	if err := team.CheckName("member", role); err != nil {
		return usageError{err}
	}
	conn, err := team.Connect(ctx, o.url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if err := team.AddMember(ctx, conn, o.team, role); err != nil {
		return err
	}
	if o.json {
		return writeJSON(e.stdout, map[string]any{"team": o.team, "member": role})
	}
	fmt.Fprintf(e.stdout, "%s is a member of team %s\n", role, o.team)
	return nil
}

func runTeamJoin(ctx context.Context, e *env, args []string) error {
	o, err := parseTeam(e, "join", "--url URL --team NAME [--project DIR] [--name NAME] [--json]", args, 0, "url", "team", "project", "name")
	if err != nil {
		return err
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	root, err := projectFlag(o.project)
	if err != nil {
		return err
	}
	if err := recordedFlag(ctx, e, &root); err != nil {
		return err
	}
	ident := team.Identity(root, o.name)
	if ident == "" {
		return usagef("%s has no git remote: name the project across machines with --name NAME", root)
	}
	old, err := team.LoadConfig(cfg.DataDir)
	if err != nil && !errors.Is(err, team.ErrNotJoined) {
		return err
	}
	same := old.Team == o.team && team.StripPassword(old.URL) == team.StripPassword(o.url)
	tc := team.Config{Team: o.team, URL: o.url} // another team: its projects start over
	if same {
		tc = old // a URL without its password uses the one join kept
		tc.URL = o.url
	}
	conn, err := team.ConnectConfig(ctx, tc)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	st, err := team.Check(ctx, conn, o.team)
	if err != nil {
		return err
	}
	if !st.Member {
		return fmt.Errorf("%s is not a member of team %s: an admin runs team add-member --team %s %s", st.User, o.team, o.team, st.User)
	}
	if st.SchemaVersion != team.SchemaVersion {
		return fmt.Errorf("the server's team schema is at version %d, this build's at %d", st.SchemaVersion, team.SchemaVersion)
	}
	pgpass, err := pgpassFile(e)
	if err != nil {
		return err
	}
	if old.Secret.Store != "" && team.HasPassword(o.url) {
		// The password join kept before goes first: the new one may be
		// kept in its place (another team on the same server and user:
		// the same pgpass line or keyring entry), where forgetting the
		// old one after saving removed the new one.
		if _, err := team.ForgetPassword(ctx, old); err != nil {
			fmt.Fprintf(e.stderr, "warning: %v\n", err)
		}
	}
	saved, err := team.SavePassword(ctx, o.url, pgpass)
	if err != nil {
		return err
	}
	if saved.Store != "" {
		tc.Secret = saved
	}
	if err := config.EnsureDir(cfg.DataDir); err != nil {
		return err
	}
	if tc.Projects == nil {
		tc.Projects = map[string]string{}
	}
	tc.Projects[root] = ident
	db, _, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	// The cursor may be past this project's changes, or be another
	// server's: the next sync pulls from the start.
	if err := team.Restart(ctx, db); err != nil {
		return err
	}
	if err := team.SaveConfig(cfg.DataDir, tc); err != nil {
		return err
	}
	if o.json {
		return writeJSON(e.stdout, map[string]any{"team": o.team, "user": st.User, "project": root, "identity": ident, "password": tc.Secret})
	}
	fmt.Fprintf(e.stdout, "joined team %s as %s: %s is shared as %s\n", o.team, st.User, root, ident)
	if saved.Store != "" {
		fmt.Fprintf(e.stdout, "the password is %s (the data directory keeps the URL without it)\n", saved.Describe())
		if saved.KeyringErr != "" {
			fmt.Fprintf(e.stdout, "no OS keyring: %s\n", saved.KeyringErr)
		}
	}
	fmt.Fprintln(e.stdout, "verified memories are shared and teammates' pulled after each session, or now with team sync")
	return nil
}

// pgpassFile is the pgpass file PostgreSQL's clients read: PGPASSFILE,
// else ~/.pgpass.
func pgpassFile(e *env) (string, error) {
	if path := e.getenv("PGPASSFILE"); path != "" {
		return path, nil
	}
	home := e.getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("save the password: %w", err)
		}
	}
	return filepath.Join(home, ".pgpass"), nil
}

// openSyncStore opens the store for a sync as import opens it
// (store.Options.Bulk): a sync may write a whole team's memories, so a
// page cache that holds their indexes, and a hook waiting for the write
// lock goes before the sync's next transaction. Without it a pull of 40k
// memories cost a fifth to a quarter more processor time; TestTeamScale
// measures the sync so opened.
func openSyncStore(ctx context.Context, e *env) (*store.DB, config.Config, error) {
	return openStoreWith(ctx, e, store.Options{Bulk: true})
}

func loadTeam(e *env) (config.Config, team.Config, error) {
	cfg, err := loadConfig(e)
	if err != nil {
		return cfg, team.Config{}, err
	}
	tc, err := team.LoadConfig(cfg.DataDir)
	return cfg, tc, err
}

func runTeamSync(ctx context.Context, e *env, args []string) error {
	o, err := parseTeam(e, "sync", "[--json] [--background]", args, 0, "background")
	if err != nil {
		return err
	}
	if o.background {
		// Started by the SessionEnd hook: nobody reads the output.
		cfg, err := loadConfig(e)
		if err != nil {
			return err
		}
		log, closeLog := hook.OpenLog(cfg, io.Discard)
		defer closeLog()
		backgroundSync(ctx, e, cfg, log.With("worker", "team"))
		return nil
	}
	cfg, tc, err := loadTeam(e)
	if err != nil {
		return err
	}
	db, _, err := openSyncStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	res, err := team.Sync(ctx, db, cfg.DataDir, tc, e.now())
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(e.stdout, res)
	}
	fmt.Fprintf(e.stdout, "shared %d new memories, pushed %d changes, pulled %d changes\n", res.Shared, res.Pushed, res.Pulled)
	return nil
}

func runTeamStatus(ctx context.Context, e *env, args []string) error {
	o, err := parseTeam(e, "status", "[--json]", args, 0)
	if err != nil {
		return err
	}
	_, tc, err := loadTeam(e)
	if errors.Is(err, team.ErrNotJoined) {
		if o.json {
			return writeJSON(e.stdout, map[string]any{"team": ""})
		}
		fmt.Fprintln(e.stdout, "not in a team")
		return nil
	}
	if err != nil {
		return err
	}
	db, _, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := team.LocalStatus(ctx, db, tc)
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(e.stdout, st)
	}
	fmt.Fprintf(e.stdout, "team:       %s\nserver:     %s\npending:    %d changes\ncursor:     %d\n", st.Team, st.URL, st.Pending, st.Cursor)
	last := st.LastSync
	if last == "" {
		last = "never"
	}
	fmt.Fprintf(e.stdout, "last sync:  %s\npassword:   %s\n", last, st.Password.Describe())
	if st.LastErr != "" {
		fmt.Fprintf(e.stdout, "last error: %s (next try after %s)\n", st.LastErr, st.NextTry)
	}
	dirs := make([]string, 0, len(st.Projects))
	for d := range st.Projects {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		fmt.Fprintf(e.stdout, "project:    %s = %s\n", d, st.Projects[d])
	}
	return nil
}

func runTeamLeave(ctx context.Context, e *env, args []string) error {
	o, err := parseTeam(e, "leave", "[--json]", args, 0)
	if err != nil {
		return err
	}
	cfg, tc, err := loadTeam(e)
	if err != nil {
		return err
	}
	// The password first: a leave that fails here can be run again, one
	// that removed the config first could not find it any more.
	forgot, err := team.ForgetPassword(ctx, tc)
	if err != nil {
		return err
	}
	if err := team.RemoveConfig(cfg.DataDir); err != nil {
		return err
	}
	if o.json {
		return writeJSON(e.stdout, map[string]any{"left": tc.Team, "password": forgot})
	}
	fmt.Fprintf(e.stdout, "left team %s: nothing is shared or pulled from now on; memories already shared stay on the server, teammates' stay here until forgotten\n", tc.Team)
	if forgot != "" {
		fmt.Fprintln(e.stdout, forgot)
	}
	return nil
}

// backgroundSync is the worker's sync after a session: when this machine is
// in a team and the backoff after failures has passed. Errors go to the log.
func backgroundSync(ctx context.Context, e *env, cfg config.Config, log *slog.Logger) {
	tc, err := team.LoadConfig(cfg.DataDir)
	if err != nil {
		if !errors.Is(err, team.ErrNotJoined) {
			log.Error("team sync", "err", err)
		}
		return
	}
	db, _, err := openSyncStore(ctx, e)
	if err != nil {
		log.Error("team sync", "err", err)
		return
	}
	defer db.Close()
	if !team.Due(ctx, db, e.now()) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	res, err := team.Sync(ctx, db, cfg.DataDir, tc, e.now())
	if err != nil {
		log.Error("team sync", "err", err)
		return
	}
	log.Info("team sync", "shared", res.Shared, "pushed", res.Pushed, "pulled", res.Pulled)
}

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/ingest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
)

// listOptions are the flags of list.
type listOptions struct {
	Project string // a directory: only its transcript folder
	JSON    bool
}

const listUsage = `[--project DIR] [--json]

Lists the Claude Code sessions on disk ($CLAUDE_CONFIG_DIR/projects, else
~/.claude/projects), newest first, and whether each is imported: yes (all of
it), partial (it grew since) or no.
`

func parseListFlags(e *env, args []string) (listOptions, error) {
	var o listOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	fs := newFlags(e, "list", listUsage)
	fs.StringVar(&o.Project, "project", "", "only the sessions run in `DIR`")
	fs.BoolVar(&o.JSON, "json", false, "print the sessions as JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q", fs.Arg(0))
	}
	return o, nil
}

// listedSession is one row of list --json.
type listedSession struct {
	SessionID string `json:"session_id"`
	Project   string `json:"project"`
	Path      string `json:"path"`
	Date      string `json:"date"`
	Bytes     int64  `json:"bytes"`
	Lines     int    `json:"lines"`
	Imported  string `json:"imported"` // yes, partial, no
	date      time.Time
}

func runList(ctx context.Context, e *env, args []string) error {
	o, err := parseListFlags(e, args)
	if err != nil {
		return err
	}
	root, err := transcript.ProjectsDir(e.getenv)
	if err != nil {
		return err
	}
	folders, err := transcript.Folders(root, o.Project)
	if err != nil {
		return err
	}
	var paths []string
	for _, f := range folders {
		ps, err := transcript.Files(f)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		paths = append(paths, ps...)
	}
	db, err := openReadStore(ctx, e)
	if err != nil {
		return err
	}
	if db != nil {
		defer db.Close()
	}
	out := []listedSession{}
	for _, p := range paths {
		if transcript.IsSubagent(p) {
			continue // part of its session, not a session
		}
		info, err := ingest.ReadInfo(p, true)
		if err != nil {
			fmt.Fprintf(e.stderr, "claude-memory-layer list: %s: %s\n", p, ingest.ErrorText(err))
			continue
		}
		s := listedSession{SessionID: info.SessionID, Project: info.Cwd, Path: p, Bytes: info.Size, Lines: info.Lines, Imported: "no", date: info.Date()}
		if s.Project == "" {
			s.Project = filepath.Base(filepath.Dir(p))
		}
		s.Date = s.date.UTC().Format(time.RFC3339)
		if db != nil {
			sess, err := db.Read().Session(ctx, info.SessionID)
			switch {
			case errors.Is(err, store.ErrNotFound):
			case err != nil:
				return err
			case sess.Offset == info.Size:
				s.Imported = "yes"
			default:
				// A last line without its newline is still being written (or
				// was cut): no ingest takes it, so it does not make a partial.
				s.Imported = "partial"
				if tail, err := transcript.ReadTail(p, info.Size); err == nil && sess.Offset == tail.Complete {
					s.Imported = "yes"
				}
			}
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].date.Equal(out[j].date) {
			return out[i].date.After(out[j].date)
		}
		return out[i].Path < out[j].Path
	})
	if o.JSON {
		return writeJSON(e.stdout, map[string]any{"sessions": out})
	}
	if len(out) == 0 {
		where := root
		if len(folders) == 1 {
			where = folders[0]
		}
		fmt.Fprintf(e.stdout, "no Claude Code sessions in %s\n", where)
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DATE (UTC)\tSESSION\tPROJECT\tSIZE\tLINES\tIMPORTED")
	for _, s := range out {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", s.date.UTC().Format("2006-01-02 15:04"), s.SessionID, s.Project, byteSize(s.Bytes), s.Lines, s.Imported)
	}
	return tw.Flush()
}

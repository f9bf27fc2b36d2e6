package main

import (
	"context"
	"fmt"

	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/task"
)

// runTasks lists a project's open tasks (what sessions left to do), or
// with "close mem:ID" / "drop mem:ID" closes one by hand.
func runTasks(ctx context.Context, e *env, args []string) error {
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return err
	}
	if len(args) > 0 && (args[0] == "close" || args[0] == "drop") {
		return closeTask(ctx, e, args[0], args[1:])
	}
	fs := newFlags(e, "tasks", "[--all] [--project DIR | --all-projects] [--json]  |  close mem:ID  |  drop mem:ID")
	all := fs.Bool("all", false, "closed tasks too, with what closed them")
	dir := fs.String("project", "", "this project's tasks (default: the current directory's)")
	allProjects := fs.Bool("all-projects", false, "every project's tasks")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (want close mem:ID or drop mem:ID)", fs.Arg(0))
	}
	if *dir != "" && *allProjects {
		return usagef("--project and --all-projects exclude each other")
	}
	scope := ""
	if !*allProjects {
		if scope, err = projectFlag(*dir); err != nil {
			return err
		}
	}
	var ts []task.Task
	db, err := openReadStore(ctx, e, &scope)
	if err != nil {
		return err
	}
	if db != nil {
		defer db.Close()
		scope = widenScope(ctx, e, db, scope, *dir, *asJSON, "tasks")
		if ts, err = task.List(ctx, db, scope, *all); err != nil {
			return err
		}
	}
	if *asJSON {
		type closedJSON struct {
			How       string `json:"how"`
			ByHand    bool   `json:"by_hand"`
			Time      string `json:"time"`
			SessionID string `json:"session_id,omitempty"`
			Quote     string `json:"quote,omitempty"`
		}
		type taskJSON struct {
			entryJSON
			Open   bool        `json:"open"`
			Closed *closedJSON `json:"closed,omitempty"`
		}
		out := struct {
			Tasks []taskJSON `json:"tasks"`
		}{Tasks: []taskJSON{}}
		for _, t := range ts {
			j := taskJSON{entryJSON: toEntryJSON(t.Entry), Open: t.Closed == nil}
			if c := t.Closed; c != nil {
				j.Closed = &closedJSON{How: c.How, ByHand: c.ByHand, Time: jsonTime(c.Time), SessionID: c.SessionID, Quote: c.Quote}
			}
			out.Tasks = append(out.Tasks, j)
		}
		return writeJSON(e.stdout, out)
	}
	open := 0
	for _, t := range ts {
		state := "open"
		if c := t.Closed; c != nil {
			state = c.How + " " + c.Time.Local().Format("2006-01-02")
			if c.ByHand {
				state += " by hand"
			}
		} else {
			open++
		}
		fmt.Fprintf(e.stdout, "%s  %s  %-18s %s\n", t.CID, t.Created.Local().Format("2006-01-02"), state, clipLine(t.Title, 90))
		if t.Closed != nil && t.Closed.Quote != "" {
			fmt.Fprintf(e.stdout, "    closed by: %q\n", clipLine(t.Closed.Quote, 100))
		}
	}
	fmt.Fprint(e.stdout, plural.Of(open, "open task"))
	if *all {
		fmt.Fprintf(e.stdout, ", %d closed", len(ts)-open)
	}
	if open > 0 {
		fmt.Fprint(e.stdout, " (tasks close mem:ID or tasks drop mem:ID closes one)")
	}
	fmt.Fprintln(e.stdout)
	return nil
}

// closeTask closes a task by hand: close when it is done, drop when it
// is given up.
func closeTask(ctx context.Context, e *env, verb string, args []string) error {
	fs := newFlags(e, "tasks "+verb, "mem:ID")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want exactly one memory id")
	}
	db, x, err := memoryArg(ctx, e, fs.Arg(0))
	if err != nil {
		return err
	}
	defer db.Close()
	how, done := task.Done, "closed"
	if verb == "drop" {
		how, done = task.Dropped, "dropped"
	}
	changed, err := task.Close(ctx, db, x, how, e.now())
	if err != nil {
		return err
	}
	if !changed {
		fmt.Fprintf(e.stdout, "%s was closed already\n", x.CID)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s %s: %s\n", x.CID, done, clipLine(x.Title, 100))
	return nil
}

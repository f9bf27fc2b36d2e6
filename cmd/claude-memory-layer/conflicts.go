package main

import (
	"context"
	"fmt"

	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// runConflicts lists a project's open contradictions, the pairs of memories
// the conflict ledger found saying different things, with how to settle
// each: what the dashboard's conflicts page shows, for a terminal.
func runConflicts(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "conflicts", "[--project DIR | --all-projects] [--limit N] [--json]")
	project := fs.String("project", "", "this project's conflicts (default: the current directory's)")
	all := fs.Bool("all-projects", false, "every project's conflicts")
	limit := fs.Int("limit", 50, "conflicts at most")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *limit <= 0 {
		return usagef("--limit must be positive")
	}
	if *project != "" && *all {
		return usagef("--project and --all-projects exclude each other")
	}
	scope := ""
	if !*all {
		var err error
		if scope, err = projectFlag(*project); err != nil {
			return err
		}
	}
	db, err := openReadStore(ctx, e, &scope)
	if err != nil {
		return err
	}
	type pair struct {
		ID           int64     `json:"id"`
		Reason       string    `json:"reason"`
		Older        entryJSON `json:"older"`
		Newer        entryJSON `json:"newer"`
		older, newer store.Entry
	}
	var ps []pair
	if db != nil {
		defer db.Close()
		scope = widenScope(ctx, e, db, scope, *project, *asJSON, "conflicts")
		cs, err := db.OpenConflicts(ctx, scope, *limit)
		if err != nil {
			return err
		}
		for _, c := range cs {
			older, err := db.Read().EntryByID(ctx, c.Older)
			if err != nil {
				return err
			}
			newer, err := db.Read().EntryByID(ctx, c.Newer)
			if err != nil {
				return err
			}
			ps = append(ps, pair{ID: c.ID, Reason: c.Reason, Older: toEntryJSON(older), Newer: toEntryJSON(newer), older: older, newer: newer})
		}
	}
	if *asJSON {
		out := struct {
			Conflicts []pair `json:"conflicts"`
		}{Conflicts: ps}
		if out.Conflicts == nil {
			out.Conflicts = []pair{}
		}
		return writeJSON(e.stdout, out)
	}
	if len(ps) == 0 {
		fmt.Fprintln(e.stdout, "no open conflicts")
		return nil
	}
	for _, p := range ps {
		fmt.Fprintf(e.stdout, "conflict %d: %s\n", p.ID, clipLine(p.Reason, 100))
		fmt.Fprintf(e.stdout, "  older %s %s\n", p.older.CID, clipLine(p.older.Title, 90))
		fmt.Fprintf(e.stdout, "  newer %s %s\n", p.newer.CID, clipLine(p.newer.Title, 90))
		fmt.Fprintf(e.stdout, "  settle: supersede %s %s (the newer replaces the older), or reject the wrong one\n\n", p.older.CID, p.newer.CID)
	}
	fmt.Fprintf(e.stdout, "%s", plural.Of(len(ps), "open conflict"))
	if len(ps) == *limit {
		fmt.Fprint(e.stdout, " (--limit N for more)")
	}
	fmt.Fprintln(e.stdout)
	return nil
}

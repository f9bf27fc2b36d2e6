package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/claude-memory-layer/claude-memory-layer/internal/correct"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// A user's corrections of memories: supersede, edit, pin and unpin. Each is
// one event in the log (show lists them with the memory), so that what the
// user changed is recorded like everything else and can be rebuilt.

// memoryArg opens the store and loads the memory named by arg.
func memoryArg(ctx context.Context, e *env, arg string) (*store.DB, store.Entry, error) {
	cid, err := parseCID(arg)
	if err != nil {
		return nil, store.Entry{}, err
	}
	db, _, err := openStore(ctx, e)
	if err != nil {
		return nil, store.Entry{}, err
	}
	x, err := db.EntryByCID(ctx, cid)
	if errors.Is(err, store.ErrNotFound) {
		db.Close()
		return nil, store.Entry{}, fmt.Errorf("no memory %s (see claude-memory-layer entries)", cid)
	}
	if err != nil {
		db.Close()
		return nil, store.Entry{}, err
	}
	return db, x, nil
}

// runSupersede records that NEW replaces OLD, as the conflict ledger does
// for an explicit change: OLD is kept, shown only with a conflict warning,
// and never in the brief.
func runSupersede(ctx context.Context, e *env, args []string) error {
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return err
	}
	fs := newFlags(e, "supersede", "mem:OLD mem:NEW")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want the memory replaced and the one replacing it")
	}
	db, old, err := memoryArg(ctx, e, fs.Arg(0))
	if err != nil {
		return err
	}
	defer db.Close()
	newer, err := db.EntryByCID(ctx, mustCID(fs.Arg(1)))
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no memory %s (see claude-memory-layer entries)", fs.Arg(1))
	}
	if err != nil {
		return err
	}
	if old.ID == newer.ID {
		return usagef("a memory cannot supersede itself")
	}
	added, err := correct.Supersede(ctx, db, old, newer, e.now())
	if err != nil {
		return err
	}
	if !added {
		fmt.Fprintf(e.stdout, "%s already supersedes %s\n", newer.CID, old.CID)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s superseded by %s: %s\n", old.CID, newer.CID, clipLine(newer.Title, 100))
	return nil
}

// mustCID is parseCID for an argument whose error the lookup reports.
func mustCID(arg string) string {
	cid, err := parseCID(arg)
	if err != nil {
		return arg
	}
	return cid
}

// runEdit changes a memory's title, body or type. The old and new text are
// in the event, so show can say what was changed; the quotes are untouched,
// and show then says the body is distilled unless it still states a quote.
func runEdit(ctx context.Context, e *env, args []string) error {
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return err
	}
	fs := newFlags(e, "edit", "mem:ID [--title T] [--body B] [--type T]")
	title := fs.String("title", "", "new title")
	body := fs.String("body", "", "new body")
	typ := fs.String("type", "", "new type: decision, fact, preference, constraint, lesson, task or reference")
	choices(fs, "type", correct.Types)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want exactly one memory id")
	}
	if !fs.Changed("title") && !fs.Changed("body") && !fs.Changed("type") {
		return usagef("nothing to change: give --title, --body or --type")
	}
	var to correct.Text
	if fs.Changed("title") {
		to.Title = title
	}
	if fs.Changed("body") {
		to.Body = body
	}
	if fs.Changed("type") {
		to.Type = typ
	}
	if _, err := to.Clean(); err != nil {
		return usageError{err}
	}
	db, x, err := memoryArg(ctx, e, fs.Arg(0))
	if err != nil {
		return err
	}
	defer db.Close()
	y, changed, err := correct.Edit(ctx, db, x, to, e.now())
	if err != nil {
		return err
	}
	if !changed {
		fmt.Fprintf(e.stdout, "%s unchanged\n", x.CID)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s edited: %s\n", x.CID, clipLine(y.Title, 100))
	return nil
}

func runPin(ctx context.Context, e *env, args []string) error {
	return setPin(ctx, e, "pin", args, true)
}

func runUnpin(ctx context.Context, e *env, args []string) error {
	return setPin(ctx, e, "unpin", args, false)
}

// setPin pins a memory (the SessionStart brief always shows it) or unpins it.
func setPin(ctx context.Context, e *env, name string, args []string, pin bool) error {
	arg, err := memoryIDArg(e, name, args)
	if err != nil {
		return err
	}
	db, x, err := memoryArg(ctx, e, arg)
	if err != nil {
		return err
	}
	defer db.Close()
	changed, err := correct.Pin(ctx, db, x, pin, e.now())
	if err != nil {
		return err
	}
	if !changed {
		fmt.Fprintf(e.stdout, "%s is already %sned\n", x.CID, name)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s %sned: %s\n", x.CID, name, clipLine(x.Title, 100))
	return nil
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
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

// correction is the event recording one correction of memory x.
func correction(e *env, typ string, x store.Entry, fields map[string]any) store.Event {
	now := e.now()
	fields["cid"] = x.CID
	payload, _ := json.Marshal(fields)
	return store.Event{Time: now, Type: typ, Project: x.Project, Payload: payload,
		DedupeKey: store.Key(store.KeyKind(typ), x.CID, store.FormatTime(now))}
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
	if old.Project != newer.Project {
		return fmt.Errorf("%s and %s belong to different projects", old.CID, newer.CID)
	}
	now := e.now()
	reason := "superseded by hand"
	payload, _ := json.Marshal(map[string]any{"older": old.CID, "newer": newer.CID, "kind": "supersedes", "reason": reason, "by": "user"})
	added, err := db.AddConflict(ctx, store.Conflict{Older: old.ID, Newer: newer.ID, Kind: "supersedes", Reason: reason, Detected: now},
		store.Event{Time: now, Type: store.TypeConflict, SessionID: newer.SessionID, Project: newer.Project,
			DedupeKey: store.Key(store.KeyConflict, old.CID, newer.CID), Payload: payload})
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
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want exactly one memory id")
	}
	if !fs.Changed("title") && !fs.Changed("body") && !fs.Changed("type") {
		return usagef("nothing to change: give --title, --body or --type")
	}
	to := map[string]string{}
	if fs.Changed("title") {
		t := strings.Join(strings.Fields(*title), " ")
		if t == "" || len([]rune(t)) > 200 {
			return usagef("a title is 1 to 200 characters")
		}
		to["title"] = t
	}
	if fs.Changed("body") {
		to["body"] = strings.TrimSpace(*body)
	}
	if fs.Changed("type") {
		t := strings.ToLower(strings.TrimSpace(*typ))
		if !validType(t) {
			return usagef("unknown type %q", *typ)
		}
		to["type"] = t
	}
	db, x, err := memoryArg(ctx, e, fs.Arg(0))
	if err != nil {
		return err
	}
	defer db.Close()
	from := map[string]string{}
	nt, nti, nb := x.Type, x.Title, x.Body
	if v, ok := to["type"]; ok && v != x.Type {
		from["type"], nt = x.Type, v
	}
	if v, ok := to["title"]; ok && v != x.Title {
		from["title"], nti = x.Title, v
	}
	if v, ok := to["body"]; ok && v != x.Body {
		from["body"], nb = x.Body, v
	}
	if len(from) == 0 {
		fmt.Fprintf(e.stdout, "%s unchanged\n", x.CID)
		return nil
	}
	changed := map[string]string{}
	for k := range from {
		changed[k] = to[k]
	}
	ev := correction(e, store.TypeEdited, x, map[string]any{"from": from, "to": changed})
	if err := db.SetText(ctx, x.ID, nt, nti, nb, ev); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s edited: %s\n", x.CID, clipLine(nti, 100))
	return nil
}

func validType(t string) bool {
	switch extract.Type(t) {
	case extract.Decision, extract.Fact, extract.Preference, extract.Constraint, extract.Lesson, extract.Task, extract.Reference:
		return true
	}
	return false
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
	pinned, err := db.Pinned(ctx, x.Project)
	if err != nil {
		return err
	}
	if pinned[x.CID] == pin {
		fmt.Fprintf(e.stdout, "%s is already %sned\n", x.CID, name)
		return nil
	}
	typ := store.TypeUnpinned
	if pin {
		typ = store.TypePinned
	}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		_, err := tx.Append(ctx, correction(e, typ, x, map[string]any{}))
		return err
	}); err != nil {
		return fmt.Errorf("append: %w", err)
	}
	fmt.Fprintf(e.stdout, "%s %sned: %s\n", x.CID, name, clipLine(x.Title, 100))
	return nil
}

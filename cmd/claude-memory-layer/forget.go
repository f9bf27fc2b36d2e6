package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/when"
)

type forgetOptions struct {
	cid     string
	session string
	before  time.Time
	project string // a directory, resolved to the project identity when run
	match   string
	yes     bool
	json    bool
	compact bool
	shared  bool // with a memory id: also the other memories quoting the same words
}

const forgetUsage = "mem:ID [--shared] | [--session ID] [--before DATE] [--project DIR] [--match QUERY] [--yes] [--json] | --compact"

func parseForget(e *env, args []string) (forgetOptions, error) {
	var o forgetOptions
	args, fromStdin, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	// Text handed over on stdin (a slash command's arguments) may preview a
	// forget but never confirm one: the user runs the confirm command.
	for _, a := range fromStdin {
		if a == "--yes" || strings.HasPrefix(a, "--yes=") {
			return o, usagef("--yes is not taken from a slash command's arguments (%s, %s); run the confirm command the preview prints", argsStdinFlag, argsPromptFlag)
		}
	}
	var before string
	fs := newFlags(e, "forget", forgetUsage)
	fs.StringVar(&o.session, "session", "", "forget this session's messages and the memories drawn from it")
	fs.StringVar(&before, "before", "", "forget everything before this date: "+when.Help)
	fs.StringVar(&o.project, "project", "", "forget this project's history (with other flags: only within it)")
	fs.StringVar(&o.match, "match", "", "forget messages and memories containing this phrase")
	fs.BoolVar(&o.yes, "yes", false, "really forget; without it, only show what would go")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	fs.BoolVar(&o.compact, "compact", false, "only rewrite the store file so nothing deleted remains in it (after an interrupted forget)")
	fs.BoolVar(&o.shared, "shared", false, "with a memory id: also forget the other memories that quote the same words")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	for _, name := range []string{"session", "before", "project", "match"} {
		if fs.Changed(name) && strings.TrimSpace(fs.Lookup(name).Value.String()) == "" {
			return o, usagef("--%s needs a value", name)
		}
	}
	if fs.NArg() > 1 {
		return o, usagef("want at most one memory id, got %d arguments", fs.NArg())
	}
	if fs.NArg() == 1 {
		cid, err := parseCID(fs.Arg(0))
		if err != nil {
			return o, err
		}
		o.cid = cid
	}
	if before != "" {
		t, err := parseDate(e, before)
		if err != nil {
			return o, err
		}
		o.before = t
	}
	o.match = strings.TrimSpace(o.match)
	if o.match != "" && strings.IndexFunc(o.match, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return o, usagef("--match %q has no letter or digit to match", o.match)
	}
	filters := o.session != "" || before != "" || o.project != "" || o.match != ""
	switch {
	case o.compact && (o.cid != "" || filters):
		return o, usagef("--compact takes no memory id or filter")
	case o.compact:
		return o, nil
	case o.shared && o.cid == "":
		return o, usagef("--shared goes with a memory id")
	case o.cid != "" && filters:
		return o, usagef("a memory id cannot be combined with --session, --before, --project or --match")
	case o.cid == "" && !filters:
		return o, usagef("say what to forget: mem:ID, --session ID, --before DATE, --project DIR or --match QUERY")
	}
	return o, nil
}

func runForget(ctx context.Context, e *env, args []string) error {
	o, err := parseForget(e, args)
	if err != nil {
		return err
	}
	if o.compact {
		return forgetCompact(ctx, e, o)
	}
	if err := resumeCompaction(ctx, e); err != nil {
		return err
	}
	sel := store.ForgetSelector{CID: o.cid, SessionID: o.session, Before: o.before, Phrase: o.match, Shared: o.shared}
	if o.project != "" {
		if sel.Project, err = projectFlag(o.project); err != nil {
			return err
		}
		if err := recordedFlag(ctx, e, &sel.Project); err != nil {
			return err
		}
	}
	if !o.yes {
		return forgetPreview(ctx, e, o, sel)
	}
	db, _, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	if sel.SessionID, err = resolveSession(ctx, db, sel.SessionID); err != nil {
		return err
	}
	p, err := db.Forget(ctx, sel)
	if errors.Is(err, store.ErrNotFound) && o.cid != "" {
		return fmt.Errorf("no memory %s (see claude-memory-layer entries)", o.cid)
	}
	if err != nil {
		return err
	}
	out := forgetReport(sel, p)
	compactErr := db.Compact(ctx)
	done := compactErr == nil
	out.Compacted = &done
	out.SpoolLeft = p.SpoolLeft
	if !p.Empty() {
		if out.BackupsRemoved, err = db.RemoveBackups(); err != nil {
			return err
		}
	}
	if o.json {
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
	} else {
		printForgetDone(e.stdout, out, filepath.Base(db.Path()))
	}
	if err := compactHint(compactErr, db.Path()); err != nil {
		return err
	}
	if p.SpoolLeft > 0 {
		// Not done: the words wait on disk, even though no write will store them.
		return fmt.Errorf("not finished: the spool next to %s still holds %d bytes of hook events that could not be read now "+
			"(a hook holds its lock, or a file is unreadable); whatever of them this forget covers will be refused when they are stored, "+
			"but until then their bytes stay on disk: run the same forget again when no hook is running", filepath.Base(db.Path()), p.SpoolLeft)
	}
	return nil
}

// compactHint explains a compaction that did not finish after a forget
// committed: what is gone, what may remain, and how to finish the job.
func compactHint(err error, path string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrCompactPending):
		return fmt.Errorf("%w; what was forgotten is deleted and no longer searchable, but its bytes may stay in the free pages of %s "+
			"until 'claude-memory-layer forget --compact' succeeds (run it when no Claude Code session is open)", err, path)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("interrupted while compacting (%w): what was forgotten is deleted and no longer searchable, but its bytes may "+
			"stay in %s and its WAL until 'claude-memory-layer forget --compact' (or the next forget) finishes the job", err, path)
	}
	return fmt.Errorf("%w; run 'claude-memory-layer forget --compact' to finish removing the forgotten bytes from %s", err, path)
}

// resumeCompaction finishes the compaction an interrupted forget owes
// before this forget does anything else.
func resumeCompaction(ctx context.Context, e *env) error {
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	if _, err := os.Stat(cfg.DBPath()); err != nil {
		return nil // no store yet; the forget reports that
	}
	db, _, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	if !db.CompactPending() {
		return nil
	}
	fmt.Fprintf(e.stderr, "An earlier forget was interrupted before it compacted %s; finishing that first.\n", filepath.Base(db.Path()))
	return compactHint(db.Compact(ctx), db.Path())
}

func forgetCompact(ctx context.Context, e *env, o forgetOptions) error {
	db, _, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	err = compactHint(db.Compact(ctx), db.Path())
	done := err == nil
	if o.json {
		if werr := writeJSON(e.stdout, map[string]any{"compacted": done}); werr != nil {
			return werr
		}
	} else if done {
		fmt.Fprintf(e.stdout, "Store compacted: nothing deleted remains in %s or its WAL.\n", filepath.Base(db.Path()))
	}
	return err
}

// forgetJSON is forget's report, a preview (dry_run) or what was done.
type forgetJSON struct {
	DryRun              bool              `json:"dry_run"`
	Selector            map[string]string `json:"selector"`
	Entries             int               `json:"entries"`
	Evidence            int               `json:"evidence"`
	Conflicts           int               `json:"conflicts"`
	EventsDeleted       int               `json:"events_deleted"`
	EventsRedacted      int               `json:"events_redacted"`
	Sessions            int               `json:"sessions"`
	SessionsEmptied     int               `json:"sessions_emptied"`
	InjectionsRewritten int               `json:"injections_rewritten"`
	Released            int               `json:"released"`
	// Kept are other memories quoting the same words as the one forgotten,
	// left alone without --shared.
	Kept []string `json:"kept,omitempty"`
	// Samples show a few of the things a preview would remove.
	Samples *forgetSamples `json:"samples,omitempty"`
	// Transcripts are Claude Code's own files for the sessions concerned: they
	// still hold everything, and forget does not touch them.
	Transcripts []string `json:"transcripts,omitempty"`
	// Backups are the store's upgrade backups, which hold old content; --yes deletes them.
	Backups        []string `json:"backups,omitempty"`
	BackupsRemoved []string `json:"backups_removed,omitempty"`
	Confirm        string   `json:"confirm,omitempty"`
	Compacted      *bool    `json:"compacted,omitempty"`
	// SpoolLeft is what the spool still holds that the forget could not read.
	SpoolLeft int64 `json:"spool_left_bytes,omitempty"`
}

type forgetSamples struct {
	Entries  []forgetEntryJSON `json:"entries"`
	Deleted  []eventJSON       `json:"deleted"`
	Redacted []eventJSON       `json:"redacted"`
}

type forgetEntryJSON struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
}

// forgetSampleSize is how many entries and messages a preview shows of each kind.
const forgetSampleSize = 5

func forgetReport(sel store.ForgetSelector, p store.ForgetPlan) forgetJSON {
	sels := map[string]string{}
	if sel.CID != "" {
		sels["memory"] = sel.CID
	}
	if sel.SessionID != "" {
		sels["session"] = sel.SessionID
	}
	if sel.Project != "" {
		sels["project"] = sel.Project
	}
	if !sel.Before.IsZero() {
		sels["before"] = jsonTime(sel.Before)
	}
	if sel.Phrase != "" {
		sels["match"] = sel.Phrase
	}
	return forgetJSON{Selector: sels, Entries: len(p.Entries), Evidence: len(p.Evidence), Conflicts: p.Conflicts,
		EventsDeleted: len(p.Delete), EventsRedacted: len(p.Redact), Sessions: len(p.Sessions), SessionsEmptied: len(p.Emptied),
		InjectionsRewritten: len(p.Injections), Released: len(p.Released), Kept: p.Kept}
}

func forgetPreview(ctx context.Context, e *env, o forgetOptions, sel store.ForgetSelector) error {
	db, err := openReadStore(ctx, e)
	if err != nil {
		return err
	}
	var p store.ForgetPlan
	out := forgetReport(sel, p)
	if db == nil && o.cid != "" {
		return fmt.Errorf("no memory %s (nothing is stored yet)", o.cid)
	}
	if db != nil {
		defer db.Close()
		if sel.SessionID, err = resolveSession(ctx, db, sel.SessionID); err != nil {
			return err
		}
		o.session = sel.SessionID
		out = forgetReport(sel, p)
		pv, err := db.PreviewForget(ctx, sel, forgetSampleSize)
		if errors.Is(err, store.ErrNotFound) && o.cid != "" {
			return fmt.Errorf("no memory %s (see claude-memory-layer entries)", o.cid)
		}
		if err != nil {
			return err
		}
		p = pv.Plan
		out = forgetReport(sel, p)
		out.Samples = samples(pv)
		out.Transcripts, out.Backups = pv.Transcripts, pv.Backups
	}
	out.DryRun = true
	if !p.Empty() {
		out.Confirm = confirmCommand(o, sel)
	}
	if o.json {
		return writeJSON(e.stdout, out)
	}
	printForgetPreview(e.stdout, out)
	return nil
}

// samples are the entries and messages of a preview, as JSON.
func samples(pv store.ForgetPreview) *forgetSamples {
	s := &forgetSamples{Entries: []forgetEntryJSON{}, Deleted: eventsJSON(pv.Deleted), Redacted: eventsJSON(pv.Redacted)}
	for _, x := range pv.Entries {
		s.Entries = append(s.Entries, forgetEntryJSON{x.CID, x.Type, x.Title})
	}
	return s
}

// confirmCommand is the command line that carries out a preview, quoted for a POSIX shell.
func confirmCommand(o forgetOptions, sel store.ForgetSelector) string {
	parts := []string{"claude-memory-layer", "forget"}
	if o.cid != "" {
		parts = append(parts, o.cid)
	}
	if o.shared {
		parts = append(parts, "--shared")
	}
	if o.session != "" {
		parts = append(parts, "--session", shellQuote(o.session))
	}
	if !o.before.IsZero() {
		parts = append(parts, "--before", shellQuote(o.before.UTC().Format(time.RFC3339)))
	}
	if sel.Project != "" {
		parts = append(parts, "--project", shellQuote(sel.Project))
	}
	if o.match != "" {
		parts = append(parts, "--match", shellQuote(o.match))
	}
	return strings.Join(append(parts, "--yes"), " ")
}

// shellQuote quotes s for a POSIX shell unless it is made only of characters
// that need no quoting.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func describeSelector(s map[string]string) string {
	var parts []string
	if v := s["memory"]; v != "" {
		parts = append(parts, "memory "+v)
	}
	if v := s["session"]; v != "" {
		parts = append(parts, "session "+v)
	}
	if v := s["project"]; v != "" {
		parts = append(parts, "project "+v)
	}
	if v := s["before"]; v != "" {
		parts = append(parts, "everything before "+strings.TrimSuffix(strings.Replace(v, "T00:00:00Z", "", 1), "Z"))
	}
	if v := s["match"]; v != "" {
		parts = append(parts, fmt.Sprintf("text matching %q", v))
	}
	return strings.Join(parts, ", ")
}

// forgetCounts is the body of a report: what goes, in a few lines.
func forgetCounts(w io.Writer, r forgetJSON) {
	conflicts := "no conflicts"
	if r.Conflicts > 0 {
		conflicts = plural.Of(r.Conflicts, "conflict")
	}
	fmt.Fprintf(w, "  %s, %s, %s\n", plural.Of(r.Entries, "entry"), plural.Of(r.Evidence, "evidence quote"), conflicts)
	line := plural.Of(r.EventsDeleted, "event") + " deleted"
	if r.EventsRedacted > 0 {
		line += fmt.Sprintf(", %s redacted (text replaced by %q)", plural.Of(r.EventsRedacted, "message"), store.Redacted)
	}
	fmt.Fprintf(w, "  %s\n", line)
	if r.Sessions > 0 {
		line = plural.Of(r.Sessions, "session") + " concerned (summary cleared)"
		if r.SessionsEmptied > 0 {
			line += fmt.Sprintf(", %d left empty", r.SessionsEmptied)
		}
		fmt.Fprintf(w, "  %s\n", line)
	}
	if r.InjectionsRewritten > 0 {
		fmt.Fprintf(w, "  forgotten memory ids dropped from %s\n", plural.Of(r.InjectionsRewritten, "injection record"))
	}
	if r.Released > 0 {
		fmt.Fprintf(w, "  %s no longer contested\n", plural.Of(r.Released, "other memory"))
	}
}

func printForgetPreview(w io.Writer, r forgetJSON) {
	fmt.Fprintf(w, "Forget %s: preview, nothing has been changed.\n\n", describeSelector(r.Selector))
	if r.Entries+r.EventsDeleted+r.EventsRedacted+r.Evidence == 0 {
		fmt.Fprintln(w, "Nothing stored matches.")
		return
	}
	fmt.Fprintln(w, "Would remove:")
	forgetCounts(w, r)
	if s := r.Samples; s != nil {
		if len(s.Entries) > 0 {
			fmt.Fprintln(w, "\nMemories:")
			for _, x := range s.Entries {
				fmt.Fprintf(w, "  %s  %-10s %s\n", x.ID, x.Type, clipLine(x.Title, 90))
			}
			more(w, r.Entries-len(s.Entries))
		}
		for _, l := range []struct {
			head  string
			evs   []eventJSON
			total int
		}{{"Deleted events:", s.Deleted, r.EventsDeleted}, {"Redacted messages (the whole text goes):", s.Redacted, r.EventsRedacted}} {
			if len(l.evs) == 0 {
				continue
			}
			fmt.Fprintf(w, "\n%s\n", l.head)
			for _, ev := range l.evs {
				ts := strings.Replace(strings.TrimSuffix(ev.Timestamp, "Z"), "T", " ", 1)
				fmt.Fprintf(w, "  #%-5s %s  %-16s %s\n", ev.ID, ts, ev.Type, clipLine(ev.Text, 80))
			}
			more(w, l.total-len(l.evs))
		}
	}
	if len(r.Kept) > 0 {
		fmt.Fprintln(w, "\nKept: these memories quote the same words and stay (add --shared to forget them too):")
		for _, c := range r.Kept[:min(len(r.Kept), forgetSampleSize)] {
			fmt.Fprintf(w, "  %s\n", c)
		}
		more(w, len(r.Kept)-forgetSampleSize)
	}
	if len(r.Transcripts) > 0 {
		fmt.Fprintln(w, "\nClaude Code's own transcripts of these sessions are not touched and still hold everything:")
		for _, t := range r.Transcripts[:min(len(r.Transcripts), forgetSampleSize)] {
			fmt.Fprintf(w, "  %s\n", t)
		}
		more(w, len(r.Transcripts)-forgetSampleSize)
	}
	if len(r.Backups) > 0 {
		fmt.Fprintln(w, "\nThese upgrade backups hold old content and will be deleted:")
		for _, b := range r.Backups {
			fmt.Fprintf(w, "  %s\n", b)
		}
	}
	fmt.Fprintf(w, "\nTo forget this for good, run:\n  %s\n", r.Confirm)
}

func more(w io.Writer, n int) {
	if n > 0 {
		fmt.Fprintf(w, "  … and %d more\n", n)
	}
}

func printForgetDone(w io.Writer, r forgetJSON, file string) {
	if r.Entries+r.EventsDeleted+r.EventsRedacted+r.Evidence == 0 {
		fmt.Fprintf(w, "Nothing stored matches %s.\n", describeSelector(r.Selector))
	} else {
		fmt.Fprintf(w, "Forgot %s:\n", describeSelector(r.Selector))
		forgetCounts(w, r)
	}
	for _, b := range r.BackupsRemoved {
		fmt.Fprintf(w, "Deleted the upgrade backup %s.\n", b)
	}
	if r.Compacted != nil && *r.Compacted && r.SpoolLeft == 0 {
		fmt.Fprintf(w, "Store compacted: nothing forgotten remains in %s or its WAL.\n", file)
	}
}

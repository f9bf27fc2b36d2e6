package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/correct"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/inspect"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

type entriesOptions struct {
	stages      []string
	statuses    []string
	types       []string
	project     string
	allProjects bool
	limit       int
	json        bool
}

var (
	entryStages   = []string{store.StageCandidate, store.StageVerified, store.StageCertified, store.StageRejected}
	entryStatuses = []string{store.StatusActive, store.StatusContested, store.StatusSuperseded, store.StatusForgotten}
)

func parseEntries(e *env, args []string) (entriesOptions, error) {
	var o entriesOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	fs := newFlags(e, "entries", "[--stage S]... [--status S]... [--type T]... [--project DIR|--all-projects] [--limit N] [--json]")
	fs.StringSliceVar(&o.stages, "stage", nil, "candidate, verified, certified or rejected (repeatable)")
	fs.StringSliceVar(&o.statuses, "status", nil, "active, contested or superseded (repeatable)")
	fs.StringSliceVar(&o.types, "type", nil, "decision, fact, preference, constraint, lesson, task, reference (repeatable)")
	choices(fs, "stage", entryStages)
	choices(fs, "status", entryStatuses)
	choices(fs, "type", correct.ListedTypes)
	fs.StringVar(&o.project, "project", "", "this project's entries (default: the current directory's)")
	fs.BoolVar(&o.allProjects, "all-projects", false, "every project's entries")
	fs.IntVar(&o.limit, "limit", 50, "entries at most")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q", fs.Arg(0))
	}
	if o.limit <= 0 {
		return o, usagef("--limit must be positive")
	}
	if o.project != "" && o.allProjects {
		return o, usagef("--project and --all-projects exclude each other")
	}
	if err := oneOf("--stage", o.stages, entryStages); err != nil {
		return o, err
	}
	if err := oneOf("--status", o.statuses, entryStatuses); err != nil {
		return o, err
	}
	if err := oneOf("--type", o.types, correct.ListedTypes); err != nil {
		return o, err
	}
	return o, nil
}

// oneOf checks that every value is one of the allowed ones.
func oneOf(flag string, values, allowed []string) error {
	for _, v := range values {
		ok := false
		for _, a := range allowed {
			ok = ok || v == a
		}
		if !ok {
			return usagef("%s %q: want %s", flag, v, strings.Join(allowed, ", "))
		}
	}
	return nil
}

func runEntries(ctx context.Context, e *env, args []string) error {
	o, err := parseEntries(e, args)
	if err != nil {
		return err
	}
	f := store.EntryFilter{Stages: o.stages, Statuses: o.statuses, Types: o.types, Limit: o.limit, Evidence: true}
	if !o.allProjects {
		if f.Project, err = projectFlag(o.project); err != nil {
			return err
		}
	}
	db, err := openReadStore(ctx, e, &f.Project)
	if err != nil {
		return err
	}
	var es []store.Entry
	if db != nil {
		defer db.Close()
		f.Project = widenScope(ctx, e, db, f.Project, o.project, o.json, "memories")
		if es, err = db.Read().Entries(ctx, f); err != nil {
			return err
		}
	}
	if o.json {
		out := struct {
			Entries []entryJSON `json:"entries"`
		}{Entries: make([]entryJSON, 0, len(es))}
		for _, x := range es {
			out.Entries = append(out.Entries, toEntryJSON(x))
		}
		return writeJSON(e.stdout, out)
	}
	if len(es) == 0 {
		fmt.Fprintln(e.stdout, "no entries")
		return nil
	}
	tty := isTerminal(e.stdout)
	for i, x := range es {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		printEntry(e.stdout, x, tty)
	}
	fmt.Fprintf(e.stdout, "\n%s", plural.Of(len(es), "entry"))
	if len(es) == o.limit {
		fmt.Fprint(e.stdout, " (--limit N for more)")
	}
	fmt.Fprintln(e.stdout)
	return nil
}

// entryJSON is an entry as entries --json prints it (DESIGN.md).
type entryJSON struct {
	ID        string         `json:"id"`
	Type      string         `json:"type"`
	Title     string         `json:"title"`
	Body      string         `json:"body"`
	Stage     string         `json:"stage"`
	Status    string         `json:"status"`
	Project   string         `json:"project"`
	SessionID string         `json:"session_id"`
	Created   string         `json:"created"`
	Form      string         `json:"form"` // stated (the body is a quote) or distilled (it restates them)
	Evidence  []evidenceJSON `json:"evidence"`
	// Questions are the questions the memory answers, which recall
	// matches prompts against.
	Questions []string `json:"questions"`
}

type evidenceJSON struct {
	Quote      string  `json:"quote"`
	Method     string  `json:"method"`
	Confidence float64 `json:"confidence"`
	SpanStart  int     `json:"span_start"`
	SpanEnd    int     `json:"span_end"`
	SourceUUID string  `json:"source_uuid"`
	Failure    string  `json:"failure"`
}

func toEntryJSON(x store.Entry) entryJSON {
	out := entryJSON{ID: x.CID, Type: x.Type, Title: x.Title, Body: x.Body, Stage: x.Stage, Status: x.Status,
		Project: x.Project, SessionID: x.SessionID, Created: jsonTime(x.Created), Evidence: make([]evidenceJSON, 0, len(x.Evidence)),
		Questions: append([]string{}, x.Questions...)}
	for _, v := range x.Evidence {
		out.Evidence = append(out.Evidence, toEvidenceJSON(v))
	}
	out.Form = entryForm(x)
	return out
}

// entryForm tells whether the entry's body states one of its quotes word
// for word or distils them.
func entryForm(x store.Entry) string {
	qs := make([]string, 0, len(x.Evidence))
	for _, v := range x.Evidence {
		qs = append(qs, v.Quote)
	}
	return extract.Form(x.Body, qs)
}

func toEvidenceJSON(v store.Evidence) evidenceJSON {
	return evidenceJSON{Quote: v.Quote, Method: v.Method, Confidence: float64(int64(v.Confidence*1000+0.5)) / 1000,
		SpanStart: v.SpanStart, SpanEnd: v.SpanEnd, SourceUUID: v.SourceUUID, Failure: v.Failure}
}

// printEntry prints an entry in a few lines: id, kind and date; title; body;
// how its evidence aligned.
func printEntry(w io.Writer, x store.Entry, tty bool) {
	id := x.CID
	if tty {
		id = "\x1b[1m" + id + "\x1b[0m"
	}
	label := x.Type + ", " + x.Stage
	if x.Status != store.StatusActive {
		label += ", " + x.Status
	}
	fmt.Fprintf(w, "%s  %s  %s  session %s\n", id, label, x.Created.UTC().Format("2006-01-02"), shortID(x.SessionID))
	fmt.Fprintf(w, "    %s\n", clipLine(x.Title, 200))
	if b := clipLine(x.Body, 200); b != "" && !sameText(x.Body, x.Title) {
		fmt.Fprintf(w, "    %s\n", b)
	}
	fmt.Fprintf(w, "    evidence: %s\n", evidenceSummary(x.Evidence))
	if x.PromotionBlocked != "" {
		fmt.Fprintf(w, "    not verified: %s\n", clipLine(x.PromotionBlocked, 200))
	}
}

// sameText reports whether a body only repeats its title (give or take
// punctuation and case), so listings print it once.
func sameText(body, title string) bool {
	norm := func(s string) string {
		return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}), " ")
	}
	return norm(body) == norm(title)
}

// evidenceSummary says how many quotes there are and how they aligned: "2 quotes: 1 exact, 1 fuzzy".
func evidenceSummary(vs []store.Evidence) string {
	if len(vs) == 0 {
		return "no quotes"
	}
	counts := map[string]int{}
	for _, v := range vs {
		counts[v.Method]++
	}
	var parts []string
	for _, m := range []string{"exact", "normalized", "fuzzy", "none"} {
		if counts[m] > 0 {
			name := m
			if m == "none" {
				name = "not found"
			}
			parts = append(parts, fmt.Sprintf("%d %s", counts[m], name))
		}
	}
	return plural.Of(len(vs), "quote") + ": " + strings.Join(parts, ", ")
}

// parseCID checks a memory id argument: "mem:ab12cd" as listings print it,
// or "ab12cd" without its prefix, read by inspect.Parse as MCP get reads
// it. These commands take only memories, so bare digits are a memory's hex
// here, not a message number; a message's id (#N, mem:t2bx) is refused.
func parseCID(s string) (string, error) {
	id := strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "[]"))
	if id != "" && !strings.HasPrefix(id, "#") && !strings.Contains(id, ":") {
		id = "mem:" + id
	}
	cid, _, err := inspect.Parse(id)
	if err == nil && cid == "" {
		return "", usagef("%q is a message id, not a memory id (mem:ab12cd as search and entries print it)", s)
	}
	if err != nil {
		return "", usagef("%q is not a memory id; want mem: followed by hex digits (or the digits alone), as shown by search and entries", s)
	}
	return cid, nil
}

func runVerify(ctx context.Context, e *env, args []string) error {
	return setStage(ctx, e, "verify", args, store.StageCertified)
}

func runReject(ctx context.Context, e *env, args []string) error {
	return setStage(ctx, e, "reject", args, store.StageRejected)
}

// memoryIDArg reads the one argument of a command that takes only a memory
// id (verify, reject, pin, unpin), from the command line or the prompt.
func memoryIDArg(e *env, name string, args []string) (string, error) {
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return "", err
	}
	fs := newFlags(e, name, "mem:ID")
	if err := parse(fs, args); err != nil {
		return "", err
	}
	if fs.NArg() != 1 {
		return "", usagef("want exactly one memory id")
	}
	return fs.Arg(0), nil
}

// setStage certifies or rejects one memory, recording the event; a memory
// already at that stage is left alone.
func setStage(ctx context.Context, e *env, name string, args []string, stage string) error {
	arg, err := memoryIDArg(e, name, args)
	if err != nil {
		return err
	}
	cid, err := parseCID(arg)
	if err != nil {
		return err
	}
	db, _, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	x, err := db.EntryByCID(ctx, cid)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no memory %s (see claude-memory-layer entries)", cid)
	}
	if err != nil {
		return err
	}
	changed, err := correct.Stage(ctx, db, x, stage, e.now())
	if err != nil {
		return err
	}
	if !changed {
		fmt.Fprintf(e.stdout, "%s is already %s\n", cid, stage)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s %s (was %s): %s\n", cid, stage, x.Stage, clipLine(x.Title, 100))
	return nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/when"
)

type searchOptions struct {
	query       string
	project     string
	allProjects bool
	kinds       []string
	stages      []string
	since       string
	limit       int
	json        bool
}

func parseSearch(e *env, args []string) (searchOptions, error) {
	var o searchOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	fs := newFlags(e, "search", "QUERY [--project DIR|--all-projects] [--kind K]... [--stage S]... [--since DATE] [--limit K] [--json]")
	fs.StringVar(&o.project, "project", "", "search this project (default: the current directory's)")
	fs.BoolVar(&o.allProjects, "all-projects", false, "search every project")
	fs.StringSliceVar(&o.kinds, "kind", nil, "entry, user_prompt, agent_response, tool_observation (repeatable)")
	fs.StringSliceVar(&o.stages, "stage", nil, "entry stage: candidate, verified, certified (repeatable)")
	choices(fs, "kind", searchKinds)
	choices(fs, "stage", entryStages)
	fs.StringVar(&o.since, "since", "", "only results from this date on: "+when.Help)
	fs.IntVar(&o.limit, "limit", 10, "results at most")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	o.query = strings.TrimSpace(strings.Join(fs.Args(), " "))
	if o.query == "" {
		return o, usagef("a query is required")
	}
	if o.limit <= 0 {
		return o, usagef("--limit must be positive")
	}
	if o.project != "" && o.allProjects {
		return o, usagef("--project and --all-projects exclude each other")
	}
	if err := oneOf("--kind", o.kinds, searchKinds); err != nil {
		return o, err
	}
	if err := oneOf("--stage", o.stages, entryStages); err != nil {
		return o, err
	}
	return o, nil
}

// searchKinds are what search --kind selects: memories or captured messages.
var searchKinds = []string{recall.KindEntry, store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}

func runSearch(ctx context.Context, e *env, args []string) error {
	o, err := parseSearch(e, args)
	if err != nil {
		return err
	}
	opt := recall.SearchOptions{Query: o.query, Kinds: o.kinds, Stages: o.stages, Limit: o.limit}
	if !o.allProjects {
		if opt.Project, err = projectFlag(o.project); err != nil {
			return err
		}
	}
	if o.since != "" {
		if opt.Since, err = parseDate(e, o.since); err != nil {
			return err
		}
	}
	db, err := openReadStore(ctx, e, &opt.Project)
	if err != nil {
		return err
	}
	if db == nil {
		return printResults(e, o, nil)
	}
	defer db.Close()
	opt.Project = widenScope(ctx, e, db, opt.Project, o.project, o.json, "memories")
	res, err := recall.Search(ctx, db, opt)
	if err != nil {
		return err
	}
	return printResults(e, o, res)
}

// openReadStore opens the store for a read-only command; nil (no error) means
// there is no store yet, which reads as empty. A store at an older schema is
// upgraded first, whatever its size: a command has no hook's deadline. Each
// of projects, a project identity (projectFlag) or "", is set to the
// spelling the store files it under (store.Tx.RecordedProject: a Windows
// path the hooks recorded in another case, "c:\\…" for "C:\\…").
func openReadStore(ctx context.Context, e *env, projects ...*string) (*store.DB, error) {
	cfg, err := loadConfig(e)
	if err != nil {
		return nil, err
	}
	opt := store.Options{ReadOnly: true, BusyTimeout: 5 * time.Second}
	db, err := store.Open(ctx, cfg.DBPath(), opt)
	switch {
	case errors.Is(err, store.ErrNoSchema) || err != nil && fileMissing(cfg.DBPath()):
		return nil, nil
	case errors.Is(err, store.ErrOldSchema):
		opt.ReadOnly = false
		db, err = store.Open(ctx, cfg.DBPath(), opt)
	}
	if err != nil {
		return nil, err
	}
	db.Now = e.now
	for _, p := range projects {
		if *p == "" {
			continue
		}
		if *p, err = db.Read().RecordedProject(ctx, *p); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}

// recordedFlag sets *project, a project identity (projectFlag) or "", to the
// spelling the store files it under, as openReadStore does, for a command
// that opens the store later or not at all (a glossary's file is named by
// the project the hooks read it for).
func recordedFlag(ctx context.Context, e *env, project *string) error {
	db, err := openReadStore(ctx, e, project)
	if db != nil {
		db.Close()
	}
	return err
}

type searchJSON struct {
	ID          string   `json:"id"`
	Kind        string   `json:"kind"`
	Stage       string   `json:"stage"`
	Status      string   `json:"status,omitempty"`
	Type        string   `json:"type,omitempty"`
	SessionID   string   `json:"session_id"`
	Project     string   `json:"project"`
	Timestamp   string   `json:"timestamp"`
	Score       float64  `json:"score"`
	Text        string   `json:"text"`
	SourceUUIDs []string `json:"source_uuids"`
}

func printResults(e *env, o searchOptions, res []recall.Result) error {
	if o.json {
		out := struct {
			Results []searchJSON `json:"results"`
		}{Results: []searchJSON{}}
		for _, r := range res {
			uuids := r.SourceUUIDs
			if uuids == nil {
				uuids = []string{}
			}
			out.Results = append(out.Results, searchJSON{ID: r.ID, Kind: r.Kind, Stage: r.Stage, Status: r.Status, Type: r.Type,
				SessionID: r.SessionID, Project: r.Project, Timestamp: r.Timestamp.UTC().Format(time.RFC3339), Score: round(r.Score),
				Text: r.Text, SourceUUIDs: uuids})
		}
		return writeJSON(e.stdout, out)
	}
	if len(res) == 0 {
		fmt.Fprintf(e.stdout, "no results for %q\n", o.query)
		return nil
	}
	tty := isTerminal(e.stdout)
	terms := recall.Terms(o.query)
	for i, r := range res {
		id := r.ID
		if r.Kind != recall.KindEntry {
			id = "event " + r.ID
		}
		label := r.Kind
		if r.Kind == recall.KindEntry {
			label = r.Type + ", " + r.Stage
			if r.Status != "" && r.Status != store.StatusActive {
				label += ", " + r.Status
			}
		}
		fmt.Fprintf(e.stdout, "%2d. [%s] %s  score %.2f  %s  session %s\n", i+1, id, label, r.Score, r.Timestamp.UTC().Format("2006-01-02 15:04"), short(r.SessionID))
		fmt.Fprintf(e.stdout, "    %s\n", highlight(excerptAround(r.Text, terms, 240), terms, tty))
	}
	return nil
}

func round(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// excerptAround returns up to n bytes of text, one line, starting a little
// before the first query term it contains.
func excerptAround(text string, terms []string, n int) string {
	text = strings.Join(strings.Fields(text), " ")
	lower := strings.ToLower(text)
	if len(lower) != len(text) {
		lower = text // a few runes change length when lower-cased; then match as is
	}
	first := len(text)
	for _, t := range terms {
		if i := strings.Index(lower, t); i >= 0 && i < first {
			first = i
		}
	}
	start := 0
	if first < len(text) && first > n/3 {
		start = first - n/3
		for start > 0 && !isRuneStart(text[start]) {
			start--
		}
	}
	end := min(len(text), start+n)
	for end < len(text) && !isRuneStart(text[end]) {
		end--
	}
	s := text[start:end]
	if start > 0 {
		s = "…" + s
	}
	if end < len(text) {
		s += "…"
	}
	return s
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// highlight marks query terms: bold on a terminal, »term« when piped.
func highlight(s string, terms []string, tty bool) string {
	open, close := "»", "«"
	if tty {
		open, close = "\x1b[1m", "\x1b[0m"
	}
	lower := strings.ToLower(s)
	if len(lower) != len(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		matched := 0
		for _, t := range terms {
			if len(t) > matched && strings.HasPrefix(lower[i:], t) && (i == 0 || !isWord(lower[i-1])) {
				matched = len(t)
			}
		}
		if matched == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteString(open + s[i:i+matched] + close)
		i += matched
	}
	return b.String()
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
)

type statsOptions struct {
	project     string
	allProjects bool
	json        bool
}

func parseStats(e *env, args []string) (statsOptions, error) {
	var o statsOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	fs := newFlags(e, "stats", "[--project DIR|--all-projects] [--json]")
	fs.StringVar(&o.project, "project", "", "this project's figures (default: the current directory's)")
	fs.BoolVar(&o.allProjects, "all-projects", false, "figures over every project")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q", fs.Arg(0))
	}
	if o.project != "" && o.allProjects {
		return o, usagef("--project and --all-projects exclude each other")
	}
	return o, nil
}

// statsJSON is stats --json (DESIGN.md: type, stage, status, events, entries,
// sessions, db_bytes; the other fields are additions).
type statsJSON struct {
	Project           string             `json:"project"` // "" for all projects
	Type              map[string]int     `json:"type"`
	Stage             map[string]int     `json:"stage"`
	Status            map[string]int     `json:"status"`
	Events            int                `json:"events"`
	Entries           int                `json:"entries"`
	Sessions          int                `json:"sessions"`
	ForgottenSessions int                `json:"forgotten_sessions"`
	DBBytes           int64              `json:"db_bytes"`
	LastIngest        string             `json:"last_ingest"`
	Extractor         string             `json:"extractor"`
	Recall            recallStatsJSON    `json:"recall"`
	LLMSpend          *spendJSON         `json:"llm_spend,omitempty"`
	Projects          []projectStatsJSON `json:"projects,omitempty"`
}

type recallStatsJSON struct {
	Injections           int     `json:"injections"`
	AvgChars             float64 `json:"avg_chars"`
	MemoriesPerInjection float64 `json:"memories_per_injection"`
	InjectedMemories     int     `json:"injected_memories"`
	// Uses are memories an answer cited after being shown them; Flagged
	// are citations of memories it was not shown, or that do not exist.
	CitingAnswers int `json:"citing_answers"`
	Uses          int `json:"uses"`
	Flagged       int `json:"flagged_citations"`
}

// spendJSON is what LLM extraction spent in the local day and month, of all
// projects (the caps are global), and the caps (0: none).
type spendJSON struct {
	Day   spend.Total `json:"day"`
	Month spend.Total `json:"month"`
	Caps  struct {
		DailyTokens   int64   `json:"daily_tokens"`
		MonthlyTokens int64   `json:"monthly_tokens"`
		DailyUSD      float64 `json:"daily_usd"`
		MonthlyUSD    float64 `json:"monthly_usd"`
	} `json:"caps"`
	Reached string `json:"reached,omitempty"` // the cap reached, by its config key
}

func spendOf(st spend.Status) *spendJSON {
	out := &spendJSON{Day: st.Day, Month: st.Month}
	out.Caps.DailyTokens, out.Caps.MonthlyTokens = st.Caps.DailyTokens, st.Caps.MonthlyTokens
	out.Caps.DailyUSD, out.Caps.MonthlyUSD = st.Caps.DailyUSD, st.Caps.MonthlyUSD
	if c, ok := st.Reached(); ok {
		out.Reached = c.Key
	}
	return out
}

type projectStatsJSON struct {
	Project  string `json:"project"`
	Events   int    `json:"events"`
	Entries  int    `json:"entries"`
	Sessions int    `json:"sessions"`
}

func runStats(ctx context.Context, e *env, args []string) error {
	o, err := parseStats(e, args)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	var proj string
	if !o.allProjects {
		if proj, err = projectFlag(o.project); err != nil {
			return err
		}
	}
	db, err := openReadStore(ctx, e, &proj)
	if err != nil {
		return err
	}
	out := statsJSON{Project: proj, Type: map[string]int{}, Stage: map[string]int{}, Status: map[string]int{}, Extractor: cfg.Extractor}
	if db != nil {
		defer db.Close()
		if proj != "" && o.project == "" {
			if n, err := db.CountEvents(ctx, proj); err == nil && n == 0 {
				if !o.json {
					fmt.Fprintf(e.stderr, "no events for %s; counting all projects\n", proj)
				}
				proj, out.Project = "", ""
			}
		}
		st, err := db.Stats(ctx, proj)
		if err != nil {
			return err
		}
		size, err := db.Bytes()
		if err != nil {
			return err
		}
		out.Type, out.Stage, out.Status = st.ByType, st.ByStage, st.ByStatus
		out.Events, out.Entries, out.Sessions, out.ForgottenSessions = st.Events, st.Entries, st.Sessions, st.ForgottenSessions
		out.DBBytes = size
		out.LastIngest = jsonTime(st.LastIngest)
		out.Recall.Injections, out.Recall.InjectedMemories = st.Injections, st.InjectedMemories
		out.Recall.CitingAnswers, out.Recall.Uses, out.Recall.Flagged = st.Citations, st.Uses, st.Flagged
		if st.Injections > 0 {
			out.Recall.AvgChars = float64(int64(float64(st.InjectedChars)/float64(st.Injections)*10+0.5)) / 10
			out.Recall.MemoriesPerInjection = float64(int64(float64(st.InjectedMemories)/float64(st.Injections)*100+0.5)) / 100
		}
		for _, p := range st.Projects {
			out.Projects = append(out.Projects, projectStatsJSON(p))
		}
		sp, err := spend.Read(ctx, db, cfg.LLM.Budget, e.now())
		if err != nil {
			return err
		}
		out.LLMSpend = spendOf(sp)
	}
	if o.json {
		return writeJSON(e.stdout, out)
	}
	printStats(e.stdout, out, cfg.DBPath(), isTerminal(e.stdout))
	return nil
}

func printStats(w io.Writer, s statsJSON, path string, tty bool) {
	scope := s.Project
	if scope == "" {
		scope = "all projects"
	}
	row := func(k, v string) { fmt.Fprintf(w, "%-12s %s\n", k, v) }
	row("Project", scope)
	row("Store", fmt.Sprintf("%s (%s)", path, byteSize(s.DBBytes)))
	sessions := thousands(s.Sessions)
	if s.ForgottenSessions > 0 {
		sessions += fmt.Sprintf(" (and %d forgotten)", s.ForgottenSessions)
	}
	row("Sessions", sessions)
	row("Events", thousands(s.Events))
	printCounts(w, s.Type, tty)
	row("Entries", thousands(s.Entries))
	if s.Entries > 0 {
		row("  stage", joinCounts(s.Stage, entryStages))
		row("  status", joinCounts(s.Status, entryStatuses))
	}
	last := "never"
	if s.LastIngest != "" {
		last = strings.Replace(strings.TrimSuffix(s.LastIngest, "Z"), "T", " ", 1) + " UTC"
	}
	row("Last ingest", last)
	row("Extractor", s.Extractor)
	if s.LLMSpend != nil && (s.LLMSpend.Month.Calls > 0 || s.Extractor != "offline") {
		row("LLM spend", spendLine(*s.LLMSpend))
	}
	if s.Recall.Injections == 0 {
		row("Recall", "nothing injected yet")
	} else {
		row("Recall", fmt.Sprintf("%s, %.0f chars on average, %.1f memories each",
			plural.Of(s.Recall.Injections, "injection"), s.Recall.AvgChars, s.Recall.MemoriesPerInjection))
	}
	used := fmt.Sprintf("%s injected, %s cited by answers", plural.Of(s.Recall.InjectedMemories, "memory"), plural.Of(s.Recall.Uses, "time"))
	if s.Recall.Flagged > 0 {
		used += fmt.Sprintf("; %s of memories not shown or not stored", plural.Of(s.Recall.Flagged, "citation"))
	}
	row("Used", used)
	if len(s.Projects) > 0 {
		fmt.Fprintln(w, "\nBy project")
		for _, p := range s.Projects {
			name := p.Project
			if name == "" {
				name = "(none)"
			}
			fmt.Fprintf(w, "  %-40s %s, %s, %s\n", name, plural.Of(p.Events, "event"), plural.Of(p.Entries, "entry"), plural.Of(p.Sessions, "session"))
		}
	}
}

// printCounts lists event counts by type, largest first; a terminal gets bars.
func printCounts(w io.Writer, m map[string]int, tty bool) {
	type kv struct {
		k string
		n int
	}
	var l []kv
	top := 0
	for k, n := range m {
		l = append(l, kv{k, n})
		top = max(top, n)
	}
	sort.Slice(l, func(i, j int) bool {
		if l[i].n != l[j].n {
			return l[i].n > l[j].n
		}
		return l[i].k < l[j].k
	})
	for _, c := range l {
		bar := ""
		if tty && top > 0 {
			bar = " " + strings.Repeat("█", max(1, c.n*20/top))
		}
		fmt.Fprintf(w, "  %-18s %7s%s\n", c.k, thousands(c.n), bar)
	}
}

// joinCounts renders counts in a fixed order, then any unknown keys: "verified 3, candidate 1".
func joinCounts(m map[string]int, order []string) string {
	var parts []string
	seen := map[string]bool{}
	for _, k := range order {
		seen[k] = true
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// spendLine renders what LLM extraction spent against its caps.
func spendLine(s spendJSON) string {
	part := func(when string, t spend.Total, capTok int64, capUSD float64) string {
		p := fmt.Sprintf("%s %s tokens", when, thousands(int(t.Tokens())))
		if capTok > 0 {
			p += " of " + thousands(int(capTok))
		}
		if t.CostUSD > 0 || capUSD > 0 {
			p += fmt.Sprintf(", $%.2f", t.CostUSD)
			if capUSD > 0 {
				p += fmt.Sprintf(" of $%.2f", capUSD)
			}
		}
		return p
	}
	line := part("today", s.Day, s.Caps.DailyTokens, s.Caps.DailyUSD) + "; " +
		part("this month", s.Month, s.Caps.MonthlyTokens, s.Caps.MonthlyUSD) + " (" + plural.Of(s.Month.Calls, "call") + ")"
	if s.Reached != "" {
		line += "; " + s.Reached + " reached: extracting offline"
	}
	return line
}

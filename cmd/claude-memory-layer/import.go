package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/ingest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/when"
)

// importGC and importMemory are the garbage collector's GOGC and soft
// memory limit of an import command, unless GOGC or GOMEMLIMIT is set.
// An import allocates much and keeps little (transcripts parsed, rows
// read, claims compared). Collecting at five times the live heap, not
// twice, took 11 % less CPU on the 55k-message bench history (two runs
// side by side, 46.3 against 52.2 s; 200 gained nothing), for a third more
// peak memory (307 against 234 MB). The soft limit keeps a large import's
// heap where the default would have put it: past it, the collector works
// as hard as without importGC.
const (
	importGC     = 400
	importMemory = 1 << 30
)

// tuneForImport sets importGC and importMemory for the process when args
// run the import command and the environment sets neither. main calls it,
// not the command: the settings are the whole process's, and tests run
// commands side by side in one process.
func tuneForImport(args []string, getenv func(string) string) {
	if len(args) == 0 || args[0] != "import" || getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(importGC)
	debug.SetMemoryLimit(importMemory)
}

// importOptions are the flags of import.
type importOptions struct {
	Transcripts []string
	Dir         string
	Project     string
	All         bool
	Since       time.Time
	FromExport  string
	AdoptKey    bool // --adopt-forget-key
	JSON        bool

	batch int // messages per transaction; see importer.batch
}

const importUsage = `[--transcript FILE]... [--dir DIR] [--project DIR] [--all] [--since DATE] [--json]
       claude-memory-layer import --from-export FILE [--adopt-forget-key] [--json]

Imports Claude Code transcripts through the same pipeline as a live session:
ingest (privacy-filtered), extract, align, store entries, detect conflicts.
--project DIR alone imports that directory's sessions from Claude Code's
projects folder ($CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects); with
--transcript or --dir it files the sessions under DIR's project instead of the
project of the cwd recorded in the transcript. Sessions are imported oldest
first. Importing again adds nothing; an interrupted import completes when run
again.

--from-export restores an export. Its forgets hold in this store: what they
removed is not written back, here or later. Those of an export written with
--with-forget-key hold only with --adopt-forget-key, which makes the file's
key this store's (when it has none): give it only for a file you wrote.
`

func parseImportFlags(e *env, args []string) (importOptions, error) {
	var o importOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	var since string
	fs := newFlags(e, "import", importUsage)
	fs.StringArrayVar(&o.Transcripts, "transcript", nil, "a transcript `FILE` to import (repeatable)")
	fs.StringVar(&o.Dir, "dir", "", "import every *.jsonl directly in `DIR`")
	fs.StringVar(&o.Project, "project", "", "the project `DIR`: alone, import its Claude Code sessions; with --transcript/--dir, file them under it")
	fs.BoolVar(&o.All, "all", false, "import every session of every project Claude Code has on disk")
	fs.StringVar(&since, "since", "", "skip transcripts started and last written before `DATE`: "+when.Help)
	fs.StringVar(&o.FromExport, "from-export", "", "restore events and entries from an export `FILE` (see export)")
	fs.BoolVar(&o.AdoptKey, "adopt-forget-key", false, "with --from-export: take the export's forget key, so that its forgets hold here (a file you wrote only)")
	fs.BoolVar(&o.JSON, "json", false, "print the summary as JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q (transcripts are given with --transcript)", fs.Arg(0))
	}
	if since != "" {
		t, err := parseDate(e, since)
		if err != nil {
			return o, err
		}
		o.Since = t
	}
	sources := len(o.Transcripts) > 0 || o.Dir != "" || o.All
	switch {
	case o.FromExport != "" && (sources || o.Project != "" || since != ""):
		return o, usagef("--from-export takes no --transcript, --dir, --project, --all or --since")
	case o.FromExport != "":
	case o.AdoptKey:
		return o, usagef("--adopt-forget-key goes with --from-export")
	case o.All && o.Project != "":
		return o, usagef("--all imports every project; give --project DIR alone for one project")
	case !sources && o.Project == "":
		return o, usagef("nothing to import: give --transcript FILE, --dir DIR, --project DIR or --all")
	}
	return o, nil
}

func runImport(ctx context.Context, e *env, args []string) error {
	o, err := parseImportFlags(e, args)
	if err != nil {
		return err
	}
	if o.FromExport != "" {
		return runRestore(ctx, e, o)
	}
	sum, err := importTranscripts(ctx, e, o, nil)
	if sum != nil {
		if werr := printImportSummary(e, o, sum); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		return err
	}
	if sum.Failed > 0 {
		return fmt.Errorf("%s could not be imported", plural.Of(sum.Failed, "transcript"))
	}
	return nil
}

// importTranscripts imports the transcripts the options name through
// ingest.Importer, drawing its progress on a terminal. afterEach, if not
// nil, is called after each commit with the number of transcripts done so far.
func importTranscripts(ctx context.Context, e *env, o importOptions, afterEach func(done int)) (*ingest.Summary, error) {
	jobs, err := ingest.Jobs(ingest.Sources{Transcripts: o.Transcripts, Dir: o.Dir, Project: o.Project, All: o.All}, e.getenv, e.stderr)
	if err != nil {
		return nil, err
	}
	db, cfg, err := openStoreWith(ctx, e, store.Options{Bulk: true})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	log, closeLog := hook.OpenLog(cfg, io.Discard)
	defer closeLog()
	log = log.With("command", "import")
	ext, fallback := extractorFor(cfg, log)
	im := &ingest.Importer{DB: db, Extractor: ext, Fallback: fallback, Budget: meterFor(cfg, db, fallback, log, e.now, true), Log: log, Now: e.now,
		Since: o.Since, Project: o.Project, Batch: o.batch}
	bar := &progressBar{w: e.stderr, on: isTerminal(e.stderr), total: len(jobs)}
	start := e.now()
	bar.draw(0, 0)
	sum, err := im.Run(ctx, jobs, func(done int, sum *ingest.Summary, failed []ingest.Failure) {
		for _, f := range failed {
			bar.clear()
			fmt.Fprintf(e.stderr, "claude-memory-layer import: %s: %s\n", f.Path, f.Error)
		}
		bar.draw(done, sum.Messages)
		if afterEach != nil {
			afterEach(done)
		}
	})
	bar.clear()
	if err == nil && sum != nil && sum.Imported > 0 {
		// An import commits many transactions, each adding a segment to
		// the full-text indexes, which every later search seeks; merge
		// them all now (a full merge, which rewrites the indexes once),
		// a short transaction at a time, so hooks writing
		// meanwhile wait for one step; what they write meanwhile is left
		// to the worker's merges. The sessions are stored whatever the
		// merge does: a failure is logged, and the worker merges later.
		m, merr := db.MergeIndexes(ctx, true, store.MergePages, 0)
		if merr != nil {
			log.Error("merge the full-text indexes", "err", merr)
		} else {
			log.Info("merged the full-text indexes", "steps", m.Steps, "done", m.Done)
		}
	}
	if sum != nil {
		sum.Seconds = elapsed(e.now().Sub(start))
	}
	return sum, err
}

// elapsed is d in seconds, to the millisecond.
func elapsed(d time.Duration) float64 { return d.Round(time.Millisecond).Seconds() }

func printImportSummary(e *env, o importOptions, s *ingest.Summary) error {
	if o.JSON {
		return writeJSON(e.stdout, s)
	}
	var skipped []string
	skipped = append(skipped, fmt.Sprintf("%d already imported", s.Skipped))
	if s.BeforeSince > 0 {
		skipped = append(skipped, fmt.Sprintf("%d older than --since", s.BeforeSince))
	}
	if s.Empty > 0 {
		skipped = append(skipped, fmt.Sprintf("%d empty", s.Empty))
	}
	if s.Forgotten > 0 {
		skipped = append(skipped, fmt.Sprintf("%d forgotten", s.Forgotten))
	}
	skipped = append(skipped, fmt.Sprintf("%d failed", s.Failed))
	fmt.Fprintf(e.stdout, "imported %s of %d (%s) in %.1fs\n", plural.Of(s.Imported, "session"), s.Sessions, strings.Join(skipped, ", "), s.Seconds)
	fmt.Fprintf(e.stdout, "messages: %s read, %s added, %s\n", thousands(s.Messages), thousands(s.Added), plural.Of(s.Duplicates, "duplicate")+" skipped")
	fmt.Fprintf(e.stdout, "entries:  %s verified, %s candidate (%s new), %s\n", thousands(s.Verified), thousands(s.Candidates), thousands(s.NewEntries), plural.Of(s.Conflicts, "conflict"))
	return nil
}

// progressBar redraws one status line on a terminal; elsewhere it prints nothing.
type progressBar struct {
	w     io.Writer
	on    bool
	total int
	drawn int // width of the line on screen
}

const barWidth = 20

func (p *progressBar) draw(done, messages int) {
	if !p.on || p.total == 0 {
		return
	}
	fill := barWidth * done / p.total
	line := fmt.Sprintf("importing %d/%d sessions [%s%s] %s messages", done, p.total,
		strings.Repeat("#", fill), strings.Repeat(".", barWidth-fill), thousands(messages))
	pad := max(p.drawn-len(line), 0)
	fmt.Fprintf(p.w, "\r%s%s", line, strings.Repeat(" ", pad))
	p.drawn = len(line)
}

func (p *progressBar) clear() {
	if !p.on || p.drawn == 0 {
		return
	}
	fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.drawn))
	p.drawn = 0
}

// thousands formats n with comma separators: 1,234,567.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

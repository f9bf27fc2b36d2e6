package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

// typeSessionProcessed marks a transcript, at one size, as imported and
// processed, so that importing it again can stop before reading it.
const typeSessionProcessed = "session_processed"

// importOptions are the flags of import.
type importOptions struct {
	Transcripts []string
	Dir         string
	Project     string
	All         bool
	Since       time.Time
	FromExport  string
	JSON        bool
}

const importUsage = `[--transcript FILE]... [--dir DIR] [--project DIR] [--all] [--since DATE] [--json]
       claude-memory-layer import --from-export FILE [--json]

Imports Claude Code transcripts through the same pipeline as a live session:
ingest (privacy-filtered), extract, align, store entries, detect conflicts.
--project DIR alone imports that directory's sessions from Claude Code's
projects folder ($CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects); with
--transcript or --dir it files the sessions under DIR's project instead of the
project of the cwd recorded in the transcript. Sessions are imported oldest
first. Importing again adds nothing; an interrupted import completes when run
again.
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
	fs.StringVar(&since, "since", "", "skip transcripts started and last written before `DATE` (YYYY-MM-DD or RFC 3339)")
	fs.StringVar(&o.FromExport, "from-export", "", "restore events and entries from an export `FILE` (see export)")
	fs.BoolVar(&o.JSON, "json", false, "print the summary as JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q (transcripts are given with --transcript)", fs.Arg(0))
	}
	if since != "" {
		t, err := parseDate(since)
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
		return fmt.Errorf("%s could not be imported", plural(sum.Failed, "transcript"))
	}
	return nil
}

// importJob is one transcript to import.
type importJob struct {
	path    string
	project string // the project to file it under; "" means the project of its cwd
	info    transcriptInfo
	err     error // reading its head failed
}

// importFailure is a transcript that could not be imported.
type importFailure struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// importSummary counts what an import did; it is also the --json output.
type importSummary struct {
	Sessions    int             `json:"sessions"` // transcripts found
	Imported    int             `json:"sessions_imported"`
	Skipped     int             `json:"sessions_skipped"` // already imported, unchanged
	BeforeSince int             `json:"sessions_before_since"`
	Empty       int             `json:"sessions_empty"`
	Forgotten   int             `json:"sessions_forgotten"` // forget removed them; not imported again
	Failed      int             `json:"sessions_failed"`
	Messages    int             `json:"messages"`
	Added       int             `json:"events_added"` // message events stored
	Duplicates  int             `json:"duplicates_skipped"`
	Verified    int             `json:"entries_verified"`
	Candidates  int             `json:"entries_candidate"`
	NewEntries  int             `json:"entries_new"`
	Conflicts   int             `json:"conflicts"`
	Seconds     float64         `json:"seconds"`
	Failures    []importFailure `json:"failures"`
}

// importJobs resolves the options to the transcripts to import, in order,
// each once, leaving out subagent transcripts.
func importJobs(e *env, o importOptions) ([]importJob, error) {
	var override string
	if o.Project != "" && (len(o.Transcripts) > 0 || o.Dir != "") {
		abs, err := filepath.Abs(o.Project)
		if err != nil {
			return nil, err
		}
		override = project.Identify(abs)
	}
	var paths []string
	for _, t := range o.Transcripts {
		abs, err := filepath.Abs(t)
		if err != nil {
			return nil, err
		}
		paths = append(paths, abs)
	}
	if o.Dir != "" {
		abs, err := filepath.Abs(o.Dir)
		if err != nil {
			return nil, err
		}
		ps, err := transcriptsIn(abs)
		if err != nil {
			return nil, fmt.Errorf("read --dir: %w", err)
		}
		paths = append(paths, ps...)
	}
	if o.All || (o.Project != "" && len(o.Transcripts) == 0 && o.Dir == "") {
		root, err := claudeProjectsDir(e)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(root); err != nil {
			return nil, fmt.Errorf("no Claude Code projects directory: %w", err)
		}
		folders, err := transcriptFolders(root, o.Project)
		if err != nil {
			return nil, err
		}
		if len(folders) == 0 && o.Project != "" {
			abs, _ := filepath.Abs(o.Project)
			return nil, fmt.Errorf("no Claude Code sessions for %s (looked for %s)", abs, filepath.Join(root, project.Slug(abs)))
		}
		for _, f := range folders {
			ps, err := transcriptsIn(f)
			if err != nil {
				return nil, err
			}
			paths = append(paths, ps...)
		}
	}
	seen := map[string]bool{}
	var jobs []importJob
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		if isSubagentTranscript(p) {
			fmt.Fprintf(e.stderr, "skipping %s: a subagent transcript is part of its session, not a session\n", p)
			continue
		}
		jobs = append(jobs, importJob{path: p, project: override})
	}
	return jobs, nil
}

// importer imports transcripts into one store.
type importer struct {
	db       *store.DB
	rec      *capture.Recorder
	proc     *pipeline.Processor
	since    time.Time
	fallback string // the project of sessions whose rows carry no cwd
	now      func() time.Time
}

// importOutcome is what happened to one transcript.
type importOutcome int

const (
	outcomeImported importOutcome = iota
	outcomeSkipped
	outcomeBeforeSince
	outcomeEmpty
	outcomeForgotten
)

// importTranscripts imports the transcripts the options name, one session at a
// time, each through the live pipeline. A transcript that fails is recorded
// and the import goes on; cancelling ctx stops it between two steps, and what
// was stored stays (running it again completes the work). afterEach, if not
// nil, is called after each transcript with the number done so far.
func importTranscripts(ctx context.Context, e *env, o importOptions, afterEach func(done int)) (*importSummary, error) {
	jobs, err := importJobs(e, o)
	if err != nil {
		return nil, err
	}
	db, cfg, err := openStore(ctx, e)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	log, closeLog := importLog(cfg.LogPath())
	defer closeLog()
	log = log.With("command", "import")
	ext, fallback := extractorFor(cfg, log)
	im := &importer{
		db:    db,
		rec:   &capture.Recorder{DB: db, Log: log},
		proc:  &pipeline.Processor{DB: db, Extractor: ext, Fallback: fallback, Log: log, Now: e.now},
		since: o.Since,
		now:   e.now,
	}
	if o.Project != "" {
		abs, err := filepath.Abs(o.Project)
		if err != nil {
			return nil, err
		}
		im.fallback = project.Identify(abs)
	}
	// Oldest first: the pipeline takes the order it processes sessions in as
	// the order claims were made, to tell which of two supersedes the other.
	for i := range jobs {
		jobs[i].info, jobs[i].err = readTranscriptInfo(jobs[i].path, false)
	}
	sort.SliceStable(jobs, func(i, j int) bool {
		a, b := jobs[i].info.date(), jobs[j].info.date()
		if !a.Equal(b) {
			return a.Before(b)
		}
		return jobs[i].path < jobs[j].path
	})
	sum := &importSummary{Sessions: len(jobs), Failures: []importFailure{}}
	bar := &progressBar{w: e.stderr, on: isTerminal(e.stderr), total: len(jobs)}
	start := e.now()
	bar.draw(0, 0)
	for i, job := range jobs {
		if err := ctx.Err(); err != nil {
			bar.clear()
			sum.Seconds = elapsed(e.now().Sub(start))
			return sum, fmt.Errorf("interrupted after %d of %d transcripts (run it again to finish): %w", i, len(jobs), err)
		}
		out, err := im.one(ctx, job, sum)
		switch {
		case err != nil && ctx.Err() != nil:
			bar.clear()
			sum.Seconds = elapsed(e.now().Sub(start))
			return sum, fmt.Errorf("interrupted after %d of %d transcripts (run it again to finish): %w", i, len(jobs), ctx.Err())
		case err != nil:
			sum.Failed++
			msg := fileErrorText(err)
			sum.Failures = append(sum.Failures, importFailure{Path: job.path, Error: msg})
			bar.clear()
			fmt.Fprintf(e.stderr, "claude-memory-layer import: %s: %s\n", job.path, msg)
		case out == outcomeImported:
			sum.Imported++
		case out == outcomeSkipped:
			sum.Skipped++
		case out == outcomeBeforeSince:
			sum.BeforeSince++
		case out == outcomeEmpty:
			sum.Empty++
		case out == outcomeForgotten:
			sum.Forgotten++
		}
		bar.draw(i+1, sum.Messages)
		if afterEach != nil {
			afterEach(i + 1)
		}
	}
	bar.clear()
	sum.Seconds = elapsed(e.now().Sub(start))
	return sum, nil
}

// elapsed is d in seconds, to the millisecond.
func elapsed(d time.Duration) float64 { return d.Round(time.Millisecond).Seconds() }

// fileErrorText is an error's message without the file path, for printing
// next to the path.
func fileErrorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && err == error(pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// importLog returns a logger writing to the data directory's log file, or
// discarding when the file cannot be opened (the summary still says what failed).
func importLog(path string) (*slog.Logger, func()) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return slog.New(slog.DiscardHandler), func() {}
	}
	return slog.New(slog.NewTextHandler(f, nil)), func() { f.Close() }
}

// one imports one transcript: register the session, ingest it whole, record
// its start and end, end it, run the pipeline, then mark it processed at this
// size. Every step is keyed, so a step repeated after an interruption adds
// nothing; the marker lets an unchanged transcript be skipped at once.
func (im *importer) one(ctx context.Context, job importJob, sum *importSummary) (importOutcome, error) {
	if job.err != nil {
		return 0, job.err
	}
	info := job.info
	if info.Size == 0 {
		return outcomeEmpty, nil
	}
	if !im.since.IsZero() && info.ModTime.Before(im.since) && (info.Started.IsZero() || info.Started.Before(im.since)) {
		return outcomeBeforeSince, nil
	}
	tail, err := readTranscriptTail(job.path, info.Size)
	if err != nil {
		return 0, err
	}
	proj := job.project
	if proj == "" && info.Cwd != "" {
		proj = project.Identify(info.Cwd)
	}
	if proj == "" {
		proj = im.fallback
	}
	marker := typeSessionProcessed + ":" + info.SessionID + ":" + strconv.FormatInt(info.Size, 10)
	stored, err := im.db.Session(ctx, info.SessionID)
	switch {
	case err == nil && stored.Source == store.SessionForgotten:
		// The user had it forgotten; its transcript is still on disk, but
		// bringing it back is not an import's call.
		return outcomeForgotten, nil
	case err == nil && stored.Offset == tail.complete:
		done, err := im.db.HasEvent(ctx, marker)
		if err != nil {
			return 0, err
		}
		if done {
			return outcomeSkipped, nil
		}
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return 0, err
	}
	started := info.date()
	ended := tail.last
	if ended.IsZero() {
		ended = info.ModTime
	}
	if err := im.db.TouchSession(ctx, store.Session{
		ID: info.SessionID, Project: proj, Cwd: info.Cwd, TranscriptPath: job.path, Source: "import", StartedAt: started,
	}); err != nil {
		return 0, err
	}
	sess, err := im.db.Session(ctx, info.SessionID)
	if err != nil {
		return 0, err
	}
	ing, err := im.rec.Ingest(ctx, sess, true)
	if err != nil {
		return 0, err
	}
	sum.Messages += ing.Messages
	sum.Added += ing.Added
	sum.Duplicates += ing.Duplicates
	// The markers' keys come from the transcript, so importing it again (or
	// after an interruption) finds them stored.
	ids := capture.Session{ID: sess.ID, Project: sess.Project}
	raw := []byte(job.path + "\x00" + info.SessionID)
	if _, err := im.rec.Mark(ctx, ids, store.TypeSessionStarted, raw, started,
		map[string]any{"source": "import", "cwd": info.Cwd, "transcript_path": job.path}); err != nil {
		return 0, err
	}
	if _, err := im.rec.Mark(ctx, ids, store.TypeSessionEnded, raw, ended, map[string]any{"reason": "import"}); err != nil {
		return 0, err
	}
	if sess.EndedAt.IsZero() {
		if err := im.db.EndSession(ctx, sess.ID, "import", ended); err != nil {
			return 0, err
		}
	}
	res, err := im.proc.Process(ctx, sess.ID)
	if err != nil {
		return 0, err
	}
	sum.Verified += res.Verified
	sum.Candidates += res.Candidates
	sum.NewEntries += res.New
	sum.Conflicts += res.Conflicts
	payload := fmt.Sprintf(`{"transcript_path":%s,"bytes":%d,"offset":%d,"messages":%d,"extractor":%q}`,
		strconv.Quote(job.path), info.Size, ing.Offset, res.Messages, res.Extractor)
	if _, err := im.db.Append(ctx, store.Event{Time: im.now(), Type: typeSessionProcessed, SessionID: sess.ID, Project: sess.Project,
		DedupeKey: marker, Payload: []byte(payload)}); err != nil {
		return 0, err
	}
	return outcomeImported, nil
}

// transcriptTail is what the end of a transcript tells.
type transcriptTail struct {
	complete int64     // the end of the last complete line: what an ingest can consume
	last     time.Time // the last row's timestamp; zero if none was found
}

// tailWindow is how much of a transcript's end readTranscriptTail reads.
const tailWindow = 1 << 20

// readTranscriptTail reads the end of a transcript of the given size.
func readTranscriptTail(path string, size int64) (transcriptTail, error) {
	t := transcriptTail{complete: size}
	f, err := os.Open(path)
	if err != nil {
		return t, err
	}
	defer f.Close()
	off := max(size-tailWindow, 0)
	buf := make([]byte, size-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return t, err
	}
	if len(buf) > 0 && buf[len(buf)-1] != '\n' {
		i := bytes.LastIndexByte(buf, '\n')
		switch {
		case i >= 0:
			t.complete = off + int64(i) + 1
		case off == 0:
			t.complete = 0
		}
		buf = buf[:i+1]
	}
	for len(buf) > 0 {
		buf = bytes.TrimRight(buf, "\n")
		i := bytes.LastIndexByte(buf, '\n')
		line := buf[i+1:]
		buf = buf[:max(i, 0)]
		if ts := gjson.GetBytes(line, "timestamp").Str; ts != "" {
			if at, err := time.Parse(time.RFC3339Nano, ts); err == nil {
				t.last = at
				break
			}
		}
		if i < 0 {
			break
		}
	}
	return t, nil
}

func printImportSummary(e *env, o importOptions, s *importSummary) error {
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
	fmt.Fprintf(e.stdout, "imported %s of %d (%s) in %.1fs\n", plural(s.Imported, "session"), s.Sessions, strings.Join(skipped, ", "), s.Seconds)
	fmt.Fprintf(e.stdout, "messages: %s read, %s added, %s\n", thousands(s.Messages), thousands(s.Added), plural(s.Duplicates, "duplicate")+" skipped")
	fmt.Fprintf(e.stdout, "entries:  %s verified, %s candidate (%s new), %s\n", thousands(s.Verified), thousands(s.Candidates), thousands(s.NewEntries), plural(s.Conflicts, "conflict"))
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

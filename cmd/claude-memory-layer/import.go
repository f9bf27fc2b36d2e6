package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
	"github.com/tidwall/gjson"
)

// importOptions are the flags of import.
type importOptions struct {
	Transcripts []string
	Dir         string
	Project     string
	All         bool
	Since       time.Time
	FromExport  string
	JSON        bool

	batch int // messages per transaction; see importer.batch
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
	// batch is how many messages one transaction holds at most; 0 means
	// batchMessages. Tests set 1 to commit after every session.
	batch int
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

// An import writes many sessions per transaction: one commit, and one pass of
// FTS5 and index maintenance, instead of several per session. A transaction
// ends at batchMessages messages or batchTime, whichever comes first, or as
// soon as another writer (a hook) waits for the write lock; that one then
// goes first (store.DB.OthersWaiting).
const (
	batchMessages = 20000
	batchTime     = 200 * time.Millisecond
)

// importTranscripts imports the transcripts the options name, oldest first,
// each through the live pipeline. Workers read, filter, extract and align
// transcripts ahead on every core; one writer stores them in order, many per
// transaction. A transcript that fails is recorded and the import goes on.
// Cancelling ctx stops it at the next session: what was imported until then
// is committed (running it again completes the work). afterEach, if not nil,
// is called after each commit with the number of transcripts done so far.
func importTranscripts(ctx context.Context, e *env, o importOptions, afterEach func(done int)) (*importSummary, error) {
	jobs, err := importJobs(e, o)
	if err != nil {
		return nil, err
	}
	db, cfg, err := openStoreWith(ctx, e, store.Options{Bulk: true})
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
		batch: o.batch,
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
	err = im.run(ctx, jobs, sum, func(done int, failed []importFailure) {
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
	sum.Seconds = elapsed(e.now().Sub(start))
	return sum, err
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

// staged is a transcript that a worker has read, filtered, extracted and
// aligned, waiting for the writer.
type staged struct {
	job    importJob
	out    importOutcome
	err    error
	proj   string
	tail   transcriptTail
	marker string
	// inc and plan are set when the session was not in the store: its
	// messages as events, and the pipeline's plan for them. Otherwise the
	// writer reads the transcript from the stored offset and plans it itself.
	inc   capture.Increment
	plan  *pipeline.Plan
	ready chan struct{}
}

// run imports jobs in order: workers stage them ahead, the calling goroutine
// writes them. progress is called after each commit with the number of jobs
// done and the failures among those just committed.
func (im *importer) run(ctx context.Context, jobs []importJob, sum *importSummary, progress func(done int, failed []importFailure)) error {
	// Workers are told to stop when run returns, and run waits for them:
	// none may still be reading the store when the caller closes it.
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		stop()
		wg.Wait()
	}()
	stages := make([]*staged, len(jobs))
	for i := range stages {
		stages[i] = &staged{job: jobs[i], ready: make(chan struct{})}
	}
	workers := runtime.GOMAXPROCS(0)
	// ahead and staging bound how far the workers run ahead of the writer,
	// and so the memory staged transcripts hold: in transcripts, and in
	// their bytes (a large one is always staged, alone if need be).
	ahead := make(chan struct{}, 4*workers)
	staging := newBudget(wctx, stagedBytes)
	next := make(chan *staged)
	go func() {
		defer close(next)
		for _, s := range stages {
			select {
			case ahead <- struct{}{}:
			case <-wctx.Done():
				return
			}
			if !staging.take(s.job.info.Size) {
				return
			}
			select {
			case next <- s:
			case <-wctx.Done():
				return
			}
		}
	}()
	for range workers {
		wg.Go(func() {
			for s := range next {
				im.stage(wctx, s)
				close(s.ready)
			}
		})
	}

	// The writer's statements run on a context that is never cancelled:
	// cancelling ctx stops the import between two sessions, and the sessions
	// written so far are committed rather than rolled back with a statement
	// cut short.
	wc := context.WithoutCancel(ctx)
	limit := im.batch
	if limit <= 0 {
		limit = batchMessages
	}
	var (
		tx      *store.Tx
		began   time.Time
		pending importSummary // what the open transaction holds
		done    int           // jobs committed
		held    int           // jobs written to the open transaction
	)
	commit := func() error {
		if tx != nil {
			if err := tx.Commit(); err != nil {
				return fmt.Errorf("import: %w", err) // the deferred Rollback ends it
			}
			tx = nil
		}
		sum.add(pending)
		failed := pending.Failures
		pending = importSummary{}
		done += held
		held = 0
		progress(done, failed)
		return nil
	}
	defer func() {
		if tx != nil {
			tx.Rollback()
		}
	}()
	for i, s := range stages {
		select {
		case <-s.ready:
		case <-ctx.Done():
		}
		if err := ctx.Err(); err != nil {
			if cerr := commit(); cerr != nil {
				return cerr
			}
			return fmt.Errorf("interrupted after %d of %d transcripts (run it again to finish): %w", done, len(jobs), err)
		}
		<-ahead
		if s.err == nil && s.out == outcomeImported && tx == nil {
			var err error
			if tx, err = im.db.Begin(wc); err != nil {
				return fmt.Errorf("import: %w", err)
			}
			began = time.Now()
		}
		out, err := s.out, s.err
		var one importSummary // what this transcript adds, if it does
		if err == nil && out == outcomeImported {
			err = tx.Savepoint(wc, func() error {
				out, err = im.write(wc, tx, s, &one)
				return err
			})
		}
		held++
		switch {
		case err != nil:
			pending.Failed++
			pending.Failures = append(pending.Failures, importFailure{Path: s.job.path, Error: fileErrorText(err)})
		default:
			pending.add(one)
			pending.count(out)
		}
		stages[i] = nil // let the staged transcript go
		staging.give(s.job.info.Size)
		// A hook waiting for the lock waits for this session's writes, not
		// the rest of the batch's.
		if tx == nil || pending.Messages >= limit || time.Since(began) >= batchTime || im.db.OthersWaiting() {
			if err := commit(); err != nil {
				return err
			}
		}
	}
	return commit()
}

// stagedBytes bounds the transcript bytes staged ahead of the writer. A
// staged transcript holds its messages, events and plan, two to three times
// its size, and with four per worker a history of large sessions filled the
// memory: eight 25 MB sessions with eight workers peaked at 990 MB, 562 MB
// with this bound.
const stagedBytes = 64 << 20

// budget is a count of bytes that take waits for and give returns.
type budget struct {
	mu          sync.Mutex
	cond        *sync.Cond
	used, limit int64
	ctx         context.Context
}

// newBudget makes a budget of n bytes; waits end when ctx is done.
func newBudget(ctx context.Context, n int64) *budget {
	b := &budget{limit: n, ctx: ctx}
	b.cond = sync.NewCond(&b.mu)
	context.AfterFunc(ctx, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.cond.Broadcast()
	})
	return b
}

// take waits until n bytes are left, or nothing is taken (so that one item
// larger than the budget still goes), and takes them. It reports false if
// the context ended first.
func (b *budget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used > 0 && b.used+n > b.limit && b.ctx.Err() == nil {
		b.cond.Wait()
	}
	if b.ctx.Err() != nil {
		return false
	}
	b.used += n
	return true
}

// give returns n bytes that take took.
func (b *budget) give(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	b.cond.Broadcast()
}

// count adds one transcript's outcome.
func (s *importSummary) count(out importOutcome) {
	switch out {
	case outcomeImported:
		s.Imported++
	case outcomeSkipped:
		s.Skipped++
	case outcomeBeforeSince:
		s.BeforeSince++
	case outcomeEmpty:
		s.Empty++
	case outcomeForgotten:
		s.Forgotten++
	}
}

// add adds the counts of o (a committed batch) to s.
func (s *importSummary) add(o importSummary) {
	s.Imported += o.Imported
	s.Skipped += o.Skipped
	s.BeforeSince += o.BeforeSince
	s.Empty += o.Empty
	s.Forgotten += o.Forgotten
	s.Failed += o.Failed
	s.Messages += o.Messages
	s.Added += o.Added
	s.Duplicates += o.Duplicates
	s.Verified += o.Verified
	s.Candidates += o.Candidates
	s.NewEntries += o.NewEntries
	s.Conflicts += o.Conflicts
	s.Failures = append(s.Failures, o.Failures...)
}

// stage does what can be done for a transcript before the writer: decide
// whether it needs importing and, for a session the store does not hold yet,
// read it into events and plan its entries. It only reads the store.
func (im *importer) stage(ctx context.Context, s *staged) {
	job := s.job
	if job.err != nil {
		s.err = job.err
		return
	}
	info := job.info
	if info.Size == 0 {
		s.out = outcomeEmpty
		return
	}
	if !im.since.IsZero() && info.ModTime.Before(im.since) && (info.Started.IsZero() || info.Started.Before(im.since)) {
		s.out = outcomeBeforeSince
		return
	}
	if s.tail, s.err = readTranscriptTail(job.path, info.Size); s.err != nil {
		return
	}
	s.proj = job.project
	if s.proj == "" && info.Cwd != "" {
		s.proj = project.Identify(info.Cwd)
	}
	if s.proj == "" {
		s.proj = im.fallback
	}
	s.marker = store.TypeSessionProcessed + ":" + info.SessionID + ":" + strconv.FormatInt(info.Size, 10)
	out, fresh, err := im.check(ctx, im.db.Read(), s)
	if err != nil || !fresh || out != outcomeImported {
		s.out, s.err = out, err
		return
	}
	sess := im.session(s)
	if s.inc, s.err = im.rec.Read(sess, true); s.err != nil {
		return
	}
	if s.err = store.Prepare(s.inc.Events); s.err != nil {
		return
	}
	s.plan, s.err = im.proc.Plan(ctx, sess, s.inc.Events)
}

// check decides whether a staged transcript is to be imported, and whether
// its session is new to the store.
func (im *importer) check(ctx context.Context, r *store.Tx, s *staged) (out importOutcome, fresh bool, err error) {
	stored, err := r.Session(ctx, s.job.info.SessionID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return outcomeImported, true, nil
	case err != nil:
		return 0, false, err
	case stored.Source == store.SessionForgotten:
		// The user had it forgotten; its transcript is still on disk, but
		// bringing it back is not an import's call.
		return outcomeForgotten, false, nil
	case stored.Offset == s.tail.complete:
		done, err := r.HasEvent(ctx, s.marker)
		if err != nil {
			return 0, false, err
		}
		if done {
			return outcomeSkipped, false, nil
		}
	}
	return outcomeImported, false, nil
}

// session is the session a staged transcript registers.
func (im *importer) session(s *staged) store.Session {
	info := s.job.info
	return store.Session{ID: info.SessionID, Project: s.proj, Cwd: info.Cwd, TranscriptPath: s.job.path, Source: "import", StartedAt: info.date()}
}

// write imports one staged transcript in tx: register the session, ingest
// it whole, record its start and end, end it, run the pipeline, then mark it
// processed at this size. Every step is keyed, so a step repeated after an
// interruption adds nothing; the marker lets an unchanged transcript be
// skipped at once. The worker's plan is used when the session is new and
// every message was stored as read; otherwise the session's stored messages
// are planned again here.
func (im *importer) write(ctx context.Context, tx *store.Tx, s *staged, sum *importSummary) (importOutcome, error) {
	info := s.job.info
	// Look again in the transaction: an earlier transcript of this import
	// may have been the same session.
	out, fresh, err := im.check(ctx, tx, s)
	if err != nil || out != outcomeImported {
		return out, err
	}
	if err := tx.TouchSession(ctx, im.session(s)); err != nil {
		return 0, err
	}
	sess, err := tx.Session(ctx, info.SessionID)
	if err != nil {
		return 0, err
	}
	plan, inc := s.plan, s.inc
	if !fresh || plan == nil {
		plan = nil
		if inc, err = im.rec.Read(sess, true); err != nil {
			return 0, err
		}
	}
	ing, err := capture.Write(ctx, tx, sess, inc)
	if err != nil {
		return 0, err
	}
	sum.Messages += ing.Messages
	sum.Added += ing.Added
	sum.Duplicates += ing.Duplicates
	// The markers' keys come from the transcript, so importing it again (or
	// after an interruption) finds them stored.
	started := info.date()
	ended := s.tail.last
	if ended.IsZero() {
		ended = info.ModTime
	}
	ids := capture.Session{ID: sess.ID, Project: sess.Project}
	raw := []byte(s.job.path + "\x00" + info.SessionID)
	if _, err := tx.Append(ctx,
		capture.MarkEvent(ids, store.TypeSessionStarted, raw, started,
			map[string]any{"source": "import", "cwd": info.Cwd, "transcript_path": s.job.path}),
		capture.MarkEvent(ids, store.TypeSessionEnded, raw, ended, map[string]any{"reason": "import"}),
	); err != nil {
		return 0, err
	}
	if sess.EndedAt.IsZero() {
		if err := tx.EndSession(ctx, sess.ID, "import", ended); err != nil {
			return 0, err
		}
	}
	if plan != nil && len(ing.IDs) == len(plan.Events) {
		// Stored as read, unless the session had messages without a session row.
		if n, err := tx.CountSessionMessages(ctx, sess.ID); err != nil || n != len(plan.Events) {
			plan = nil
		}
	} else {
		plan = nil
	}
	var res pipeline.Result
	if plan != nil {
		for i, id := range ing.IDs {
			plan.Events[i].ID = id
		}
		res, err = im.proc.Apply(ctx, tx, plan)
	} else {
		res, err = im.proc.ProcessIn(ctx, tx, sess.ID)
	}
	if err != nil {
		return 0, err
	}
	sum.Verified += res.Verified
	sum.Candidates += res.Candidates
	sum.NewEntries += res.New
	sum.Conflicts += res.Conflicts
	// encoding/json, not %q: Go quoting writes a byte such as 0x7f in a
	// directory name as \x7f, which is not JSON, and the store refused the
	// payload on every retry.
	payload, err := json.Marshal(struct {
		Path      string `json:"transcript_path"`
		Bytes     int64  `json:"bytes"`
		Offset    int64  `json:"offset"`
		Messages  int    `json:"messages"`
		Extractor string `json:"extractor"`
	}{s.job.path, info.Size, ing.Offset, res.Messages, res.Extractor})
	if err != nil {
		return 0, err
	}
	if _, err := tx.Append(ctx, store.Event{Time: im.now(), Type: store.TypeSessionProcessed, SessionID: sess.ID, Project: sess.Project,
		DedupeKey: s.marker, Payload: payload}); err != nil {
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
	f, err := transcript.Open(path)
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

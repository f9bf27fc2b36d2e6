package ingest

import (
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
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/export"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
)

// Job is one transcript to import.
type Job struct {
	path    string
	project string // the project to file it under; "" means the project of its cwd
	info    transcript.Info
	// agents are its subagents' transcripts (transcript.SubagentFiles),
	// listed once, and agentBytes their size.
	agents     []string
	agentBytes int64
	err        error // reading its head failed
}

// size is the bytes a job's staging reads.
func (j Job) size() int64 { return j.info.Size + j.agentBytes }

// Failure is a transcript that could not be imported.
type Failure struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// Summary counts what an import did; it is also import's --json output.
type Summary struct {
	Sessions    int       `json:"sessions"` // transcripts found
	Imported    int       `json:"sessions_imported"`
	Skipped     int       `json:"sessions_skipped"` // already imported, unchanged
	BeforeSince int       `json:"sessions_before_since"`
	Empty       int       `json:"sessions_empty"`
	Forgotten   int       `json:"sessions_forgotten"` // forget removed them; not imported again
	Failed      int       `json:"sessions_failed"`
	Messages    int       `json:"messages"`
	Added       int       `json:"events_added"` // message events stored
	Duplicates  int       `json:"duplicates_skipped"`
	Verified    int       `json:"entries_verified"`
	Candidates  int       `json:"entries_candidate"`
	NewEntries  int       `json:"entries_new"`
	Conflicts   int       `json:"conflicts"`
	Seconds     float64   `json:"seconds"`
	Failures    []Failure `json:"failures"`
}

// Sources name the transcripts to import.
type Sources struct {
	Transcripts []string // transcript files
	Dir         string   // every *.jsonl directly in it
	// Project is a directory: alone, its Claude Code sessions; with
	// Transcripts or Dir, the project to file them under instead of the
	// project of the cwd recorded in each transcript.
	Project string
	All     bool // every session of every project Claude Code has on disk
}

// Jobs resolves the sources to the transcripts to import, in order, each
// once, leaving out subagent transcripts (said on warn). getenv finds
// Claude Code's directory.
func Jobs(o Sources, getenv func(string) string, warn io.Writer) ([]Job, error) {
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
		ps, err := transcript.Files(abs)
		if err != nil {
			return nil, fmt.Errorf("read --dir: %w", err)
		}
		paths = append(paths, ps...)
	}
	if o.All || (o.Project != "" && len(o.Transcripts) == 0 && o.Dir == "") {
		root, err := transcript.ProjectsDir(getenv)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(root); err != nil {
			return nil, fmt.Errorf("no Claude Code projects directory: %w", err)
		}
		folders, err := transcript.Folders(root, o.Project)
		if err != nil {
			return nil, err
		}
		if len(folders) == 0 && o.Project != "" {
			abs, _ := filepath.Abs(o.Project)
			return nil, fmt.Errorf("no Claude Code sessions for %s (looked for %s)", abs, filepath.Join(root, project.Slug(abs)))
		}
		for _, f := range folders {
			ps, err := transcript.Files(f)
			if err != nil {
				return nil, err
			}
			paths = append(paths, ps...)
		}
	}
	seen := map[string]bool{}
	var jobs []Job
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		if transcript.IsSubagent(p) {
			fmt.Fprintf(warn, "skipping %s: a subagent transcript is part of its session, not a session\n", p)
			continue
		}
		jobs = append(jobs, Job{path: p, project: override})
	}
	return jobs, nil
}

// Importer imports transcripts into one store, each through the live
// pipeline.
type Importer struct {
	DB        *store.DB // opened with store.Options.Bulk
	Extractor pipeline.Extractor
	Fallback  pipeline.Extractor // used when Extractor fails; nil means none
	// Budget holds Extractor to the LLM spend caps; nil means none. It must
	// defer its writes (spend.Meter.Defer): the writer stores them.
	Budget *spend.Meter
	Log    *slog.Logger
	Now    func() time.Time
	// Since skips transcripts started and last written before it.
	Since time.Time
	// Project is the directory whose project takes sessions whose rows
	// carry no cwd; "" leaves them without one.
	Project string
	// Batch is how many messages one transaction holds at most; 0 means
	// BatchMessages. Tests set 1 to commit after every session.
	Batch int

	rec      *capture.Recorder
	proc     *pipeline.Processor
	fallback string // the project of Project
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
// ends at BatchMessages messages or batchTime, whichever comes first, or as
// soon as another writer (a hook) waits for the write lock; that one then
// goes first (store.DB.OthersWaiting).
const (
	BatchMessages = 20000
	batchTime     = 200 * time.Millisecond
)

// Run imports jobs, oldest first. Workers read, filter, extract and align
// transcripts ahead on every core; one writer stores them in order, many per
// transaction. A transcript that fails is recorded and the import goes on.
// Cancelling ctx stops it at the next session: what was imported until then
// is committed (running it again completes the work). progress, if not nil,
// is called after each commit with the number of transcripts done, the
// summary so far and the failures among those just committed. Run returns
// the summary even with an error.
func (im *Importer) Run(ctx context.Context, jobs []Job, progress func(done int, sum *Summary, failed []Failure)) (*Summary, error) {
	im.rec = &capture.Recorder{DB: im.DB, Log: im.Log}
	im.proc = &pipeline.Processor{DB: im.DB, Extractor: im.Extractor, Fallback: im.Fallback, Budget: im.Budget, Log: im.Log, Now: im.Now}
	if im.Project != "" {
		abs, err := filepath.Abs(im.Project)
		if err != nil {
			return nil, err
		}
		im.fallback = project.Identify(abs)
	}
	// Oldest first: the pipeline takes the order it processes sessions in as
	// the order claims were made, to tell which of two supersedes the other.
	for i := range jobs {
		jobs[i].info, jobs[i].err = ReadInfo(jobs[i].path, false)
		jobs[i].agents, jobs[i].agentBytes = transcript.SubagentFiles(jobs[i].path)
	}
	sort.SliceStable(jobs, func(i, j int) bool {
		a, b := jobs[i].info.Date(), jobs[j].info.Date()
		if !a.Equal(b) {
			return a.Before(b)
		}
		return jobs[i].path < jobs[j].path
	})
	sum := &Summary{Sessions: len(jobs), Failures: []Failure{}}
	err := im.run(ctx, jobs, sum, func(done int, failed []Failure) {
		if progress != nil {
			progress(done, sum, failed)
		}
	})
	return sum, err
}

// ErrorText is an error's message without the file path, for printing
// next to the path.
func ErrorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && err == error(pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// staged is a transcript that a worker has read, filtered, extracted and
// aligned, waiting for the writer.
type staged struct {
	job    Job
	out    importOutcome
	err    error
	proj   string
	tail   transcript.Tail
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
func (im *Importer) run(ctx context.Context, jobs []Job, sum *Summary, progress func(done int, failed []Failure)) error {
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
			if !staging.take(s.job.size()) {
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
	limit := im.Batch
	if limit <= 0 {
		limit = BatchMessages
	}
	var (
		tx      *store.Tx
		began   time.Time
		pending Summary // what the open transaction holds
		done    int     // jobs committed
		held    int     // jobs written to the open transaction
	)
	commit := func() error {
		if tx != nil {
			// Spend of a plan whose write failed goes with the batch.
			if err := im.Budget.Flush(wc, tx); err != nil {
				return fmt.Errorf("import: %w", err)
			}
			if err := tx.Commit(); err != nil {
				return fmt.Errorf("import: %w", err) // the deferred Rollback ends it
			}
			tx = nil
		}
		sum.add(pending)
		failed := pending.Failures
		pending = Summary{}
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
			if tx, err = im.DB.Begin(wc); err != nil {
				return fmt.Errorf("import: %w", err)
			}
			began = time.Now()
		}
		out, err := s.out, s.err
		var one Summary // what this transcript adds, if it does
		if err == nil && out == outcomeImported {
			err = tx.Savepoint(wc, func() error {
				if out, err = im.write(wc, tx, s, &one); err != nil {
					return err
				}
				return im.Budget.Flush(wc, tx)
			})
			if err != nil {
				// Rolled back, perhaps after Apply had kept what it wrote.
				im.proc.Forget()
			}
		}
		held++
		switch {
		case err != nil:
			pending.Failed++
			pending.Failures = append(pending.Failures, Failure{Path: s.job.path, Error: ErrorText(err)})
		default:
			pending.add(one)
			pending.count(out)
		}
		stages[i] = nil // let the staged transcript go
		staging.give(s.job.size())
		// A hook waiting for the lock waits for this session's writes, not
		// the rest of the batch's.
		if tx == nil || pending.Messages >= limit || time.Since(began) >= batchTime || im.DB.OthersWaiting() {
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
func (s *Summary) count(out importOutcome) {
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
func (s *Summary) add(o Summary) {
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
func (im *Importer) stage(ctx context.Context, s *staged) {
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
	if !im.Since.IsZero() && info.ModTime.Before(im.Since) && (info.Started.IsZero() || info.Started.Before(im.Since)) {
		s.out = outcomeBeforeSince
		return
	}
	if s.tail, s.err = transcript.ReadTail(job.path, info.Size); s.err != nil {
		return
	}
	s.proj = job.project
	if s.proj == "" && info.Cwd != "" {
		s.proj = project.Identify(info.Cwd)
	}
	if s.proj == "" {
		s.proj = im.fallback
	}
	// The session is read and planned under the spelling of its project the
	// store files (a Windows drive letter in the other case), as Register
	// will file it: read under another, its messages and memories were
	// filed apart from its session.
	if s.proj, s.err = im.DB.Read().RecordedProject(ctx, s.proj); s.err != nil {
		return
	}
	// The marker holds the size of the subagents' transcripts too: a
	// subagent's file written after the session's was imported is read.
	size := strconv.FormatInt(info.Size, 10)
	if job.agentBytes > 0 {
		size += "+" + strconv.FormatInt(job.agentBytes, 10)
	}
	s.marker = store.Key(store.TypeSessionProcessed, info.SessionID, size)
	out, fresh, err := im.check(ctx, im.DB.Read(), s)
	if err != nil || !fresh || out != outcomeImported {
		s.out, s.err = out, err
		return
	}
	sess := im.session(s)
	if s.inc, s.err = im.read(sess, s.job.agents); s.err != nil {
		return
	}
	if s.err = store.Prepare(s.inc.Events); s.err != nil {
		return
	}
	s.plan, s.err = im.proc.Plan(ctx, sess, s.inc.Events)
}

// read reads a session's transcript whole, and its subagents' file edits
// from their transcripts, agents, that the increment does not hold already
// (two files may hold one call).
func (im *Importer) read(sess store.Session, agents []string) (capture.Increment, error) {
	inc, err := im.rec.Read(sess, true)
	if err != nil {
		return inc, err
	}
	keys := make(map[string]bool, len(inc.Events))
	for _, e := range inc.Events {
		keys[e.DedupeKey] = true
	}
	var sub []store.Event
	for _, e := range im.rec.ReadSubagents(sess, agents) {
		if !keys[e.DedupeKey] {
			keys[e.DedupeKey] = true
			sub = append(sub, e)
		}
	}
	inc.Events = interleave(inc.Events, sub)
	inc.Messages += len(sub)
	return inc, nil
}

// interleave puts each of sub, put in time order, before the first of main
// that is later, main's own order kept: a subagent's edit is stored where
// it happened in its session, among the turns, not after them. One with no
// time goes last.
func interleave(main, sub []store.Event) []store.Event {
	if len(sub) == 0 {
		return main
	}
	slices.SortStableFunc(sub, func(a, b store.Event) int {
		if za, zb := a.Time.IsZero(), b.Time.IsZero(); za != zb {
			if za {
				return 1
			}
			return -1
		}
		return a.Time.Compare(b.Time)
	})
	out := make([]store.Event, 0, len(main)+len(sub))
	j := 0
	for _, e := range main {
		for j < len(sub) && !sub[j].Time.IsZero() && sub[j].Time.Before(e.Time) {
			out = append(out, sub[j])
			j++
		}
		out = append(out, e)
	}
	return append(out, sub[j:]...)
}

// check decides whether a staged transcript is to be imported, and whether
// its session is new to the store.
func (im *Importer) check(ctx context.Context, r *store.Tx, s *staged) (out importOutcome, fresh bool, err error) {
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
	case stored.Offset == s.tail.Complete:
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
func (im *Importer) session(s *staged) store.Session {
	info := s.job.info
	return store.Session{ID: info.SessionID, Project: s.proj, Cwd: info.Cwd, TranscriptPath: s.job.path, Source: "import", StartedAt: info.Date()}
}

// write imports one staged transcript in tx: register the session, ingest
// it whole, record its start and end, end it, run the pipeline, then mark it
// processed at this size. Every step is keyed, so a step repeated after an
// interruption adds nothing; the marker lets an unchanged transcript be
// skipped at once. The worker's plan is used when the session is new and
// every message was stored as read; otherwise the session's stored messages
// are planned again here.
func (im *Importer) write(ctx context.Context, tx *store.Tx, s *staged, sum *Summary) (importOutcome, error) {
	info := s.job.info
	// Look again in the transaction: an earlier transcript of this import
	// may have been the same session.
	out, fresh, err := im.check(ctx, tx, s)
	if err != nil || out != outcomeImported {
		return out, err
	}
	sess, err := Register(ctx, tx, im.session(s))
	if err != nil {
		return 0, err
	}
	plan, inc := s.plan, s.inc
	// Read again where the session is filed under another spelling of its
	// project than it was read under: another import's session of the
	// other spelling came first (Register).
	if !fresh || plan == nil || sess.Project != s.proj {
		plan = nil
		if inc, err = im.read(sess, s.job.agents); err != nil {
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
	started := info.Date()
	ended := s.tail.Last
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
	if _, err := tx.Append(ctx, store.Event{Time: im.Now(), Type: store.TypeSessionProcessed, SessionID: sess.ID, Project: sess.Project,
		DedupeKey: s.marker, Payload: payload}); err != nil {
		return 0, err
	}
	return outcomeImported, nil
}

// ErrExportFile marks a file written by export, which import reads with
// --from-export: read as a transcript it made sessions of nothing.
var ErrExportFile = errors.New("an export of this tool, not a transcript: use import --from-export")

// ReadInfo is transcript.ReadInfo, naming a file export wrote as such
// (ErrExportFile).
func ReadInfo(path string, countLines bool) (transcript.Info, error) {
	info, err := transcript.ReadInfo(path, countLines)
	var he *transcript.HeaderError
	if errors.As(err, &he) && he.Format == export.Format {
		return info, ErrExportFile
	}
	return info, err
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/ingest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// runProcess is the detached worker the SessionEnd hook starts for sessions it
// cannot process within its budget; it can also be run by hand.
func runProcess(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "process", "--session ID [--transcript FILE --cwd DIR] [--ended REASON [--ended-at TIME]]")
	session := fs.String("session", "", "the session to extract memories from")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for another running worker")
	// What SessionEnd records itself, passed on when it could not open the
	// store (a large store upgrading, see handler.openStore).
	transcript := fs.String("transcript", "", "register the session with this transcript first")
	cwd := fs.String("cwd", "", "the session's working directory, with --transcript")
	ended := fs.String("ended", "", "record first that the session ended, for this reason")
	// The hook passes the time it saw the end (pipeline.EndedArgs); one
	// from before the flag passes none, and the end is then this run's.
	endedAt := fs.String("ended-at", "", "when the session ended, as RFC 3339, with --ended (default now)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *session == "" {
		return usagef("--session is required")
	}
	var at time.Time
	if fs.Changed("ended-at") {
		if !fs.Changed("ended") {
			return usagef("--ended-at needs --ended")
		}
		var err error
		if at, err = time.Parse(time.RFC3339Nano, *endedAt); err != nil {
			return usagef("--ended-at: %v", err)
		}
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	// Started by a hook, nobody reads this command's output or its
	// errors: the log says how it went, from the first thing that fails.
	log, closeLog := hook.OpenLog(cfg, io.Discard)
	defer closeLog()
	log = log.With("worker", "process", "session", *session)
	o := processOptions{session: *session, wait: *wait, transcript: *transcript, cwd: *cwd, ended: *ended, end: fs.Changed("ended"), endedAt: at}
	res, err := process(ctx, e, cfg, log, o)
	// The session's memories are distilled (or the worker failed): share
	// and pull now when this machine is in a team. Only this worker and
	// team sync touch the network, never a hook.
	backgroundSync(ctx, e, cfg, log)
	if err != nil {
		log.Error("process", "err", err)
		return err
	}
	fmt.Fprintf(e.stdout, "session %s: %d messages, %d entries (%d verified, %d candidates, %d new), %d conflicts, extractor %s\n",
		*session, res.Messages, res.Extracted, res.Verified, res.Candidates, res.New, res.Conflicts, res.Extractor)
	return nil
}

// workerStore takes the worker lock and opens the store; release closes
// the store and lets the lock go. The SessionEnd worker, digest and
// reextract write the same sessions' memories: never two at once.
func workerStore(ctx context.Context, e *env, cfg config.Config, wait time.Duration) (db *store.DB, release func(), err error) {
	unlock, err := pipeline.Lock(ctx, cfg.DataDir, wait)
	if err != nil {
		return nil, nil, err
	}
	db, _, err = openStore(ctx, e)
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return db, func() { db.Close(); unlock() }, nil
}

type processOptions struct {
	session, transcript, cwd, ended string
	end                             bool      // record the end, for reason ended
	endedAt                         time.Time // when it ended; zero is now
	wait                            time.Duration
}

// process stores what SessionEnd could not and distils the session.
func process(ctx context.Context, e *env, cfg config.Config, log *slog.Logger, o processOptions) (pipeline.Result, error) {
	db, release, err := workerStore(ctx, e, cfg, o.wait)
	if err != nil {
		return pipeline.Result{}, err
	}
	defer release()
	// A hook that could not open the store spooled what it could (a start
	// mark registers the session): store it before reading the session.
	if err := db.Fold(ctx); err != nil {
		log.Error("store the spool", "err", err)
	}
	rec := &capture.Recorder{DB: db, Log: log}
	if o.transcript != "" {
		start := e.now()
		if !o.endedAt.IsZero() && o.endedAt.Before(start) {
			start = o.endedAt // a session the hook could not register started no later than it ended
		}
		s := store.Session{ID: o.session, Project: project.Identify(o.cwd), Cwd: o.cwd, TranscriptPath: o.transcript, StartedAt: start}
		if err := db.Update(ctx, func(tx *store.Tx) error { _, err := ingest.Register(ctx, tx, s); return err }); err != nil {
			return pipeline.Result{}, fmt.Errorf("register the session: %w", err)
		}
	}
	sess, err := db.Read().Session(ctx, o.session)
	// A session resumed after an end keeps that end's time until it ends
	// again: the hook's later end is recorded over it. A worker of an
	// older hook (no --ended-at) records an end only where none is.
	if err == nil && o.end && (sess.EndedAt.IsZero() || o.endedAt.After(sess.EndedAt)) {
		at := o.endedAt
		if at.IsZero() {
			at = e.now()
		}
		// The mark's key holds the end's time: a second end of a resumed
		// session is one of its own, the same worker run again is not.
		raw := "process --ended " + o.ended + " --ended-at " + at.UTC().Format(time.RFC3339Nano)
		if err := rec.End(ctx, capture.Session{ID: sess.ID, Project: sess.Project}, o.ended, []byte(raw), at); err != nil {
			return pipeline.Result{}, fmt.Errorf("end the session: %w", err)
		}
		sess.EndedAt = at
	}
	// A SessionEnd hook that ran out of budget left the rest of the
	// transcript for the worker: store it before extracting.
	if err == nil && sess.TranscriptPath != "" {
		// IngestSteps stops at the size the transcript has now: one that
		// keeps growing (a session resumed meanwhile, a hostile file) is not
		// chased.
		more := func(time.Duration) bool { return true }
		if _, err := rec.IngestSteps(ctx, &sess, !sess.EndedAt.IsZero(), workerStep, more); err != nil {
			log.Error("ingest transcript", "err", err)
		}
	}
	ext, fallback := extractorFor(cfg, log)
	p := &pipeline.Processor{DB: db, Extractor: ext, Fallback: fallback, Budget: meterFor(cfg, db, fallback, log, e.now, false), Log: log, Now: e.now}
	res, err := p.Process(ctx, o.session)
	if err != nil {
		return res, err
	}
	// Old sessions get their digests while the worker holds the lock, a
	// bounded number a run: a digest is a supplement, so a failure is
	// logged and the session's result stands.
	if d, err := p.Digests(ctx, "", pipeline.DigestsBefore(e.now(), cfg.Digest.AfterDays), pipeline.DigestLimit); err != nil {
		log.Error("digest", "err", err)
	} else {
		pipeline.RecordDigests(cfg.DataDir, d, pipeline.DigestLimit, e.now())
		if d.Built+d.Skipped > 0 {
			log.Info("digests", "built", d.Built, "skipped", d.Skipped)
		}
	}
	p.MergeIndexes(ctx, cfg.DataDir)
	return res, nil
}

// workerStep is how many transcript bytes the worker stores per
// transaction: a hook that wants the write lock waits at most one step.
const workerStep = 8 << 20

// errNoBackend marks an LLM backend that is configured but not usable.
var errNoBackend = errors.New("extractor backend unavailable")

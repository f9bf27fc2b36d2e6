package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
)

// runProcess is the detached worker the SessionEnd hook starts for sessions it
// cannot process within its budget; it can also be run by hand.
func runProcess(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "process", "--session ID")
	session := fs.String("session", "", "the session to extract memories from")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for another running worker")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *session == "" {
		return usagef("--session is required")
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	unlock, err := pipeline.Lock(ctx, cfg.DataDir, *wait)
	if err != nil {
		return err
	}
	defer unlock()
	db, _, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	// A hook that found the store too large to upgrade spooled the session
	// instead of registering it (handler.openStore): store that first.
	if err := db.Fold(ctx); err != nil {
		return err
	}
	logf, err := os.OpenFile(cfg.LogPath(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	log := slog.New(slog.NewTextHandler(logf, nil)).With("worker", "process", "session", *session)
	// A SessionEnd hook that ran out of budget left the rest of the
	// transcript for the worker: store it before extracting.
	if sess, err := db.Read().Session(ctx, *session); err == nil && sess.TranscriptPath != "" {
		rec := &capture.Recorder{DB: db, Log: log}
		// IngestSteps stops at the size the transcript has now: one that
		// keeps growing (a session resumed meanwhile, a hostile file) is not
		// chased.
		more := func(time.Duration) bool { return true }
		if _, err := rec.IngestSteps(ctx, &sess, !sess.EndedAt.IsZero(), workerStep, more); err != nil {
			log.Error("ingest transcript", "err", err)
		}
	}
	ext, fallback := extractorFor(cfg, log)
	p := &pipeline.Processor{DB: db, Extractor: ext, Fallback: fallback, Log: log, Now: e.now}
	res, err := p.Process(ctx, *session)
	if err != nil {
		log.Error("process", "err", err)
		return err
	}
	fmt.Fprintf(e.stdout, "session %s: %d messages, %d entries (%d verified, %d candidates, %d new), %d conflicts, extractor %s\n",
		*session, res.Messages, res.Extracted, res.Verified, res.Candidates, res.New, res.Conflicts, res.Extractor)
	return nil
}

// workerStep is how many transcript bytes the worker stores per
// transaction: a hook that wants the write lock waits at most one step.
const workerStep = 8 << 20

// errNoBackend marks an LLM backend that is configured but not usable.
var errNoBackend = errors.New("extractor backend unavailable")

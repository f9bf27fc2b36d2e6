package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
)

const digestUsage = `[--project DIR] [--limit N] [--json]

Builds the digests of sessions older than digest.after_days (default 30):
one memory of type digest per session, saying what it did, decided and left
open, each line resting on a quote of what the user said or a tool read or
ran there. Recall shows a digest in place of its session's turns, which
stay searchable. The background worker does this after each session, a
bounded number of sessions a run; reextract rebuilds them. It then merges
the full-text indexes' segments when there are many, a bounded number of
short steps.
`

func runDigest(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "digest", digestUsage)
	dir := fs.String("project", "", "only the project of `DIR` (default: every project)")
	limit := fs.Int("limit", pipeline.DigestLimit, "sessions to digest at most")
	asJSON := fs.Bool("json", false, "print the counts as JSON")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for a running worker")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *limit <= 0 {
		return usagef("--limit must be positive")
	}
	proj, err := optionalProject(*dir)
	if err != nil {
		return err
	}
	if err := recordedFlag(ctx, e, &proj); err != nil {
		return err
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	log, closeLog := hook.OpenLog(cfg, io.Discard)
	defer closeLog()
	log = log.With("worker", "digest")
	db, release, err := workerStore(ctx, e, cfg, *wait)
	if err != nil {
		return err
	}
	defer release()
	p := &pipeline.Processor{DB: db, Log: log, Now: e.now}
	res, err := p.Digests(ctx, proj, pipeline.DigestsBefore(e.now(), cfg.Digest.AfterDays), *limit)
	if err != nil {
		log.Error("digest", "err", err)
		return err
	}
	log.Info("digests", "built", res.Built, "skipped", res.Skipped)
	if proj == "" {
		pipeline.RecordDigests(cfg.DataDir, res, *limit, e.now())
	}
	// SessionEnd starts this worker also when the full-text indexes hold
	// many segments (a session the hook processed itself starts no other).
	p.MergeIndexes(ctx, cfg.DataDir)
	if *asJSON {
		return writeJSON(e.stdout, res)
	}
	fmt.Fprintf(e.stdout, "%s built, %s with nothing to quote\n", plural.Of(res.Built, "digest"), plural.Of(res.Skipped, "session"))
	return nil
}

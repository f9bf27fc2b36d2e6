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

const reextractUsage = `--project DIR | --all [--dry-run] [--json]

Derives the memories of stored sessions again from their messages with this
build's extractor (the one SessionEnd uses), so an upgrade improves old
sessions' memories too. Memories you certified, rejected, edited, pinned or
superseded keep that; forgotten ones stay forgotten; memories the extractor
no longer makes are deleted. A second run changes nothing. With an LLM
extractor configured, every session is sent to it again.
`

func runReextract(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "reextract", reextractUsage)
	dir := fs.String("project", "", "the project of `DIR`")
	all := fs.Bool("all", false, "every project in the store")
	dryRun := fs.Bool("dry-run", false, "say what would change, change nothing")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	wait := fs.Duration("wait", 10*time.Minute, "how long to wait for a running worker")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if (*dir == "") == !*all {
		return usagef("give --project DIR or --all")
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
	db, release, err := workerStore(ctx, e, cfg, *wait)
	if err != nil {
		return err
	}
	defer release()
	log, closeLog := hook.OpenLog(cfg, io.Discard)
	defer closeLog()
	log = log.With("worker", "reextract")
	ext, fallback := extractorFor(cfg, log)
	// The LLM budget holds here as in the SessionEnd worker: a re-run over
	// every session would otherwise spend without a cap.
	p := &pipeline.Processor{DB: db, Extractor: ext, Fallback: fallback, Log: log, Now: e.now,
		Budget:    meterFor(cfg, db, fallback, log, e.now, false),
		DigestAge: time.Duration(cfg.Digest.AfterDays) * 24 * time.Hour}
	res, err := p.Reextract(ctx, proj, *dryRun)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, res)
	}
	verb := "re-derived"
	if res.DryRun {
		verb = "would re-derive (dry run)"
	}
	fmt.Fprintf(e.stdout, "%s %s of %s with extractor %s: %s kept, %d new, %d retired, %d corrected by you kept as corrected",
		verb, plural.Of(res.Sessions, "session"), plural.Of(res.Projects, "project"), res.Extractor,
		plural.Of(res.Kept, "memory"), res.New, res.Retired, res.Corrected)
	if res.Digests > 0 {
		fmt.Fprintf(e.stdout, ", %s of old sessions rebuilt", plural.Of(res.Digests, "digest"))
	}
	if res.Reopened > 0 {
		fmt.Fprintf(e.stdout, ", %d active again (their rival was retired)", res.Reopened)
	}
	fmt.Fprintln(e.stdout)
	return nil
}

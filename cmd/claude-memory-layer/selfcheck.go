package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/selfcheck"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
)

// runSelfCheck is the detached worker the Stop hook starts when
// llm.self_check is on: one LLM call judges the turn's answer and the
// verdict is stored for the session's next prompt (internal/selfcheck).
func runSelfCheck(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "selfcheck", "--session ID [--prompt-id ID]")
	session := fs.String("session", "", "the session whose answer to check")
	promptID := fs.String("prompt-id", "", "the turn's prompt id (default: the session's last turn)")
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
	// Started by a hook, nobody reads this command's output or its
	// errors: the log says how it went.
	log, closeLog := hook.OpenLog(cfg, io.Discard)
	defer closeLog()
	log = log.With("worker", "selfcheck", "session", *session)
	if !cfg.LLM.SelfCheck {
		return errors.New("llm.self_check is off")
	}
	model, err := buildBackend(cfg, log.With("extractor", cfg.Extractor), e.getenv, os.Environ())
	if err != nil {
		selfcheck.Unavailable(cfg.DataDir, log, err.Error())
		return fmt.Errorf("self-check: %w", err)
	}
	selfcheck.Available(cfg.DataDir)
	db, _, err := openStore(ctx, e)
	if err != nil {
		log.Error("self-check", "err", err)
		return err
	}
	defer db.Close()
	sess, err := db.Read().Session(ctx, *session)
	if err != nil {
		log.Error("self-check", "err", err)
		return fmt.Errorf("session %s: %w", *session, err)
	}
	c := &selfcheck.Checker{DB: db, Model: model, Log: log, Now: e.now}
	if cfg.LLM.Budget.Capped() {
		c.Budget = &spend.Meter{DB: db, Caps: cfg.LLM.Budget, Log: log, Now: e.now}
	}
	v, err := c.Check(ctx, sess, *promptID)
	switch {
	case errors.Is(err, selfcheck.ErrBudget):
		return nil // the Meter logged it, once a window
	case err != nil:
		log.Error("self-check", "prompt_id", *promptID, "err", err)
		return err
	}
	fmt.Fprintln(e.stdout, v.Line())
	return nil
}

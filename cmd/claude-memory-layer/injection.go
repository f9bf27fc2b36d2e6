package main

import (
	"context"
	"fmt"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pause"
)

// runInjection switches per-prompt injection off or on for the session that
// runs it (/memory-layer:memory-off and memory-on, whose prompt the hook has
// already acted on; doing it again here makes the command work where the
// hook did not run), or, with no argument, says whether it is on.
func runInjection(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "injection", "[off|on]")
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	session := e.getenv("CLAUDE_CODE_SESSION_ID")
	switch fs.Arg(0) {
	case "":
	case "off", "on":
		if session == "" {
			return usagef("injection %s: no session (CLAUDE_CODE_SESSION_ID is unset; run it from Claude Code, as /memory-layer:memory-%s)", fs.Arg(0), fs.Arg(0))
		}
		if err := pause.Set(cfg.DataDir, session, fs.Arg(0) == "off"); err != nil {
			return err
		}
	default:
		return usagef("injection: want off or on, not %q", fs.Arg(0))
	}
	switch {
	case !cfg.Recall.Memories:
		fmt.Fprintln(e.stdout, "Per-prompt memory injection is off everywhere (recall.memories is false in config.json).")
	case session != "" && pause.Paused(cfg.DataDir, session):
		fmt.Fprintln(e.stdout, "Per-prompt memory injection is off for this session; /memory-layer:memory-on resumes it.")
	default:
		fmt.Fprintln(e.stdout, "Per-prompt memory injection is on.")
	}
	return nil
}

package main

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/claude-memory-layer/claude-memory-layer/internal/mcpserver"
	"github.com/claude-memory-layer/claude-memory-layer/internal/version"
)

type mcpOptions struct {
	project string
	session string
}

func parseMCP(e *env, args []string) (mcpOptions, error) {
	var o mcpOptions
	fs := newFlags(e, "mcp", "[--project DIR] [--session ID]")
	fs.StringVar(&o.project, "project", "", "the project the tools look in (default: the current directory's)")
	fs.StringVar(&o.session, "session", "", "the session remember quotes from first (default: $CLAUDE_CODE_SESSION_ID, set by Claude Code)")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() != 0 {
		return o, usagef("mcp takes no arguments")
	}
	return o, nil
}

// runMCP serves the memory tools over MCP on stdin and stdout, as the
// plugin's .mcp.json starts it for every session. It stops when stdin closes.
func runMCP(ctx context.Context, e *env, args []string) error {
	o, err := parseMCP(e, args)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(e)
	if err != nil {
		return err
	}
	proj, err := projectFlag(o.project)
	if err != nil {
		return err
	}
	if o.session == "" {
		o.session = e.getenv("CLAUDE_CODE_SESSION_ID")
	}
	s := &mcpserver.Server{Config: cfg, Project: proj, SessionID: o.session, Now: e.now,
		Log: slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	err = s.Run(ctx, version.String(), mcpserver.Stdio(e.stdin, e.stdout))
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

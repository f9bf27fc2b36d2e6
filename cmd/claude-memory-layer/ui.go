package main

import (
	"context"
	"errors"
	"log/slog"

	"github.com/claude-memory-layer/claude-memory-layer/internal/dashboard"
)

type uiOptions struct {
	port   int
	noOpen bool
}

func parseUI(e *env, args []string) (uiOptions, error) {
	var o uiOptions
	fs := newFlags(e, "ui", "[--port N] [--no-open]")
	fs.IntVar(&o.port, "port", 0, "port on the loopback address (default: a free one)")
	fs.BoolVar(&o.noOpen, "no-open", false, "print the address without opening a browser")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() != 0 {
		return o, usagef("ui takes no arguments")
	}
	if o.port < 0 || o.port > 65535 {
		return o, usagef("--port %d: want 0 to 65535", o.port)
	}
	return o, nil
}

// runUI serves the local dashboard until interrupted.
func runUI(ctx context.Context, e *env, args []string) error {
	o, err := parseUI(e, args)
	if err != nil {
		return err
	}
	db, cfg, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	err = dashboard.Run(ctx, db, dashboard.RunOptions{Port: o.port, NoOpen: o.noOpen, Out: e.stdout,
		Options: dashboard.Options{Now: e.now, DataDir: cfg.DataDir, Budget: cfg.LLM.Budget, Log: slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

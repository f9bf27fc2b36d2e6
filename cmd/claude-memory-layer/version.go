package main

import (
	"context"
	"fmt"
	"runtime"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/version"
)

func runVersion(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "version", "")
	if err := parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "claude-memory-layer %s (schema %d, %s %s/%s)\n", version.String(), store.SchemaVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}

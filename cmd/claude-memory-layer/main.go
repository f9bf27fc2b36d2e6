// Command claude-memory-layer is the memory layer's CLI: search, inspect, import and forget what the plugin remembers.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	tuneForImport(os.Args[1:], os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
	stop()
	os.Exit(code)
}

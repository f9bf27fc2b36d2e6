// Command session-end is the SessionEnd and PreCompact hook: it ingests the rest of the transcript and closes the session.
package main

import (
	"os"

	"github.com/claude-memory-layer/claude-memory-layer/internal/handler"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
)

func main() {
	os.Exit(hook.Run(os.Stdin, os.Stdout, os.Stderr, hook.Options{Name: "session-end", Budget: handler.EndBudget}, handler.SessionEnd))
}

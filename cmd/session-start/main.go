// Command session-start is the SessionStart hook: it registers the session and injects a brief of recent work in the project.
package main

import (
	"os"

	"github.com/claude-memory-layer/claude-memory-layer/internal/handler"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
)

func main() {
	os.Exit(hook.Run(os.Stdin, os.Stdout, os.Stderr, hook.Options{Name: "session-start", Budget: handler.StartBudget}, handler.SessionStart))
}

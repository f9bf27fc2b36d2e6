// Command session-start is the SessionStart hook: it registers the session and injects a brief of recent work in the project.
package main

import (
	"github.com/claude-memory-layer/claude-memory-layer/internal/handler"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
)

func main() {
	hook.Main(hook.Options{Name: "session-start", Budget: handler.StartBudget}, handler.SessionStart)
}

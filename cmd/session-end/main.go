// Command session-end is the SessionEnd and PreCompact hook: it ingests the rest of the transcript and closes the session.
package main

import (
	"github.com/claude-memory-layer/claude-memory-layer/internal/handler"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
)

func main() {
	hook.Main(hook.Options{Name: "session-end", Budget: handler.EndBudget, GC: handler.EndGC}, handler.SessionEnd)
}

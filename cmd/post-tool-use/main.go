// Command post-tool-use is the PostToolUse and PostToolUseFailure hook: it stores a compact observation of the tool call.
package main

import (
	"github.com/claude-memory-layer/claude-memory-layer/internal/handler"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
)

func main() {
	hook.Main(hook.Options{Name: "post-tool-use", Budget: handler.AsyncBudget}, handler.PostToolUse)
}

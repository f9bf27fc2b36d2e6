// Command user-prompt-submit is the UserPromptSubmit hook: it stores the prompt and injects relevant memories.
package main

import (
	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/handler"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
)

func main() {
	hook.Main(hook.Options{Name: "user-prompt-submit", Budget: handler.PromptBudget, GC: handler.PromptGC, Memory: handler.PromptMemory}, handler.UserPromptSubmit(glosses.Beside()))
}

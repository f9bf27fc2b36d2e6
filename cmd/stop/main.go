// Command stop is the Stop hook: it files the finished turn in the store.
package main

import (
	"github.com/claude-memory-layer/claude-memory-layer/internal/handler"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
)

func main() {
	hook.Main(hook.Options{Name: "stop", Budget: handler.AsyncBudget}, handler.Stop)
}

package extract

import (
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/cmdargs"
)

// Text the user did not write: a slash command, the client's markup around
// a command, a background task's notice or a local command's caveat. It is
// recorded as a user message, but it states no decision of the user's:
// "/memory-layer:memory-search yarn" asks the plugin to search, it does not
// choose yarn.

// typedByClient reports a user message that is a slash command or that
// the client wrote: it opens with a markup tag or a local command's caveat.
func typedByClient(text string) bool {
	return slashCommand(strings.TrimSpace(text)) || clientNotice(text)
}

// clientNotice reports a user message the client wrote on its own (a
// background task's notice, a local command's caveat): the user did not
// speak, so no turn starts there. A slash command is the user's prompt,
// typed in the client's syntax.
func clientNotice(text string) bool {
	t := strings.TrimSpace(text)
	return markupTag(t) || strings.HasPrefix(t, "Caveat:")
}

// slashCommand reports "/name args" or "/plugin:name args": a slash, then a
// name of letters, digits and ".:_-" ending at a space or the end. A path
// ("/Users/me/x.md 요약해줘") has a second slash in its first word.
func slashCommand(t string) bool {
	if len(t) < 2 || t[0] != '/' {
		return false
	}
	for i := 1; i < len(t); i++ {
		c := t[i]
		switch {
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			return i > 1
		case isWordByte(c) || c == ':' || c == '-' || c == '.':
		default:
			return false
		}
	}
	return true
}

// markupTag reports text that opens with a hyphenated tag such as
// "<task-notification>" or "<command-name>": the client's wrapping. A
// custom element's tag is hyphenated too ("<date-picker> won't render"):
// a user message opening with one is read as the client's, which costs
// its decisions as evidence; the prompt hook reads the client's one
// notice it is given as a prompt by its own tag
// (transcript.TaskNotification).
func markupTag(t string) bool {
	if len(t) < 3 || t[0] != '<' || !isASCIILetter(t[1]) {
		return false
	}
	for i := 2; i < len(t); i++ {
		switch c := t[i]; {
		case c == '>':
			return strings.Contains(t[1:i], "-")
		case isWordByte(c) || c == '-' || c == ':':
		default:
			return false
		}
	}
	return false
}

// ownCommand reports a user message that runs one of the plugin's own
// commands: what the assistant says in that turn reads the memories back,
// and extracting it again would store the plugin's output as new memories.
func ownCommand(text string) bool {
	_, ok := cmdargs.Arguments(strings.TrimSpace(text))
	return ok
}

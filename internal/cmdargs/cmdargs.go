// Package cmdargs hands a slash command's argument text from the UserPromptSubmit hook to the CLI without passing it through a shell.
//
// Claude Code substitutes $ARGUMENTS into a command file's shell block as
// text, so any quoting there (a quoted heredoc included: one argument line
// equal to its delimiter ends it) can be broken out of by the arguments. It
// also runs the UserPromptSubmit hook, with the prompt as typed, before it
// expands the command. The hook saves the arguments of the plugin's own
// commands with Save; the shell block names no argument at all and runs the
// CLI, which takes them with Take, keyed by the session id Claude Code puts
// in the command's environment.
package cmdargs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Dir is the folder under the data directory that holds saved arguments.
const Dir = "command-args"

// MaxText caps the argument text saved; the CLI refuses more anyway.
const MaxText = 64 << 10

// ErrNone is returned by Take when no arguments were saved for the session:
// the hook did not run (the plugin's hooks are off) or they were taken.
var ErrNone = errors.New("no slash-command arguments saved for this session")

// commands are the plugin's commands, one per file in commands/.
const commands = " search show entries history stats list import forget tasks verify reject supersede edit pin unpin "

// Arguments returns the argument text of a prompt that invokes one of the
// plugin's commands, as "/memory-layer:memory-search ..." or, when Claude
// Code accepts it unprefixed, "/memory-search ...", and whether it does.
func Arguments(prompt string) (string, bool) {
	rest, ok := strings.CutPrefix(prompt, "/")
	if !ok {
		return "", false
	}
	rest = strings.TrimPrefix(rest, "memory-layer:")
	if rest, ok = strings.CutPrefix(rest, "memory-"); !ok {
		return "", false
	}
	end := strings.IndexFunc(rest, unicode.IsSpace)
	if end < 0 {
		end = len(rest)
	}
	if name := rest[:end]; name == "" || !strings.Contains(commands, " "+name+" ") {
		return "", false
	}
	return strings.TrimSpace(rest[end:]), true
}

// validSession reports whether a session id can name a file: Claude Code's are UUIDs.
func validSession(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// path is where a session's arguments are saved.
func path(dataDir, session string) (string, error) {
	if !validSession(session) {
		return "", fmt.Errorf("session id %q cannot name a file", session)
	}
	return filepath.Join(dataDir, Dir, session), nil
}

// Save stores a command's argument text for the session, replacing any
// saved before (an empty text too, so that stale arguments never reach a
// later command). The file is 0600: arguments are what the user typed.
func Save(dataDir, session, text string) error {
	p, err := path(dataDir, session)
	if err != nil {
		return err
	}
	if len(text) > MaxText {
		return fmt.Errorf("save command arguments: %d bytes, over %d", len(text), MaxText)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("save command arguments: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("save command arguments: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(text); err != nil {
		tmp.Close()
		return fmt.Errorf("save command arguments: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save command arguments: %w", err)
	}
	// Rename, so that Take never reads a half-written file.
	if err := os.Rename(tmp.Name(), p); err != nil {
		return fmt.Errorf("save command arguments: %w", err)
	}
	return nil
}

// Take returns the argument text saved for the session and removes it, so
// it serves one command. It returns an error wrapping ErrNone when there is
// none.
func Take(dataDir, session string) (string, error) {
	p, err := path(dataDir, session)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("session %s: %w", session, ErrNone)
	}
	if err != nil {
		return "", fmt.Errorf("take command arguments: %w", err)
	}
	if err := os.Remove(p); err != nil {
		return "", fmt.Errorf("take command arguments: %w", err)
	}
	return string(b), nil
}

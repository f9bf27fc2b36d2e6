// Package pause records the sessions in which the user switched per-prompt
// memory injection off (/memory-layer:memory-off, until memory-on).
//
// The UserPromptSubmit hook sees the command's prompt before Claude Code
// expands the command, so the hook itself records the switch: one empty
// file per paused session under the data directory, named by a hash of the
// session id (whatever the id holds, it names no other path).
package pause

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Dir is the folder under the data directory that holds the paused sessions.
const Dir = "paused"

// Command reports whether prompt runs the plugin's memory-off or memory-on
// command ("/memory-layer:memory-off", or "/memory-off" where Claude Code
// accepts it unprefixed), and which: off is true for memory-off.
func Command(prompt string) (off, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(prompt), "/")
	if !found {
		return false, false
	}
	rest = strings.TrimPrefix(rest, "memory-layer:")
	if i := strings.IndexFunc(rest, unicode.IsSpace); i >= 0 {
		rest = rest[:i]
	}
	switch rest {
	case "memory-off":
		return true, true
	case "memory-on":
		return false, true
	}
	return false, false
}

func path(dataDir, session string) string {
	sum := sha256.Sum256([]byte(session))
	return filepath.Join(dataDir, Dir, hex.EncodeToString(sum[:16]))
}

// Set pauses or resumes injection for session.
func Set(dataDir, session string, paused bool) error {
	p := path(dataDir, session)
	if !paused {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// Paused reports whether injection is paused for session.
func Paused(dataDir, session string) bool {
	_, err := os.Lstat(path(dataDir, session))
	return err == nil
}

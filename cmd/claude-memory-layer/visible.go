package main

import (
	"io"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
)

// readOut are the commands whose output is a copy to keep rather than
// something read: export is a backup of the store, mcp answers in its own
// protocol (which drops the same characters itself), process is the
// worker.
var readOut = map[string]bool{"export": true, "mcp": true, "process": true}

// visibleWriter drops the characters nobody sees (recall.Visible) from
// what a command prints: its output reaches the user's terminal and, through
// the slash commands, the model, where Unicode tag characters read as
// instructions nobody saw and bidi controls reorder what is shown. A rune
// split across writes waits for its end.
type visibleWriter struct {
	w    io.Writer
	part []byte
}

func (v *visibleWriter) Write(p []byte) (int, error) {
	b := append(v.part, p...)
	cut := len(b)
	// Back up over an unfinished rune at the end (at most utf8.UTFMax-1 bytes).
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				cut = i
			}
			break
		}
	}
	v.part = append([]byte(nil), b[cut:]...)
	if _, err := io.WriteString(v.w, recall.Visible(string(b[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// flush writes what is left of an unfinished rune, as it is.
func (v *visibleWriter) flush() error {
	if len(v.part) == 0 {
		return nil
	}
	_, err := v.w.Write(v.part)
	v.part = nil
	return err
}

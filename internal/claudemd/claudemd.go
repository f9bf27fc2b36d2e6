// Package claudemd reads the CLAUDE.md files Claude Code puts in a session's
// context for a working directory.
package claudemd

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
)

// Caps on what is read: a memory file is a page or two; a huge or hostile
// one must not cost the prompt hook its budget.
const (
	maxFile  = 64 << 10
	maxTotal = 256 << 10
	maxDepth = 32 // directories walked up from the working directory
)

// names are the memory files Claude Code loads from a directory.
var names = []string{"CLAUDE.md", "CLAUDE.local.md", filepath.Join(".claude", "CLAUDE.md")}

// Read returns the text of the memory files Claude Code loads for a session in
// dir: the user's own (~/.claude/CLAUDE.md, under home) and those of dir and
// each directory above it. Files that are missing, unreadable or not regular
// are skipped; each is read up to a cap.
func Read(dir, home string) string {
	var paths []string
	if home != "" {
		paths = append(paths, filepath.Join(home, ".claude", "CLAUDE.md"))
	}
	if dir != "" && filepath.IsAbs(dir) {
		d := filepath.Clean(dir)
		for range maxDepth {
			for _, n := range names {
				paths = append(paths, filepath.Join(d, n))
			}
			up := filepath.Dir(d)
			if up == d {
				break
			}
			d = up
		}
	}
	var b strings.Builder
	for _, p := range paths {
		if b.Len() >= maxTotal {
			break
		}
		f, err := regular.OpenFile(p, os.O_RDONLY, 0)
		if err != nil {
			continue
		}
		data, _ := io.ReadAll(io.LimitReader(f, maxFile))
		f.Close()
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

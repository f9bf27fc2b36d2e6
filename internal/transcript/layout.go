package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
)

// ErrNoClaudeDir is returned by ProjectsDir when the environment names no
// Claude Code directory.
var ErrNoClaudeDir = errors.New("no Claude Code directory: set CLAUDE_CONFIG_DIR or HOME")

// ProjectsDir is where Claude Code keeps transcripts: projects/ under its
// configuration directory (config.ClaudeDir). It returns ErrNoClaudeDir when
// getenv names none.
func ProjectsDir(getenv func(string) string) (string, error) {
	root, err := config.ClaudeDir(getenv)
	if err != nil {
		return "", ErrNoClaudeDir
	}
	return filepath.Join(root, "projects"), nil
}

// maxSlug is the longest folder name Claude Code uses as is; longer ones are
// cut and get a hash of the full path appended.
const maxSlug = 200

// SessionDirs returns the folders under projects that Claude Code may use
// for sessions run in the absolute directory dir, whether or not they exist.
// Claude Code names the folder by replacing every character of the path
// other than [a-zA-Z0-9] with "-" (project.Slug); a name over 200
// characters is cut to 200 and suffixed with "-" and a hash of its own,
// which is matched with a glob, so that form is listed only when it exists.
func SessionDirs(projects, dir string) []string {
	slug := project.Slug(dir)
	if len(slug) <= maxSlug {
		return []string{filepath.Join(projects, slug)}
	}
	// The 200-character prefix is distinctive enough to find the folder
	// without the hash.
	m, _ := filepath.Glob(filepath.Join(projects, slug[:maxSlug]+"-*"))
	return m
}

// Folders returns the project folders under root: all of them, or with dir
// only those of that working directory (none if it has no sessions).
func Folders(root, dir string) ([]string, error) {
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		var out []string
		for _, d := range SessionDirs(root, abs) {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				out = append(out, d)
			}
		}
		return out, nil
	}
	des, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range des {
		if d.IsDir() {
			out = append(out, filepath.Join(root, d.Name()))
		}
	}
	return out, nil
}

// Files lists the *.jsonl files directly in dir, sorted. Subagent
// transcripts live one level down (<session>/subagents/) and are not listed.
func Files(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range des {
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".jsonl") {
			out = append(out, filepath.Join(dir, d.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// IsSubagent reports whether path is a subagent's transcript, which holds a
// side conversation, not a session: subagents/agent-<id>.jsonl in its
// session's folder, or agent-<id>.jsonl beside the sessions, where earlier
// versions of Claude Code wrote it (its id in hexadecimal).
func IsSubagent(path string) bool {
	if filepath.Base(filepath.Dir(path)) == "subagents" {
		return true
	}
	id, ok := strings.CutPrefix(filepath.Base(path), "agent-")
	id, ok2 := strings.CutSuffix(id, ".jsonl")
	return ok && ok2 && id != "" && strings.Trim(id, "0123456789abcdef") == ""
}

// SubagentFiles returns the transcripts of the subagents of the session
// whose transcript is at path, <session>/subagents/agent-*.jsonl beside it,
// and their total size. Only regular files are listed: a link could bring
// another session's calls under this one's.
func SubagentFiles(path string) (files []string, size int64) {
	dir := filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents")
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0
	}
	for _, d := range des {
		name := d.Name()
		if !d.Type().IsRegular() || !strings.HasPrefix(name, "agent-") || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		fi, err := d.Info()
		if err != nil {
			continue
		}
		files = append(files, filepath.Join(dir, name))
		size += fi.Size()
	}
	return files, size
}

// Package project derives a project's identity from a working directory.
package project

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
)

// Identify returns the project a working directory belongs to: the top level of
// its git repository, with a linked worktree mapped to its main repository, or
// the cleaned directory itself outside git. It reads .git files directly instead
// of running git, because it runs on every prompt and git may not be installed.
// An empty cwd yields "".
//
// A cwd that names no directory here (recorded on another machine: a
// Windows path on Linux, which is relative here, or a directory that does
// not exist) is its own project, the path as recorded: resolved against
// this process's directory, or walked up to a repository that happens to
// contain it, it filed another machine's sessions under an unrelated
// project, whose prompts then recalled them. Callers resolve a path the
// user typed (--project ..) first.
func Identify(cwd string) string {
	if cwd == "" {
		return ""
	}
	dir := filepath.Clean(cwd)
	if !filepath.IsAbs(dir) {
		return dir
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return dir
	}
	for d := dir; ; {
		if root, ok := gitRoot(d); ok {
			return root
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// gitRoot reports whether d holds a .git entry and, if so, the main repository's
// top level: d itself for a .git directory, the main checkout for a worktree.
func gitRoot(d string) (string, bool) {
	gitPath := filepath.Join(d, ".git")
	fi, err := os.Lstat(gitPath)
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		return d, true
	}
	// A worktree (or submodule) has a .git file: "gitdir: <path>".
	b, err := readSmall(gitPath)
	if err != nil {
		return d, true
	}
	line := strings.TrimSpace(string(b))
	gitdir, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return d, true
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(d, gitdir)
	}
	// A linked worktree's gitdir holds "commondir" pointing at the main .git.
	common, err := readSmall(filepath.Join(gitdir, "commondir"))
	if err != nil {
		return d, true // a submodule or something unusual: its own checkout is the project
	}
	cd := strings.TrimSpace(string(common))
	if !filepath.IsAbs(cd) {
		cd = filepath.Join(gitdir, cd)
	}
	cd = filepath.Clean(cd)
	if filepath.Base(cd) != ".git" {
		return d, true // a bare repository's worktree: keep the checkout
	}
	return filepath.Dir(cd), true
}

// maxGitFile is more than a .git file or a commondir file ever holds: one path.
const maxGitFile = 64 << 10

// readSmall reads a .git or commondir file. The files are named by
// whatever directory a hook's cwd is in: a .git that is a symlink to
// /dev/zero or a FIFO must cost nothing, not memory or a hang.
func readSmall(path string) ([]byte, error) { return regular.ReadFile(path, maxGitFile) }

// Slug is the name of the folder under ~/.claude/projects where Claude Code
// keeps the transcripts of sessions run in dir: every character outside
// [A-Za-z0-9] becomes '-'. Claude Code counts UTF-16 code units, so a
// character outside the BMP becomes two. (Names over 200 characters are cut
// and get a hash suffix; callers match those with a glob.)
func Slug(dir string) string {
	var b strings.Builder
	for _, r := range dir {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("--")
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

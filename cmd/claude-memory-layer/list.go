package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/claude-memory-layer/claude-memory-layer/internal/jsondepth"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
	"github.com/tidwall/gjson"
)

// listOptions are the flags of list.
type listOptions struct {
	Project string // a directory: only its transcript folder
	JSON    bool
}

const listUsage = `[--project DIR] [--json]

Lists the Claude Code sessions on disk ($CLAUDE_CONFIG_DIR/projects, else
~/.claude/projects), newest first, and whether each is imported: yes (all of
it), partial (it grew since) or no.
`

func parseListFlags(e *env, args []string) (listOptions, error) {
	var o listOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	fs := newFlags(e, "list", listUsage)
	fs.StringVar(&o.Project, "project", "", "only the sessions run in `DIR`")
	fs.BoolVar(&o.JSON, "json", false, "print the sessions as JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q", fs.Arg(0))
	}
	return o, nil
}

// listedSession is one row of list --json.
type listedSession struct {
	SessionID string `json:"session_id"`
	Project   string `json:"project"`
	Path      string `json:"path"`
	Date      string `json:"date"`
	Bytes     int64  `json:"bytes"`
	Lines     int    `json:"lines"`
	Imported  string `json:"imported"` // yes, partial, no
	date      time.Time
}

func runList(ctx context.Context, e *env, args []string) error {
	o, err := parseListFlags(e, args)
	if err != nil {
		return err
	}
	root, err := claudeProjectsDir(e)
	if err != nil {
		return err
	}
	folders, err := transcriptFolders(root, o.Project)
	if err != nil {
		return err
	}
	var paths []string
	for _, f := range folders {
		ps, err := transcriptsIn(f)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		paths = append(paths, ps...)
	}
	db, err := openReadStore(ctx, e)
	if err != nil {
		return err
	}
	if db != nil {
		defer db.Close()
	}
	out := []listedSession{}
	for _, p := range paths {
		info, err := readTranscriptInfo(p, true)
		if err != nil {
			fmt.Fprintf(e.stderr, "claude-memory-layer list: %s: %s\n", p, fileErrorText(err))
			continue
		}
		s := listedSession{SessionID: info.SessionID, Project: info.Cwd, Path: p, Bytes: info.Size, Lines: info.Lines, Imported: "no", date: info.date()}
		if s.Project == "" {
			s.Project = filepath.Base(filepath.Dir(p))
		}
		s.Date = s.date.UTC().Format(time.RFC3339)
		if db != nil {
			sess, err := db.Read().Session(ctx, info.SessionID)
			switch {
			case errors.Is(err, store.ErrNotFound):
			case err != nil:
				return err
			case sess.Offset == info.Size:
				s.Imported = "yes"
			default:
				// A last line without its newline is still being written (or
				// was cut): no ingest takes it, so it does not make a partial.
				s.Imported = "partial"
				if tail, err := readTranscriptTail(p, info.Size); err == nil && sess.Offset == tail.complete {
					s.Imported = "yes"
				}
			}
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].date.Equal(out[j].date) {
			return out[i].date.After(out[j].date)
		}
		return out[i].Path < out[j].Path
	})
	if o.JSON {
		return writeJSON(e.stdout, map[string]any{"sessions": out})
	}
	if len(out) == 0 {
		where := root
		if len(folders) == 1 {
			where = folders[0]
		}
		fmt.Fprintf(e.stdout, "no Claude Code sessions in %s\n", where)
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DATE (UTC)\tSESSION\tPROJECT\tSIZE\tLINES\tIMPORTED")
	for _, s := range out {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", s.date.UTC().Format("2006-01-02 15:04"), s.SessionID, s.Project, byteSize(s.Bytes), s.Lines, s.Imported)
	}
	return tw.Flush()
}

// claudeProjectsDir is where Claude Code keeps transcripts: projects/ under
// its configuration directory (config.ClaudeDir).
func claudeProjectsDir(e *env) (string, error) {
	root, err := config.ClaudeDir(e.getenv)
	if err != nil {
		return "", errors.New("no Claude Code directory: set CLAUDE_CONFIG_DIR or HOME")
	}
	return filepath.Join(root, "projects"), nil
}

// maxSlug is the longest folder name Claude Code uses as is; longer ones are
// cut and get a hash of the full path appended.
const maxSlug = 200

// transcriptFolders returns the project folders under root: all of them, or
// with dir only the one of that working directory (none if it has no sessions).
func transcriptFolders(root, dir string) ([]string, error) {
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		slug := project.Slug(abs)
		if len(slug) <= maxSlug {
			if fi, err := os.Stat(filepath.Join(root, slug)); err != nil || !fi.IsDir() {
				return nil, nil
			}
			return []string{filepath.Join(root, slug)}, nil
		}
		// The hash suffix is Claude Code's own; the 200-character prefix is
		// distinctive enough to find the folder without it.
		matches, err := filepath.Glob(filepath.Join(root, slug[:maxSlug]+"-*"))
		if err != nil {
			return nil, err
		}
		return matches, nil
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

// transcriptsIn lists the *.jsonl files directly in dir, sorted. Subagent
// transcripts live one level down (<session>/subagents/) and are not listed.
func transcriptsIn(dir string) ([]string, error) {
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

// isSubagentTranscript reports whether path is a subagent's transcript, which
// holds a side conversation, not a session.
func isSubagentTranscript(path string) bool {
	return filepath.Base(filepath.Dir(path)) == "subagents"
}

// errNotTranscript marks a file that holds no JSON rows at all.
var errNotTranscript = errors.New("not a Claude Code transcript (no JSON lines)")

// errExportFile marks a file written by export, which import reads with
// --from-export: read as a transcript it made sessions of nothing.
var errExportFile = errors.New("an export of this tool, not a transcript: use import --from-export")

// transcriptInfo is what a quick read of a transcript file tells.
type transcriptInfo struct {
	Path      string
	SessionID string    // the first row's sessionId, else the file name without .jsonl
	Cwd       string    // the first row's cwd
	Started   time.Time // the first row's timestamp; zero if none
	Size      int64
	ModTime   time.Time
	Lines     int // set only when lines are counted
}

// date is when the session started: its first timestamp, else the file's
// modification time.
func (t transcriptInfo) date() time.Time {
	if !t.Started.IsZero() {
		return t.Started
	}
	return t.ModTime
}

// maxHeadBytes caps how much of a transcript readTranscriptInfo reads looking
// for its session id, cwd and first timestamp.
const maxHeadBytes = 16 << 20

// readTranscriptInfo reads the head of a transcript for its session id, cwd
// and first timestamp; with countLines it reads the whole file to count lines.
// It returns errNotTranscript for a non-empty file without a JSON line. Its
// errors do not repeat the path; see fileErrorText.
func readTranscriptInfo(path string, countLines bool) (transcriptInfo, error) {
	info := transcriptInfo{Path: path, SessionID: strings.TrimSuffix(filepath.Base(path), ".jsonl")}
	// transcript.Open, not os.Open: opening a FIFO would wait for a writer.
	f, err := transcript.Open(path)
	if err != nil {
		return info, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return info, err
	}
	info.Size, info.ModTime = fi.Size(), fi.ModTime()
	br := bufio.NewReaderSize(f, 64<<10)
	var sid, cwd string
	var sawJSON bool
	var line []byte
	for read := 0; read < maxHeadBytes; {
		line = line[:0]
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			read += len(chunk)
			// A head line is kept up to maxHeadBytes: a 2 GB file without a
			// newline is not read whole into memory.
			if len(line) < maxHeadBytes {
				line = append(line, chunk...)
			}
			if !errors.Is(err, bufio.ErrBufferFull) || read >= maxHeadBytes {
				break
			}
		}
		if l := bytes.TrimSpace(bytes.TrimLeft(line, "\x00")); len(l) > 0 && jsondepth.Within(l, jsondepth.Max) && gjson.ValidBytes(l) {
			if !sawJSON && gjson.GetBytes(l, "kind").Str == "header" && gjson.GetBytes(l, "format").Str == exportFormat {
				return info, errExportFile
			}
			sawJSON = true
			r := gjson.GetManyBytes(l, "sessionId", "cwd", "timestamp")
			if sid == "" {
				sid = r[0].Str
			}
			if cwd == "" {
				cwd = r[1].Str
			}
			if info.Started.IsZero() && r[2].Str != "" {
				info.Started, _ = time.Parse(time.RFC3339Nano, r[2].Str)
			}
			if sid != "" && cwd != "" && !info.Started.IsZero() {
				break
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return info, err
		}
	}
	if !sawJSON && info.Size > 0 {
		return info, errNotTranscript
	}
	if sid != "" {
		info.SessionID = sid
	}
	info.Cwd = cwd
	if countLines {
		n, err := countFileLines(f)
		if err != nil {
			return info, err
		}
		info.Lines = n
	}
	return info, nil
}

// countFileLines counts the lines of f from its start, a last line without a
// newline included.
func countFileLines(f *os.File) (int, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	buf := make([]byte, 256<<10)
	n, last := 0, byte('\n')
	for {
		k, err := f.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if last != '\n' {
		n++
	}
	return n, nil
}

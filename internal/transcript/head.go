package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/jsondepth"
	"github.com/tidwall/gjson"
)

// ErrNotTranscript is returned by ReadInfo for a file that holds no JSON rows at all.
var ErrNotTranscript = errors.New("not a Claude Code transcript (no JSON lines)")

// HeaderError is returned by ReadInfo for a file whose first JSON row is a
// header ("kind": "header"), as a file of another format starts (this
// tool's export): no transcript row has one.
type HeaderError struct {
	Format string // the header's "format"
}

func (e *HeaderError) Error() string {
	return fmt.Sprintf("not a Claude Code transcript (a %q file)", e.Format)
}

// Info is what a quick read of a transcript file's head tells.
type Info struct {
	Path      string
	SessionID string    // the first row's sessionId, else the file name without .jsonl
	Cwd       string    // the first row's cwd
	Started   time.Time // the first row's timestamp; zero if none
	Size      int64
	ModTime   time.Time
	Lines     int // set only when lines are counted
}

// Date is when the session started: its first timestamp, else the file's
// modification time.
func (t Info) Date() time.Time {
	if !t.Started.IsZero() {
		return t.Started
	}
	return t.ModTime
}

// maxHeadBytes caps how much of a transcript ReadInfo reads looking
// for its session id, cwd and first timestamp.
const maxHeadBytes = 16 << 20

// ReadInfo reads the head of a transcript for its session id, cwd and first
// timestamp; with countLines it reads the whole file to count lines. It
// returns ErrNotTranscript for a non-empty file without a JSON line and a
// *HeaderError for one that starts with a header row. Its errors do not
// repeat the path.
func ReadInfo(path string, countLines bool) (Info, error) {
	info := Info{Path: path, SessionID: strings.TrimSuffix(filepath.Base(path), ".jsonl")}
	// Open, not os.Open: opening a FIFO would wait for a writer.
	f, err := Open(path)
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
			if !sawJSON && gjson.GetBytes(l, "kind").Str == "header" {
				return info, &HeaderError{Format: gjson.GetBytes(l, "format").Str}
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
		return info, ErrNotTranscript
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

// Tail is what the end of a transcript tells.
type Tail struct {
	Complete int64     // the end of the last complete line: what an ingest can consume
	Last     time.Time // the last row's timestamp; zero if none was found
}

// tailWindow is how much of a transcript's end ReadTail reads.
const tailWindow = 1 << 20

// ReadTail reads the end of a transcript of the given size.
func ReadTail(path string, size int64) (Tail, error) {
	t := Tail{Complete: size}
	f, err := Open(path)
	if err != nil {
		return t, err
	}
	defer f.Close()
	off := max(size-tailWindow, 0)
	buf := make([]byte, size-off)
	if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
		return t, err
	}
	if len(buf) > 0 && buf[len(buf)-1] != '\n' {
		i := bytes.LastIndexByte(buf, '\n')
		switch {
		case i >= 0:
			t.Complete = off + int64(i) + 1
		case off == 0:
			t.Complete = 0
		}
		buf = buf[:i+1]
	}
	for len(buf) > 0 {
		buf = bytes.TrimRight(buf, "\n")
		i := bytes.LastIndexByte(buf, '\n')
		line := buf[i+1:]
		buf = buf[:max(i, 0)]
		if ts := gjson.GetBytes(line, "timestamp").Str; ts != "" {
			if at, err := time.Parse(time.RFC3339Nano, ts); err == nil {
				t.Last = at
				break
			}
		}
		if i < 0 {
			break
		}
	}
	return t, nil
}

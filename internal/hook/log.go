package hook

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
)

// maxLog is the size at which the log file is rotated to a single .1 backup.
const maxLog = 8 << 20

// OpenLog opens the log file in the data directory (mode 0600, created with the
// directory if missing), for a hook or a command that has no one to read its
// stderr. When it cannot be opened, diagnostics go to fallback; stderr of an
// exit-0 hook only reaches Claude Code's debug log, never the user.
func OpenLog(cfg config.Config, fallback io.Writer) (*slog.Logger, func()) {
	path := cfg.LogPath()
	if err := config.EnsureDir(cfg.DataDir); err != nil {
		l := slog.New(slog.NewTextHandler(fallback, nil))
		l.Error("log file unavailable", "err", err)
		return l, func() {}
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > maxLog {
		os.Rename(path, path+".1")
	}
	// Non-blocking: opening a FIFO for writing would wait for a reader, and
	// this runs before the hook's deadline does (or, in a detached worker,
	// before its lock).
	f, err := regular.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		l := slog.New(slog.NewTextHandler(fallback, nil))
		l.Error("log file unavailable", "path", path, "err", err)
		return l, func() {}
	}
	w := &logWriter{file: f, fallback: fallback}
	return slog.New(slog.NewTextHandler(w, nil)), w.close
}

// logWriter writes to the log file until a write fails, then to the fallback.
// A full disk opens the file fine and fails every write, and slog drops write
// errors: without this, a hook that could not store anything would say so
// nowhere.
type logWriter struct {
	mu       sync.Mutex
	file     io.WriteCloser
	fallback io.Writer
	failed   bool
	closed   bool
}

// close closes the file. A hook past its deadline returns, closing the log,
// while its handler may still be logging on the way out: what it writes then
// is dropped, not sent to stderr as a failed write would be.
func (w *logWriter) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	w.file.Close()
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return len(p), nil
	}
	if !w.failed {
		_, err := w.file.Write(p)
		if err == nil {
			return len(p), nil
		}
		w.failed = true
		fmt.Fprintf(w.fallback, "claude-memory-layer: log file write failed (%v); logging to stderr\n", err)
	}
	return w.fallback.Write(p)
}

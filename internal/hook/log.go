package hook

import (
	"io"
	"log/slog"
	"os"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
)

// maxLog is the size at which the log file is rotated to a single .1 backup.
const maxLog = 8 << 20

// openLog opens the log file in the data directory (mode 0600, created with the
// directory if missing). When it cannot be opened, diagnostics go to fallback;
// stderr of an exit-0 hook only reaches Claude Code's debug log, never the user.
func openLog(cfg config.Config, fallback io.Writer) (*slog.Logger, func()) {
	path := cfg.LogPath()
	if err := config.EnsureDir(cfg.DataDir); err != nil {
		l := slog.New(slog.NewTextHandler(fallback, nil))
		l.Error("log file unavailable", "err", err)
		return l, func() {}
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > maxLog {
		os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		l := slog.New(slog.NewTextHandler(fallback, nil))
		l.Error("log file unavailable", "path", path, "err", err)
		return l, func() {}
	}
	return slog.New(slog.NewTextHandler(f, nil)), func() { f.Close() }
}

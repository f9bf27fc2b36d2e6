package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/filelock"
	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
)

// InProcessLimit is the most messages a SessionEnd hook processes itself with
// the offline extractor: measured at well under the hook's budget (see the
// BenchmarkProcess figures in the README). Larger sessions, and every LLM
// extraction, go to the detached worker.
const InProcessLimit = 3000

// Spawn starts `claude-memory-layer process --session ID [args]` (the CLI
// next to the running binary) detached in its own session, so it outlives
// the hook and Claude Code's SessionEnd budget. It does not wait for it.
func Spawn(sessionID string, env []string, args ...string) error {
	return spawn(env, append([]string{"process", "--session", sessionID}, args...)...)
}

// EndedArgs are Spawn's arguments that have the worker record first that
// the session ended for reason at at, the time the hook saw the end: the
// worker may run long after, once it has the worker lock.
func EndedArgs(reason string, at time.Time) []string {
	return []string{"--ended", reason, "--ended-at", at.UTC().Format(time.RFC3339Nano)}
}

// SpawnSelfCheck starts `claude-memory-layer selfcheck --session ID
// [--prompt-id P]` detached, as Spawn does: the LLM's judgement of the
// turn's answer (internal/selfcheck), which the Stop hook must not wait for.
func SpawnSelfCheck(sessionID, promptID string, env []string) error {
	args := []string{"selfcheck", "--session", sessionID}
	if promptID != "" {
		args = append(args, "--prompt-id", promptID)
	}
	return spawn(env, args...)
}

// SpawnTeamSync starts `claude-memory-layer team sync --background`
// detached, as Spawn does: after a session the hook processed itself, the
// machine's team gets its new memories and this one its teammates' (the
// hooks never touch the network). The sync heeds its own backoff.
func SpawnTeamSync(env []string) error {
	return spawn(env, "team", "sync", "--background")
}

// SpawnDigests starts `claude-memory-layer digest` detached, as Spawn
// does: after a session the hook processed itself, the sessions old enough
// get their digests (Processor.Digests) without a worker having run.
func SpawnDigests(env []string) error {
	return spawn(env, "digest", "--wait=1m")
}

// DigestsWanted reports whether SessionEnd should start the digest worker
// (SpawnDigests): unless a digest run found no more sessions due within
// digestRecheck (RecordDigests noted it). A file's time is read instead of
// the store: a session becomes due only days after it ended, and the
// store's query cost a hook 10 to 30 ms at 3,000 sessions.
func DigestsWanted(dataDir string, now time.Time) bool {
	fi, err := os.Stat(filepath.Join(dataDir, digestsChecked))
	return err != nil || now.Sub(fi.ModTime()) > digestRecheck || fi.ModTime().After(now)
}

// RecordDigests notes a digest run that did res with limit for
// DigestsWanted: one that did fewer sessions than its limit left none due,
// so none is started for digestRecheck; one that did its limit may have
// left more, so the next SessionEnd starts another.
func RecordDigests(dataDir string, res DigestResult, limit int, now time.Time) {
	p := filepath.Join(dataDir, digestsChecked)
	if res.Built+res.Skipped >= limit {
		os.Remove(p)
		return
	}
	f, err := regular.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return
	}
	f.Close()
	os.Chtimes(p, now, now)
}

// digestsChecked is the file in the data directory whose time is when a
// digest run last left no session due; digestRecheck is how long
// DigestsWanted heeds it.
const (
	digestsChecked = "digests.checked"
	digestRecheck  = 6 * time.Hour
)

// SpawnUpgrade starts `claude-memory-layer upgrade` detached, as Spawn
// does: it brings a store too large to upgrade inside a hook's deadline to
// this build's schema (see store.Options.UpgradeUpTo). After an upgrade
// that failed (RecordUpgrade) it starts none for upgradeRetry: each
// attempt copies the whole store, and a full disk fails them all alike.
func SpawnUpgrade(dataDir string, env []string) error {
	if why, at, ok := UpgradeFailure(dataDir); ok && time.Since(at) < upgradeRetry {
		return fmt.Errorf("the last upgrade failed %s ago, next attempt after %s: %s", time.Since(at).Round(time.Second), upgradeRetry, why)
	}
	return spawn(env, "upgrade", "--wait=0")
}

// UpgradeFailure says why the last upgrade failed and when, as
// RecordUpgrade noted it; ok is false when none has failed since the last
// that succeeded.
func UpgradeFailure(dataDir string) (why string, at time.Time, ok bool) {
	p := filepath.Join(dataDir, upgradeFailed)
	fi, err := os.Stat(p)
	if err != nil {
		return "", time.Time{}, false
	}
	b, _ := regular.ReadFile(p, 4<<10)
	return strings.TrimSpace(string(b)), fi.ModTime(), true
}

// upgradeFailed is the file in the data directory that says why the last
// upgrade failed; upgradeRetry is how long SpawnUpgrade heeds it.
const (
	upgradeFailed = "upgrade.failed"
	upgradeRetry  = 10 * time.Minute
)

// RecordUpgrade notes how an upgrade went for SpawnUpgrade: why it failed,
// or nothing once one succeeded.
func RecordUpgrade(dataDir string, err error) {
	p := filepath.Join(dataDir, upgradeFailed)
	if err == nil {
		os.Remove(p)
		return
	}
	f, err2 := regular.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err2 != nil {
		return
	}
	defer f.Close()
	f.WriteString(err.Error() + "\n")
}

func spawn(env []string, args ...string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("spawn worker: %w", err)
	}
	cli := filepath.Join(filepath.Dir(exe), "claude-memory-layer"+filepath.Ext(exe))
	if _, err := os.Stat(cli); err != nil {
		return fmt.Errorf("spawn worker: %w", err)
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return fmt.Errorf("spawn worker: %w", err)
	}
	defer devnull.Close()
	cmd := exec.Command(cli, args...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, devnull
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("spawn worker: %w", err)
	}
	return cmd.Process.Release()
}

// ErrLocked is returned by Lock when another worker holds the lock past the wait.
var ErrLocked = errors.New("another worker is running")

// Lock takes the data directory's worker lock, so that at most one worker
// processes sessions at a time; it waits up to wait for a running worker to
// finish. The lock is released by the returned func or when the process exits
// (an flock dies with its holder, so a killed worker leaves no stale lock).
func Lock(ctx context.Context, dataDir string, wait time.Duration) (func(), error) {
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	unlock, err := filelock.Acquire(wctx, filepath.Join(dataDir, "worker.lock"), 100*time.Millisecond)
	switch {
	case err == nil:
		return unlock, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return nil, ErrLocked
	}
	return nil, fmt.Errorf("worker %w", err)
}

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestUpgradeRecordsOnlyFailures: an upgrade cut short (the machine
// shutting down) is not noted as failed, which would keep the hooks from
// starting another for ten minutes; one that completes clears an earlier
// failure.
func TestUpgradeRecordsOnlyFailures(t *testing.T) {
	te := newTestEnv(t)
	dir := te.oldStore(t)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code := run(ctx, []string{"upgrade"}, te.env); code == 0 {
		t.Fatalf("an interrupted upgrade exited 0: %s", te.stdout)
	}
	if why, _, failed := pipeline.UpgradeFailure(dir); failed {
		t.Errorf("an interrupted upgrade is noted as failed: %s", why)
	}

	pipeline.RecordUpgrade(dir, errors.New("disk is full"))
	te.mustRun(t, "upgrade")
	if why, _, failed := pipeline.UpgradeFailure(dir); failed {
		t.Errorf("the failure is still noted after an upgrade that worked: %s", why)
	}
	if v, err := te.openDB(t).Version(context.Background()); err != nil || v != store.SchemaVersion() {
		t.Errorf("version %d (%v) after the upgrade, want %d", v, err, store.SchemaVersion())
	}
}

// TestUpgradeRecordsAFailure: an upgrade that cannot open the store is
// noted as failed, so that the hooks do not start another at every call;
// finding a newer build's store is no failure of the upgrade.
func TestUpgradeRecordsAFailure(t *testing.T) {
	te := newTestEnv(t)
	dir := te.vars["CLAUDE_MEMORY_DIR"]
	if err := os.MkdirAll(filepath.Join(dir, "memory.db"), 0o700); err != nil {
		t.Fatal(err)
	}
	if code := te.run(t, "upgrade"); code == 0 {
		t.Fatal("upgrade exited 0 without a store it can open")
	}
	if why, _, failed := pipeline.UpgradeFailure(dir); !failed || !strings.Contains(why, "is a directory") {
		t.Errorf("failure noted: %v %q, want why the open failed", failed, why)
	}

	te = newTestEnv(t)
	dir = te.vars["CLAUDE_MEMORY_DIR"]
	db := te.openDB(t)
	if _, err := db.SQL().Exec(fmt.Sprintf("PRAGMA user_version = %d", store.SchemaVersion()+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if code := te.run(t, "upgrade"); code == 0 {
		t.Fatal("upgrade of a newer build's store exited 0")
	}
	if why, _, failed := pipeline.UpgradeFailure(dir); failed {
		t.Errorf("a newer build's store noted as a failed upgrade: %s", why)
	}
}

// TestProcessLogsItsFailures: the worker SessionEnd starts has no one to
// read its errors but the log, failing to open the store included.
func TestProcessLogsItsFailures(t *testing.T) {
	te := newTestEnv(t)
	dir := te.vars["CLAUDE_MEMORY_DIR"]
	// A directory where the store should be: no open can succeed.
	if err := os.MkdirAll(filepath.Join(dir, "memory.db"), 0o700); err != nil {
		t.Fatal(err)
	}
	if code := te.run(t, "process", "--session", "s1", "--transcript", "/nonexistent.jsonl", "--cwd", "/p", "--ended", "logout"); code == 0 {
		t.Fatal("process exited 0 without a store")
	}
	b, err := os.ReadFile(filepath.Join(dir, "claude-memory-layer.log"))
	if err != nil {
		t.Fatal(err)
	}
	if log := string(b); !strings.Contains(log, "worker=process") || !strings.Contains(log, "is a directory") {
		t.Errorf("the log does not say why the worker failed:\n%s", log)
	}
}

// oldStore gives te's data directory a small store at schema version 1, as
// the first release wrote it, and returns the directory.
func (te *testEnv) oldStore(tb testing.TB) string {
	tb.Helper()
	dir := te.vars["CLAUDE_MEMORY_DIR"]
	if err := os.MkdirAll(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	storetest.OldStore(tb, filepath.Join(dir, "memory.db"), 0)
	return dir
}

// TestWorkerLogIsNoFIFO: a FIFO where the log or the upgrade record should
// be hangs neither the workers the hooks start (they open the log before
// their lock, so each would hang) nor the record of a failed upgrade.
func TestWorkerLogIsNoFIFO(t *testing.T) {
	te := newTestEnv(t)
	dir := te.oldStore(t)
	fifo := func(name string) {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	returns := func(what string, f func()) {
		done := make(chan struct{})
		go func() { f(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Minute): // a hang guard: blocked on a FIFO, it never returns
			t.Fatalf("%s hangs on a FIFO", what)
		}
	}
	fifo("claude-memory-layer.log")
	returns("upgrade", func() {
		if code := te.run(t, "upgrade", "--wait=0"); code != 0 {
			t.Errorf("upgrade beside a FIFO log exited %d: %s", code, te.stderr)
		}
	})
	fifo("upgrade.failed")
	returns("RecordUpgrade", func() { pipeline.RecordUpgrade(dir, errors.New("disk is full")) })
}

// TestProcessEndsAtTheHooksTime: the worker a SessionEnd hook hands its
// end to records the end at the time the hook passed (--ended-at), both the
// session's end and its mark, not at its own time, which comes once it has
// the worker lock. A hook from before the flag passes none: the end is then
// the worker's time.
func TestProcessEndsAtTheHooksTime(t *testing.T) {
	hookAt := fixedNow.Add(-time.Hour + 123456789*time.Nanosecond)
	for _, tt := range []struct {
		name string
		args []string
		want time.Time
	}{
		{"hook's time", pipeline.EndedArgs("logout", hookAt), hookAt},
		{"older hook", []string{"--ended", "logout"}, fixedNow},
	} {
		t.Run(tt.name, func(t *testing.T) {
			te := newTestEnv(t)
			tp := filepath.Join(te.root(), "t.jsonl")
			if err := os.WriteFile(tp, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"process", "--session", "s1", "--transcript", tp, "--cwd", "/p", "--wait", "1s"}, tt.args...)
			te.mustRun(t, args...)
			s, marks := ended(t, te, "s1")
			want := tt.want.Truncate(time.Microsecond) // as stored
			if len(marks) != 1 || !marks[0].Time.Equal(want) || !s.EndedAt.Equal(want) || s.EndReason != "logout" {
				t.Errorf("ended at %v (%q), %d marks %v; want one end at %v", s.EndedAt, s.EndReason, len(marks), marks, want)
			}
			if s.StartedAt.After(s.EndedAt) {
				t.Errorf("the session the worker registered started at %v, after its end at %v", s.StartedAt, s.EndedAt)
			}
		})
	}
}

// TestProcessEndsAResumedSessionAgain: a session resumed after an end and
// ended again, its second end handed to the worker, ends at the second
// end; the same worker run again adds nothing, an older end's worker
// changes nothing, and an end in the future is recorded now, the session's
// time and its mark's alike.
func TestProcessEndsAResumedSessionAgain(t *testing.T) {
	te := newTestEnv(t)
	tp := filepath.Join(te.root(), "t.jsonl")
	if err := os.WriteFile(tp, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	first, second := fixedNow.Add(-2*time.Hour), fixedNow.Add(-time.Hour)
	end := func(reason string, at time.Time) {
		t.Helper()
		te.mustRun(t, append([]string{"process", "--session", "s1", "--transcript", tp, "--cwd", "/p", "--wait", "1s"}, pipeline.EndedArgs(reason, at)...)...)
	}
	check := func(stage, reason string, at time.Time, marks int) {
		t.Helper()
		s, evs := ended(t, te, "s1")
		if !s.EndedAt.Equal(at) || s.EndReason != reason || len(evs) != marks || !evs[len(evs)-1].Time.Equal(s.EndedAt) {
			t.Errorf("%s: ended at %v (%q) with %d marks %v; want %v (%q) with %d, the last at the end", stage, s.EndedAt, s.EndReason, len(evs), evs, at, reason, marks)
		}
	}
	end("clear", first)
	end("logout", second)
	check("the second end", "logout", second, 2)
	end("logout", second)
	check("the same worker again", "logout", second, 2)
	end("clear", first)
	check("the first end's worker late", "logout", second, 2)
	end("prompt_input_exit", fixedNow.Add(72*time.Hour))
	check("an end in the future", "prompt_input_exit", fixedNow, 3)
}

// ended reads session id and its session_ended marks.
func ended(t *testing.T, te *testEnv, id string) (store.Session, []store.Event) {
	t.Helper()
	ctx := context.Background()
	db := te.openDB(t)
	defer db.Close()
	s, err := db.Read().Session(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	marks, err := db.Read().Events(ctx, store.EventFilter{SessionID: id, Types: []string{store.TypeSessionEnded}})
	if err != nil {
		t.Fatal(err)
	}
	return s, marks
}

// TestProcessEndedAtUsage: --ended-at is a time, and only with --ended.
func TestProcessEndedAtUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--ended", "logout", "--ended-at", "yesterday"},
		{"--ended-at", fixedNow.Format(time.RFC3339Nano)},
	} {
		te := newTestEnv(t)
		if code := te.run(t, append([]string{"process", "--session", "s1"}, args...)...); code != 2 {
			t.Errorf("process %v: exit %d, want 2 (usage)\nstderr: %s", args, code, te.stderr)
		}
	}
}

package filelock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestConflicts: two handles on one file, as two processes have. Shared locks
// coexist, an exclusive one excludes both kinds, and unlocking frees it.
func TestConflicts(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	a, b := open(t, p), open(t, p)

	if err := TryLock(a, false); err != nil {
		t.Fatalf("shared on a: %v", err)
	}
	if err := TryLock(b, false); err != nil {
		t.Fatalf("shared on b beside a's shared: %v", err)
	}
	if err := Unlock(b); err != nil {
		t.Fatal(err)
	}
	if err := TryLock(b, true); !errors.Is(err, ErrLocked) {
		t.Fatalf("exclusive on b while a holds shared: %v, want ErrLocked", err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if err := TryLock(b, true); err != nil {
		t.Fatalf("exclusive on b once a unlocked: %v", err)
	}
	if err := TryLock(a, false); !errors.Is(err, ErrLocked) {
		t.Fatalf("shared on a while b holds exclusive: %v, want ErrLocked", err)
	}
	// Closing the file releases its lock, as a process's exit does.
	b.Close()
	if err := TryLock(a, true); err != nil {
		t.Fatalf("exclusive on a after b closed: %v", err)
	}
}

// TestAcquire: a second Acquire waits for the first holder until its context
// ends, even one that has ended already (it tries once), and gets the lock
// once the first lets go.
func TestAcquire(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	unlock, err := Acquire(context.Background(), p, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	ctx, stop := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer stop()
	for _, c := range []context.Context{ended, ctx} {
		if u, err := Acquire(c, p, time.Millisecond); err == nil {
			u()
			t.Fatal("Acquire took a lock another holder has")
		} else if !errors.Is(err, c.Err()) {
			t.Fatalf("Acquire while held: %v, want %v", err, c.Err())
		}
	}
	unlock()
	if _, err := Acquire(ended, p, time.Millisecond); err != nil {
		t.Fatalf("Acquire of a free lock with an ended context: %v", err)
	}
}

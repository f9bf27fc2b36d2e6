package store

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/filelock"
)

// Writers take turns at SQLite's write lock. SQLite keeps no queue for it:
// a process that finds it taken sleeps and tries again (after 1, 2, 5, ...
// up to 100 ms), and a writer that commits and begins again at once takes it
// back nearly every time. Import does exactly that for seconds on end, in
// transactions of up to 200 ms, and a hook waiting meanwhile ran out its busy
// timeout and lost its event (3 of 60 prompts during a 50 MB import).
//
// So a writer holds a shared flock on the turn file, next to the database,
// from before it asks for the write lock until its transaction ends (a bulk
// writer: until it has the lock), and a bulk writer, before each transaction,
// waits until it could take that flock exclusively: until no other writer is
// waiting or writing. It also commits early when it sees one waiting
// (DB.OthersWaiting), so two imports alternate rather than one timing out.
// An flock dies with its process, so a killed hook leaves no stale turn.
type turn struct {
	f      *os.File
	mu     sync.Mutex
	held   int       // this process's writers inside a turn; the flock is shared by them
	locked bool      // whether this process holds the shared flock
	free   time.Time // until then a bulk writer waits only handOver (yield)
}

// turnSuffix names the turn file after the database file, as SQLite names
// its -wal and -shm files.
const turnSuffix = "-turn"

// maxYield bounds how long a bulk writer lets others go first, so that a
// stream of hooks cannot stall an import.
var maxYield = 2 * time.Second // a variable for the tests

// openTurn opens the turn file of the database at path. Without one (the
// directory is read-only, say) writers wait on SQLite alone, as before.
func openTurn(path string) *turn {
	f, err := os.OpenFile(path+turnSuffix, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil
	}
	return &turn{f: f}
}

// take starts a turn: this process waits for, or holds, the write lock.
func (t *turn) take() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held == 0 {
		t.locked = t.lockShared()
	}
	t.held++
}

// maxTake bounds how long take waits for the shared flock. A bulk writer
// holds it exclusively only for the instant it tests it, unless it was
// stopped (SIGSTOP) in that instant; writers then go on without a turn.
const maxTake = 50 * time.Millisecond

func (t *turn) lockShared() bool {
	for deadline := time.Now().Add(maxTake); ; time.Sleep(time.Millisecond) {
		err := filelock.TryLock(t.f, false)
		if err == nil {
			return true
		}
		if !errors.Is(err, filelock.ErrLocked) || time.Now().After(deadline) {
			return false
		}
	}
}

// done ends a turn that take started.
func (t *turn) done() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held--; t.held == 0 && t.locked {
		filelock.Unlock(t.f)
		t.locked = false
	}
}

// busy reports whether another writer is inside a turn.
func (t *turn) busy() bool {
	if t == nil {
		return false
	}
	err := filelock.TryLock(t.f, true)
	if err == nil {
		filelock.Unlock(t.f)
	}
	return errors.Is(err, filelock.ErrLocked)
}

// yield waits until no other writer is inside a turn, at most maxYield,
// and returns how long it waited. Having waited its longest, the bulk
// writer then waits at most handOver for as long: eight sessions' hooks keep
// a turn busy nearly all the time, and an import that waited up to
// maxYield before each of its transactions took over five minutes
// (TestConcurrentHooks) instead of seconds. handOver still lets a hook
// waiting for the lock, which tries every millisecond, take it between two
// of the import's transactions: committing early (OthersWaiting) alone
// hands nothing over, as the import begins again within microseconds.
func (t *turn) yield(ctx context.Context) time.Duration {
	if t == nil {
		return 0
	}
	start := time.Now()
	t.mu.Lock() // not held while waiting: take and done of this process's other writers need it
	limit := maxYield
	if start.Before(t.free) {
		limit = handOver
	}
	t.mu.Unlock()
	deadline := start.Add(limit)
	for t.busy() && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return time.Since(start)
		case <-time.After(time.Millisecond):
		}
	}
	waited := time.Since(start)
	if limit == maxYield && waited >= maxYield {
		t.mu.Lock()
		t.free = time.Now().Add(waited)
		t.mu.Unlock()
	}
	return waited
}

// handOver is how long a bulk writer that has waited its longest waits for
// another writer inside its turn: enough for one polling every millisecond
// to take the write lock.
const handOver = 10 * time.Millisecond

// OthersWaiting reports whether another writer is waiting for the write lock
// or writing: a bulk writer (import) that holds the lock commits early when
// it does, so that the other waits for one session's writes, not a batch's.
// On a store opened without Bulk it is always false.
func (db *DB) OthersWaiting() bool {
	return db.bulk && db.turn.busy()
}

func (t *turn) close() {
	if t != nil {
		t.f.Close()
	}
}

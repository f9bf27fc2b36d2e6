// Package filelock takes advisory locks on open files that die with the
// process holding them.
package filelock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrLocked is returned by TryLock when another holder's lock conflicts.
var ErrLocked = errors.New("file is locked")

// Acquire opens the file at path (creating it, mode 0600) and takes an
// exclusive lock on it, trying again every poll until it has it or ctx
// ends; then it returns ctx.Err(). It tries once even when ctx has ended.
// unlock lets go and closes the file, which stays for the next holder.
func Acquire(ctx context.Context, path string, poll time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	for {
		err := TryLock(f, true)
		if err == nil {
			return func() { Unlock(f); f.Close() }, nil
		}
		if !errors.Is(err, ErrLocked) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(poll):
		}
	}
}

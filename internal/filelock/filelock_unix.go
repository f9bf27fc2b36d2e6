//go:build unix

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// TryLock takes a shared or an exclusive lock on f without waiting. It
// returns ErrLocked when another open file description holds a conflicting
// lock. On the same description, flock converts the lock it holds instead.
func TryLock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err := flock(f, how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrLocked
	}
	return err
}

// Unlock releases the lock TryLock took on f.
func Unlock(f *os.File) error {
	return flock(f, syscall.LOCK_UN)
}

// flock is syscall.Flock, retried when a signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// Package filelock takes advisory locks on open files that die with the
// process holding them.
package filelock

import "errors"

// ErrLocked is returned by TryLock when another holder's lock conflicts.
var ErrLocked = errors.New("file is locked")

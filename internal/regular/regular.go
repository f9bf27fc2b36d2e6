// Package regular opens and reads a file only when it is a regular file, never blocking on a FIFO or reading a device.
//
// Paths the memory layer reads come from hook input (transcript_path, cwd)
// or sit in directories anyone may have shaped: a FIFO there would block an
// open until a writer came, /dev/zero would never end, and a hook that
// hangs or runs out of memory blocks the user.
package regular

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
)

// ErrNotRegular is returned for a path that is not a regular file (after
// following symlinks).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned by ReadFile for a file larger than its limit.
var ErrTooLarge = errors.New("file too large")

// Open opens path for reading. The open is non-blocking, so a FIFO cannot
// hold it; anything but a regular file is then refused with an error
// wrapping ErrNotRegular.
func Open(path string) (*os.File, error) { return OpenFile(path, os.O_RDONLY, 0) }

// OpenFile is Open with os.OpenFile's flag and permissions: for a file this
// process writes too, in a directory another may have shaped.
func OpenFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	if flag&os.O_CREATE != 0 {
		// A file this creates or writes is never reached through a
		// symlink: a dangling one would make the open create its target,
		// wherever it points.
		flag |= noFollow
	}
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, perm)
	if errors.Is(err, syscall.ENXIO) {
		// What a socket answers to open.
		return nil, fmt.Errorf("%w (%w)", err, ErrNotRegular)
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %s: %w", path, fi.Mode().Type(), ErrNotRegular)
	}
	return f, nil
}

// ReadFile reads a regular file of at most max bytes. Errors wrap
// ErrNotRegular, ErrTooLarge, or os.ErrNotExist when there is no file.
func ReadFile(path string, max int64) ([]byte, error) {
	var b bytes.Buffer
	// ReadFrom asks for MinRead bytes of room to see the end of the file.
	if err := readInto(&b, bytes.MinRead, path, max); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ReadString is ReadFile into a string, read straight into it: a large
// table searched in place (glosses) is not held twice while it is read.
func ReadString(path string, max int64) (string, error) {
	var b strings.Builder
	if err := readInto(&b, 0, path, max); err != nil {
		return "", err
	}
	return b.String(), nil
}

// readInto copies the regular file at path, of at most max bytes, into w,
// grown first to the file's size and extra bytes: one allocation for a
// file that does not grow while it is read.
func readInto(w interface {
	io.Writer
	Grow(int)
}, extra int, path string, max int64) error {
	f, err := Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() <= max {
		w.Grow(int(fi.Size()) + extra)
	}
	n, err := io.Copy(w, io.LimitReader(f, max+1))
	if err != nil {
		return err
	}
	if n > max {
		return fmt.Errorf("%s: over %d bytes: %w", path, max, ErrTooLarge)
	}
	return nil
}

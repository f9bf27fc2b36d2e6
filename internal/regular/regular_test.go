package regular

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp("", "s")
	if err != nil {
		t.Fatal(err)
	}
	sock := f.Name()
	f.Close()
	os.Remove(sock)
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(sock)
	defer l.Close()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, []byte("0123456789"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(file, link)
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	for _, p := range []string{fifo, sock, dir, "/dev/zero", zero, "/dev/null"} {
		if _, err := ReadFile(p, 100); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile(%s) = %v, want ErrNotRegular", p, err)
		}
	}
	if b, err := ReadFile(link, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("ReadFile(link) = %q, %v", b, err)
	}
	if s, err := ReadString(link, 10); err != nil || s != "0123456789" {
		t.Errorf("ReadString(link) = %q, %v", s, err)
	}
	if _, err := ReadString(file, 9); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadString over the limit = %v, want ErrTooLarge", err)
	}
	if _, err := ReadString(fifo, 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadString(fifo) = %v, want ErrNotRegular", err)
	}
	if _, err := ReadFile(file, 9); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile over the limit = %v, want ErrTooLarge", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), 9); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v, want ErrNotExist", err)
	}
}

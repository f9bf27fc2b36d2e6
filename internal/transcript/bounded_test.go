package transcript

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestReadNInSteps: reading a transcript in steps of n bytes, each from the
// last Offset, yields the messages of one final Read, in order, for every n.
func TestReadNInSteps(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"basic", "edge-cases"} {
		data := mustReadFile(t, filepath.Join("testdata", name+".jsonl"))
		want := mustRead(t, data, 0, true).Messages
		for _, final := range []bool{true, false} {
			whole := mustRead(t, data, 0, final)
			for n := int64(1); n <= int64(len(data))+1; n += 1 + n/8 {
				var got []Message
				off, calls := int64(0), 0
				for {
					b, err := ReadN(bytes.NewReader(data), off, final, n)
					if err != nil {
						t.Fatal(err)
					}
					calls++
					got = append(got, b.Messages...)
					if b.More && b.Offset <= off {
						t.Fatalf("%s n=%d: no progress at offset %d", name, n, off)
					}
					off = b.Offset
					if !b.More {
						break
					}
				}
				if off != whole.Offset {
					t.Errorf("%s n=%d final=%v: ended at %d, one Read at %d", name, n, final, off, whole.Offset)
				}
				if final && !reflect.DeepEqual(got, want) {
					t.Fatalf("%s n=%d (%d calls):\n%s\nwant:\n%s", name, n, calls,
						strings.Join(summary(got), "\n"), strings.Join(summary(want), "\n"))
				}
			}
		}
	}
}

// endless is a reader of size bytes of c with no newline, made up on read:
// a 2 GB transcript without a line end costs no disk here.
type endless struct {
	size  int64
	block []byte // what it repeats
}

func (e endless) ReadAt(p []byte, off int64) (int, error) {
	if off >= e.size {
		return 0, io.EOF
	}
	n := min(int64(len(p)), e.size-off)
	for i := int64(0); i < n; i += int64(len(e.block)) {
		copy(p[i:n], e.block)
	}
	if n < int64(len(p)) {
		return int(n), io.EOF
	}
	return int(n), nil
}

// TestReadOverlongLineBoundedMemory: a line longer than MaxLine is consumed
// without being held: reading a 2 GB one allocates a small multiple of
// MaxLine (where keeping it would take 1 GB), and the read in steps moves
// past it.
func TestReadOverlongLineBoundedMemory(t *testing.T) {
	r := endless{size: 2 << 30, block: bytes.Repeat([]byte("x"), 64<<10)}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b, err := ReadN(r, 0, false, 1<<30)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if !b.More || b.Offset < 1<<30 || b.Offset >= r.size || len(b.Messages) != 0 {
		t.Fatalf("first step: more=%v offset=%d messages=%d", b.More, b.Offset, len(b.Messages))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 5*MaxLine {
		t.Errorf("reading 1 GB of one line allocated %d MB", alloc>>20)
	}
	// The rest, to the end: consumed, since it can never become a kept line.
	b, err = ReadN(r, b.Offset, false, r.size)
	if err != nil {
		t.Fatal(err)
	}
	if b.Offset != r.size || b.More {
		t.Errorf("second step: offset %d of %d, more=%v", b.Offset, r.size, b.More)
	}
}

// TestOpenRefusesWhatIsNotAFile: a transcript_path naming a device, a FIFO
// (whose open would block until a writer came), a socket or a directory is
// refused at once; a symlink to a regular file is followed.
func TestOpenRefusesWhatIsNotAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	file := filepath.Join(dir, "t.jsonl")
	os.WriteFile(file, []byte("{}\n"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(file, link)
	loop := filepath.Join(dir, "loop")
	os.Symlink(loop, loop)
	for _, p := range []string{"/dev/zero", "/dev/null", fifo, sock, dir} {
		if _, err := ReadFile(p, 0, true); !errors.Is(err, ErrNotRegular) && !errors.Is(err, syscall.ENXIO) {
			t.Errorf("ReadFile(%s) = %v, want ErrNotRegular", p, err)
		}
	}
	if _, err := ReadFile(loop, 0, true); err == nil {
		t.Errorf("ReadFile(symlink loop) succeeded")
	}
	if b, err := ReadFile(link, 0, true); err != nil || b.Offset != 3 {
		t.Errorf("ReadFile(symlink to a file) = %+v, %v", b, err)
	}
}

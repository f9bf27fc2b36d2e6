// Package scripttest writes the executable scripts tests run in place of
// another program (a fake claude, a fake git).
package scripttest

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// Write writes an executable script to path with mode perm, through cp, so
// that the test process never holds it open for writing: a process another
// parallel test forks meanwhile would hold that descriptor until it execs,
// and running the script then fails with "text file busy"
// (golang/go#22315). Windows has no cp, nor such forks: there the script is
// written directly.
func Write(tb testing.TB, path, body string, perm os.FileMode) {
	tb.Helper()
	if runtime.GOOS == "windows" {
		if err := os.WriteFile(path, []byte(body), perm); err != nil {
			tb.Fatal(err)
		}
		return
	}
	src := path + ".src"
	if err := os.WriteFile(src, []byte(body), 0o600); err != nil {
		tb.Fatal(err)
	}
	if out, err := exec.Command("cp", src, path).CombinedOutput(); err != nil {
		tb.Fatalf("cp: %v: %s", err, out)
	}
	if err := os.Chmod(path, perm); err != nil {
		tb.Fatal(err)
	}
}

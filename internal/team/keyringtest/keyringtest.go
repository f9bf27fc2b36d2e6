// Package keyringtest starts a throwaway OS keyring for tests: a private
// D-Bus session bus and gnome-keyring-daemon's Secret Service on it, its
// login keyring created and unlocked with a password fed on stdin and
// kept in a temporary folder. Both are stopped when the test ends. Without
// the binaries (Debian: dbus-daemon, gnome-keyring) the test is skipped,
// unless CI is set: there a missing keyring is a failure (.ci/run installs
// it).
package keyringtest

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// Service is a running Secret Service.
type Service struct {
	// Address is the session bus's address; Start sets
	// DBUS_SESSION_BUS_ADDRESS to it for the test, and a child process
	// given the test's environment finds it there.
	Address string
	// Dir holds the keyring's files: outside every data directory.
	Dir string
}

// Start starts a session bus and a Secret Service on it for t.
func Start(t testing.TB) *Service {
	t.Helper()
	bus, err1 := exec.LookPath("dbus-daemon")
	daemon, err2 := exec.LookPath("gnome-keyring-daemon")
	if err1 != nil || err2 != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("dbus-daemon and gnome-keyring-daemon are not installed; CI must run the keyring tests (apt-get install dbus-daemon gnome-keyring)")
		}
		t.Skip("dbus-daemon and gnome-keyring-daemon are not installed: apt-get install dbus-daemon gnome-keyring")
	}
	s := &Service{Dir: t.TempDir()}
	run := filepath.Join(s.Dir, "run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	// The bus runs in the foreground as this test's child and prints its
	// address first.
	busCmd := exec.Command(bus, "--session", "--nofork", "--nopidfile", "--print-address=1")
	out, err := busCmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := busCmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busCmd.Process.Kill(); busCmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	s.Address = strings.TrimSpace(line)

	// The keyring daemon, with its files and sockets in the test's
	// folder; --unlock reads the login keyring's password from stdin and
	// creates the keyring the first time.
	kr := exec.Command(daemon, "--foreground", "--unlock", "--components=secrets")
	kr.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+s.Address, "HOME="+s.Dir,
		"XDG_DATA_HOME="+filepath.Join(s.Dir, "data"), "XDG_RUNTIME_DIR="+run, "XDG_CONFIG_HOME="+filepath.Join(s.Dir, "config"))
	kr.Stdin = strings.NewReader("keyring-test-unlock")
	if err := kr.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kr.Process.Kill(); kr.Wait() })
	s.waitForSecrets(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", s.Address)
	return s
}

// waitForSecrets waits until the Secret Service's name is on the bus: a
// client call before then would have the bus start another daemon itself
// (D-Bus activation), with this process's home.
func (s *Service) waitForSecrets(t testing.TB) {
	t.Helper()
	conn, err := dbus.Connect(s.Address)
	if err != nil {
		t.Fatalf("connect to the test's session bus: %v", err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		var has bool
		err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, "org.freedesktop.secrets").Store(&has)
		if err == nil && has {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("gnome-keyring-daemon did not take org.freedesktop.secrets on the bus: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

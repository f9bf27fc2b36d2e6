package team

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/team/keyringtest"
)

// noKeyring makes join fall back to the pgpass file: no session bus.
func noKeyring(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
}

// TestPgpassKeepsUsersOwnLine: the user's own pgpass line for the same
// server, database and user is kept by join (whose line goes before it and
// wins) and is all that is left after leave.
func TestPgpassKeepsUsersOwnLine(t *testing.T) {
	noKeyring(t)
	ctx := context.Background()
	pgpass := filepath.Join(t.TempDir(), "pgpass")
	own := "db.example:5432:postgres:alice:mine\n*:*:*:*:any\n"
	if err := os.WriteFile(pgpass, []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	raw := "postgres://alice:pw2@db.example:5432/postgres"
	s, err := SavePassword(ctx, raw, pgpass)
	if err != nil || s.Store != SecretPgpass || s.File != pgpass {
		t.Fatalf("saved %+v, %v", s, err)
	}
	if b, _ := os.ReadFile(pgpass); string(b) != joinMark+"db.example:5432:postgres:alice:pw2\n"+own {
		t.Errorf("after join the pgpass file holds %q", b)
	}
	if msg, err := ForgetPassword(ctx, Config{URL: StripPassword(raw), Secret: s}); err != nil || msg == "" {
		t.Errorf("forget: %q, %v", msg, err)
	}
	if b, _ := os.ReadFile(pgpass); string(b) != own {
		t.Errorf("after leave the pgpass file holds %q, want the user's own %q", b, own)
	}
}

// TestPgpassSymlinkStaysLink: a ~/.pgpass that is a symbolic link stays
// one through join and leave; the file it points to is written.
func TestPgpassSymlinkStaysLink(t *testing.T) {
	noKeyring(t)
	ctx := context.Background()
	dir := t.TempDir()
	target, link := filepath.Join(dir, "dotfiles-pgpass"), filepath.Join(dir, ".pgpass")
	own := "other.example:5432:*:bob:kept\n"
	if err := os.WriteFile(target, []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	raw := "postgres://alice:pw@db.example:5432/postgres"
	s, err := SavePassword(ctx, raw, link)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ForgetPassword(ctx, Config{URL: StripPassword(raw), Secret: s}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symbolic link (%v, %v)", link, fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != own {
		t.Errorf("the linked file holds %q, want %q", b, own)
	}
}

// TestForgetPasswordNotInKeyring: leave does not say it removed a password
// the keyring did not hold.
func TestForgetPasswordNotInKeyring(t *testing.T) {
	keyringtest.Start(t)
	msg, err := ForgetPassword(context.Background(), Config{URL: "postgres://zoe@db.example:5432/postgres", Secret: Secret{Store: SecretKeyring}})
	if err != nil || msg != "" {
		t.Errorf("forget of a password the keyring does not hold: %q, %v", msg, err)
	}
}

// TestKeyringCallStopsOnCancel: a keyring call that does not answer is
// given up on when the command is stopped (Ctrl-C), not after the timeout.
func TestKeyringCallStopsOnCancel(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent") // a bus named: the call is tried
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	defer close(release)
	cancel()
	err := withKeyring(ctx, func() error { <-release; return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("withKeyring after cancel: %v, want context.Canceled", err)
	}
}

// TestPgpassUnmarkedLineFromOlderJoin: leave removes the password a join
// before the mark added (a config without Marked), as that join's leave did.
func TestPgpassUnmarkedLineFromOlderJoin(t *testing.T) {
	pgpass := filepath.Join(t.TempDir(), "pgpass")
	other := "other.example:5432:*:bob:kept\n"
	if err := os.WriteFile(pgpass, []byte(other+"db.example:5432:postgres:alice:pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := Config{URL: "postgres://alice@db.example:5432/postgres", Secret: Secret{Store: SecretPgpass, File: pgpass}}
	if msg, err := ForgetPassword(context.Background(), c); err != nil || msg == "" {
		t.Errorf("forget: %q, %v", msg, err)
	}
	if b, _ := os.ReadFile(pgpass); string(b) != other {
		t.Errorf("after leave the pgpass file holds %q, want %q", b, other)
	}
}

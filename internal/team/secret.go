package team

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/zalando/go-keyring"
)

// The password of a team's URL is never kept in the data directory. join
// puts it in the OS keyring when one answers (the Secret Service over
// D-Bus on Linux, the login Keychain on macOS, the Credential Manager on
// Windows), else in the pgpass file PostgreSQL's clients read. The keyring
// library is github.com/zalando/go-keyring: pure Go on each of them (D-Bus
// through godbus, macOS's security tool, Windows' API by syscalls), so the
// binaries stay static.

// Where join put the password (Secret.Store).
const (
	SecretKeyring = "keyring"
	SecretPgpass  = "pgpass"
)

// Secret says where join put the URL's password. The zero Secret is a URL
// given without one: the pgpass file or PGPASSWORD, as the user keeps them.
type Secret struct {
	Store string `json:"store,omitempty"` // SecretKeyring, SecretPgpass or ""
	File  string `json:"file,omitempty"`  // the pgpass file join added the password to
	// Marked: join's pgpass line follows joinMark. A join before the mark
	// left it unmarked; leave then removes the lines of its prefix.
	Marked bool `json:"marked,omitempty"`
	// KeyringErr is why the password is not in the OS keyring, when join
	// found none that answered.
	KeyringErr string `json:"keyring_error,omitempty"`
}

// Describe says where the password is, for status and doctor.
func (s Secret) Describe() string {
	switch s.Store {
	case SecretKeyring:
		return "in the OS keyring"
	case SecretPgpass:
		return "in the pgpass file " + s.File
	}
	return "not kept by join: the pgpass file or PGPASSWORD"
}

// keyringService names this program's entries in the OS keyring; each is
// named by its URL without the password (keyringAccount).
const keyringService = "claude-memory-layer"

func keyringAccount(rawURL string) string { return StripPassword(rawURL) }

// keyringTimeout bounds a keyring call: a Secret Service may wait for an
// unlock prompt nobody answers (a session without a screen), and a sync
// must end and say why.
const keyringTimeout = 10 * time.Second

// errNoKeyring: no session bus to reach a Secret Service on.
var errNoKeyring = errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS) to reach a Secret Service on")

// withKeyring runs a keyring call, bounded by keyringTimeout and ctx (a
// Ctrl-C). On Linux and the BSDs a Secret Service is reached over the
// session bus; without its address godbus would start a bus itself
// (dbus-launch), which a command must not leave behind, so there is then
// no keyring. macOS and Windows always have theirs. The keyring library
// takes no context: a call given up on runs on in its goroutine until the
// keyring answers (its result is dropped), in a command about to exit.
func withKeyring(ctx context.Context, f func() error) error {
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" && !sessionBus() {
		return errNoKeyring
	}
	done := make(chan error, 1)
	go func() { done <- f() }()
	timer := time.NewTimer(keyringTimeout)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("the OS keyring: %w", ctx.Err())
	case <-timer.C:
		return fmt.Errorf("the OS keyring did not answer in %v", keyringTimeout)
	}
}

// sessionBus reports whether a D-Bus session bus is there to connect to:
// named by DBUS_SESSION_BUS_ADDRESS, or the socket of the user's runtime
// directory that systemd's user session provides.
func sessionBus() bool {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return true
	}
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, "bus"))
	return err == nil && fi.Mode()&os.ModeSocket != 0
}

// SavePassword keeps the password of rawURL, if it has one, out of the data
// directory: in the OS keyring when one answers, else in the pgpass file at
// pgpass (mode 0600 when join creates it). It returns where; the zero
// Secret for a URL without a password.
//
// The pgpass line goes first in the file, after a comment that marks it as
// join's: PostgreSQL's clients use the first line that matches, so it wins
// over the user's own lines for the server (kept: leave removes only the
// line join marked), and a later join or leave finds it by its mark.
func SavePassword(ctx context.Context, rawURL, pgpass string) (Secret, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return Secret{}, nil
	}
	pw, ok := u.User.Password()
	if !ok {
		return Secret{}, nil
	}
	kerr := withKeyring(ctx, func() error { return keyring.Set(keyringService, keyringAccount(rawURL), pw) })
	if kerr == nil {
		return Secret{Store: SecretKeyring}, nil
	}
	if err := ctx.Err(); err != nil {
		return Secret{}, fmt.Errorf("save the password: %w", err) // stopped, not a keyring missing
	}
	line := pgpassPrefix(u) + pgpassEscape.Replace(pw) + "\n"
	s := Secret{Store: SecretPgpass, KeyringErr: kerr.Error()}
	lines, err := readLines(pgpass)
	if err != nil {
		return Secret{}, fmt.Errorf("save the password: %w", err)
	}
	// join's line for the server, database and user from before goes: the
	// password given now replaces it.
	kept, removed := withoutJoinLines(lines, pgpassPrefix(u), true)
	if !slices.Contains(kept, line) { // else the user's own line: leave removes none
		kept = append([]string{joinMark, line}, kept...)
		s.File, s.Marked = pgpass, true
	}
	if removed || s.File != "" {
		if err := rewrite(pgpass, kept); err != nil {
			return Secret{}, fmt.Errorf("save the password: %w", err)
		}
	}
	return s, nil
}

// joinMark is the comment before each pgpass line join adds.
const joinMark = "# claude-memory-layer team join (team leave removes the next line)\n"

var pgpassEscape = strings.NewReplacer(`\`, `\\`, `:`, `\:`)

// pgpassPrefix is the start of the URL's pgpass line, up to its password:
// host:port:database:user:.
func pgpassPrefix(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "5432"
	}
	db := strings.TrimPrefix(u.Path, "/")
	if db == "" {
		db = "*"
	}
	return strings.Join([]string{pgpassEscape.Replace(u.Hostname()), port, pgpassEscape.Replace(db),
		pgpassEscape.Replace(u.User.Username()), ""}, ":")
}

// ForgetPassword removes the password join kept for c: its keyring entry,
// or the line join added to the pgpass file. It returns what it did, for
// leave to say ("" when there was nothing to remove).
func ForgetPassword(ctx context.Context, c Config) (string, error) {
	switch c.Secret.Store {
	case SecretKeyring:
		err := withKeyring(ctx, func() error { return keyring.Delete(keyringService, keyringAccount(c.URL)) })
		if errors.Is(err, keyring.ErrNotFound) {
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("remove the password from the OS keyring: %w", err)
		}
		return "removed the password from the OS keyring", nil
	case SecretPgpass:
		if c.Secret.File == "" {
			return "", nil
		}
		u, err := url.Parse(c.URL)
		if err != nil || u.User == nil {
			return "", nil
		}
		lines, err := readLines(c.Secret.File)
		if err != nil {
			return "", fmt.Errorf("remove the password from %s: %w", c.Secret.File, err)
		}
		kept, removed := withoutJoinLines(lines, pgpassPrefix(u), c.Secret.Marked)
		if !removed {
			return "", nil
		}
		if err := rewrite(c.Secret.File, kept); err != nil {
			return "", fmt.Errorf("remove the password from %s: %w", c.Secret.File, err)
		}
		return "removed the password from " + c.Secret.File, nil
	}
	return "", nil
}

// readLines reads a pgpass file as its lines, each with its newline (one
// added to a last line without it); none when there is no file.
func readLines(file string) ([]string, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, nil
	}
	if b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	lines := strings.SplitAfter(string(b), "\n")
	return lines[:len(lines)-1], nil // after the last newline, ""
}

// withoutJoinLines returns lines without the lines join added for prefix
// (each after joinMark) and their marks, and whether there were any.
// Unmarked, from a join before the mark, they are all the lines of prefix.
func withoutJoinLines(lines []string, prefix string, marked bool) (kept []string, removed bool) {
	kept = make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		if lines[i] == joinMark && i+1 < len(lines) && strings.HasPrefix(lines[i+1], prefix) {
			i++
			removed = true
			continue
		}
		if !marked && strings.HasPrefix(lines[i], prefix) {
			removed = true
			continue
		}
		kept = append(kept, lines[i])
	}
	return kept, removed
}

// rewrite replaces the pgpass file's content with lines, atomically. A
// symbolic link (a ~/.pgpass kept with one's dotfiles) stays one: the file
// it points to is written.
func rewrite(file string, lines []string) error {
	target, err := filepath.EvalSymlinks(file)
	if errors.Is(err, os.ErrNotExist) {
		target, err = file, nil
	}
	if err != nil {
		return err
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp := target + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(lines, "")), mode); err != nil {
		return err
	}
	if err := os.Chmod(tmp, mode); err != nil { // a .tmp left from before keeps its mode otherwise
		return err
	}
	return os.Rename(tmp, target)
}

// ConnectConfig opens a connection to a joined team's server: its URL with
// the password from the OS keyring when join put it there, else as Connect
// (the URL's own password, the pgpass file, PGPASSWORD).
func ConnectConfig(ctx context.Context, c Config) (*pgx.Conn, error) {
	raw := c.URL
	if c.Secret.Store == SecretKeyring && !HasPassword(raw) {
		var pw string
		err := withKeyring(ctx, func() (err error) {
			pw, err = keyring.Get(keyringService, keyringAccount(raw))
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("the password of %s from the OS keyring: %w (team join again with the password in the URL)", StripPassword(raw), err)
		}
		u, err := url.Parse(raw)
		if err != nil || u.User == nil {
			return nil, fmt.Errorf("server URL %s: no user to give the password to", StripPassword(raw))
		}
		u.User = url.UserPassword(u.User.Username(), pw)
		raw = u.String()
	}
	return Connect(ctx, raw)
}

// HasPassword reports whether rawURL carries a password.
func HasPassword(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return false
	}
	_, ok := u.User.Password()
	return ok
}

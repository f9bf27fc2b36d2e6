package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/team"
	"github.com/claude-memory-layer/claude-memory-layer/internal/team/keyringtest"
	"github.com/zalando/go-keyring"
)

// newMember adds a login role to the world's team devs, with a password
// only the returned URL holds, and a machine for it with a checkout of the
// project. Its pgpass file (PGPASSFILE, for this process and the machine)
// starts empty: the password is found where join put it or not at all.
func (w *teamWorld) newMember(t *testing.T, role, password string) (te *testEnv, repo, url, pgpass string) {
	t.Helper()
	w.srv.SQL(t, w.srv.Superuser, fmt.Sprintf(`CREATE ROLE %s LOGIN PASSWORD '%s'`, role, password))
	newTestEnv(t).mustRun(t, "team", "add-member", "--url", w.srv.URL(w.srv.Superuser), "--team", "devs", role)
	te = newTestEnv(t)
	repo = checkout(t, filepath.Join(te.root(), "work", "shop"), "git@github.com:acme/shop.git")
	pgpass = filepath.Join(te.root(), "pgpass")
	t.Setenv("PGPASSFILE", pgpass)
	te.vars["PGPASSFILE"] = pgpass
	url = fmt.Sprintf("postgres://%s:%s@127.0.0.1:%d/postgres?sslmode=disable", role, password, w.srv.Port)
	return te, repo, url, pgpass
}

// filesHolding lists the files under dir whose bytes contain s.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(s)) {
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// passwordStore is where team join --json or team status --json says the
// password is.
func passwordStore(t *testing.T, out string) team.Secret {
	t.Helper()
	var v struct{ Password team.Secret }
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return v.Password
}

// TestTeamPasswordInKeyring: with a Secret Service on the session bus (a
// real gnome-keyring), join puts the URL's password in the OS keyring and
// says so; no file of the data directory holds it, nor does the pgpass
// file; a sync in another process connects with it from the keyring;
// status and doctor say where it is; leave removes it from the keyring.
func TestTeamPasswordInKeyring(t *testing.T) {
	w := newTeamWorld(t)
	kr := keyringtest.Start(t)
	const pw = "dave-Pass-5d1c9e"
	dave, repo, url, pgpass := w.newMember(t, "dave", pw)

	out := dave.mustRun(t, "team", "join", "--url", url, "--team", "devs", "--project", repo, "--json")
	if s := passwordStore(t, out); s.Store != team.SecretKeyring {
		t.Fatalf("join kept the password as %+v, want in the keyring\n%s", s, out)
	}
	if out := dave.mustRun(t, "team", "join", "--url", url, "--team", "devs", "--project", repo); !strings.Contains(out, "the password is in the OS keyring") {
		t.Errorf("join does not say the password is in the keyring:\n%s", out)
	}
	if got, err := keyring.Get("claude-memory-layer", team.StripPassword(url)); err != nil || got != pw {
		t.Errorf("the keyring holds %q, %v", got, err)
	}
	if _, err := os.Stat(pgpass); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("join wrote the pgpass file too (%v)", err)
	}

	remember(t, dave, repo, "Invoices are archived after seven years", "we archive invoices after seven years")
	// The sync is another process, as the worker is: its password comes
	// from the keyring daemon, over the bus named in its environment.
	cli := buildHook(t, "claude-memory-layer")
	sync := exec.Command(cli, "team", "sync", "--json")
	sync.Env = append(os.Environ(), "PGPASSWORD=", "DBUS_SESSION_BUS_ADDRESS="+kr.Address,
		"CLAUDE_MEMORY_DIR="+dave.vars["CLAUDE_MEMORY_DIR"], "HOME="+dave.vars["HOME"], "CLAUDE_CONFIG_DIR="+dave.vars["CLAUDE_CONFIG_DIR"])
	if b, err := sync.CombinedOutput(); err != nil || !strings.Contains(string(b), `"pushed": 1`) {
		t.Fatalf("team sync from the keyring: %v\n%s", err, b)
	}
	if got := w.srv.SQL(t, w.srv.Superuser, `SELECT author || ': ' || title FROM cml.memories WHERE author = 'dave'`); got != "dave: Invoices are archived after seven years" {
		t.Errorf("on the server: %q", got)
	}
	if files := filesHolding(t, dave.vars["CLAUDE_MEMORY_DIR"], pw); len(files) > 0 {
		t.Errorf("the password is in the data directory: %v", files)
	}

	if s := passwordStore(t, dave.mustRun(t, "team", "status", "--json")); s.Store != team.SecretKeyring {
		t.Errorf("status says the password is %+v", s)
	}
	dave.run(t, "doctor")
	if !strings.Contains(dave.stdout.String(), "the password is in the OS keyring") {
		t.Errorf("doctor does not say where the password is:\n%s", dave.stdout)
	}

	if out := dave.mustRun(t, "team", "leave"); !strings.Contains(out, "removed the password from the OS keyring") {
		t.Errorf("leave does not say it removed the password:\n%s", out)
	}
	if got, err := keyring.Get("claude-memory-layer", team.StripPassword(url)); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("after leave the keyring holds %q, %v", got, err)
	}
}

// TestTeamPasswordInPgpassWithoutBus: with no session bus, join puts the
// password in the pgpass file and says why; the data directory holds no
// password, sync connects with the pgpass file, and leave removes the line
// join added and no other.
func TestTeamPasswordInPgpassWithoutBus(t *testing.T) {
	w := newTeamWorld(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	const pw = "erin-Pass-0b7a44"
	erin, repo, url, pgpass := w.newMember(t, "erin", pw)
	other := "db.example:5432:shop:erin:kept\n"
	if err := os.WriteFile(pgpass, []byte(other), 0o600); err != nil {
		t.Fatal(err)
	}

	out := erin.mustRun(t, "team", "join", "--url", url, "--team", "devs", "--project", repo, "--json")
	s := passwordStore(t, out)
	if s.Store != team.SecretPgpass || s.File != pgpass || !strings.Contains(s.KeyringErr, "D-Bus") {
		t.Fatalf("join kept the password as %+v, want in %s, saying there is no bus", s, pgpass)
	}
	if b, _ := os.ReadFile(pgpass); !strings.Contains(string(b), fmt.Sprintf("127.0.0.1:%d:postgres:erin:%s\n", w.srv.Port, pw)) {
		t.Errorf("the pgpass file holds %q", b)
	}
	remember(t, erin, repo, "Refunds are approved by two people", "two people approve every refund")
	erin.mustRun(t, "team", "sync")
	if got := w.srv.SQL(t, w.srv.Superuser, `SELECT count(*) FROM cml.memories WHERE author = 'erin'`); got != "1" {
		t.Errorf("%s of erin's memories on the server, want 1", got)
	}
	if files := filesHolding(t, erin.vars["CLAUDE_MEMORY_DIR"], pw); len(files) > 0 {
		t.Errorf("the password is in the data directory: %v", files)
	}
	if out := erin.mustRun(t, "team", "status"); !strings.Contains(out, "password:   in the pgpass file "+pgpass) {
		t.Errorf("status does not say where the password is:\n%s", out)
	}
	erin.mustRun(t, "team", "leave")
	if b, _ := os.ReadFile(pgpass); string(b) != other {
		t.Errorf("after leave the pgpass file holds %q, want only %q", b, other)
	}
}

// TestTeamJoinOtherTeamSameServerKeepsPassword: joining another team on the
// same server as the same user keeps the password join just saved (the old
// team's is in the same pgpass line): a sync after it connects.
func TestTeamJoinOtherTeamSameServerKeepsPassword(t *testing.T) {
	w := newTeamWorld(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	const pw = "frank-Pass-7e2f10"
	frank, repo, url, pgpass := w.newMember(t, "frank", pw)
	t.Setenv("PGPASSFILE", w.srv.PassFile) // the admin's, for add-member
	newTestEnv(t).mustRun(t, "team", "add-member", "--url", w.srv.URL(w.srv.Superuser), "--team", "ops", "frank")
	t.Setenv("PGPASSFILE", pgpass)
	line := fmt.Sprintf("127.0.0.1:%d:postgres:frank:%s\n", w.srv.Port, pw)

	frank.mustRun(t, "team", "join", "--url", url, "--team", "devs", "--project", repo)
	frank.mustRun(t, "team", "join", "--url", url, "--team", "ops", "--project", repo)
	if b, _ := os.ReadFile(pgpass); !strings.Contains(string(b), line) {
		t.Fatalf("after joining ops the pgpass file holds %q, want the password join saved", b)
	}
	remember(t, frank, repo, "Backups run every night at two", "backups run nightly at 2am")
	frank.mustRun(t, "team", "sync")
	if got := w.srv.SQL(t, w.srv.Superuser, `SELECT team FROM cml.memories WHERE author = 'frank'`); got != "ops" {
		t.Errorf("frank's memory is in team %q, want ops", got)
	}
}

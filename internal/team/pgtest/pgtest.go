// Package pgtest starts a throwaway PostgreSQL server for tests.
//
// Start runs initdb into a fresh folder and the server on a free 127.0.0.1
// port, with password (SCRAM) authentication, and stops it when the test
// ends. Run as root, the server runs as the "postgres" OS user, which owns
// the folder. Without PostgreSQL's binaries the test is skipped, unless CI is
// set: there a missing server is a failure (.ci/run installs it).
package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is a running test server.
type Server struct {
	Port      int
	Superuser string // "postgres"
	Password  string // the superuser's password
	// PassFile is a pgpass file holding the superuser's and every AddRole
	// role's password; tests give it to clients through PGPASSFILE.
	PassFile string
	dir      string // data directory
	sock     string
	bin      string
	asUser   []string // runuser prefix when running as root
	log      string
}

// Bin returns the folder of PostgreSQL's server binaries, or "".
func Bin() string {
	if d := os.Getenv("PG_BIN"); d != "" {
		return d
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		// A link on PATH (Debian's own, or an admin's) points into the
		// folder that has the rest: postgres, psql.
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		return filepath.Dir(p)
	}
	// Debian keeps them out of PATH, one folder per major version.
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	sort.Slice(found, func(i, j int) bool { return version(found[i]) > version(found[j]) })
	if len(found) > 0 {
		return filepath.Dir(found[0])
	}
	return ""
}

func version(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

// Start starts a server for t and stops it when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Bin()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("PostgreSQL's binaries (initdb, pg_ctl) are not installed; CI must run the team tests (apt-get install postgresql)")
		}
		t.Skip("PostgreSQL's binaries (initdb, pg_ctl) are not installed: apt-get install postgresql, or set PG_BIN")
	}
	// t.TempDir's parents are private to the test's user; the server's
	// user must reach its folder.
	base, err := os.MkdirTemp("", "cml-pgtest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	s := &Server{Superuser: "postgres", Password: "su-" + strconv.Itoa(os.Getpid()), bin: bin,
		dir: filepath.Join(base, "data"), sock: filepath.Join(base, "sock"), log: filepath.Join(base, "server.log"),
		PassFile: filepath.Join(base, "pgpass")}
	for _, d := range []string{s.dir, s.sock} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	pwfile := filepath.Join(base, "pw")
	if err := os.WriteFile(pwfile, []byte(s.Password+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root, the server needs the postgres OS user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		for _, p := range []string{s.dir, s.sock, s.log} {
			if err := os.Chown(p, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
		runuser, err := exec.LookPath("runuser")
		if err != nil {
			t.Fatalf("running as root, the server is started through runuser: %v", err)
		}
		s.asUser = []string{runuser, "-u", "postgres", "--"}
	}
	s.run(t, filepath.Join(bin, "initdb"), "-D", s.dir, "-U", s.Superuser, "--auth=scram-sha-256",
		"--pwfile="+pwfile, "-E", "UTF8", "--locale=C", "--no-sync")
	s.Port = freePort(t)
	s.AddPass(t, s.Superuser, s.Password)
	s.Start(t)
	t.Cleanup(func() { s.Stop(t) })
	return s
}

// Start starts the server again after Stop.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	opts := fmt.Sprintf("-p %d -h 127.0.0.1 -k %s -c fsync=off -c max_connections=50", s.Port, s.sock)
	s.run(t, filepath.Join(s.bin, "pg_ctl"), "-D", s.dir, "-o", opts, "-l", s.log, "-w", "-t", "60", "start")
}

// Stop stops the server at once (an immediate shutdown, as a crash),
// dropping its connections; stopping a stopped server does nothing.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(s.dir, "postmaster.pid")); err != nil {
		return
	}
	s.run(t, filepath.Join(s.bin, "pg_ctl"), "-D", s.dir, "-m", "immediate", "-w", "stop")
}

// URL is the connection URL for role, without a password (the PassFile holds it).
func (s *Server) URL(role string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/postgres?sslmode=disable", role, s.Port)
}

// AddPass adds role's password to PassFile.
func (s *Server) AddPass(t testing.TB, role, password string) {
	t.Helper()
	f, err := os.OpenFile(s.PassFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "127.0.0.1:%d:*:%s:%s\n", s.Port, role, password)
}

// AddRole creates a login role with a password, kept in PassFile.
func (s *Server) AddRole(t testing.TB, role string) {
	t.Helper()
	pw := "pw-" + role
	s.SQL(t, s.Superuser, fmt.Sprintf(`CREATE ROLE %q LOGIN PASSWORD '%s'`, role, pw))
	s.AddPass(t, role, pw)
}

// SQL runs query through psql as role and returns its unaligned output:
// one line a row, fields separated by '|'.
func (s *Server) SQL(t testing.TB, role, query string) string {
	t.Helper()
	out, err := s.TrySQL(role, query)
	if err != nil {
		if len(query) > 500 {
			query = query[:500] + "…"
		}
		t.Fatalf("psql as %s: %s: %v\n%s", role, query, err, out)
	}
	return out
}

// TrySQL is SQL returning psql's error instead of failing the test.
func (s *Server) TrySQL(role, query string) (string, error) {
	cmd := exec.Command(filepath.Join(s.bin, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
		"-h", "127.0.0.1", "-p", strconv.Itoa(s.Port), "-U", role, "-d", "postgres", "-c", query)
	cmd.Env = append(os.Environ(), "PGPASSFILE="+s.PassFile, "PGCONNECT_TIMEOUT=10")
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func (s *Server) run(t testing.TB, args ...string) {
	t.Helper()
	argv := append(append([]string{}, s.asUser...), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	if out, err := cmd.CombinedOutput(); err != nil {
		logText, _ := os.ReadFile(s.log)
		t.Fatalf("%s: %v\n%s\nserver log:\n%s", strings.Join(args, " "), err, out, logText)
	}
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// CPU returns the processor time the server has used so far: its
// processes' (postmaster, backends, background workers) and that of those
// the postmaster has reaped (a backend exits when its connection closes).
// It reads Linux's /proc and returns 0 elsewhere.
func (s *Server) CPU() time.Duration {
	pid, err := os.ReadFile(filepath.Join(s.dir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(pid), "\n")
	postmaster := strings.TrimSpace(first)
	total, _ := procCPU(postmaster)
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		if cpu, ppid := procCPU(filepath.Base(p)); ppid == postmaster {
			total += cpu
		}
	}
	return total
}

// ProcCPU returns the processor time of process pid ("self" for this one)
// and of the children it has waited for, from Linux's /proc; 0 elsewhere.
func ProcCPU(pid string) time.Duration {
	cpu, _ := procCPU(pid)
	return cpu
}

func procCPU(pid string) (cpu time.Duration, ppid string) {
	stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return 0, ""
	}
	// After the command's closing parenthesis: the state, the parent's
	// pid, ...; utime, stime, cutime and cstime are the 12th to 15th.
	_, rest, ok := strings.Cut(string(stat), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 15 {
		return 0, ""
	}
	var ticks int64
	for _, v := range f[11:15] {
		n, _ := strconv.ParseInt(v, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * time.Second / 100, f[1] // USER_HZ is 100 on Linux
}

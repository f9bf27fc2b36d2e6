// Package team shares verified memories with a team through a PostgreSQL server.
//
// Local SQLite stays authoritative: the store keeps an outbox of changes
// (store.OutboxChange) that Sync pushes in batches, one server transaction
// each, and teammates' changes are pulled by the server's change sequence
// into the store as memories attributed to their author. Only the CLI and
// its background worker link this package: the hooks never touch the
// network.
package team

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
)

// ConfigFile is the name of the team configuration in the data directory.
const ConfigFile = config.TeamFile

// Config is what team join records: the server, the team, and the projects
// this machine shares. It never holds a password.
type Config struct {
	URL  string `json:"url"` // without its password: see StripPassword
	Team string `json:"team"`
	// Projects maps a local project (as project.Identify gives it) to its
	// identity across machines (see Identity).
	Projects map[string]string `json:"projects"`
	// Secret is where join put the URL's password (never here).
	Secret Secret `json:"secret"`
}

// ErrNotJoined is returned by LoadConfig when this machine is in no team.
var ErrNotJoined = errors.New("not in a team: run claude-memory-layer team join --url URL --team NAME")

// LoadConfig reads the team configuration of a data directory.
func LoadConfig(dataDir string) (Config, error) {
	var c Config
	b, err := regular.ReadFile(filepath.Join(dataDir, ConfigFile), 1<<20)
	if errors.Is(err, os.ErrNotExist) {
		return c, ErrNotJoined
	}
	if err != nil {
		return c, fmt.Errorf("team config: %w", err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("team config %s: %w", filepath.Join(dataDir, ConfigFile), err)
	}
	if c.URL == "" || c.Team == "" {
		return c, ErrNotJoined
	}
	return c, nil
}

// SaveConfig writes the team configuration (mode 0600), replacing it whole.
func SaveConfig(dataDir string, c Config) error {
	c.URL = StripPassword(c.URL)
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dataDir, ConfigFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("team config: %w", err)
	}
	return os.Rename(tmp, path)
}

// RemoveConfig deletes the team configuration: the machine leaves its team.
func RemoveConfig(dataDir string) error {
	err := os.Remove(filepath.Join(dataDir, ConfigFile))
	if errors.Is(err, os.ErrNotExist) {
		return ErrNotJoined
	}
	return err
}

// StripPassword returns the URL without the password of its user info;
// PostgreSQL's clients find it in the pgpass file or PGPASSWORD instead.
// A string that does not parse as a URL (a key=value DSN) is returned as it
// is without its password=... pair.
func StripPassword(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return dsnPassword.ReplaceAllString(raw, "")
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	if q.Has("password") {
		q.Del("password")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

var dsnPassword = regexp.MustCompile(`(?i)\bpassword\s*=\s*('(\\.|[^'])*'|\S*)\s*`)

// nameRE is what a team or member name may be: a plain PostgreSQL role name,
// which needs no quoting anywhere.
var nameRE = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// CheckName reports whether s can name a team or a member.
func CheckName(what, s string) error {
	if !nameRE.MatchString(s) {
		return fmt.Errorf("%s %q: use lower-case letters, digits and '_', starting with a letter (a PostgreSQL role name)", what, s)
	}
	return nil
}

// Identity is a project's identity across machines: its git remote,
// normalised (scheme, user, port and ".git" dropped, host lower-cased), so
// that https://user@github.com/org/repo.git and git@github.com:org/repo are
// one project; else name, a configured name. root is the project's top
// level (project.Identify). It returns "" when there is neither.
func Identity(root, name string) string {
	if name != "" {
		return "name:" + name
	}
	if remote := gitRemote(root); remote != "" {
		return NormaliseRemote(remote)
	}
	return ""
}

// NormaliseRemote normalises a git remote URL (see Identity).
func NormaliseRemote(remote string) string {
	r := strings.TrimSpace(remote)
	var host, path string
	if u, err := url.Parse(r); err == nil && strings.Contains(r, "://") {
		host, path = u.Hostname(), u.Path // ssh://, https://, file:// (no host)
	} else if at := strings.Index(r, ":"); at > 0 && !strings.Contains(r[:at], "/") {
		// scp-like syntax: [user@]host:path
		host, path = r[:at], r[at+1:]
		if i := strings.LastIndex(host, "@"); i >= 0 {
			host = host[i+1:]
		}
	} else {
		path = r // a local path
	}
	path = strings.TrimSuffix(strings.Trim(path, "/"), ".git")
	path = strings.TrimSuffix(path, "/")
	if host == "" {
		return "/" + path
	}
	return strings.ToLower(host) + "/" + path
}

// gitRemote reads the URL of the repository's "origin" remote (else its
// first remote) from .git/config, without running git.
func gitRemote(root string) string {
	b, err := regular.ReadFile(filepath.Join(root, ".git", "config"), 1<<20)
	if err != nil {
		return ""
	}
	var first, origin, section string
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = line
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != "url" || !strings.HasPrefix(section, `[remote "`) {
			continue
		}
		v = strings.TrimSpace(v)
		if first == "" {
			first = v
		}
		if section == `[remote "origin"]` {
			origin = v
		}
	}
	if origin != "" {
		return origin
	}
	return first
}

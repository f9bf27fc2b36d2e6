package team

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNormaliseRemote: every way of naming one repository is one project;
// other repositories stay apart.
func TestNormaliseRemote(t *testing.T) {
	for _, r := range []string{
		"git@github.com:acme/shop.git",
		"https://github.com/acme/shop",
		"https://bob:secret@GitHub.com/acme/shop.git/",
		"ssh://git@github.com:22/acme/shop.git",
		"git+ssh://git@github.com/acme/shop",
	} {
		if got := NormaliseRemote(r); got != "github.com/acme/shop" {
			t.Errorf("NormaliseRemote(%q) = %q, want github.com/acme/shop", r, got)
		}
	}
	for r, want := range map[string]string{
		"/srv/git/shop.git":            "/srv/git/shop",
		"file:///srv/git/shop.git":     "/srv/git/shop",
		"git@gitlab.com:acme/shop.git": "gitlab.com/acme/shop",
	} {
		if got := NormaliseRemote(r); got != want {
			t.Errorf("NormaliseRemote(%q) = %q, want %q", r, got, want)
		}
	}
}

// TestIdentity: the origin remote wins over another remote; a repository
// without a remote has no identity unless it is named.
func TestIdentity(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	cfg := "[remote \"upstream\"]\n\turl = git@github.com:other/shop.git\n[remote \"origin\"]\n\turl = https://github.com/acme/shop.git\n"
	os.WriteFile(filepath.Join(dir, ".git", "config"), []byte(cfg), 0o644)
	if got := Identity(dir, ""); got != "github.com/acme/shop" {
		t.Errorf("Identity = %q, want origin's github.com/acme/shop", got)
	}
	if got := Identity(dir, "shop"); got != "name:shop" {
		t.Errorf("Identity with a name = %q, want name:shop", got)
	}
	if got := Identity(t.TempDir(), ""); got != "" {
		t.Errorf("Identity of a folder without a remote = %q, want \"\"", got)
	}
}

// TestStripPassword: the URL kept in the data directory has no password.
func TestStripPassword(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://alice:s3cret@db.example:5432/team?sslmode=verify-full": "postgres://alice@db.example:5432/team?sslmode=verify-full",
		"postgres://alice@db/team?password=s3cret&sslmode=require":         "postgres://alice@db/team?sslmode=require",
		"host=db user=alice password='s 3' dbname=team":                    "host=db user=alice dbname=team",
	} {
		if got := StripPassword(in); got != want {
			t.Errorf("StripPassword(%q) = %q, want %q", in, got, want)
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseStats(t *testing.T) {
	t.Parallel()
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	o, err := parseStats(e, []string{"--all-projects", "--json"})
	if err != nil || o != (statsOptions{allProjects: true, json: true}) {
		t.Errorf("parseStats = %+v, %v", o, err)
	}
	checkUsage(t, []usageCase{
		{"empty store", []string{"stats", "--all-projects"}, exitOK},
		{"both scopes", []string{"stats", "--project", "/x", "--all-projects"}, exitUsage},
		{"stray argument", []string{"stats", "now"}, exitUsage},
		{"unknown flag", []string{"stats", "--verbose"}, exitUsage},
	})
}

func TestStats(t *testing.T) {
	t.Parallel()
	c, _ := seeded(t)
	checkGolden(t, "stats", "all.txt", c.normalize(c.ok("stats", "--all-projects")))
	checkGolden(t, "stats", "project.json", c.normalize(c.ok("stats", "--project", basicProject, "--json")))

	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(c.ok("stats", "--all-projects", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"type", "stage", "status", "events", "entries", "sessions", "db_bytes"} {
		if _, ok := got[k]; !ok {
			t.Errorf("stats --json has no %q (DESIGN.md)", k)
		}
	}
	var n int64
	if err := json.Unmarshal(got["db_bytes"], &n); err != nil || n < 4096 {
		t.Errorf("db_bytes = %s", got["db_bytes"])
	}
}

func TestStatsEmpty(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	out := c.ok("stats", "--all-projects")
	if !strings.Contains(out, "Events       0") || !strings.Contains(out, "Last ingest  never") || strings.Contains(out, "\x1b") {
		t.Errorf("empty stats:\n%s", out)
	}
}

// A memory.db that exists but was never migrated (its creator died, or is
// migrating right now) reads as an empty store, as a missing one does.
func TestReadCommandsOnUninitialisedStore(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	if err := os.WriteFile(filepath.Join(c.dir, "memory.db"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"search", "ledger", "--json", "--all-projects"},
		{"entries", "--json", "--all-projects"},
		{"history", "--json", "--all-projects"},
		{"stats", "--json", "--all-projects"},
		{"list", "--json"},
	} {
		out := c.ok(args...)
		if !json.Valid([]byte(out)) {
			t.Errorf("%v: not JSON: %q", args, out)
		}
	}
}

// TestStatsLastIngestAfterImport: importing old transcripts is an ingest
// now, though their messages keep their own dates.
func TestStatsLastIngestAfterImport(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	te.mustRun(t, "import", "--transcript", filepath.Join(needDir(t, fixtureDir), "basic.jsonl"))
	var got struct {
		LastIngest string `json:"last_ingest"`
	}
	if err := json.Unmarshal([]byte(te.mustRun(t, "stats", "--all-projects", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if want := fixedNow.Format(time.RFC3339); got.LastIngest != want {
		t.Errorf("last_ingest after an import = %q, want the import's time %q", got.LastIngest, want)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestParseStats(t *testing.T) {
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
	c := newCLI(t)
	out := c.ok("stats", "--all-projects")
	if !strings.Contains(out, "Events       0") || !strings.Contains(out, "Last ingest  never") || strings.Contains(out, "\x1b") {
		t.Errorf("empty stats:\n%s", out)
	}
}

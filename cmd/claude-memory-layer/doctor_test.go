package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestCheckSpool: doctor says nothing waits, that records wait for the next
// write, or warns when they have waited long or fill the spool.
func TestCheckSpool(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		st     store.SpoolState
		status string
	}{
		{store.SpoolState{}, "ok"},
		{store.SpoolState{Bytes: 900, Since: now.Add(-time.Minute)}, "ok"},
		{store.SpoolState{Bytes: 900, Since: now.Add(-3 * time.Hour)}, "warn"},
		{store.SpoolState{Bytes: 3 << 20, Since: now.Add(-time.Minute), Full: true}, "warn"},
		{store.SpoolState{Bytes: 900, FoldFiles: 1, Since: now.Add(-2 * time.Hour)}, "warn"},
	} {
		if c := checkSpool(tt.st, now); c.Status != tt.status {
			t.Errorf("%+v: %s %q, want %s", tt.st, c.Status, c.Detail, tt.status)
		}
	}
}

// TestDoctorFailedUpgrade: doctor says why the background upgrade failed,
// upgrades the store itself, and then lets the failure go.
func TestDoctorFailedUpgrade(t *testing.T) {
	te := newTestEnv(t)
	dir := te.oldStore(t)
	pipeline.RecordUpgrade(dir, errors.New("vacuum into: disk is full"))

	doctorChecks := func() map[string]check {
		te.run(t, "doctor", "--json")
		var rep struct {
			Checks []check `json:"checks"`
		}
		if err := json.Unmarshal(te.stdout.Bytes(), &rep); err != nil {
			t.Fatalf("doctor --json: %v\n%s", err, te.stdout)
		}
		out := map[string]check{}
		for _, c := range rep.Checks {
			out[c.Name] = c
		}
		return out
	}
	checks := doctorChecks()
	if c := checks["upgrade"]; c.Status != "warn" || !strings.Contains(c.Detail, "disk is full") {
		t.Errorf("upgrade check %+v, want a warning that says why", c)
	}
	if c := checks["schema"]; c.Status != "ok" {
		t.Errorf("schema check %+v after doctor's own upgrade", c)
	}
	if _, _, failed := pipeline.UpgradeFailure(dir); failed {
		t.Error("the failure is still recorded once the store is upgraded")
	}
	if c, ok := doctorChecks()["upgrade"]; ok {
		t.Errorf("the second doctor still reports %+v", c)
	}
}

// TestCheckGlosses: doctor warns when the dictionaries are not beside the
// binaries, and is content when they are.
func TestCheckGlosses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if c := checkGlosses(dir); c.Status != "warn" || !strings.Contains(c.Detail, "spa.txt") {
		t.Errorf("no dictionaries: %+v, want a warning naming them", c)
	}
	if err := os.MkdirAll(filepath.Join(dir, "glosses"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fra.txt", "ita.txt", "jpn.txt", "kor.txt", "por.txt", "rus.txt", "spa.txt", "zho.txt"} {
		if err := os.WriteFile(filepath.Join(dir, "glosses", name), []byte("# table\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if c := checkGlosses(dir); c.Status != "ok" {
		t.Errorf("dictionaries present: %+v, want ok", c)
	}
}

// TestDoctorIndexSegments: doctor's fts5 check says how many segments the
// full-text indexes hold, one per index after an import merged them.
func TestDoctorIndexSegments(t *testing.T) {
	t.Parallel()
	te := newTestEnv(t)
	te.mustRun(t, "import", "--transcript", filepath.Join(needDir(t, fixtureDir), "basic.jsonl"))
	te.run(t, "doctor", "--json")
	var rep struct {
		Checks []check `json:"checks"`
	}
	if err := json.Unmarshal(te.stdout.Bytes(), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, te.stdout)
	}
	for _, c := range rep.Checks {
		if c.Name == "fts5" {
			if c.Status != "ok" || !strings.HasSuffix(c.Detail, ", 2 index segments") {
				t.Errorf("fts5 check %+v, want ok with 2 index segments", c)
			}
			return
		}
	}
	t.Fatalf("no fts5 check in %+v", rep.Checks)
}

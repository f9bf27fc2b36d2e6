package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
)

// TestReextractOldStore: reextract on a store the first release wrote
// upgrades it, derives its sessions' memories with this build's extractor,
// and a second run changes nothing. Without a scope it is a usage error.
func TestReextractOldStore(t *testing.T) {
	te := newTestEnv(t)
	te.oldStore(t)
	if code := te.run(t, "reextract"); code != exitUsage {
		t.Errorf("reextract without --project or --all: exit %d, want %d", code, exitUsage)
	}
	decode := func(out string) pipeline.ReextractResult {
		var r pipeline.ReextractResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return r
	}
	dry := decode(te.mustRun(t, "reextract", "--all", "--dry-run", "--json"))
	first := decode(te.mustRun(t, "reextract", "--all", "--json"))
	if first.Sessions == 0 || first.New == 0 || first.Extractor != "offline" {
		t.Errorf("first run: %+v, want the old sessions' memories made", first)
	}
	if dry.DryRun = false; dry != first {
		t.Errorf("dry run %+v, run %+v", dry, first)
	}
	out := te.mustRun(t, "reextract", "--all")
	want := "re-derived " + plural.Of(first.Sessions, "session") + " of 1 project with extractor offline: " +
		plural.Of(first.New, "memory") + " kept, 0 new, 0 retired"
	if !strings.HasPrefix(out, want) {
		t.Errorf("second run:\n%s\nwant it to start with\n%s", out, want)
	}
}

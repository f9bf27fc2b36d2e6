package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestDigestCommand: 40 days after a session, `digest` builds its digest,
// which entries --type digest lists and show shows like any memory; a
// second run builds nothing.
func TestDigestCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	importFixture(t, c.db(), "basic.jsonl")
	later := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: c.getenv,
			now: func() time.Time { return testNow.AddDate(0, 0, 40) }, exe: filepath.Join(c.dir, "bin", "claude-memory-layer")}
		if code := run(context.Background(), args, e); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	if got := c.ok("digest"); got != "0 digests built, 0 sessions with nothing to quote\n" {
		t.Errorf("a day after the session: %q", got)
	}
	if got := later("digest"); got != "1 digest built, 0 sessions with nothing to quote\n" {
		t.Fatalf("40 days after the session: %q", got)
	}
	var list struct {
		Entries []struct {
			ID       string `json:"id"`
			Type     string `json:"type"`
			Stage    string `json:"stage"`
			Evidence []struct {
				Quote string `json:"quote"`
			} `json:"evidence"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(c.ok("entries", "--project", basicProject, "--type", "digest", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Entries) != 1 || list.Entries[0].Type != "digest" || list.Entries[0].Stage != "verified" {
		t.Fatalf("entries --type digest = %+v", list.Entries)
	}
	d := list.Entries[0]
	show := c.ok("show", d.ID)
	for _, want := range []string{"digest", "Digest of the session of 2026-11-20", d.Evidence[0].Quote} {
		if !strings.Contains(show, want) {
			t.Errorf("show %s lacks %q:\n%s", d.ID, want, show)
		}
	}
	if got := later("digest"); !strings.HasPrefix(got, "0 digests built") {
		t.Errorf("a second run: %q", got)
	}
}

// TestDigestCommandMerges: the digest worker, which SessionEnd starts when
// the full-text indexes hold many segments, merges them.
func TestDigestCommandMerges(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	db := c.db()
	ctx := context.Background()
	// Write transactions of many sizes, as hooks and workers write: a
	// segment each, which FTS5's automerge merges only level by level.
	k := 0
	for i := range 150 {
		var evs []store.Event
		for range 1 + (i*i)%23 {
			var own strings.Builder
			for j := range 40 {
				fmt.Fprintf(&own, " cog%dx%d", k, j)
			}
			evs = append(evs, store.Event{Type: store.TypeUserPrompt, SessionID: "frag", Project: "/p", DedupeKey: fmt.Sprintf("frag%d", k),
				Text: "walnut sprocket" + own.String()})
			k++
		}
		if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := db.IndexSegments(ctx); err != nil || n <= pipeline.MergeAbove {
		t.Fatalf("IndexSegments()=%d, %v before the worker, want more than %d", n, err, pipeline.MergeAbove)
	}
	c.ok("digest")
	if n, err := db.IndexSegments(ctx); err != nil || n != 1 {
		t.Fatalf("IndexSegments()=%d, %v after the worker, want 1 (events_fts; entries_fts is empty)", n, err)
	}
}

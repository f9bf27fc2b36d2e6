package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

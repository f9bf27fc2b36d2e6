package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

func TestParseShow(t *testing.T) {
	t.Parallel()
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	tests := []struct {
		args []string
		want showOptions
	}{
		{[]string{"mem:ab12cd"}, showOptions{id: "mem:ab12cd", context: 1, quotes: 20}},
		{[]string{"42", "--context", "3", "--json"}, showOptions{id: "42", context: 3, quotes: 20, json: true}},
		{[]string{"#7", "--context", "0", "--quotes", "0"}, showOptions{id: "#7"}},
		// a recalled message's citation id, as the hook shows it
		{[]string{"mem:t1a"}, showOptions{id: "mem:t1a", context: 1, quotes: 20}},
		{[]string{"[mem:tb]", "--quotes", "3"}, showOptions{id: "[mem:tb]", context: 1, quotes: 3}},
	}
	for _, tt := range tests {
		got, err := parseShow(e, tt.args)
		if err != nil {
			t.Fatalf("parseShow(%q): %v", tt.args, err)
		}
		if got != tt.want {
			t.Errorf("parseShow(%q) = %+v, want %+v", tt.args, got, tt.want)
		}
	}
	to, err := parseTimeline(e, []string{"mem:ab12cd", "--window", "2"})
	if err != nil || to != (timelineOptions{cid: "mem:ab12cd", window: 2, quotes: 20}) {
		t.Errorf("parseTimeline = %+v, %v", to, err)
	}
	checkUsage(t, []usageCase{
		{"show nothing", []string{"show"}, exitUsage},
		{"show two", []string{"show", "1", "2"}, exitUsage},
		{"show word", []string{"show", "yesterday"}, exitUsage},
		{"show negative context", []string{"show", "1", "--context", "-1"}, exitUsage},
		{"show negative quotes", []string{"show", "mem:ab12cd", "--quotes", "-1"}, exitUsage},
		{"show no store", []string{"show", "1"}, exitError},
		{"timeline nothing", []string{"timeline"}, exitUsage},
		{"timeline event id", []string{"timeline", "12"}, exitUsage},
		{"timeline negative window", []string{"timeline", "mem:ab12cd", "--window", "-2"}, exitUsage},
		{"timeline negative quotes", []string{"timeline", "mem:ab12cd", "--quotes", "-2"}, exitUsage},
	})
}

func TestShowMemory(t *testing.T) {
	t.Parallel()
	c, db := seeded(t)
	cid := cidOf(t, db, "The orders tests sign")
	checkGolden(t, "show", "memory.txt", c.normalize(c.ok("show", cid, "--context", "1")))
	checkGolden(t, "show", "memory.json", c.normalize(c.ok("show", cid, "--json")))

	var got struct {
		Memory struct {
			ID          string `json:"id"`
			UseCount    int    `json:"use_count"`
			InjectCount int    `json:"inject_count"`
			Injections  []struct {
				SessionID string `json:"session_id"`
			} `json:"injections"`
			Evidence []struct {
				SpanStart int        `json:"span_start"`
				SpanEnd   int        `json:"span_end"`
				Quote     string     `json:"quote"`
				Event     *eventJSON `json:"event"`
				Before    []any      `json:"before"`
				After     []any      `json:"after"`
			} `json:"evidence"`
		} `json:"memory"`
	}
	if err := json.Unmarshal([]byte(c.ok("show", cid, "--json", "--context", "2")), &got); err != nil {
		t.Fatal(err)
	}
	m := got.Memory
	if m.ID != cid || m.InjectCount != 1 || m.UseCount != 0 || len(m.Injections) != 1 || m.Injections[0].SessionID != "later-session" {
		t.Errorf("show --json = %+v", m)
	}
	for _, v := range m.Evidence {
		// Spans are byte offsets into the stored message text.
		if v.Event == nil || v.Event.Text[v.SpanStart:v.SpanEnd] != v.Quote {
			t.Errorf("span [%d,%d) does not frame %q", v.SpanStart, v.SpanEnd, v.Quote)
		}
		if len(v.Before) != 2 || len(v.After) > 2 {
			t.Errorf("--context 2: %d before, %d after", len(v.Before), len(v.After))
		}
	}
	// Piped output marks the span with »…« and carries no escape codes.
	out := c.ok("show", cid)
	if !strings.Contains(out, "»The orders tests sign") || strings.Contains(out, "\x1b") {
		t.Errorf("piped show does not mark the span plainly:\n%s", out)
	}
}

func TestShowConflicts(t *testing.T) {
	t.Parallel()
	c, db := seeded(t)
	ctx := context.Background()
	a, _ := db.EntryByCID(ctx, cidOf(t, db, "Sign JWTs with RS256 keys"))
	b, _ := db.EntryByCID(ctx, cidOf(t, db, "Fix the tests"))
	if _, err := db.AddConflict(ctx, store.Conflict{Older: a.ID, Newer: b.ID, Kind: "supersedes", Reason: "keys moved", Detected: testNow},
		store.Event{Time: testNow, Type: store.TypeConflict, Project: basicProject, DedupeKey: "conflict:test",
			Payload: json.RawMessage(`{"older":"` + a.CID + `","newer":"` + b.CID + `","kind":"supersedes","reason":"keys moved"}`)}); err != nil {
		t.Fatal(err)
	}
	out := c.ok("show", a.CID)
	if !strings.Contains(out, "superseded by "+b.CID+": Fix the tests") || !strings.Contains(out, "recorded 2026-11-21; keys moved") {
		t.Errorf("older side:\n%s", out)
	}
	if out := c.ok("show", b.CID); !strings.Contains(out, "supersedes "+a.CID) {
		t.Errorf("newer side:\n%s", out)
	}
	checkGolden(t, "show", "superseded.txt", c.normalize(c.ok("show", a.CID, "--context", "0")))
}

func TestShowEvent(t *testing.T) {
	t.Parallel()
	c, _ := seeded(t)
	checkGolden(t, "show", "event.txt", c.normalize(c.ok("show", "8")))
	checkGolden(t, "show", "event.json", c.normalize(c.ok("show", "8", "--json")))
	_, errs, code := c.run("show", "9999")
	if code != exitError || !strings.Contains(errs, "no event 9999") {
		t.Errorf("unknown event: exit %d %q", code, errs)
	}
	_, errs, code = c.run("show", "mem:abcdef")
	if code != exitError || !strings.Contains(errs, "no memory mem:abcdef") {
		t.Errorf("unknown memory: exit %d %q", code, errs)
	}
}

func TestTimeline(t *testing.T) {
	t.Parallel()
	c, db := seeded(t)
	cid := cidOf(t, db, "Sign JWTs with RS256 keys")
	checkGolden(t, "timeline", "memory.txt", c.normalize(c.ok("timeline", cid, "--window", "2")))
	checkGolden(t, "timeline", "memory.json", c.normalize(c.ok("timeline", cid, "--window", "1", "--json")))
	var got struct {
		Events []struct {
			Type      string `json:"type"`
			Role      string `json:"role"`
			Timestamp string `json:"timestamp"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(c.ok("timeline", cid, "--json")), &got); err != nil {
		t.Fatal(err)
	}
	roles := map[string]int{}
	for i, ev := range got.Events {
		roles[ev.Role]++
		if i > 0 && ev.Timestamp < got.Events[i-1].Timestamp {
			t.Errorf("timeline out of order at %d: %s after %s", i, ev.Timestamp, got.Events[i-1].Timestamp)
		}
	}
	// One quoted message, five on each side at most, and the memory's own
	// extraction, alignment and injection.
	if roles["evidence"] != 1 || roles["context"] < 5 || roles["lifecycle"] != 3 {
		t.Errorf("timeline roles %v", roles)
	}
}

func TestMarkSpan(t *testing.T) {
	t.Parallel()
	text := "first line\n\nWe chose  RS256.\tThen more text follows here."
	s := strings.Index(text, "RS256")
	tests := []struct {
		start, end, width int
		tty               bool
		want              string
	}{
		{s, s + 5, 200, false, "first line We chose »RS256«. Then more text follows here."},
		{s, s + 5, 200, true, "first line We chose \x1b[1;4mRS256\x1b[0m. Then more text follows here."},
		{s, s + 5, 10, false, "…ose »RS256«. The…"},
		{0, 999, 200, false, "first line We chose RS256. Then more text follows here."}, // a span that no longer fits
		{s + 1, s, 200, false, "first line We chose RS256. Then more text follows here."},
	}
	for _, tt := range tests {
		if got := markSpan(text, tt.start, tt.end, tt.width, tt.tty); got != tt.want {
			t.Errorf("markSpan(%d, %d, %d, %v) = %q, want %q", tt.start, tt.end, tt.width, tt.tty, got, tt.want)
		}
	}
	// Multi-byte text is cut on rune boundaries.
	ko := "액세스 토큰은 RS256으로 서명하고 15분 뒤 만료"
	i := strings.Index(ko, "RS256")
	if got := markSpan(ko, i, i+5, 8, false); !strings.Contains(got, "»RS256«") || !isValidUTF8(got) {
		t.Errorf("markSpan on Korean = %q", got)
	}
}

func isValidUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

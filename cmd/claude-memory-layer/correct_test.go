package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestCorrections checks supersede, edit, pin and unpin: each changes what
// it says, records one event, and show lists it.
func TestCorrections(t *testing.T) {
	t.Parallel()
	c, db := seeded(t)
	ctx := context.Background()
	keys := cidOf(t, db, "Keep /health open")
	rs := cidOf(t, db, "Sign JWTs with RS256 keys")

	if out := c.ok("edit", keys, "--title", "Keep /health open without a token", "--type", "decision"); !strings.Contains(out, keys+" edited: Keep /health open without a token") {
		t.Errorf("edit: %q", out)
	}
	if out := c.ok("edit", keys, "--title", "Keep /health open without a token"); !strings.Contains(out, "unchanged") {
		t.Errorf("edit with nothing new: %q", out)
	}
	if _, errs, code := c.run("edit", keys); code != exitUsage || !strings.Contains(errs, "nothing to change") {
		t.Errorf("edit without a flag: exit %d %q", code, errs)
	}
	if _, errs, code := c.run("edit", keys, "--type", "opinion"); code != exitUsage || !strings.Contains(errs, "unknown type") {
		t.Errorf("edit to an unknown type: exit %d %q", code, errs)
	}
	if out := c.ok("pin", keys); !strings.Contains(out, keys+" pinned") {
		t.Errorf("pin: %q", out)
	}
	if out := c.ok("pin", keys); !strings.Contains(out, "already pinned") {
		t.Errorf("pin again: %q", out)
	}
	show := c.ok("show", keys)
	for _, want := range []string{"title:    Keep /health open without a token", "pinned:   yes", "Corrections",
		`edited ` + keys + `: type "constraint" → "decision"; title "Keep /health open; everything`, `→ "Keep /health open without a token"`, "pinned " + keys} {
		if !strings.Contains(show, want) {
			t.Errorf("show lacks %q:\n%s", want, show)
		}
	}
	var j struct {
		Memory struct {
			Pinned      bool `json:"pinned"`
			Corrections []struct {
				Type string `json:"type"`
			} `json:"corrections"`
		} `json:"memory"`
	}
	if err := json.Unmarshal([]byte(c.ok("show", keys, "--json")), &j); err != nil || !j.Memory.Pinned || len(j.Memory.Corrections) != 2 {
		t.Errorf("show --json: pinned %v, %d corrections, %v", j.Memory.Pinned, len(j.Memory.Corrections), err)
	}
	if out := c.ok("unpin", keys); !strings.Contains(out, keys+" unpinned") {
		t.Errorf("unpin: %q", out)
	}
	if show := c.ok("show", keys); strings.Contains(show, "pinned:   yes") || !strings.Contains(show, "unpinned "+keys) {
		t.Errorf("after unpin:\n%s", show)
	}

	if out := c.ok("supersede", rs, keys); !strings.Contains(out, rs+" superseded by "+keys) {
		t.Errorf("supersede: %q", out)
	}
	if out := c.ok("supersede", rs, keys); !strings.Contains(out, "already supersedes") {
		t.Errorf("supersede again: %q", out)
	}
	if _, errs, code := c.run("supersede", rs, rs); code != exitUsage || !strings.Contains(errs, "cannot supersede itself") {
		t.Errorf("supersede itself: exit %d %q", code, errs)
	}
	old, _ := db.EntryByCID(ctx, rs)
	if old.Status != store.StatusSuperseded {
		t.Errorf("status %q after supersede, want superseded", old.Status)
	}
	if show := c.ok("show", rs); !strings.Contains(show, "superseded by "+keys) || !strings.Contains(show, "superseded by hand") {
		t.Errorf("show of the superseded memory:\n%s", show)
	}
	// Forgetting the memory takes its corrections with it: the edit event
	// held its old and new text.
	c.ok("forget", keys, "--yes")
	evs, _ := db.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeEdited, store.TypePinned, store.TypeUnpinned}})
	if len(evs) != 0 {
		t.Errorf("%d correction events survive forget", len(evs))
	}
}

// TestForgetPreviewKept checks that the preview of forgetting one memory
// names the other memories that quote the same words and stay, and how to
// take them too.
func TestForgetPreviewKept(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	printForgetPreview(&b, forgetJSON{Selector: map[string]string{"memory": "mem:aaaaaa"}, Entries: 1, Evidence: 1,
		Kept: []string{"mem:bbbbbb"}, Confirm: confirmCommand(forgetOptions{cid: "mem:aaaaaa"}, store.ForgetSelector{})})
	out := b.String()
	if !strings.Contains(out, "Kept: these memories quote the same words and stay (add --shared to forget them too):\n  mem:bbbbbb") {
		t.Errorf("preview:\n%s", out)
	}
	if got := confirmCommand(forgetOptions{cid: "mem:aaaaaa", shared: true}, store.ForgetSelector{}); got != "claude-memory-layer forget mem:aaaaaa --shared --yes" {
		t.Errorf("confirm command %q", got)
	}
	if _, err := parseForget(&env{}, []string{"--session", "s", "--shared"}); err == nil {
		t.Error("--shared without a memory id: no error")
	}
}

// TestSupersedeContested: supersede on a pair the conflict ledger found
// contradictory settles their conflict, as the dashboard's resolve does;
// before, it printed "already supersedes", exited 0 and changed nothing.
// conflicts lists the open pair before and nothing after.
func TestSupersedeContested(t *testing.T) {
	t.Parallel()
	c, db := seeded(t)
	ctx := context.Background()
	keys := cidOf(t, db, "Keep /health open")
	rs := cidOf(t, db, "Sign JWTs with RS256 keys")
	older, _ := db.EntryByCID(ctx, rs)
	newer, _ := db.EntryByCID(ctx, keys)
	if _, err := db.AddConflict(ctx, store.Conflict{Older: older.ID, Newer: newer.ID, Kind: "contradicts", Reason: "the same setting, two values"},
		store.Event{Type: store.TypeConflict, Project: older.Project, DedupeKey: "test-conflict", SessionID: older.SessionID}); err != nil {
		t.Fatal(err)
	}
	project := []string{"--project", older.Project}
	if out := c.ok(append([]string{"conflicts"}, project...)...); !strings.Contains(out, rs) || !strings.Contains(out, keys) ||
		!strings.Contains(out, "supersede "+rs+" "+keys) || !strings.Contains(out, "1 open conflict") {
		t.Errorf("conflicts before:\n%s", out)
	}
	if out := c.ok("supersede", rs, keys); !strings.Contains(out, rs+" superseded by "+keys) {
		t.Errorf("supersede of a contested pair: %q", out)
	}
	x, _ := db.EntryByCID(ctx, rs)
	y, _ := db.EntryByCID(ctx, keys)
	if x.Status != store.StatusSuperseded || x.SupersededBy != y.ID || y.Status != store.StatusActive {
		t.Errorf("after supersede: %s %s (by %d), %s %s; want superseded by %d, active", rs, x.Status, x.SupersededBy, keys, y.Status, y.ID)
	}
	if out := c.ok(append([]string{"conflicts"}, project...)...); !strings.Contains(out, "no open conflicts") {
		t.Errorf("conflicts after:\n%s", out)
	}
	var j struct {
		Conflicts []any `json:"conflicts"`
	}
	if err := json.Unmarshal([]byte(c.ok(append([]string{"conflicts", "--json"}, project...)...)), &j); err != nil || j.Conflicts == nil || len(j.Conflicts) != 0 {
		t.Errorf("conflicts --json after: %+v %v", j, err)
	}
}

// TestBareMemoryIDs: every command that takes a memory id takes it without
// its "mem:" too, as MCP get does; before, verify, reject, pin, unpin, edit,
// supersede, timeline and forget refused "ab12cd" as not a memory id. A
// message's id is still no memory's.
func TestBareMemoryIDs(t *testing.T) {
	t.Parallel()
	c, db := seeded(t)
	keys := cidOf(t, db, "Keep /health open")
	rs := cidOf(t, db, "Sign JWTs with RS256 keys")
	bk, br := strings.TrimPrefix(keys, "mem:"), strings.TrimPrefix(rs, "mem:")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", bk}, keys + " certified"},
		{[]string{"reject", "[" + bk + "]"}, keys + " rejected"},
		{[]string{"pin", bk}, keys + " pinned"},
		{[]string{"unpin", bk}, keys + " unpinned"},
		{[]string{"edit", bk, "--title", "Keep /health open, always"}, keys + " edited"},
		{[]string{"timeline", br}, rs},
		{[]string{"supersede", br, bk}, rs + " superseded by " + keys},
		{[]string{"forget", bk}, keys},
	} {
		if out := c.ok(tt.args...); !strings.Contains(out, tt.want) {
			t.Errorf("%v: %q lacks %q", tt.args, out, tt.want)
		}
	}
	for _, bad := range []string{"#3", "mem:t2bx", "zz", "ab"} {
		if _, errs, code := c.run("verify", bad); code != exitUsage || !strings.Contains(errs, "memory id") {
			t.Errorf("verify %s: exit %d %q", bad, code, errs)
		}
	}
}

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestCommandsReadTheRecordedSpelling: a command given a Windows project in
// another case than the hooks recorded ("C:\kiln" for "c:\kiln") reads the
// recorded one, as the hooks and the MCP server do; "" (every project) and
// a store not made yet are left alone.
func TestCommandsReadTheRecordedSpelling(t *testing.T) {
	ctx := context.Background()
	te := newTestEnv(t)
	none := `C:\kiln`
	if err := recordedFlag(ctx, te.env, &none); err != nil || none != `C:\kiln` {
		t.Errorf("with no store: %q, %v", none, err)
	}
	db := te.openDB(t)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: "s", Project: `c:\kiln`, Cwd: `c:\kiln`})
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	p, all := `C:\kiln`, ""
	read, err := openReadStore(ctx, te.env, &p, &all)
	if err != nil || read == nil {
		t.Fatalf("openReadStore: %v", err)
	}
	read.Close()
	if p != `c:\kiln` || all != "" {
		t.Errorf("openReadStore set %q and %q, want c:\\kiln and \"\"", p, all)
	}
	q, folder := `C:\kiln`, `C:\KILN`
	if err := recordedFlag(ctx, te.env, &q); err != nil || q != `c:\kiln` {
		t.Errorf("recordedFlag: %q, %v", q, err)
	}
	// A folder's name is spelled as the system reports it.
	if err := recordedFlag(ctx, te.env, &folder); err != nil || folder != `C:\KILN` {
		t.Errorf("recordedFlag: %q, %v", folder, err)
	}
}

// TestImportFilesTheSessionsEventsUnderItsRecordedSpelling: the hooks
// recorded "c:\Users\dev\shop-api" (VS Code); a transcript of the same
// directory run from a terminal ("C:\…") is imported: its session, its
// messages and its memories are filed under "c:\…" (review 337 found the
// first version filing the session there and its contents under "C:\…").
func TestImportFilesTheSessionsEventsUnderItsRecordedSpelling(t *testing.T) {
	ctx := context.Background()
	te := newTestEnv(t)
	const small, big = `c:\Users\dev\shop-api`, `C:\Users\dev\shop-api`
	db := te.openDB(t)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: "hooked", Project: small, Cwd: small})
	}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(needDir(t, fixtureDir), "basic.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.ReplaceAll(string(b), `"cwd":"/home/dev/shop-api"`, `"cwd":"C:\\Users\\dev\\shop-api"`))
	path := filepath.Join(t.TempDir(), "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30.jsonl")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	te.mustRun(t, "import", "--transcript", path)
	s, err := db.Read().Session(ctx, "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30")
	if err != nil {
		t.Fatal(err)
	}
	evs, err := db.Read().Events(ctx, store.EventFilter{})
	if err != nil {
		t.Fatal(err)
	}
	byProject := map[string]int{}
	for _, e := range evs {
		if e.SessionID == s.ID {
			byProject[e.Project]++
		}
	}
	ens, err := db.Read().Entries(ctx, store.EntryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	entries := map[string]int{}
	for _, e := range ens {
		entries[e.Project]++
	}
	if s.Project != small || len(byProject) != 1 || byProject[small] == 0 || entries[big] > 0 {
		t.Errorf("session filed under %q; its events by project %v; memories by project %v", s.Project, byProject, entries)
	}
}

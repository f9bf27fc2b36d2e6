package main

import (
	"context"
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
	q := `C:\KILN`
	if err := recordedFlag(ctx, te.env, &q); err != nil || q != `c:\kiln` {
		t.Errorf("recordedFlag: %q, %v", q, err)
	}
}

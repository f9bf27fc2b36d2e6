package export

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestWriteRestore checks that an export restored into an empty store
// exports the same events, sessions and entries again.
func TestWriteRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := storetest.Open(t)
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	err := src.Update(ctx, func(tx *store.Tx) error {
		if err := tx.TouchSession(ctx, store.Session{ID: "s1", Project: "/p", Cwd: "/p", StartedAt: at}); err != nil {
			return err
		}
		_, err := tx.Append(ctx, store.Event{Time: at, Type: store.TypeUserPrompt, SessionID: "s1", Project: "/p",
			Text: "We use pnpm, not npm.", DedupeKey: "prompt:s1:1"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := src.PutEntry(ctx, store.Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: "Use pnpm",
		ClaimKey: "pnpm", Stage: store.StageCandidate, Created: at}); err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	if err := Write(ctx, src, "", at, &first); err != nil {
		t.Fatal(err)
	}
	dst := storetest.Open(t)
	var warn bytes.Buffer
	sum, err := Restore(ctx, dst, bytes.NewReader(first.Bytes()), &warn)
	if err != nil {
		t.Fatalf("Restore: %v (warnings: %s)", err, warn.String())
	}
	if sum.Events != 1 || sum.Added != 1 || sum.Sessions != 1 || sum.Entries != 1 || sum.FailedLines != 0 {
		t.Fatalf("Restore summary = %+v, want one event, session and entry", sum)
	}
	var second bytes.Buffer
	if err := Write(ctx, dst, "", at, &second); err != nil {
		t.Fatal(err)
	}
	if got, want := second.String(), first.String(); got != want {
		t.Errorf("export after restore:\n%s\nwant:\n%s", got, want)
	}
}

// FuzzRestore feeds a header and then arbitrary lines to Restore: it never
// panics, and a line it cannot read is counted, not an error.
func FuzzRestore(f *testing.F) {
	for _, s := range []string{
		`{"kind":"event","id":1,"ts":"2026-11-20T09:00:00.000Z","type":"user_prompt","session_id":"s","project":"/p","text":"hi","payload":{},"dedupe_key":"k"}`,
		`{"kind":"session","id":"s","project":"/p"}`,
		`{"kind":"entry","cid":"mem:abc","project":"/p","type":"decision","title":"t","claim_key":"k","evidence":[{"event_key":"k","quote":"hi"}]}`,
		`{"kind":"event","payload":"not an object"}`,
		`{"kind":"header","format":"claude-memory-layer-export","version":1}`,
		`{"kind":`, "\x00", strings.Repeat("[", 10000),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		db := storetest.Open(t)
		in := `{"kind":"header","format":"claude-memory-layer-export","version":1,"schema":1}` + "\n" + line + "\n"
		var warn bytes.Buffer
		if _, err := Restore(context.Background(), db, strings.NewReader(in), &warn); err != nil {
			t.Fatalf("Restore(%q): %v", line, err)
		}
	})
}

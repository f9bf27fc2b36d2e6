package handler

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/sjson"
)

// TestPromptSpooled checks that the prompt hook writes nothing to the
// database: the prompt and the record of the memories it injected wait in
// the spool, and the turn's Stop stores them once, a retried prompt hook
// included, with the memory's injection counted once.
func TestPromptSpooled(t *testing.T) {
	if !store.SpoolSupported {
		t.Skip("no spool on this platform")
	}
	h := newHarness(t)
	tp := copyTranscript(t, "basic.jsonl")
	h.run(SessionStart, fixture(t, "session-start.json", tp))
	h.run(UserPromptSubmit(nil), fixture(t, "user-prompt-submit.json", tp))
	h.run(SessionEnd, fixture(t, "session-end.json", tp))

	prompt, _ := sjson.SetBytes(fixture(t, "user-prompt-submit.json", ""), "session_id", "second")
	prompt, _ = sjson.SetBytes(prompt, "prompt_id", "p2")
	prompt, _ = sjson.SetBytes(prompt, "prompt", "How do we sign the JWT tokens, which keys?")
	reply := h.run(UserPromptSubmit(nil), prompt)
	first := h.now
	injected := regexp.MustCompile(`\[(mem:[0-9a-f]+)\]`).FindStringSubmatch(reply)
	if injected == nil {
		t.Fatalf("nothing injected: %q", reply)
	}
	if again := h.run(UserPromptSubmit(nil), prompt); again != reply { // a retry
		t.Errorf("the retried prompt got %q, want %q", again, reply)
	}
	ctx := context.Background()
	stored := func(typ string) int {
		t.Helper()
		db, err := store.Open(ctx, filepath.Join(h.dir, "memory.db"), store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		evs, err := db.Read().Events(ctx, store.EventFilter{SessionID: "second", Types: []string{typ}})
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	if p, i := stored(store.TypeUserPrompt), stored(store.TypeMemoryInjected); p+i != 0 {
		t.Fatalf("before Stop the database holds %d prompts and %d injections of the session, want none", p, i)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "memory.db-spool")); err != nil {
		t.Fatalf("no spool: %v", err)
	}

	stop, _ := sjson.SetBytes(fixture(t, "stop.json", ""), "session_id", "second")
	stop, _ = sjson.SetBytes(stop, "last_assistant_message", "RS256.")
	h.run(Stop, stop)
	if p, i := stored(store.TypeUserPrompt), stored(store.TypeMemoryInjected); p != 1 || i != 1 {
		t.Errorf("after Stop: %d prompts and %d injections, want 1 and 1", p, i)
	}
	e, err := h.db().EntryByCID(ctx, injected[1])
	if err != nil {
		t.Fatal(err)
	}
	if e.InjectCount != 1 || !e.LastInjected.Equal(first) {
		t.Errorf("%s: injected %d times, last at %v; want once, at the first prompt hook's time %v", e.CID, e.InjectCount, e.LastInjected, first)
	}
}

// TestSessionStartSpooled: SessionStart, too, writes nothing to the
// database; the turn's Stop registers the session and stores its start
// mark, once for a retried hook.
func TestSessionStartSpooled(t *testing.T) {
	if !store.SpoolSupported {
		t.Skip("no spool on this platform")
	}
	h := newHarness(t)
	tp := copyTranscript(t, "basic.jsonl")
	start := fixture(t, "session-start.json", tp)
	h.run(SessionStart, start)
	h.run(SessionStart, start) // a retry
	ctx := context.Background()
	ro, err := store.Open(ctx, filepath.Join(h.dir, "memory.db"), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ro.Read().Session(ctx, sid)
	evs, _ := ro.Read().Events(ctx, store.EventFilter{SessionID: sid})
	ro.Close()
	if !errors.Is(err, store.ErrNotFound) || len(evs) != 0 {
		t.Fatalf("after SessionStart the database holds the session (%v) and %d events, want neither", err, len(evs))
	}
	h.run(Stop, fixture(t, "stop.json", tp))
	db := h.db()
	s, err := db.Read().Session(ctx, sid)
	if err != nil || s.Project != "/home/dev/shop-api" || s.TranscriptPath != tp {
		t.Errorf("after Stop the session is %+v, %v", s, err)
	}
	if n := countTypes(h.events(db, sid))[store.TypeSessionStarted]; n != 1 {
		t.Errorf("%d session_started events, want 1", n)
	}
}

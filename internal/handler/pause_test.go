package handler

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestMemoryOffOn: /memory-layer:memory-off stops the session's injection,
// through the real prompt hook, other sessions keep theirs, and
// /memory-layer:memory-on resumes it.
func TestMemoryOffOn(t *testing.T) {
	data := t.TempDir()
	const cwd = "/proj/shop"
	db, err := store.Open(context.Background(), filepath.Join(data, "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	var evs []store.Event
	for i, text := range []string{"Which port does pgbouncer listen on in staging?", "pgbouncer listens on 6432 in staging, in front of the shop database."} {
		typ := store.TypeUserPrompt
		if i == 1 {
			typ = store.TypeAgentResponse
		}
		evs = append(evs, store.Event{Time: at.Add(time.Duration(i) * time.Minute), Type: typ, SessionID: "earlier", Project: cwd, Text: text, DedupeKey: fmt.Sprint("earlier:", i)})
	}
	if err := db.Update(context.Background(), func(tx *store.Tx) error { _, err := tx.Append(context.Background(), evs...); return err }); err != nil {
		t.Fatal(err)
	}
	db.Close()

	prompt := func(session, id, text string) string {
		t.Helper()
		in := fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"UserPromptSubmit","prompt_id":%q,"prompt":%q}`, session, cwd, id, text)
		r := runBinary(t, "user-prompt-submit", data, []byte(in))
		validReply(t, r, "UserPromptSubmit")
		return gjson.Get(r.stdout, "hookSpecificOutput.additionalContext").String()
	}
	const ask = "what port is pgbouncer on in staging?"
	prompt("s1", "p1", "/memory-layer:memory-off")
	if got := prompt("s1", "p2", ask); got != "" {
		t.Errorf("injected after memory-off:\n%s", got)
	}
	if got := prompt("s2", "p1", ask); !strings.Contains(got, "6432") {
		t.Errorf("another session lost its injection:\n%s", got)
	}
	prompt("s1", "p3", "/memory-on")
	if got := prompt("s1", "p4", ask); !strings.Contains(got, "6432") {
		t.Errorf("memory-on did not resume injection:\n%s", got)
	}
}

package capture

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestPromptOnceWithoutPromptID: older Claude Code versions leave prompt_id
// out of the hook input or promptId out of the transcript row. Either way,
// and whichever copy arrives first, the prompt is stored once; a prompt
// typed twice in the transcript stays twice.
func TestPromptOnceWithoutPromptID(t *testing.T) {
	row := func(uuid, pid, text string) string {
		p := ""
		if pid != "" {
			p = `"promptId":"` + pid + `",`
		}
		return `{"type":"user","uuid":"` + uuid + `",` + p + `"sessionId":"s","timestamp":"2026-11-20T09:00:00.000Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	for _, tt := range []struct {
		name          string
		hookID, rowID string
	}{
		{"hook without id", "", "p1"},
		{"row without id", "p1", ""},
		{"neither has one", "", ""},
		{"both have it", "p1", "p1"},
	} {
		for _, hooksFirst := range []bool{true, false} {
			t.Run(tt.name, func(t *testing.T) {
				r := recorder(t)
				ctx := context.Background()
				p := filepath.Join(t.TempDir(), "t.jsonl")
				os.WriteFile(p, []byte(row("u1", tt.rowID, "deploy the ledger on port 7443")+row("u2", "", "continue")+row("u3", "", "continue")), 0o600)
				r.DB.Update(ctx, func(tx *store.Tx) error {
					return tx.TouchSession(ctx, store.Session{ID: "s", Project: "/p", TranscriptPath: p})
				})
				now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
				hook := func() {
					hookPrompt(t, r, Session{ID: "s", Project: "/p"}, tt.hookID, "deploy the ledger on port 7443", now)
				}
				if hooksFirst {
					hook()
				}
				sess, _ := r.DB.Read().Session(ctx, "s")
				if _, err := r.Ingest(ctx, sess, true); err != nil {
					t.Fatal(err)
				}
				if !hooksFirst {
					hook()
				}
				evs, _ := r.DB.Read().Events(ctx, store.EventFilter{SessionID: "s"})
				var texts []string
				for _, e := range evs {
					texts = append(texts, e.Text)
				}
				if got, want := strings.Join(texts, "|"), "deploy the ledger on port 7443|continue|continue"; got != want {
					t.Errorf("hooks first=%v: stored %q, want %q", hooksFirst, got, want)
				}
			})
		}
	}
}

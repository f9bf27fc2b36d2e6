package handler

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/filelock"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestForgetHoldsWhileSpoolWaits is issue 29's first reproduction, with the
// real binaries: a prompt naming a secret waits in the spool when the user
// runs `forget --match SECRET --yes`, and the spool cannot be stored then,
// either because fold files left by crashed writers add up to more than one
// fold takes, or because an appender holds the spool's lock past the fold's
// wait. The turn's Stop then folds the spool and re-reads the transcript,
// which holds the prompt too. Before, forget reported success and Stop
// stored the secret again from both.
func TestForgetHoldsWhileSpoolWaits(t *testing.T) {
	if !store.SpoolSupported {
		t.Skip("no spool on this platform")
	}
	const secret = "quillfeather42"
	binary(t, "stop") // built before any hook's deadline starts
	for _, tt := range []struct {
		name  string
		block func(t *testing.T, data string) (release func())
	}{
		{"fold files left by crashed writers", func(t *testing.T, data string) func() {
			backlog(t, data, 5, 900<<10)
			return func() {}
		}},
		{"an appender holding the spool lock", func(t *testing.T, data string) func() {
			f, err := os.OpenFile(filepath.Join(data, "memory.db-spool"), os.O_RDONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := filelock.TryLock(f, false); err != nil {
				t.Fatal(err)
			}
			return func() { filelock.Unlock(f); f.Close() }
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := t.TempDir()
			tp := filepath.Join(t.TempDir(), "f.jsonl")
			prompt := "Remember that the deploy key is " + secret + " for staging."
			answer := "Noted: the deploy key is " + secret + "."
			rows := fmt.Sprintf(`{"type":"user","uuid":"u1","promptId":"p1","sessionId":"f","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":%q}}`+"\n"+
				`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"f","timestamp":"2026-11-20T10:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":%q}]}}`+"\n", prompt, answer)
			if err := os.WriteFile(tp, []byte(rows), 0o600); err != nil {
				t.Fatal(err)
			}
			in := func(event, extra string) []byte {
				return []byte(fmt.Sprintf(`{"session_id":"f","cwd":"/p","transcript_path":%q,"hook_event_name":%q,"prompt_id":"p1"%s}`, tp, event, extra))
			}
			validReply(t, runBinary(t, "session-start", data, in("SessionStart", "")), "SessionStart")
			validReply(t, runBinary(t, "user-prompt-submit", data, in("UserPromptSubmit", fmt.Sprintf(`,"prompt":%q`, prompt))), "UserPromptSubmit")
			if !fileHolds(t, filepath.Join(data, "memory.db-spool"), secret) {
				t.Fatal("the prompt is not in the spool")
			}

			release := tt.block(t, data)
			forget := exec.Command(binary(t, "claude-memory-layer"), "forget", "--match", secret, "--yes")
			forget.Env = []string{"CLAUDE_MEMORY_DIR=" + data, "HOME=" + data, "PATH=" + os.Getenv("PATH")}
			out, err := forget.CombinedOutput()
			release()
			waits := spoolHolds(t, data, secret)
			if err == nil && waits {
				t.Errorf("forget reported success while the spool still holds %q:\n%s", secret, out)
			}

			validReply(t, runBinary(t, "stop", data, in("Stop", fmt.Sprintf(`,"last_assistant_message":%q`, answer))), "Stop")
			validReply(t, runBinary(t, "session-end", data, in("SessionEnd", `,"reason":"other"`)), "SessionEnd")
			db, err := store.Open(context.Background(), filepath.Join(data, "memory.db"), store.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			evs, err := db.Read().Events(context.Background(), store.EventFilter{SessionID: "f"})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				if strings.Contains(e.Text, secret) || strings.Contains(string(e.Payload), secret) {
					t.Errorf("forgotten %q stored again after Stop and SessionEnd: %s event %q (forget said: %s)", secret, e.Type, e.Text, out)
				}
			}
			if len(evs) == 0 {
				t.Error("the session stored nothing at all: the test proves nothing")
			}
		})
	}
}

// backlog leaves n fold files of about size bytes each in data, as writers
// that crashed before they committed would: another session's tool calls.
func backlog(t *testing.T, data string, n, size int) {
	t.Helper()
	s := store.Session{ID: "filler", Project: "/other", Cwd: "/other", StartedAt: time.Now()}
	text := strings.Repeat("filler output line\n", 500)
	for i := range n {
		scratch := filepath.Join(t.TempDir(), "memory.db")
		for j := 0; j*len(text) < size; j++ {
			ev := store.Event{Time: time.Now(), Type: store.TypeToolObservation, SessionID: s.ID, Text: text,
				DedupeKey: fmt.Sprintf("tool:filler:%d:%d", i, j)}
			if err := store.Spool(context.Background(), scratch, s, ev); err != nil {
				t.Fatal(err)
			}
		}
		// Named as a fold's move names them, older than any fold to come.
		if err := os.Rename(scratch+"-spool", filepath.Join(data, fmt.Sprintf("memory.db-spool-fold-%d-1", 1000+i))); err != nil {
			t.Fatal(err)
		}
	}
}

// spoolHolds reports whether the spool or a fold file in data holds s.
func spoolHolds(t *testing.T, data, s string) bool {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(data, "memory.db-spool*"))
	for _, name := range names {
		if fileHolds(t, name, s) {
			return true
		}
	}
	return false
}

func fileHolds(t *testing.T, name, s string) bool {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Contains(string(b), s)
}

package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

// hookPrompt stores a prompt the way the prompt hook's spool record is
// stored when folded in.
func hookPrompt(t *testing.T, r *Recorder, s Session, promptID, prompt string, at time.Time) {
	t.Helper()
	ev, ok, err := r.PromptEvent(context.Background(), s, promptID, prompt, at)
	if err == nil && ok {
		_, err = r.append(context.Background(), ev)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// hookTool stores a tool call the way PostToolUse's spool record is stored
// when folded in.
func hookTool(t *testing.T, r *Recorder, s Session, promptID, toolUseID string, o observation.Observation, at time.Time) {
	t.Helper()
	if ev, ok := ToolEvent(s, promptID, toolUseID, o, at); ok {
		if _, err := r.append(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
}

func recorder(t *testing.T) *Recorder {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "m.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &Recorder{DB: db, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

const rows = `{"type":"user","uuid":"u1","promptId":"p1","sessionId":"s","timestamp":"2026-11-20T09:00:00.000Z","message":{"role":"user","content":"Use RS256 <private>pw=hunter2</private>"}}
{"type":"assistant","uuid":"a1","sessionId":"s","timestamp":"2026-11-20T09:00:01.000Z","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"npm test"}}]}}
{"type":"user","uuid":"r1","sessionId":"s","timestamp":"2026-11-20T09:00:02.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"PASS"}]}}
{"type":"assistant","uuid":"a2","sessionId":"s","timestamp":"2026-11-20T09:00:03.000Z","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Done: RS256 it is."}],"stop_reason":"end_turn"}}
`

// Hook copies and transcript rows of the same prompt, tool call and answer
// are stored once, whichever arrives first, and the transcript's copies carry
// their row uuids and timestamps.
func TestHookAndTranscriptCopiesMeet(t *testing.T) {
	for _, hooksFirst := range []bool{true, false} {
		r := recorder(t)
		ctx := context.Background()
		p := filepath.Join(t.TempDir(), "t.jsonl")
		os.WriteFile(p, []byte(rows), 0o600)
		r.DB.Update(ctx, func(tx *store.Tx) error {
			return tx.TouchSession(ctx, store.Session{ID: "s", Project: "/p", TranscriptPath: p})
		})
		sess, _ := r.DB.Read().Session(ctx, "s")
		s := Session{ID: "s", Project: "/p"}
		now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
		hooks := func() {
			hookPrompt(t, r, s, "p1", "Use RS256 <private>pw=hunter2</private>", now)
			hookTool(t, r, s, "p1", "t1", observation.Build("Bash", gjson.Parse(`{"command":"npm test"}`), "PASS", false), now)
			r.StopAnswer(ctx, s, "p1", "Done:  RS256 it is.\n", now)
		}
		if hooksFirst {
			hooks()
		}
		res, err := r.Ingest(ctx, sess, true)
		if err != nil {
			t.Fatal(err)
		}
		if !hooksFirst {
			hooks()
		}
		evs, _ := r.DB.Read().Events(ctx, store.EventFilter{SessionID: "s"})
		if len(evs) != 3 {
			t.Fatalf("hooks first=%v: %d events stored, want 3 (ingest %+v)", hooksFirst, len(evs), res)
		}
		for _, e := range evs {
			if strings.Contains(e.Text, "hunter2") {
				t.Errorf("private text stored: %q", e.Text)
			}
			if !hooksFirst && e.SourceUUID == "" {
				t.Errorf("transcript copy without uuid: %+v", e)
			}
		}
		if s2, _ := r.DB.Read().Session(ctx, "s"); s2.Offset != int64(len(rows)) {
			t.Errorf("offset %d, want %d", s2.Offset, len(rows))
		}
		// Ingesting again adds nothing.
		sess, _ = r.DB.Read().Session(ctx, "s")
		if res, _ := r.Ingest(ctx, sess, true); res.Added != 0 {
			t.Errorf("re-ingest added %d", res.Added)
		}
	}
}

func TestIngestMissingOrShrunkTranscript(t *testing.T) {
	r := recorder(t)
	ctx := context.Background()
	if res, err := r.Ingest(ctx, store.Session{ID: "s", TranscriptPath: "/nonexistent.jsonl"}, true); err != nil || res.Added != 0 {
		t.Fatalf("missing transcript: %+v %v", res, err)
	}
	p := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(p, []byte(rows), 0o600)
	r.DB.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: "s", Project: "/p", TranscriptPath: p})
	})
	r.DB.Update(ctx, func(tx *store.Tx) error { return tx.AdvanceOffset(ctx, "s", 0, 1<<20) }) // further than the file: it was replaced
	sess, _ := r.DB.Read().Session(ctx, "s")
	if res, err := r.Ingest(ctx, sess, true); err != nil || res.Added != 3 {
		t.Fatalf("shrunk transcript re-read: %+v %v", res, err)
	}
}

func TestCleanCut(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("é", MaxText) + "<private>tail</private>"
	got, truncated := clean(big)
	if !truncated || len(got) > MaxText || strings.Contains(got, "tail") || !utf8.ValidString(got) {
		t.Fatalf("clean: %d bytes, truncated %v", len(got), truncated)
	}
	if got, _ := clean("bad \xff utf8"); got != "bad \uFFFD utf8" {
		t.Fatalf("clean invalid UTF-8: %q", got)
	}
}

// A secret across the MaxText cut, or across the filter window's end, must
// not leave its head in the stored text.
func TestCleanSecretAcrossCut(t *testing.T) {
	t.Parallel()
	const key = "AKIAIOSFODNN7EXAMPLE"
	for name, at := range map[string]int{"MaxText": MaxText, "window": filterWindow} {
		t.Run(name, func(t *testing.T) {
			pad := strings.Repeat("x ", (at-len(key)/2)/2)
			got, truncated := clean(pad + key + " and more text after it")
			if !truncated || len(got) > MaxText {
				t.Fatalf("%d bytes, truncated %v", len(got), truncated)
			}
			if strings.Contains(got, key[:len(key)/2]) {
				t.Fatalf("head of the key stored: %q", got[len(got)-40:])
			}
		})
	}
}

// TestPrivateOpenedPastWindow checks that a private section opened in a
// prompt past the filter window's end (a long paste, then <private>) still
// hides the next prompt: whether a prompt leaves one open is read from the
// whole prompt, not only from the part the filter read.
func TestPrivateOpenedPastWindow(t *testing.T) {
	t.Parallel()
	r := recorder(t)
	s := Session{ID: "s", Project: "/p"}
	hookPrompt(t, r, s, "p0", strings.Repeat("log line\n", filterWindow/9+100)+"and now <private>first-Secret-1", at)
	hookPrompt(t, r, s, "p1", "middle-Secret-2 still private", at.Add(time.Second))
	evs, err := r.DB.Read().Events(context.Background(), store.EventFilter{SessionID: "s", Types: []string{store.TypeUserPrompt}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if strings.Contains(ev.Text, "Secret-") {
			t.Errorf("stored %q", ev.Text[max(len(ev.Text)-80, 0):])
		}
	}
}

// TestPrivateClosedPastWindow: a prompt that closes, past the filter's
// window, a private section an earlier prompt opened unseen keeps its head
// private, as the filter would with the whole prompt in view (review 162).
func TestPrivateClosedPastWindow(t *testing.T) {
	t.Parallel()
	r := recorder(t)
	s := Session{ID: "s", Project: "/p"}
	hookPrompt(t, r, s, "p0", "my SSN head-Secret-1 "+strings.Repeat("log line\n", filterWindow/9+100)+"</private> now public", at)
	evs, err := r.DB.Read().Events(context.Background(), store.EventFilter{SessionID: "s", Types: []string{store.TypeUserPrompt}})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 {
		t.Fatalf("stored %d prompts", len(evs))
	}
	if strings.Contains(evs[0].Text, "Secret-") {
		t.Errorf("stored %q", evs[0].Text[:min(len(evs[0].Text), 80)])
	}
}

// TestPrivateAcrossPrompts checks that a private section opened in one
// prompt and closed two prompts later hides the prompt in between and the
// closing prompt's first part, through the hook and through a transcript.
func TestPrivateAcrossPrompts(t *testing.T) {
	prompts := []string{"keep this <private>first-Secret-1", "middle-Secret-2 still private", "last-Secret-3 </private> and this stays"}
	check := func(t *testing.T, r *Recorder, sid string) {
		evs, err := r.DB.Read().Events(context.Background(), store.EventFilter{SessionID: sid, Types: []string{store.TypeUserPrompt}})
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, ev := range evs {
			texts = append(texts, ev.Text)
			if strings.Contains(ev.Text, "Secret-") {
				t.Errorf("stored %q", ev.Text)
			}
		}
		if all := strings.Join(texts, "|"); !strings.Contains(all, "keep this") || !strings.Contains(all, "and this stays") || len(evs) != 3 {
			t.Errorf("stored %q; want the public parts kept", texts)
		}
	}
	t.Run("hook", func(t *testing.T) {
		r := recorder(t)
		for i, p := range prompts {
			hookPrompt(t, r, Session{ID: "s", Project: "/p"}, fmt.Sprint("p", i), p, at)
		}
		check(t, r, "s")
	})
	// UserPromptSubmit spools its prompt, and an interrupted turn has no
	// Stop to store it: the next prompt reads the spool.
	t.Run("spooled", func(t *testing.T) {
		if !store.SpoolSupported {
			t.Skip("no spool on this platform")
		}
		r := recorder(t)
		ctx := context.Background()
		for i, p := range prompts {
			ev, ok, err := r.PromptEvent(ctx, Session{ID: "s", Project: "/p"}, fmt.Sprint("p", i), p, at.Add(time.Duration(i)*time.Second))
			if err != nil || !ok {
				t.Fatalf("prompt %d: %v, %v", i, ok, err)
			}
			if err := store.Spool(ctx, r.DB.Path(), store.Session{ID: "s", Project: "/p", Cwd: "/p"}, ev); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.DB.Update(ctx, func(*store.Tx) error { return nil }); err != nil { // folds the spool
			t.Fatal(err)
		}
		check(t, r, "s")
	})
	// A fold moves the spooled prompt to a fold file and then into the
	// database while the next prompt's hook looks: it must find it in one
	// of the three.
	t.Run("while folding", func(t *testing.T) {
		if !store.SpoolSupported {
			t.Skip("no spool on this platform")
		}
		ctx := context.Background()
		s := Session{ID: "s", Project: "/p"}
		for round := range 40 {
			r := recorder(t)
			hookPrompt(t, r, s, "p0", "hello", at)
			// Other sessions' tool calls, so that the fold takes a while.
			for i := range 50 {
				ev := store.Event{Time: at, Type: store.TypeToolObservation, SessionID: "o", Text: fmt.Sprint("filler ", i), DedupeKey: fmt.Sprint("tool:o:", i)}
				if err := store.Spool(ctx, r.DB.Path(), store.Session{ID: "o", Project: "/p", Cwd: "/p"}, ev); err != nil {
					t.Fatal(err)
				}
			}
			ev, _, err := r.PromptEvent(ctx, s, "p1", prompts[0], at.Add(time.Second))
			if err != nil {
				t.Fatal(err)
			}
			if err := store.Spool(ctx, r.DB.Path(), store.Session{ID: "s", Project: "/p", Cwd: "/p"}, ev); err != nil {
				t.Fatal(err)
			}
			folded := make(chan error)
			go func() { folded <- r.DB.Fold(ctx) }()
			for done := false; !done; {
				select {
				case err := <-folded:
					if err != nil {
						t.Fatal(err)
					}
					done = true
				default:
				}
				if open, _, err := r.privateOpen(ctx, "s"); err != nil || !open {
					t.Fatalf("round %d: the open private section was not found while folding (%v)", round, err)
				}
			}
		}
	})
	t.Run("transcript", func(t *testing.T) {
		r := recorder(t)
		var rows strings.Builder
		for i, p := range prompts {
			b, _ := json.Marshal(map[string]any{"type": "user", "uuid": fmt.Sprint("u", i), "promptId": fmt.Sprint("p", i), "sessionId": "s",
				"timestamp": "2026-11-20T09:00:0" + fmt.Sprint(i) + ".000Z", "message": map[string]any{"role": "user", "content": p}})
			rows.Write(b)
			rows.WriteString("\n")
		}
		path := filepath.Join(t.TempDir(), "t.jsonl")
		os.WriteFile(path, []byte(rows.String()), 0o600)
		ctx := context.Background()
		r.DB.Update(ctx, func(tx *store.Tx) error {
			return tx.TouchSession(ctx, store.Session{ID: "s", Project: "/p", TranscriptPath: path})
		})
		sess, _ := r.DB.Read().Session(ctx, "s")
		if _, err := r.Ingest(ctx, sess, true); err != nil {
			t.Fatal(err)
		}
		check(t, r, "s")
	})
}

// TestShrunkTranscriptGrowsAgain: a transcript replaced by a shorter one
// is read again from its start, and the offset goes back with it. Before,
// the offset never moved back: once the new file grew past the old length,
// the next read started inside it, and every prompt between where the
// re-read stopped and the old length was lost.
func TestShrunkTranscriptGrowsAgain(t *testing.T) {
	r := recorder(t)
	ctx := context.Background()
	prompts := func(from, to int, word string) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, `{"type":"user","uuid":"%s%d","promptId":"%s%d","sessionId":"s","timestamp":"2026-11-20T09:00:00.000Z","message":{"role":"user","content":"%s prompt %d"}}`+"\n", word, i, word, i, word, i)
		}
		return b.String()
	}
	p := filepath.Join(t.TempDir(), "t.jsonl")
	os.WriteFile(p, []byte(prompts(0, 20, "old")), 0o600)
	r.DB.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: "s", Project: "/p", TranscriptPath: p})
	})
	ingest := func() {
		t.Helper()
		sess, _ := r.DB.Read().Session(ctx, "s")
		if _, err := r.Ingest(ctx, sess, true); err != nil {
			t.Fatal(err)
		}
	}
	ingest()
	os.WriteFile(p, []byte(prompts(0, 3, "new")), 0o600)
	ingest()
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(prompts(3, 40, "new"))
	f.Close()
	ingest()
	evs, _ := r.DB.Read().Events(ctx, store.EventFilter{SessionID: "s"})
	var missing []string
	for i := range 40 {
		want := fmt.Sprintf("new prompt %d", i)
		if !slices.ContainsFunc(evs, func(e store.Event) bool { return e.Text == want }) {
			missing = append(missing, want)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d of 40 prompts of the replaced transcript not stored: %v", len(missing), missing)
	}
}

// TestEndIsOneTransaction: an end whose session update fails stores no
// mark either, so that the worker SessionEnd hands the end to (which marks
// it under a key of its own) records exactly one end. Before, the mark
// stayed and the worker's was a second.
func TestEndIsOneTransaction(t *testing.T) {
	r := recorder(t)
	ctx := context.Background()
	if err := r.DB.Update(ctx, func(tx *store.Tx) error { return tx.TouchSession(ctx, store.Session{ID: "s", Project: "/p"}) }); err != nil {
		t.Fatal(err)
	}
	if _, err := r.DB.SQL().ExecContext(ctx, `CREATE TRIGGER refuse_end BEFORE UPDATE OF ended_at ON sessions
		BEGIN SELECT RAISE(ABORT, 'the end refused'); END`); err != nil {
		t.Fatal(err)
	}
	s := Session{ID: "s", Project: "/p"}
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	if err := r.End(ctx, s, "other", []byte(`{"hook_event_name":"SessionEnd"}`), at); err == nil {
		t.Fatal("End succeeded although the session's update was refused")
	}
	ended := func() []store.Event {
		t.Helper()
		evs, err := r.DB.Read().Events(ctx, store.EventFilter{SessionID: "s", Types: []string{store.TypeSessionEnded}})
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	if got := ended(); len(got) != 0 {
		t.Fatalf("a refused end left %d session_ended marks, want 0", len(got))
	}
	if _, err := r.DB.SQL().ExecContext(ctx, `DROP TRIGGER refuse_end`); err != nil {
		t.Fatal(err)
	}
	// The worker's retry, keyed by its own raw input.
	if err := r.End(ctx, s, "other", []byte("process --ended other"), at); err != nil {
		t.Fatal(err)
	}
	got := ended()
	if len(got) != 1 {
		t.Fatalf("%d session_ended marks after the retry, want 1", len(got))
	}
	sess, err := r.DB.Read().Session(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if !sess.EndedAt.Equal(at) || !got[0].Time.Equal(at) || sess.EndReason != "other" {
		t.Errorf("ended at %v (%q), marked at %v; want both at %v", sess.EndedAt, sess.EndReason, got[0].Time, at)
	}
	// A re-run of the same end adds nothing (Mark's dedupe).
	if err := r.End(ctx, s, "other", []byte("process --ended other"), at); err != nil {
		t.Fatal(err)
	}
	if got := ended(); len(got) != 1 {
		t.Errorf("%d session_ended marks after a re-run, want 1", len(got))
	}
}

// TestToolEventMasksCookieInReadFile checks the stored event of a Read of
// a saved browser state, shown as Read shows it ("     N→" before each
// line): its session cookie is masked.
func TestToolEventMasksCookieInReadFile(t *testing.T) {
	t.Parallel()
	const secret = "Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa"
	out := "     1→{\n     2→  \"cookies\": [\n     3→    {\n     4→      \"name\": \"sessionid\",\n     5→      \"value\": \"" + secret + "\",\n     6→      \"domain\": \"x.test\"\n     7→    }\n     8→  ]\n     9→}"
	o := observation.Build("Read", gjson.Parse(`{"file_path":"/app/e2e/.auth/user.json"}`), out, false)
	ev, ok := ToolEvent(Session{ID: "s", Project: "/p"}, "p1", "t1", o, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if !ok {
		t.Fatal("ToolEvent: nothing stored")
	}
	if strings.Contains(ev.Text, secret) || strings.Contains(string(ev.Payload), secret) || !strings.Contains(ev.Text, "[REDACTED:cookie]") {
		t.Errorf("stored event keeps the cookie:\n%s\n%s", ev.Text, ev.Payload)
	}
}

// TestShellModeCommands: the output of commands the user ran in shell mode
// ("!cmd") is stored as a Bash call of that command, one event per command;
// one run inside a private section is not stored, as the prompt is not.
func TestShellModeCommands(t *testing.T) {
	t.Parallel()
	const shell = `{"type":"user","uuid":"u1","promptId":"p1","sessionId":"s","timestamp":"2026-11-20T09:00:00.000Z","message":{"role":"user","content":"<bash-input>bd onboard</bash-input>"}}
{"type":"user","uuid":"u2","sessionId":"s","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"user","content":"<bash-stdout></bash-stdout><bash-stderr>Error: required config key missing: kiln_prefix</bash-stderr>"}}
{"type":"user","uuid":"u3","promptId":"p3","sessionId":"s","timestamp":"2026-11-20T09:00:02.000Z","message":{"role":"user","content":"<bash-input>bd version</bash-input>"}}
{"type":"user","uuid":"u4","sessionId":"s","timestamp":"2026-11-20T09:00:03.000Z","message":{"role":"user","content":"<bash-stdout>bd 0.9.2</bash-stdout><bash-stderr></bash-stderr>"}}
{"type":"user","uuid":"u5","promptId":"p5","sessionId":"s","timestamp":"2026-11-20T09:00:04.000Z","message":{"role":"user","content":"from here on <private>keep this out"}}
{"type":"user","uuid":"u6","promptId":"p6","sessionId":"s","timestamp":"2026-11-20T09:00:05.000Z","message":{"role":"user","content":"<bash-input>cat token.txt</bash-input>"}}
{"type":"user","uuid":"u7","sessionId":"s","timestamp":"2026-11-20T09:00:06.000Z","message":{"role":"user","content":"<bash-stdout>Kiln-Secret-7</bash-stdout>"}}
`
	r := recorder(t)
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(p, []byte(shell), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := r.DB.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: "s", Project: "/p", TranscriptPath: p})
	}); err != nil {
		t.Fatal(err)
	}
	sess, _ := r.DB.Read().Session(ctx, "s")
	if _, err := r.Ingest(ctx, sess, true); err != nil {
		t.Fatal(err)
	}
	evs, err := r.DB.Read().Events(ctx, store.EventFilter{SessionID: "s", Types: []string{store.TypeToolObservation}})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, e := range evs {
		texts = append(texts, e.Text)
	}
	want := []string{"Bash: bd onboard\nError: required config key missing: kiln_prefix", "Bash: bd version\nbd 0.9.2"}
	if !slices.Equal(texts, want) {
		t.Errorf("stored %q, want %q", texts, want)
	}
}

package capture

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

// corpusLine is one line of the privacy package's secrets corpus: the text
// with its « » marks removed, and the secrets they marked.
type corpusLine struct {
	num     int
	text    string
	secrets []string
}

func readSecretsCorpus(t *testing.T) []corpusLine {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "privacy", "testdata", "secrets.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	for num := 1; sc.Scan(); num++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		cl := corpusLine{num: num}
		rest := strings.ReplaceAll(line, "⏎", "\n")
		for {
			i := strings.Index(rest, "«")
			if i < 0 {
				cl.text += rest
				break
			}
			j := strings.Index(rest[i:], "»")
			if j < 0 {
				t.Fatalf("secrets.txt:%d: « without »", num)
			}
			cl.text += rest[:i] + rest[i+len("«"):i+j]
			cl.secrets = append(cl.secrets, rest[i+len("«"):i+j])
			rest = rest[i+j+len("»"):]
		}
		out = append(out, cl)
	}
	return out
}

// ingestPaths are the ways a text reaches the store through capture, each
// storing the corpus line text in session sid.
var ingestPaths = []struct {
	name  string
	store func(t *testing.T, r *Recorder, sid, text string)
}{
	{"prompt", func(t *testing.T, r *Recorder, sid, text string) {
		hookPrompt(t, r, Session{ID: sid, Project: "/p"}, "p1", "Remember this for the deploy:\n"+text, at)
	}},
	{"answer", func(t *testing.T, r *Recorder, sid, text string) {
		r.StopAnswer(context.Background(), Session{ID: sid, Project: "/p"}, "p1", "Noted. I'll keep it out of git:\n"+text, at)
	}},
	{"tool input", func(t *testing.T, r *Recorder, sid, text string) {
		in, _ := json.Marshal(map[string]string{"command": text})
		hookTool(t, r, Session{ID: sid, Project: "/p"}, "", "t1", observation.Build("Bash", gjson.ParseBytes(in), "ok", false), at)
		in, _ = json.Marshal(map[string]string{"file_path": "/p/.env", "content": text})
		hookTool(t, r, Session{ID: sid, Project: "/p"}, "", "t2", observation.Build("Write", gjson.ParseBytes(in), "", false), at)
	}},
	{"tool output", func(t *testing.T, r *Recorder, sid, text string) {
		// Long enough to be cut: the line lands in the kept tail, whose
		// context the filter must have seen before the cut.
		out := strings.Repeat("compiling module ... ok\n", 60) + text + "\n" + strings.Repeat(".", 120)
		hookTool(t, r, Session{ID: sid, Project: "/p"}, "", "t1", observation.Build("Read", gjson.Parse(`{"file_path":"/p/.env"}`), out, false), at)
	}},
	{"transcript", func(t *testing.T, r *Recorder, sid, text string) { ingestTranscript(t, r, sid, text, false) }},
	{"session end", func(t *testing.T, r *Recorder, sid, text string) { ingestTranscript(t, r, sid, text, true) }},
}

var at = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

// ingestTranscript writes a transcript whose prompt, tool call, tool result
// and answer each carry text, and ingests it live or at session end.
func ingestTranscript(t *testing.T, r *Recorder, sid, text string, final bool) {
	t.Helper()
	row := func(v map[string]any) string {
		v["sessionId"], v["timestamp"] = sid, "2026-11-20T09:00:00.000Z"
		b, _ := json.Marshal(v)
		return string(b) + "\n"
	}
	msg := func(role string, content any) map[string]any { return map[string]any{"role": role, "content": content} }
	rows := row(map[string]any{"type": "user", "uuid": "u1", "promptId": "p1", "message": msg("user", "Remember:\n"+text)}) +
		row(map[string]any{"type": "assistant", "uuid": "a1", "message": map[string]any{"id": "m1", "role": "assistant",
			"content": []any{map[string]any{"type": "tool_use", "id": "t1", "name": "Bash", "input": map[string]any{"command": text}}}}}) +
		row(map[string]any{"type": "user", "uuid": "r1", "message": msg("user", []any{map[string]any{"type": "tool_result", "tool_use_id": "t1",
			"content": strings.Repeat("line of output\n", 80) + text + "\n" + strings.Repeat(".", 100)}})}) +
		row(map[string]any{"type": "assistant", "uuid": "a2", "message": map[string]any{"id": "m2", "role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": "Stored in the vault:\n" + text}}, "stop_reason": "end_turn"}})
	p := filepath.Join(t.TempDir(), sid+".jsonl")
	if err := os.WriteFile(p, []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := r.DB.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: sid, Project: "/p", TranscriptPath: p})
	}); err != nil {
		t.Fatal(err)
	}
	sess, err := r.DB.Read().Session(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Ingest(ctx, sess, final); err != nil {
		t.Fatal(err)
	}
}

// TestCorpusNeverStored sends every line of the secrets corpus through
// every capture ingest path and checks that no secret is stored, in an
// event's text or its payload. It logs the count per path.
func TestCorpusNeverStored(t *testing.T) {
	t.Parallel()
	lines := readSecretsCorpus(t)
	if len(lines) < 100 {
		t.Fatalf("the corpus has %d lines, want at least 100", len(lines))
	}
	r := recorder(t)
	ctx := context.Background()
	var report []string
	for _, path := range ingestPaths {
		stored := 0
		for _, cl := range lines {
			sid := fmt.Sprintf("%s-%d", strings.ReplaceAll(path.name, " ", "-"), cl.num)
			path.store(t, r, sid, cl.text)
			evs, err := r.DB.Read().Events(ctx, store.EventFilter{SessionID: sid})
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) == 0 {
				t.Fatalf("%s: secrets.txt:%d stored nothing at all", path.name, cl.num)
			}
			leaked := false
			for _, ev := range evs {
				for _, s := range cl.secrets {
					if strings.Contains(ev.Text, s) || strings.Contains(string(ev.Payload), s) || strings.Contains(string(ev.Payload), jsonQuoted(s)) {
						t.Errorf("%s: secrets.txt:%d: %q stored in %s event %q", path.name, cl.num, s, ev.Type, ev.Text)
						leaked = true
					}
				}
			}
			if leaked {
				stored++
			}
		}
		report = append(report, fmt.Sprintf("%-12s %d/%d stored", path.name, stored, len(lines)))
	}
	sort.Strings(report)
	t.Logf("secrets corpus per ingest path:\n%s", strings.Join(report, "\n"))
}

// jsonQuoted is s as it appears inside a JSON string.
func jsonQuoted(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

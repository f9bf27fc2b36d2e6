package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestRealClientDigest: a session of the project held 40 days ago (a real
// Claude Code session, its transcript dated back and imported) gets a digest
// from the background worker that the next session's end starts; every
// quote of the digest is found word for word in a stored prompt or tool
// output of the old session; and a later prompt about that work is given
// the digest.
func TestRealClientDigest(t *testing.T) {
	w := newWorld(t)
	const (
		decided = "For the billing exporter we decided to write Parquet files partitioned by invoice month."
		todo    = "TODO: add a retention policy for the billing exporter archive next week."
		ask     = "Remind me what we did on the billing exporter and its Parquet files."
	)
	// The old session runs against a data directory of its own: the
	// world's store gets it only through the import of its dated transcript.
	old := w.session("old", []string{"CLAUDE_MEMORY_DIR=" + filepath.Join(w.work, "scratch")}, decided, todo)
	sid := strings.TrimSpace(readFile(t, filepath.Join(old, "session_id")))
	dated := filepath.Join(w.work, "dated", sid+".jsonl")
	backdate(t, filepath.Join(old, "transcripts", sid+".jsonl"), dated, -40*24*time.Hour)
	w.cli("import", "--transcript", dated)

	// A session ends: SessionEnd processes it in the hook and starts the
	// digest worker for the old session.
	w.session("s1", nil, "Summarise the README of this project in one line.")
	var digest entryJSON
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		var got entriesOut
		if err := json.Unmarshal(w.cli("entries", "--all-projects", "--type", "digest", "--json"), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Entries) > 0 {
			if len(got.Entries) > 1 {
				t.Fatalf("%d digests, want the old session's only: %+v", len(got.Entries), got.Entries)
			}
			digest = got.Entries[0]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no digest was built; log:\n%s", readFile(t, filepath.Join(w.dataDir, "claude-memory-layer.log")))
		}
	}
	if log := readFile(t, filepath.Join(w.dataDir, "claude-memory-layer.log")); !strings.Contains(log, "worker=digest") {
		t.Errorf("the digest was not built by the background worker; log:\n%s", log)
	}
	if digest.Stage != "verified" || digest.SessionID != sid {
		t.Errorf("digest %s is %s, of session %s; want verified, of %s", digest.ID, digest.Stage, digest.SessionID, sid)
	}
	for _, want := range []string{"Decided: ", "Parquet", "Open: ", "retention policy"} {
		if !strings.Contains(digest.Body, want) {
			t.Errorf("the digest lacks %q:\n%s", want, digest.Body)
		}
	}
	if got, want := len(digest.Evidence), strings.Count(digest.Body, "\n")+1; got != want {
		t.Errorf("%d quotes for %d lines:\n%s", got, want, digest.Body)
	}
	db := w.openStore()
	evs, err := db.Read().Events(context.Background(), store.EventFilter{SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range digest.Evidence {
		found := false
		for _, ev := range evs {
			if ev.SourceUUID == v.SourceUUID && v.SpanEnd <= len(ev.Text) && ev.Text[v.SpanStart:v.SpanEnd] == v.Quote {
				found = ev.Type == store.TypeUserPrompt || ev.Type == store.TypeToolObservation
				if ev.Time.After(time.Now().Add(-39 * 24 * time.Hour)) {
					t.Errorf("quote %q is from %v, not the old session's time", v.Quote, ev.Time)
				}
			}
		}
		if !found || v.Method != "exact" {
			t.Errorf("quote %q (%s) is not found word for word in a prompt or tool output of session %s", v.Quote, v.Method, sid)
		}
	}

	s2 := w.session("s2", nil, ask)
	req := requestWith(t, requests(t, s2), ask)
	if i := strings.Index(req, "["+digest.ID+"]"); i >= 0 {
		t.Logf("digest %s:\n%s\nas Claude received it: %.600s", digest.ID, digest.Body, req[i:])
	}
	if !strings.Contains(req, "["+digest.ID+"] digest, ") {
		t.Errorf("the prompt about the old work was not given the digest %s:\n%.4000s", digest.ID, req)
	}
}

type entryJSON struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	Title     string `json:"title"`
	Body      string `json:"body"`
	Stage     string `json:"stage"`
	SessionID string `json:"session_id"`
	Evidence  []struct {
		Quote      string `json:"quote"`
		Method     string `json:"method"`
		SpanStart  int    `json:"span_start"`
		SpanEnd    int    `json:"span_end"`
		SourceUUID string `json:"source_uuid"`
	} `json:"evidence"`
}

type entriesOut struct {
	Entries []entryJSON `json:"entries"`
}

// backdate copies transcript src to dst with every "timestamp" moved by d,
// as if the session had been held then.
func backdate(t *testing.T, src, dst string, d time.Duration) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var row any
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		line, err := json.Marshal(shift(row, d))
		if err != nil {
			t.Fatal(err)
		}
		out.Write(append(line, '\n'))
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func shift(v any, d time.Duration) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "timestamp" {
				if ts, err := time.Parse(time.RFC3339Nano, s); err == nil {
					x[k] = ts.Add(d).UTC().Format("2006-01-02T15:04:05.000Z")
					continue
				}
			}
			x[k] = shift(e, d)
		}
	case []any:
		for i, e := range x {
			x[i] = shift(e, d)
		}
	}
	return v
}

package pipeline

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// aheadStore is a store at a path (for snapshot) holding the basic fixture
// as session s1, and the session's messages as Plan reads them.
func aheadStore(t *testing.T) (*store.DB, string, []store.Event) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ingest(t, db, "s1", basic)
	evs, err := db.Read().Events(ctx, store.EventFilter{SessionID: "s1",
		Types: []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}})
	if err != nil {
		t.Fatal(err)
	}
	return db, path, evs
}

// processAhead processes s1 with a.
func processAhead(t *testing.T, db *store.DB, a *Ahead) Result {
	t.Helper()
	res, err := (&Processor{DB: db, Extractor: Offline{}, Log: quiet, Ahead: a}).Process(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	a.Wait()
	return res
}

// TestAheadSameEntries: the entries extracted ahead of storing are taken,
// and the store ends as when Plan extracts them itself.
func TestAheadSameEntries(t *testing.T) {
	t.Parallel()
	db, path, _ := aheadStore(t)
	want := process(t, db, "s1")
	wantRows := snapshot(t, path)

	db2, path2, evs := aheadStore(t)
	a := ExtractAhead(evs, quiet)
	got := processAhead(t, db2, a)
	if a.ok || a.entries != nil {
		t.Fatal("entries extracted ahead were not taken")
	}
	if got != want {
		t.Errorf("result %+v, want %+v", got, want)
	}
	if got := snapshot(t, path2); got != wantRows {
		t.Errorf("stored rows differ:\n%s\nwant:\n%s", got, wantRows)
	}
	if want.Extracted == 0 {
		t.Fatal("the fixture yields no entries: the test compares nothing")
	}
}

// TestAheadOtherMessages: entries extracted ahead from messages other than
// the stored ones (one missing, a text or a role changed) are not taken.
// The extraction ahead here returns nothing, so taking it would store none.
func TestAheadOtherMessages(t *testing.T) {
	t.Parallel()
	edits := []struct {
		name string
		edit func([]store.Event) []store.Event
	}{
		{"one fewer", func(evs []store.Event) []store.Event { return evs[:len(evs)-1] }},
		{"one more", func(evs []store.Event) []store.Event { return append(evs, evs[0]) }},
		{"text", func(evs []store.Event) []store.Event { evs[1].Text += " "; return evs }},
		{"role", func(evs []store.Event) []store.Event {
			if evs[0].Type == store.TypeUserPrompt {
				evs[0].Type = store.TypeAgentResponse
			} else {
				evs[0].Type = store.TypeUserPrompt
			}
			return evs
		}},
	}
	for _, tt := range edits {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			db, _, evs := aheadStore(t)
			a := extractAhead(tt.edit(evs), quiet, func([]extract.Message) []extract.Entry { return nil })
			if res := processAhead(t, db, a); res.Extracted == 0 {
				t.Errorf("entries extracted ahead from other messages were taken: %+v", res)
			}
		})
	}
}

// TestAheadPanic: a panic while extracting ahead is logged as a hook logs
// its own, and Plan extracts the messages itself.
func TestAheadPanic(t *testing.T) {
	t.Parallel()
	db, _, evs := aheadStore(t)
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	a := extractAhead(evs, log, func([]extract.Message) []extract.Entry { panic("invented failure") })
	res := processAhead(t, db, a)
	if res.Extracted == 0 {
		t.Errorf("nothing extracted after the panic: %+v", res)
	}
	if got := buf.String(); !strings.Contains(got, "msg=panic") || !strings.Contains(got, "invented failure") || !strings.Contains(got, "stack=") {
		t.Errorf("log = %q, want the panic and its stack", got)
	}
}

// TestAheadDeadline: Plan waits for the extraction ahead no longer than its
// context, so that the hook can still hand the session to the worker.
func TestAheadDeadline(t *testing.T) {
	t.Parallel()
	db, _, evs := aheadStore(t)
	release := make(chan struct{})
	a := extractAhead(evs, quiet, func([]extract.Message) []extract.Entry { <-release; return nil })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sess, err := db.Read().Session(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&Processor{DB: db, Extractor: Offline{}, Log: quiet, Ahead: a}).Plan(ctx, sess, evs)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Plan = %v, want context.Canceled", err)
	}
	close(release)
	a.Wait()
}

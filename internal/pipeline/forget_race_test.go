package pipeline

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	_ "modernc.org/sqlite"
)

// quotingExtractor stands in for an LLM: it quotes every message that
// mentions word, so what it returns depends on what it is shown. Before its
// first answer it runs during, the way a user's forget lands while the
// worker waits for the model.
type quotingExtractor struct {
	word   string
	during func()
	calls  int
}

func (q *quotingExtractor) Name() string { return "quoting" }

func (q *quotingExtractor) Extract(_ context.Context, msgs []extract.Message) ([]extract.Entry, error) {
	q.calls++
	if q.calls == 1 && q.during != nil {
		q.during()
	}
	var out []extract.Entry
	for _, m := range msgs {
		if strings.Contains(m.Text, q.word) {
			out = append(out, extract.Entry{Type: "decision", Title: "Billing jobs go to " + q.word, Subject: "billing queue",
				Evidence: []extract.Evidence{{MessageIndex: m.Index, Quote: m.Text}}})
		}
	}
	return out, nil
}

// TestForgetWhileExtracting: a forget that commits while the extractor is
// working must not be undone by the writes that follow. Every selector is
// tried; afterwards no byte of the forgotten word is left in any table.
func TestForgetWhileExtracting(t *testing.T) {
	const word = "zanzibarqueue"
	lines := []string{"Which queue should billing use? Use " + word + " for billing jobs.", "Agreed: " + word + " it is, with retries.",
		"And the CI harness?", "The quokkarunner harness."}
	for _, tt := range []struct {
		name string
		sel  func(sid string) store.ForgetSelector
	}{
		{"session", func(sid string) store.ForgetSelector { return store.ForgetSelector{SessionID: sid} }},
		{"match", func(string) store.ForgetSelector { return store.ForgetSelector{Phrase: word} }},
		{"before", func(string) store.ForgetSelector {
			return store.ForgetSelector{Before: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
		}},
		{"project", func(string) store.ForgetSelector { return store.ForgetSelector{Project: "/p"} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			path := filepath.Join(dir, "memory.db")
			db, err := store.Open(ctx, path, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ingest(t, db, "s", writeTranscript(t, "s", lines...))
			ext := &quotingExtractor{word: word, during: func() {
				// The forget CLI is another process with its own connection.
				other, err := store.Open(ctx, path, store.Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer other.Close()
				if p, err := other.Forget(ctx, tt.sel("s")); err != nil || p.Empty() {
					t.Fatalf("forget: %+v, %v", p, err)
				}
			}}
			p := &Processor{DB: db, Extractor: ext, Log: quiet}
			if _, err := p.Process(ctx, "s"); err != nil {
				t.Fatal(err)
			}
			assertNowhere(t, path, word)
		})
	}
}

// TestForgetMemoryWhileExtracting: forgetting one memory while the session
// it came from is processed again (a resumed session's second SessionEnd)
// redacts its messages; the worker must not restore the memory from the
// text it read before.
func TestForgetMemoryWhileExtracting(t *testing.T) {
	t.Parallel()
	const word = "zanzibarqueue"
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ingest(t, db, "s", writeTranscript(t, "s", "Use "+word+" for billing jobs.", "Agreed."))
	if _, err := (&Processor{DB: db, Extractor: &quotingExtractor{word: word}, Log: quiet}).Process(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	es, err := db.Read().Entries(ctx, store.EntryFilter{})
	if err != nil || len(es) != 1 {
		t.Fatalf("entries before the race: %d, %v", len(es), err)
	}
	ext := &quotingExtractor{word: word, during: func() {
		other, err := store.Open(ctx, path, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		if _, err := other.Forget(ctx, store.ForgetSelector{CID: es[0].CID}); err != nil {
			t.Fatal(err)
		}
	}}
	if _, err := (&Processor{DB: db, Extractor: ext, Log: quiet}).Process(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	assertNowhere(t, path, word)
}

// assertNowhere fails if any text column of any table still holds word.
func assertNowhere(t *testing.T, path, word string) {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, q := range []string{
		`SELECT type || ': ' || text || ' ' || payload FROM events`,
		`SELECT cid || ': ' || title || ' ' || body FROM entries`,
		`SELECT quote FROM evidence`,
		`SELECT id || ': ' || summary FROM sessions`,
	} {
		rows, err := raw.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			rows.Scan(&s)
			if strings.Contains(s, word) {
				t.Errorf("%q written back: %s", word, s)
			}
		}
		rows.Close()
	}
}

package pipeline

import (
	"context"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/correct"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestMergeKeepsWordingThatStandsAlone: a fact said first without naming
// its subject ("The server …") and later naming it ("The SDK server …")
// is one memory worded the second way, with both quotes and the first
// citation id; said a third time the first way, it keeps the better
// wording. A memory the user edited keeps their words.
func TestMergeKeepsWordingThatStandsAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const (
		weak   = "The server is running on http://localhost:4310/."
		strong = "The SDK server is running on http://localhost:4310/."
	)
	for _, edited := range []bool{false, true} {
		db := storetest.Open(t)
		p := &Processor{DB: db, Log: quiet}
		state := func(sid, text string) store.Entry {
			t.Helper()
			ingest(t, db, sid, writeTranscript(t, sid, text, "Okay."))
			p.Extractor = fakeExtractor{{Type: "fact", Title: text, Body: text, Subject: "sdk server",
				Evidence: []extract.Evidence{{MessageIndex: 0, Quote: text}}}}
			if _, err := p.Process(ctx, sid); err != nil {
				t.Fatal(err)
			}
			es, err := db.Read().Entries(ctx, store.EntryFilter{Project: "/p", Evidence: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(es) != 1 {
				t.Fatalf("after %s: %d memories (%v), want one", sid, len(es), quotesOf(es))
			}
			return es[0]
		}
		first := state("s1", weak)
		want := strong
		if edited {
			want = "The server runs on http://localhost:4310/ in development."
			if _, _, err := correct.Edit(ctx, db, first, correct.Text{Title: &want, Body: &want}, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		for i, x := range []struct{ sid, text string }{{"s2", strong}, {"s3", weak}} {
			e := state(x.sid, x.text)
			if e.CID != first.CID || len(e.Evidence) != i+2 {
				t.Errorf("edited %v, after %s: %s with %d quotes, want %s with %d", edited, x.sid, e.CID, len(e.Evidence), first.CID, i+2)
			}
			if e.Title != want || e.Body != want {
				t.Errorf("edited %v, after %s: worded %q / %q, want %q", edited, x.sid, e.Title, e.Body, want)
			}
		}
	}
}

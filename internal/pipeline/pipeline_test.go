package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// ingest stores a transcript as a session, the way hooks and import do.
func ingest(tb testing.TB, db *store.DB, sid, path string) {
	tb.Helper()
	ctx := context.Background()
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: sid, Project: "/p", TranscriptPath: path})
	}); err != nil {
		tb.Fatal(err)
	}
	s, _ := db.Read().Session(ctx, sid)
	if _, err := (&capture.Recorder{DB: db, Log: quiet}).Ingest(ctx, s, true); err != nil {
		tb.Fatal(err)
	}
}

func process(tb testing.TB, db *store.DB, sid string) Result {
	tb.Helper()
	res, err := (&Processor{DB: db, Extractor: Offline{}, Log: quiet}).Process(context.Background(), sid)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

const basic = "../../testdata/claude-code/transcripts/basic.jsonl"

func TestVerifiedDecisionFromFixture(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(basic); err != nil {
		t.Fatalf("fixture missing: %v", err)
	}
	db := storetest.Open(t)
	ingest(t, db, "s1", basic)
	res := process(t, db, "s1")
	if res.Verified == 0 {
		t.Fatalf("nothing verified: %+v", res)
	}
	ctx := context.Background()
	es, err := db.Read().Entries(ctx, store.EntryFilter{Project: "/p", Evidence: true})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, e := range es {
		for _, v := range e.Evidence {
			if e.Stage != store.StageVerified {
				continue
			}
			// The span, applied to the stored message, yields the quote.
			ev, err := db.Event(ctx, v.EventID)
			if err != nil {
				t.Fatalf("%s: evidence event: %v", e.CID, err)
			}
			got := ev.Text[v.SpanStart:v.SpanEnd]
			if v.Method == "exact" && got != v.Quote {
				t.Errorf("%s: span text %q != quote %q", e.CID, got, v.Quote)
			}
			if v.SourceUUID == "" {
				t.Errorf("%s: evidence without a transcript uuid", e.CID)
			}
			if e.Type == "decision" && strings.Contains(v.Quote, "RS256 keys stored in `./keys`") {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no verified RS256 decision among %d entries", len(es))
	}
	// Processing again changes nothing.
	before, _ := db.CountEvents(ctx, "")
	res2 := process(t, db, "s1")
	after, _ := db.CountEvents(ctx, "")
	es2, _ := db.Read().Entries(ctx, store.EntryFilter{Project: "/p"})
	if after != before || len(es2) != len(es) || res2.New != 0 {
		t.Errorf("reprocessing added: events %d→%d, entries %d→%d, new %d", before, after, len(es), len(es2), res2.New)
	}
}

// fakeExtractor returns fixed entries, for testing the gate and the ledger.
type fakeExtractor []extract.Entry

func (f fakeExtractor) Name() string { return "fake" }
func (f fakeExtractor) Extract(context.Context, []extract.Message) ([]extract.Entry, error) {
	return f, nil
}

func writeTranscript(t testing.TB, sid string, lines ...string) string {
	t.Helper()
	var b strings.Builder
	for i, l := range lines {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		if role == "user" {
			fmt.Fprintf(&b, `{"type":"user","uuid":"%s-u%d","promptId":"%s-p%d","sessionId":"%s","timestamp":"2026-11-2%dT10:00:0%dZ","message":{"role":"user","content":%q}}`+"\n", sid, i, sid, i, sid, len(sid)%7+1, i%10, l)
		} else {
			fmt.Fprintf(&b, `{"type":"assistant","uuid":"%s-a%d","sessionId":"%s","timestamp":"2026-11-2%dT10:00:0%dZ","message":{"id":"msg-%s-%d","role":"assistant","content":[{"type":"text","text":%q}],"stop_reason":"end_turn"}}`+"\n", sid, i, sid, len(sid)%7+1, i%10, sid, i, l)
		}
	}
	p := filepath.Join(t.TempDir(), sid+".jsonl")
	os.WriteFile(p, []byte(b.String()), 0o600)
	return p
}

func TestGate(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ingest(t, db, "s", writeTranscript(t, "s", "DuckDB의 JSONB를 JSON으로 변경", "ok, DuckDB에서 JSONB 타입을 제거했습니다"))
	p := &Processor{DB: db, Log: quiet, Extractor: fakeExtractor{
		{Type: "decision", Title: "JSONB to JSON", Subject: "duckdb", Evidence: []extract.Evidence{{MessageIndex: 0, Quote: "JSONB를 JSON으로"}}},
		{Type: "fact", Title: "JSONB removed", Subject: "duckdb types", Evidence: []extract.Evidence{{MessageIndex: 1, Quote: "DuckDB JSONB 타입 제거"}}},
		{Type: "fact", Title: "Invented", Subject: "x", Evidence: []extract.Evidence{{MessageIndex: 0, Quote: "we migrated the billing ledger to Cassandra last week"}}},
		{Type: "fact", Title: "No quote", Subject: "y"},
	}}
	res, err := p.Process(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	if res.Verified != 2 || res.Candidates != 2 {
		t.Fatalf("result %+v, want 2 verified 2 candidates", res)
	}
	es, _ := db.Read().Entries(context.Background(), store.EntryFilter{Evidence: true})
	byTitle := map[string]store.Entry{}
	for _, e := range es {
		byTitle[e.Title] = e
	}
	if e := byTitle["JSONB to JSON"]; e.Stage != store.StageVerified || e.Evidence[0].Method != "exact" || e.Evidence[0].Confidence != 1 {
		t.Errorf("exact: %+v", e)
	}
	if e := byTitle["JSONB removed"]; e.Stage != store.StageVerified || e.Evidence[0].Method != "fuzzy" || e.Evidence[0].Confidence < 0.85 {
		t.Errorf("fuzzy: %+v", e)
	}
	inv := byTitle["Invented"]
	if inv.Stage != store.StageCandidate || !strings.Contains(inv.PromotionBlocked, "not_found") || inv.Evidence[0].Method != "none" {
		t.Errorf("invented quote: stage %s, blocked %q", inv.Stage, inv.PromotionBlocked)
	}
	if e := byTitle["No quote"]; e.Stage != store.StageCandidate || !strings.Contains(e.PromotionBlocked, "no evidence") {
		t.Errorf("no quote: %+v", e)
	}
	// The evidence_aligned events record counts and methods.
	evs, _ := db.Read().Events(context.Background(), store.EventFilter{Types: []string{store.TypeEvidenceAligned}})
	if len(evs) != 4 || !strings.Contains(string(evs[0].Payload), `"method":"exact"`) {
		t.Errorf("evidence_aligned events: %d, first %s", len(evs), evs[0].Payload)
	}
}

func TestDuplicateAcrossSessionsAndSupersession(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	ingest(t, db, "s1", writeTranscript(t, "s1", "For JWT we'll use HS256 with a shared secret.", "Okay."))
	ingest(t, db, "s2", writeTranscript(t, "s2", "Again: for JWT we'll use HS256 with a shared secret.", "Noted."))
	ingest(t, db, "s3", writeTranscript(t, "s3", "Let's switch from HS256 to RS256 keys in ./keys for JWT signing.", "Done."))
	for _, s := range []string{"s1", "s2", "s3"} {
		process(t, db, s)
	}
	es, _ := db.Read().Entries(ctx, store.EntryFilter{Project: "/p", Types: []string{"decision"}, Evidence: true})
	var hs, rs *store.Entry
	for i := range es {
		switch {
		case strings.Contains(es[i].Title, "HS256") && !strings.Contains(es[i].Title, "RS256"):
			hs = &es[i]
		case strings.Contains(es[i].Title, "RS256"):
			rs = &es[i]
		}
	}
	if hs == nil || rs == nil {
		t.Fatalf("decisions: %+v", es)
	}
	if len(hs.Evidence) != 2 {
		t.Errorf("the repeated HS256 decision has %d evidence rows, want 2 (one per session)", len(hs.Evidence))
	}
	if hs.Status != store.StatusSuperseded || hs.SupersededBy != rs.ID {
		t.Errorf("HS256 status %s superseded_by %d, want superseded by %d", hs.Status, hs.SupersededBy, rs.ID)
	}
	cs, _ := db.Conflicts(ctx, nil, 0)
	if len(cs) != 1 || cs[0].Kind != "supersedes" {
		t.Errorf("conflicts %+v", cs)
	}
}

// TestEntriesDateFromTheirSession: an entry dates from the message its quote
// was found in, not from when the session was processed. An older session
// processed after a newer one (history imported after weeks of live use)
// keeps its date, so the newer session's switch supersedes it rather than
// the old claim looking like the newest word; a date in the future is cut
// to now.
func TestEntriesDateFromTheirSession(t *testing.T) {
	db := storetest.Open(t)
	ctx := context.Background()
	dated := func(sid, day, prompt string) string {
		p := filepath.Join(t.TempDir(), sid+".jsonl")
		line := fmt.Sprintf(`{"type":"user","uuid":"%s-u","promptId":"%s-p","sessionId":"%s","timestamp":"%sT10:00:00Z","message":{"role":"user","content":%q}}`+"\n", sid, sid, sid, day, prompt)
		if err := os.WriteFile(p, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	p := &Processor{DB: db, Extractor: Offline{}, Log: quiet, Now: func() time.Time { return now }}
	ingest(t, db, "new", dated("new", "2026-11-20", "Let's switch from HS256 to RS256 keys in ./keys for JWT signing."))
	ingest(t, db, "old", dated("old", "2025-03-02", "For JWT we'll use HS256 with a shared secret."))
	ingest(t, db, "ahead", dated("ahead", "2027-01-01", "We decided to use pino for logging."))
	for _, sid := range []string{"new", "old", "ahead"} {
		if _, err := p.Process(ctx, sid); err != nil {
			t.Fatal(err)
		}
	}
	es, err := db.Read().Entries(ctx, store.EntryFilter{Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	bySession := map[string]store.Entry{}
	for _, e := range es {
		bySession[e.SessionID] = e
	}
	for sid, want := range map[string]time.Time{
		"new":   time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC),
		"old":   time.Date(2025, 3, 2, 10, 0, 0, 0, time.UTC),
		"ahead": now,
	} {
		if got := bySession[sid].Created; !got.Equal(want) {
			t.Errorf("entry of session %s created %v, want %v", sid, got, want)
		}
	}
	old, switched := bySession["old"], bySession["new"]
	if old.Status != store.StatusSuperseded || old.SupersededBy != switched.ID {
		t.Errorf("the old HS256 decision is %s (superseded by %d), want superseded by the switch %d", old.Status, old.SupersededBy, switched.ID)
	}

	// The same claim found again in an even older session moves the date back.
	ingest(t, db, "older", dated("older", "2024-07-07", "For JWT we'll use HS256 with a shared secret."))
	if _, err := p.Process(ctx, "older"); err != nil {
		t.Fatal(err)
	}
	again, err := db.Read().EntryByID(ctx, old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2024, 7, 7, 10, 0, 0, 0, time.UTC); !again.Created.Equal(want) {
		t.Errorf("after an older session with the same claim: created %v, want %v", again.Created, want)
	}
}

// BenchmarkProcess is the SessionEnd work on a 1,000-message session with the
// offline extractor: extract, align, store entries, detect conflicts.
func BenchmarkProcess(b *testing.B) {
	lines := make([]string, 1000)
	topics := []string{"We'll use pnpm workspaces for the monorepo.", "The tests run with vitest now.", "Never commit .env files.",
		"The root cause was a race in the cache warmup; fixed by awaiting the init promise.", "TODO: add retries to the webhook sender.",
		"Postgres 16 is what we run in production.", "I'd rather keep handlers small and pure.", "Remember that staging uses port 8443."}
	for i := range lines {
		lines[i] = fmt.Sprintf("Turn %d about src/module%d.ts: %s and some ordinary discussion of the change to the handler.", i, i%37, topics[i%len(topics)])
	}
	path := writeTranscript(b, "bench", lines...)
	var res Result
	for b.Loop() {
		b.StopTimer()
		db := storetest.Open(b)
		ingest(b, db, "bench", path)
		proc := &Processor{DB: db, Extractor: Offline{}, Log: quiet, Now: func() time.Time { return time.Unix(0, 0) }}
		b.StartTimer()
		var err error
		if res, err = proc.Process(context.Background(), "bench"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Extracted), "entries")
}

// BenchmarkIngest is the transcript half of import and SessionEnd: read,
// privacy-filter and store 1,000 messages.
func BenchmarkIngest(b *testing.B) {
	lines := make([]string, 1000)
	for i := range lines {
		lines[i] = fmt.Sprintf("Turn %d about src/module%d.ts: we'll use pnpm workspaces, and the tests run with vitest now; ordinary discussion of the change.", i, i%37)
	}
	path := writeTranscript(b, "bench", lines...)
	for b.Loop() {
		b.StopTimer()
		db := storetest.Open(b)
		b.StartTimer()
		ingest(b, db, "bench", path)
	}
	b.ReportMetric(float64(len(lines))*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

package ingest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend/spendtest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestImportSpend: an import's calls are recorded through its writer (the
// Meter defers them while the writer holds the write lock), and once the cap
// is reached the next import extracts offline without a request, logging it
// once.
func TestImportSpend(t *testing.T) {
	t.Parallel()
	api := spendtest.Serve(t, 500, 300)
	a := api.Anthropic(t)
	db := storetest.Open(t)
	var logBuf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logBuf, nil))
	now := time.Now()
	caps := config.Budget{DailyTokens: 800}
	run := func(sids ...string) {
		t.Helper()
		dir := t.TempDir()
		for _, sid := range sids {
			line := `{"type":"user","uuid":"%[1]s-u","sessionId":"%[1]s","cwd":"/home/dev/shop","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"We decided to keep orders in Postgres (%[1]s)."}}` + "\n" +
				`{"type":"assistant","uuid":"%[1]s-a","sessionId":"%[1]s","cwd":"/home/dev/shop","timestamp":"2026-11-20T10:00:01Z","message":{"id":"m-%[1]s","role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"}}` + "\n"
			if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), []byte(fmt.Sprintf(line, sid)), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		jobs, err := Jobs(Sources{Dir: dir}, func(string) string { return "" }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		im := &Importer{DB: db, Extractor: a, Fallback: pipeline.Offline{}, Log: log, Now: func() time.Time { return now },
			Budget: &spend.Meter{DB: db, Caps: caps, Log: log, Now: func() time.Time { return now }, Defer: true}}
		sum, err := im.Run(context.Background(), jobs, nil)
		if err != nil || sum.Imported != len(sids) {
			t.Fatalf("import: %+v, %v", sum, err)
		}
	}
	run("imp-1")
	st, err := spend.Read(context.Background(), db, caps, now)
	if err != nil {
		t.Fatal(err)
	}
	if want := (spend.Total{Calls: 1, InputTokens: 500, OutputTokens: 300}); api.Calls() != 1 || st.Day != want {
		t.Fatalf("after one session: %d calls, day %+v; want 1 and %+v", api.Calls(), st.Day, want)
	}
	run("imp-2", "imp-3")
	if n := api.Calls(); n != 1 {
		t.Errorf("%d API calls after the cap was reached, want none more", n-1)
	}
	if n := strings.Count(logBuf.String(), "LLM budget reached"); n != 1 {
		t.Errorf("the log says the budget was reached %d times, want once:\n%s", n, logBuf.String())
	}
}

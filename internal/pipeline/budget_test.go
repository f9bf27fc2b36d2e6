package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend/spendtest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestBudgetFallsBackAtTheDailyCap runs sessions through the Anthropic
// backend against a local fake Messages API that reports 400 tokens in and
// 100 out a call, under a daily cap of 1,200 tokens: the first three
// sessions call the API, each call recorded; the next ones are extracted
// offline without a request, the log says so once, and the next session's
// brief says so once.
func TestBudgetFallsBackAtTheDailyCap(t *testing.T) {
	t.Parallel()
	api := spendtest.Serve(t, 400, 100)
	a := api.Anthropic(t)
	db := storetest.Open(t)
	var logBuf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logBuf, nil))
	caps := config.Budget{DailyTokens: 1200}
	now := time.Now()
	p := &Processor{DB: db, Extractor: a, Fallback: Offline{}, Log: log,
		Budget: &spend.Meter{DB: db, Caps: caps, Log: log, Now: func() time.Time { return now }}}
	ctx := context.Background()
	var used []string
	for i := range 5 {
		sid := fmt.Sprintf("s%d", i)
		ingest(t, db, sid, writeTranscript(t, sid, "We decided to use SQLite with the modernc driver.", "Done: the store uses modernc.org/sqlite."))
		res, err := p.Process(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		used = append(used, res.Extractor)
	}
	if want := "anthropic anthropic anthropic offline offline"; strings.Join(used, " ") != want {
		t.Errorf("extractors %v, want %s", used, want)
	}
	if n := api.Calls(); n != 3 {
		t.Errorf("%d API calls, want 3", n)
	}
	st, err := spend.Read(ctx, db, caps, now)
	if err != nil {
		t.Fatal(err)
	}
	if want := (spend.Total{Calls: 3, InputTokens: 1200, OutputTokens: 300}); st.Day != want || st.Month != want {
		t.Errorf("spend day %+v month %+v, want %+v", st.Day, st.Month, want)
	}
	if c, ok := st.Reached(); !ok || c.Key != "llm.budget.daily_tokens" {
		t.Errorf("reached %+v %v, want the daily token cap", c, ok)
	}
	if n := strings.Count(logBuf.String(), "LLM budget reached"); n != 1 {
		t.Errorf("the log says the budget was reached %d times, want once:\n%s", n, logBuf.String())
	}
	if !strings.Contains(logBuf.String(), "1500 of 1200 tokens today (llm.budget.daily_tokens)") {
		t.Errorf("the log line does not say which cap:\n%s", logBuf.String())
	}

	// The next session's brief says so; the one after does not.
	brief := func(sid string) string {
		t.Helper()
		n, err := spend.Notice(ctx, db, sid, now)
		if err != nil {
			t.Fatal(err)
		}
		var notices []string
		if n != "" {
			notices = append(notices, n)
		}
		b, err := recall.BriefWith(ctx, db, config.Default("").Recall, "/elsewhere", sid, notices)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	const said = "LLM extraction budget reached: 1500 of 1200 tokens today (llm.budget.daily_tokens); sessions are extracted offline until tomorrow."
	if b := brief("next"); !strings.Contains(b, said) {
		t.Errorf("next brief lacks the notice:\n%s", b)
	}
	start := store.Event{Time: now, Type: store.TypeSessionStarted, SessionID: "next", Project: "/elsewhere", DedupeKey: "start:next"}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, start); return err }); err != nil {
		t.Fatal(err)
	}
	if b := brief("later"); strings.Contains(b, "budget") {
		t.Errorf("the brief after the next says it again:\n%s", b)
	}
	// Tomorrow is a new window: the API is called again.
	p.Budget.Now = func() time.Time { return now.AddDate(0, 0, 1) }
	ingest(t, db, "s5", writeTranscript(t, "s5", "We decided to use SQLite with the modernc driver.", "Done."))
	if res, err := p.Process(ctx, "s5"); err != nil || res.Extractor != "anthropic" {
		t.Errorf("the next day: extractor %q, %v; want anthropic", res.Extractor, err)
	}
}

package dashboard

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestOverviewSpend shows LLM extraction's spend against its caps on the
// overview, and that a cap is reached.
func TestOverviewSpend(t *testing.T) {
	t.Parallel()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	caps := config.Budget{DailyTokens: 1000, MonthlyTokens: 50000}
	m := &spend.Meter{DB: db, Caps: caps, Now: func() time.Time { return now }}
	m.Record(context.Background(), store.Session{ID: "s1", Project: "/p"}, "claude", spend.Usage{InputTokens: 1200, OutputTokens: 300, CostUSD: 0.42})
	s, err := New(db, testAddr, Options{Now: func() time.Time { return now }, Budget: caps})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, s: s, db: db}
	_, body := f.get("/")
	for _, want := range []string{
		"LLM extraction: 1500 tokens, $0.42 today (cap 1000) · 1500 tokens, $0.42 this month (cap 50000)",
		"cap reached: 1500 of 1000 tokens today (llm.budget.daily_tokens); extracting offline",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("overview lacks %q:\n%s", want, body)
		}
	}
}

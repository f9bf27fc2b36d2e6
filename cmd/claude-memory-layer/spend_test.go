package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestStatsAndDoctorShowSpend records two claude CLI calls against a daily
// cap of 10,000 tokens and $1: stats (text and --json) and doctor show the
// spend against the caps, doctor warns at 80 % and again once a cap is
// reached.
func TestStatsAndDoctorShowSpend(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	cfg := `{"extractor":"claude","llm":{"budget":{"daily_tokens":10000,"daily_usd":1}}}`
	if err := os.WriteFile(filepath.Join(c.dir, config.ConfigFile), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	db := c.db()
	m := &spend.Meter{DB: db, Caps: config.Budget{DailyTokens: 10000, DailyUSD: 1}, Now: func() time.Time { return fixedNow }}
	sess := store.Session{ID: "s1", Project: "/p"}
	ctx := context.Background()
	m.Record(ctx, sess, "claude", spend.Usage{InputTokens: 3000, OutputTokens: 1000, CostUSD: 0.25})
	m.Record(ctx, sess, "claude", spend.Usage{InputTokens: 3500, OutputTokens: 1000, CostUSD: 0.25})

	var got struct {
		LLMSpend spendJSON `json:"llm_spend"`
	}
	if err := json.Unmarshal([]byte(c.ok("stats", "--all-projects", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	want := spend.Total{Calls: 2, InputTokens: 6500, OutputTokens: 2000, CostUSD: 0.5}
	if s := got.LLMSpend; s.Day != want || s.Month != want || s.Caps.DailyTokens != 10000 || s.Caps.DailyUSD != 1 || s.Reached != "" {
		t.Errorf("stats --json llm_spend %+v, want day and month %+v", s, want)
	}
	const line = "today 8,500 tokens of 10,000, $0.50 of $1.00; this month 8,500 tokens, $0.50 (2 calls)"
	if out := c.ok("stats", "--all-projects"); !strings.Contains(out, "LLM spend    "+line) {
		t.Errorf("stats lacks %q:\n%s", line, out)
	}
	doctorSpend := func() check {
		t.Helper()
		var rep struct {
			Checks []check `json:"checks"`
		}
		out, _, _ := c.run("doctor", "--json")
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("doctor --json: %v\n%s", err, out)
		}
		for _, ch := range rep.Checks {
			if ch.Name == "llm budget" {
				return ch
			}
		}
		t.Fatalf("doctor has no llm budget check:\n%s", out)
		return check{}
	}
	if ch := doctorSpend(); ch.Status != "warn" || !strings.Contains(ch.Detail, line+"; 85 % of llm.budget.daily_tokens") {
		t.Errorf("doctor at 85 %%: %+v", ch)
	}
	m.Record(ctx, sess, "claude", spend.Usage{InputTokens: 1000, OutputTokens: 500, CostUSD: 0.1})
	if ch := doctorSpend(); ch.Status != "warn" || !strings.Contains(ch.Detail, "llm.budget.daily_tokens reached: extracting offline") || ch.Fix == "" {
		t.Errorf("doctor at the cap: %+v", ch)
	}
}

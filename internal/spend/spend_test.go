package spend

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// The windows start at the user's midnight: at 23:30 in New York it is
// already the next day, and month, in UTC.
func TestWindowsAreLocal(t *testing.T) {
	t.Parallel()
	ny := time.FixedZone("EST", -5*3600)
	now := time.Date(2026, 11, 30, 23, 30, 0, 0, ny) // 2026-12-01 04:30 UTC
	day, month := windowsIn(now, ny)
	if want := time.Date(2026, 11, 30, 0, 0, 0, 0, ny); !day.Equal(want) {
		t.Errorf("day starts %v, want %v", day, want)
	}
	if want := time.Date(2026, 11, 1, 0, 0, 0, 0, ny); !month.Equal(want) {
		t.Errorf("month starts %v, want %v", month, want)
	}
}

// A dollar cap counts the cost the API reported; a monthly cap holds on the
// next day, when the daily one has reset, and its notice says "next month".
func TestMonthlyDollarCap(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	now := time.Now()
	caps := config.Budget{DailyUSD: 5, MonthlyUSD: 1}
	m := &Meter{DB: db, Caps: caps, Now: func() time.Time { return now }}
	sess := store.Session{ID: "s", Project: "/p"}
	if !m.Allow(ctx, sess) {
		t.Fatal("nothing spent, yet not allowed")
	}
	m.Record(ctx, sess, "claude", Usage{InputTokens: 5000, OutputTokens: 200, CostUSD: 1.25})
	if m.Allow(ctx, sess) {
		t.Fatal("$1.25 spent of a $1 monthly cap, yet allowed")
	}
	st, err := Read(ctx, db, caps, now)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := st.Reached()
	if !ok || c.Key != "llm.budget.monthly_usd" || c.String() != "$1.25 of $1.00 this month (llm.budget.monthly_usd)" {
		t.Errorf("reached %q %v", c, ok)
	}
	n, err := Notice(ctx, db, "next", now)
	if err != nil || !strings.Contains(n, "$1.25 of $1.00 this month") || !strings.HasSuffix(n, "until next month.") {
		t.Errorf("notice %q, %v", n, err)
	}
}

// A daily cap reached yesterday is no news today: the window is new.
func TestNoticeOfYesterday(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.Local)
	yesterday := time.Date(2026, 11, 20, 23, 0, 0, 0, time.Local)
	caps := config.Budget{DailyTokens: 100}
	m := &Meter{DB: db, Caps: caps, Now: func() time.Time { return yesterday }}
	sess := store.Session{ID: "s", Project: "/p"}
	m.Record(ctx, sess, "anthropic", Usage{InputTokens: 90, OutputTokens: 20})
	if m.Allow(ctx, sess) {
		t.Fatal("over yesterday's cap, yet allowed yesterday")
	}
	if n, err := Notice(ctx, db, "yesterday-later", yesterday); err != nil || n == "" {
		t.Fatalf("yesterday's notice %q, %v", n, err)
	}
	if n, err := Notice(ctx, db, "today", now); err != nil || n != "" {
		t.Errorf("today's notice %q, %v; want none", n, err)
	}
	m.Now = func() time.Time { return now }
	if !m.Allow(ctx, sess) {
		t.Error("a new day, yet not allowed")
	}
}

// Forgetting the session a call was made for keeps its spend: the record
// holds numbers only, and the budget was spent all the same.
func TestForgetKeepsSpend(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	now := time.Now()
	sess := store.Session{ID: "gone", Project: "/p"}
	if err := db.Update(ctx, func(tx *store.Tx) error { return tx.TouchSession(ctx, sess) }); err != nil {
		t.Fatal(err)
	}
	m := &Meter{DB: db, Caps: config.Budget{DailyTokens: 10}, Now: func() time.Time { return now }}
	m.Record(ctx, sess, "anthropic", Usage{InputTokens: 40, OutputTokens: 2})
	m.Allow(ctx, sess)
	if _, err := db.Forget(ctx, store.ForgetSelector{SessionID: "gone"}); err != nil {
		t.Fatal(err)
	}
	st, err := Read(ctx, db, m.Caps, now)
	if err != nil {
		t.Fatal(err)
	}
	if st.Day.Tokens() != 42 {
		t.Errorf("after forget the day spent %d tokens, want 42", st.Day.Tokens())
	}
	if m.Allow(ctx, sess) {
		t.Error("after forget the cap no longer holds")
	}
}

// Package spend records what LLM extraction spends and holds it to the caps
// of config.Budget, over the user's local day and calendar month.
//
// Each call is an llm_call event (tokens in and out, and the dollars the API
// reported, if it did). Before a call the Meter sums the window's events; at
// a cap the pipeline extracts with the offline extractor instead, and the
// Meter records one llm_budget_reached event per window and cap, logs it
// once, and the next SessionStart brief says so (Notice).
package spend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Usage is what one model call spent, as its API reported it.
type Usage struct {
	InputTokens  int64
	OutputTokens int64
	// CostUSD is the cost the API reported (the claude CLI's
	// total_cost_usd); 0 when it reports none.
	CostUSD float64
}

type reporterKey struct{}

// WithReporter returns a context whose model calls report their usage to fn.
func WithReporter(ctx context.Context, fn func(Usage)) context.Context {
	return context.WithValue(ctx, reporterKey{}, fn)
}

// Report hands u to the context's reporter, if it has one. An LLM backend
// calls it for every answer it got, usable or not: the tokens were spent.
func Report(ctx context.Context, u Usage) {
	if fn, ok := ctx.Value(reporterKey{}).(func(Usage)); ok && fn != nil {
		fn(u)
	}
}

// Total sums the calls of a window.
type Total struct {
	Calls        int     `json:"calls"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
}

// Tokens is input and output tokens together, what the token caps count.
func (s Total) Tokens() int64 { return s.InputTokens + s.OutputTokens }

func (s *Total) add(u Usage) {
	s.Calls++
	s.InputTokens += u.InputTokens
	s.OutputTokens += u.OutputTokens
	s.CostUSD += u.CostUSD
}

// Status is the spend of the current day and month against the caps.
type Status struct {
	Day, Month Total
	Caps       config.Budget
	// DayStart and MonthStart are the windows' starts in the user's local
	// time.
	DayStart, MonthStart time.Time
}

// Cap is one cap and the spend it limits.
type Cap struct {
	Key    string  // the config key, llm.budget.daily_tokens
	Window string  // "day" or "month"
	Limit  float64 // the cap
	Spent  float64 // what the window has spent
	USD    bool    // dollars, not tokens
}

// Reached reports whether the spend is at the cap.
func (c Cap) Reached() bool { return c.Spent >= c.Limit }

// Fraction is the share of the cap spent.
func (c Cap) Fraction() float64 { return c.Spent / c.Limit }

func (c Cap) String() string {
	when := "today"
	if c.Window == "month" {
		when = "this month"
	}
	if c.USD {
		return fmt.Sprintf("$%.2f of $%.2f %s (%s)", c.Spent, c.Limit, when, c.Key)
	}
	return fmt.Sprintf("%d of %d tokens %s (%s)", int64(c.Spent), int64(c.Limit), when, c.Key)
}

// Set lists the caps that are set, daily ones first.
func (s Status) Set() []Cap {
	all := []Cap{
		{"llm.budget.daily_tokens", "day", float64(s.Caps.DailyTokens), float64(s.Day.Tokens()), false},
		{"llm.budget.daily_usd", "day", s.Caps.DailyUSD, s.Day.CostUSD, true},
		{"llm.budget.monthly_tokens", "month", float64(s.Caps.MonthlyTokens), float64(s.Month.Tokens()), false},
		{"llm.budget.monthly_usd", "month", s.Caps.MonthlyUSD, s.Month.CostUSD, true},
	}
	var out []Cap
	for _, c := range all {
		if c.Limit > 0 {
			out = append(out, c)
		}
	}
	return out
}

// Reached returns the first cap the spend is at, if any.
func (s Status) Reached() (Cap, bool) {
	for _, c := range s.Set() {
		if c.Reached() {
			return c, true
		}
	}
	return Cap{}, false
}

// Windows returns the starts of the local day and month holding now: a
// user's "daily" cap resets at their midnight, not at UTC's.
func Windows(now time.Time) (day, month time.Time) { return windowsIn(now, time.Local) }

func windowsIn(now time.Time, loc *time.Location) (day, month time.Time) {
	y, m, d := now.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc), time.Date(y, m, 1, 0, 0, 0, 0, loc)
}

// callPayload is an llm_call event's payload.
type callPayload struct {
	Extractor    string  `json:"extractor"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd,omitempty"`
}

// Read sums the llm_call events of the day and month holding now.
func Read(ctx context.Context, db *store.DB, caps config.Budget, now time.Time) (Status, error) {
	st := Status{Caps: caps}
	st.DayStart, st.MonthStart = Windows(now)
	evs, err := db.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeLLMCall}, Since: st.MonthStart})
	if err != nil {
		return st, fmt.Errorf("llm spend: %w", err)
	}
	for _, ev := range evs {
		st.count(ev)
	}
	return st, nil
}

// count adds an llm_call event to the month, and to the day if it is of
// today.
func (st *Status) count(ev store.Event) {
	var p callPayload
	if ev.Type != store.TypeLLMCall || json.Unmarshal(ev.Payload, &p) != nil {
		return
	}
	u := Usage{InputTokens: p.InputTokens, OutputTokens: p.OutputTokens, CostUSD: p.CostUSD}
	st.Month.add(u)
	if !ev.Time.Before(st.DayStart) {
		st.Day.add(u)
	}
}

// Meter checks the caps before a call and records each call's spend. It is
// safe for the concurrent plans of an import.
type Meter struct {
	DB   *store.DB
	Caps config.Budget
	Log  *slog.Logger     // nil: discard
	Now  func() time.Time // nil: time.Now
	// Defer keeps the events for Flush instead of writing each in a
	// transaction of its own: an import plans sessions while its writer
	// holds the write lock, so a plan must not wait for it.
	Defer bool

	mu      sync.Mutex
	said    map[string]bool // budget-reached keys this process has seen
	seq     int             // makes this process's call keys unique
	pending []store.Event   // with Defer, what Flush writes
}

// Allow reports whether the next call of session sess may spend. At a cap it
// records the llm_budget_reached event of the window, logging it the first
// time, and returns false. A store that cannot be read is taken as at the
// cap: spending blind is what the budget exists to prevent.
func (m *Meter) Allow(ctx context.Context, sess store.Session) bool {
	if m == nil || !m.Caps.Capped() {
		return true
	}
	now := m.now()
	st, err := Read(ctx, m.DB, m.Caps, now)
	if err != nil {
		m.log().Warn("LLM budget unreadable; extracting offline", "err", err)
		return false
	}
	m.mu.Lock()
	for _, ev := range m.pending { // not in the store yet
		st.count(ev)
	}
	m.mu.Unlock()
	c, reached := st.Reached()
	if !reached {
		return true
	}
	start := st.DayStart
	if c.Window == "month" {
		start = st.MonthStart
	}
	key := "llm_budget:" + c.Key + ":" + start.Format("2006-01-02")
	m.mu.Lock()
	said := m.said[key]
	if m.said == nil {
		m.said = map[string]bool{}
	}
	m.said[key] = true
	m.mu.Unlock()
	if said {
		return false
	}
	known, err := m.DB.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeBudgetReached}, Since: start})
	if err == nil {
		for _, ev := range known {
			if ev.DedupeKey == key {
				return false // another process said so in this window
			}
		}
	}
	m.log().Warn("LLM budget reached; extracting offline, and no self-check, until the window ends", "cap", c.String())
	payload, _ := json.Marshal(map[string]any{"cap": c.Key, "window": c.Window, "limit": c.Limit, "spent": c.Spent,
		"window_start": store.FormatTime(start), "usd": c.USD})
	m.write(ctx, sess, store.Event{Time: now, Type: store.TypeBudgetReached, SessionID: sess.ID, Project: sess.Project,
		Payload: payload, DedupeKey: key})
	return false
}

// Record stores the spend of one call of session sess by extractor.
func (m *Meter) Record(ctx context.Context, sess store.Session, extractor string, u Usage) {
	if m == nil {
		return
	}
	now := m.now()
	m.mu.Lock()
	m.seq++
	key := "llm_call:" + sess.ID + ":" + strconv.FormatInt(now.UnixNano(), 36) + ":" + strconv.Itoa(m.seq)
	m.mu.Unlock()
	payload, _ := json.Marshal(callPayload{Extractor: extractor, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CostUSD: u.CostUSD})
	m.write(ctx, sess, store.Event{Time: now, Type: store.TypeLLMCall, SessionID: sess.ID, Project: sess.Project,
		Payload: payload, DedupeKey: key})
}

// Flush writes the events a Defer meter holds in tx.
func (m *Meter) Flush(ctx context.Context, tx *store.Tx) error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	evs := m.pending
	m.pending = nil
	m.mu.Unlock()
	if len(evs) == 0 {
		return nil
	}
	_, err := tx.Append(ctx, evs...)
	return err
}

// write stores ev in a write transaction of its own, or keeps it for Flush.
// A failure is logged: the extraction itself goes on.
func (m *Meter) write(ctx context.Context, sess store.Session, ev store.Event) {
	if m.Defer {
		m.mu.Lock()
		m.pending = append(m.pending, ev)
		m.mu.Unlock()
		return
	}
	err := m.DB.Update(context.WithoutCancel(ctx), func(tx *store.Tx) error {
		_, err := tx.Append(ctx, ev)
		return err
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		m.log().Warn("record LLM spend", "type", ev.Type, "session", sess.ID, "err", err)
	}
}

func (m *Meter) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

func (m *Meter) log() *slog.Logger {
	if m.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return m.Log
}

// Notice is the line the SessionStart brief of session sessionID shows when a
// cap was reached in the current window and no other session has started
// since, so that it is said once; "" otherwise.
func Notice(ctx context.Context, db *store.DB, sessionID string, now time.Time) (string, error) {
	_, month := Windows(now)
	reached, err := db.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeBudgetReached}, Since: month, Newest: true, Limit: 1})
	if err != nil || len(reached) == 0 {
		return "", err
	}
	r := reached[0]
	var p struct {
		Cap         string  `json:"cap"`
		Window      string  `json:"window"`
		Limit       float64 `json:"limit"`
		Spent       float64 `json:"spent"`
		WindowStart string  `json:"window_start"`
		USD         bool    `json:"usd"`
	}
	if json.Unmarshal(r.Payload, &p) != nil {
		return "", nil
	}
	day, _ := Windows(now)
	if p.Window == "day" && store.ParseTime(p.WindowStart).Before(day) {
		return "", nil // yesterday's cap: today is a new window
	}
	starts, err := db.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeSessionStarted}, Since: r.Time, Newest: true, Limit: 2})
	if err != nil {
		return "", err
	}
	// Session starts wait in the spool until the next write: look there
	// too, or two sessions started in a row would both be told.
	for _, s := range append(starts, db.SpooledOfType(store.TypeSessionStarted)...) {
		if s.SessionID != sessionID && !s.Time.Before(r.Time) {
			return "", nil // a session started since: it was told
		}
	}
	c := Cap{Key: p.Cap, Window: p.Window, Limit: p.Limit, Spent: p.Spent, USD: p.USD}
	until := "tomorrow"
	if p.Window == "month" {
		until = "next month"
	}
	return fmt.Sprintf("LLM extraction budget reached: %s; sessions are extracted offline until %s.", c, until), nil
}

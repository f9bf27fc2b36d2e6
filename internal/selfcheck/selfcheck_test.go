package selfcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/llm"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/tidwall/gjson"
)

var t0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

const (
	project = "/p"
	session = "s1"
	secret  = "ghp_EXAMPLE0123456789abcdefghijklmnopqrs"
)

// judge is a fake OpenAI-compatible endpoint: it answers every request
// with reply (given the request's user message) and keeps the messages.
type judge struct {
	mu    sync.Mutex
	users []string
	reply func(user string) string
}

func (j *judge) serve(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		user := gjson.GetBytes(b, "messages.1.content").String()
		j.mu.Lock()
		j.users = append(j.users, user)
		j.mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"content": j.reply(user)}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 10},
		})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (j *judge) requests() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.users...)
}

// model is the openai backend on the judge's server.
func model(t *testing.T, url string) *llm.OpenAI {
	t.Helper()
	o, err := llm.NewOpenAI(config.LLM{BaseURL: url, Model: "judge", TimeoutSeconds: 5}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// turn stores a memory, then a turn of session that was shown it: prompt
// p1, the injection record and answer. It returns the memory.
func turn(t *testing.T, db *store.DB, answer string) store.Entry {
	t.Helper()
	ctx := context.Background()
	x := storetest.QuotedEntry(t, db, project, "the ledger listens on port 7443", 1, func(int) string {
		return "the ledger listens on port 7443"
	})
	evs := []store.Event{
		{Time: t0, Type: store.TypeUserPrompt, SessionID: session, Project: project, DedupeKey: "prompt:s1:p1",
			Text: "Which port does the ledger use? <private>my token is " + secret + "</private>", Payload: json.RawMessage(`{"prompt_id":"p1"}`)},
		{Time: t0, Type: store.TypeMemoryInjected, SessionID: session, Project: project, DedupeKey: "inject:s1:p1",
			Payload: json.RawMessage(`{"prompt_id":"p1","memories":["` + x.CID + `"]}`)},
		{Time: t0.Add(time.Second), Type: store.TypeAgentResponse, SessionID: session, Project: project, DedupeKey: "stop:s1:p1",
			Text: answer, Payload: json.RawMessage(`{"prompt_id":"p1"}`)},
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		t.Fatal(err)
	}
	return x
}

// TestCheckContradiction: a turn whose answer contradicts the memory shown
// for it is sent to the model with that memory and without the prompt's
// private section; the verdict names the memory, is stored once and
// logged, and Pending shows it once.
func TestCheckContradiction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	x := turn(t, db, "The ledger uses port 9000.")
	j := &judge{reply: func(user string) string {
		// A judge that finds the memory and the answer disagree.
		if strings.Contains(user, x.CID+": the ledger listens on port 7443") && strings.Contains(user, "port 9000") {
			return "```json\n{\"answered\":true,\"grounded\":false,\"contradicts\":[\"" + x.CID + "\",\"mem:ffff\"]}\n```"
		}
		return `{"answered":true,"grounded":true,"contradicts":[]}`
	}}
	var logBuf bytes.Buffer
	c := &Checker{DB: db, Model: model(t, j.serve(t).URL), Log: slog.New(slog.NewTextHandler(&logBuf, nil)), Now: func() time.Time { return t0.Add(time.Minute) }}
	v, err := c.Check(ctx, store.Session{ID: session, Project: project}, "p1")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{x.CID}; !v.Answered || v.Grounded == nil || *v.Grounded || strings.Join(v.Contradicts, ",") != strings.Join(want, ",") {
		t.Fatalf("verdict %+v, want answered, not grounded, contradicts %v (mem:ffff was not shown)", v, want)
	}
	reqs := j.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if strings.Contains(reqs[0], secret) || !strings.Contains(reqs[0], "Which port does the ledger use?") {
		t.Errorf("the request leaks the private section or lacks the prompt:\n%s", reqs[0])
	}
	want := "Memory self-check of the last answer: answered; not grounded in the memories shown; contradicts " + x.CID
	if v.Line() != want {
		t.Errorf("line %q, want %q", v.Line(), want)
	}
	if !strings.Contains(logBuf.String(), "contradicts "+x.CID) {
		t.Errorf("the log lacks the verdict:\n%s", logBuf.String())
	}
	// Checked again (a Stop delivered twice), the turn keeps one verdict.
	if _, err := c.Check(ctx, store.Session{ID: session, Project: project}, "p1"); err != nil {
		t.Fatal(err)
	}
	if evs, _ := db.Read().Events(ctx, store.EventFilter{SessionID: session, Types: []string{store.TypeSelfCheck}}); len(evs) != 1 {
		t.Errorf("%d self_check events, want 1", len(evs))
	}

	line, shown, ok, err := Pending(ctx, db, session, t0.Add(2*time.Minute))
	if err != nil || !ok || line != want {
		t.Fatalf("Pending = %q, %v, %v; want %q", line, ok, err, want)
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, shown); return err }); err != nil {
		t.Fatal(err)
	}
	if line, _, ok, err := Pending(ctx, db, session, t0.Add(3*time.Minute)); ok || err != nil {
		t.Errorf("Pending after the verdict was shown = %q, %v, %v; want nothing", line, ok, err)
	}
}

// TestPendingSpooled: a verdict whose shown marker waits in the spool (the
// prompt hook spools it) is not shown again; another session's is its own.
func TestPendingSpooled(t *testing.T) {
	if !store.SpoolSupported {
		t.Skip("no spool on this OS")
	}
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	x := turn(t, db, "The ledger uses port 9000.")
	j := &judge{reply: func(string) string { return `{"answered":true,"grounded":false,"contradicts":["` + x.CID + `"]}` }}
	c := &Checker{DB: db, Model: model(t, j.serve(t).URL)}
	if _, err := c.Check(ctx, store.Session{ID: session, Project: project}, "p1"); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, _ := Pending(ctx, db, "other", t0); ok {
		t.Error("another session was shown this session's verdict")
	}
	_, shown, ok, err := Pending(ctx, db, session, t0)
	if !ok || err != nil {
		t.Fatalf("no pending verdict: %v", err)
	}
	if err := store.Spool(ctx, db.Path(), store.Session{ID: session, Project: project, Cwd: "/p"}, shown); err != nil {
		t.Fatal(err)
	}
	if line, _, ok, err := Pending(ctx, db, session, t0); ok || err != nil {
		t.Errorf("Pending with the marker spooled = %q, %v, %v; want nothing", line, ok, err)
	}
}

// TestCheckBudgetReached: at an LLM budget cap nothing is sent and nothing
// is stored.
func TestCheckBudgetReached(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	turn(t, db, "The ledger uses port 9000.")
	now := time.Now()
	spent := store.Event{Time: now, Type: store.TypeLLMCall, SessionID: "s0", Project: project, DedupeKey: "llm_call:s0:1",
		Payload: json.RawMessage(`{"extractor":"openai","input_tokens":5000,"output_tokens":10}`)}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, spent); return err }); err != nil {
		t.Fatal(err)
	}
	j := &judge{reply: func(string) string { return `{"answered":true,"grounded":true,"contradicts":[]}` }}
	m := &spend.Meter{DB: db, Caps: config.Budget{DailyTokens: 1000}, Now: func() time.Time { return now }}
	c := &Checker{DB: db, Model: model(t, j.serve(t).URL), Budget: m}
	if _, err := c.Check(ctx, store.Session{ID: session, Project: project}, "p1"); !errors.Is(err, ErrBudget) {
		t.Fatalf("err = %v, want ErrBudget", err)
	}
	if n := len(j.requests()); n != 0 {
		t.Errorf("%d requests sent at the cap", n)
	}
	if _, _, ok, _ := Pending(ctx, db, session, now); ok {
		t.Error("a verdict is pending though none was made")
	}
}

// TestCheckRecordsSpend: under a cap not reached, the call's tokens are
// recorded as an llm_call event.
func TestCheckRecordsSpend(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	turn(t, db, "The ledger uses port 7443.")
	j := &judge{reply: func(string) string { return `{"answered":true,"grounded":true,"contradicts":[]}` }}
	now := time.Now()
	m := &spend.Meter{DB: db, Caps: config.Budget{DailyTokens: 100000}, Now: func() time.Time { return now }}
	c := &Checker{DB: db, Model: model(t, j.serve(t).URL), Budget: m}
	if _, err := c.Check(ctx, store.Session{ID: session, Project: project}, "p1"); err != nil {
		t.Fatal(err)
	}
	st, err := spend.Read(ctx, db, m.Caps, now)
	if err != nil {
		t.Fatal(err)
	}
	if st.Day.Calls != 1 || st.Day.Tokens() != 110 {
		t.Errorf("spend %+v, want 1 call of 110 tokens", st.Day)
	}
}

func TestLoadNoAnswer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	p := store.Event{Time: t0, Type: store.TypeUserPrompt, SessionID: session, Project: project, DedupeKey: "prompt:s1:p1",
		Text: "hello", Payload: json.RawMessage(`{"prompt_id":"p1"}`)}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, p); return err }); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"p1", "p2"} {
		if _, err := Load(ctx, db, session, id); !errors.Is(err, ErrNoTurn) {
			t.Errorf("Load(%s) err = %v, want ErrNoTurn", id, err)
		}
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	shown := []string{"mem:ab12cd", "mem:t3f"}
	yes, no := true, false
	for _, tt := range []struct {
		out   string
		shown []string
		want  Verdict
		err   error
	}{
		{`{"answered":true,"grounded":true,"contradicts":[]}`, shown, Verdict{Answered: true, Grounded: &yes}, nil},
		{"Here:\n```json\n{\"answered\":false,\"grounded\":false,\"contradicts\":[\"[mem:t3f]\",\"mem:zzzz\",\"mem:t3f\"]}\n```", shown,
			Verdict{Grounded: &no, Contradicts: []string{"mem:t3f"}}, nil},
		{`{"answered":true,"grounded":true,"contradicts":["mem:ab12cd"]}`, nil, Verdict{Answered: true}, nil},
		{`{"grounded":true}`, shown, Verdict{}, ErrMalformed},
		{`answered: yes`, shown, Verdict{}, ErrMalformed},
	} {
		got, err := Parse(tt.out, tt.shown)
		if !errors.Is(err, tt.err) {
			t.Errorf("Parse(%q) err = %v, want %v", tt.out, err, tt.err)
			continue
		}
		if got.Line() != tt.want.Line() {
			t.Errorf("Parse(%q) = %q, want %q", tt.out, got.Line(), tt.want.Line())
		}
	}
}

// TestUnavailableOnce: the self-check without an LLM is logged once, and
// again only after an LLM was available in between.
func TestUnavailableOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var logBuf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logBuf, nil))
	for range 3 {
		Unavailable(dir, log, "extractor offline")
	}
	if n := strings.Count(logBuf.String(), "no LLM is available"); n != 1 {
		t.Fatalf("said %d times, want once:\n%s", n, logBuf.String())
	}
	Available(dir)
	Unavailable(dir, log, "extractor offline")
	if n := strings.Count(logBuf.String(), "no LLM is available"); n != 2 {
		t.Errorf("said %d times after an LLM came and went, want twice", n)
	}
}

// TestForgetTakesTheVerdict: a verdict naming a memory the user then
// forgets is forgotten with it; the next prompt does not say "contradicts"
// about a memory that is gone.
func TestForgetTakesTheVerdict(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	x := turn(t, db, "The ledger uses port 9000.")
	j := &judge{reply: func(string) string {
		return `{"answered":true,"grounded":false,"contradicts":["` + x.CID + `"]}`
	}}
	c := &Checker{DB: db, Model: model(t, j.serve(t).URL), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: func() time.Time { return t0.Add(time.Minute) }}
	if _, err := c.Check(ctx, store.Session{ID: session, Project: project}, "p1"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, store.ForgetSelector{CID: x.CID}); err != nil {
		t.Fatal(err)
	}
	if evs, _ := db.Read().Events(ctx, store.EventFilter{SessionID: session, Types: []string{store.TypeSelfCheck}}); len(evs) != 0 {
		t.Errorf("%d self_check events name the forgotten memory, want 0", len(evs))
	}
	if line, _, ok, err := Pending(ctx, db, session, t0.Add(2*time.Minute)); ok || err != nil {
		t.Errorf("Pending after forget = %q, %v, %v; want nothing", line, ok, err)
	}
}

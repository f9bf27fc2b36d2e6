package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// digestNow is the tests' clock: sessions are dated back from it.
var digestNow = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

// turn is one transcript row of a dated test session.
type turn struct {
	role string // user, assistant, bash (a Bash call and its output)
	text string // for bash: the command
	out  string // for bash: the output
	fail bool   // for bash: the call failed
}

// datedSession stores a session whose messages are daysAgo days before
// digestNow, as import stores a transcript, and extracts its memories.
func datedSession(t *testing.T, db *store.DB, sid string, daysAgo int, turns ...turn) {
	t.Helper()
	ctx := context.Background()
	at := digestNow.Add(-time.Duration(daysAgo) * 24 * time.Hour)
	var b strings.Builder
	row := func(v map[string]any) {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(j, '\n'))
	}
	for i, tu := range turns {
		ts := at.Add(time.Duration(i) * time.Minute).Format(time.RFC3339)
		base := map[string]any{"sessionId": sid, "timestamp": ts, "uuid": fmt.Sprintf("%s-%d", sid, i), "cwd": "/p"}
		switch tu.role {
		case "user":
			base["type"], base["promptId"] = "user", fmt.Sprintf("%s-p%d", sid, i)
			base["message"] = map[string]any{"role": "user", "content": tu.text}
			row(base)
		case "assistant":
			base["type"] = "assistant"
			base["message"] = map[string]any{"id": fmt.Sprintf("msg-%s-%d", sid, i), "role": "assistant",
				"content": []any{map[string]any{"type": "text", "text": tu.text}}, "stop_reason": "end_turn"}
			row(base)
		case "bash":
			id := fmt.Sprintf("toolu_%s_%d", sid, i)
			base["type"] = "assistant"
			base["message"] = map[string]any{"id": fmt.Sprintf("msg-%s-%d", sid, i), "role": "assistant",
				"content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": tu.text}}}, "stop_reason": "tool_use"}
			row(base)
			res := map[string]any{"sessionId": sid, "timestamp": ts, "uuid": fmt.Sprintf("%s-%d-r", sid, i), "cwd": "/p", "type": "user",
				"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": tu.out, "is_error": tu.fail}}}}
			row(res)
		}
	}
	path := filepath.Join(t.TempDir(), sid+".jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.TouchSession(ctx, store.Session{ID: sid, Project: "/p", Cwd: "/p", TranscriptPath: path, Source: "import", StartedAt: at})
	}); err != nil {
		t.Fatal(err)
	}
	s, err := db.Read().Session(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&capture.Recorder{DB: db, Log: quiet}).Ingest(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	if _, err := digestProcessor(db).Process(ctx, sid); err != nil {
		t.Fatal(err)
	}
}

func digestProcessor(db *store.DB) *Processor {
	return &Processor{DB: db, Extractor: Offline{}, Log: quiet, Now: func() time.Time { return digestNow }}
}

// digests runs the worker's digest step with the default age, 30 days.
func digests(t *testing.T, db *store.DB, limit int) DigestResult {
	t.Helper()
	res, err := digestProcessor(db).Digests(context.Background(), "", DigestsBefore(digestNow, 30), limit)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// digestOf returns the digest of session sid, ok false when it has none.
func digestOf(t *testing.T, db *store.DB, sid string) (store.Entry, bool) {
	t.Helper()
	es, err := db.Read().Entries(context.Background(), store.EntryFilter{SessionID: sid, Types: []string{store.DigestType}, Evidence: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) > 1 {
		t.Fatalf("session %s has %d digests", sid, len(es))
	}
	if len(es) == 0 {
		return store.Entry{}, false
	}
	return es[0], true
}

// digestedOld stores oldWork as session "old", 40 days back, has the
// worker digest it, and returns its digest.
func digestedOld(t *testing.T, db *store.DB) store.Entry {
	t.Helper()
	datedSession(t, db, "old", 40, oldWork...)
	digests(t, db, DigestLimit)
	d, ok := digestOf(t, db, "old")
	if !ok {
		t.Fatal("no digest")
	}
	return d
}

// oldWork is a session of decisions, a model's own claim, a command that
// failed then passed, and work left open.
var oldWork = []turn{
	{role: "user", text: "For the ledger service we decided to use Postgres 16 with the pgx driver. Please set up the migrations."},
	{role: "assistant", text: "Done. I also think the ledger should use port 7443 for its admin API."},
	{role: "bash", text: "go test ./ledger/...", out: "--- FAIL: TestMigrate\nFAIL\tledger\t0.2s", fail: true},
	{role: "bash", text: "go test ./ledger/...", out: "ok  \tledger\t0.3s"},
	{role: "user", text: "TODO: add the nightly backup job for the ledger database tomorrow."},
}

// TestDigestOfOldSession: a session 40 days old gets one verified digest
// whose every line rests on a quote that aligns, word for word, in what the
// user said or a tool ran, never in the model's answer; a session 5 days
// old gets none; running again builds nothing more.
func TestDigestOfOldSession(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	datedSession(t, db, "old", 40, oldWork...)
	datedSession(t, db, "recent", 5, turn{role: "user", text: "We decided to use Redis 7 for the session cache."})

	if got := digests(t, db, DigestLimit); got.Built != 1 || got.Skipped != 0 {
		t.Fatalf("Digests = %+v, want 1 built", got)
	}
	if _, ok := digestOf(t, db, "recent"); ok {
		t.Errorf("a 5-day-old session got a digest")
	}
	d, ok := digestOf(t, db, "old")
	if !ok {
		t.Fatal("the 40-day-old session has no digest")
	}
	if d.Stage != store.StageVerified || d.Type != "digest" {
		t.Errorf("digest %s is %s %s, want a verified digest", d.CID, d.Type, d.Stage)
	}
	lines := strings.Split(d.Body, "\n")
	if len(lines) != len(d.Evidence) {
		t.Errorf("%d lines, %d quotes: every line needs its quote\n%s", len(lines), len(d.Evidence), d.Body)
	}
	for _, want := range []string{"Decided: For the ledger service we decided to use Postgres 16 with the pgx driver",
		"Open: Add the nightly backup job for the ledger database tomorrow",
		"Done: `go test ./ledger/...` failed, then passed: ok  \tledger\t0.3s"} {
		if !strings.Contains(d.Body, want) {
			t.Errorf("digest lacks %q:\n%s", want, d.Body)
		}
	}
	if strings.Contains(d.Body, "7443") {
		t.Errorf("digest holds what only the model said:\n%s", d.Body)
	}
	for _, v := range d.Evidence {
		ev, err := db.Event(ctx, v.EventID)
		if err != nil {
			t.Fatalf("quote %q: %v", v.Quote, err)
		}
		if v.Method != "exact" || ev.Text[v.SpanStart:v.SpanEnd] != v.Quote {
			t.Errorf("quote %q: %s match, span %q", v.Quote, v.Method, ev.Text[v.SpanStart:v.SpanEnd])
		}
		if ev.Type != store.TypeUserPrompt && ev.Type != store.TypeToolObservation || ev.SessionID != "old" {
			t.Errorf("quote %q rests on a %s of session %s", v.Quote, ev.Type, ev.SessionID)
		}
	}
	if want := digestNow.Add(-40 * 24 * time.Hour); d.Created.Before(want) || d.Created.After(want.Add(time.Hour)) {
		t.Errorf("digest dated %v, want its session's time %v", d.Created, want)
	}

	events, _ := db.CountEvents(ctx, "")
	if got := digests(t, db, DigestLimit); got != (DigestResult{}) {
		t.Errorf("a second run did %+v", got)
	}
	if after, _ := db.CountEvents(ctx, ""); after != events {
		t.Errorf("a second run wrote %d events", after-events)
	}
}

// TestDigestsBoundedPerRun: a run digests at most its limit of sessions,
// the oldest first; the next runs take the rest.
func TestDigestsBoundedPerRun(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	for i, days := range []int{50, 40, 60} {
		datedSession(t, db, fmt.Sprintf("s%d", i), days, turn{role: "user", text: fmt.Sprintf("Set up the build for service number %d.", i)})
	}
	if got := digests(t, db, 2); got.Built != 2 {
		t.Fatalf("first run built %d, want 2", got.Built)
	}
	if _, ok := digestOf(t, db, "s1"); ok {
		t.Errorf("the newest session was digested before the older ones")
	}
	if got := digests(t, db, 2); got.Built != 1 {
		t.Errorf("second run built %d, want 1", got.Built)
	}
	if got := digests(t, db, 2); got.Built != 0 {
		t.Errorf("third run built %d, want 0", got.Built)
	}
}

// TestDigestWithNothingToQuote: a session of slash commands alone is
// marked and not read again.
func TestDigestWithNothingToQuote(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	datedSession(t, db, "slash", 40, turn{role: "user", text: "/clear"}, turn{role: "assistant", text: "We decided to use Redis."})
	if got := digests(t, db, DigestLimit); got.Built != 0 || got.Skipped != 1 {
		t.Fatalf("Digests = %+v, want 1 skipped", got)
	}
	if got := digests(t, db, DigestLimit); got != (DigestResult{}) {
		t.Errorf("the skipped session was read again: %+v", got)
	}
}

// TestForgetTakesTheDigest: forgetting a memory of a digested session (no
// --shared) takes the digest that quotes its words too; the next run
// rebuilds the digest from what is left, without them. A --match phrase
// of a digest line takes it as well.
func TestForgetTakesTheDigest(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	d := digestedOld(t, db)
	es, err := db.Read().Entries(ctx, store.EntryFilter{SessionID: "old", Evidence: true})
	if err != nil {
		t.Fatal(err)
	}
	var task store.Entry
	for _, e := range es {
		if e.Type == "task" && strings.Contains(d.Body, "Open: "+e.Title) {
			task = e
		}
	}
	if task.CID == "" {
		t.Fatalf("no task memory the digest names among %d entries:\n%s", len(es), d.Body)
	}
	forgotten := task.Evidence[0].Quote
	if _, err := db.Forget(ctx, store.ForgetSelector{CID: task.CID}); err != nil {
		t.Fatal(err)
	}
	if _, ok := digestOf(t, db, "old"); ok {
		t.Fatalf("the digest quoting the forgotten memory's words is still stored")
	}
	if got := digests(t, db, DigestLimit); got.Built != 1 {
		t.Fatalf("rebuild after the forget: %+v", got)
	}
	d2, ok := digestOf(t, db, "old")
	if !ok {
		t.Fatal("no digest rebuilt")
	}
	if strings.Contains(d2.Body, task.Title) || strings.Contains(d2.Body, "nightly backup") {
		t.Errorf("the rebuilt digest holds the forgotten words %q:\n%s", forgotten, d2.Body)
	}
	for _, v := range d2.Evidence {
		if strings.Contains(v.Quote, "nightly backup") {
			t.Errorf("the rebuilt digest quotes the forgotten words: %q", v.Quote)
		}
	}

	if _, err := db.Forget(ctx, store.ForgetSelector{Phrase: "pgx driver"}); err != nil {
		t.Fatal(err)
	}
	if d3, ok := digestOf(t, db, "old"); ok {
		t.Errorf("a digest holding a --match phrase is still stored:\n%s", d3.Body)
	}
	// Built again or refused by the forget's rule, the session is then
	// done with: it is not due on every later run.
	digests(t, db, DigestLimit)
	if got := digests(t, db, DigestLimit); got.Built != 0 || got.Skipped != 0 {
		t.Errorf("the session is still due after its digest was rebuilt or refused: %+v", got)
	}
}

// TestReextractRebuildsDigests: reextract builds an old session's digest
// again from the memories it derives, and does not count it as retired.
func TestReextractRebuildsDigests(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	before := digestedOld(t, db)
	p := digestProcessor(db)
	p.DigestAge = 30 * 24 * time.Hour
	res, err := p.Reextract(ctx, "/p", false)
	if err != nil {
		t.Fatal(err)
	}
	after, ok := digestOf(t, db, "old")
	if !ok {
		t.Fatalf("reextract left no digest: %+v", res)
	}
	if res.Digests != 1 || res.Retired != 0 {
		t.Errorf("reextract = %+v, want 1 digest rebuilt and none retired", res)
	}
	if after.Body != before.Body || after.CID != before.CID || len(after.Evidence) != len(before.Evidence) {
		t.Errorf("rebuilt digest %s differs from %s:\n%s\n---\n%s", after.CID, before.CID, after.Body, before.Body)
	}
}

// TestDigestsWanted: SessionEnd starts the digest worker until a run
// leaves no session due, then not for a while; a run that did its limit
// may have left more, so the next SessionEnd starts another.
func TestDigestsWanted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if !DigestsWanted(dir, digestNow) {
		t.Errorf("no run yet: not wanted")
	}
	RecordDigests(dir, DigestResult{Built: 3}, DigestLimit, digestNow)
	if DigestsWanted(dir, digestNow.Add(time.Hour)) {
		t.Errorf("an hour after a run that left none due: wanted")
	}
	if !DigestsWanted(dir, digestNow.Add(digestRecheck+time.Minute)) {
		t.Errorf("past the recheck: not wanted")
	}
	RecordDigests(dir, DigestResult{Built: DigestLimit}, DigestLimit, digestNow)
	if !DigestsWanted(dir, digestNow.Add(time.Hour)) {
		t.Errorf("after a run that did its limit: not wanted")
	}
}

// TestForgetBySessionOrDateTakesTheDigest: forgetting the digested
// session, or everything before a date inside it, deletes its digest, and
// no run builds one from what is gone.
func TestForgetBySessionOrDateTakesTheDigest(t *testing.T) {
	t.Parallel()
	for name, sel := range map[string]store.ForgetSelector{
		"session": {SessionID: "old"},
		"before":  {Before: digestNow.Add(-40*24*time.Hour + 3*time.Minute)}, // the first three messages
	} {
		t.Run(name, func(t *testing.T) {
			db := storetest.Open(t)
			ctx := context.Background()
			digestedOld(t, db)
			if _, err := db.Forget(ctx, sel); err != nil {
				t.Fatal(err)
			}
			if d, ok := digestOf(t, db, "old"); ok {
				t.Fatalf("digest kept after forget %s:\n%s", name, d.Body)
			}
			digests(t, db, DigestLimit)
			if d, ok := digestOf(t, db, "old"); ok && (strings.Contains(d.Body, "Postgres") || name == "session") {
				t.Errorf("rebuilt from forgotten messages:\n%s", d.Body)
			}
		})
	}
}

// TestResumedSessionLosesItsDigest: a digested session resumed today no
// longer has the digest, which told only its old part; it is not due
// again until its latest message is old.
func TestResumedSessionLosesItsDigest(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	digestedOld(t, db)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		_, err := tx.Append(ctx, store.Event{Time: digestNow, Type: store.TypeUserPrompt, SessionID: "old", Project: "/p",
			Text: "Back to the ledger: switch the backups to hourly.", DedupeKey: "resumed:1"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := digestProcessor(db).Process(ctx, "old"); err != nil {
		t.Fatal(err)
	}
	if d, ok := digestOf(t, db, "old"); ok {
		t.Errorf("the resumed session keeps its old digest:\n%s", d.Body)
	}
	if got := digests(t, db, DigestLimit); got != (DigestResult{}) {
		t.Errorf("the resumed session is due again at once: %+v", got)
	}
}

// TestForgetTheDigestAlone: forgetting a digest by its id drops the digest
// and nothing else: the prompts and outputs it quotes, and the memories that
// quote them, stay; the session is marked so the worker does not build the
// digest again; the forget leaves no rule refusing those words.
func TestForgetTheDigestAlone(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	d := digestedOld(t, db)
	before, err := db.Read().Entries(ctx, store.EntryFilter{SessionID: "old"})
	if err != nil {
		t.Fatal(err)
	}
	events := func(sid string) []store.Event {
		es, err := db.Read().Events(ctx, store.EventFilter{SessionID: sid})
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	texts := map[int64]string{} // the conversation
	for _, e := range events("old") {
		if e.Type == store.TypeUserPrompt || e.Type == store.TypeAgentResponse || e.Type == store.TypeToolObservation {
			texts[e.ID] = e.Text
		}
	}
	p, err := db.Forget(ctx, store.ForgetSelector{CID: d.CID})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Redact) != 0 || len(p.Entries) != 1 {
		t.Errorf("forgetting the digest planned %d redactions and %d entries; want 0 and 1", len(p.Redact), len(p.Entries))
	}
	if _, ok := digestOf(t, db, "old"); ok {
		t.Fatal("the digest is still stored")
	}
	left := map[int64]string{}
	for _, e := range events("old") {
		left[e.ID] = e.Text
	}
	for id, was := range texts {
		if now, ok := left[id]; !ok || now != was {
			t.Errorf("event %d: %q → %q (still stored: %v)", id, was, now, ok)
		}
	}
	after, err := db.Read().Entries(ctx, store.EntryFilter{SessionID: "old"})
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before)-1 {
		t.Errorf("entries: %d before, %d after; only the digest should go", len(before), len(after))
	}
	if got := digests(t, db, DigestLimit); got.Built != 0 {
		t.Errorf("the worker built the forgotten digest again: %+v", got)
	}
	// The words the digest quoted may be said and stored again.
	datedSession(t, db, "later", 1, turn{role: "user", text: oldWork[0].text})
	var stored bool
	for _, e := range events("later") {
		stored = stored || e.Text == oldWork[0].text
	}
	if !stored {
		t.Errorf("a prompt the forgotten digest quoted was refused when said again")
	}
}

// TestReextractKeepsForgottenDigestForgotten: a digest the user forgot by
// its id is not built again when the sessions are derived again.
func TestReextractKeepsForgottenDigestForgotten(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	d := digestedOld(t, db)
	if _, err := db.Forget(ctx, store.ForgetSelector{CID: d.CID}); err != nil {
		t.Fatal(err)
	}
	p := digestProcessor(db)
	p.DigestAge = 30 * 24 * time.Hour
	res, err := p.Reextract(ctx, "/p", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := digestOf(t, db, "old"); ok {
		t.Errorf("reextract built again the digest the user forgot: %+v", res)
	}
}

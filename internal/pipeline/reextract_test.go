package pipeline

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/correct"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// claimsExtractor makes one decision per claim whose quote a message holds,
// quoting it; a claim with unaligned set is made whatever the messages
// say, quoting what it quotes (an LLM that remembers a forgotten phrase).
type claimsExtractor []claimSpec

type claimSpec struct {
	title, quote string
	unaligned    bool
}

func (c claimsExtractor) Name() string { return "claims" }

func (c claimsExtractor) Extract(_ context.Context, msgs []extract.Message) ([]extract.Entry, error) {
	var out []extract.Entry
	for _, s := range c {
		for _, m := range msgs {
			if s.unaligned || strings.Contains(m.Text, s.quote) {
				out = append(out, extract.Entry{Type: extract.Decision, Title: s.title, Subject: "setup",
					Evidence: []extract.Evidence{{MessageIndex: m.Index, Quote: s.quote}}})
				break
			}
		}
	}
	return out, nil
}

// snapshot is every row of the tables a re-extraction writes, as text.
func snapshot(t *testing.T, path string) string {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var b strings.Builder
	for _, q := range []string{
		`SELECT id, cid, title, body, claim_key, stage, status, coalesce(superseded_by, 0), inject_count FROM entries ORDER BY id`,
		`SELECT id, entry_id, session_id, quote FROM evidence ORDER BY id`,
		`SELECT id, type, dedupe_key FROM events ORDER BY id`,
		`SELECT id, older, newer, resolution FROM conflicts ORDER BY id`,
		`SELECT id, summary FROM sessions ORDER BY id`,
	} {
		rows, err := raw.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
	}
	return b.String()
}

// TestReextract: memories made by an older extractor are derived again by
// a newer one. What the user corrected keeps the correction, what was
// forgotten stays forgotten, what the newer one no longer makes is retired
// (its injection count going to the memory quoting the same words), and a
// second run changes nothing.
func TestReextract(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const secret = "zanzibarqueue"
	ingest(t, db, "s", writeTranscript(t, "s",
		"We deploy with the kestrel pipeline on Fridays.",
		"Noted: an old remark about the walrus cache.",
		"The build uses the heron toolchain.",
		"Logs go to the otter bucket.",
		"Tests run under the lynx harness.",
		"The release codename is "+secret+".",
		"Metrics land in the ibex dashboard.",
		"Deploys target the yak cluster.",
		"Backups run nightly to the gannet store."))
	older := claimsExtractor{
		{title: "Deploy with kestrel", quote: "deploy with the kestrel pipeline"},
		{title: "Walrus cache remark", quote: "walrus cache"},
		{title: "Build uses heron", quote: "heron toolchain"},
		{title: "Logs go to otter", quote: "otter bucket"},
		{title: "Tests under lynx", quote: "lynx harness"},
		{title: "Release codename", quote: "codename is " + secret},
		{title: "Metrics in ibex", quote: "ibex dashboard"},
		{title: "Backups to gannet", quote: "gannet store"},
	}
	if _, err := (&Processor{DB: db, Extractor: older, Log: quiet}).Process(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	byTitle := func() map[string]store.Entry {
		es, err := db.Read().Entries(ctx, store.EntryFilter{Project: "/p"})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]store.Entry{}
		for _, e := range es {
			m[e.Title] = e
		}
		return m
	}
	before := byTitle()
	if len(before) != len(older) {
		t.Fatalf("older extractor made %d memories, want %d", len(before), len(older))
	}
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	if _, err := correct.Stage(ctx, db, before["Build uses heron"], store.StageRejected, now); err != nil {
		t.Fatal(err)
	}
	if _, err := correct.Stage(ctx, db, before["Backups to gannet"], store.StageCertified, now); err != nil {
		t.Fatal(err)
	}
	if _, err := correct.Pin(ctx, db, before["Logs go to otter"], true, now); err != nil {
		t.Fatal(err)
	}
	edited := "Tests run under the lynx harness, in CI too"
	if _, _, err := correct.Edit(ctx, db, before["Tests under lynx"], correct.Text{Title: &edited}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, store.ForgetSelector{CID: before["Release codename"].CID}); err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(map[string]any{"memories": []string{before["Metrics in ibex"].CID}})
	for i := range 3 {
		if err := db.MarkInjected(ctx, store.Event{Time: now, Type: store.TypeMemoryInjected, SessionID: "s", Project: "/p",
			Payload: payload, DedupeKey: store.Key(store.KeyKind(store.TypeMemoryInjected), fmt.Sprint(i))}); err != nil {
			t.Fatal(err)
		}
	}

	newer := claimsExtractor{
		{title: "Deploy with kestrel", quote: "kestrel pipeline on Fridays"}, // quoted otherwise
		{title: "Toolchain is heron", quote: "heron toolchain"},              // the rejected claim in other words
		{title: "Logs go to otter", quote: "otter bucket"},
		{title: "Tests under lynx", quote: "lynx harness"},
		{title: "Release codename", quote: "The release codename is " + secret, unaligned: true},
		{title: "Dashboard is ibex", quote: "ibex dashboard"}, // in other words, never corrected
		{title: "Deploys target yak", quote: "yak cluster"},
	}
	p := &Processor{DB: db, Extractor: newer, Log: quiet}
	pre := snapshot(t, path)
	dry, err := p.Reextract(ctx, "/p", true)
	if err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, path); got != pre {
		t.Errorf("a dry run changed the store:\n%s\nthen\n%s", pre, got)
	}
	res, err := p.Reextract(ctx, "/p", false)
	if err != nil {
		t.Fatal(err)
	}
	want := ReextractResult{Projects: 1, Sessions: 1, Kept: 1, New: 2, Retired: 2, Corrected: 4, Extractor: "claims"}
	if res != want {
		t.Errorf("reextract: %+v, want %+v", res, want)
	}
	if dry.DryRun = false; dry != res {
		t.Errorf("dry run said %+v, the run did %+v", dry, res)
	}

	after := byTitle()
	if a, b := after["Deploy with kestrel"], before["Deploy with kestrel"]; a.ID != b.ID || a.Stage != store.StageVerified || a.Status != store.StatusActive {
		t.Errorf("a memory derived again: %+v, was %+v", a, b)
	}
	quoted, err := db.Read().EntryByID(ctx, before["Deploy with kestrel"].ID)
	if err != nil || len(quoted.Evidence) != 1 || quoted.Evidence[0].Quote != "kestrel pipeline on Fridays" {
		t.Errorf("a memory derived again keeps the quotes the extractor no longer gives: %+v, %v", quoted.Evidence, err)
	}
	if e := after["Backups to gannet"]; e.ID != before["Backups to gannet"].ID || e.Stage != store.StageCertified {
		t.Errorf("a certified memory the extractor no longer makes: %+v", e)
	}
	for _, gone := range []string{"Walrus cache remark", "Metrics in ibex", "Release codename"} {
		if e, ok := after[gone]; ok {
			t.Errorf("%q still stored: %+v", gone, e)
		}
	}
	if e := after["Build uses heron"]; e.ID != before["Build uses heron"].ID || e.Stage != store.StageRejected {
		t.Errorf("the rejected memory: %+v", e)
	}
	if e, ok := after["Toolchain is heron"]; ok {
		t.Errorf("the rejected claim came back in other words: %+v", e)
	}
	pinned, err := db.Pinned(ctx, "/p")
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := after["Logs go to otter"]; !ok || !pinned[e.CID] {
		t.Errorf("the pinned memory: %+v, pinned %v", e, pinned)
	}
	if e, ok := after[edited]; !ok || e.ID != before["Tests under lynx"].ID {
		t.Errorf("the edited memory lost its edit: %v", after)
	}
	if e := after["Dashboard is ibex"]; e.InjectCount != 3 {
		t.Errorf("the retired memory's injections: %d on the one quoting its words, want 3", e.InjectCount)
	}
	if _, ok := after["Deploys target yak"]; !ok {
		t.Errorf("the new memory is missing: %v", after)
	}
	assertNowhere(t, path, secret)

	pre = snapshot(t, path)
	again, err := p.Reextract(ctx, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if want := (ReextractResult{Projects: 1, Sessions: 1, Kept: 3, Corrected: 4, Extractor: "claims"}); again != want {
		t.Errorf("second run: %+v, want %+v", again, want)
	}
	if got := snapshot(t, path); got != pre {
		t.Errorf("a second run changed the store:\n%s\nthen\n%s", pre, got)
	}
}

// namedExtractor is a claimsExtractor under another name.
type namedExtractor struct {
	claimsExtractor
	name string
}

func (n namedExtractor) Name() string { return n.name }

// TestReextractKeepsSharedAndRemembered: a memory already on the team
// server, and one the user saved through the remember tool, are never
// retired, even when the current extractor no longer derives them: the
// first would stay on the server out of forget's reach, the second is the
// user's.
func TestReextractKeepsSharedAndRemembered(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ingest(t, db, "s1", writeTranscript(t, "s1", "Carts live in the puffin cache for an hour."))
	ingest(t, db, "s2", writeTranscript(t, "s2", "Invoices are numbered by the quokka sequence."))
	if _, err := (&Processor{DB: db, Extractor: claimsExtractor{{title: "Carts in puffin", quote: "puffin cache"}}, Log: quiet}).Process(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	shared, err := db.ShareVerified(ctx, "/p")
	if err != nil || shared != 1 {
		t.Fatalf("shared %d: %v", shared, err)
	}
	cs, err := db.Outbox(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.OutboxDone(ctx, cs); err != nil { // as a push that committed
		t.Fatal(err)
	}
	remembered := namedExtractor{claimsExtractor{{title: "Invoices by quokka", quote: "quokka sequence"}}, rememberExtractor}
	if _, err := (&Processor{DB: db, Extractor: remembered, Log: quiet}).Process(ctx, "s2"); err != nil {
		t.Fatal(err)
	}
	res, err := (&Processor{DB: db, Extractor: claimsExtractor{}, Log: quiet}).Reextract(ctx, "/p", false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Retired != 0 {
		t.Errorf("retired %d memories, want none: %+v", res.Retired, res)
	}
	es, err := db.Read().Entries(ctx, store.EntryFilter{Project: "/p"})
	if err != nil || len(es) != 2 {
		t.Errorf("%d memories left (%v), want the shared and the remembered one", len(es), err)
	}
}

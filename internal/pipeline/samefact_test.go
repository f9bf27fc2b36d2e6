package pipeline

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// sayOnce processes session sid with an extractor that finds one decision,
// titled title, quoting the session's first message.
func sayOnce(t *testing.T, db *store.DB, sid, title, quote string) {
	t.Helper()
	say(t, db, sid, extract.Entry{Type: "decision", Title: title, Subject: "hosting",
		Evidence: []extract.Evidence{{MessageIndex: 0, Quote: quote}}})
}

// say processes session sid with an extractor that finds e.
func say(t *testing.T, db *store.DB, sid string, e extract.Entry) {
	t.Helper()
	p := &Processor{DB: db, Log: quiet, Extractor: fakeExtractor{e}}
	if _, err := p.Process(context.Background(), sid); err != nil {
		t.Fatal(err)
	}
}

// TestSameValueOtherSubject: a fact said again under a subject worded
// otherwise, giving the same value, is the same memory; a fact about
// another thing with another value is not.
func TestSameValueOtherSubject(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	fact := func(sid, subject, text string) {
		ingest(t, db, sid, writeTranscript(t, sid, text, "Okay."))
		say(t, db, sid, extract.Entry{Type: "fact", Title: text, Subject: subject, Evidence: []extract.Evidence{{MessageIndex: 0, Quote: text}}})
	}
	fact("s1", "relay server", "Relay server: http://localhost:4817")
	fact("s2", "backend (relay server)", "Backend (Relay server): http://localhost:4817")
	fact("s3", "frontend server", "Frontend server: http://localhost:4816")
	es, err := db.Read().Entries(context.Background(), store.EntryFilter{Project: "/p", Types: []string{"fact"}, Evidence: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]int{} // quotes → memories
	for _, e := range es {
		got[len(e.Evidence)]++
	}
	if len(es) != 2 || got[2] != 1 || got[1] != 1 {
		t.Errorf("memories %v, want the 4817 one with two quotes and the 4816 one apart", quotesOf(es))
	}
}

func decisionsOf(t *testing.T, db *store.DB) []store.Entry {
	t.Helper()
	es, err := db.Read().Entries(context.Background(), store.EntryFilter{Project: "/p", Types: []string{"decision"}, Evidence: true})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// saidInTwoSessions stores one fact said in other words in sessions s1 and
// s2, each processed once: the cross-session merge makes it one memory.
func saidInTwoSessions(t *testing.T, db *store.DB) {
	t.Helper()
	ingest(t, db, "s1", writeTranscript(t, "s1", "We deploy the web app to fly.io from main.", "Okay."))
	ingest(t, db, "s2", writeTranscript(t, "s2", "Reminder: the web app deploys to fly.io.", "Noted."))
	sayOnce(t, db, "s1", "We deploy the web app to fly.io", "We deploy the web app to fly.io from main.")
	sayOnce(t, db, "s2", "The web app deploys to fly.io", "the web app deploys to fly.io")
}

// TestSameFactAcrossSessions: a fact said again in a later session in
// other words is one memory with both sessions' quotes. Forgetting one
// session drops only its quote; forgetting the other drops the memory;
// processing the sessions again brings nothing back.
func TestSameFactAcrossSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	saidInTwoSessions(t, db)

	es := decisionsOf(t, db)
	if len(es) != 1 || len(es[0].Evidence) != 2 {
		t.Fatalf("%d memories (quotes %v), want one with a quote from each session", len(es), quotesOf(es))
	}
	cid := es[0].CID

	// The same sessions processed again change nothing.
	sayOnce(t, db, "s2", "The web app deploys to fly.io", "the web app deploys to fly.io")
	if es := decisionsOf(t, db); len(es) != 1 || len(es[0].Evidence) != 2 {
		t.Fatalf("processed again: %d memories (quotes %v), want the one with two quotes", len(es), quotesOf(es))
	}

	if _, err := db.Forget(ctx, store.ForgetSelector{SessionID: "s1"}); err != nil {
		t.Fatal(err)
	}
	es = decisionsOf(t, db)
	if len(es) != 1 || es[0].CID != cid || len(es[0].Evidence) != 1 || es[0].Evidence[0].SessionID != "s2" {
		t.Fatalf("after forgetting s1: %d memories (quotes %v), want %s with s2's quote only", len(es), quotesOf(es), cid)
	}
	sayOnce(t, db, "s1", "We deploy the web app to fly.io", "We deploy the web app to fly.io from main.")
	if es := decisionsOf(t, db); len(es) != 1 || len(es[0].Evidence) != 1 {
		t.Fatalf("s1 processed after its forget: quotes %v, want s2's only", quotesOf(es))
	}

	if _, err := db.Forget(ctx, store.ForgetSelector{SessionID: "s2"}); err != nil {
		t.Fatal(err)
	}
	if es := decisionsOf(t, db); len(es) != 0 {
		t.Fatalf("after forgetting both sessions: quotes %v, want no memory", quotesOf(es))
	}
}

// TestSameFactReextract: reextract places a fact said in two sessions on
// one memory, and a second run changes nothing; a different value for
// the same thing stays a memory of its own.
func TestSameFactReextract(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	ingest(t, db, "s1", writeTranscript(t, "s1", "We deploy the web app to fly.io from main.", "Okay."))
	ingest(t, db, "s2", writeTranscript(t, "s2", "Reminder: the web app deploys to fly.io.", "Noted."))
	ingest(t, db, "s3", writeTranscript(t, "s3", "The web app deploys to render.com.", "Noted."))
	sayOnce(t, db, "s1", "We deploy the web app to fly.io", "We deploy the web app to fly.io from main.")
	sayOnce(t, db, "s2", "The web app deploys to fly.io", "the web app deploys to fly.io")
	sayOnce(t, db, "s3", "The web app deploys to render.com", "The web app deploys to render.com.")
	ex := extractorBySession{
		"s1": {Type: "decision", Title: "We deploy the web app to fly.io", Subject: "hosting", Evidence: []extract.Evidence{{MessageIndex: 0, Quote: "We deploy the web app to fly.io from main."}}},
		"s2": {Type: "decision", Title: "The web app deploys to fly.io", Subject: "hosting", Evidence: []extract.Evidence{{MessageIndex: 0, Quote: "the web app deploys to fly.io"}}},
		"s3": {Type: "decision", Title: "The web app deploys to render.com", Subject: "hosting", Evidence: []extract.Evidence{{MessageIndex: 0, Quote: "The web app deploys to render.com."}}},
	}
	before := quotesOf(decisionsOf(t, db))
	for run := 1; run <= 2; run++ {
		p := &Processor{DB: db, Log: quiet, Extractor: ex}
		if _, err := p.Reextract(ctx, "/p", false); err != nil {
			t.Fatal(err)
		}
		es := decisionsOf(t, db)
		if got := quotesOf(es); len(es) != 2 || !equalQuotes(got, before) {
			t.Fatalf("reextract %d: memories %v, want %v", run, got, before)
		}
	}
}

// extractorBySession extracts, from a session, the entry of the session
// whose first message its first quote is.
type extractorBySession map[string]extract.Entry

func (extractorBySession) Name() string { return "by-session" }

func (x extractorBySession) Extract(_ context.Context, msgs []extract.Message) ([]extract.Entry, error) {
	for _, e := range x {
		if len(msgs) > 0 && strings.Contains(msgs[0].Text, e.Evidence[0].Quote) {
			return []extract.Entry{e}, nil
		}
	}
	return nil, nil
}

// quotesOf is each memory's citation id and quotes.
func quotesOf(es []store.Entry) map[string][]string {
	out := map[string][]string{}
	for _, e := range es {
		out[e.CID] = []string{}
		for _, v := range e.Evidence {
			out[e.CID] = append(out[e.CID], v.SessionID+": "+v.Quote)
		}
	}
	return out
}

func equalQuotes(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || len(v) != len(w) {
			return false
		}
		for i := range v {
			if v[i] != w[i] {
				return false
			}
		}
	}
	return true
}

// TestReextractMergesOldCopies: two memories of one fact, stored before
// facts were merged (each session under its own claim key), become one on
// reextract, holding both sessions' quotes; a second run changes nothing.
// The subjects may be worded the same or otherwise.
func TestReextractMergesOldCopies(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name               string
		subject1, subject2 string
		said1, said2       string
		title1, title2     string
	}{
		{"same subject", "hosting", "hosting", "We deploy the web app to fly.io.", "Reminder: the web app deploys to fly.io.",
			"We deploy the web app to fly.io", "the web app deploys to fly.io"},
		{"other subject", "relay server", "backend (relay server)", "Relay server: http://localhost:4817", "Backend (Relay server): http://localhost:4817",
			"Relay server: http://localhost:4817", "Backend (Relay server): http://localhost:4817"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := storetest.Open(t)
			ingest(t, db, "s1", writeTranscript(t, "s1", tt.said1, "Okay."))
			ingest(t, db, "s2", writeTranscript(t, "s2", tt.said2, "Noted."))
			ex := extractorBySession{
				"s1": {Type: "decision", Title: tt.title1, Subject: tt.subject1, Evidence: []extract.Evidence{{MessageIndex: 0, Quote: tt.title1}}},
				"s2": {Type: "decision", Title: tt.title2, Subject: tt.subject2, Evidence: []extract.Evidence{{MessageIndex: 0, Quote: tt.title2}}},
			}
			// As an earlier build stored them: one memory per session.
			for _, sid := range []string{"s1", "s2"} {
				p := &Processor{DB: db, Log: quiet, Extractor: ex}
				err := db.Update(ctx, func(tx *store.Tx) error {
					plan, err := p.load(ctx, tx, sid)
					if err != nil {
						return err
					}
					plan.placed = true
					_, err = p.Apply(ctx, tx, plan)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			if es := decisionsOf(t, db); len(es) != 2 {
				t.Fatalf("before: %v, want two copies", quotesOf(es))
			}
			for run := 1; run <= 2; run++ {
				if _, err := (&Processor{DB: db, Log: quiet, Extractor: ex}).Reextract(ctx, "/p", false); err != nil {
					t.Fatal(err)
				}
				if es := decisionsOf(t, db); len(es) != 1 || len(es[0].Evidence) != 2 {
					t.Fatalf("reextract %d: %v, want one memory with both quotes", run, quotesOf(es))
				}
			}
			// Forgetting the merged memory takes both sessions' extraction
			// records with it.
			if _, err := db.Forget(ctx, store.ForgetSelector{CID: decisionsOf(t, db)[0].CID}); err != nil {
				t.Fatal(err)
			}
			evs, err := db.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeEntryExtracted, store.TypeEvidenceAligned}})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				t.Errorf("left after the forget: %s %s %q %s", e.SessionID, e.Type, e.Text, e.Payload)
			}
		})
	}
}

// TestSameFactNotMergedIntoSuperseded: a fact said again after it was
// replaced is a reversal, a memory of its own; merged into the superseded
// memory it would stay superseded and the reversal be lost.
func TestSameFactNotMergedIntoSuperseded(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ingest(t, db, "s1", writeTranscript(t, "s1", "We deploy the web app to fly.io from main.", "Okay."))
	ingest(t, db, "s2", writeTranscript(t, "s2", "We moved the web app from fly.io to render.com.", "Noted."))
	ingest(t, db, "s3", writeTranscript(t, "s3", "Back to the old setup: the web app deploys to fly.io.", "Noted."))
	sayOnce(t, db, "s1", "We deploy the web app to fly.io", "We deploy the web app to fly.io from main.")
	sayOnce(t, db, "s2", "We moved the web app from fly.io to render.com", "We moved the web app from fly.io to render.com.")
	sayOnce(t, db, "s3", "The web app deploys to fly.io", "the web app deploys to fly.io")
	for _, e := range decisionsOf(t, db) {
		for _, v := range e.Evidence {
			if v.SessionID == "s3" && e.Status == store.StatusSuperseded {
				t.Errorf("s3's restatement landed on superseded %s %q", e.CID, e.Title)
			}
		}
	}
}

// TestForgetMergedMemoryDropsEveryExtraction: forgetting by its id a
// memory two sessions said drops both sessions' extraction records (their
// titles, quotes and questions), not only the first session's.
func TestForgetMergedMemoryDropsEveryExtraction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	saidInTwoSessions(t, db)
	es := decisionsOf(t, db)
	if len(es) != 1 {
		t.Fatalf("%d memories, want the one merged", len(es))
	}
	if _, err := db.Forget(ctx, store.ForgetSelector{CID: es[0].CID}); err != nil {
		t.Fatal(err)
	}
	evs, err := db.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeEntryExtracted, store.TypeEvidenceAligned}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		t.Errorf("left after forgetting %s: %s %s %q %s", es[0].CID, e.SessionID, e.Type, e.Text, e.Payload)
	}
}

// TestForgetSessionDropsItsQuestions: forgetting a session that said again
// a fact another session keeps takes the questions it added with it: a
// word only its question had finds nothing.
func TestForgetSessionDropsItsQuestions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	ingest(t, db, "s1", writeTranscript(t, "s1", "We deploy the web app to fly.io from main.", "Okay."))
	ingest(t, db, "s2", writeTranscript(t, "s2", "Reminder: the web app deploys to fly.io for project zanzibar.", "Noted."))
	sayOnce(t, db, "s1", "We deploy the web app to fly.io", "We deploy the web app to fly.io from main.")
	say(t, db, "s2", extract.Entry{Type: "decision", Title: "The web app deploys to fly.io", Subject: "hosting",
		Questions: []string{"Where does project zanzibar deploy?"},
		Evidence:  []extract.Evidence{{MessageIndex: 0, Quote: "the web app deploys to fly.io for project zanzibar"}}})
	if es := decisionsOf(t, db); len(es) != 1 || !strings.Contains(strings.Join(es[0].Questions, " "), "zanzibar") {
		t.Fatalf("setup: want one memory with s2's question, got %+v", es)
	}
	if _, err := db.Forget(ctx, store.ForgetSelector{SessionID: "s2"}); err != nil {
		t.Fatal(err)
	}
	es := decisionsOf(t, db)
	if len(es) != 1 {
		t.Fatalf("%d memories after the forget, want s1's", len(es))
	}
	for _, q := range es[0].Questions {
		if strings.Contains(q, "zanzibar") {
			t.Errorf("forgotten session's question kept: %q", q)
		}
	}
	hits, err := db.SearchEntries(ctx, store.EntryQuery{Match: store.MatchAll([]string{"zanzibar"}, false), Project: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) > 0 {
		t.Errorf("forgotten session's word still found: %v", hits)
	}
}

// TestForgetSessionRestatesFromWhatIsLeft: forgetting the session a merged
// memory was first written from restates it from the other session's
// quote; nothing derived from the forgotten words is left, in the entry
// (claim key, subject, questions, date), its roles, the search index or
// the events.
func TestForgetSessionRestatesFromWhatIsLeft(t *testing.T) {
	t.Parallel()
	const word = "zanzibar"
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ingest(t, db, "s1", writeTranscript(t, "s1", "Zanzibar web app deploys to fly.io.", "Okay."))
	ingest(t, db, "sess2", writeTranscript(t, "sess2", "Reminder: the web app deploys to fly.io.", "Noted."))
	say(t, db, "s1", extract.Entry{Type: "decision", Title: "Zanzibar web app deploys to fly.io", Subject: "zanzibar hosting",
		Evidence: []extract.Evidence{{MessageIndex: 0, Quote: "Zanzibar web app deploys to fly.io."}}})
	say(t, db, "sess2", extract.Entry{Type: "decision", Title: "The web app deploys to fly.io", Subject: "hosting",
		Evidence: []extract.Evidence{{MessageIndex: 0, Quote: "the web app deploys to fly.io"}}})
	if es := decisionsOf(t, db); len(es) != 1 || len(es[0].Evidence) != 2 {
		t.Fatalf("setup: want one memory with both quotes, got %+v", es)
	}
	if _, err := db.Forget(ctx, store.ForgetSelector{SessionID: "s1"}); err != nil {
		t.Fatal(err)
	}
	es := decisionsOf(t, db)
	if len(es) != 1 {
		t.Fatalf("%d memories after the forget, want s2's", len(es))
	}
	said, err := db.Read().Events(ctx, store.EventFilter{SessionID: "sess2", Types: []string{store.TypeUserPrompt}})
	if err != nil || len(said) == 0 {
		t.Fatalf("s2's prompt: %v", err)
	}
	if !es[0].Created.Equal(said[0].Time) {
		t.Errorf("created %v, want s2's quote's time %v", es[0].Created, said[0].Time)
	}
	if err := db.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, q := range []string{
		`SELECT lower(cid || ' ' || title || ' ' || body || ' ' || subject || ' ' || claim_key || ' ' || questions || ' ' || created_at) FROM entries`,
		`SELECT lower(role || ' ' || value) FROM entry_roles`,
		`SELECT lower(type || ' ' || text || ' ' || payload) FROM events`,
		`SELECT 'entries_fts: ' || rowid FROM entries_fts WHERE entries_fts MATCH '` + word + `'`,
	} {
		rows, err := raw.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(s, word) || strings.HasPrefix(s, "entries_fts") {
				t.Errorf("forgotten word left: %s", s)
			}
		}
		rows.Close()
	}
}

// TestSameFactOneProcessor: one Processor (an import) keeps the facts it
// read and stored for the sessions after; a fact said again in a later
// session in other words still lands on the first memory, and one
// forgotten, superseded or rejected meanwhile by another writer gains no
// quote: the restatement is a memory of its own. Each case runs with a fact
// giving a value (found by its subject and by its value) and one giving
// none (by its subject only).
func TestSameFactOneProcessor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name    string
		between func(db *store.DB, e store.Entry) error // what another writer does to s1's memory
		merged  bool
	}{
		{"untouched", func(*store.DB, store.Entry) error { return nil }, true},
		{"forgotten", func(db *store.DB, e store.Entry) error {
			_, err := db.Forget(ctx, store.ForgetSelector{CID: e.CID})
			return err
		}, false},
		{"superseded", func(db *store.DB, e store.Entry) error {
			return db.SetStatus(ctx, e.ID, store.StatusSuperseded, 0, store.Event{})
		}, false},
		{"rejected", func(db *store.DB, e store.Entry) error {
			return db.SetStage(ctx, e.ID, store.StageRejected, store.Event{})
		}, false},
	}
	facts := []struct{ name, first, again string }{
		{"value", "We deploy the web app to fly.io", "The web app deploys to fly.io"},
		{"no value", "Keep the request handlers small and pure", "The request handlers stay small and pure"},
	}
	for _, f := range facts {
		for _, tc := range cases {
			t.Run(f.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				db := storetest.Open(t)
				ingest(t, db, "s1", writeTranscript(t, "s1", f.first+".", "Okay."))
				ingest(t, db, "s2", writeTranscript(t, "s2", "Reminder: "+f.again+".", "Noted."))
				p := &Processor{DB: db, Log: quiet}
				process := func(sid, title string) {
					t.Helper()
					p.Extractor = fakeExtractor{{Type: "decision", Title: title, Subject: "hosting",
						Evidence: []extract.Evidence{{MessageIndex: 0, Quote: title}}}}
					if _, err := p.Process(ctx, sid); err != nil {
						t.Fatal(err)
					}
				}
				process("s1", f.first)
				first := decisionsOf(t, db)
				if len(first) != 1 {
					t.Fatalf("after s1: %d memories, want 1", len(first))
				}
				if err := tc.between(db, first[0]); err != nil {
					t.Fatal(err)
				}
				process("s2", f.again)
				var holder *store.Entry
				es := decisionsOf(t, db)
				for i, e := range es {
					for _, v := range e.Evidence {
						if v.SessionID == "s2" {
							holder = &es[i]
						}
					}
				}
				switch {
				case holder == nil:
					t.Fatalf("s2's quote is in no memory (memories %v)", quotesOf(es))
				case tc.merged && holder.CID != first[0].CID:
					t.Errorf("s2's quote is in %s, want it merged into s1's %s", holder.CID, first[0].CID)
				case !tc.merged && (holder.CID == first[0].CID || holder.Status != store.StatusActive || holder.Stage != store.StageVerified):
					t.Errorf("s2's quote is in %s (%s, %s), want a memory of its own, active and verified", holder.CID, holder.Status, holder.Stage)
				}
			})
		}
	}
}

// BenchmarkPlace is facts.place on a session's claims about a subject the
// project has said in 600 other words before (as the realistic history's
// "race" lessons), each claim giving a value 600 entries hold too: read
// from the store at each session (fresh, as reextract does) and kept by
// the Processor across sessions (cached, as import does).
func BenchmarkPlace(b *testing.B) {
	ctx := context.Background()
	db := storetest.Open(b)
	write := func(sid string, i int) store.EntryWrite {
		title := fmt.Sprintf("Race %d in worker%d fixed on localhost by lock%d", i, i, i)
		e := store.Entry{Project: "/p", SessionID: sid, Type: "lesson", Title: title, Subject: "race", Stage: store.StageVerified}
		e.ClaimKey = claim.Key(e.Subject, e.Title)
		return store.EntryWrite{Entry: e}
	}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		var ws []store.EntryWrite
		for i := range 600 {
			ws = append(ws, write(fmt.Sprint("old", i), i))
		}
		stored, _, err := tx.PutEntries(ctx, ws)
		if err != nil {
			return err
		}
		for _, e := range stored {
			if err := tx.SetEntryRoles(ctx, e.ID, "/p", []store.RoleValue{{Role: "host", Value: "localhost"}}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	for _, cached := range []bool{false, true} {
		b.Run(map[bool]string{false: "fresh", true: "cached"}[cached], func(b *testing.B) {
			var cache factCache
			n := 1000
			for b.Loop() {
				if err := db.Update(ctx, func(tx *store.Tx) error {
					var ws []store.EntryWrite
					for range 20 {
						ws = append(ws, write("new", n))
						n++
					}
					same := newFacts("/p")
					if cached {
						same.cache = &cache
					}
					return same.place(ctx, tx, ws)
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPlaceChangeLooksUpNoValue: a claim that says it changes something is a
// memory of its own, so place does not look up the entries giving its
// values (which could not take it); a claim without a change cue, under the
// same subject, does. Neither merges into the entry of another subject.
func TestPlaceChangeLooksUpNoValue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	old := store.Entry{Project: "/p", SessionID: "s1", Type: "fact", Title: "The staging box runs on port 7311",
		Subject: "staging box", Stage: store.StageVerified}
	old.ClaimKey = claim.Key(old.Subject, old.Title)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		stored, _, err := tx.PutEntries(ctx, []store.EntryWrite{{Entry: old}})
		if err != nil {
			return err
		}
		return tx.SetEntryRoles(ctx, stored[0].ID, "/p", decisions(claim.Parse(old.Title)))
	}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		title   string
		change  bool
		lookups int
	}{
		{"We moved the staging server from port 7311 to port 7412", true, 0},
		{"The staging server listens on port 7311 for now", false, 1},
	} {
		if got := claim.ChangeCue(tt.title); got != tt.change {
			t.Fatalf("ChangeCue(%q) = %v, want %v", tt.title, got, tt.change)
		}
		w := store.Entry{Project: "/p", SessionID: "s2", Type: "fact", Title: tt.title, Subject: "staging server"}
		w.ClaimKey = claim.Key(w.Subject, w.Title)
		same := newFacts("/p")
		same.cache = &factCache{}
		ws := []store.EntryWrite{{Entry: w}}
		if err := db.Update(ctx, func(tx *store.Tx) error { return same.place(ctx, tx, ws) }); err != nil {
			t.Fatal(err)
		}
		if got := ws[0].Entry.ClaimKey; got != w.ClaimKey {
			t.Errorf("%q placed under %q, want its own key %q", tt.title, got, w.ClaimKey)
		}
		if got := len(same.valueIDs); got != tt.lookups {
			t.Errorf("%q: %d value lookups, want %d", tt.title, got, tt.lookups)
		}
	}
}

package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// newTwiceSaid is a store where two sessions say one fact, one of them with
// a password beside it, both distilled into one memory, which was then
// edited by hand from a text naming the password.
func newTwiceSaid(t *testing.T) *DB {
	t.Helper()
	db := newSaidFacts(t, []sayFact{
		{"s1", "Billing jobs go through the ocelotqueue broker; the staging password is wombatsecret.", "", ""},
		{"s2", "Reminder: billing jobs go through the ocelotqueue broker.", "", ""},
	})
	var cid string
	if err := db.sql.QueryRow(`SELECT cid FROM entries`).Scan(&cid); err != nil {
		t.Fatal(err)
	}
	edit, _ := json.Marshal(map[string]any{"cid": cid, "from": map[string]any{"body": "Billing uses ocelotqueue, password wombatsecret."},
		"to": map[string]any{"body": "Billing jobs go through the ocelotqueue broker."}})
	if _, err := appendEvents(context.Background(), db, Event{Time: t0.Add(50 * time.Hour), Type: TypeEdited, SessionID: "s2", Project: "/p",
		DedupeKey: "edit:1", Payload: edit}); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestForgetMatchClearsSurvivorsRecords: the memory survives a forget of the
// password on s2's quote, and no record of it keeps the password: not the
// records of its extraction from s1's message, not its edit's old text.
func TestForgetMatchClearsSurvivorsRecords(t *testing.T) {
	ctx := context.Background()
	db := newTwiceSaid(t)
	if _, err := db.Forget(ctx, ForgetSelector{Phrase: "wombatsecret"}); err != nil {
		t.Fatal(err)
	}
	if err := db.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	assertGone(t, db, "wombatsecret")
	if n := mustCount(t, db, `SELECT count(*) FROM entries`); n != 1 {
		t.Errorf("%d memories left, want the one s2 also said", n)
	}
	for _, typ := range []string{TypeEntryExtracted, TypeEvidenceAligned} {
		if n := mustCount(t, db, `SELECT count(*) FROM events WHERE type = ? AND session_id = 's2'`, typ); n != 1 {
			t.Errorf("s2's %s records: %d, want 1 kept", typ, n)
		}
	}
	// The edit is the user's correction, which later extractions honour:
	// it stays, its old text cut.
	var edit string
	if err := db.sql.QueryRow(`SELECT payload FROM events WHERE type = ?`, TypeEdited).Scan(&edit); err != nil {
		t.Fatalf("the edit record: %v", err)
	}
	if !strings.Contains(edit, Redacted) || !strings.Contains(edit, `"to"`) {
		t.Errorf("edit record = %s, want it kept with its old text redacted", edit)
	}
}

// TestForgetMatchRecordsInScope: a phrase forgotten in one session leaves
// the records of another session that name it.
func TestForgetMatchRecordsInScope(t *testing.T) {
	ctx := context.Background()
	db := newTwiceSaid(t)
	if _, err := db.Forget(ctx, ForgetSelector{Phrase: "wombatsecret", SessionID: "s1"}); err != nil {
		t.Fatal(err)
	}
	if n := mustCount(t, db, `SELECT count(*) FROM events WHERE type = ? AND session_id = 's1'`, TypeEntryExtracted); n != 0 {
		t.Errorf("s1's extraction record of the password kept")
	}
	if n := mustCount(t, db, `SELECT count(*) FROM events WHERE type = ?`, TypeEdited); n != 1 {
		t.Errorf("the edit in s2 went with a forget of s1's words")
	}
}

// sayFact is one session saying the billing fact, distilled with a subject
// and a type.
type sayFact struct{ session, text, subject, typ string }

// newSaidFacts is a store where each of says is said and distilled into
// the one memory of claim key "queue", with its records.
func newSaidFacts(t *testing.T, says []sayFact) *DB {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.Now = func() time.Time { return t0.Add(72 * time.Hour) }
	for i, s := range says {
		at := t0.Add(time.Duration(i) * 24 * time.Hour)
		r, err := appendEvents(ctx, db, Event{Time: at, Type: TypeAgentResponse, SessionID: s.session, Project: "/p", Text: s.text,
			SourceUUID: "u-" + s.session, DedupeKey: "k:" + s.session})
		if err != nil || len(r.IDs) != 1 {
			t.Fatalf("append %s: %v", s.session, err)
		}
		typ := s.typ
		if typ == "" {
			typ = "fact"
		}
		payload, _ := json.Marshal(map[string]any{"type": typ, "title": "Billing jobs use ocelotqueue", "subject": s.subject, "claim_key": "queue", "extractor": "heuristic", "evidence": []any{map[string]any{"quote": s.text}}})
		_, _, err = db.PutEntry(ctx, Entry{Project: "/p", SessionID: s.session, Type: typ, Title: "Billing jobs use ocelotqueue",
			Body: "Billing jobs go through the ocelotqueue broker.", Subject: s.subject, ClaimKey: "queue", Stage: StageVerified,
			Evidence: []Evidence{{EventID: r.IDs[0], SessionID: s.session, SourceUUID: "u-" + s.session, Quote: s.text,
				SpanStart: 0, SpanEnd: len(s.text), Method: "exact", Confidence: 1}}},
			Event{Time: at, Type: TypeEntryExtracted, SessionID: s.session, Project: "/p", DedupeKey: "entry:queue:" + s.session, Payload: payload},
			Event{Time: at, Type: TypeEvidenceAligned, SessionID: s.session, Project: "/p", DedupeKey: "aligned:queue:" + s.session,
				Payload: json.RawMessage(fmt.Sprintf(`{"claim_key":"queue","stage":"verified","spans":[{"quote":%q,"method":"exact"}]}`, s.text))})
		if err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestForgetSessionKeepsOtherSessionsRecords: forgetting s1, of a fact s2
// said in the same words, leaves s2's records, from which the surviving
// memory is restated.
func TestForgetSessionKeepsOtherSessionsRecords(t *testing.T) {
	ctx := context.Background()
	text := "Billing jobs go through the ocelotqueue broker."
	db := newSaidFacts(t, []sayFact{{"s1", text, "billing", ""}, {"s2", text, "billing", ""}})
	if _, err := db.Forget(ctx, ForgetSelector{SessionID: "s1"}); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{TypeEntryExtracted, TypeEvidenceAligned} {
		if n := mustCount(t, db, `SELECT count(*) FROM events WHERE type = ? AND session_id = 's2'`, typ); n != 1 {
			t.Errorf("s2's %s records: %d, want 1 kept (s2 is not forgotten and still says the words)", typ, n)
		}
	}
	var subject, key string
	db.sql.QueryRow(`SELECT subject, claim_key FROM entries`).Scan(&subject, &key)
	if subject != "billing" {
		t.Errorf("restate lost s2's subject: %q", subject)
	}
}

// TestForgetMatchReadsRecordsText: a phrase that is only a record's mark
// (its type, its alignment method) is in no text of it: the records of a
// memory that never says it stay whole.
func TestForgetMatchReadsRecordsText(t *testing.T) {
	ctx := context.Background()
	db := newSaidFacts(t, []sayFact{{"s1", "Billing jobs go through the ocelotqueue broker.", "billing", "decision"}})
	records := func() string {
		var all string
		if err := db.sql.QueryRow(`SELECT group_concat(payload, ' | ') FROM (SELECT payload FROM events WHERE type IN (?, ?) ORDER BY id)`,
			TypeEntryExtracted, TypeEvidenceAligned).Scan(&all); err != nil {
			t.Fatal(err)
		}
		return all
	}
	before := records()
	for _, phrase := range []string{"decision", "exact", "verified"} {
		if _, err := db.Forget(ctx, ForgetSelector{Phrase: phrase}); err != nil {
			t.Fatal(err)
		}
		if after := records(); after != before {
			t.Errorf("--match %s changed the records of a memory that never says it:\n%s\n->\n%s", phrase, before, after)
		}
	}
	if n := mustCount(t, db, `SELECT count(*) FROM entries`); n != 1 {
		t.Errorf("entries %d", n)
	}
}

// TestForgetBeforeTakesLateRecords: a session distilled after the date a
// forget goes back to still loses the records of its extraction from the
// words forgotten, though they are dated after it; the memory, said again
// later by s2, stays on s2's.
func TestForgetBeforeTakesLateRecords(t *testing.T) {
	ctx := context.Background()
	db := newTwiceSaid(t)
	late := FormatTime(t0.Add(60 * time.Hour))
	if _, err := db.sql.Exec(`UPDATE events SET ts = ? WHERE session_id = 's1' AND type IN (?, ?)`, late, TypeEntryExtracted, TypeEvidenceAligned); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{Before: t0.Add(12 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if n := mustCount(t, db, `SELECT count(*) FROM events WHERE session_id = 's1' AND type IN (?, ?)`, TypeEntryExtracted, TypeEvidenceAligned); n != 0 {
		t.Errorf("s1's %d extraction records of the forgotten message stay", n)
	}
	if n := mustCount(t, db, `SELECT count(*) FROM events WHERE session_id = 's2' AND type IN (?, ?)`, TypeEntryExtracted, TypeEvidenceAligned); n != 2 {
		t.Errorf("s2's extraction records: %d, want 2", n)
	}
	if n := mustCount(t, db, `SELECT count(*) FROM entries`); n != 1 {
		t.Errorf("%d memories, want the one s2 said", n)
	}
}

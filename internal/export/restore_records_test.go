package export_test

// Restores after forgets, from the probes of review 184: each failed on the
// branch (or on main) before its fix. The texts are made up.

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/correct"
	"github.com/claude-memory-layer/claude-memory-layer/internal/export"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

var (
	december = time.Date(2025, 12, 10, 9, 0, 0, 0, time.UTC)
	newYear  = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	february = time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
)

// forget --before DATE clears the summary of a session said before
// DATE. A backup written after DATE (but before the forget) and restored
// into the same store dates the summary at the export's time, which is not
// "before DATE", so the rule does not cover it and it comes back.
func TestRestoreKeepsASummaryADateForgetRemovedOut(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	said(t, db, kiln, "dec", december, "Where is the kiln deploy key?", oldQuote)
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.SetSummary(ctx, "dec", "Asked where the ochre vault keeps the kiln key.")
	}); err != nil {
		t.Fatal(err)
	}
	backup := write(t, db, february, false) // the weekly backup, written in February
	if p, err := db.Forget(ctx, store.ForgetSelector{Before: newYear}); err != nil || p.Empty() {
		t.Fatal(p, err)
	}
	if holds(t, db, "ochre") {
		t.Fatal("forget --before left the summary")
	}
	restore(t, db, backup, export.Options{}) // into its own store: the key matches
	if holds(t, db, "ochre") {
		s, _ := db.Read().Session(ctx, "dec")
		t.Errorf("a restore brought back the summary forget --before removed: %q", s.Summary)
	}
}

// The extraction record of a memory (entry_extracted) is dated when
// the pipeline ran, not when its session was said: a December session
// imported in February has its record dated February. forget --before
// January deletes the memory and, with it, the record (lifecycle). A
// restore of a backup written before the forget brings the record back,
// with the forgotten quote in its payload: the date rule is read against
// the record's own time.
func TestRestoreKeepsTheRecordsOfAMemoryItLeftOutOut(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	said(t, db, kiln, "dec", december, "Where is the kiln deploy key?", oldQuote)
	ids, err := db.EventIDs(ctx, []string{"dec:1"})
	if err != nil {
		t.Fatal(err)
	}
	const key = "kiln deploy key|ochre vault"
	if _, _, err := db.PutEntry(ctx, store.Entry{Project: kiln, SessionID: "dec", Type: "fact", Title: "kiln deploy key: ochre vault",
		ClaimKey: key, Stage: store.StageVerified, Created: december.Add(time.Minute),
		Evidence: []store.Evidence{{SessionID: "dec", EventID: ids["dec:1"], Quote: oldQuote, Method: "exact", Confidence: 1, SpanEnd: len(oldQuote)}}}); err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(map[string]any{"type": "fact", "title": "kiln deploy key: ochre vault", "claim_key": key,
		"evidence": []map[string]any{{"quote": oldQuote}}})
	if err := db.Update(ctx, func(tx *store.Tx) error {
		_, err := tx.Append(ctx, store.Event{Time: february, Type: store.TypeEntryExtracted, SessionID: "dec", Project: kiln,
			Text: "kiln deploy key: ochre vault", DedupeKey: store.Key(store.KeyEntry, "dec", "h1"), Payload: payload})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	backup := write(t, db, february.Add(time.Hour), false)
	if p, err := db.Forget(ctx, store.ForgetSelector{Before: newYear}); err != nil || p.Empty() {
		t.Fatal(p, err)
	}
	if holds(t, db, "ochre") {
		t.Fatal("forget --before left the extraction record")
	}
	restore(t, db, backup, export.Options{})
	if holds(t, db, "ochre") {
		t.Errorf("a restore brought back the extraction record (with its quote) of a memory forget --before removed")
	}
}

// A forgotten digest (forget mem:<digest>) leaves no rule: plan's
// memory() returns before collecting the digest's quotes, so the tombstone
// holds nothing to match. Restoring a backup written before the forget into
// the same store puts the digest back.
func TestRestoreKeepsAForgottenDigestOut(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	said(t, db, kiln, "s", forgetDay, "Where is the kiln deploy key?", oldQuote)
	ids, err := db.EventIDs(ctx, []string{"s:1"})
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := db.PutEntry(ctx, store.Entry{Project: kiln, SessionID: "s", Type: store.DigestType, Title: "Session digest: the ochre vault",
		Body: "Asked for the kiln key; it is in the ochre vault.", ClaimKey: "digest|s", Stage: store.StageVerified, Created: forgetDay,
		Evidence: []store.Evidence{{SessionID: "s", EventID: ids["s:1"], Quote: oldQuote, Method: "exact", Confidence: 1, SpanEnd: len(oldQuote)}}})
	if err != nil {
		t.Fatal(err)
	}
	backup := write(t, db, forgetDay.AddDate(0, 0, 1), false)
	if p, err := db.Forget(ctx, store.ForgetSelector{CID: d.CID}); err != nil || len(p.Entries) != 1 {
		t.Fatal(p, err)
	}
	restore(t, db, backup, export.Options{})
	if e, err := db.Read().Entries(ctx, store.EntryFilter{}); err == nil {
		for _, x := range e {
			if x.Type == store.DigestType {
				t.Errorf("the forgotten digest %s is back after a restore: %q", x.CID, x.Title)
			}
		}
	}
}

// A hostile (or merely foreign) export's tombstone is carried out
// on everything the store held, with no flag: an unkeyed rule is matched
// in any store, and a date rule names no session or project. One line
// deletes every event and memory of the store restored into (and refuses
// every later capture).
func TestRestoreDeletesNothingTheStoreHeld(t *testing.T) {
	db, _ := twoSessionsOneFact(t)
	// A date rule that covers everything said before it ran (an hour
	// ago): it refuses what comes dated before it, and deletes nothing.
	ago := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	payload := `{"selector":["before"],"rule":{"until":"` + ago + `","before":"` + ago + `"}}`
	file := `{"kind":"header","format":"claude-memory-layer-export","version":1,"schema":0,"exported_at":"2026-11-01T00:00:00Z","project":""}` + "\n" +
		`{"kind":"event","id":1,"ts":"2026-11-01T00:00:00Z","type":"memory_forgotten","session_id":"","project":"","source_uuid":"","text":"",` +
		`"payload":` + payload + `,"dedupe_key":"forgotten:x","content_hash":"","checksum":""}` + "\n"
	restore(t, db, []byte(file), export.Options{})
	if !holds(t, db, newQuote) {
		t.Errorf("restoring a one-line file deleted the store's own conversation and memories")
	}
}

// A --project export leaves out the tombstones of forgets that
// name no project (--match, --before: their event's project is ""), and
// so their rules; the restore then has no keyed rule to report, says
// nothing, and the restored store takes the forgotten words back, although
// the export was written --with-forget-key and the key adopted.
func TestProjectExportCarriesTheForgetsOfNoProject(t *testing.T) {
	ctx := context.Background()
	db := zanzibarForgotten(t) // forget --match zanzibar, project /home/jo/dev/kiln
	var buf strings.Builder
	if err := export.WriteWithForgetKey(ctx, db, "/home/jo/dev/kiln", forgetDay.AddDate(0, 0, 1), &buf); err != nil {
		t.Fatal(err)
	}
	db2 := storetest.Open(t)
	sum, warn := restore(t, db2, []byte(buf.String()), export.Options{AdoptForgetKey: true})
	if takesBack(t, db2) {
		t.Errorf("a store restored from a --project export --with-forget-key takes back what a forget removed "+
			"(rules not carried reported: %d, warnings: %q)", sum.RulesNotCarried, warn)
	}
}

// An edit's event (entry_edited) holds the memory's old and new
// title and body, in no session. Forget of the memory's session (or of the
// memory by id, or --before) deletes it with the memory (lifecycle); the
// rule covers neither (no session; the edit's words are not the quotes),
// so a restore of an earlier backup into the same store brings the
// forgotten memory's words back.
func TestRestoreKeepsAForgottenMemorysEditOut(t *testing.T) {
	ctx := context.Background()
	for _, bySession := range []bool{true, false} {
		db := storetest.Open(t)
		said(t, db, kiln, "s", forgetDay, "Where is the kiln deploy key?", oldQuote)
		ids, _ := db.EventIDs(ctx, []string{"s:1"})
		m, _, err := db.PutEntry(ctx, store.Entry{Project: kiln, SessionID: "s", Type: "fact", Title: "kiln deploy key: vault",
			ClaimKey: "kiln deploy key|vault", Stage: store.StageVerified, Created: forgetDay,
			Evidence: []store.Evidence{{SessionID: "s", EventID: ids["s:1"], Quote: oldQuote, Method: "exact", Confidence: 1, SpanEnd: len(oldQuote)}}})
		if err != nil {
			t.Fatal(err)
		}
		title := "Kiln key: the umber safe, shelf nine"
		if _, ok, err := correct.Edit(ctx, db, m, correct.Text{Title: &title}, forgetDay.Add(time.Hour)); err != nil || !ok {
			t.Fatal(ok, err)
		}
		backup := write(t, db, forgetDay.AddDate(0, 0, 1), false)
		sel := store.ForgetSelector{SessionID: "s"}
		if !bySession {
			sel = store.ForgetSelector{CID: m.CID}
		}
		if _, err := db.Forget(ctx, sel); err != nil {
			t.Fatal(err)
		}
		if holds(t, db, "umber") {
			t.Fatalf("forget %+v left the edit", sel)
		}
		restore(t, db, backup, export.Options{})
		if holds(t, db, "umber") {
			t.Errorf("forget %+v: a restore brought back the forgotten memory's edited title (entry_edited event)", sel)
		}
	}
}

// ApplyForgets' doc: "A keyed rule is matched with this store's
// key only: one keyed with another store's is left out". newRuleSet drops
// a keyed rule only when the store has no key; a --before rule holds no
// hash, so another store's is matched anyway. Restoring another store's
// export (no key in it, none adopted) into a store with a key of its own
// deletes the store's own messages said before that date, while the
// restore warns that the rule "could not be carried over".
func TestRestoreOfAnotherStoresDateForgetDeletesNothing(t *testing.T) {
	ctx := context.Background()
	src := storetest.Open(t)
	said(t, src, "/home/jo/dev/other", "o", december, "Old chat.", "Old answer.")
	if _, err := src.Forget(ctx, store.ForgetSelector{Before: newYear}); err != nil {
		t.Fatal(err)
	}
	file := write(t, src, february, false)

	db := storetest.Open(t)
	said(t, db, kiln, "mine", december, "Where is the kiln deploy key?", oldQuote)
	said(t, db, kiln, "q", february, "Where is the quokka cache?", "Under /var/cache/quokka.")
	if _, err := db.Forget(ctx, store.ForgetSelector{Phrase: "quokka"}); err != nil { // the store's own key
		t.Fatal(err)
	}
	sum, warn := restore(t, db, file, export.Options{})
	if !holds(t, db, "ochre") {
		t.Errorf("another store's --before forget deleted this store's own messages (not carried: %d; warnings: %q)", sum.RulesNotCarried, warn)
	}
}

// unforgottenEntries dates every quote at its entry's creation;
// planRules dates it when its message was said (quoteTime). A session that
// goes on after its forget and says a fact an older memory holds adds a
// quote the forget never covered; a restore drops it (and the memory, when
// it is the only quote left), though the store that wrote the export kept it.
func TestRestoreKeepsAQuoteSaidAfterItsSessionsForget(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	said(t, db, kiln, "b", forgetDay, "Where do the kiln builds run?", "They run on the birch runners.")
	if p, err := db.Forget(ctx, store.ForgetSelector{SessionID: "b"}); err != nil || p.Empty() {
		t.Fatal(p, err)
	}
	time.Sleep(5 * time.Millisecond)
	said(t, db, kiln, "a", time.Now().Add(-time.Hour), "Kiln build question?", "Nothing yet.")
	time.Sleep(5 * time.Millisecond)
	// b goes on after its forget and says the fact a's memory holds.
	const later = "Kiln builds run on the birch runners, nightly."
	if err := db.Update(ctx, func(tx *store.Tx) error {
		_, err := tx.Append(ctx, store.Event{Time: time.Now(), Type: store.TypeAgentResponse, SessionID: "b", Project: kiln, Text: later, DedupeKey: "b:later"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	ids, _ := db.EventIDs(ctx, []string{"a:1", "b:later"})
	if ids["b:later"] == 0 {
		t.Fatal("the later message of b was refused")
	}
	const key = "kiln builds|birch runners"
	for _, w := range []struct {
		session string
		id      int64
		quote   string
		at      time.Time
	}{{"a", ids["a:1"], "Nothing yet.", time.Now().Add(-time.Hour)}, {"b", ids["b:later"], later, time.Now()}} {
		if _, _, err := db.PutEntry(ctx, store.Entry{Project: kiln, SessionID: w.session, Type: "fact", Title: "kiln builds: birch runners",
			ClaimKey: key, Stage: store.StageCandidate, Created: w.at,
			Evidence: []store.Evidence{{SessionID: w.session, EventID: w.id, Quote: w.quote, Method: "exact", Confidence: 1, SpanEnd: len(w.quote)}}}); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(strings.Join(quotesHeld(t, db), "\n"), later) {
		t.Fatalf("the store did not keep b's later quote: %q", quotesHeld(t, db))
	}
	db2 := storetest.Open(t)
	restore(t, db2, write(t, db, time.Now(), true), export.Options{AdoptForgetKey: true})
	if q := quotesHeld(t, db2); !strings.Contains(strings.Join(q, "\n"), later) {
		t.Errorf("a restore dropped a quote said after its session's forget: %q", q)
	}
}

// A memory forgotten by id leaves a rule of its quotes, but only of those
// of 12 characters or more (minNeedle): one covered quote keeps the whole
// entry out, so a memory with a short quote beside its long one does not
// come back from a backup written before the forget (review 187).
func TestRestoreKeepsAForgottenMemoryWithAShortQuoteOut(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	const short = "Ochre, yes."
	said(t, db, kiln, "s", forgetDay, short, oldQuote)
	ids, err := db.EventIDs(ctx, []string{"s:0", "s:1"})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := db.PutEntry(ctx, store.Entry{Project: kiln, SessionID: "s", Type: "fact", Title: "kiln deploy key: the umber shelf",
		Body: "The kiln deploy key is on the umber shelf.", ClaimKey: "kiln deploy key|umber shelf", Stage: store.StageVerified, Created: forgetDay,
		Evidence: []store.Evidence{
			{SessionID: "s", EventID: ids["s:0"], Quote: short, Method: "exact", Confidence: 1, SpanEnd: len(short)},
			{SessionID: "s", EventID: ids["s:1"], Quote: oldQuote, Method: "exact", Confidence: 1, SpanEnd: len(oldQuote)},
		}})
	if err != nil {
		t.Fatal(err)
	}
	backup := write(t, db, forgetDay.AddDate(0, 0, 1), false)
	if p, err := db.Forget(ctx, store.ForgetSelector{CID: m.CID}); err != nil || len(p.Entries) != 1 {
		t.Fatal(p, err)
	}
	if holds(t, db, "umber") {
		t.Fatal("forget left the memory")
	}
	restore(t, db, backup, export.Options{})
	if holds(t, db, "umber") {
		t.Errorf("a restore of a backup written before forget %s brought the memory back (quotes now: %q)", m.CID, quotesHeld(t, db))
	}
}

// An export's forget rule that names no hash (a date, "before") is matched
// in any store. A crafted line dated to come would make the store refuse
// every later capture, for good (a tombstone is never deleted): a restore
// refuses a tombstone dated after now (review 187; also on main).
func TestRestoreRefusesATombstoneDatedToCome(t *testing.T) {
	db := storetest.Open(t)
	// A date rule that covers everything said before it ran (an hour
	// ago): it refuses what comes dated before it, and deletes nothing.
	ago := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	payload := `{"selector":["before"],"rule":{"until":"` + ago + `","before":"` + ago + `"}}`
	file := `{"kind":"header","format":"claude-memory-layer-export","version":1,"schema":0,"exported_at":"2026-11-01T00:00:00Z","project":""}` + "\n" +
		`{"kind":"event","id":1,"ts":"2026-11-01T00:00:00Z","type":"memory_forgotten","session_id":"","project":"","source_uuid":"","text":"",` +
		`"payload":` + payload + `,"dedupe_key":"forgotten:x","content_hash":"","checksum":""}` + "\n"
	sum, warn := restore(t, db, []byte(file), export.Options{})
	said(t, db, kiln, "later", time.Now(), "Where do the kiln builds run?", "On the birch runners.")
	if !holds(t, db, "birch runners") {
		t.Errorf("after restoring a one-line file the store refuses every new message (restore said: %q, not carried %d)", warn, sum.RulesNotCarried)
	}
}

// forget mem:X leaves a rule of X's quotes that covers every project (the
// forget redacted the copies of the quotes in any project), but its
// tombstone names X's project: export --project of another project carries
// it all the same, so a store restored from it refuses the words as the
// store that wrote the export does (review 187).
func TestProjectExportCarriesAMemoryForgetOfAnotherProject(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	const other = "/home/jo/dev/quay"
	said(t, db, kiln, "s", forgetDay, "Where is the kiln deploy key?", oldQuote)
	said(t, db, other, "q", forgetDay.Add(time.Hour), "Paste the kiln note here.", oldQuote)
	ids, _ := db.EventIDs(ctx, []string{"s:1"})
	m, _, err := db.PutEntry(ctx, store.Entry{Project: kiln, SessionID: "s", Type: "fact", Title: "kiln deploy key: ochre vault",
		ClaimKey: "kiln deploy key|ochre vault", Stage: store.StageVerified, Created: forgetDay,
		Evidence: []store.Evidence{{SessionID: "s", EventID: ids["s:1"], Quote: oldQuote, Method: "exact", Confidence: 1, SpanEnd: len(oldQuote)}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, store.ForgetSelector{CID: m.CID}); err != nil {
		t.Fatal(err)
	}
	if holds(t, db, "ochre") {
		t.Fatal("the forget left a copy of the quote")
	}
	var buf strings.Builder
	if err := export.WriteWithForgetKey(ctx, db, other, forgetDay.AddDate(0, 0, 1), &buf); err != nil {
		t.Fatal(err)
	}
	db2 := storetest.Open(t)
	restore(t, db2, []byte(buf.String()), export.Options{AdoptForgetKey: true})
	// A later message of quay says the words again (the note pasted once
	// more, a spool row): the store that wrote the export refuses it.
	later := store.Event{Time: time.Now(), Type: store.TypeUserPrompt, SessionID: "q2", Project: other, Text: oldQuote, DedupeKey: "q2:0"}
	for _, d := range []*store.DB{db, db2} {
		if err := d.Update(ctx, func(tx *store.Tx) error {
			_, err := tx.Append(ctx, later)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	if holds(t, db, "ochre") {
		t.Fatal("the store that wrote the export takes the words back: the probe's premise is wrong")
	}
	if holds(t, db2, "ochre") {
		t.Errorf("a store restored from export --project %s --with-forget-key takes back the words forget %s keeps out of that project", other, m.CID)
	}
}

// forget --match: a memory first said in session a, whose quote there holds
// the phrase (its title, written from that message, does not), and that
// session b said too. Forget deletes a's message and rewrites the memory
// on b's quote (restate): its title and body, written from the forgotten
// message, go. A restore of a backup written before must not bring the old
// title back beside the rewritten memory: the covered quote keeps the
// whole entry out (review 187).
func TestRestoreKeepsTheTitleAMatchForgetRewroteOut(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	said(t, db, kiln, "a", forgetDay, "Where is the kiln deploy key?", oldQuote)
	said(t, db, kiln, "b", forgetDay.Add(time.Hour), "And the deploy key again?", newQuote)
	ids, _ := db.EventIDs(ctx, []string{"a:1", "b:1"})
	const title = "kiln deploy key lives in a vault under ops/kiln"
	if _, _, err := db.PutEntry(ctx, store.Entry{Project: kiln, SessionID: "a", Type: "fact", Title: title, Body: title,
		ClaimKey: "kiln deploy key|lives", Stage: store.StageVerified, Created: forgetDay,
		Evidence: []store.Evidence{
			{SessionID: "a", EventID: ids["a:1"], Quote: oldQuote, Method: "exact", Confidence: 1, SpanEnd: len(oldQuote)},
			{SessionID: "b", EventID: ids["b:1"], Quote: newQuote, Method: "exact", Confidence: 1, SpanEnd: len(newQuote)},
		}}); err != nil {
		t.Fatal(err)
	}
	backup := write(t, db, forgetDay.AddDate(0, 0, 1), false)
	p, err := db.Forget(ctx, store.ForgetSelector{Phrase: "ochre vault"})
	if err != nil || len(p.Rewritten) != 1 {
		t.Fatalf("forget: %+v, %v (want the memory rewritten)", p, err)
	}
	if holds(t, db, "lives in a vault") {
		t.Fatal("the forget kept the title written from the forgotten message")
	}
	restore(t, db, backup, export.Options{})
	if holds(t, db, "lives in a vault") {
		t.Errorf("a restore brought back the title forget --match rewrote away (quotes now: %q)", quotesHeld(t, db))
	}
}

// A session's summary names its decisions by their titles ("Decided: …",
// pipeline/summary.go). forget mem:X clears the summary of every session
// whose messages it redacted; its rule holds X's quotes, not its title. A
// restore of a backup written before the forget leaves out the summary of
// a session of which it left out a memory or a message (review 187; main
// restored every summary).
func TestRestoreKeepsASummaryNamingAForgottenMemoryOut(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	const quote = "Let's cut releases from the umber runner from now on."
	said(t, db, kiln, "s", forgetDay, "Which runner cuts releases?", quote)
	ids, _ := db.EventIDs(ctx, []string{"s:1"})
	m, _, err := db.PutEntry(ctx, store.Entry{Project: kiln, SessionID: "s", Type: "decision", Title: "Cut releases on the umber runner",
		ClaimKey: "releases|umber runner", Stage: store.StageVerified, Created: forgetDay,
		Evidence: []store.Evidence{{SessionID: "s", EventID: ids["s:1"], Quote: quote, Method: "exact", Confidence: 1, SpanEnd: len(quote)}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		return tx.SetSummary(ctx, "s", "Decided: Cut releases on the umber runner.")
	}); err != nil {
		t.Fatal(err)
	}
	backup := write(t, db, forgetDay.AddDate(0, 0, 1), false)
	if _, err := db.Forget(ctx, store.ForgetSelector{CID: m.CID}); err != nil {
		t.Fatal(err)
	}
	if holds(t, db, "umber") {
		t.Fatal("forget left the memory's title somewhere")
	}
	restore(t, db, backup, export.Options{})
	if holds(t, db, "umber") {
		s, _ := db.Read().Session(ctx, "s")
		t.Errorf("a restore brought back the forgotten memory's title in its session's summary: %q", s.Summary)
	}
}

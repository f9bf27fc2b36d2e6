package export_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/export"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// The texts below are made up.
const (
	kiln     = "/home/jo/dev/kiln"
	oldQuote = "The kiln deploy key lives in the ochre vault under ops/kiln."
	newQuote = "Deploy keys for kiln are in the vault, path ops/kiln."
)

// twoSessionsOneFact is a store where sessions "a" and "b" said the same
// fact, held by one memory of b's with a quote of each.
func twoSessionsOneFact(t *testing.T) (*store.DB, store.Entry) {
	t.Helper()
	ctx := context.Background()
	db := storetest.Open(t)
	said(t, db, kiln, "a", forgetDay, "Where is the kiln deploy key?", oldQuote)
	said(t, db, kiln, "b", forgetDay.Add(time.Hour), "And the deploy key again?", newQuote)
	ids, err := db.EventIDs(ctx, []string{"a:1", "b:1"})
	if err != nil {
		t.Fatal(err)
	}
	e, _, err := db.PutEntry(ctx, store.Entry{Project: kiln, SessionID: "b", Type: "fact", Title: "kiln deploy key: the vault, ops/kiln",
		Subject: "kiln deploy key", ClaimKey: "kiln deploy key|ops/kiln", Stage: store.StageVerified, Created: forgetDay.Add(time.Hour),
		Evidence: []store.Evidence{
			{SessionID: "a", EventID: ids["a:1"], Quote: oldQuote, Method: "exact", Confidence: 1, SpanEnd: len(oldQuote)},
			{SessionID: "b", EventID: ids["b:1"], Quote: newQuote, Method: "exact", Confidence: 1, SpanEnd: len(newQuote)},
		}})
	if err != nil {
		t.Fatal(err)
	}
	return db, e
}

// quotesHeld are the quotes of every memory of db.
func quotesHeld(t *testing.T, db *store.DB) []string {
	t.Helper()
	es, err := db.Read().Entries(context.Background(), store.EntryFilter{Evidence: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		for _, v := range e.Evidence {
			out = append(out, v.Quote)
		}
	}
	return out
}

// holds reports whether db holds text anywhere a reader sees it: an event,
// a memory's words or quotes, a summary.
func holds(t *testing.T, db *store.DB, text string) bool {
	t.Helper()
	ctx := context.Background()
	found := false
	if err := db.ScanEvents(ctx, "", func(ev store.Event, _ string) error {
		found = found || strings.Contains(ev.Text+string(ev.Payload), text)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, q := range quotesHeld(t, db) {
		found = found || strings.Contains(q, text)
	}
	es, err := db.Read().Entries(ctx, store.EntryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		found = found || strings.Contains(e.Title+e.Body, text)
	}
	ss, err := db.Sessions(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		found = found || strings.Contains(s.Summary, text)
	}
	return found
}

func write(t *testing.T, db *store.DB, at time.Time, withKey bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := export.Write
	if withKey {
		w = export.WriteWithForgetKey
	}
	if err := w(context.Background(), db, "", at, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// restoreKeepsOut restores backup into db and checks that word, forgotten
// since the backup was written, did not come back; what says what held it.
func restoreKeepsOut(t *testing.T, db *store.DB, backup []byte, word, what string) {
	t.Helper()
	_, warn := restore(t, db, backup, export.Options{})
	if holds(t, db, word) {
		t.Errorf("a restore brought back %s (quotes now %q; warnings %q)", what, quotesHeld(t, db), warn)
	}
}

func restore(t *testing.T, db *store.DB, file []byte, opt export.Options) (export.Summary, string) {
	t.Helper()
	var warn bytes.Buffer
	sum, err := export.Restore(context.Background(), db, bytes.NewReader(file), &warn, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sum, warn.String()
}

// A forgotten session's quote does not come back under a memory of another
// session that said the same fact: the quote is read in its own session
// (review 180). The memory stays, on the other session's quote.
func TestRestoreKeepsAForgottenSessionsQuoteOut(t *testing.T) {
	ctx := context.Background()
	db, _ := twoSessionsOneFact(t)
	backup := write(t, db, forgetDay.AddDate(0, 0, 1), false)
	if _, err := db.Forget(ctx, store.ForgetSelector{SessionID: "a"}); err != nil {
		t.Fatal(err)
	}
	restore(t, db, backup, export.Options{})
	q := quotesHeld(t, db)
	if strings.Contains(strings.Join(q, "\n"), "ochre") {
		t.Errorf("the forgotten session's quote is back: %q", q)
	}
	if !strings.Contains(strings.Join(q, "\n"), newQuote) {
		t.Errorf("the memory lost the quote of the session kept: %q", q)
	}
}

// A tombstone counts wherever it stands in the file: after the data it
// forgot (a file put together from two exports), the data stays out
// (review 180).
func TestRestoreHonoursATombstoneAfterItsData(t *testing.T) {
	db, _ := twoSessionsOneFact(t)
	before := write(t, db, forgetDay.AddDate(0, 0, 1), false)
	if _, err := db.Forget(context.Background(), store.ForgetSelector{Phrase: "ochre"}); err != nil {
		t.Fatal(err)
	}
	after := write(t, db, forgetDay.AddDate(0, 0, 2), true)
	// after's header and key, before's data, after's tombstone last.
	afterLines := strings.Split(strings.TrimSuffix(string(after), "\n"), "\n")
	var tomb string
	for _, l := range afterLines {
		if strings.Contains(l, `"type":"`+store.TypeForgotten+`"`) {
			tomb = l
		}
	}
	_, data, _ := strings.Cut(string(before), "\n")
	file := afterLines[0] + "\n" + afterLines[1] + "\n" + data + tomb + "\n"
	if !strings.Contains(afterLines[1], `"forget_key"`) || tomb == "" {
		t.Fatalf("no key line or tombstone in the export:\n%s", after)
	}
	db2 := storetest.Open(t)
	restore(t, db2, []byte(file), export.Options{AdoptForgetKey: true})
	if holds(t, db2, "ochre") {
		t.Errorf("what the file's own tombstone forgot was restored")
	}
	if !holds(t, db2, newQuote) {
		t.Errorf("what no forget removed was not restored")
	}
}

// A restore deletes nothing the store held: a newer backup's forgets,
// restored after an older backup, keep out what they removed from what the
// restore writes, and say that what the store held may still hold it
// (review 184: carrying out a file's rules on the store's rows let one
// crafted line delete them).
func TestRestoreSaysWhatANewerBackupsForgetsCannotReach(t *testing.T) {
	ctx := context.Background()
	db, _ := twoSessionsOneFact(t)
	older := write(t, db, forgetDay.AddDate(0, 0, 1), false)
	if _, err := db.Forget(ctx, store.ForgetSelector{Phrase: "ochre"}); err != nil {
		t.Fatal(err)
	}
	newer := write(t, db, forgetDay.AddDate(0, 0, 2), true)
	db2 := storetest.Open(t)
	restore(t, db2, older, export.Options{})
	if _, warn := restore(t, db2, newer, export.Options{AdoptForgetKey: true}); !strings.Contains(warn, "held messages before the restore") {
		t.Errorf("the restore does not say that what the store held may hold what its forgets removed:\n%s", warn)
	}
	var added int
	if err := db2.Update(ctx, func(tx *store.Tx) error {
		r, err := tx.Append(ctx, store.Event{Time: forgetDay, Type: store.TypeAgentResponse, SessionID: "a", Project: kiln, Text: oldQuote, DedupeKey: "a:again"})
		added = r.Added
		return err
	}); err != nil || added != 0 {
		t.Errorf("the newer backup's forget does not hold for later writes (%v)", err)
	}
	// Into an empty store, the same file says nothing of the kind.
	if _, warn := restore(t, storetest.Open(t), newer, export.Options{AdoptForgetKey: true}); strings.Contains(warn, "held messages") {
		t.Errorf("a restore into an empty store warns: %s", warn)
	}
}

// A key in the file is not taken unasked: its rules are reported as not
// carried, with the flag that takes it.
func TestRestoreTakesTheKeyOnlyWhenAsked(t *testing.T) {
	ctx := context.Background()
	db := zanzibarForgotten(t)
	file := write(t, db, forgetDay.AddDate(0, 0, 1), true)
	db2 := storetest.Open(t)
	if sum, warn := restore(t, db2, file, export.Options{}); sum.RulesNotCarried != 1 || !strings.Contains(warn, "--adopt-forget-key") {
		t.Errorf("key offered, not adopted: not carried %d, warnings:\n%s", sum.RulesNotCarried, warn)
	}
	if key, _ := db2.ForgetKey(ctx); key != nil {
		t.Errorf("the key was adopted unasked")
	}
	if !takesBack(t, db2) {
		t.Errorf("a rule of a key not taken holds: the test's premise is wrong")
	}
	restore(t, db2, file, export.Options{AdoptForgetKey: true})
	if takesBack(t, db2) {
		t.Errorf("the key taken on a second restore does not make the rule hold")
	}
}

// A key line is the key the header names, or no key: another key would be
// taken as the store's and match none of the export's rules.
func TestRestoreRefusesAKeyTheHeaderDoesNotName(t *testing.T) {
	ctx := context.Background()
	db := zanzibarForgotten(t)
	file := string(write(t, db, forgetDay.AddDate(0, 0, 1), true))
	header, rest, _ := strings.Cut(file, "\n")
	keyLine, rest, _ := strings.Cut(rest, "\n")
	if !strings.Contains(keyLine, `"forget_key"`) {
		t.Fatalf("no key line: %s", keyLine)
	}
	other := `{"kind":"forget_key","key":"` + strings.Repeat("ab", 32) + `"}`
	db2 := storetest.Open(t)
	sum, _ := restore(t, db2, []byte(header+"\n"+other+"\n"+rest), export.Options{AdoptForgetKey: true})
	if key, _ := db2.ForgetKey(ctx); sum.FailedLines != 1 || key != nil {
		t.Errorf("failed lines %d, key %x", sum.FailedLines, key)
	}
}

// A restored summary is dated when its export was written: a forget that
// ran before the export (whose session went on and was summed up again)
// does not keep it out.
func TestRestoreKeepsASummaryWrittenAfterTheForget(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	said(t, db, kiln, "s", forgetDay, "Where is the quokka build cache?", "Under /var/cache/quokka.")
	if p, err := db.Forget(ctx, store.ForgetSelector{SessionID: "s"}); err != nil || p.Empty() {
		t.Fatal(p, err)
	}
	said(t, db, kiln, "s", time.Now().Add(-time.Minute), "Now set up the kiln cache.", "Done: the cache is on.")
	const sum = "Set up the kiln cache."
	if err := db.Update(ctx, func(tx *store.Tx) error { return tx.SetSummary(ctx, "s", sum) }); err != nil {
		t.Fatal(err)
	}
	if s, _ := db.Read().Session(ctx, "s"); s.Summary != sum {
		t.Fatalf("a session that went on after its forget gets no summary: %q", s.Summary)
	}
	db2 := storetest.Open(t)
	restore(t, db2, write(t, db, time.Now(), true), export.Options{AdoptForgetKey: true})
	if s, _ := db2.Read().Session(ctx, "s"); s.Summary != sum {
		t.Errorf("the summary written after the forget is not restored: %q", s.Summary)
	}
}

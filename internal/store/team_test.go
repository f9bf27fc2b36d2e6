package store

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPutPulledBoundsHostileText: a teammate's memory as a broken or
// hostile server gives it (invalid UTF-8, NUL bytes, oversized fields, an
// unknown stage and status, an author carrying markup) is stored repaired,
// bounded and plain, and a second pull of it updates the one copy.
func TestPutPulledBoundsHostileText(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p := Pulled{SharedID: "s1", Project: "/p", Author: "eve\n</x>[mem:1]", Type: "fact",
		Title: "bad \xff\xfe bytes\x00 here", Body: strings.Repeat("é", 10000), Stage: "owner", Status: "gone",
		Quotes: append([]string{"q \xc3\x28 x"}, make([]string, 40)...)}
	for range 2 {
		if err := db.Update(ctx, func(tx *Tx) error { return tx.PutPulled(ctx, p) }); err != nil {
			t.Fatal(err)
		}
	}
	es, err := db.Read().Entries(ctx, EntryFilter{})
	if err != nil || len(es) != 1 {
		t.Fatalf("%d entries (%v), want the one copy", len(es), err)
	}
	e, err := db.Read().EntryByID(ctx, es[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{e.Title, e.Body, e.Evidence[0].Quote} {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			t.Errorf("stored text is not clean UTF-8: %q", s)
		}
	}
	if len(e.Body) > maxPulledBody || e.Author != "evexmem1" || e.Stage != StageVerified || e.Status != StatusActive || len(e.Evidence) != 1 {
		t.Errorf("stored: body %d bytes, author %q, stage %s, status %s, %d quotes", len(e.Body), e.Author, e.Stage, e.Status, len(e.Evidence))
	}
}

// TestForgetTrimsASharedMemory: forgetting a session whose words one of
// one's shared memories quotes, while its other quote keeps it alive,
// queues that memory to the server again, so the server and teammates lose
// the forgotten quote too.
func TestForgetTrimsASharedMemory(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ev []Evidence
	for _, s := range []string{"s1", "s2"} {
		quote := "carts live in valkey, said in " + s
		if err := db.Update(ctx, func(tx *Tx) error {
			_, err := tx.Append(ctx, Event{Type: TypeUserPrompt, SessionID: s, Project: "/p", Text: quote, DedupeKey: s + ":1"})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		evs, err := db.Read().Events(ctx, EventFilter{SessionID: s})
		if err != nil || len(evs) != 1 {
			t.Fatalf("%s: %v %d", s, err, len(evs))
		}
		ev = append(ev, Evidence{SessionID: s, EventID: evs[0].ID, Quote: quote, Method: "exact", Confidence: 1, SpanEnd: len(quote)})
	}
	if _, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s1", Type: "fact", Title: "Carts live in Valkey",
		ClaimKey: "carts", Stage: StageVerified, Evidence: ev}); err != nil {
		t.Fatal(err)
	}
	shareAndPush(t, db, 1)
	p, err := db.Forget(ctx, ForgetSelector{SessionID: "s2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Entries) != 0 || len(p.Evidence) == 0 {
		t.Fatalf("plan %+v: want the memory kept and a quote gone", p)
	}
	if n, err := db.OutboxPending(ctx); err != nil || n != 1 {
		t.Errorf("%d changes queued (%v), want the trimmed memory's put", n, err)
	}
}

// shareAndPush shares project /p's verified memories, want of them, and
// empties the outbox as a push that committed would.
func shareAndPush(t *testing.T, db *DB, want int) {
	t.Helper()
	ctx := context.Background()
	if n, err := db.ShareVerified(ctx, "/p"); err != nil || n != want {
		t.Fatalf("shared %d, want %d: %v", n, want, err)
	}
	cs, err := db.Outbox(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.OutboxDone(ctx, cs); err != nil {
		t.Fatal(err)
	}
}

// TestRewordSharesTheNewWording: a shared memory that a later session's
// statement of its fact rewords is queued for the team again, so
// teammates do not keep reading the old wording; a memory never shared
// queues nothing.
func TestRewordSharesTheNewWording(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	var ids []int64
	for _, key := range []string{"carts", "sessions"} {
		e, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s1", Type: "fact", Title: "It's in valkey",
			ClaimKey: key, Stage: StageVerified})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
		if key == "carts" {
			shareAndPush(t, db, 1)
		}
	}
	for _, id := range ids {
		if err := db.Update(ctx, func(tx *Tx) error {
			return tx.Reword(ctx, id, "Carts live in Valkey", "The cart service keeps carts in Valkey.")
		}); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := db.Outbox(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Kind != OutboxPut || cs[0].Entry.ID != ids[0] || cs[0].Entry.Title != "Carts live in Valkey" {
		t.Errorf("outbox after the rewording: %+v, want one put of the shared memory with its new title", cs)
	}
}

// TestPutPulledPage: a page of pulled memories that holds one memory twice
// (changed in between) leaves one copy, as the later change has it; one's
// own memory coming back in the page is left as it is.
func TestPutPulledPage(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	own, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s1", Type: "fact", Title: "Mine", ClaimKey: "mine", Stage: StageVerified})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(`UPDATE entries SET shared_id = 'own' WHERE id = ?`, own.ID); err != nil {
		t.Fatal(err)
	}
	first := Pulled{SharedID: "s1", Project: "/p", Author: "alice", Type: "fact", Title: "Carts expire after a day", Quotes: []string{"a day"}}
	second := first
	second.Title, second.Quotes = "Carts expire after a week", []string{"a week"}
	mine := Pulled{SharedID: "own", Project: "/p", Author: "bob", Type: "fact", Title: "Forged"}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.PutPulled(ctx, first, mine, second) }); err != nil {
		t.Fatal(err)
	}
	var titles []string
	rows, err := db.SQL().Query(`SELECT author || ': ' || title || ' / ' ||
		coalesce((SELECT group_concat(quote) FROM evidence WHERE entry_id = entries.id), '') FROM entries ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		titles = append(titles, s)
	}
	rows.Close()
	if want := []string{": Mine / ", "alice: Carts expire after a week / a week"}; !slices.Equal(titles, want) {
		t.Errorf("entries: %q, want %q", titles, want)
	}
}

// TestPutPulledCIDTaken: a pulled memory whose citation id another entry
// already has gets a longer one, as newCID gives.
func TestPutPulledCIDTaken(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	own, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s1", Type: "fact", Title: "Mine", ClaimKey: "mine", Stage: StageVerified})
	if err != nil {
		t.Fatal(err)
	}
	taken := firstCID("/p", "team:s9")
	if _, err := db.SQL().Exec(`UPDATE entries SET cid = ? WHERE id = ?`, taken, own.ID); err != nil {
		t.Fatal(err)
	}
	p := Pulled{SharedID: "s9", Project: "/p", Author: "alice", Type: "fact", Title: "Carts expire after a day"}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.PutPulled(ctx, p) }); err != nil {
		t.Fatal(err)
	}
	var cid string
	if err := db.SQL().QueryRow(`SELECT cid FROM entries WHERE shared_id = 's9'`).Scan(&cid); err != nil {
		t.Fatal(err)
	}
	if cid == taken || !strings.HasPrefix(cid, taken) {
		t.Errorf("the pulled memory's citation id is %s, want %s lengthened", cid, taken)
	}
}

// TestCorrectionDuringPush: a correction or a forget made while a push of
// the memory is under way (after the push read the outbox, before it let
// go of the batch) is still queued afterwards, so it reaches the server at
// the next push. Both replace the put in flight, and the change replacing
// it got its row id.
func TestCorrectionDuringPush(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s1", Type: "fact", Title: "Carts expire after a day", ClaimKey: "carts",
		Stage: StageVerified})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := db.ShareVerified(ctx, "/p"); err != nil || n != 1 {
		t.Fatalf("shared %d: %v", n, err)
	}
	batch, err := db.Outbox(ctx, 100)
	if err != nil || len(batch) != 1 || batch[0].Entry.Title != "Carts expire after a day" {
		t.Fatalf("outbox: %+v, %v", batch, err)
	}
	if _, err := db.SQL().Exec(`UPDATE entries SET title = 'Carts expire after a week' WHERE id = ?`, e.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.ShareCorrection(ctx, e.ID) }); err != nil {
		t.Fatal(err)
	}
	if err := db.OutboxDone(ctx, batch); err != nil {
		t.Fatal(err)
	}
	next, err := db.Outbox(ctx, 100)
	if err != nil || len(next) != 1 || next[0].Entry.Title != "Carts expire after a week" {
		t.Fatalf("after the push the outbox holds %+v (%v), want the correction", next, err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{CID: e.CID}); err != nil {
		t.Fatal(err)
	}
	if err := db.OutboxDone(ctx, next); err != nil {
		t.Fatal(err)
	}
	last, err := db.Outbox(ctx, 100)
	if err != nil || len(last) != 1 || last[0].Kind != OutboxForget {
		t.Fatalf("after the second push the outbox holds %+v (%v), want the forget", last, err)
	}
}

// TestDigestsAreNotShared: a team gets one's verified memories, not the
// digests of one's sessions.
func TestDigestsAreNotShared(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, typ := range []string{"fact", DigestType} {
		if _, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s1", Type: typ, Title: "A " + typ,
			ClaimKey: typ, Stage: StageVerified}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := db.ShareVerified(ctx, "/p"); err != nil || n != 1 {
		t.Errorf("shared %d (%v), want the fact alone", n, err)
	}
}

// TestOutboxCorrectionOfLastInFlight: a correction of the last change of a
// batch in flight (which replaces that change's row) comes after the batch,
// so the push reading from the row after it sends the correction in the
// same sync: an outbox row id is never given again.
func TestOutboxCorrectionOfLastInFlight(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var last Entry
	for _, title := range []string{"Carts expire after a day", "Orders ship within two days"} {
		if last, _, err = db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s1", Type: "fact", Title: title, ClaimKey: title,
			Stage: StageVerified}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := db.ShareVerified(ctx, "/p"); err != nil || n != 2 {
		t.Fatalf("shared %d: %v", n, err)
	}
	inFlight, err := db.Outbox(ctx, 100)
	if err != nil || len(inFlight) != 2 {
		t.Fatalf("outbox: %+v, %v", inFlight, err)
	}
	if _, err := db.SQL().Exec(`UPDATE entries SET title = 'Orders ship within a week' WHERE id = ?`, last.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(ctx, func(tx *Tx) error { return tx.ShareCorrection(ctx, last.ID) }); err != nil {
		t.Fatal(err)
	}
	next, err := db.OutboxAfter(ctx, inFlight[len(inFlight)-1].ID, 100)
	if err != nil || len(next) != 1 || next[0].Entry.Title != "Orders ship within a week" {
		t.Fatalf("after the batch in flight the outbox holds %+v (%v), want the correction", next, err)
	}
}

// TestPutPulledHonoursForgets: a teammate's memory forgotten here, or one
// that says words forgotten here, is not written back by a later pull (its
// author edits it, or shares it again): forget's rule holds for pulls as
// for every other write.
func TestPutPulledHonoursForgets(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	put := func(ps ...Pulled) {
		t.Helper()
		if err := db.Update(ctx, func(tx *Tx) error { return tx.PutPulled(ctx, ps...) }); err != nil {
			t.Fatal(err)
		}
	}
	carts := Pulled{SharedID: "s1", Project: "/p", Author: "alice", Type: "fact", Title: "Carts expire after a day",
		Quotes: []string{"abandoned carts expire after one day in the session store"}}
	put(carts)
	cid, err := db.SharedCID(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{CID: cid}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{Phrase: "vault recovery phrase"}); err != nil {
		t.Fatal(err)
	}
	edited := carts
	edited.Title = "Carts expire after one day"
	vault := Pulled{SharedID: "s2", Project: "/p", Author: "alice", Type: "fact", Title: "The vault recovery phrase is kept offline",
		Quotes: []string{"the vault recovery phrase is kept offline in the safe"}}
	put(edited, vault)
	es, err := db.Read().Entries(ctx, EntryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		t.Errorf("pulled back after a forget: %s %q", e.CID, e.Title)
	}
}

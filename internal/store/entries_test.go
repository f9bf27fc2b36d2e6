package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
)

func entry(session, key, title, quote string, stage string) Entry {
	return Entry{Project: "/p", SessionID: session, Type: "decision", Title: title, ClaimKey: key, Stage: stage,
		Evidence: []Evidence{{SessionID: session, Quote: quote, Method: "exact", Confidence: 1}}}
}

// PutEntries stores a session's entries in one go: in order, a repeated
// claim joins the entry already there (promoting a candidate the new
// evidence verifies), and each entry comes back with this batch's evidence.
func TestPutEntries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	first, _, err := db.PutEntry(ctx, entry("s1", "keys", "Keys live in ./keys", "keys live in ./keys", StageCandidate))
	if err != nil {
		t.Fatal(err)
	}
	got, created, err := putEntries(ctx, db, []EntryWrite{
		{Entry: entry("s2", "jwt", "Use RS256", "we use RS256", StageVerified),
			Events: []Event{{Type: TypeEntryExtracted, SessionID: "s2", DedupeKey: "x:jwt"}}},
		{Entry: entry("s2", "keys", "Keys live in ./keys", "the keys are in ./keys", StageVerified)},
		{Entry: entry("s2", "jwt", "Use RS256", "RS256 it is", StageVerified)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || created[0] != true || created[1] != false || created[2] != false {
		t.Fatalf("created = %v", created)
	}
	if got[0].ID != got[2].ID || got[1].ID != first.ID || got[1].Stage != StageVerified {
		t.Errorf("entries: %+v", got)
	}
	if len(got[1].Evidence) != 1 || got[1].Evidence[0].SessionID != "s2" {
		t.Errorf("read back evidence of other sessions: %+v", got[1].Evidence)
	}
	all, err := db.Read().EntryByID(ctx, first.ID)
	if err != nil || len(all.Evidence) != 2 {
		t.Errorf("EntryByID: %d quotes, %v", len(all.Evidence), err)
	}
	if n := len(mustEvents(t, db, TypeEntryExtracted)); n != 1 {
		t.Errorf("%d entry events", n)
	}
	if _, _, err := putEntries(ctx, db, []EntryWrite{{Entry: Entry{Project: "/p", Title: "no key"}}}); err == nil {
		t.Error("an entry without a claim key was stored")
	}
}

// A session's quotes are stored in multi-row inserts of a few sizes: every
// quote lands once, in order, under its own entry, and a quote its entry
// has from that session already is left out, within one insert too.
func TestPutEntriesManyQuotes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	var ws []EntryWrite
	want := map[string]int{}
	for i := range 90 { // inserts of 64, 16, 4, 4, 1 and 1 rows
		key := fmt.Sprintf("k%d", i%3)
		quote := fmt.Sprintf("quote %d", i)
		if i%30 == 29 {
			quote = "quote 2" // k2 quoted so at i = 2 already
		}
		ws = append(ws, EntryWrite{Entry: entry("s1", key, "Title "+key, quote, StageVerified)})
		want[key+"|"+quote]++
	}
	if _, _, err := putEntries(ctx, db, ws); err != nil {
		t.Fatal(err)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT e.claim_key, v.quote FROM evidence v JOIN entries e ON e.id = v.entry_id ORDER BY v.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var k, q string
		if err := rows.Scan(&k, &q); err != nil {
			t.Fatal(err)
		}
		got = append(got, k+"|"+q)
	}
	var order []string
	seen := map[string]bool{}
	for _, w := range ws {
		k := w.Entry.ClaimKey + "|" + w.Entry.Evidence[0].Quote
		if !seen[k] {
			seen[k] = true
			order = append(order, k)
		}
	}
	if len(order) != len(want) || !slices.Equal(got, order) {
		t.Errorf("stored %d quotes, want %d in order:\n%q\nwant\n%q", len(got), len(order), got, order)
	}
}

func TestAddConflicts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	got, _, err := putEntries(ctx, db, []EntryWrite{
		{Entry: entry("s1", "a", "Use HS256", "HS256", StageVerified)},
		{Entry: entry("s1", "b", "Use RS256", "RS256", StageVerified)},
		{Entry: entry("s1", "c", "Use EdDSA", "EdDSA", StageVerified)},
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := got[0].ID, got[1].ID, got[2].ID
	ws := []ConflictWrite{
		{Conflict{Older: a, Newer: b, Kind: "supersedes"}, Event{Type: TypeConflict, DedupeKey: "c:ab"}},
		{Conflict{Older: b, Newer: c, Kind: "contradicts"}, Event{Type: TypeConflict, DedupeKey: "c:bc"}},
		{Conflict{Older: a, Newer: b, Kind: "supersedes"}, Event{Type: TypeConflict, DedupeKey: "c:ab"}},
	}
	if n, err := addConflicts(ctx, db, ws); err != nil || n != 2 {
		t.Fatalf("AddConflicts = %d, %v", n, err)
	}
	if n, err := addConflicts(ctx, db, ws); err != nil || n != 0 {
		t.Fatalf("again: %d, %v", n, err)
	}
	want := map[int64]string{a: StatusSuperseded, b: StatusContested, c: StatusContested}
	for id, status := range want {
		e, err := db.Read().EntryByID(ctx, id)
		if err != nil || e.Status != status {
			t.Errorf("entry %d: status %q, want %q (%v)", id, e.Status, status, err)
		}
	}
	if n := len(mustEvents(t, db, TypeConflict)); n != 2 {
		t.Errorf("%d conflict events, want 2", n)
	}
	for limit, want := range map[int]int{0: 2, 1: 1, 5: 2} {
		cs, err := db.Conflicts(ctx, []int64{b}, limit)
		if err != nil || len(cs) != want || cs[0].Older != a {
			t.Errorf("Conflicts of b, limit %d: %+v, %v; want %d, the oldest first", limit, cs, err, want)
		}
	}
}

func mustEvents(t *testing.T, db *DB, typ string) []Event {
	t.Helper()
	evs, err := db.Read().Events(context.Background(), EventFilter{Types: []string{typ}})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// EntryQuoted reads an entry with the one quote recall shows: the most
// confident aligned one, the first stored of equals; an entry with no
// aligned quote comes without evidence.
func TestEntryQuoted(t *testing.T) {
	ctx := context.Background()
	db := MustOpen(t)
	e := entry("s1", "k", "Use RS256", "", StageVerified)
	e.Evidence = []Evidence{
		{SessionID: "s1", Quote: "not found in the transcript", Method: "none", Confidence: 1},
		{SessionID: "s2", Quote: "roughly RS256", Method: "fuzzy", Confidence: 0.8},
		{SessionID: "s3", Quote: "we use RS256", Method: "exact", Confidence: 0.9},
		{SessionID: "s4", Quote: "RS256 it is", Method: "exact", Confidence: 0.9},
	}
	stored, _, err := db.PutEntry(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Read().EntryQuoted(ctx, stored.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Use RS256" || len(got.Evidence) != 1 || got.Evidence[0].Quote != "we use RS256" || got.Evidence[0].SessionID != "s3" {
		t.Errorf("EntryQuoted = %q with %+v, want the s3 quote alone", got.Title, got.Evidence)
	}
	bare, _, err := db.PutEntry(ctx, entry("s1", "k2", "Keys in ./keys", "", StageCandidate))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `UPDATE evidence SET method = 'none' WHERE entry_id = ?`, bare.ID); err != nil {
		t.Fatal(err)
	}
	got, err = db.Read().EntryQuoted(ctx, bare.ID)
	if err != nil || len(got.Evidence) != 0 || got.Title != "Keys in ./keys" {
		t.Errorf("EntryQuoted of an entry without an aligned quote = %+v, %v", got, err)
	}
	if _, err := db.Read().EntryQuoted(ctx, 9999); !errors.Is(err, ErrNotFound) {
		t.Errorf("EntryQuoted of no entry: %v, want ErrNotFound", err)
	}
	// EntriesQuoted reads the same for several at once, an id twice once,
	// and leaves out an id of no entry.
	all, err := db.Read().EntriesQuoted(ctx, []int64{bare.ID, 9999, stored.ID, bare.ID})
	if err != nil || len(all) != 2 {
		t.Fatalf("EntriesQuoted = %d entries (%v), want 2", len(all), err)
	}
	for _, id := range []int64{stored.ID, bare.ID} {
		one, err := db.Read().EntryQuoted(ctx, id)
		if err != nil || !reflect.DeepEqual(all[id], one) {
			t.Errorf("EntriesQuoted[%d] = %+v, EntryQuoted = %+v (%v)", id, all[id], one, err)
		}
	}
}

// TestBestEvidence checks the quotes bestEvidence reads for a list of
// entries in one statement: each entry's n most confident aligned quotes,
// the first stored of equals first, none for an entry without one, and an
// entry listed twice filled in at both places.
func TestBestEvidence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	put := func(key string, vs ...Evidence) Entry {
		t.Helper()
		e := entry("s1", key, "Title "+key, "", StageVerified)
		e.Evidence = vs
		stored, _, err := db.PutEntry(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		stored.Evidence = nil
		return stored
	}
	ev := func(quote, method string, conf float64) Evidence {
		return Evidence{SessionID: "s1", Quote: quote, Method: method, Confidence: conf}
	}
	a := put("a", ev("a unaligned", "none", 1), ev("a low", "fuzzy", 0.5), ev("a first of equals", "exact", 0.9),
		ev("a second of equals", "exact", 0.9), ev("a third of equals", "exact", 0.9))
	b := put("b", ev("b unaligned", "none", 1))
	c := put("c", ev("c low", "fuzzy", 0.7), ev("c high", "exact", 1))
	entries := []Entry{c, a, b, a}
	if err := bestEvidence(ctx, db.Read(), entries, 2); err != nil {
		t.Fatal(err)
	}
	quotes := func(e Entry) []string {
		var qs []string
		for _, v := range e.Evidence {
			if v.EntryID != e.ID {
				t.Errorf("entry %d got a quote of entry %d", e.ID, v.EntryID)
			}
			qs = append(qs, v.Quote)
		}
		return qs
	}
	for i, want := range [][]string{{"c high", "c low"}, {"a first of equals", "a second of equals"}, nil, {"a first of equals", "a second of equals"}} {
		if got := quotes(entries[i]); !slices.Equal(got, want) {
			t.Errorf("entry %d (%s): quotes %q, want %q", i, entries[i].Title, got, want)
		}
	}
}

package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestMatchExpr checks the FTS5 expression the store builds from words:
// each word quoted with its quotes doubled, NUL bytes dropped, empty words
// left out, joined by OR (or AND), with * after each for a prefix match.
func TestMatchExpr(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		m    Match
		want string
	}{
		{MatchAny([]string{"rs256", "keys"}, false), `"rs256" OR "keys"`},
		{MatchAll([]string{"rs256", "keys"}, true), `"rs256"* AND "keys"*`},
		{MatchAny([]string{`foo-bar"`}, false), `"foo-bar"""`},
		{MatchAny([]string{`a OR b`, `NEAR(a b)`, `col:x`}, false), `"a OR b" OR "NEAR(a b)" OR "col:x"`},
		{MatchAny([]string{"a\x00b"}, true), `"ab"*`},
		{MatchAny([]string{"", "  ", "\x00", "x"}, false), `"x"`},
		{MatchAny([]string{"", "\x00"}, true), ``},
		{Match{}, ``},
	} {
		if got := tt.m.expr(); got != tt.want {
			t.Errorf("%+v.expr() = %s, want %s", tt.m, got, tt.want)
		}
		if got, want := tt.m.Empty(), tt.want == ""; got != want {
			t.Errorf("%+v.Empty() = %v, want %v", tt.m, got, want)
		}
	}
}

// TestMatchHostileWords checks that hostile words find what holds them and
// never make SQLite fail.
func TestMatchHostileWords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	if _, err := appendEvents(ctx, db, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "k", Text: `the foo-bar "quoted" column:value, and not near`}); err != nil {
		t.Fatal(err)
	}
	for _, words := range [][]string{{`foo-bar"`}, {`"quoted"`}, {`column:value`}, {`foo`, `NOT`, `bar`, `NEAR`, `AND`}} {
		hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAll(words, false)})
		if err != nil || len(hits) != 1 {
			t.Errorf("MatchAll(%q): %d hits, %v; want the one event", words, len(hits), err)
		}
	}
	for _, words := range [][]string{{`-foo`}, {`*`}, {`(`}, {`^the`}, {`AND`}} {
		if _, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny(words, true)}); err != nil {
			t.Errorf("MatchAny(%q): %v", words, err)
		}
	}
}

// TestSearchNewest checks the bounds the prompt path ranks within: After
// leaves out older events, RankNewest ranks only the newest entries a match
// selects, Quotes reads an entry's most confident quotes only, and
// EvidenceLinks still ties the entry to every message it quotes.
func TestSearchNewest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	var evs []Event
	for i := range 10 {
		evs = append(evs, Event{Type: TypeUserPrompt, SessionID: fmt.Sprintf("s%d", i), Project: "/p", DedupeKey: fmt.Sprintf("k%d", i),
			Text: fmt.Sprintf("the webhook retries, take %d", i)})
	}
	if _, err := appendEvents(ctx, db, evs...); err != nil {
		t.Fatal(err)
	}
	hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{"webhook"}, true), After: 7, Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 || slices.ContainsFunc(hits, func(h EventHit) bool { return h.ID <= 7 }) {
		t.Errorf("After 7: %d hits %+v, want events 8 to 10", len(hits), hits)
	}

	var ids []int64
	for i := range 5 {
		var ev []Evidence
		for j := range 10 {
			ev = append(ev, Evidence{SessionID: fmt.Sprintf("s%d", j), EventID: int64(j + 1), Quote: fmt.Sprintf("the webhook retries, take %d", j),
				Method: "exact", Confidence: 1 - float64(j)/100, SpanEnd: 10})
		}
		e, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s0", Type: "fact", Title: fmt.Sprintf("webhook retries %d", i),
			ClaimKey: fmt.Sprint("c", i), Stage: StageVerified, Evidence: ev})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	got, err := db.SearchEntries(ctx, EntryQuery{Match: MatchAny([]string{"webhook"}, true), Limit: 10, RankNewest: 2, Quotes: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID < ids[3] || got[1].ID < ids[3] {
		t.Fatalf("RankNewest 2: %d hits, want the two newest entries", len(got))
	}
	for _, h := range got {
		if len(h.Evidence) != 3 || h.Evidence[0].EventID != 1 || h.Evidence[2].EventID != 3 {
			t.Errorf("Quotes 3: entry %d read with %+v, want its three most confident quotes", h.ID, h.Evidence)
		}
	}
	links, err := db.EvidenceLinks(ctx, []int64{ids[0], ids[4]}, []int64{9, 10, 11})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{9, 10}; !slices.Equal(links[ids[0]], want) || !slices.Equal(links[ids[4]], want) || len(links) != 2 {
		t.Errorf("EvidenceLinks = %v, want events 9 and 10 for both entries", links)
	}
}

// TestVocabDocs: the index's own counts of terms as it stores them (a
// stem: "caching" is "cach"), in the order asked, 0 for a term no text
// holds; a term asked twice is counted twice.
func TestVocabDocs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	var evs []Event
	for i, text := range []string{"caching layer version 2", "version bump", "zebra caching"} {
		evs = append(evs, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: fmt.Sprint("k", i), Text: text})
	}
	if _, err := appendEvents(ctx, db, evs...); err != nil {
		t.Fatal(err)
	}
	got, err := db.VocabDocs(ctx, []string{"version", "cach", "nowhere", "version", "zebra"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 2, 0, 2, 1}; !slices.Equal(got, want) {
		t.Errorf("VocabDocs = %v, want %v", got, want)
	}
	if got, err := db.VocabDocs(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("VocabDocs(nil) = %v, %v", got, err)
	}
}

// TestTermDocs checks word counts: exact for a rare word, by the index's
// stem ("caching" counts "cache"), a prefix for a word ending in "*", and
// estimated from the newest events for a word in many of them.
func TestTermDocs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	n := termWindow * 2
	evs := make([]Event, 0, n)
	for i := range n {
		text := fmt.Sprintf("message %d", i)
		switch {
		case i%2 == 0:
			text += " caching layer"
		case i == 7 || i == n-3:
			text += " 토큰을 zebra"
		}
		evs = append(evs, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: fmt.Sprint("k", i), Text: text})
	}
	if _, err := appendEvents(ctx, db, evs...); err != nil {
		t.Fatal(err)
	}
	docs, _, total, err := db.TermDocs(ctx, []string{"zebra", "cache", "토큰*", "nowhere", ""}, "")
	if err != nil {
		t.Fatal(err)
	}
	if total != n {
		t.Errorf("total = %d, want %d", total, n)
	}
	if docs[0] != 2 || docs[2] != 2 || docs[3] != 0 || docs[4] != 0 {
		t.Errorf("zebra, 토큰*, nowhere, empty = %d, %d, %d, %d; want 2, 2, 0, 0", docs[0], docs[2], docs[3], docs[4])
	}
	if docs[1] < n/2-n/20 || docs[1] > n/2+n/20 {
		t.Errorf("cache = %d, want about %d", docs[1], n/2)
	}
	// A session's own prompts and answers are not counted when it is
	// excluded; its tool runs are.
	var now []Event
	for i := range 3 {
		now = append(now, Event{Type: TypeUserPrompt, SessionID: "now", Project: "/p", DedupeKey: fmt.Sprint("now:", i), Text: "zebra quokka"})
	}
	now = append(now, Event{Type: TypeToolObservation, SessionID: "now", Project: "/p", DedupeKey: "now:run", Text: "Read: notes\nzebra"})
	if _, err := appendEvents(ctx, db, now...); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		exclude       string
		zebra, quokka int
	}{{"", 6, 3}, {"now", 3, 0}, {"other", 6, 3}} {
		docs, said, _, err := db.TermDocs(ctx, []string{"zebra", "quokka"}, tt.exclude)
		if err != nil {
			t.Fatal(err)
		}
		if docs[0] != tt.zebra || docs[1] != tt.quokka {
			t.Errorf("excluding %q: zebra, quokka = %d, %d; want %d, %d", tt.exclude, docs[0], docs[1], tt.zebra, tt.quokka)
		}
		if wantSaid := tt.exclude == "now"; said[0] != wantSaid || said[1] != wantSaid {
			t.Errorf("excluding %q: said %v, want both %v", tt.exclude, said, wantSaid)
		}
	}
}

// TestNeighbours checks Previous and Next: the nearest event of the given
// types on each side, in the event's own session, a zero Event past either
// end, and each direction and list of types prepared once however many
// messages a prompt reads the neighbours of (it was prepared on every call,
// its IN list of placeholders keeping it out of the readers' cache).
func TestNeighbours(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	ev := func(key, typ, sess string) Event {
		return Event{Type: typ, SessionID: sess, Project: "/p", DedupeKey: key, Text: key}
	}
	if _, err := appendEvents(ctx, db, ev("q1", TypeUserPrompt, "s"), ev("other", TypeUserPrompt, "t"),
		ev("run", TypeToolObservation, "s"), ev("a1", TypeAgentResponse, "s"), ev("q2", TypeUserPrompt, "s")); err != nil {
		t.Fatal(err)
	}
	evs, err := db.Read().Events(ctx, EventFilter{SessionID: "s"})
	if err != nil || len(evs) != 4 {
		t.Fatalf("events: %d, %v", len(evs), err)
	}
	q1, run, a1, q2 := evs[0], evs[1], evs[2], evs[3]
	turns := []string{TypeUserPrompt, TypeAgentResponse}
	all := []string{TypeUserPrompt, TypeAgentResponse, TypeToolObservation}
	cached := len(db.stmts)
	for _, c := range []struct {
		name string
		got  func() (Event, error)
		want string
	}{
		{"next turn after q1", func() (Event, error) { return db.Next(ctx, q1, turns) }, "a1"},
		{"next message after q1", func() (Event, error) { return db.Next(ctx, q1, all) }, "run"},
		{"next turn after a1", func() (Event, error) { return db.Next(ctx, a1, turns) }, "q2"},
		{"next after q2", func() (Event, error) { return db.Next(ctx, q2, all) }, ""},
		{"previous turn before a1", func() (Event, error) { return db.Previous(ctx, a1, turns) }, "q1"},
		{"previous message before a1", func() (Event, error) { return db.Previous(ctx, a1, all) }, "run"},
		{"previous message before run", func() (Event, error) { return db.Previous(ctx, run, all) }, "q1"},
		{"previous before q1", func() (Event, error) { return db.Previous(ctx, q1, turns) }, ""},
	} {
		got, err := c.got()
		if err != nil || got.Text != c.want {
			t.Errorf("%s = %q (%v), want %q", c.name, got.Text, err, c.want)
		}
	}
	if n := len(db.stmts) - cached; n != 4 {
		t.Errorf("eight reads of neighbours left %d statements prepared, want 4 (two directions, two lists of types)", n)
	}
}

// TestSearchStatementsKept checks that a search with lists of types, stages
// and statuses is prepared once and kept: a prompt runs several of one
// shape, and their IN lists of placeholders kept them out of the readers'
// cache, so each was prepared again.
func TestSearchStatementsKept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	if _, err := appendEvents(ctx, db, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "k1", Text: "the webhook retries"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "s", Type: "fact", Title: "webhook retries", ClaimKey: "c",
		Stage: StageVerified, Evidence: []Evidence{{SessionID: "s", Quote: "the webhook retries", Method: "exact", Confidence: 1, SpanEnd: 5}}}); err != nil {
		t.Fatal(err)
	}
	kept := func(part string) int {
		n := 0
		for q := range db.stmts {
			if strings.Contains(q, part) {
				n++
			}
		}
		return n
	}
	for _, w := range []string{"webhook", "retries"} {
		hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{w}, false), Project: "/p",
			Types: []string{TypeUserPrompt, TypeAgentResponse}})
		if err != nil || len(hits) != 1 {
			t.Fatalf("SearchEvents %q: %d hits, %v", w, len(hits), err)
		}
		entries, err := db.SearchEntries(ctx, EntryQuery{Match: MatchAny([]string{w}, false), Project: "/p",
			Stages: []string{StageVerified, StageCertified}, Statuses: []string{StatusActive, StatusContested}, Quotes: 2})
		if err != nil || len(entries) != 1 {
			t.Fatalf("SearchEntries %q: %d hits, %v", w, len(entries), err)
		}
	}
	if n := kept("bm25(events_fts)"); n != 1 {
		t.Errorf("two event searches of one shape left %d statements prepared, want 1", n)
	}
	if n := kept("bm25(entries_fts"); n != 1 {
		t.Errorf("two entry searches of one shape left %d statements prepared, want 1", n)
	}
}

// TestSearchWindowOneStatement checks that a search with a window (After)
// and the same search without one are one statement, prepared once: the
// prompt path runs both, and the search is the costliest statement to
// prepare. Both find what they found before.
func TestSearchWindowOneStatement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	var ids []int64
	for i := range 3 {
		r, err := appendEvents(ctx, db, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: fmt.Sprint("w", i), Text: "the frindle queue"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.IDs[0])
	}
	cached := len(db.stmts)
	q := EventQuery{Match: MatchAny([]string{"frindle"}, false), Project: "/p", Types: []string{TypeUserPrompt}}
	all, err := db.SearchEvents(ctx, q)
	if err != nil || len(all) != 3 {
		t.Fatalf("without a window: %d hits, %v; want 3", len(all), err)
	}
	q.After = ids[0]
	newer, err := db.SearchEvents(ctx, q)
	if err != nil || len(newer) != 2 || newer[0].ID == ids[0] || newer[1].ID == ids[0] {
		t.Fatalf("after %d: %+v, %v; want the two newer", ids[0], newer, err)
	}
	if n := len(db.stmts) - cached; n != 1 {
		t.Errorf("a search with and without a window left %d statements prepared, want 1", n)
	}
}

// Matches that score the same come oldest first, and the newest-first
// search newest first, whatever plan SQLite picks for the join of the ranked
// ids with their rows.
func TestSearchEventsTiesInOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	var want []int64
	for i := range 6 {
		r, err := appendEvents(ctx, db, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: fmt.Sprint("k", i), Text: "the quarn cache"})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, r.IDs...)
	}
	for _, newest := range []bool{false, true} {
		hits, err := db.SearchEvents(ctx, EventQuery{Match: MatchAny([]string{"quarn"}, false), Project: "/p", Limit: 4, Newest: newest})
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, h := range hits {
			got = append(got, h.ID)
		}
		exp := slices.Clone(want[:4])
		if newest {
			exp = slices.Clone(want[2:])
			slices.Reverse(exp)
		}
		if !slices.Equal(got, exp) {
			t.Errorf("newest=%v: ids %v, want %v", newest, got, exp)
		}
	}
}

// TestAnyHolds: whether some message holds one of the words, as TermDocs
// counts them (a token only a memory's questions hold is not one).
func TestAnyHolds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	if _, err := appendEvents(ctx, db, Event{Type: TypeUserPrompt, SessionID: "s", Project: "/p", DedupeKey: "k", Text: "the QRV flag gates the rollout"}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		words []string
		want  bool
	}{
		{[]string{"xzq", "qrv"}, true},
		{[]string{"xzq", "wvk"}, false},
		{[]string{""}, false},
		{nil, false},
	} {
		got, err := db.AnyHolds(ctx, tt.words)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("AnyHolds(%q) = %v, want %v", tt.words, got, tt.want)
		}
	}
}

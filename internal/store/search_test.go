package store

import (
	"context"
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

package extract

import (
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
)

// TestNamedFileSurvives: what a statement says a named file holds is not
// overturned by a later statement about something else that only shares
// its role ("plan", then "the dispatcher plan now uses …").
func TestNamedFileSurvives(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Tidy the route sketches into a folder."},
		{Index: 1, Role: "assistant", Text: "Tidied:\n- `maps/route_north.md` - Draft van route plan using Tollgate Maps SDK\n- `maps/todo.md` - Open questions"},
		{Index: 2, Role: "user", Text: "Thanks. Hook up the dispatcher next."},
		{Index: 3, Role: "assistant", Text: "The dispatcher plan now uses Kestrel Geo SDK instead."},
	}
	got := Offline(msgs)
	checkEntries(t, "named file", msgs, got)
	for _, e := range got {
		if strings.Contains(e.Body, "maps/route_north.md") {
			return
		}
	}
	t.Errorf("the statement about maps/route_north.md was dropped:%s", dump(got))
}

// survivorsPlain is survivors as it was before it read once what depends on
// one candidate alone (whether its subject names a file).
func survivorsPlain(cs []*cand, cache *claim.Cache) []*cand {
	claims := make([][]claim.Claim, len(cs))
	for i, c := range cs {
		if conflicting(c.typ) {
			claims[i] = cache.Parse(c.body)
		}
	}
	out := cs[:0:0]
	for i, c := range cs {
		overturned := false
		for j := range cs {
			if j == i || cs[j].from <= c.from || len(claims[i]) == 0 || len(claims[j]) == 0 {
				continue
			}
			rel, role, _, _ := claim.Compare(claims[i], claims[j])
			if claim.Identifier(role) {
				continue
			}
			if c.subject != cs[j].subject && len(paths(c.subject)) > 0 {
				continue
			}
			if rel == claim.Supersedes || rel == claim.Contradicts && c.subject != "" && c.subject == cs[j].subject {
				overturned = true
				break
			}
		}
		if !overturned {
			out = append(out, c)
		}
	}
	return out
}

// candidatesOf returns every candidate the extractor makes of msgs, before
// entries merges and drops them.
func candidatesOf(msgs []Message, cache *claim.Cache) []*cand {
	x := extractor{msgs: msgs, turn: -1, cache: cache}
	for i := range msgs {
		x.message(i)
	}
	return x.cands
}

// TestSurvivorsSame is an equivalence test: survivors against its old form
// on the candidates of the test sessions, of a long made-up session and of
// invented changes to files and settings, kept or not by keeps.
func TestSurvivorsSame(t *testing.T) {
	var sessions [][]Message
	for _, s := range testSessions(t) {
		ms := make([]Message, len(s.Messages))
		for i, m := range s.Messages {
			ms[i] = Message{Index: i, Role: m.Role, Text: m.Text}
		}
		sessions = append(sessions, ms)
	}
	sessions = append(sessions, syntheticSession(t, 400))
	invented := []string{
		"Config lives in conf/quill.toml with a timeout of 20s.",
		"The timeout in conf/quill.toml is 45s now, not 20s.",
		"We deploy the docs to Pelwick Pages.",
		"Docs go to Harrow Cloud instead of Pelwick Pages from now on.",
		"The worker pool in src/pool.rs has 8 threads.",
		"Make the pool 16 threads instead of 8.",
	}
	var ms []Message
	for i, text := range invented {
		ms = append(ms, Message{Index: i, Role: []string{"user", "assistant"}[i%2], Text: text})
	}
	sessions = append(sessions, ms)
	overturned := 0
	for _, msgs := range sessions {
		var cache claim.Cache
		cs := candidatesOf(msgs, &cache)
		var x extractor
		x.cache = &cache
		kept := slices.DeleteFunc(slices.Clone(cs), func(c *cand) bool { return !x.keeps(c) })
		for _, in := range [][]*cand{cs, kept} {
			got, want := survivors(in, &cache), survivorsPlain(in, &cache)
			if !slices.Equal(got, want) {
				t.Fatalf("survivors kept %d of %d candidates, the old form %d", len(got), len(in), len(want))
			}
			overturned += len(in) - len(got)
		}
	}
	if overturned == 0 {
		t.Fatal("no candidate was overturned: the comparison checked only survivors")
	}
}

package claim

import (
	"fmt"
	"testing"
)

// TestCacheKeepsTextsInUse: a text asked for again while the cache
// fills with texts seen once stays parsed: the same claims come back,
// not a new parse. Forgetting everything when full parsed it again.
func TestCacheKeepsTextsInUse(t *testing.T) {
	var c Cache
	hot := "We use Postgres as the database."
	first := c.Parse(hot)
	if len(first) == 0 {
		t.Fatalf("no claims in %q", hot)
	}
	for i := range 3 * MaxCached {
		c.Parse(fmt.Sprintf("Session %d note.", i))
		if i%1000 == 0 {
			if got := c.Parse(hot); &got[0] != &first[0] {
				t.Fatalf("after %d other texts %q was parsed again", i, hot)
			}
		}
	}
}

// TestNilCacheParses: a nil Cache parses, as Parse does.
func TestNilCacheParses(t *testing.T) {
	var c *Cache
	text := "We use Postgres as the database."
	got, want := c.Parse(text), Parse(text)
	if len(got) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("nil cache: %v, Parse: %v", got, want)
	}
}

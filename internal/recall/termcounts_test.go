package recall

import (
	"context"
	"fmt"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestTermCountsOnce: a prompt's recall counts each word once; the
// feedback's line asks again for words the prompt's weighing counted, and
// gets the first count without a new one.
func TestTermCountsOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	say(t, db, "one", day.AddDate(0, 0, -3), "The quokka gateway drops the handshake.", "Raised the quokka timeout.")
	counts := newTermCounts(db)
	first, total, err := counts.count(ctx, []string{"quokka", "gateway"})
	if err != nil {
		t.Fatal(err)
	}
	if first[0] != 2 || first[1] != 1 || total == 0 {
		t.Fatalf("counts %v, total %d; want [2 1] and some events", first, total)
	}
	// Counted again, "quokka" would be 3 now.
	say(t, db, "two", day.AddDate(0, 0, -2), "Is the quokka gateway up?", "It is.")
	again, total2, err := counts.count(ctx, []string{"handshake", "quokka", "handshake"})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(again) != "[1 2 1]" || total2 != total {
		t.Errorf("counts %v, total %d; want [1 2 1] and %d: the first counts", again, total2, total)
	}
	if fresh, _, err := newTermCounts(db).count(ctx, []string{"quokka"}); err != nil || fresh[0] != 3 {
		t.Errorf("a new prompt's count: %v, %v; want [3]", fresh, err)
	}
}

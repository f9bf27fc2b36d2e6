package recall

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/thesaurus"
)

// TestRelatedBridgesUnseenWord: a prompt's word the store never wrote is
// searched by the first word the thesaurus relates to it that the store
// holds, at less than that word's own weight; a word the store holds is
// left alone.
func TestRelatedBridgesUnseenWord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rows := "# header\ndeferred postpone\nexport exportation\nwidget gadget\n"
	if err := os.WriteFile(filepath.Join(dir, "eng.txt"), []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "s1", day, "What happened to the export of the ledger?", "We postponed the export until the quota resets.")
	ctx := context.Background()
	prompt := "why was the export deferred?"
	tc := newTermCounts(db)
	cs, total, err := tc.weigh(ctx, concepts(prompt, nil), false)
	if err != nil {
		t.Fatal(err)
	}
	cs, err = tc.related(ctx, cs, thesaurus.Open(dir), stopsFor(prompt), total)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		switch c.forms[0] {
		case "deferred":
			if !slices.Contains(c.keys, indexKey("postpone")) || c.df == 0 || c.weight <= 0 {
				t.Errorf("deferred: keys %q, df %d, weight %.2f; want postpone's, seen", c.keys, c.df, c.weight)
			}
		case "export":
			if len(c.keys) != 1 {
				t.Errorf("export, a word the store holds, got keys %q", c.keys)
			}
		}
	}
}

package recall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// A count of a thing changed later in the session ("from 9 canaries down to
// 4"): the statement that counted 9 is shown replaced, with the warning
// naming both counts, though "9 canaries" alone is no claim.
func TestChangedCountIsWarned(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "rollout", day,
		"Plan the staged rollout of the billing service.",
		"The rollout plan for the billing service has 9 canaries, one per region, each watched for an hour.",
		"That is too slow for the billing service, trim the rollout.",
		"I trimmed the billing rollout from 9 canaries down to 4, grouped by traffic.")
	got := recallFor(t, db, defaults(), "How many canaries does the billing service rollout use?")
	i := strings.Index(got, ConflictOpen)
	if i < 0 {
		t.Fatalf("no warning:\n%s", got)
	}
	warn := got[i:]
	if !strings.Contains(warn, "has 9 canaries") || !strings.Contains(warn, "number of canaries: 4") || !strings.Contains(warn, "replaced 9") {
		t.Errorf("want the count of 9 shown replaced by 4:\n%s", warn)
	}
}

// A commit's message is its author's statement: one naming the count it
// replaces ("Merged 8 lambdas into 2") is the newer side of a warning,
// while the command's output decides nothing.
func TestCommitMessageReplacesACount(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	evs := say(t, db, "stack", day,
		"What does the checkout stack deploy?",
		"The checkout stack deploys 8 lambdas behind the payment gateway, one per checkout step.")
	commit := "Bash: git add infra && git commit -m \"Merged 8 lambdas into 2 for the checkout stack\"\n[main 1a2b3c4] Merged 8 lambdas into 2 for the checkout stack\n 3 files changed, 40 insertions(+), 120 deletions(-)"
	if err := db.Update(context.Background(), func(tx *store.Tx) error {
		_, err := tx.Append(context.Background(), store.Event{Time: evs[len(evs)-1].Time.Add(time.Hour), Type: store.TypeToolObservation,
			SessionID: "stack", Project: proj, Text: commit, DedupeKey: "stack:commit"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	got := recallFor(t, db, defaults(), "How many lambdas were merged for the checkout stack?")
	i := strings.Index(got, ConflictOpen)
	if i < 0 {
		t.Fatalf("no warning:\n%s", got)
	}
	warn := got[i:]
	if !strings.Contains(warn, "deploys 8 lambdas") || !strings.Contains(warn, "number of lambdas: 2") {
		t.Errorf("want the 8 lambdas shown replaced by the commit's 2:\n%s", warn)
	}
}

package extract

import (
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
)

// TestCauseNounsAreClaims: extraction and recall read one table of the nouns
// that name a cause, so a statement recall warns about as a revised cause is
// one extraction reads as a lesson's cause, and the other way round.
func TestCauseNounsAreClaims(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"The real bottleneck is the ledger API throttling us to two requests per second.",
		"The actual bug was a stale lockfile in the worker image.",
		"The real reason is clock skew between the two build hosts.",
	} {
		if at, _ := adjectiveCause(lowerASCII(text)); at < 0 {
			t.Errorf("adjectiveCause(%q) found no cause", text)
		}
		if ds := claim.Diagnoses(text); len(ds) != 1 || !ds[0].Revised {
			t.Errorf("claim.Diagnoses(%q) = %+v, want one revised cause", text, ds)
		}
	}
}

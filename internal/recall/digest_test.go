package recall

import (
	"context"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestDigestStandsInForItsSession: when an old session's digest and its
// raw turns both match a prompt, the digest is shown first and the turns
// it stands for are not shown beside it; search still finds every turn.
func TestDigestStandsInForItsSession(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := context.Background()
	filler(t, db)
	old := day.AddDate(0, 0, -45)
	evs := say(t, db, "old", old,
		"Set up the invoice exporter for the accounting team.",
		"The invoice exporter now writes CSV files for the accounting team every night.",
		"Make the invoice exporter retry three times on upload errors.",
		"Done: the invoice exporter retries three times on upload errors.")
	asked, retry := "Set up the invoice exporter for the accounting team.", "Make the invoice exporter retry three times on upload errors."
	d, _, err := db.PutEntry(ctx, store.Entry{
		Project: proj, SessionID: "old", Type: store.DigestType, Title: "Digest of the session of " + old.Format("2006-01-02"),
		Body:    "Asked: " + asked + "\nAsked: " + retry,
		Subject: "session old", ClaimKey: "session old|digest", Stage: store.StageVerified, Created: old,
		Evidence: []store.Evidence{
			{SessionID: "old", EventID: evs[0].ID, Quote: asked, Method: "exact", Confidence: 1, SpanEnd: len(asked)},
			{SessionID: "old", EventID: evs[2].ID, MessageIndex: 2, Quote: retry, Method: "exact", Confidence: 1, SpanEnd: len(retry)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := recallFor(t, db, defaults(), "What did we do with the invoice exporter for accounting?")
	first, _, _ := strings.Cut(got[strings.Index(got, "[mem:"):], "\n")
	if !strings.Contains(first, d.CID) || !strings.Contains(first, "] digest, ") {
		t.Fatalf("the digest is not the first item:\n%s", got)
	}
	for _, e := range evs {
		if strings.Contains(got, store.EventCID(e.ID)) {
			t.Errorf("turn %s of the digested session shown beside its digest:\n%s", store.EventCID(e.ID), got)
		}
	}
	res, err := Search(ctx, db, SearchOptions{Query: "invoice exporter", Project: proj, Kinds: []string{store.TypeAgentResponse}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 {
		t.Errorf("search finds %d of the session's 2 answers", len(res))
	}
}

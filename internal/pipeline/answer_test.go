package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestAnswerStoresItsQuestion: a turn's final answer that states a finding
// is stored as a verified fact whose questions hold the user's question as
// asked, and a search for a word only the question holds ("boot": the
// body says "start-up") finds it.
func TestAnswerStoresItsQuestion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	const q = "Which voice model does the transcriber load at boot?"
	ingest(t, db, "s1", writeTranscript(t, "s1", q,
		"The transcriber loads `acme-voice-v3` from /opt/voices at start-up.", "ok thanks", "Glad it helps."))
	process(t, db, "s1")
	es, err := db.Read().Entries(ctx, store.EntryFilter{Project: "/p", Types: []string{"fact"}, Stages: []string{store.StageVerified}})
	if err != nil {
		t.Fatal(err)
	}
	var found *store.Entry
	for i, e := range es {
		if strings.Contains(e.Body, "acme-voice-v3") {
			found = &es[i]
		}
	}
	if found == nil {
		t.Fatalf("no verified fact states the answer; facts: %v", es)
	}
	if !slices.Contains(found.Questions, q) {
		t.Errorf("questions %q, want the user's %q", found.Questions, q)
	}
	hits, err := db.SearchEntries(ctx, store.EntryQuery{Project: "/p", Match: store.MatchAll([]string{"boot"}, false)})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].ID != found.ID {
		t.Errorf("a search for the question's word found %v, want the answer first", hits)
	}
}

package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// Beyond rankBudget rows, a query is answered from the rows holding every
// term, then from those holding its rare terms: a rare term still finds its
// few rows among thousands that hold a common one.
func TestSearchLargeStore(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	const n = rankBudget + 1000
	evs := make([]store.Event, 0, n)
	for i := range n {
		text := fmt.Sprintf("alpha message %d", i)
		if i%2 == 0 {
			text += " beta"
		}
		if i == 77 || i == 4242 {
			text += " zebra"
		}
		evs = append(evs, store.Event{Time: day.Add(time.Duration(i) * time.Second), Type: store.TypeUserPrompt, SessionID: fmt.Sprintf("s%d", i/50),
			Project: proj, Text: text, DedupeKey: fmt.Sprintf("k%d", i)})
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		t.Fatal(err)
	}
	res, err := Search(ctx, db, SearchOptions{Query: "alpha zebra", Project: proj, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) < 2 || !strings.Contains(res[0].Text, "zebra") || !strings.Contains(res[1].Text, "zebra") {
		t.Errorf("alpha zebra: the two zebra rows are not first: %+v", res)
	}
	res, err = Search(ctx, db, SearchOptions{Query: "alpha beta", Project: proj, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !strings.Contains(r.Text, "beta") {
			t.Errorf("alpha beta: a row without beta ranks in the top 10: %q", r.Text)
		}
	}
}

// In a store where a prompt's two rarest words are each in thousands of
// messages, the prompt path ranks only the newest of them (plan), yet still
// finds an old message holding a word within the budget, and still folds
// into an entry the message it quotes past the quotes it reads.
func TestSelectCommonWords(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	const n = 3 * hookScoreBudget
	evs := make([]store.Event, 0, n)
	for i := range n {
		text := fmt.Sprintf("The payment webhook consumer handled batch %d without trouble.", i)
		if i == 3 {
			text = "For the payment webhook consumer we settled on exponential backoff with jitter, capped at 30 seconds."
		}
		evs = append(evs, store.Event{Time: day.Add(time.Duration(i) * time.Minute), Type: store.TypeAgentResponse, SessionID: fmt.Sprintf("s%d", i/50),
			Project: proj, Text: text, DedupeKey: fmt.Sprintf("k%d", i)})
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		t.Fatal(err)
	}
	cs, total, err := newTermCounts(db, "").weigh(ctx, concepts("How did we tune the payment webhook backoff?", repoGlosses()), true)
	if err != nil {
		t.Fatal(err)
	}
	find := plan(cs, total)
	if find.after == 0 || find.rare.Empty() {
		t.Fatalf("plan = %+v, want the newest messages ranked and the rare word searched in all", find)
	}
	items, err := Select(ctx, db, defaults(), Request{Project: proj, SessionID: "now", Prompt: "How did we tune the payment webhook backoff?", Now: day.AddDate(0, 0, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) == 0 || !strings.Contains(items[0].Text, "exponential backoff") {
		t.Fatalf("the old message giving the backoff is not first: %+v", items)
	}
}

// An entry said in many sessions carries more quotes than the prompt path
// reads (entryQuotes); the message it quotes, found by the full-text
// search, is still shown as the entry, not beside it.
func TestSelectEntryManyQuotes(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	quote := "We sign the orders API tokens with RS256 keys from the vault."
	var evidence []store.Evidence
	for i := range 3 * entryQuotes {
		session := fmt.Sprintf("q%d", i)
		text := fmt.Sprintf("Reminder %d: %s", i, quote)
		if err := db.Update(ctx, func(tx *store.Tx) error {
			_, err := tx.Append(ctx, store.Event{Time: day.Add(time.Duration(i) * time.Hour), Type: store.TypeUserPrompt, SessionID: session,
				Project: proj, Text: text, DedupeKey: "m" + session})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		ev, err := db.Read().Events(ctx, store.EventFilter{SessionID: session, Newest: true, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		// The latest sessions' quotes are the least confident: the message
		// recall ranks first is past the quotes it reads.
		evidence = append(evidence, store.Evidence{SessionID: session, EventID: ev[0].ID, Quote: quote, Method: "fuzzy",
			Confidence: 0.99 - float64(i)/100, SpanStart: len(text) - len(quote), SpanEnd: len(text)})
	}
	if _, _, err := db.PutEntry(ctx, store.Entry{Project: proj, SessionID: "q0", Type: "decision", Title: "Orders API tokens are signed with RS256 keys from the vault",
		Subject: "orders api tokens", ClaimKey: "orders api tokens|rs256", Stage: store.StageVerified, Created: day, Evidence: evidence}); err != nil {
		t.Fatal(err)
	}
	items, err := Select(ctx, db, defaults(), Request{Project: proj, SessionID: "now", Prompt: "Which keys sign the orders API tokens?", Now: day.AddDate(0, 0, 2)})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) == 0 || items[0].Kind != KindEntry {
		t.Fatalf("the entry is not first: %+v", items)
	}
	for _, it := range items[1:] {
		if it.Kind != KindEntry && strings.Contains(it.Text, quote) {
			t.Errorf("a message the entry quotes is shown beside it: %q", it.Text)
		}
	}
	if got := len(items[0].entry.Evidence); got != entryQuotes {
		t.Errorf("the entry was read with %d quotes, want %d", got, entryQuotes)
	}
}

// The newest messages holding a prompt's common words can all be another
// project's: the window counts every project's. A prompt in the quiet
// project still finds its own.
func TestSelectCommonWordsQuietProject(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	var evs []store.Event
	add := func(project, text string) {
		i := len(evs)
		evs = append(evs, store.Event{Time: day.Add(time.Duration(i) * time.Minute), Type: store.TypeAgentResponse,
			SessionID: fmt.Sprintf("%s-%d", project, i/50), Project: project, Text: text, DedupeKey: fmt.Sprintf("k%d", i)})
	}
	add(proj, "The payment webhook consumer runs in the worker pool, with exponential backoff.")
	for i := range 8000 {
		add("/home/dev/other", fmt.Sprintf("Refactored the reporting module, step %d.", i))
	}
	for i := range 2 * hookScoreBudget {
		add("/home/dev/other", fmt.Sprintf("The payment webhook consumer of service %d was restarted.", i))
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		t.Fatal(err)
	}
	prompt := "What did we do about the payment webhook consumer?"
	cs, total, err := newTermCounts(db, "").weigh(ctx, concepts(prompt, repoGlosses()), true)
	if err != nil {
		t.Fatal(err)
	}
	if find := plan(cs, total); find.after == 0 || !find.rare.Empty() {
		t.Fatalf("plan = %+v, want the newest messages ranked and no rare word", find)
	}
	items, err := Select(ctx, db, defaults(), Request{Project: proj, SessionID: "now", Prompt: prompt, Now: day.AddDate(0, 0, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) == 0 || !strings.Contains(items[0].Text, "worker pool") {
		t.Fatalf("the quiet project's own message is not first: %+v", items)
	}
}

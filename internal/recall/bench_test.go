package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// BenchmarkLongAnswers measures the prompt path in a store shaped like a
// real project's: answers of a few kilobytes in Markdown (headings, lists,
// code) over a vocabulary the prompts share, so that each prompt reads,
// scores and excerpts many long candidates. The bench store of
// scripts/bench holds one-line messages, which leave this work out: on
// real sessions it was most of a prompt's time.
//
//	go test -run '^$' -bench LongAnswers -benchtime 20x ./internal/recall/
func BenchmarkLongAnswers(b *testing.B) {
	ctx := context.Background()
	db := storetest.Open(b)
	r := rand.New(rand.NewPCG(1, 2))
	vocab := strings.Fields(`queue worker retry backoff webhook payment invoice ledger tenant schema
		migration index cache redis token session cookie header gateway proxy route handler middleware
		config deploy build image container volume secret bucket upload thumbnail resize render template
		component layout theme palette font locale translation search filter sort page cursor export report
		scheduler cron timeout deadline socket stream buffer parser lexer grammar plugin hook adapter`)
	sentence := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = vocab[r.IntN(len(vocab))]
		}
		ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
		return strings.Join(ws, " ") + "."
	}
	// A few answers name a thing the prompts ask about, as a project's
	// answers name its own tools: each prompt has something to find.
	names := []string{"Quillby", "Marrowind", "Tessaly", "Kelvane"}
	answer := func(n int) string {
		var sb strings.Builder
		if n%20 == 0 {
			fmt.Fprintf(&sb, "We moved the %s work to %s. %s\n\n", vocab[n%len(vocab)], names[n/20%len(names)], sentence(10))
		}
		for s := range 3 + r.IntN(4) {
			fmt.Fprintf(&sb, "## %s\n\n%s %s\n\n", sentence(3), sentence(12), sentence(9))
			for range 4 + r.IntN(6) {
				fmt.Fprintf(&sb, "- **%s**: %s\n", vocab[r.IntN(len(vocab))], sentence(8))
			}
			fmt.Fprintf(&sb, "\n```go\nfunc step%d(ctx context.Context) error { return %s(ctx) }\n```\n\n", s, vocab[r.IntN(len(vocab))])
		}
		return sb.String()
	}
	start := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var evs []store.Event
	for s := range 150 {
		session := fmt.Sprintf("long-%d", s)
		for turn := range 4 {
			at := start.Add(time.Duration(s)*time.Hour + time.Duration(turn)*time.Minute)
			evs = append(evs,
				store.Event{Time: at, Type: store.TypeUserPrompt, SessionID: session, Project: proj, Text: sentence(14), DedupeKey: fmt.Sprintf("%s:%d:q", session, turn)},
				store.Event{Time: at.Add(30 * time.Second), Type: store.TypeAgentResponse, SessionID: session, Project: proj, Text: answer(4*s + turn), DedupeKey: fmt.Sprintf("%s:%d:a", session, turn)})
		}
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		b.Fatal(err)
	}
	prompts := []string{
		"Why did the webhook worker retry the payment queue through Quillby?",
		"How is the tenant schema migration indexed in Marrowind?",
		"What did we change in Tessaly for the gateway middleware and session cookies?",
		"Which thumbnail resize path does Kelvane use for the upload bucket?",
	}
	cfg := defaults()
	req := Request{Project: proj, SessionID: "bench", Now: start.AddDate(0, 1, 0)}
	for _, p := range prompts {
		// Each prompt is answered: one that recall skipped would be cheaper.
		req.Prompt = p
		if inj, err := Compose(ctx, db, cfg, req); err != nil || inj.Text == "" {
			b.Fatalf("Compose(%q) = %q, %v", p, inj.Text, err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		req.Prompt = prompts[i%len(prompts)]
		i++
		if _, err := Compose(ctx, db, cfg, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShownSettings reads the settings a read of a 256 KB config file
// shows (a lock file): the lines of the scanned part parsed, the rest read
// only for the names shown.
func BenchmarkShownSettings(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("Read: /kiln/glaze-lock.json\n")
	for i := 0; sb.Len() < 256<<10; i++ {
		fmt.Fprintf(&sb, "%d\t  \"glaze-%d\": \"cone %d\",\n", i+1, i, i%12)
	}
	it := Item{Kind: store.TypeToolObservation, Excerpt: `"glaze-5": "cone 5",`, event: store.Event{Text: sb.String()}}
	for b.Loop() {
		shownSettings(it)
	}
}

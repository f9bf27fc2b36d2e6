package recall

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// porterWords exercise every step of the algorithm, plus words common in
// coding sessions.
const porterWords = `caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled
sized hopping tanned falling hissing fizzed failing filing happy sky relational conditional rational
valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization
predication operator feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti
triplicate formative formalize electriciti electrical hopeful goodness revival allowance inference
airliner gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou
communism activate angulariti homologous effective bowdlerize probate rate cease controll roll
generalization oscillators jobs job queued queue queues detection detected detector detectors running
runs migrations migrated migrating databases database configured configuration configuring tests
testing tested deployment deployed deploys containers container reached reaching address addresses
installed installation formatting formatter formatted switched switching sessions session agreement
generously eagerly quickly studies studying argued argument arguments utilities utility availability
possibly possible universal university conditionally relatively decisions decided k8s v2s abc123ing
x86 ipv6s utf8 café naïve`

// TestStemMatchesSQLite checks stem against what SQLite's own porter tokenizer
// stores for the same words: recall relies on the two agreeing.
func TestStemMatchesSQLite(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	words := strings.Fields(porterWords)
	var evs []store.Event
	for i, w := range words {
		evs = append(evs, store.Event{Type: store.TypeUserPrompt, SessionID: "s", Project: "p", Text: w, DedupeKey: "w" + w + string(rune('a'+i%26))})
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, events_fts, 'row')`); err != nil {
		t.Fatal(err)
	}
	stored := map[string]bool{}
	rows, err := db.SQL().QueryContext(ctx, `SELECT term FROM temp.v`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var term string
		if err := rows.Scan(&term); err != nil {
			t.Fatal(err)
		}
		stored[term] = true
	}
	rows.Close()
	for _, w := range words {
		if s := indexKey(w); !stored[s] {
			t.Errorf("indexKey(%q) = %q, which SQLite's porter tokenizer did not produce", w, s)
		}
	}
}

func TestStem(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"jobs": "job", "detection": "detect", "detected": "detect", "running": "run", "ponies": "poni",
		"generalization": "gener", "관리자": "관리자", "x86": "x86", "go": "go",
	} {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}

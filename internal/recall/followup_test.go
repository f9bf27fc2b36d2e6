package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
)

// TestOtherTopicValueStaysBelow: a message about another thing, stating an
// interval on a line that shares only a minor word of the prompt ("sync"),
// does not rank above the report about the thing asked.
func TestOtherTopicValueStaysBelow(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	report := strings.Join([]string{
		"## Summary of the maintenance work",
		"- The Quellby invoice sync now runs once a night after the ledger close, triggered by the ledger close event.",
		"- The Quellby invoice sync retries a failed vendor portal login three times.",
		"- The Quellby invoice sync writes a summary row into the ledger audit table.",
		"- The Quellby invoice sync skips drafts the vendor portal marks as such.",
		"- The thumbnail cache is purged every 15 minutes by the janitor.",
		"- The Quellby invoice sync stores amounts in cents.",
		"- The Quellby invoice sync logs each vendor portal page it reads.",
		"- The Quellby invoice sync reads the vendor portal with the stored credentials.",
		"- The Quellby invoice sync keeps its own cursor so a crash resumes where it stopped.",
		"- The Quellby invoice sync sends the ledger a checksum per batch.",
	}, "\n")
	evs := say(t, db, "maint", day, "Summarize the maintenance work on the invoice sync.", report)
	say(t, db, "other", day.AddDate(0, 0, 1), "The mail digest sync is too chatty.",
		"The mail digest sync now polls the mail server every 30 seconds instead of every 5 seconds.")
	items, err := Select(context.Background(), db, defaults(), Request{Project: proj, Prompt: "how often does the Quellby invoice sync run?", Now: day.AddDate(0, 1, 0), Glosses: repoGlosses()})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) == 0 || items[0].CID != store.EventCID(evs[1].ID) {
		for _, it := range items {
			t.Logf("%s rel=%.2f %.70q", it.CID, it.Relevance, it.Excerpt)
		}
		t.Errorf("the report about the thing asked is not first")
	}
}

// TestValueAskedAmidLongToolLines: tool outputs of one long line each (a
// package index's list of every version) sit beside the message that
// states the value asked; the value is still found and shown. Equivalence
// test: claims are now parsed per line, clipped, not on the whole text.
func TestValueAskedAmidLongToolLines(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	var versions strings.Builder
	for i := 1200; i > 0; i-- {
		fmt.Fprintf(&versions, "1.%d.%d, ", i/40, i%40)
	}
	list := strings.TrimSuffix(versions.String(), ", ")
	for i := range 6 {
		ev := store.Event{Time: day.Add(time.Duration(i) * time.Minute), Type: store.TypeToolObservation, SessionID: "pip", Project: proj,
			DedupeKey: fmt.Sprintf("pip:%d", i), Text: fmt.Sprintf("Bash: pip install zorblat==9.%d (error)\nERROR: Could not find a version that satisfies the requirement zorblat==9.%d (from versions: %s)\nERROR: No matching distribution found for zorblat==9.%d", i, i, list, i)}
		if err := db.Update(context.Background(), func(tx *store.Tx) error { _, err := tx.Append(context.Background(), ev); return err }); err != nil {
			t.Fatal(err)
		}
	}
	say(t, db, "pin", day.AddDate(0, 0, 1), "which zorblat do we use?", "The firmware pins zorblat 4.2.1 in requirements.txt.")
	if got := recallFor(t, db, defaults(), "which zorblat version does the firmware pin?"); !strings.Contains(got, "4.2.1") {
		t.Errorf("the pinned version is not shown:\n%s", got)
	}
}

func proxyStore(t *testing.T) *store.DB {
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "px", day, "The uploads time out behind the proxy.",
		"I raised the nginx proxy timeout for /uploads to 120 seconds and turned off request buffering there.")
	return db
}

// TestInflectedWordIsNotNovel: an everyday inflection the word table lacks
// ("configured") is not the prompt's rarest word; the store says it
// another way, and the plain follow-up is answered at the ordinary bar.
func TestInflectedWordIsNotNovel(t *testing.T) {
	t.Parallel()
	db := proxyStore(t)
	for _, p := range []string{"remind me how the proxy is configured", "how is the proxy configured"} {
		if got := recallFor(t, db, defaults(), p); !strings.Contains(got, "120 seconds") {
			t.Errorf("%q not answered:\n%s", p, got)
		}
	}
}

// TestRomanceStateQuestionIsAnswered: "¿cómo está …?", "comment est …",
// "como está …" ask how a project thing stands, as the English "how is …
// configured now?" does; they are no how-to questions, and their words,
// which the English word table lacks, do not make the prompt novel.
func TestRomanceStateQuestionIsAnswered(t *testing.T) {
	t.Parallel()
	db := proxyStore(t)
	if got := recallFor(t, db, defaults(), "how is the proxy configured now?"); !strings.Contains(got, "120 seconds") {
		t.Fatalf("control: English follow-up not answered:\n%s", got)
	}
	for _, p := range []string{"¿cómo está configurado el proxy ahora?", "comment est configuré le proxy maintenant ?", "como está configurado o proxy agora?"} {
		if got := recallFor(t, db, defaults(), p); !strings.Contains(got, "120 seconds") {
			t.Errorf("%q not answered:\n%s", p, got)
		}
	}
}

// TestEverydayZipfOfInflections: an inflection the everyday table lacks
// counts as common as its base form.
func TestEverydayZipfOfInflections(t *testing.T) {
	t.Parallel()
	for w, base := range map[string]string{"uploads": "upload", "cached": "cache", "migrations": "migration"} {
		if got, want := everydayZipf(w), wordfreq.Zipf(base); got < want || want == 0 {
			t.Errorf("everydayZipf(%q) = %.1f, want at least %q's %.1f", w, got, base, want)
		}
	}
}

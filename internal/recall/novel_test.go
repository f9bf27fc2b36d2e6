package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/glosses"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// chores stores six sessions of other work, so that a project's own names
// are rare in the store, as they are in one of months.
func chores(t *testing.T, db *store.DB) {
	t.Helper()
	for i := range 6 {
		say(t, db, fmt.Sprintf("chores-%d", i), day.AddDate(0, 0, -20+i),
			fmt.Sprintf("Rename the sprinkler zone %d labels in the settings screen.", i),
			"Done: the settings screen reads the zone labels from zones.json now.")
	}
}

// TestNovelRequestNeedsAStrongMatch: in a small store every everyday word
// was written once or twice, so it weighs as much as a name. A request
// about something the project never spoke of (its rarest word, in
// everyday English, is in no message) matched those words and was
// answered with whatever shared them; the same request about a thing the
// project has is answered, and so is a question about what happened.
func TestNovelRequestNeedsAStrongMatch(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	chores(t, db)
	say(t, db, "garden", day,
		"Show each plant's watering schedule on the diary page.",
		"The diary page now lists every plant with its next watering day, read from the Brambleton schedule table.")
	if got := recallFor(t, db, defaults(), "Add Quillmark exports for the diary"); got != "" {
		t.Errorf("a request about a thing the store never named got an injection:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "Add Brambleton exports for the diary"); !strings.Contains(got, "Brambleton schedule table") {
		t.Errorf("a request about the project's own table was not answered:\n%s", got)
	}
	// A request is no question for a role: "where" here says where the
	// new thing goes, not which place the project uses.
	if got := recallFor(t, db, defaults(), "Add Quillmark exports where the diary is"); got != "" {
		t.Errorf("a request about a thing the store never named, read as asking a path, got an injection:\n%s", got)
	}
	// A question about what happened is about the project's past, whatever
	// its words: its rarest may be a paraphrase no message holds.
	if got := recallFor(t, db, defaults(), "Was Quillmark on the diary page?"); !strings.Contains(got, "diary page") {
		t.Errorf("a question about the past was not answered:\n%s", got)
	}
}

// TestHowToNamingAnUnseenTerm: a how-to question shares the project's
// stack (its framework's name is the store's rarest word) but asks about a
// term the project never wrote; it is asked of a manual, and gets nothing.
// The same question about a term the project did write is answered, and so
// is one whose only unseen word is an everyday one. A request for new work
// naming an unseen term gets nothing either.
func TestHowToNamingAnUnseenTerm(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	chores(t, db)
	say(t, db, "garden", day.AddDate(0, 0, -3),
		"Serve the plant list from a Quorvex handler.",
		"The Quorvex handler now serves the plant list; its results are cached in the handler for a minute.")
	if got := recallFor(t, db, defaults(), "How do I memoize a Quorvex handler?"); got != "" {
		t.Errorf("a how-to question naming a term the store never held got an injection:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "How do I cache a Quorvex handler?"); !strings.Contains(got, "Quorvex handler now serves") {
		t.Errorf("a how-to question about what the project did was not answered:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "How do I quickly cache a Quorvex handler?"); !strings.Contains(got, "Quorvex handler now serves") {
		t.Errorf("a how-to question whose unseen word is an everyday one was not answered:\n%s", got)
	}
	// Only a how-to question is asked of a manual: a question about the
	// project's handler is answered whatever term it names, and so is a
	// how-to question about the project's own ways, in its words. Asked
	// how to do to "our" handler what the project never wrote of, it asks
	// how to do new work there (howWe).
	if got := recallFor(t, db, defaults(), "Is the Quorvex handler memoized?"); !strings.Contains(got, "Quorvex handler now serves") {
		t.Errorf("a question about the project's handler naming an unseen term was not answered:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "How do I cache our Quorvex handler?"); !strings.Contains(got, "Quorvex handler now serves") {
		t.Errorf("a how-to question about the project's own ways was not answered:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "How do I memoize our Quorvex handler?"); got != "" {
		t.Errorf("a how-to question naming new work on the project's handler got an injection:\n%s", got)
	}
	// A request for new work naming a term the project never wrote is
	// new work, though on the project's handler: what the store shares
	// with it is the handler's name ("write vitest tests for the express
	// routes" where vitest was never used). Work in the project's own
	// words is answered.
	if got := recallFor(t, db, defaults(), "Add a memoize step to the Quorvex handler."); got != "" {
		t.Errorf("a request for new work naming a term the store never held got an injection:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "Add a second cache to the Quorvex handler's results."); !strings.Contains(got, "Quorvex handler now serves") {
		t.Errorf("a request for work on the project's handler in its own words was not answered:\n%s", got)
	}
	// A part of an identifier the prompt splits is no term it names: the
	// store holds PlantMemoizer whole.
	say(t, db, "memo", day.AddDate(0, 0, -2),
		"Wrap the Quorvex handler in a PlantMemoizer.",
		"The PlantMemoizer now wraps the Quorvex handler.")
	if got := recallFor(t, db, defaults(), "How do I reset the PlantMemoizer of a Quorvex handler?"); !strings.Contains(got, "PlantMemoizer now wraps") {
		t.Errorf("a how-to question about the project's own identifier was not answered:\n%s", got)
	}
	// Nor is a word of the prompt's language: Spanish "guardo" is missing
	// from the English table as a term is, and is a form of "guardar"
	// (and of "guardia", so it has no gloss). "memoizo" is no Spanish word.
	if got := recallFor(t, db, defaults(), "¿Cómo guardo el handler de Quorvex?"); !strings.Contains(got, "Quorvex handler") {
		t.Errorf("a Spanish how-to question about what the project did was not answered:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "¿Cómo memoizo el handler de Quorvex?"); got != "" {
		t.Errorf("a Spanish how-to question naming a term the store never held got an injection:\n%s", got)
	}
	// Nor a generic coding word: the project may have said the same in
	// other words.
	if got := recallFor(t, db, defaults(), "How do I make a Quorvex handler async?"); !strings.Contains(got, "Quorvex handler") {
		t.Errorf("a how-to question whose unseen word is a generic coding word was not answered:\n%s", got)
	}
	// Where the prompt's language has no dictionary, its words cannot be
	// told from terms, and none is read as one.
	nodict, err := Context(context.Background(), db, defaults(), Request{Project: proj, SessionID: "nodict", Prompt: "¿Cómo guardo el handler de Quorvex?", Now: day.AddDate(0, 1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(nodict, "Quorvex handler") {
		t.Errorf("a Spanish how-to question was not answered without the dictionaries:\n%s", nodict)
	}
	// Nor a word the asking session said: the question is about the work
	// at hand.
	say(t, db, "asking", day.AddDate(0, 1, 0).Add(-time.Hour),
		"Could the plant list be memoized?", "Yes, let's look at how.")
	if got := recallIn(t, db, defaults(), "asking", "How do I memoize a Quorvex handler?"); !strings.Contains(got, "Quorvex handler now serves") {
		t.Errorf("a how-to question about a term the asking session said was not answered:\n%s", got)
	}
	// The bar is raised, not shut: a match on the project's own rare
	// names clears it. (Last: another session naming the handler makes it
	// commoner in the store.)
	say(t, db, "ledger", day.AddDate(0, 0, -2),
		"Have the Quorvex handler read the Zentrile ledger from Brimwell.",
		"The Quorvex handler now reads the Zentrile ledger from Brimwell at startup.")
	if got := recallFor(t, db, defaults(), "How do I shard the Zentrile ledger from Brimwell?"); !strings.Contains(got, "Zentrile ledger from Brimwell at startup") {
		t.Errorf("a how-to question naming an unseen term and the project's own rare names was not answered:\n%s", got)
	}
}

// TestNamesUnseenTerm reads the rule's guards one by one, on concepts
// whose store counts the case sets.
func TestNamesUnseenTerm(t *testing.T) {
	t.Parallel()
	memo := Item{Kind: KindEntry, entry: store.Entry{Title: "Memoize the plant list"}}
	for _, c := range []struct {
		prompt string
		seen   []string // words the store's messages hold
		said   []string // words the asking session holds
		ents   []Item
		dict   *glosses.Dict
		want   bool
	}{
		{"How do I memoize a Quorvex handler?", []string{"quorvex", "handler"}, nil, nil, repoGlosses(), true},
		{"How do I memoize a Quorvex handler?", []string{"quorvex", "handler", "memoize"}, nil, nil, repoGlosses(), false},
		{"How do I memoize a Quorvex handler?", []string{"quorvex", "handler"}, []string{"memoize"}, nil, repoGlosses(), false},
		{"How do I memoize a Quorvex handler?", []string{"quorvex", "handler"}, nil, []Item{memo}, repoGlosses(), false},
		{"How do I quickly cache a Quorvex handler?", []string{"quorvex", "handler", "cache"}, nil, nil, repoGlosses(), false},
		{"How do I make a Quorvex handler async?", []string{"quorvex", "handler"}, nil, nil, repoGlosses(), false},
		{"How do I reset the PlantMemoizer?", []string{"plantmemoizer", "plant", "reset"}, nil, nil, repoGlosses(), false},
		// A term of letters and digits is a name; a version is none.
		{"How do I add i18n routing to a Quorvex handler?", []string{"quorvex", "handler", "routing"}, nil, nil, repoGlosses(), true},
		{"How do I add i18n routing to a Quorvex handler?", []string{"quorvex", "handler", "routing", "i18n"}, nil, nil, repoGlosses(), false},
		{"How do I move a Quorvex handler to v2?", []string{"quorvex", "handler"}, nil, nil, repoGlosses(), false},
		{"How do I make the Quorvex handler use python3?", []string{"quorvex", "handler", "python"}, nil, nil, repoGlosses(), false},
		{"How do I revert the Quorvex handler to a3f9c21?", []string{"quorvex", "handler", "revert"}, nil, nil, repoGlosses(), false},
		{"¿Cómo memoizo el handler de Quorvex?", []string{"quorvex", "handler"}, nil, nil, repoGlosses(), true},
		{"¿Cómo guardo el handler de Quorvex?", []string{"quorvex", "handler"}, nil, nil, repoGlosses(), false},
		{"¿Cómo memoizo el handler de Quorvex?", []string{"quorvex", "handler"}, nil, nil, nil, false},
		// No dictionary reads Korean: its own words are never terms, a word
		// in Latin letters beside them is. Russian has one (rus.txt), and
		// without it is read as Korean is.
		{"그 Quorvex 핸들러는 이 코드에서 어떻게 memoize 해?", []string{"quorvex"}, nil, nil, repoGlosses(), true},
		{"그 Quorvex 핸들러는 이 코드에서 어떻게 memoize 해?", []string{"quorvex", "memoize"}, nil, nil, repoGlosses(), false},
		{"Как сделать memoize для Quorvex?", []string{"quorvex"}, nil, nil, repoGlosses(), true},
		{"Как сделать memoize для Quorvex?", []string{"quorvex", "memoize"}, nil, nil, repoGlosses(), false},
		{"Как сделать memoize для Quorvex?", []string{"quorvex"}, nil, nil, nil, true},
		{"Как сделать memoize для Quorvex?", []string{"quorvex", "memoize"}, nil, nil, nil, false},
		// With the Russian table, a Latin letter beyond ASCII does not
		// matter: the table tells a Russian word from a term.
		{"Как сделать memoize для Quorvex и Zoë?", []string{"quorvex", "zoë"}, nil, nil, repoGlosses(), true},
		{"Как сделать memoize для Quorvex и Zoë?", []string{"quorvex", "zoë"}, nil, nil, nil, false},
		// A prompt in Latin letters, accented or not, or with a Latin
		// letter beyond ASCII beside the other script, may be in a language
		// no dictionary reads, whose words cannot be told from terms; a
		// symbol ("µs") is no word of another script.
		{"¿Como memoizo el handler de Quorvex?", []string{"quorvex", "handler"}, nil, nil, nil, false},
		{"¿Como memoizo el handler de Quorvex? 🙂🙂", []string{"quorvex", "handler"}, nil, nil, nil, false},
		{"그 Quorvex 핸들러는 이 코드에서 어떻게 memoize 해, Zoë?", []string{"quorvex", "zoë"}, nil, nil, repoGlosses(), false},
		{"Wie kann ich die Anfrage im Quorvex handler in 5 µs beantworten?", []string{"quorvex", "handler"}, nil, nil, repoGlosses(), false},
	} {
		cs := concepts(c.prompt, c.dict)
		for i := range cs {
			for _, f := range cs[i].forms {
				if slices.Contains(c.seen, f) {
					cs[i].df = 3
				}
				if slices.Contains(c.said, f) {
					cs[i].said = true
				}
			}
		}
		if got := namesUnseenTerm(cs, c.ents, c.prompt, c.dict, rareWord); got != c.want {
			t.Errorf("%q (seen %v, said %v, %d entries, dictionary %v): %v, want %v", c.prompt, c.seen, c.said, len(c.ents), c.dict != nil, got, c.want)
		}
	}
}

// TestUnseenEverydayWordsWeighLittle: a question's everyday words the
// project never wrote ("straight", "people", "hurry") are how it is put,
// not a sign it is about something never discussed; weighed like an
// unseen name, they outweighed the project's words the question shares
// ("command", "generated", "doc") and the question got nothing. A word no
// dictionary knows ("hreflang") keeps its weight: that one may name
// something new.
func TestUnseenEverydayWordsWeighLittle(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	chores(t, db)
	for i := range 60 {
		say(t, db, fmt.Sprintf("chart-%d", i), day.AddDate(0, 0, -70+i),
			fmt.Sprintf("Tidy the kiln temperature chart number %d.", i),
			fmt.Sprintf("Tidied chart %d: the axis labels read in celsius now.", i))
	}
	for i := range 12 {
		say(t, db, fmt.Sprintf("docs-%d", i), day.AddDate(0, 0, -10+i/2),
			fmt.Sprintf("Run the docs command for glaze recipe %d.", i),
			fmt.Sprintf("The generated docs for glaze recipe %d are in docs/glazes, the command printed no warnings.", i))
	}
	say(t, db, "fire", day,
		"Let the generated glaze docs start a firing.",
		"Added the /kiln-fire command: it reads a generated glaze doc and queues its firing schedule.")
	prompt := "Is there a command for going from a generated doc straight to the kiln, for people in a hurry?"
	if got := recallFor(t, db, defaults(), prompt); !strings.Contains(got, "/kiln-fire") {
		t.Errorf("a question in everyday words about the project's command was not answered:\n%s", got)
	}
	cs, _, err := newTermCounts(db, "now").weigh(context.Background(), concepts("is there a hreflang segment straight in the kiln docs?", nil), false)
	if err != nil {
		t.Fatal(err)
	}
	weight := map[string]float64{}
	for _, c := range cs {
		weight[c.forms[0]] = c.weight
	}
	// Unseen all three: a word no dictionary knows keeps an unseen word's
	// weight, a rare English one (Zipf 3.3) most of it, an everyday one
	// about a quarter: little, not nothing.
	if got := weight["straight"] / weight["hreflang"]; got < 0.2 || got > 0.3 {
		t.Errorf("an everyday unseen word weighs %.3f of an unknown one, want about a quarter", got)
	}
	if got := weight["segment"] / weight["hreflang"]; got < 0.8 || got >= 1 {
		t.Errorf("a rare English unseen word weighs %.3f of an unknown one, want most of it", got)
	}
}

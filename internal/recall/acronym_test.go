package recall

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestSpelledOutAcronym: the session wrote a phrase by its initials ("the
// LWQ checks"), and the prompt spells it out. The index holds "lwq" alone,
// so the words of the prompt found nothing of the answer.
func TestSpelledOutAcronym(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "ingest", day.AddDate(0, 0, -6),
		"Before the ledger import runs, should the LWQ checks be on?",
		"Agreed: the LWQ checks stay off until the ledger import has landed.")
	say(t, db, "docs", day.AddDate(0, 0, -4),
		"Write the changelog for the release.",
		"I wrote the changelog; the release notes list the new import screen.")
	got := recallFor(t, db, defaults(), "is late write quarantine switched on yet?")
	if !strings.Contains(got, "LWQ checks stay off") {
		t.Errorf("the answer is missing:\n%s", got)
	}
}

// TestInitialsWrittenAsAWord: a token the store writes in lower case
// ("qrs", a variable) is no acronym of the prompt's words, however its
// letters fall.
func TestInitialsWrittenAsAWord(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "loop", day.AddDate(0, 0, -3),
		"Why does the retry loop spin?",
		"Because qrs is reset to 0 on every pass; qrs counts the queued writes.")
	say(t, db, "ingest", day.AddDate(0, 0, -6),
		"Before the ledger import runs, should the LWQ checks be on?",
		"Agreed: the LWQ checks stay off until the ledger import has landed.")
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"is late write quarantine switched on yet?", true},
		// The store holds "qrs" only as a word in lower case.
		{"is queue retry state still on?", false},
	} {
		cs, err := newTermCounts(db, "").spellings(context.Background(), concepts(tt.prompt, nil), tt.prompt)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, c := range cs {
			if len(c.forms) > 1 {
				got = true
			}
		}
		if got != tt.want {
			t.Errorf("%q: an acronym added %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

func TestAcronymRuns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   string // the runs' tokens
	}{
		{"is late write quarantine on?", "lwq"},
		// A comma ends the phrase; "on" and "is" are function words.
		{"late write, quarantine zone tagging", "qzt"},
		// Initials that make an everyday word ("law") are no acronym.
		{"the late arrival workers", ""},
		// Words glued to digits or another script are no phrase's.
		{"late2 write quarantine zone", "wqz"},
		{"north gate vault policy table", "ngv ngvp ngvpt gvp gvpt vpt"},
	} {
		cs := concepts(tt.prompt, nil)
		var got []string
		for _, r := range acronymRuns(tt.prompt, cs) {
			got = append(got, r.token)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("acronymRuns(%q) = %q, want %q", tt.prompt, strings.Join(got, " "), tt.want)
		}
	}
}

// TestIdentifierSpelledAsWords: the session wrote an identifier glued
// ("GlazeScheduler"), and the prompt spells it as words. The index holds
// "glazescheduler" alone, so the prompt's words found nothing of it.
func TestIdentifierSpelledAsWords(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "timer", day.AddDate(0, 0, -5),
		"The firing jobs start twice after a restart, fix it.",
		"Fixed: GlazeScheduler now extends KilnTimer instead of CronTimer, which re-armed on boot.")
	say(t, db, "docs", day.AddDate(0, 0, -4),
		"Write the changelog for the release.",
		"I wrote the changelog; the release notes list the new import screen.")
	got := recallFor(t, db, defaults(), "which base class does the glaze scheduler extend now?")
	if !strings.Contains(got, "extends KilnTimer") {
		t.Errorf("the answer is missing:\n%s", got)
	}
}

// TestGluedWordsWrittenAsOne: the glued words are an identifier only where
// the store writes them so, each word after the first opening with a
// capital: "kilnsync" in lower case is some other word (a host, a file),
// and is not another spelling of the prompt's "kiln sync".
func TestGluedWordsWrittenAsOne(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		said string
		want bool
	}{
		{"Renamed the worker to KilnSync and restarted it.", true},
		{"Renamed the worker to kilnSync and restarted it.", true},
		{"The worker runs on host kilnsync, restarted it.", false},
		{"Set KILNSYNC=1 and restarted the worker.", false},
		// Written more often as some other word than as the identifier.
		{"Host kilnsync runs KilnSync; ssh kilnsync to restart it.", false},
	} {
		db := storetest.Open(t)
		filler(t, db)
		say(t, db, "worker", day.AddDate(0, 0, -3), "Restart the worker.", tt.said)
		const prompt = "is the kiln sync worker still running?"
		cs, err := newTermCounts(db, "").spellings(context.Background(), concepts(prompt, nil), prompt)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, c := range cs {
			got = got || slices.Contains(c.forms, "kilnsync")
		}
		if got != tt.want {
			t.Errorf("store saying %q: kilnsync added %v, want %v", tt.said, got, tt.want)
		}
	}
}

func TestIdentifierRuns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt string
		want   string // the runs' tokens
	}{
		{"the main activity class", "mainactivity mainactivityclass activityclass"},
		// Glued into an everyday word ("database"), words are that word.
		{"the data base", ""},
		// A comma ends the phrase.
		{"kiln, sync", ""},
	} {
		cs := concepts(tt.prompt, nil)
		var got []string
		for _, r := range identifierRuns(tt.prompt, cs) {
			got = append(got, r.token)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("identifierRuns(%q) = %q, want %q", tt.prompt, strings.Join(got, " "), tt.want)
		}
	}
}

func TestCamelJoins(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		w     string
		words []string
		want  bool
	}{
		{"MainActivity", []string{"main", "activity"}, true},
		{"mainActivity", []string{"main", "activity"}, true},
		{"baseURL", []string{"base", "url"}, true}, // an initialism, as Go writes it
		{"ServeHTTP", []string{"serve", "http"}, true},
		{"MAINACTIVITY", []string{"main", "activity"}, false},
		{"Mainactivity", []string{"main", "activity"}, false},
		{"mainactivity", []string{"main", "activity"}, false},
		{"MainActiVity", []string{"main", "activity"}, false},
		{"ſeTup", []string{"set", "up"}, false}, // "ſ" folds to "s" in two bytes
	} {
		if got := camelJoins(tt.w, tt.words); got != tt.want {
			t.Errorf("camelJoins(%q, %q) = %v, want %v", tt.w, tt.words, got, tt.want)
		}
	}
}

// TestBritishSpellingFindsAmerican: the session wrote "color", as code
// and its tools spell it, and the prompt "colour". The index holds each
// as written, so the prompt's word found nothing of the answer.
func TestBritishSpellingFindsAmerican(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "theme", day.AddDate(0, 0, -5),
		"Make the kiln dashboard warmer.",
		"Done: the accent color is now #c2410c and the heading font is Fraunces.")
	say(t, db, "docs", day.AddDate(0, 0, -4),
		"Write the changelog for the release.",
		"I wrote the changelog; the release notes list the new import screen.")
	got := recallFor(t, db, defaults(), "which accent colour did the kiln dashboard get?")
	if !strings.Contains(got, "#c2410c") {
		t.Errorf("the answer is missing:\n%s", got)
	}
}

// TestBritishSpellingTheStoreWrites: a word the store writes as the prompt
// does is left alone, and one written the British way in both spellings
// ("hour") gains nothing.
func TestBritishSpellingTheStoreWrites(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		said, prompt, american string
		want                   bool
	}{
		{"The accent color is teal.", "which accent colour is it?", "color", true},
		{"The accent colour is teal; the color token is --accent.", "which accent colour is it?", "color", false},
		{"Call initialize() before the first request.", "where do we initialise the client?", "initialize", true},
		{"Set the kilnColor flag.", "is the colourpicker on?", "colorpicker", false}, // no such token held
	} {
		db := storetest.Open(t)
		filler(t, db)
		say(t, db, "s", day.AddDate(0, 0, -3), "Remind me.", tt.said)
		cs, err := newTermCounts(db, "").spellings(context.Background(), concepts(tt.prompt, nil), tt.prompt)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(cs, func(c concept) bool { return slices.Contains(c.forms, tt.american) })
		if got != tt.want {
			t.Errorf("store saying %q, prompt %q: %s added %v, want %v", tt.said, tt.prompt, tt.american, got, tt.want)
		}
	}
}

func TestAmericanSpellings(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]string{
		"colour":        "color",
		"coloured":      "colored",
		"favourite":     "favorite",
		"behaviours":    "behaviors",
		"initialise":    "initialize",
		"normalisation": "normalization",
		"serialisers":   "serializers",
		"analysed":      "analyzed",
		"centre":        "center",
		"catalogue":     "catalog",
		"licence":       "license",
		"colourpicker":  "", // no ending the "-our" rule knows
		"your":          "", // "our" after fewer than three letters
		"scoured":       "",
		"resources":     "", // no ending after "our"
		"difference":    "", // "differense" is no English word
		"promise":       "",
		"wise":          "",
		"cancelled":     "", // the index stems it as "canceled"
	} {
		got := strings.Join(americanSpellings(w), " ")
		if got != want {
			t.Errorf("americanSpellings(%q) = %q, want %q", w, got, want)
		}
	}
}

// TestGluedRunOfACompound: the glued form of a hyphenated compound is a
// concept of the prompt already; its words do not also gain it, or a
// message writing it would match three concepts where one writing the
// words matches two.
func TestGluedRunOfACompound(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "code", day.AddDate(0, 0, -5), "Where is the toggle?", "The toggle sets lightMode in the theme store.")
	const prompt = "for the light-mode restyle, which heading?"
	cs, err := newTermCounts(db, "").spellings(context.Background(), concepts(prompt, nil), prompt)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.forms[0] != "lightmode" && slices.Contains(c.forms, "lightmode") {
			t.Errorf("concept %q gained lightmode", c.forms)
		}
	}
}

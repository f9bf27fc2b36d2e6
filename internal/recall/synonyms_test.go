package recall

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

func TestSynonyms(t *testing.T) {
	for _, tt := range []struct {
		prompt, word, want string // the concept of word must also match want
	}{
		{"Which db keeps the kiln logs?", "db", "database"},
		{"Paging jumped over the invoices of March", "paging", "pagination"},
		{"The nightly e2e suite fails intermittently", "intermittently", "flaky"},
		// A name's abbreviation: MIN_KILN_TEMP holds "min".
		{"What is the minimum kiln temperature constant?", "minimum", "min"},
		{"Which maximum retry count did we settle on?", "maximum", "max"},
	} {
		var got []string
		for _, c := range concepts(tt.prompt, repoGlosses()) {
			if slices.Contains(c.forms, tt.word) {
				got = c.keys
			}
		}
		if !slices.Contains(got, indexKey(tt.want)) {
			t.Errorf("%q: the concept of %q has keys %v, want %q among them", tt.prompt, tt.word, got, tt.want)
		}
	}
	// A word in no group stays one word; an abbreviation said in a
	// prompt is not read as the word in full ("min" is minutes here).
	for _, c := range concepts("Which port does pgbouncer listen on after 5 min?", repoGlosses()) {
		if len(c.keys) != 1 {
			t.Errorf("%v got synonyms %v", c.forms, c.keys)
		}
	}
}

// A follow-up asked in other words than the session used finds it.
func TestRecallsAParaphrase(t *testing.T) {
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "ux", day, "Go over the kiosk screen of the ticket machine.",
		"Every kiosk screen keeps its pagination at twelve tickets a page, gloves included.")
	got := recallFor(t, db, defaults(), "How many tickets does kiosk paging show?")
	if !strings.Contains(got, "twelve tickets") {
		t.Errorf("the pagination rule is not recalled for paging:\n%s", got)
	}
}

// TestConceptsMergeAlike: two words of a prompt the index reads alike, by
// one stem or one synonym group, are one concept, so that the thing they
// name weighs once in the share of the prompt an item covers.
func TestConceptsMergeAlike(t *testing.T) {
	t.Parallel()
	cs := concepts("Paging through the kiln gallery jumped from page 1 to page 3 of the pagination", repoGlosses())
	var pages int
	for _, c := range cs {
		if slices.Contains(c.keys, indexKey("page")) {
			pages++
			if !slices.Contains(c.forms, "paging") {
				t.Errorf("the merged concept lost a form: %v", c.forms)
			}
		}
	}
	if pages != 1 {
		t.Errorf("want one concept holding %q, got %d: %+v", indexKey("page"), pages, cs)
	}
	if got := len(concepts("kiln glaze", repoGlosses())); got != 2 {
		t.Errorf("two unlike words made %d concepts", got)
	}
	// A Korean word with and without its particle, either first.
	for _, p := range []string{"토큰 만료 토큰을 갱신하고", "토큰을 갱신하고 토큰 만료"} {
		n := 0
		for _, c := range concepts(p, repoGlosses()) {
			if slices.ContainsFunc(c.forms, func(f string) bool { return strings.HasPrefix(f, "토큰") }) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q: 토큰 in %d concepts, want 1", p, n)
		}
	}
	// Every spelling stays: an acronym reads the prompt's own words.
	p := "the page loads slowly in the paging buffer pool"
	if runs := acronymRuns(p, concepts(p, repoGlosses())); !slices.ContainsFunc(runs, func(r wordRun) bool { return r.token == "pbp" }) {
		t.Errorf("acronymRuns(%q) = %+v, want pbp", p, runs)
	}
}

// TestStatusPhraseFindsItsCode: an HTTP error named by its reason phrase
// ("method-not-allowed") finds the answer that gave only its code, through
// the phrase's last word; a phrase of everyday words ("not found", "request
// timeout") adds no code, nor do the words apart.
func TestStatusPhraseFindsItsCode(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt, word, code string
		want               bool
	}{
		{"the kiln url gives method-not-allowed in a browser", "allowed", "405", true},
		{"the kiln url gives method-not-allowed in a browser", "method", "405", false}, // the last word's only
		{"why a Bad Gateway from the kiln proxy?", "gateway", "502", true},
		{"the kiln page says not found", "found", "404", false},
		{"set the kiln request timeout to 30s", "timeout", "408", false},
		{"which method is not allowed here?", "allowed", "405", false},
	} {
		has := slices.ContainsFunc(concepts(tt.prompt, repoGlosses()), func(c concept) bool {
			return slices.Contains(c.forms, tt.word) && slices.Contains(c.keys, indexKey(tt.code))
		})
		if has != tt.want {
			t.Errorf("%q: the concept of %q has the code %s: %v, want %v", tt.prompt, tt.word, tt.code, has, tt.want)
		}
	}
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "ui", day.Add(-time.Hour), "Where do I see the kiln server's dashboard?",
		"Open the kiln server's dashboard at http://localhost:3000 in a browser; the server is broken only when that page is blank.")
	say(t, db, "rpc", day, "Claude Desktop can't reach the glaze tools.",
		"The kiln tools are up (405 is expected for GET on that endpoint: it only accepts POST).")
	got := recallFor(t, db, defaults(), "opening the kiln url in a browser gives method-not-allowed. is the kiln server broken?")
	if !strings.Contains(got, "405 is expected") {
		t.Errorf("the answer giving the code is not recalled for its reason phrase:\n%s", got)
	}
}

package recall

import (
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

func TestSynonyms(t *testing.T) {
	for _, tt := range []struct {
		prompt, word, want string // the concept of word must also match want
	}{
		{"How big do tap targets have to be?", "tap", "touch"},
		{"Paging jumped from page 1 to page 3", "paging", "pagination"},
		{"Paging jumped from page 1 to page 3", "jumped", "skip"},
		{"The check fails intermittently on CI", "intermittently", "flaky"},
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
	// A word in no group stays one word.
	for _, c := range concepts("Which port does pgbouncer listen on?", repoGlosses()) {
		if len(c.keys) != 1 {
			t.Errorf("%v got synonyms %v", c.forms, c.keys)
		}
	}
}

// A follow-up asked in other words than the session used finds it.
func TestRecallsAParaphrase(t *testing.T) {
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "ux", day, "Review the mobile layout of the reader.",
		"Touch target compliance (44x44px minimum) must be maintained on every button of the reader.")
	got := recallFor(t, db, defaults(), "How big do tap targets have to be on mobile?")
	if !strings.Contains(got, "44x44px") {
		t.Errorf("the touch target rule is not recalled for tap targets:\n%s", got)
	}
}

package recall

import (
	"context"
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
		cs, err := newTermCounts(db, "").acronyms(context.Background(), concepts(tt.prompt, nil), tt.prompt)
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

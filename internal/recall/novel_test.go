package recall

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestNovelRequestNeedsAStrongMatch: in a small store every everyday word
// was written once or twice, so it weighs as much as a name. A request
// about something the project never spoke of (its rarest word, in
// everyday English, is in no message) matched those words and was
// answered with whatever shared them; the same request about a thing the
// project has is answered, and so is a question about what happened.
func TestNovelRequestNeedsAStrongMatch(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	for i := range 6 {
		say(t, db, fmt.Sprintf("chores-%d", i), day.AddDate(0, 0, -20+i),
			fmt.Sprintf("Rename the sprinkler zone %d labels in the settings screen.", i),
			"Done: the settings screen reads the zone labels from zones.json now.")
	}
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

package recall

import (
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestFeedbackFollowsTheAnchorLine: the message that answers shares no word
// with the prompt, but the words standing beside the prompt's rarest word in
// the best match ("Plotwise view", "tallyboard") lead to it.
func TestFeedbackFollowsTheAnchorLine(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "deploy", day.AddDate(0, 0, -3),
		"Bring the stack up locally please.",
		"Stack is up. URLs:\n- Status: http://localhost:7100/status\n- Kestrel panel: http://localhost:7100/stats (Plotwise/Tallyboard view)\n- App: http://localhost:7100/")
	say(t, db, "fix", day.AddDate(0, 0, -2),
		"Why are the charts empty?",
		"The Plotwise view and the tallyboard pages only render when STATS_SINK=local is set; restart with it.")
	got := recallFor(t, db, defaults(), "How do we get numbers back on the Kestrel panel?")
	if !strings.Contains(got, "STATS_SINK=local") {
		t.Errorf("the answer the panel's line leads to is missing:\n%s", got)
	}
}

package recall

import (
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestFeedbackFollowsTheAnchorLine: the message that answers shares no word
// with the prompt, but the words standing beside the prompt's rarest word in
// the best match ("Frobnik console", "quxdoc") lead to it.
func TestFeedbackFollowsTheAnchorLine(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "deploy", day.AddDate(0, 0, -3),
		"Start the server locally please.",
		"Deployed locally. Endpoints:\n- Health: http://localhost:9000/healthz\n- Zorblat dashboard: http://localhost:9000/admin (Frobnik/Quxdoc console)\n- Main: http://localhost:9000/")
	say(t, db, "fix", day.AddDate(0, 0, -2),
		"Why is the console not showing anything?",
		"The Frobnik console and the quxdoc pages are only served when GATE_MODE=verbose is set; restart with it.")
	got := recallFor(t, db, defaults(), "The Zorblat dashboard is blank again. What turns it on?")
	if !strings.Contains(got, "GATE_MODE=verbose") {
		t.Errorf("the answer the dashboard's line leads to is missing:\n%s", got)
	}
}

package e2e

import "testing"

// TestRealClientFailureReportedAgain: in one session the user pastes a
// failure, Claude names a cause; the failure comes back, Claude names
// another. A later session asking what is behind the failure gets the
// warning that the first answer did not hold.
func TestRealClientFailureReportedAgain(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil,
		"Error fetching glaze: Kilnbase API error: 403 Forbidden\nREPLY Two things: the endpoint should be /v2/glazes/search, and it needs an owner token. Let me fix the endpoint.",
		"Error fetching glaze: Kilnbase API error: 403 Forbidden\nREPLY The real story: /v2/glazes/search is not on the hobby tier. Let me find an endpoint that is.")
	block := warningBlock(t, w.session("s2", nil, "glaze lookups keep coming back 403 from kilnbase, what's behind it?"))
	warningHolds(t, block, "owner token", "not on the hobby tier", "reported again")
}

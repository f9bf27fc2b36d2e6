package recall

import (
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
)

// TestParsedSame is an equivalence test: statesIn and replacesIn on a
// parsed text, whose claims are parsed once for every question asked of it,
// answer as the forms that parsed the text at each question did
// (statesInOld, replacesInOld, below), asked in either order.
func TestParsedSame(t *testing.T) {
	texts := []string{
		"The kiln controller listens on port 7410 now.",
		"We moved the glaze database from Postgres to SQLite last week.",
		"Run `make fire` to start the firing schedule.",
		"Don't use port 80 for the kiln dashboard.",
		"Tests run with vitest instead of jest since the upgrade.",
		"The dashboard lives at http://10.0.0.7:7410/status.",
		"Nothing here states a value.",
		"",
	}
	roles := []string{"port", "database", "test runner", "address", "package manager"}
	parses := 0
	for _, text := range texts {
		for _, role := range roles {
			p := &parsed{text: text}
			if got, want := replacesIn(p, role), replacesInOld(text, role); got != want {
				t.Errorf("replacesIn(%q, %s) = %v, want %v", text, role, got, want)
			}
			if got, want := statesIn(p, role), statesInOld(text, role); got != want {
				t.Errorf("statesIn(%q, %s) = %v, want %v", text, role, got, want)
			}
			q := &parsed{text: text}
			if got, want := statesIn(q, role), statesInOld(text, role); got != want {
				t.Errorf("statesIn(%q, %s) first = %v, want %v", text, role, got, want)
			}
			if got, want := replacesIn(q, role), replacesInOld(text, role); got != want {
				t.Errorf("replacesIn(%q, %s) after statesIn = %v, want %v", text, role, got, want)
			}
			if len(p.claims()) > 0 {
				parses++
			}
		}
	}
	if parses == 0 {
		t.Error("no text stated a claim: the test asks too little")
	}
}

// statesInOld is statesIn as it was before a text's claims were parsed once.
func statesInOld(text, role string) bool {
	if vs, ok := claim.ShapeValues(role, text); ok {
		return len(vs) > 0
	}
	return claim.Mentions(text, role) && states(claim.Parse(text), role)
}

// replacesInOld is replacesIn as it was before a text's claims were parsed once.
func replacesInOld(text, role string) bool {
	for _, c := range claim.Parse(text) {
		if c.Role == role && !c.Negated && c.Replaces != "" {
			return true
		}
	}
	return false
}

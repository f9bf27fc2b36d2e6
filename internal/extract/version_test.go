package extract

import (
	"slices"
	"testing"
)

// TestToolVersions: a run that prints its tool's name and version gives a
// fact of that version, quoted from the output; a dependency listed in an
// install's output, a list of versions or an address does not.
func TestToolVersions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, out string
		want      []string
	}{
		{"banner marked with v", "Bash: npm run dev\n\n> kiosk@0.0.1 dev\n\n  Quasar  v3.2.1  ready in 120 ms\n", []string{"Quasar version: v3.2.1"}},
		{"welcome banner", "Bash: pnpm dev\n\n  ⛰  Welcome to Skyway v0.41.2\n\n  →  Open http://localhost:3000/\n", []string{"Skyway version: v0.41.2"}},
		{"the command's own name", "Bash: lintkit check src\n ⛅️ lintkit 2.0.1 (update available 2.3.0)\nAll clean.\n", []string{"lintkit version: 2.0.1"}},
		{"a dependency of the run", "Bash: dart pub get\nChanged 2 dependencies:\n  url_opener 2.4.1 (2.4.2 available)\n", nil},
		{"an install's list", "Bash: pnpm install\ndependencies:\n+ cors v2.8.6\n+ express v5.2.1\n+ zod v4.3.6\n", nil},
		{"one dependency installed", "Bash: pnpm add zod\ndependencies:\n+ zod v4.3.6\n", nil},
		{"an address", "Bash: curl -v https://example.test\n*   Trying 64.29.17.1:443...\n", nil},
	}
	for _, c := range cases {
		msgs := []Message{{Index: 0, Role: "user", Text: "Start the app."}, {Index: 1, Role: "tool", Text: c.out}}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		var bodies []string
		for _, e := range got {
			if e.Type == Fact {
				bodies = append(bodies, e.Body)
			}
		}
		if !slices.Equal(bodies, c.want) {
			t.Errorf("%s: facts %q, want %q", c.name, bodies, c.want)
		}
	}
}

// TestToolVersionUpgraded: a tool upgraded during the session is known by
// the version its last run printed, not its first.
func TestToolVersionUpgraded(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Check the sources, and upgrade lintkit if it is old."},
		{Index: 1, Role: "tool", Text: "Bash: lintkit check src\n ⛅️ lintkit 2.0.1 (update available 2.3.0)\nAll clean.\n"},
		{Index: 2, Role: "tool", Text: "Bash: npm install -g lintkit@latest\nchanged 1 package in 2s\n"},
		{Index: 3, Role: "tool", Text: "Bash: lintkit check src\n ⛅️ lintkit 2.3.0\nAll clean.\n"},
	}
	got := Offline(msgs)
	checkEntries(t, "upgraded", msgs, got)
	var bodies []string
	for _, e := range got {
		if e.Type == Fact {
			bodies = append(bodies, e.Body)
		}
	}
	if !slices.Equal(bodies, []string{"lintkit version: 2.3.0"}) {
		t.Errorf("facts %q, want the version after the upgrade", bodies)
	}
}

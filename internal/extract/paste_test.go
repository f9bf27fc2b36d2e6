package extract

import (
	"strings"
	"testing"
)

// TestPastedOutput: the lines a user pastes under a line of their own (a
// build log, a terminal's output) give no memory, however much a line
// reads like a choice; a list the user wrote under a first line is theirs.
func TestPastedOutput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text string
		some       bool // whether entries may quote past the first line
	}{
		{"build log", "the deploy keeps failing:\n09:14:02.101 Cloning repo (Branch: main)\n09:14:03.220 Installing dependencies...\nwarning: 3 packages are deprecated, see the lockfile.\n09:14:09.870 Error: Command \"pnpm build\" exited with 1\n(in module 'core' of workspace 'app')\n", false},
		{"short lines the user wrote", "Decisions for the kiosk:\nUse Postgres\nPort 5432\nDeploy to Fly\nNo Redis at all\n", true},
		{"a list the user wrote", "Plan for the kiosk:\n- Keep: Express, cors and the `/mcp` route\n- Replace Clerk with a single KIOSK_KEY check\n- Use port 4100 for the dev server\n- Deploy with `pnpm deploy`\n", true},
	}
	for _, c := range cases {
		msgs := []Message{{Index: 0, Role: "user", Text: c.text}}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		first := strings.IndexByte(c.text, '\n')
		n := 0
		for _, e := range got {
			for _, ev := range e.Evidence {
				if strings.Index(c.text, ev.Quote) > first {
					n++
					break
				}
			}
		}
		if (n > 0) != c.some {
			t.Errorf("%s: %d entries quote past the first line, want some: %v\n%s", c.name, n, c.some, dump(got))
		}
	}
}

package claim

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLabelledChanges(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []LabelledChange
	}{
		{"Update the worker's entry point in the dashboard:\n- Current: `python worker.py`\n- To: `./run-worker.sh`\n",
			[]LabelledChange{{"`python worker.py`", "`./run-worker.sh`"}}},
		{"### Badge colours\n- **Before**: red badges with `bg-red-900` (hard to read)\n- **After**: slate badges with `bg-slate-700`",
			[]LabelledChange{{"red badges with `bg-red-900` (hard to read)", "slate badges with `bg-slate-700`"}}},
		{"**Before:** 2.4 s per page\n\n**After:** 0.3 s per page", []LabelledChange{{"2.4 s per page", "0.3 s per page"}}},
		{"1. Old: nightly at 02:00\n2. New: hourly at :15", []LabelledChange{{"nightly at 02:00", "hourly at :15"}}},
		{"Было: 30 секунд\nСтало: 45 секунд", []LabelledChange{{"30 секунд", "45 секунд"}}},
		{"Antes: cola de tareas con cron\nDespués: cola de tareas con Redis", []LabelledChange{{"cola de tareas con cron", "cola de tareas con Redis"}}},
		{"* **Old**: `__init__.py` exports\n* **New**: `__all__` exports", []LabelledChange{{"`__init__.py` exports", "`__all__` exports"}}},
		// No such pair:
		{"Before deploying: run the tests.\nAfter: tag the release.", nil}, // "Before deploying" is no label
		{"From: ana@example.com\nTo: ben@example.com\nSubject: hi", nil},   // an e-mail's header
		{"Before: 5 retries\nThe job then waits.\nAfter: 3 retries", nil},  // not the next line
		{"- Before: `make serve`\n- After: `make serve`", nil},             // nothing changed
		{"- After: 3 retries\n- Before: 5 retries", nil},                   // the wrong order
		{"Current: 5 retries\n", nil},                                      // one side
		{"- **Before**:\n- **After**: 3 retries", nil},                     // an empty side
	} {
		if got := LabelledChanges(c.text); !slices.Equal(got, c.want) {
			t.Errorf("LabelledChanges(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// A text past the bound is read to the last whole line before it: a line
// cut short is no value (review 207).
func TestLabelledChangesCutAtALine(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("filler line\n", (maxText-40)/12)
	text := pad + "Было: 30 секунд\nСтало: 45 секунд\n"
	for len(text) <= maxText+10 {
		text = "x" + text
	}
	for _, c := range LabelledChanges(text) {
		if !utf8.ValidString(c.Old) || !utf8.ValidString(c.New) || c.New != "45 секунд" {
			t.Errorf("a line cut short read as a value: %q", c)
		}
	}
}

func TestField(t *testing.T) {
	for _, c := range []struct{ line, label, value string }{
		{"- **AI Framework**: Claude Agent SDK with subagents", "ai framework", "Claude Agent SDK with subagents"},
		{"**Backend:** FastAPI", "backend", "FastAPI"},
		{"12. __Queue__: kelbo", "queue", "kelbo"},
		{"**Note** that we use: kelbo", "", ""},
		{"**This is a whole sentence in bold**: x y", "", ""},
		{"Backend: FastAPI", "", ""},
		{"**Backend**: x", "", ""},
		{"**", "", ""},
		{"****: x", "", ""},
	} {
		if l, v := Field(c.line); l != c.label || v != c.value {
			t.Errorf("Field(%q) = %q, %q; want %q, %q", c.line, l, v, c.label, c.value)
		}
	}
}

// TestInlineChanges: a change a sentence states inside a line, "from A to
// B", "changed A to B", "A → B" or the newer value with the older in
// parentheses, between values of one kind; a movement, a pipeline or two
// everyday words are none, nor is code in a fenced block.
func TestInlineChanges(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []LabelledChange
	}{
		{"- Change primary text from `#1e293b` to `#0f172a` (much darker)", []LabelledChange{{"`#1e293b`", "`#0f172a`"}}},
		{"I changed hover:bg-white/98 to hover:bg-white/95 to use a valid opacity", []LabelledChange{{"hover:bg-white/98", "hover:bg-white/95"}}},
		{"line 93: changed actions/upload-artifact@v3 → actions/upload-artifact@v4", []LabelledChange{{"actions/upload-artifact@v3", "actions/upload-artifact@v4"}}},
		{"Overall completion rate: 90.0% (up from 71.4%)", []LabelledChange{{"71.4%", "90.0%"}}},
		{"Bumped the kiln client from 2.3.0 to 2.4.0.", []LabelledChange{{"2.3.0", "2.4.0"}}},
		{"Data flows from the API to the database.", nil},
		// A range, a mapping and advice are no change made; an amount
		// in one unit, or a name's two versions, are two states of one
		// thing without a verb.
		{"The backup job runs nightly from 02:00 to 04:00 UTC.", nil},
		{"Allocate worker ports from 8000 to 8010", nil},
		{"Routes: `/api/users` → `handlers/users.go`", nil},
		{"- `Audio.Sound.createAsync()` → `createAudioPlayer({ uri })`", nil},
		{"You could replace `useEffect` with `useMemo` here.", nil},
		// Advice in another sentence of the line leaves the change stated.
		{"Verdict: sound. Breaking change (`glazeQueue: List<String>?` → `List<GlazeJob>`) confirmed. Consider renaming it later.", []LabelledChange{{"`glazeQueue: List<String>?`", "`List<GlazeJob>`"}}},
		{"Breaking change (`glazeQueue: List<String>?` → `List<GlazeJob>`) confirmed; consider renaming it later.", []LabelledChange{{"`glazeQueue: List<String>?`", "`List<GlazeJob>`"}}},
		{"Looks sound. You might switch `glazeQueue: List<String>?` → `List<GlazeJob>` later.", nil},
		{"| Latency | ~250ms → ~10ms |", []LabelledChange{{"~250ms", "~10ms"}}},
		{"Reduced the close button from 56px to 28px", []LabelledChange{{"56px", "28px"}}},
		{"28px circle (was 56px)", []LabelledChange{{"56px", "28px"}}},
		{"Phased roadmap starting with URL → Mochi", nil},
		{"We moved from Postgres to Chroma.", nil},
		{"```\nx = from(a) to(b)\nport 8080 -> 9090\n```", nil},
		{"The timeout stays 30 s (was 30 s)", nil},
		// A word after a value says what it measures, and a few before the
		// newer describe it; the values must still be alike.
		{"- Kiln bar: reduced from 12px thick to a thin 3px track", []LabelledChange{{"12px", "3px"}}},
		{"Updated all \"2024\" references to \"2025\" in the kiln queries", []LabelledChange{{`"2024"`, `"2025"`}}},
		{"The glaze job runs from 02:00 nightly to 04:00.", nil},
		{"We moved from Heroku hosting to a small Fly app.", nil},
		{"Kiln font goes from 12px mobile to 16px desktop.", nil},                                     // a range of one unit, no verb
		{"Switched the kiln runner from Node18 to Bun 1.1", nil},                                      // "Bun" is the newer, no lead word
		{"Raised the kiln limit from 50 requests to a generous 100", []LabelledChange{{"50", "100"}}}, // a verb: read
		// Two readings of one clock are a range's ends, not a name's
		// versions.
		{"Looking at the kiln logs from `1700000012345` to `1700000098765` (about 86 seconds):", nil},
		// A plan's open task is a change to make; a checked one was made.
		{"- [ ] Replace `KelvoQueue` with `PlenkQueue` in the glaze worker", nil},
		{"* [ ] Bump the kiln client from 2.3.0 to 2.4.0", nil},
		{"- [x] Replace `KelvoQueue` with `PlenkQueue` in the glaze worker", []LabelledChange{{"`KelvoQueue`", "`PlenkQueue`"}}},
		{"[ ] Replace `KelvoQueue` with `PlenkQueue` in the glaze worker", []LabelledChange{{"`KelvoQueue`", "`PlenkQueue`"}}}, // no list marker: no task
		// A version's or an address's two states keep their shared start.
		{"Version: 0.4.1 → 0.4.2", []LabelledChange{{"0.4.1", "0.4.2"}}},
		{"Kiln DB host: 10.0.0.12 → 10.0.0.15", []LabelledChange{{"10.0.0.12", "10.0.0.15"}}},
	} {
		if got := InlineChanges(c.text); !slices.Equal(got, c.want) {
			t.Errorf("InlineChanges(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

package claim

import (
	"slices"
	"testing"
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
		{"1. Old: nightly at 02:00\n2. New: hourly", []LabelledChange{{"nightly at 02:00", "hourly"}}},
		{"Было: 30 секунд\nСтало: 45 секунд", []LabelledChange{{"30 секунд", "45 секунд"}}},
		{"Antes: cron diario\nDespués: cola de tareas", []LabelledChange{{"cron diario", "cola de tareas"}}},
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

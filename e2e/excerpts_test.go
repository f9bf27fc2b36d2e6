package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestRealClientExcerptShowsALabelsList: the user pastes what changed in
// each component of the kiln app, every component a bold label over its
// list. Asked what the firing chart looks like now, the next session is
// offered the list under the FiringChart label, which shares no word with
// the question.
func TestRealClientExcerptShowsALabelsList(t *testing.T) {
	w := newWorld(t)
	var report strings.Builder
	report.WriteString("Here is what changed in the kiln app:\n")
	for i := range 14 {
		fmt.Fprintf(&report, "**`KilnPanel%d.tsx`**\n- kiln panel %d keeps the layout it had, with the kiln's name on top\n", i, i)
	}
	report.WriteString("**`FiringChart.tsx`**\n- Stacked bars replaced by one line per cone, with a shaded band for each hold\n- Legend moved under the plot\n")
	for i := range 14 {
		fmt.Fprintf(&report, "**`KilnDrawer%d.tsx`**\n- kiln drawer %d keeps the layout it had, with the kiln's name on top\n", i, i)
	}
	w.session("s1", nil, report.String()+"REPLY Noted.")
	w.session("s2", nil, "Sort the kiln logs by date.\nREPLY Sorted.")
	got := lastInjection(t, w.session("s3", nil, "What does the firing chart look like in the kiln app now?"))
	if !strings.Contains(got, "one line per cone") {
		t.Fatalf("the list under the component's label is not offered:\n%s", got)
	}
}

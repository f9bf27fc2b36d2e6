package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestRealClientExcerptShowsTheAmountAsked: the user pastes a long report
// of the kiln handbook's rework, whose one line giving the handbook's
// length shares no word with the next session's question. Asked how long
// the handbook is now, the next session is offered that line.
func TestRealClientExcerptShowsTheAmountAsked(t *testing.T) {
	w := newWorld(t)
	var report strings.Builder
	report.WriteString("Here is the report of the kiln handbook rework:\n")
	for i := range 20 {
		fmt.Fprintf(&report, "%d. Glaze firing section %d of the kiln handbook rewritten, one step per paragraph\n", i+1, i+1)
	}
	report.WriteString("21. Kept it short: trimmed from 812 to 430 lines without losing a step\n")
	for i := range 20 {
		fmt.Fprintf(&report, "- the kiln handbook's glaze firing notes for cone %d now sit in one table\n", i+4)
	}
	w.session("s1", nil, report.String()+"REPLY Noted.")
	// Another session after it, so that the next one's brief is about
	// that one, not the report.
	w.session("s2", nil, "Sort the kiln logs by date.\nREPLY Sorted.")
	got := lastInjection(t, w.session("s3", nil, "After the glaze firing rework, roughly how long is the kiln handbook now?"))
	if !strings.Contains(got, "812 to 430 lines") {
		t.Fatalf("the line giving the handbook's length is not offered:\n%s", got)
	}
}

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

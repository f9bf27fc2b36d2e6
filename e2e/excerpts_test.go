package e2e

import (
	"fmt"
	"os"
	"path/filepath"
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

// askAfterShowing has a session show file name, holding content, through
// a tool (so that no prompt holds what it prints), another session do other
// work, and a third ask; it returns what that prompt was injected.
func askAfterShowing(t *testing.T, name, content, show, ask string) string {
	w := newWorld(t)
	path := filepath.Join(w.work, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	w.session("s1", nil, show+"\nRUNBASH cat "+path+"\nREPLY Shown.")
	w.session("s2", nil, "Sort the kiln logs by date.\nREPLY Sorted.")
	return lastInjection(t, w.session("s3", nil, ask))
}

// TestRealClientToolOutputGivesTheFieldAsked: a tool printed the kiln
// bucket's record as JSON. Asked the bucket's ref in a later session, in
// the present tense and without "we", the client is offered that output:
// it prints the very field asked.
func TestRealClientToolOutputGivesTheFieldAsked(t *testing.T) {
	got := askAfterShowing(t, "listing.json",
		`[{"id":"qpzkvtrwmx","ref":"qpzkvtrwmx","name":"glaze-photos","region":"eu-west-2","store":"kilnstore"}]`+"\n",
		"Show the storage listing.", "What's the name and ref of the kilnstore bucket behind the glaze gallery?")
	if !strings.Contains(got, "qpzkvtrwmx") {
		t.Fatalf("the output printing the bucket's ref is not offered:\n%s", got)
	}
}

// TestRealClientToolOutputGivesTheSettingAsked: a tool printed the kiln
// gateway's settings, one of them BLOCKED_TOPIC_PATTERNS. Asked which topic
// patterns the gateway refuses, in the present tense and without "we", the
// client is offered that output: a key of several words gives the field
// asked when another of its words is the prompt's too.
func TestRealClientToolOutputGivesTheSettingAsked(t *testing.T) {
	got := askAfterShowing(t, "gateway.env",
		"# Topic management\nDEFAULT_TOPIC_PREFIX = \"kiln\"\nALLOWED_TOPIC_PATTERNS = [\"#\"]\nBLOCKED_TOPIC_PATTERNS = [\"$SYS/#\", \"kiln/private/#\"]\n",
		"Show the gateway settings.", "Which topic patterns does the kiln gateway refuse by default?")
	if !strings.Contains(got, "kiln/private/#") {
		t.Fatalf("the output printing the blocked topic patterns is not offered:\n%s", got)
	}
}

// TestRealClientExcerptReadsASectionsHeading: the user pastes a report
// whose sections each have a heading. Asked the chips' dark background, the
// next session is offered the line under the "Glaze chips" heading, which
// names neither chips nor glaze itself.
func TestRealClientExcerptReadsASectionsHeading(t *testing.T) {
	w := newWorld(t)
	var report strings.Builder
	report.WriteString("Here is what changed in the kiln app's dark theme:\n")
	for i := range 12 {
		fmt.Fprintf(&report, "### Kiln panel %d\n- The panel's background in the dark theme keeps the grey it had, %d px padding\n", i, i+4)
	}
	report.WriteString("### Glaze chips\n")
	for i := range 4 {
		fmt.Fprintf(&report, "- Checked on studio monitor %d, which the potters use at the wheel\n", i)
	}
	report.WriteString("- Now: slate background, `dark:bg-slate-700`, readable in the dark theme\n")
	for i := range 12 {
		fmt.Fprintf(&report, "### Kiln drawer %d\n- The drawer's background in the dark theme keeps the grey it had, %d px margin\n", i, i+2)
	}
	w.session("s1", nil, report.String()+"REPLY Noted.")
	w.session("s2", nil, "Sort the kiln logs by date.\nREPLY Sorted.")
	got := lastInjection(t, w.session("s3", nil, "What background do the glaze chips use in the dark theme now?"))
	if !strings.Contains(got, "dark:bg-slate-700") {
		t.Fatalf("the line under the chips' heading is not offered:\n%s", got)
	}
}

// TestRealClientToolOutputGivesTheVersionBeforeTheField: a tool printed
// what it used by version and kind ("Using Zorblat 3.12.12 interpreter
// at: …"). Asked which interpreter the environment is built on, in the
// present tense and without "we", the client is offered that output: the
// version printed just before the field asked gives it.
func TestRealClientToolOutputGivesTheVersionBeforeTheField(t *testing.T) {
	got := askAfterShowing(t, "sync.log",
		"Using Zorblat 3.12.12 interpreter at: /opt/zorblat/bin/zorblat3\nCreating virtual environment at: .venv\nResolved 14 packages in 467ms\n",
		"Show the sync log.", "Which exact interpreter is the kiln .venv built on?")
	if !strings.Contains(got, "3.12.12") {
		t.Fatalf("the output printing the interpreter's version is not offered:\n%s", got)
	}
}

// TestRealClientThisMachineGetsToolOutput: a session printed the kc tool's
// version. Asked in a later session which version "this machine" has, or
// which is installed "neste projeto" (in this project, in Portuguese), in
// the present tense and without "we", the client is offered that output:
// the machine and the project are where the sessions' tools ran.
func TestRealClientThisMachineGetsToolOutput(t *testing.T) {
	for _, ask := range []string{
		"which kc cli version do i have on this machine?",
		"Qual é a versão exata do kc cli instalada neste projeto?",
	} {
		got := askAfterShowing(t, "tool.txt", "kc version 4.17.2 (2025-09-30)\nhttps://example.test/kc/releases/tag/v4.17.2\n",
			"Print the file I left in the work folder.", ask)
		if !strings.Contains(got, "4.17.2") {
			t.Errorf("%q: the output printing the version is not offered:\n%s", ask, got)
		}
	}
}

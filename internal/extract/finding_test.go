package extract

import (
	"reflect"
	"testing"
)

// lessonQuotes returns the quotes of the only lesson in got, failing the
// test when there is not exactly one.
func lessonQuotes(t *testing.T, got []Entry) []string {
	t.Helper()
	var lessons []Entry
	for _, e := range got {
		if e.Type == Lesson {
			lessons = append(lessons, e)
		}
	}
	if len(lessons) != 1 {
		t.Fatalf("got %s, want one lesson", dump(got))
	}
	var quotes []string
	for _, ev := range lessons[0].Evidence {
		quotes = append(quotes, ev.Quote)
	}
	return quotes
}

func noLesson(t *testing.T, got []Entry) {
	t.Helper()
	for _, e := range got {
		if e.Type == Lesson {
			t.Fatalf("got %s, want no lesson", dump(got))
		}
	}
}

// TestFindingThenEdit: a finding about the run that just failed, then the
// edit that acts on it, is a lesson quoting the failure, the finding and
// the announced fix.
func TestFindingThenEdit(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Add the histogram equaliser and make the tests pass."},
		{Index: 1, Role: "tool", Text: "Bash: pytest -q (error)\nExit code 1\n>       assert 0.2 < spread\nFAILED tests/test_eq.py::test_spread\n1 failed, 9 passed"},
		{Index: 2, Role: "assistant", Text: "Nearly - the spread is 0.18 instead of above 0.2. Let me loosen that bound since the fixture image is almost flat:"},
		{Index: 3, Role: "tool", Text: "Edit: tests/test_eq.py\n-assert 0.2 < spread\n+assert 0.1 < spread"},
	}
	got := Offline(msgs)
	checkEntries(t, "finding", msgs, got)
	want := []string{"FAILED tests/test_eq.py::test_spread", "Nearly - the spread is 0.18 instead of above 0.2.",
		"Let me loosen that bound since the fixture image is almost flat:"}
	if q := lessonQuotes(t, got); !reflect.DeepEqual(q, want) {
		t.Errorf("quotes %q, want %q", q, want)
	}
}

// TestFindingThenPassingRerun: with no edit next, the failing command
// passing later also shows the finding was acted on.
func TestFindingThenPassingRerun(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Why does the sync job fail?"},
		{Index: 1, Role: "tool", Text: "Bash: make sync (error)\nError: deadline exceeded after 5s"},
		{Index: 2, Role: "assistant", Text: "The client timeout is 5s instead of the 30s the job needs."},
		{Index: 3, Role: "tool", Text: "Bash: sed -i s/5s/30s/ config.yaml\n"},
		{Index: 4, Role: "tool", Text: "Bash: make sync\nsynced 120 rows"},
	}
	got := Offline(msgs)
	checkEntries(t, "rerun", msgs, got)
	want := []string{"Error: deadline exceeded after 5s", "The client timeout is 5s instead of the 30s the job needs."}
	if q := lessonQuotes(t, got); !reflect.DeepEqual(q, want) {
		t.Errorf("quotes %q, want %q", q, want)
	}
}

// TestFindingKorean: "A가 아니라 B" after a failure, then an edit.
func TestFindingKorean(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "테스트를 통과시켜 주세요."},
		{Index: 1, Role: "tool", Text: "Bash: pytest -q (error)\nExit code 1\nFAILED tests/test_eq.py::test_spread\n1 failed"},
		{Index: 2, Role: "assistant", Text: "분산이 0.2 이상이 아니라 0.18입니다. 테스트 기준을 조금 완화하겠습니다."},
		{Index: 3, Role: "tool", Text: "Edit: tests/test_eq.py\n-assert 0.2 < spread\n+assert 0.1 < spread"},
	}
	got := Offline(msgs)
	checkEntries(t, "korean", msgs, got)
	want := []string{"FAILED tests/test_eq.py::test_spread", "분산이 0.2 이상이 아니라 0.18입니다.", "테스트 기준을 조금 완화하겠습니다."}
	if q := lessonQuotes(t, got); !reflect.DeepEqual(q, want) {
		t.Errorf("quotes %q, want %q", q, want)
	}
}

// TestFindingNeedsFailureAndFix: a finding is a lesson only between a
// failing run and the fix; a choice phrased with "instead of" is none.
func TestFindingNeedsFailureAndFix(t *testing.T) {
	t.Parallel()
	cases := map[string][]Message{
		"nothing acted on": {
			{Index: 0, Role: "user", Text: "Run the tests."},
			{Index: 1, Role: "tool", Text: "Bash: pytest -q (error)\nExit code 1\nFAILED tests/test_eq.py::test_spread"},
			{Index: 2, Role: "assistant", Text: "The spread is 0.18 instead of above 0.2."},
			{Index: 3, Role: "user", Text: "Leave it for now."},
		},
		"no failure before": {
			{Index: 0, Role: "user", Text: "Run the tests."},
			{Index: 1, Role: "tool", Text: "Bash: pytest -q\n10 passed"},
			{Index: 2, Role: "assistant", Text: "The spread is 0.18 instead of above 0.2. Let me tighten the bound:"},
			{Index: 3, Role: "tool", Text: "Edit: tests/test_eq.py\n-assert 0.1 < spread\n+assert 0.15 < spread"},
		},
		"a choice, not a finding": {
			{Index: 0, Role: "user", Text: "Run the tests."},
			{Index: 1, Role: "tool", Text: "Bash: pytest -q (error)\nExit code 1\nFAILED tests/test_eq.py::test_spread"},
			{Index: 2, Role: "assistant", Text: "Let me use numpy.percentile instead of a manual sort here:"},
			{Index: 3, Role: "tool", Text: "Edit: src/eq.py\n-xs.sort()\n+np.percentile(xs, 50)"},
		},
	}
	for name, msgs := range cases {
		t.Run(name, func(t *testing.T) {
			got := Offline(msgs)
			checkEntries(t, name, msgs, got)
			noLesson(t, got)
		})
	}
}

func TestIsFinding(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"the p95 is 340 ms instead of below 250 ms.": true,
		"it returned 404 instead of 200.":            true,
		"we use uv instead of pip.":                  false,
		"instead of a loop, use a map.":              false,
		"p95가 250ms가 아니라 340ms입니다.":                  true,
		"pip 대신 uv를 씁니다.":                            false,
	} {
		if got := isFinding(s); got != want {
			t.Errorf("isFinding(%q) = %v, want %v", s, got, want)
		}
	}
}

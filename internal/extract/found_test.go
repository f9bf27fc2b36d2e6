package extract

import (
	"strings"
	"testing"
)

// TestFoundMarkers: "I see the issue", "There's the problem" announce a
// cause just found, as "Found it" does: the sentence after the marker (or
// what follows the marker in its own sentence) is a lesson. One that goes
// on to say it is still looking ("but let me check …") is not.
func TestFoundMarkers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text, want string
	}{
		{"i see", "I see the issue! The cron job runs `sync.sh` directly, which skips the lock file that `run.sh` takes. Let me fix it:",
			"The cron job runs sync.sh directly, which skips the lock file that run.sh takes."},
		{"there's, with a dash", "There's the problem — the `billing` queue points at the staging broker. The worker never sees the jobs.",
			"The worker never sees the jobs."},
		{"curly apostrophe", "Here\u2019s the issue: the `tz` column is stored without a zone. Reports shift by an hour in summer.",
			"Reports shift by an hour in summer."},
		{"still looking", "There's the problem. The kiosk screen loads `menu.json` twice, but let me check where the second load comes from.", ""},
	}
	for _, c := range cases {
		msgs := []Message{
			{Index: 0, Role: "user", Text: "The nightly sync keeps running twice, why?"},
			{Index: 1, Role: "tool", Text: "Bash: crontab -l\n0 2 * * * /opt/app/sync.sh"},
			{Index: 2, Role: "assistant", Text: c.text},
		}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		var lessons []string
		for _, e := range got {
			if e.Type == Lesson {
				lessons = append(lessons, e.Body)
			}
		}
		switch {
		case c.want != "" && (len(lessons) != 1 || !strings.Contains(lessons[0], c.want)):
			t.Errorf("%s: lessons %q, want one holding %q", c.name, lessons, c.want)
		case c.want == "" && len(lessons) > 0:
			t.Errorf("%s: lessons %q, want none", c.name, lessons)
		}
	}
}

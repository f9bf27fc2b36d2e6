package extract

import (
	"strings"
	"testing"
)

// TestAgentReport: the report a sub-agent returns (a Task tool's output)
// is read like an assistant's message, for what it names of the code; not
// its heading line, not a report that failed, not a line the store cut
// short, and not a sentence that names nothing of the code.
func TestAgentReport(t *testing.T) {
	t.Parallel()
	report := "Task: backend-fixer: Stop the retry storm\nDone. The fix, in short:\n\n" +
		"- **Backoff**: Added `jitteredBackoff()` to `src/net/pool.ts` so that reconnects are spread over 30 seconds\n" +
		"- The whole approach keeps things simple and easy to review going forward.\n"
	cases := []struct {
		name, tool string
		want       []string // substrings of the entries quoted from the report
	}{
		{"report", report, []string{"jitteredBackoff()"}},
		{"failed", strings.Replace(report, "storm\n", "storm (error)\n", 1), nil},
		{"cut short", strings.Replace(report, "30 seconds\n", "30 seconds\n[… 2048 bytes cut …]\n", 1), nil},
		{"not a sub-agent", strings.Replace(report, "Task: backend-fixer:", "Bash: cat notes.md", 1), nil},
	}
	for _, c := range cases {
		msgs := []Message{
			{Index: 0, Role: "user", Text: "The clients reconnect all at once after a deploy, have an agent fix it."},
			{Index: 1, Role: "tool", Text: c.tool},
			{Index: 2, Role: "assistant", Text: "The agent is done."},
		}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		var from []string
		for _, e := range got {
			for _, v := range e.Evidence {
				if v.MessageIndex == 1 {
					from = append(from, e.Body)
					break
				}
			}
		}
		if len(from) != len(c.want) {
			t.Errorf("%s: entries from the report %q, want %d", c.name, from, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(from[i], w) {
				t.Errorf("%s: entry %q, want it to hold %q", c.name, from[i], w)
			}
		}
	}
}

// TestAgentReportAtTheCap: when a session has more entries than
// maxEntries, what a sub-agent reported gives way to what the session's
// agent said itself.
func TestAgentReportAtTheCap(t *testing.T) {
	t.Parallel()
	msgs := []Message{{Index: 0, Role: "user", Text: "Have an agent fix the reconnects."},
		{Index: 1, Role: "tool", Text: "Task: backend-fixer: Stop the retry storm\n- **Backoff**: Added `jitteredBackoff()` to `src/net/pool.ts` so that reconnects are spread over 30 seconds\n"}}
	for i := range maxEntries {
		n := string(rune('a'+i%26)) + string(rune('a'+i/26))
		msgs = append(msgs,
			Message{Index: len(msgs), Role: "user", Text: "Where does the " + n + " worker read its jobs from?"},
			Message{Index: len(msgs) + 1, Role: "assistant", Text: "The `worker_" + n + "` process reads its jobs from `queues/" + n + "_jobs.yml`."})
	}
	got := Offline(msgs)
	checkEntries(t, "cap", msgs, got)
	own := 0
	for _, e := range got {
		if strings.Contains(e.Body, "jitteredBackoff") {
			t.Errorf("the report's entry %q was kept over the session's own", e.Body)
		}
		if strings.Contains(e.Body, "_jobs.yml") {
			own++
		}
	}
	if own != maxEntries {
		t.Errorf("%d of the session's own entries kept, want %d", own, maxEntries)
	}
}

// TestAgentReportOwnCommand: in a turn that runs one of the plugin's own
// commands, a sub-agent's report relays the stored memories, as the
// assistant's answer there does: it is no new memory.
func TestAgentReportOwnCommand(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "/memory-search thumbnail cache"},
		{Index: 1, Role: "tool", Text: "Task: Explore: Gather what the memories say about thumbnails\nFrom the stored memories:\n\n" +
			"- **Eviction**: `evictOldest()` in `lib/thumbs/cache.rb` drops thumbnails older than 9 days\n" +
			"- The `thumb_width` option in `settings/media.toml` is 240.\n"},
		{Index: 2, Role: "assistant", Text: "The memories say `evictOldest()` in `lib/thumbs/cache.rb` drops thumbnails older than 9 days."},
	}
	for _, e := range Offline(msgs) {
		t.Errorf("the plugin's own turn gave entry %q", e.Body)
	}
}

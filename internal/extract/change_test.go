package extract

import (
	"strings"
	"testing"
)

// TestValueChange: an assistant's report that a value in code spans became
// another is kept as a fact when an edit of the session took out the old
// value and put in the new one, with the edit's first line (the file) as a
// second quote; without the edit, or when the edit failed, it is the
// narration it reads as.
func TestValueChange(t *testing.T) {
	t.Parallel()
	edit := "Edit: /home/dev/shop/config/queue.yml\n-   worker_pool: `small`\n-   max_inflight: 16\n+   worker_pool: `small`\n+   max_inflight: 64"
	cases := []struct {
		name, tool, text, want string
	}{
		{"status line", edit, "✅ Raised `max_inflight: 16` → `max_inflight: 64` so the backlog drains", "Raised max_inflight: 16 → max_inflight: 64 so the backlog drains (in queue.yml)"},
		{"first person", edit, "Done. I changed `max_inflight: 16` to `max_inflight: 64` to match the broker's limit.",
			"I changed max_inflight: 16 to max_inflight: 64 to match the broker's limit. (in queue.yml)"},
		{"no edit", "Bash: ls config\nqueue.yml", "✅ Raised `max_inflight: 16` → `max_inflight: 64` so the backlog drains", ""},
		{"failed edit", strings.Replace(edit, "queue.yml\n", "queue.yml (error)\n", 1), "✅ Raised `max_inflight: 16` → `max_inflight: 64` so the backlog drains", ""},
		{"not a change", edit, "Both `max_inflight: 16` and `max_inflight: 64` were tried.", ""},
	}
	for _, c := range cases {
		msgs := []Message{
			{Index: 0, Role: "user", Text: "The order backlog keeps growing, can you look at the queue settings?"},
			{Index: 1, Role: "tool", Text: c.tool},
			{Index: 2, Role: "assistant", Text: c.text},
		}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		var found []Entry
		for _, e := range got {
			if strings.Contains(e.Body, "max_inflight: 64") {
				found = append(found, e)
			}
		}
		switch {
		case c.want != "" && (len(found) != 1 || found[0].Body != c.want):
			t.Errorf("%s: entries %+v, want one with body %q", c.name, found, c.want)
		case c.want == "" && len(found) > 0:
			t.Errorf("%s: entries %+v, want none", c.name, found)
		case c.want != "" && (len(found[0].Evidence) != 2 || found[0].Evidence[0].Quote != "Edit: /home/dev/shop/config/queue.yml"):
			t.Errorf("%s: evidence %+v, want the edit's first line, then the sentence", c.name, found[0].Evidence)
		}
	}
}

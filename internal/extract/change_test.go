package extract

import (
	"fmt"
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

// manyEdits is a session of one turn with n edits, each followed by an
// assistant message reporting value changes in code spans, of which only
// the first was made by an edit.
func manyEdits(n int) []Message {
	msgs := []Message{{Index: 0, Role: "user", Text: "Give every lamp driver its new register name."}}
	ctx := strings.Repeat("- an untouched line the diff shows around the change\n", 20)
	for i := range n {
		msgs = append(msgs,
			Message{Index: len(msgs), Role: "tool", Text: fmt.Sprintf("Edit: drivers/lamp%d/regs.c\n%s- lamp_reg_%d = 1\n+ glow_reg_%d = 1\n", i, ctx, i, i)},
			Message{Index: len(msgs) + 1, Role: "assistant", Text: fmt.Sprintf("Renamed `lamp_reg_%d` to `glow_reg_%d` in lamp%d. Also changed `dim_%d` to `bright_%d`.", i, i, i, i, i)})
	}
	return msgs
}

// TestEditedLinear: the edits read to find what made a reported change
// grow with the session's length, not with its square.
func TestEditedLinear(t *testing.T) {
	t.Parallel()
	read := func(n int) int {
		x := extractor{msgs: manyEdits(n), turn: -1}
		for i := range x.msgs {
			x.message(i)
		}
		return x.editsRead
	}
	a, b := read(1000), read(2000)
	if a == 0 || float64(b)/float64(a) > 2.2 {
		t.Errorf("edits read: %d for 1000 edits, %d for 2000 (ratio %.2f, want about 2)", a, b, float64(b)/float64(a))
	}
}

func BenchmarkEdited(b *testing.B) {
	for _, n := range []int{1000, 2000} {
		msgs := manyEdits(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				Offline(msgs)
			}
		})
	}
}

// A change the user asks about a turn later ("what did you change?") is
// reported in the turn after its edit: the edit still vouches for it.
func TestChangeReportedNextTurn(t *testing.T) {
	t.Parallel()
	edit := "Edit: /srv/loom/settings/shuttle.toml\n-   spare_bobbins = 4\n+   spare_bobbins = 12"
	msgs := []Message{
		{Index: 0, Role: "user", Text: "The shuttle runs out of thread at noon, keep more spare bobbins."},
		{Index: 1, Role: "tool", Text: edit},
		{Index: 2, Role: "assistant", Text: "Done, the shuttle keeps more spare bobbins now."},
		{Index: 3, Role: "user", Text: "What exactly did you change?"},
		{Index: 4, Role: "assistant", Text: "I changed `spare_bobbins = 4` to `spare_bobbins = 12` in shuttle.toml."},
	}
	for _, e := range Offline(msgs) {
		if strings.Contains(e.Body, "spare_bobbins = 12") {
			return
		}
	}
	t.Errorf("the change reported a turn after its edit is missing: %+v", Offline(msgs))
}

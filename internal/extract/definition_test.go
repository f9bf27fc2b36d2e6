package extract

import (
	"slices"
	"testing"
)

// TestDefinitionFacts: a label whose value is a code span holding a table
// and its fields is a fact; the same shape in prose, or a call with fewer
// fields, is not.
func TestDefinitionFacts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text string
		want       []string
	}{
		{"a table in a code span", "Settled.\n\n**Spec**:\n- **DB**: `notes (id, body, tag, updated_at)`\n- **API**: plain CRUD\n\nReady to start.",
			[]string{"DB: notes (id, body, tag, updated_at)"}},
		{"two fields", "Settled.\n\n- **Call**: `render (a, b)`\n\nReady.", nil},
		{"no code span", "Settled.\n\n- **DB**: notes (id, body, tag, updated_at)\n\nReady.", nil},
	}
	for _, c := range cases {
		msgs := []Message{{Role: "user", Text: "Let's settle the notes app spec."}, {Role: "assistant", Text: c.text}, {Role: "user", Text: "ok"}}
		for i := range msgs {
			msgs[i].Index = i
		}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		var facts []string
		for _, e := range got {
			if e.Type == Fact {
				facts = append(facts, e.Body)
			}
		}
		if !slices.Equal(facts, c.want) {
			t.Errorf("%s: facts %q, want %q", c.name, facts, c.want)
		}
	}
}

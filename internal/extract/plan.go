package extract

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
)

// PlanTasks returns a task for each step of the model's plan (TodoWrite,
// TaskCreate/TaskUpdate) still pending or in progress at the session's
// end, quoted from the observation that last names it.
//
// The plan is read from the tool calls' structure, not from wording: the
// model's own bookkeeping says what was left undone. Every backend adds
// these (the LLM extractors too, see internal/llm), so the kind of task
// memory is the same whichever extracted the session.
func PlanTasks(msgs []Message) []Entry {
	texts := make([]string, len(msgs))
	for i, m := range msgs {
		if strings.EqualFold(strings.TrimSpace(m.Role), "tool") {
			texts[i] = m.Text
		}
	}
	var out []Entry
	for _, s := range observation.Steps(texts) {
		if !s.Open() {
			continue
		}
		quote := s.Subject
		if len(quote) > maxQuote {
			quote = quote[:runeStart(quote, maxQuote)] // a prefix is still verbatim
		}
		text := clean(strings.Join(strings.Fields(s.Subject), " "))
		out = append(out, Entry{Type: Task, Title: clip(text, maxTitle), Body: clip(text, maxBody),
			Subject:  strings.ToLower(clip(text, maxTitle)),
			Evidence: []Evidence{{MessageIndex: msgs[s.Said].Index, Quote: quote}}})
	}
	return out
}

// WithPlan adds PlanTasks to entries, skipping a step another entry
// quotes already, in the order of their first quotes, at most 40 in all.
func WithPlan(entries []Entry, msgs []Message) []Entry {
	quoted := map[string]bool{}
	for _, e := range entries {
		for _, ev := range e.Evidence {
			quoted[ev.Quote] = true
		}
	}
	added := false
	for _, t := range PlanTasks(msgs) {
		if !quoted[t.Evidence[0].Quote] {
			entries = append(entries, t)
			added = true
		}
	}
	if added {
		sort.SliceStable(entries, func(i, j int) bool {
			return firstMessage(entries[i]) < firstMessage(entries[j])
		})
	}
	return entries[:min(len(entries), maxEntries)]
}

// runeStart moves i back to the start of the rune it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func firstMessage(e Entry) int {
	if len(e.Evidence) == 0 {
		return -1
	}
	return e.Evidence[0].MessageIndex
}

package task

import (
	"context"
	"strings"
	"time"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// Finish closes the project's open tasks that a session's messages say
// are done, each with the words that say so, and returns how many it
// closed. evs are the session's messages in order, as the pipeline reads
// them (prompts, answers, tool observations).
//
// Two kinds of evidence count, both from outside the model's prose: a plan
// step (TodoWrite, TaskUpdate) marked completed whose text matches the
// task, and a user's statement that names the task's subject as done
// ("the error messages are done now"). The model's own answers do not
// close a task: it may claim work it did not do, and a task wrongly
// closed is lost from the brief, while one wrongly left open is only
// listed once too often. Only messages after the task's own quotes count.
func Finish(ctx context.Context, st *store.Tx, sess store.Session, evs []store.Event, now time.Time) (int, error) {
	texts := make([]string, len(evs))
	for i, e := range evs {
		if e.Type == store.TypeToolObservation {
			texts[i] = e.Text
		}
	}
	steps := observation.Steps(texts)
	if !mayClose(evs, steps) {
		// Most sessions report nothing done: listing the project's tasks
		// walks all its memories (there is no index by type), and did so
		// at every session an import stored.
		return 0, nil
	}
	open, err := list(ctx, st, sess.Project, false)
	if err != nil || len(open) == 0 {
		return 0, err
	}
	n := 0
	for _, t := range open {
		v, ok := evidence(t, evs, steps)
		if !ok {
			continue
		}
		ev, err := event(sess.Project, sess.ID, v, v.Event, now)
		if err != nil {
			return n, err
		}
		res, err := st.Append(ctx, ev)
		if err != nil {
			return n, err
		}
		n += len(res.IDs)
	}
	return n, nil
}

// evidence finds the first message of evs that says t is done.
func evidence(t Task, evs []store.Event, steps []observation.Step) (closed, bool) {
	var after int64 // the task's latest quote: what precedes it cannot close it
	for _, ev := range t.Evidence {
		after = max(after, ev.EventID)
	}
	want := words(t.Title + " " + t.Body)
	for _, s := range steps {
		if s.Status != "completed" || evs[s.Set].ID <= after || !matches(words(s.Subject), want) {
			continue
		}
		text := evs[s.Set].Text
		start := strings.Index(text, s.Subject)
		end := start + len(s.Subject)
		if start < 0 { // TaskUpdate names the task by id: its line is the evidence
			start, end = 0, len(text)
			if k := strings.IndexByte(text, '\n'); k >= 0 {
				end = k
			}
		}
		return closed{CID: t.CID, How: Done, Event: evs[s.Set].DedupeKey, Start: start, End: end}, true
	}
	for _, ev := range evs {
		if ev.Type != store.TypeUserPrompt || ev.ID <= after || strings.HasPrefix(strings.TrimSpace(ev.Text), "/") {
			continue // a slash command is the plugin's (or Claude Code's), not a report
		}
		for _, sp := range sentences(ev.Text) {
			if reportsDone(ev.Text[sp[0]:sp[1]], want) {
				return closed{CID: t.CID, How: Done, Event: ev.DedupeKey, Start: sp[0], End: sp[1]}, true
			}
		}
	}
	return closed{}, false
}

// mayClose reports whether evs hold anything evidence accepts as closing
// some task, whatever the task: a plan step marked completed, or a user's
// sentence that reports something done.
func mayClose(evs []store.Event, steps []observation.Step) bool {
	for _, s := range steps {
		if s.Status == "completed" {
			return true
		}
	}
	for _, ev := range evs {
		if ev.Type != store.TypeUserPrompt || strings.HasPrefix(strings.TrimSpace(ev.Text), "/") {
			continue
		}
		for _, sp := range sentences(ev.Text) {
			if _, ok := settled(ev.Text[sp[0]:sp[1]]); ok {
				return true
			}
		}
	}
	return false
}

// reportsDone reports whether sentence states, as settled, that the work
// named by want is done: a completion word, no negation or question, and
// the sentence's other content words are the task's.
func reportsDone(sentence string, want map[string]bool) bool {
	s, ok := settled(sentence)
	if !ok {
		return false
	}
	got := words(s)
	for w := range got {
		if completion[w] {
			delete(got, w)
		}
	}
	return matches(got, want)
}

// settled returns sentence in lower case and whether it reports, as
// settled, something done: a completion word, no negation or question.
func settled(sentence string) (string, bool) {
	s := strings.ToLower(sentence)
	if strings.HasSuffix(strings.TrimSpace(s), "?") || strings.Contains(s, "n't") {
		return s, false
	}
	if !holdsCompletion(s) {
		return s, false // most sentences: no word to split s for
	}
	complete := false
	for _, f := range fields(s) {
		if negation[f] {
			return s, false // read before function words go: "not", "yet" are some
		}
		complete = complete || completion[stem(f)]
	}
	return s, complete
}

// holdsCompletion reports whether low holds a completion stem. A word whose
// stem is one holds it (stem cuts an ending, fields trims a word of s), so
// without one settled finds no completion word, and splitting s into words
// was most of closing tasks on a session whose prompts say nothing done.
func holdsCompletion(low string) bool {
	for w := range completion {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// completion words (stemmed) report work finished; negation words that
// it is not, or not yet.
var (
	completion = stems("done", "finished", "fixed", "completed", "resolved", "merged", "shipped", "landed", "passing",
		"implemented", "closed")
	negation = map[string]bool{"not": true, "no": true, "yet": true, "never": true, "still": true, "almost": true, "nearly": true}
)

func stems(ws ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[stem(w)] = true
	}
	return m
}

// matches reports whether got names the same work as want: at least two
// shared words (one, when either side has only one), and the shared words
// at least two thirds of the smaller side. Strict on purpose: a task
// closed by a sentence about something else disappears for good.
func matches(got, want map[string]bool) bool {
	shared := 0
	for w := range got {
		if want[w] {
			shared++
		}
	}
	small := min(len(got), len(want))
	if small == 0 {
		return false
	}
	return shared >= min(2, small) && 3*shared >= 2*small
}

// words are the content words of s, stemmed: no function words (in the
// text's languages), nothing shorter than three letters.
func words(s string) map[string]bool {
	fs := fields(strings.ToLower(s))
	fw := funcwords.For(fs)
	out := map[string]bool{}
	for _, f := range fs {
		if len([]rune(f)) < 3 || fw.Has(f) {
			continue
		}
		out[stem(f)] = true
	}
	return out
}

// fields splits s into words: letters and digits, with inner ' - _.
func fields(s string) []string {
	fs := strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-' && r != '_'
	})
	for i, f := range fs {
		fs[i] = strings.Trim(f, "'-_")
	}
	return fs
}

// stem cuts a common English ending, so that "messages" meets "message"
// and "fixed" meets "fix".
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s", "e"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// sentences splits text into sentence and clause spans [start, end),
// trimmed: "X is done, I did it myself" reports on X in its first clause.
func sentences(text string) [][2]int {
	var out [][2]int
	start := 0
	emit := func(end int) {
		s, e := start, end
		for s < e && unicode.IsSpace(rune(text[s])) {
			s++
		}
		for e > s && (unicode.IsSpace(rune(text[e-1])) || strings.IndexByte(",;:", text[e-1]) >= 0) {
			e--
		}
		if e > s {
			out = append(out, [2]int{s, e})
		}
		start = end
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			emit(i)
		case '.', '!', '?', ',', ';', ':':
			if i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n' {
				emit(i + 1)
			}
		}
	}
	emit(len(text))
	return out
}

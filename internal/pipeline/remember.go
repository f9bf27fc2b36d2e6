package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/align"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

// rememberExtractor names the remember tool as the extractor of the
// memories it saves (entry_extracted's "extractor"): reextract keeps them.
const rememberExtractor = "remember"

// ErrNotAligned is returned by Remember when a quote is not found in the session's messages.
var ErrNotAligned = errors.New("quote not found in the session")

// Remembered is what Remember stored.
type Remembered struct {
	Entry     store.Entry
	Created   bool // false: the project already held the claim, and the quote was added to it
	Conflicts int
}

// Remember stores one memory the model asked to keep, quoting the session:
// the quotes are aligned against the session's messages exactly as an
// extracted entry's are, and the entry is stored only when every quote is
// found. It is verified only when the quotes are found in what the user
// said or a tool read from the world (worldEvents); found only in the
// model's own words, it is stored as a candidate. Otherwise nothing is stored and the error (wrapping
// ErrNotAligned) says which quote failed and why. Conflicts with the
// project's earlier entries are recorded as after extraction. Messages for
// which skip returns true are not quoted from (nil skips none): the memory
// tools' own results, which hold text of other sessions, must not vouch
// for a quote, and neither must the plugin's own CLI. Only stored messages are quoted: a caller quoting the turn
// under way folds the spool first (store.DB.Fold).
func (p *Processor) Remember(ctx context.Context, sessionID string, x extract.Entry, skip func(store.Event) bool) (Remembered, error) {
	var r Remembered
	rd := p.DB.Read()
	sess, err := rd.Session(ctx, sessionID)
	if errors.Is(err, store.ErrNotFound) {
		return r, fmt.Errorf("session %s has no stored messages to quote: %w", sessionID, ErrNotAligned)
	}
	if err != nil {
		return r, err
	}
	evs, err := rd.Events(ctx, store.EventFilter{SessionID: sessionID,
		Types: []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}})
	if err != nil {
		return r, err
	}
	if skip != nil {
		kept := evs[:0]
		for _, e := range evs {
			if !skip(e) {
				kept = append(kept, e)
			}
		}
		evs = kept
	}
	if len(evs) == 0 {
		return r, fmt.Errorf("session %s has no stored messages to quote: %w", sessionID, ErrNotAligned)
	}
	// The model does not know message indexes: every quote is looked for
	// in the whole session (index -1 gives no hint to the aligner).
	for i := range x.Evidence {
		x.Evidence[i].MessageIndex = -1
	}
	// First among what the user said and what tools read from the world:
	// found there, the memory is verified. Then among everything else the
	// model saw, its own words included: found only there, it is saved as a
	// candidate, which the user may verify.
	var e store.Entry
	var events []store.Event
	world := worldEvents(evs, x.Evidence)
	if len(world) > 0 {
		e, events = p.entry(sess, world, align.NewSession(eventTexts(world)), x, rememberExtractor)
	}
	if len(world) > 0 && e.Stage == store.StageVerified && spansInOutput(world, e.Evidence) {
		evs = world
	} else {
		e, events = p.entry(sess, evs, align.NewSession(eventTexts(evs)), x, rememberExtractor)
		if e.Stage != store.StageVerified {
			return r, fmt.Errorf("%s: %w", strings.TrimPrefix(e.PromotionBlocked, "1 of 1 quotes did not align: "), ErrNotAligned)
		}
		unverified(&e, events, "the quote is found only in words the model wrote (its answers, what it put into a tool call, a file it wrote): not evidence")
	}
	if err := store.Prepare(events); err != nil {
		return r, err
	}
	for j, v := range e.Evidence {
		e.Evidence[j].EventID = evs[v.MessageIndex].ID
	}
	err = p.DB.Update(ctx, func(tx *store.Tx) error {
		stored, created, err := tx.PutEntries(ctx, []store.EntryWrite{{Entry: e, Events: events}})
		if err != nil {
			return err
		}
		if len(stored) == 0 {
			return fmt.Errorf("not saved: %w", store.ErrForgotten)
		}
		if r.Conflicts, err = p.detectConflicts(ctx, tx, sess.Project, stored); err != nil {
			return err
		}
		r.Entry, r.Created = stored[0], created[0]
		return nil
	})
	if err != nil {
		return Remembered{Conflicts: r.Conflicts}, err
	}
	return r, nil
}

func eventTexts(evs []store.Event) []string {
	texts := make([]string, len(evs))
	for i, e := range evs {
		texts[i] = e.Text
	}
	return texts
}

// modelWrites reports a tool whose output is what the model put in: a file
// it wrote or edited, its task list, a subagent's answer.
func modelWrites(tool string) bool {
	switch tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit", "TodoWrite":
		return true
	}
	return observation.Subagent(tool)
}

// worldEvents are the events of evs that can vouch for the quotes: the
// user's prompts, and tool calls whose output is what they read from the
// world. A prompt-injected model controls its own answers and everything it
// types into a tool call, so these are left out: a tool that writes
// (modelWrites); a Bash command that is not one that only reads (parseBash:
// an echo, a decoder, an interpreter, a heredoc can print any words); a
// file written in the session (by such a tool or a Bash redirection, tee,
// cp...) read back; a listing or search of the tree (Grep, Glob, ls, grep
// -r, git diff) once the session has written any file, as it may print one;
// a call whose input holds a quote; and one whose input was too long to keep
// (its key ends in "…"), which may hold it unseen.
func worldEvents(evs []store.Event, quotes []extract.Evidence) []store.Event {
	var written []string
	bash := map[int]bashCall{}
	for i, e := range evs {
		if e.Type != store.TypeToolObservation {
			continue
		}
		switch tool := gjson.GetBytes(e.Payload, "tool").String(); {
		case modelWrites(tool):
			for _, f := range gjson.GetBytes(e.Payload, "files").Array() {
				written = append(written, f.String())
			}
		case tool == "Bash" || tool == "BashOutput":
			input, _, _ := strings.Cut(e.Text, "\n")
			c := parseBash(strings.TrimPrefix(input, tool+": "))
			bash[i] = c
			written = append(written, c.writes...)
		}
	}
	isWritten := func(files []string) bool {
		for _, f := range files {
			for _, w := range written {
				if sameFile(f, w) {
					return true
				}
			}
		}
		return false
	}
	var out []store.Event
outer:
	for i, e := range evs {
		switch e.Type {
		case store.TypeUserPrompt:
			out = append(out, e)
			continue
		case store.TypeToolObservation:
		default:
			continue
		}
		tool := gjson.GetBytes(e.Payload, "tool").String()
		var files []string
		for _, f := range gjson.GetBytes(e.Payload, "files").Array() {
			files = append(files, f.String())
		}
		tree := tool == "Grep" || tool == "Glob"
		if c, ok := bash[i]; ok {
			if !c.reads {
				continue
			}
			files, tree = append(files, c.files...), c.tree
		}
		if modelWrites(tool) || isWritten(files) || tree && len(written) > 0 {
			continue
		}
		input, _, _ := strings.Cut(e.Text, "\n")
		if strings.HasSuffix(input, "…") {
			continue
		}
		for _, q := range quotes {
			if strings.Contains(spaced(input), spaced(q.Quote)) {
				continue outer
			}
		}
		out = append(out, e)
	}
	return out
}

// spaced is s lower-cased with its spaces folded, for an echo test that
// does not depend on how the model quoted or spaced it.
func spaced(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.Trim(s, `"'`+"`"))), " ")
}

// spansInOutput reports whether every quote found in a tool observation
// lies in its output, past the line naming the call and its input.
func spansInOutput(evs []store.Event, vs []store.Evidence) bool {
	for _, v := range vs {
		if v.MessageIndex < 0 || v.MessageIndex >= len(evs) {
			return false
		}
		e := evs[v.MessageIndex]
		if e.Type != store.TypeToolObservation {
			continue
		}
		if i := strings.IndexByte(e.Text, '\n'); i < 0 || v.SpanStart <= i {
			return false
		}
	}
	return true
}

// unverified makes e, aligned, a candidate for why, in it and in the
// evidence_aligned event among events.
func unverified(e *store.Entry, events []store.Event, why string) {
	e.Stage, e.PromotionBlocked = store.StageCandidate, why
	for i, ev := range events {
		if ev.Type != store.TypeEvidenceAligned {
			continue
		}
		var m map[string]any
		if json.Unmarshal(ev.Payload, &m) == nil {
			m["stage"], m["promotion_blocked"] = e.Stage, why
			events[i].Payload, _ = json.Marshal(m)
		}
	}
}

package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/align"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

// An old session's raw turns crowd recall over a long history: each is
// ranked on its own words, and a session's prompt, answers and tool runs
// all compete. A digest says in a few lines what the session did (what it
// was asked, the commands it got to pass), decided and left open, and
// recall shows it in place of the turns it stands for (see
// internal/recall). Every line rests on a verbatim quote of the session
// that aligns, in what the user said or a tool read or ran, never in the
// model's own words or the plugin's own output, which vouch for nothing.

// digestExtractor names the digest composer as the extractor of the
// digests (entry_extracted's "extractor").
const digestExtractor = "digest"

// DigestLimit is how many sessions one worker run digests at most: a
// store upgraded with years of history is digested over several runs, and
// each run holds the worker lock briefly.
const DigestLimit = 20

// Lines of a digest, at most, of each kind and in all.
const (
	digestAsked    = 2
	digestPerLabel = 4
	digestMaxLines = 12
	digestQuote    = 200 // bytes of a sentence quoted for "Asked" or a command's output
)

// DigestResult counts what Digests did.
type DigestResult struct {
	Built   int `json:"built"`
	Skipped int `json:"skipped"` // sessions with nothing to quote, marked so
}

// DigestsBefore is the time a session's latest message must be before for
// it to be digested, for a digest age of days.
func DigestsBefore(now time.Time, days int) time.Time {
	return now.Add(-time.Duration(days) * 24 * time.Hour)
}

// Digests builds the digest of up to limit sessions of project (every
// project's when project is "") whose latest message is before before,
// oldest first, each in a transaction of its own. A session with nothing a
// line could quote is marked (store.TypeDigestSkipped) and not read again.
// Running it again changes nothing: a digested session is not due.
func (p *Processor) Digests(ctx context.Context, project string, before time.Time, limit int) (DigestResult, error) {
	var res DigestResult
	var errs []error
	due, err := p.DB.Read().DigestsDue(ctx, project, before, limit)
	if err != nil {
		return res, err
	}
	for _, s := range due {
		var built bool
		err := p.DB.Update(ctx, func(tx *store.Tx) error {
			var err error
			built, err = p.digestIn(ctx, tx, s)
			return err
		})
		if err != nil {
			// One session's failure does not hold back the others; it is
			// due again next run.
			errs = append(errs, fmt.Errorf("digest %s: %w", s.ID, err))
			continue
		}
		if built {
			res.Built++
		} else {
			res.Skipped++
		}
	}
	return res, errors.Join(errs...)
}

// digestLine is one line of a digest and the quote it rests on.
type digestLine struct {
	text  string
	quote string
	at    int // index of the message quoted, among the vouching ones
}

// digestIn builds sess's digest in st, or marks the session as having
// none; it reports whether a digest was stored.
func (p *Processor) digestIn(ctx context.Context, st *store.Tx, sess store.Session) (bool, error) {
	evs, err := st.Events(ctx, store.EventFilter{SessionID: sess.ID,
		Types: []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}})
	if err != nil {
		return false, err
	}
	vouch := vouching(evs)
	var entries []store.Entry
	if len(vouch) > 0 {
		ids := make([]int64, len(vouch))
		for i, e := range vouch {
			ids[i] = e.ID
		}
		quoting, err := st.QuotingEntries(ctx, ids)
		if err != nil {
			return false, err
		}
		if len(quoting) > 0 {
			entries, err = st.Entries(ctx, store.EntryFilter{IDs: quoting, Evidence: true,
				Stages:   []string{store.StageVerified, store.StageCertified},
				Statuses: []string{store.StatusActive, store.StatusContested}})
			if err != nil {
				return false, err
			}
		}
	}
	aligner := align.NewSession(eventTexts(vouch))
	var x extract.Entry
	var lines []string
	used := map[string]bool{}
	for _, l := range digestLines(vouch, entries) {
		// Each quote is aligned as an extracted one is; a line whose quote
		// is not found where it rests (a tool's output, not the call the
		// model typed) is left out, and so is a second line on the same
		// words: every line has a quote of its own.
		s := aligner.Quote(l.quote, l.at)
		if !s.OK() || !inOutput(vouch[s.Message], s.Start) || used[l.quote] {
			continue
		}
		used[l.quote] = true
		lines = append(lines, l.text)
		x.Evidence = append(x.Evidence, extract.Evidence{MessageIndex: s.Message, Quote: l.quote})
	}
	if len(lines) == 0 {
		return false, skipDigest(ctx, st, sess, p.now())
	}
	last := latest(evs)
	x.Type = store.DigestType
	x.Title = "Digest of the session of " + last.UTC().Format("2006-01-02")
	x.Body = strings.Join(lines, "\n")
	// The session's id as the subject makes the claim key the session's:
	// a rebuilt digest lands on the same row.
	x.Subject = "session " + sess.ID
	e, events := p.entry(sess, vouch, aligner, x, digestExtractor)
	if e.Stage != store.StageVerified {
		return false, fmt.Errorf("digest %s: %s", sess.ID, e.PromotionBlocked) // every quote was aligned above
	}
	e.Created = last
	for j, v := range e.Evidence {
		e.Evidence[j].EventID = vouch[v.MessageIndex].ID
	}
	if err := store.Prepare(events); err != nil {
		return false, err
	}
	stored, _, err := st.PutEntries(ctx, []store.EntryWrite{{Entry: e, Events: events}})
	if err != nil {
		return false, err
	}
	if len(stored) == 0 {
		// A forget's rule covers it: marked, or the session would stay due
		// and, oldest first, hold back every newer one.
		return false, skipDigest(ctx, st, sess, p.now())
	}
	// A digest decides nothing of its own: no role for conflict detection
	// to parse out of it.
	return true, st.SetEntryRoles(ctx, stored[0].ID, sess.Project, nil)
}

// skipDigest marks sess as having no digest, so that it is not read again.
func skipDigest(ctx context.Context, st *store.Tx, sess store.Session, now time.Time) error {
	_, err := st.Append(ctx, store.Event{Time: now, Type: store.TypeDigestSkipped, SessionID: sess.ID, Project: sess.Project,
		DedupeKey: store.DigestSkippedKey(sess.ID)})
	return err
}

// dropStaleDigest deletes the digest of a session resumed since it was
// built: it no longer tells what the session did. The worker builds it
// again once the session's latest message is old enough.
func dropStaleDigest(ctx context.Context, st *store.Tx, plan *Plan) error {
	ds, err := st.Entries(ctx, store.EntryFilter{SessionID: plan.Session.ID, Types: []string{store.DigestType}})
	if err != nil || len(ds) == 0 {
		return err
	}
	last := latest(plan.Events)
	var stale []int64
	for _, d := range ds {
		if last.After(d.Created) {
			stale = append(stale, d.ID)
		}
	}
	_, err = st.RetireEntries(ctx, stale, nil)
	return err
}

// latest is the time of the newest of evs.
func latest(evs []store.Event) time.Time {
	var t time.Time
	for _, e := range evs {
		if e.Time.After(t) {
			t = e.Time
		}
	}
	return t
}

// vouching are the messages of evs a digest line may quote: what the user
// typed (not a slash command, which runs a command rather than saying
// something), and the tool calls whose output is the world's, not the
// model's or the plugin's: not a tool that writes what the model gives it,
// not a command line naming a program that prints words it is given, not
// the plugin's own CLI or MCP tools (their output is memory, not the
// session). The model's answers never vouch.
func vouching(evs []store.Event) []store.Event {
	var out []store.Event
	for _, e := range evs {
		switch e.Type {
		case store.TypeUserPrompt:
			if t := strings.TrimSpace(e.Text); t != "" && !strings.HasPrefix(t, "/") {
				out = append(out, e)
			}
		case store.TypeToolObservation:
			if PluginCall(e) {
				continue
			}
			tool := gjson.GetBytes(e.Payload, "tool").String()
			if modelWrites(tool) {
				continue
			}
			if tool == "Bash" || tool == "BashOutput" {
				input, _, _ := strings.Cut(e.Text, "\n")
				if slices.ContainsFunc(strings.Fields(input), func(w string) bool { return printsWords[path.Base(w)] }) {
					continue
				}
			}
			out = append(out, e)
		}
	}
	return out
}

// PluginCall reports whether ev records a call of the plugin's own MCP
// tools or of its CLI (on Claude's PATH while the plugin is enabled):
// their results show memories and other sessions, so they vouch for
// nothing said in this one. The CLI counts when a command of the line runs
// it, not when a path merely holds its name (a checkout of the plugin).
func PluginCall(ev store.Event) bool {
	if ev.Type != store.TypeToolObservation {
		return false
	}
	tool := gjson.GetBytes(ev.Payload, "tool").String()
	if tool == "Bash" {
		input, _, _ := strings.Cut(ev.Text, "\n")
		return slices.Contains(Programs(strings.TrimPrefix(input, "Bash: ")), "claude-memory-layer")
	}
	return strings.HasPrefix(tool, "mcp__") && strings.Contains(tool, "memory-layer_")
}

// inOutput reports whether a span starting at start lies in what e says:
// for a tool call, past the line naming the call and its input.
func inOutput(e store.Event, start int) bool {
	if e.Type != store.TypeToolObservation {
		return true
	}
	i := strings.IndexByte(e.Text, '\n')
	return i >= 0 && start > i
}

// digestLines composes a digest's lines from the vouching messages of a
// session and the verified entries quoting them: what was asked, decided,
// learned, done and left open, each with its quote.
func digestLines(vouch []store.Event, entries []store.Entry) []digestLine {
	at := make(map[int64]int, len(vouch))
	for i, e := range vouch {
		at[e.ID] = i
	}
	var asked, decided, learned, done, open []digestLine
	slices.SortStableFunc(entries, func(a, b store.Entry) int { return a.Created.Compare(b.Created) })
	for _, e := range entries {
		if e.Type == store.DigestType {
			continue
		}
		// The words of the message where the entry's quote was found, as
		// stored: verbatim, whatever the extractor quoted.
		var l digestLine
		for _, v := range e.Evidence {
			i, ok := at[v.EventID]
			if !ok || !v.Aligned() || v.SpanStart < 0 || v.SpanEnd > len(vouch[i].Text) || v.SpanStart >= v.SpanEnd {
				continue
			}
			l = digestLine{quote: vouch[i].Text[v.SpanStart:v.SpanEnd], at: i}
			break
		}
		if l.quote == "" {
			continue // said only by the model in this session
		}
		title := oneLine(e.Title)
		switch e.Type {
		case "decision", "constraint", "preference":
			l.text = "Decided: " + title
			decided = appendMax(decided, l)
		case "task":
			l.text = "Open: " + title
			open = appendMax(open, l)
		default:
			l.text = "Learned: " + title
			learned = appendMax(learned, l)
		}
	}
	// What the user asked for, from the prompts no line above quotes
	// already: a prompt that decided something is told by its decision.
	quoted := map[int]bool{}
	for _, ls := range [][]digestLine{decided, learned, open} {
		for _, l := range ls {
			quoted[l.at] = true
		}
	}
	for i, e := range vouch {
		if len(asked) == digestAsked {
			break
		}
		if e.Type != store.TypeUserPrompt || quoted[i] {
			continue
		}
		if s := firstSentence(e.Text); s != "" {
			asked = append(asked, digestLine{text: "Asked: " + s, quote: s, at: i})
		}
	}
	fixed, failing := commandLines(vouch)
	for _, l := range fixed {
		done = appendMax(done, l)
	}
	for _, l := range failing {
		open = appendMax(open, l)
	}
	var out []digestLine
	for _, ls := range [][]digestLine{asked, decided, done, learned, open} {
		out = append(out, ls...)
	}
	return out[:min(len(out), digestMaxLines)]
}

func appendMax(ls []digestLine, l digestLine) []digestLine {
	if len(ls) == digestPerLabel {
		return ls
	}
	return append(ls, l)
}

// commandLines are the lines of the shell commands of the session that
// failed and then passed, and of those whose last run failed, as summary
// counts them, each quoting the last line of its last run's output.
func commandLines(vouch []store.Event) (fixed, failing []digestLine) {
	for _, r := range commandRuns(vouch) {
		l := digestLine{quote: lastLine(vouch[r.at].Text), at: r.at}
		if l.quote == "" {
			continue
		}
		switch {
		case r.failed && !r.last:
			l.text = fmt.Sprintf("Done: `%s` failed, then passed: %s", clipCmd(r.cmd), l.quote)
			fixed = append(fixed, l)
		case r.last:
			l.text = fmt.Sprintf("Open: `%s` still fails: %s", clipCmd(r.cmd), l.quote)
			failing = append(failing, l)
		}
	}
	return fixed, failing
}

// lastLine is the last line of a tool observation's output holding a
// letter or a digit, clipped to digestQuote bytes on a word; "" when the
// output has none.
func lastLine(text string) string {
	_, out, ok := strings.Cut(text, "\n")
	if !ok {
		return ""
	}
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if strings.IndexFunc(l, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			return clipWords(l, digestQuote)
		}
	}
	return ""
}

// firstSentence is the first sentence of a prompt holding a letter, as
// written, clipped to digestQuote bytes on a word.
func firstSentence(text string) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.IndexFunc(line, unicode.IsLetter) < 0 {
			continue
		}
		for i, r := range line {
			if (r == '.' || r == '?' || r == '!') && (i+1 == len(line) || line[i+1] == ' ') {
				line = line[:i+1]
				break
			}
		}
		return clipWords(line, digestQuote)
	}
	return ""
}

// clipWords cuts s to at most n bytes at the end of a word; the result is
// still a verbatim part of s.
func clipWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut <= 0 {
		return ""
	}
	return strings.TrimSpace(s[:cut])
}

// oneLine folds a title's white space, so a digest line is one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

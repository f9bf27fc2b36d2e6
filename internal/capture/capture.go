// Package capture turns hook events and transcripts into privacy-filtered events in the store.
package capture

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
	"github.com/tidwall/gjson"
)

// MaxText caps the text of one stored message. Longer prompts (a pasted 10 MB
// log) are cut; the payload records the original size.
const MaxText = 256 << 10

// filterWindow bounds the privacy filter's work on a long text, so a 64 MB
// prompt costs what 1 MB does. maxSecret is the longest secret the filter
// must see whole (a private key block is a few KB).
const (
	filterWindow = 4 * MaxText
	maxSecret    = 64 << 10
)

// Recorder writes captured activity into a store. Every path goes through
// Recorder, so every path is privacy-filtered the same way.
type Recorder struct {
	DB  *store.DB
	Log *slog.Logger
	// Spool is the hook's reader of its session's spooled events, shared
	// with its other readers (store.SessionSpool); nil reads the files.
	Spool *store.SessionSpool
}

// clean prepares text for storage: valid UTF-8, private sections, secrets and
// the plugin's own injected context removed, at most MaxText bytes.
//
// The filter runs before the cut: a secret straddling the cut would lose the
// shape the filter knows it by and leave its head stored. On a text longer
// than filterWindow a secret may straddle the window's end instead; it then
// lies within the filtered window's last maxSecret bytes (masking only
// shortens text), so the final cut keeps clear of them.
func clean(s string) (text string, truncated bool) {
	text, truncated, _ = cleanReport(s)
	return text, truncated
}

// cleanPrompt is clean for a prompt, which goes on with a private section
// when an earlier prompt of its session left one open (continues). It
// also reports whether this prompt leaves one open.
func cleanPrompt(s string, continues bool) (text string, truncated, open bool) {
	if continues {
		s = privateOpen + s
	}
	text, truncated, r := cleanReport(s)
	if len(s) > filterWindow {
		// The filter read the head only. Whether a private section goes on
		// into the next prompt, or one closed past the head hid the head,
		// is read from the whole prompt.
		var closesPast bool
		if r.Open, closesPast = privacy.Sections(s, runeStart(s, filterWindow)); closesPast {
			text = privacy.PrivateMarker
		}
	}
	return text, truncated, r.Open
}

// privateOpen opens a private section.
const privateOpen = "<private>"

// cleanReport is clean that also returns the filter's report.
func cleanReport(s string) (text string, truncated bool, r privacy.Report) {
	keep := MaxText
	if len(s) > filterWindow {
		s, truncated = s[:runeStart(s, filterWindow)], true
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s, r = privacy.FilterReport(s)
	if truncated {
		keep = min(keep, len(s)-maxSecret)
	}
	if len(s) > keep {
		s, truncated = s[:runeStart(s, max(keep, 0))], true
	}
	return strings.TrimSpace(s), truncated, r
}

// runeStart is the largest index ≤ i that starts a rune in s.
func runeStart(s string, i int) int {
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func payload(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// Session is the identity of the session a capture belongs to.
type Session struct {
	ID      string
	Project string
}

// PromptEvent is the event of a prompt from UserPromptSubmit, filtered for
// privacy (a private section the session's last prompt left open included)
// and keyed by prompt id so that the transcript's copy of it is recognised
// later; ok is false when nothing of the prompt is left to store.
func (r *Recorder) PromptEvent(ctx context.Context, s Session, promptID, prompt string, at time.Time) (ev store.Event, ok bool, err error) {
	continues, _, err := r.privateOpen(ctx, s.ID)
	if err != nil {
		return store.Event{}, false, err
	}
	text, truncated, open := cleanPrompt(prompt, continues)
	if text == "" {
		return store.Event{}, false, nil
	}
	// Older Claude Code versions leave prompt_id out of the hook input or
	// promptId out of the transcript row; the keys then differ and only the
	// content tells the two copies apart (see messageEvent).
	key := store.Key(store.KeyPrompt, s.ID, promptID)
	same := []store.KeyKind{store.KeyRow} // a transcript row without promptId, stored first
	if promptID == "" {
		key = store.Key(store.KeyPromptHash, s.ID, hash(text))
		same = []store.KeyKind{store.KeyAny} // any copy of the transcript's, stored first
	}
	data := map[string]any{"prompt_id": promptID, "source": "hook", "truncated": truncated, "bytes": len(prompt)}
	if open {
		data["private_open"] = true
	}
	return store.Event{
		Time: at, Type: store.TypeUserPrompt, SessionID: s.ID, Project: s.Project, Text: text, DedupeKey: key, SameContentAs: same,
		Payload: payload(data),
	}, true, nil
}

// privateOpen reports whether the session's last stored prompt left a
// private section open, and that prompt's id: a user who opens <private>
// in one prompt and closes it two prompts later keeps the prompt in
// between private too.
func (r *Recorder) privateOpen(ctx context.Context, sessionID string) (open bool, promptID string, err error) {
	// The last prompt may still wait in the spool (UserPromptSubmit): a
	// turn the user interrupted has no Stop to fold it in. The spool is
	// read first: a fold meanwhile moves its records to the database.
	spooled := r.Spool.Spooled(r.DB, sessionID, store.TypeUserPrompt)
	evs, err := r.DB.Read().Events(ctx, store.EventFilter{SessionID: sessionID, Types: []string{store.TypeUserPrompt}, Newest: true, Limit: 1})
	if err != nil {
		return false, "", err
	}
	if len(spooled) > 0 {
		if last := spooled[len(spooled)-1]; len(evs) == 0 || !last.Time.Before(evs[0].Time) {
			evs = []store.Event{last}
		}
	}
	if len(evs) == 0 {
		return false, "", nil
	}
	p := gjson.ParseBytes(evs[0].Payload)
	return p.Get("private_open").Bool(), p.Get("prompt_id").String(), nil
}

// StopAnswer stores the final answer the Stop hook reports. The transcript may
// lag behind Stop, so this copy may be the only one; when the transcript's row
// arrives (or was there already) the content check keeps just one.
func (r *Recorder) StopAnswer(ctx context.Context, s Session, promptID, answer string, at time.Time) (int, error) {
	text, truncated := clean(answer)
	if text == "" {
		return 0, nil
	}
	return r.append(ctx, store.Event{
		Time: at, Type: store.TypeAgentResponse, SessionID: s.ID, Project: s.Project, Text: text,
		DedupeKey: store.Key(store.KeyStop, s.ID, promptID, hash(text)), SameContentAs: []store.KeyKind{store.KeyAny},
		Payload: payload(map[string]any{"prompt_id": promptID, "source": "stop_hook", "truncated": truncated}),
	})
}

// ToolEvent is the event of a compact observation of a tool call from
// PostToolUse(Failure), filtered for privacy, with the prompt id of its turn
// (the citation check at Stop finds the memories a turn's tools showed by
// it); ok is false when nothing of the call is left to store.
func ToolEvent(s Session, promptID, toolUseID string, o observation.Observation, at time.Time) (ev store.Event, ok bool) {
	text, _ := clean(o.Text())
	if text == "" {
		return store.Event{}, false
	}
	key := store.Key(store.KeyTool, s.ID, toolUseID)
	if toolUseID == "" {
		key = store.Key(store.KeyTool, s.ID, "h"+hash(text, at.String()))
	}
	return store.Event{
		Time: at, Type: store.TypeToolObservation, SessionID: s.ID, Project: s.Project, Text: text, DedupeKey: key,
		Payload: payload(toolPayload(o, firstLine(text), promptID, toolUseID)),
	}, true
}

func toolPayload(o observation.Observation, key, promptID, toolUseID string) map[string]any {
	p := map[string]any{"tool": o.Tool, "key": key, "files": o.Files, "is_error": o.IsError, "tool_use_id": toolUseID, "source": "hook"}
	if promptID != "" {
		p["prompt_id"] = promptID
	}
	if len(o.Memories) > 0 {
		p["memories"] = o.Memories
	}
	return p
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Mark stores a bookkeeping event (session_started, session_ended) whose key
// is derived from the raw hook input, so a re-run of the same hook adds nothing.
func (r *Recorder) Mark(ctx context.Context, s Session, typ string, raw []byte, at time.Time, data map[string]any) (int, error) {
	return r.append(ctx, MarkEvent(s, typ, raw, at, data))
}

// End records that session s ended for reason at at: its session_ended
// mark (keyed by raw, as Mark) and the session's end time, in one
// transaction. On an error neither is stored: the worker SessionEnd then
// hands the end to records it under a key of its own, and a mark left by
// the failed attempt would make that a second end.
func (r *Recorder) End(ctx context.Context, s Session, reason string, raw []byte, at time.Time) error {
	if now := r.DB.Now(); at.After(now) {
		at = now // as the mark's own time is: the session and its mark agree
	}
	return r.DB.Update(ctx, func(tx *store.Tx) error {
		if _, err := tx.Append(ctx, MarkEvent(s, store.TypeSessionEnded, raw, at, map[string]any{"reason": reason})); err != nil {
			return err // Append's errors say what failed
		}
		return tx.EndSession(ctx, s.ID, reason, at)
	})
}

// MarkEvent is the event Mark stores.
func MarkEvent(s Session, typ string, raw []byte, at time.Time, data map[string]any) store.Event {
	return store.Event{
		Time: at, Type: typ, SessionID: s.ID, Project: s.Project,
		DedupeKey: store.Key(store.KeyKind(typ), s.ID, hash(string(raw))), Payload: payload(data),
	}
}

// IngestResult counts what one transcript ingest did.
type IngestResult struct {
	Messages, Added, Duplicates int
	Offset                      int64
	IDs                         []int64 // of the added events, in order
}

// Increment is the part of a session's transcript not ingested yet, as the
// privacy-filtered events to store.
type Increment struct {
	Messages int           // transcript messages read
	Events   []store.Event // their events, in order (a message with nothing to store has none)
	Offset   int64         // where the next read starts
	More     bool          // the read stopped at its step size, before the end of the transcript
	// Reread says the transcript was shorter than the stored offset
	// (replaced or cut) and was read from its start: Offset then replaces
	// the stored offset, even moving it back.
	Reread bool
}

// append stores one event in a transaction of its own and reports whether
// it was new (1) or a duplicate (0).
func (r *Recorder) append(ctx context.Context, ev store.Event) (int, error) {
	var res store.AppendResult
	err := r.DB.Update(ctx, func(tx *store.Tx) error {
		var err error
		res, err = tx.Append(ctx, ev)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("append: %w", err)
	}
	return res.Added, nil
}

// Ingest reads a session's transcript from its stored offset and appends what
// is new. Live (final=false) it leaves an answer that may still grow for the
// next call. A transcript that does not exist yet is not an error: Claude Code
// creates it only after the first turn.
func (r *Recorder) Ingest(ctx context.Context, sess store.Session, final bool) (IngestResult, error) {
	open, last, err := r.privateOpen(ctx, sess.ID)
	if err != nil {
		return IngestResult{}, err
	}
	inc, err := r.read(sess, final, open, last, math.MaxInt64)
	if err != nil {
		return IngestResult{}, err
	}
	return r.write(ctx, sess, inc)
}

// write is Write in a transaction of its own.
func (r *Recorder) write(ctx context.Context, sess store.Session, inc Increment) (res IngestResult, err error) {
	err = r.DB.Update(ctx, func(tx *store.Tx) error {
		res, err = Write(ctx, tx, sess, inc)
		return err
	})
	return res, err
}

// IngestSteps is Ingest a step of about n bytes at a time, each stored
// before the next is read, so that memory stays bounded and a caller with a
// deadline keeps what it stored. Before each step it asks next, passing the
// longest step so far; it stops when next says no and then reports that rows
// were left. sess.Offset follows what was stored.
//
// It reads up to the size the transcript had when it started: a transcript
// that keeps growing (or a hostile file that never ends) is not chased, and
// what grew is left for the next call.
func (r *Recorder) IngestSteps(ctx context.Context, sess *store.Session, final bool, n int64, next func(slowest time.Duration) bool) (rest bool, err error) {
	var slowest time.Duration
	size := int64(-1)
	if fi, err := os.Stat(sess.TranscriptPath); err == nil {
		size = fi.Size()
	}
	for {
		if ctx.Err() != nil || !next(slowest) {
			return true, nil
		}
		start := time.Now()
		// Each step goes on with the private section the last stored
		// prompt left open, as Ingest does.
		open, last, err := r.privateOpen(ctx, sess.ID)
		if err != nil {
			return false, err
		}
		inc, err := r.read(*sess, final, open, last, n)
		if err != nil {
			return false, err
		}
		if _, err := r.write(ctx, *sess, inc); err != nil {
			return true, err
		}
		// Not max: after the transcript shrank, the step read from its start.
		sess.Offset = inc.Offset
		if !inc.More {
			return false, nil
		}
		if size >= 0 && inc.Offset >= size {
			return true, nil
		}
		slowest = max(slowest, time.Since(start))
	}
}

// Read reads a session's transcript from its stored offset into an
// increment; see Ingest.
func (r *Recorder) Read(sess store.Session, final bool) (Increment, error) {
	return r.read(sess, final, false, "", math.MaxInt64)
}

// read is Read for a session whose last stored prompt, last, left a private
// section open (open) or not, stopping after about n bytes (transcript.ReadN)
// and then setting the increment's More: a hook with a deadline stores one
// step at a time. Prompts after last go on with that section; when the
// transcript holds last itself, the state is worked out again from the start
// of what is read.
func (r *Recorder) read(sess store.Session, final, open bool, last string, n int64) (Increment, error) {
	inc := Increment{Offset: sess.Offset}
	if sess.TranscriptPath == "" {
		return inc, nil
	}
	off := sess.Offset
	reread := false
	if fi, err := os.Stat(sess.TranscriptPath); err == nil && fi.Size() < off {
		// The file was replaced or cut; re-read it whole. Dedupe keys keep
		// what we have from being stored twice.
		r.Log.Warn("transcript shrank; re-reading", "path", sess.TranscriptPath, "size", fi.Size(), "offset", off)
		off, reread = 0, true
	}
	batch, err := transcript.ReadFileN(sess.TranscriptPath, off, final, n)
	if errors.Is(err, os.ErrNotExist) {
		return inc, nil
	}
	if err != nil {
		return inc, fmt.Errorf("ingest %s: %w", sess.TranscriptPath, err)
	}
	inc.Messages = len(batch.Messages)
	inc.Offset = batch.Offset
	inc.More = batch.More
	inc.Reread = reread
	inc.Events = make([]store.Event, 0, len(batch.Messages))
	if last != "" && slices.ContainsFunc(batch.Messages, func(m transcript.Message) bool { return m.PromptID == last }) {
		open = false
	}
	for _, m := range batch.Messages {
		if ev, ok := messageEvent(sess, m, &open); ok {
			inc.Events = append(inc.Events, ev)
		}
	}
	return inc, nil
}

// ReadSubagents reads the file edits of the session's subagents from their
// transcripts, files (transcript.SubagentFiles), as PostToolUse keeps them
// live (observation.BySubagentKept): an import of a session that ran them
// gets them too. Each file is read whole; the calls' keys make a second
// read add nothing. A file that cannot be read is logged and passed over:
// the session's own transcript is imported all the same.
func (r *Recorder) ReadSubagents(sess store.Session, files []string) []store.Event {
	var out []store.Event
	for _, path := range files {
		batch, err := transcript.ReadFile(path, 0, true)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, transcript.ErrNotRegular) {
				r.Log.Warn("read a subagent's transcript", "path", path, "err", err)
			}
			continue
		}
		open := false
		for _, m := range batch.Messages {
			if m.Kind != transcript.ToolCall || !observation.BySubagentKept(m.Tool.Name) {
				continue // a row the file did not mark as a subagent's
			}
			if ev, ok := messageEvent(sess, m, &open); ok {
				out = append(out, ev)
			}
		}
	}
	return out
}

// Write stores an increment read for sess in tx and moves the session's
// offset past it.
func Write(ctx context.Context, to *store.Tx, sess store.Session, inc Increment) (IngestResult, error) {
	res := IngestResult{Messages: inc.Messages, Offset: inc.Offset}
	ar, err := to.Append(ctx, inc.Events...)
	if err != nil {
		return res, fmt.Errorf("ingest %s: %w", sess.TranscriptPath, err)
	}
	res.Added, res.Duplicates, res.IDs = ar.Added, ar.Duplicates, ar.IDs
	switch {
	case inc.Reread:
		// Left where it was, the offset would have the next read start
		// inside the new file once it grew past the old one's length.
		if err := to.SetOffset(ctx, sess.ID, inc.Offset); err != nil {
			return res, err
		}
	case inc.Offset > sess.Offset:
		if err := to.AdvanceOffset(ctx, sess.ID, sess.Offset, inc.Offset); err != nil {
			return res, err
		}
	}
	return res, nil
}

// messageEvent turns a transcript message into the event that hooks would have
// written for it, with the same dedupe key, so hook and transcript copies meet.
// open carries, from prompt to prompt, whether a private section is open.
func messageEvent(sess store.Session, m transcript.Message, open *bool) (store.Event, bool) {
	ev := store.Event{Time: m.Timestamp, SessionID: sess.ID, Project: sess.Project, SourceUUID: m.UUID}
	var data any
	var truncated bool
	switch m.Kind {
	case transcript.Prompt:
		ev.Type = store.TypeUserPrompt
		ev.Text, truncated, *open = cleanPrompt(m.Text, *open)
		ev.DedupeKey = store.Key(store.KeyPrompt, sess.ID, m.PromptID)
		// The hook's copy has the same key when both sides carry the prompt
		// id; when one lacks it, the same text under the hook's keys is the
		// same prompt: a prompt by hash when the hook had no id, any prompt
		// key when the row has none.
		ev.SameContentAs = []store.KeyKind{store.KeyPromptHash}
		if m.PromptID == "" {
			ev.DedupeKey = store.Key(store.KeyRow, sess.ID, m.UUID)
			ev.SameContentAs = []store.KeyKind{store.KeyPrompt, store.KeyPromptHash}
		}
		// private_open is absent when false, as in stores from before it.
		data = promptData{PrivateOpen: *open, PromptID: m.PromptID, Source: "transcript", Truncated: truncated, UUIDs: m.UUIDs}
	case transcript.Response:
		ev.Type = store.TypeAgentResponse
		ev.Text, truncated = clean(m.Text)
		ev.DedupeKey = store.Key(store.KeyMessage, sess.ID, m.MessageID)
		if m.MessageID == "" {
			ev.DedupeKey = store.Key(store.KeyRow, sess.ID, m.UUID)
		}
		ev.SameContentAs = []store.KeyKind{store.KeyStop}
		data = responseData{MessageID: m.MessageID, Source: "transcript", Truncated: truncated, UUIDs: m.UUIDs}
	case transcript.ToolCall:
		if m.Tool == nil {
			return ev, false
		}
		if m.Tool.Shell && *open {
			// A command the user ran in shell mode, inside a private
			// section of the conversation: as private as the prompt.
			return ev, false
		}
		o := observation.Build(m.Tool.Name, gjson.ParseBytes(m.Tool.Input), m.Tool.Output, m.Tool.IsError)
		ev.Type = store.TypeToolObservation
		ev.Text, _ = clean(o.Text())
		ev.DedupeKey = store.Key(store.KeyTool, sess.ID, m.Tool.ID)
		if m.Tool.ID == "" {
			// A command the user ran in shell mode has no tool id; nor has
			// a call of a damaged row. The row is the call.
			ev.DedupeKey = store.Key(store.KeyRow, sess.ID, m.UUID)
		}
		data = toolData{Files: o.Files, IsError: o.IsError, Key: firstLine(ev.Text), Source: "transcript", Tool: o.Tool, ToolUseID: m.Tool.ID, UUIDs: m.UUIDs}
	default:
		return ev, false
	}
	if ev.Text == "" {
		return ev, false
	}
	ev.Payload = payload(data)
	return ev, true
}

// The payloads of a transcript's events. encoding/json writes a struct's
// fields in their order and a map's keys sorted, so the fields are in the
// order of their keys: the payloads are those of the maps they replace
// (which cost a reflected copy of every key and value), byte for byte.
type promptData struct {
	PrivateOpen bool     `json:"private_open,omitempty"`
	PromptID    string   `json:"prompt_id"`
	Source      string   `json:"source"`
	Truncated   bool     `json:"truncated"`
	UUIDs       []string `json:"uuids"`
}

type responseData struct {
	MessageID string   `json:"message_id"`
	Source    string   `json:"source"`
	Truncated bool     `json:"truncated"`
	UUIDs     []string `json:"uuids"`
}

// toolData's Truncated stays false: a tool call's text is cut by
// observation.Build, and clean's flag was never kept for it.
type toolData struct {
	Files     []string `json:"files"`
	IsError   bool     `json:"is_error"`
	Key       string   `json:"key"`
	Source    string   `json:"source"`
	Tool      string   `json:"tool"`
	ToolUseID string   `json:"tool_use_id"`
	Truncated bool     `json:"truncated"`
	UUIDs     []string `json:"uuids"`
}

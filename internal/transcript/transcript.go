// Package transcript reads Claude Code session transcripts (JSONL) into messages.
package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
)

// Kind is what a Message records.
type Kind string

// The kinds of message a transcript yields.
const (
	Prompt   Kind = "user_prompt"      // what the user typed
	Response Kind = "agent_response"   // assistant text (text blocks of one API message, merged)
	ToolCall Kind = "tool_observation" // a tool_use with its tool_result
)

// Message is one prompt, response or tool call assembled from one or more
// transcript rows. All strings are valid UTF-8: invalid bytes become U+FFFD.
type Message struct {
	Kind Kind
	// UUID is the uuid of the row the message starts on: the prompt row, the
	// first row holding text of a response, or for a ToolCall the tool_result
	// row if seen, else the tool_use row.
	UUID      string
	UUIDs     []string  // every row merged into it, in order
	SessionID string    // of the first row
	PromptID  string    // promptId of a Prompt's row; empty for other kinds
	MessageID string    // assistant message.id of a Response or ToolCall
	Timestamp time.Time // of the first row; zero if missing or malformed
	Cwd       string    // of the first row
	// Text is the user's text of a Prompt (a slash command as "/name args",
	// a shell-mode command as "!cmd"), or the text blocks of a Response
	// joined with "\n\n". It is empty for a ToolCall; see Tool.
	Text string
	Tool *Tool // ToolCall only
}

// Tool is a tool call and its result.
type Tool struct {
	ID     string          // tool_use id (toolu_…)
	Name   string          // tool name (Read, Bash, mcp__server__tool, ...)
	Input  json.RawMessage // tool_use input, verbatim; nil if absent
	Output string          // tool_result content as text: string content, or text blocks joined with "\n" (images as "[image]")
	// IsError reports the tool_result's is_error flag.
	IsError bool
	// HasResult reports whether the tool_result was seen. It is false for a
	// call abandoned before its result (a later prompt or interrupt shows it)
	// and for calls still open when a final read ends.
	HasResult bool
	// Shell reports a command the user ran in shell mode ("!cmd"), not a
	// tool call of the model's: it has no ID.
	Shell bool
}

// Batch is the result of one Read.
type Batch struct {
	Messages []Message
	// Offset is where the next Read should start: just past the last row
	// fully consumed. It is always at a line boundary (or the start offset),
	// except inside a line longer than MaxLine (see ReadN).
	Offset int64
	// Rows counts the complete, non-empty lines read. Skipped counts those
	// that contributed to no message: unparseable, of an ignored type or
	// flag, duplicates, or with nothing to keep (thinking blocks, markers).
	// Rows held back by a live read are counted again by the next Read.
	Rows, Skipped int
	// More reports that ReadN stopped at its byte limit before the end.
	More bool
}

// MaxLine is the longest line Read keeps. A longer one (a 2 GB file with
// no newline, say) is consumed without being held in memory and counted in
// Skipped: no hook event or API message comes near it.
const MaxLine = 64 << 20

// Read reads the transcript in r from byte offset off, which must be 0 or an
// Offset returned by an earlier Read of the same transcript.
//
// Only complete lines are consumed: a last line without its trailing "\n" may
// still be being written, so Offset stays before it even if it parses. A
// complete line that fails to parse is counted in Skipped and consumed.
//
// With final=false (a live session), a message that may still grow is held
// back: an assistant message until a stop_reason, a user row or another
// assistant message shows it ended, and a tool call until its result arrives
// or a later user row that carries no tool result (a prompt, an interrupt)
// shows it was abandoned. Held-back messages are not emitted and Offset stays at
// the start of the earliest of them, so the next Read picks them up whole and
// no message is ever emitted twice. With final=true (session end, import)
// everything complete is emitted; open tool calls get HasResult=false.
//
// Read returns an error only if r fails or off is negative; malformed
// content is never an error.
func Read(r io.ReaderAt, off int64, final bool) (Batch, error) {
	return ReadN(r, off, final, math.MaxInt64)
}

// ReadN is Read that stops once it has consumed n bytes or more, at the end
// of a line, and then sets More: a caller with a deadline stores what one
// call returns and calls again from Offset while it has time. A message that
// a stop may have cut is held back as in a live read, so the next call
// emits it whole. Each call consumes something: when a held-back message
// fills the whole step, ReadN reads a longer one (up to MaxLine), and past
// that emits the message as it is, as a final read would.
//
// Inside a line longer than MaxLine, ReadN may stop mid-line, with Offset
// there; the rest of that line is read next time as a line that does not
// parse. (A suffix of one JSON object is never a JSON object.)
func ReadN(r io.ReaderAt, off int64, final bool, n int64) (Batch, error) {
	if off < 0 {
		return Batch{Offset: off}, fmt.Errorf("read transcript: negative offset %d", off)
	}
	br := bufio.NewReaderSize(io.NewSectionReader(r, off, math.MaxInt64-off), 64<<10)
	b := newBuilder()
	cur, start := off, off // bytes consumed; where the current line started
	var long []byte        // accumulates a line longer than br's buffer
	dropped := false       // the current line outgrew MaxLine: its bytes are not kept
	more := false
	for {
		line, err := br.ReadSlice('\n')
		cur += int64(len(line))
		if errors.Is(err, bufio.ErrBufferFull) {
			if !dropped {
				long = grow(long, len(line))
				long = append(long, line...)
				if len(long) > MaxLine {
					dropped, long = true, nil
				}
			}
			if dropped && cur-off >= n {
				b.skip(start)
				start, more = cur, true
				break
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return Batch{Offset: off}, fmt.Errorf("read transcript at offset %d: %w", cur, err)
		}
		if err != nil {
			// What is left has no newline yet: leave it for a later Read,
			// unless it is already too long to keep. Then it is consumed,
			// so that no later Read scans it again.
			if dropped {
				b.skip(start)
				start = cur
			}
			break
		}
		switch {
		case dropped:
			b.skip(start)
		case len(long) > 0:
			b.line(start, append(long, line...))
		default:
			b.line(start, line)
		}
		start, long, dropped = cur, long[:0], false
		if cur-off >= n {
			more = true
			break
		}
	}
	if !more {
		return b.finish(start, final), nil
	}
	out := b.finish(start, false)
	if out.Offset == off {
		// One held-back message fills the whole step: read a longer one,
		// up to MaxLine, then emit what there is as a final read would.
		if n < MaxLine {
			return ReadN(r, off, final, 2*n)
		}
		out = b.finish(start, true)
	}
	out.More = true
	return out, nil
}

// grow makes room for n more bytes in b, doubling its capacity: append
// grows large slices by a quarter at a time, which copies a 64 MB line
// about five times over.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	nb := make([]byte, len(b), max(2*cap(b), len(b)+n))
	copy(nb, b)
	return nb
}

// ReadFile is Read on the file at path. An error wraps os.ErrNotExist if the
// file does not exist, and ErrNotRegular if it is not a regular file.
func ReadFile(path string, off int64, final bool) (Batch, error) {
	return ReadFileN(path, off, final, math.MaxInt64)
}

// ReadFileN is ReadN on the file at path; errors as ReadFile. It reads up
// to the size the file has when opened: one another process keeps
// appending to faster than it is parsed is not chased, and what grew is
// left for the next read.
func ReadFileN(path string, off int64, final bool, n int64) (Batch, error) {
	f, err := Open(path)
	if err != nil {
		return Batch{Offset: off}, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Batch{Offset: off}, fmt.Errorf("read transcript: %w", err)
	}
	if sized != nil {
		sized(path)
	}
	b, err := ReadN(io.NewSectionReader(f, 0, fi.Size()), off, final, n)
	if err != nil {
		return b, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// sized, when set (by tests), runs once ReadFileN knows the size it reads
// to: what is written to the file then is the next read's.
var sized func(path string)

// ErrNotRegular is returned by Open for a path that is not a regular file.
var ErrNotRegular = regular.ErrNotRegular

// Open opens a transcript for reading. It refuses anything but a regular
// file (following symlinks) with an error wrapping ErrNotRegular: a hook
// event names the path, and a FIFO would block the open, /dev/zero or a
// socket would never end.
func Open(path string) (*os.File, error) { return regular.Open(path) }

// item is a message under construction.
type item struct {
	msg     Message
	first   int      // index of the row it starts on
	last    int      // index of the last row merged into it
	texts   []string // Response text blocks
	key     string   // Response: the message key used in builder.msgLast
	stopped bool     // Response: a row of its message at or after first has a stop_reason
}

// builder turns rows into items and decides which are complete.
type builder struct {
	starts    []int64 // byte offset of each row
	used      []bool  // whether each row contributed to an item
	items     []*item // in order of position (row, then block)
	responses map[string]*item
	tools     map[string]*item
	blocks    map[blockKey]int // row of each assistant block seen, to drop rewritten rows
	links     [][2]int         // rows whose handling depends on an earlier row: a cut must not fall between
	msgLast   map[string]int   // last row of each assistant message
	lastMain  int              // last main-chain user or assistant row
	lastTurn  int              // last main-chain user row that is no tool result and not isMeta
	shellCmd  string           // the last shell-mode command ("!cmd"), which the next output row ran
}

type blockKey struct {
	id    string
	index int64
}

func newBuilder() *builder {
	return &builder{
		responses: map[string]*item{},
		tools:     map[string]*item{},
		blocks:    map[blockKey]int{},
		msgLast:   map[string]int{},
		lastMain:  -1,
		lastTurn:  -1,
	}
}

// line handles one complete line (with its "\n") starting at byte offset pos.
// skip records a row that contributes nothing without looking at it.
func (b *builder) skip(pos int64) {
	b.starts = append(b.starts, pos)
	b.used = append(b.used, false)
}

func (b *builder) line(pos int64, line []byte) {
	line = bytes.TrimLeft(line, "\x00")
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	i := len(b.starts)
	b.starts = append(b.starts, pos)
	b.used = append(b.used, false)
	r, ok := parseRow(string(line))
	if !ok {
		return
	}
	if r.sidechain {
		// A sub-agent's row: of its tool calls, those PostToolUse keeps
		// live (observation.BySubagentKept); its prompts and text are its
		// conversation with the main agent, whose report the main chain's
		// Task result holds.
		switch r.typ {
		case "user":
			_, results := userContent(r.message)
			b.toolResults(i, &r, results)
		case "assistant":
			if m := assistantMessage(r.message); !r.apiError && m.model != "<synthetic>" {
				for _, blk := range m.blocks {
					if blk.typ == "tool_use" && observation.BySubagentKept(blk.name) {
						b.toolUse(i, &r, m.id, blk)
					}
				}
			}
		}
		return
	}
	switch r.typ {
	case "user":
		b.lastMain = i
		b.user(i, &r)
	case "assistant":
		b.lastMain = i
		b.assistant(i, &r)
	}
}

func (b *builder) user(i int, r *row) {
	texts, results := userContent(r.message)
	if len(results) == 0 && !r.meta {
		b.lastTurn = i
	}
	if r.meta || r.compactSummary || r.transcriptOnly {
		return
	}
	b.toolResults(i, r, results)
	joined := strings.Join(texts, "\n\n")
	text, ok := promptText(joined)
	if !ok {
		b.shellOutput(i, r, joined)
		return
	}
	b.shellCmd = ""
	if cmd, shell := strings.CutPrefix(text, "!"); shell && strings.HasPrefix(strings.TrimSpace(joined), "<bash-input>") {
		b.shellCmd = cmd
	}
	b.used[i] = true
	b.items = append(b.items, &item{
		msg:   r.message0(Prompt, text),
		first: i,
		last:  i,
	})
}

// shellOutput makes the output of a command the user ran in shell mode
// ("!bd onboard"), which Claude Code records as a user row of
// <bash-stdout> and <bash-stderr>, a Bash call of its own: what the
// command printed is the world's word, as a tool's output is, and the
// session that saw an error there may be asked about it later. Claude Code
// records no exit status, so the call is not marked failed. It has no tool
// id; its row's uuid keys it. The command is the shell-mode prompt right
// before it, read in the same read (Claude Code writes the two rows at
// once); without one the call names none.
func (b *builder) shellOutput(i int, r *row, text string) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "<bash-stdout>") && !strings.HasPrefix(t, "<bash-stderr>") {
		return
	}
	stdout, _ := tag(t, "bash-stdout")
	stderr, _ := tag(t, "bash-stderr")
	var parts []string
	for _, p := range []string{stdout, stderr} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return
	}
	input, _ := json.Marshal(map[string]string{"command": b.shellCmd})
	b.shellCmd = ""
	it := &item{msg: r.message0(ToolCall, ""), first: i, last: i}
	it.msg.Tool = &Tool{Name: "Bash", Input: input, Output: strings.Join(parts, "\n"), HasResult: true, Shell: true}
	b.items = append(b.items, it)
	b.used[i] = true
}

func (b *builder) assistant(i int, r *row) {
	m := assistantMessage(r.message)
	key := m.id
	if key == "" {
		// Nothing ties this row to another: it is a message of its own.
		key = fmt.Sprintf("\x00row %d", i)
	}
	// Set before any return: done compares it with lastMain, which this row
	// has just moved.
	b.msgLast[key] = i
	if r.apiError || m.model == "<synthetic>" {
		return
	}
	if m.id != "" && r.hasBlockIndex {
		k := blockKey{m.id, r.blockIndex}
		if orig, dup := b.blocks[k]; dup {
			b.links = append(b.links, [2]int{orig, i})
			return
		}
		b.blocks[k] = i
	}
	resp := b.responses[key]
	for _, blk := range m.blocks {
		switch blk.typ {
		case "text":
			if strings.TrimSpace(blk.text) == "" {
				continue
			}
			if resp == nil {
				resp = &item{msg: r.message0(Response, ""), first: i, key: key}
				resp.msg.MessageID = m.id
				b.responses[key] = resp
				b.items = append(b.items, resp)
			} else if resp.last != i {
				resp.msg.UUIDs = appendUUID(resp.msg.UUIDs, r.uuid)
			}
			resp.texts = append(resp.texts, blk.text)
			resp.last = i
			b.used[i] = true
		case "tool_use":
			b.toolUse(i, r, m.id, blk)
		}
	}
	if m.stopped && resp != nil {
		resp.stopped = true
	}
}

// toolUse starts the tool call of block blk of row i, once per call id.
func (b *builder) toolUse(i int, r *row, messageID string, blk block) {
	if orig := b.tools[blk.id]; orig != nil {
		b.links = append(b.links, [2]int{orig.first, i})
		return
	}
	it := &item{msg: r.message0(ToolCall, ""), first: i, last: i}
	it.msg.MessageID = messageID
	it.msg.Tool = &Tool{ID: blk.id, Name: blk.name, Input: blk.input}
	if blk.id != "" {
		b.tools[blk.id] = it
	}
	b.items = append(b.items, it)
	b.used[i] = true
}

// toolResults gives the tool calls started before row i their results.
func (b *builder) toolResults(i int, r *row, results []toolResult) {
	for _, res := range results {
		it := b.tools[res.id]
		if it == nil || it.msg.Tool.HasResult {
			continue
		}
		t := it.msg.Tool
		t.HasResult, t.IsError, t.Output = true, res.isError, res.output
		if r.uuid != "" {
			it.msg.UUID = r.uuid
		}
		it.msg.UUIDs = appendUUID(it.msg.UUIDs, r.uuid)
		it.last = i
		b.used[i] = true
	}
}

// done reports whether it can no longer grow.
func (b *builder) done(it *item) bool {
	switch it.msg.Kind {
	case Response:
		return it.stopped || b.lastMain > b.msgLast[it.key]
	case ToolCall:
		return it.msg.Tool.HasResult || b.lastTurn > it.first
	}
	return true
}

// finish emits the items before the cut and sets Offset. end is the byte
// offset just past the last complete line.
func (b *builder) finish(end int64, final bool) Batch {
	n := len(b.starts)
	cut := n
	if !final {
		for _, it := range b.items {
			if it.first < cut && !b.done(it) {
				cut = it.first
			}
		}
		cut = b.closedCut(cut)
	}
	out := Batch{Rows: n, Offset: end}
	if cut < n {
		out.Offset = b.starts[cut]
	}
	for _, used := range b.used {
		if !used {
			out.Skipped++
		}
	}
	for _, it := range b.items {
		if it.first >= cut {
			break // items are in row order
		}
		if it.msg.Kind == Response {
			it.msg.Text = strings.Join(it.texts, "\n\n")
		}
		out.Messages = append(out.Messages, sanitize(it.msg))
	}
	return out
}

// closedCut returns the largest row boundary at or before cut that no item
// (or link) straddles. Reading again from there rebuilds every item it does
// not emit whole, and emits no part of one it did, nor a duplicate of it.
func (b *builder) closedCut(cut int) int {
	n := len(b.starts)
	if cut >= n {
		return cut
	}
	// open[c] > 0 when some item has rows on both sides of boundary c
	// (the boundary just before row c).
	open := make([]int, n+1)
	span := func(first, last int) {
		if first < last {
			open[first+1]++
			open[last+1]--
		}
	}
	for _, it := range b.items {
		span(it.first, it.last)
	}
	for _, l := range b.links {
		span(l[0], l[1])
	}
	for c := 1; c <= n; c++ {
		open[c] += open[c-1]
	}
	for cut > 0 && open[cut] > 0 {
		cut--
	}
	return cut
}

func appendUUID(uuids []string, uuid string) []string {
	if uuid == "" {
		return uuids
	}
	return append(uuids, uuid)
}

// sanitize makes every string of m valid UTF-8.
func sanitize(m Message) Message {
	v := func(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }
	m.UUID, m.SessionID, m.PromptID, m.MessageID, m.Cwd, m.Text =
		v(m.UUID), v(m.SessionID), v(m.PromptID), v(m.MessageID), v(m.Cwd), v(m.Text)
	for i, u := range m.UUIDs {
		m.UUIDs[i] = v(u)
	}
	if m.Tool != nil {
		m.Tool.ID, m.Tool.Name, m.Tool.Output = v(m.Tool.ID), v(m.Tool.Name), v(m.Tool.Output)
	}
	return m
}

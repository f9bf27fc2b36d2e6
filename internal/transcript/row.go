package transcript

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/jsondepth"
	"github.com/tidwall/gjson"
)

// row holds the fields of one transcript line that Read uses.
type row struct {
	typ, uuid, sessionID, cwd, promptID, timestamp string

	sidechain, meta, compactSummary, transcriptOnly, apiError bool

	blockIndex    int64
	hasBlockIndex bool

	message gjson.Result
}

// parseRow decodes one line. It reports false if the line is not a JSON
// object, or nests too deep for gjson's recursion to walk safely.
func parseRow(s string) (row, bool) {
	if !jsondepth.Within(s, jsondepth.Max) || !gjson.Valid(s) {
		return row{}, false
	}
	v := gjson.Parse(s)
	if !v.IsObject() {
		return row{}, false
	}
	var r row
	// One pass over the top-level keys: rows can be hundreds of KB, and each
	// gjson.Get would scan from the start again.
	v.ForEach(func(k, val gjson.Result) bool {
		switch k.Str {
		case "type":
			r.typ = val.Str
		case "uuid":
			r.uuid = val.Str
		case "sessionId":
			r.sessionID = val.Str
		case "cwd":
			r.cwd = val.Str
		case "promptId":
			r.promptID = val.Str
		case "timestamp":
			r.timestamp = val.Str
		case "isSidechain":
			r.sidechain = val.Type == gjson.True
		case "isMeta":
			r.meta = val.Type == gjson.True
		case "isCompactSummary":
			r.compactSummary = val.Type == gjson.True
		case "isVisibleInTranscriptOnly":
			r.transcriptOnly = val.Type == gjson.True
		case "isApiErrorMessage":
			r.apiError = val.Type == gjson.True
		case "apiBlockIndex":
			r.blockIndex, r.hasBlockIndex = val.Int(), val.Type == gjson.Number
		case "message":
			r.message = val
		}
		return true
	})
	return r, true
}

// message0 returns a Message of kind k carrying the row's context.
func (r *row) message0(k Kind, text string) Message {
	m := Message{
		Kind:      k,
		UUID:      r.uuid,
		UUIDs:     appendUUID(nil, r.uuid),
		SessionID: r.sessionID,
		Cwd:       r.cwd,
		Text:      text,
	}
	if k == Prompt {
		m.PromptID = r.promptID
	}
	// A bad timestamp leaves the zero time: it is context, not content.
	if t, err := time.Parse(time.RFC3339Nano, r.timestamp); err == nil {
		m.Timestamp = t
	}
	return m
}

// toolResult is a tool_result block of a user row.
type toolResult struct {
	id      string
	output  string
	isError bool
}

// userContent returns the text blocks (or string content) and the
// tool_result blocks of a user message. Image blocks carry no text.
func userContent(msg gjson.Result) (texts []string, results []toolResult) {
	content := msg.Get("content")
	switch {
	case content.Type == gjson.String:
		return []string{content.Str}, nil
	case content.IsArray():
		content.ForEach(func(_, blk gjson.Result) bool {
			var typ, text, id, output string
			var hasText, isError bool
			blk.ForEach(func(k, v gjson.Result) bool {
				switch k.Str {
				case "type":
					typ = v.Str
				case "text":
					text, hasText = v.Str, v.Type == gjson.String
				case "tool_use_id":
					id = v.Str
				case "is_error":
					isError = v.Type == gjson.True
				case "content":
					output = resultText(v)
				}
				return true
			})
			switch typ {
			case "text":
				if hasText {
					texts = append(texts, text)
				}
			case "tool_result":
				results = append(results, toolResult{id: id, output: output, isError: isError})
			}
			return true
		})
	}
	return texts, results
}

// resultText returns tool_result content as text: string content as is, text
// blocks joined with "\n", an image as "[image]".
func resultText(content gjson.Result) string {
	if content.Type == gjson.String {
		return content.Str
	}
	if !content.IsArray() {
		return ""
	}
	var parts []string
	content.ForEach(func(_, blk gjson.Result) bool {
		switch blk.Get("type").Str {
		case "text":
			if t := blk.Get("text"); t.Type == gjson.String {
				parts = append(parts, t.Str)
			}
		case "image":
			parts = append(parts, "[image]")
		}
		return true
	})
	return strings.Join(parts, "\n")
}

// block is a content block of an assistant message.
type block struct {
	typ, text, id, name string
	input               json.RawMessage
}

// apiMessage is the part of an assistant row's API message that Read uses.
type apiMessage struct {
	id, model string
	stopped   bool // stop_reason is set: the message is complete
	blocks    []block
}

func assistantMessage(msg gjson.Result) apiMessage {
	var m apiMessage
	msg.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "id":
			m.id = v.Str
		case "model":
			m.model = v.Str
		case "stop_reason":
			m.stopped = v.Type != gjson.Null
		case "content":
			v.ForEach(func(_, blk gjson.Result) bool {
				var b block
				blk.ForEach(func(k, v gjson.Result) bool {
					switch k.Str {
					case "type":
						b.typ = v.Str
					case "text":
						b.text = v.Str
					case "id":
						b.id = v.Str
					case "name":
						b.name = v.Str
					case "input":
						b.input = json.RawMessage(v.Raw)
					}
					return true
				})
				if b.typ == "text" || b.typ == "tool_use" {
					m.blocks = append(m.blocks, b)
				}
				return true
			})
		}
		return true
	})
	return m
}

// Markers Claude Code writes as user text for things the user did not type
// to the model.
const (
	interrupted        = "[Request interrupted by user]"
	interruptedForTool = "[Request interrupted by user for tool use]"
)

// promptText returns what the user typed, given the text of a user row, and
// false if the row is not a prompt: empty, an interrupt, or the output of a
// local or shell command. A slash command becomes "/name args" and a
// shell-mode command "!cmd".
func promptText(text string) (string, bool) {
	t := strings.TrimSpace(text)
	switch {
	case t == "", t == interrupted, t == interruptedForTool:
		return "", false
	case strings.HasPrefix(t, "<command-"):
		if s, ok := slashCommand(t); ok {
			return s, true
		}
	case strings.HasPrefix(t, "<bash-input>"):
		cmd, _ := tag(t, "bash-input")
		if cmd = strings.TrimSpace(cmd); cmd == "" {
			return "", false
		}
		return "!" + cmd, true
	}
	if commandOutput(t) {
		return "", false
	}
	return text, true
}

// TaskNotification reports a message Claude Code wrote when a background
// task ended (a subagent's report in its <result>, a command's exit) and
// submitted as the user's prompt: the user said nothing there.
func TaskNotification(text string) bool {
	return strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "<task-notification>")
}

// commandOutput reports whether t is the recorded output of a local slash
// command or of a shell-mode command.
func commandOutput(t string) bool {
	for _, p := range [...]string{
		"<local-command-stdout>",
		"<local-command-stderr>",
		"<local-command-caveat>",
		"<bash-stdout>",
		"<bash-stderr>",
	} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// slashCommand turns the <command-name>, <command-args> (and ignored
// <command-message>) tags, in any order, into "/name args".
func slashCommand(t string) (string, bool) {
	name, ok := tag(t, "command-name")
	if name = strings.TrimSpace(name); !ok || name == "" {
		return "", false
	}
	if !strings.HasPrefix(name, "/") {
		name = "/" + name
	}
	args, _ := tag(t, "command-args")
	if args = strings.TrimSpace(args); args != "" {
		name += " " + args
	}
	return name, true
}

// tag returns the text between the first <name> and the following </name>.
func tag(s, name string) (string, bool) {
	open, end := "<"+name+">", "</"+name+">"
	i := strings.Index(s, open)
	if i < 0 {
		return "", false
	}
	s = s[i+len(open):]
	j := strings.Index(s, end)
	if j < 0 {
		return "", false
	}
	return s[:j], true
}

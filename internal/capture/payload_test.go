package capture

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
)

// payloadPlain is an event's payload as messageEvent wrote it before the
// maps became structs: kept to check that payloads do not change.
func payloadPlain(m transcript.Message, ev store.Event, open, truncated bool) json.RawMessage {
	data := map[string]any{"uuids": m.UUIDs, "source": "transcript"}
	switch m.Kind {
	case transcript.Prompt:
		if open {
			data["private_open"] = true
		}
		data["prompt_id"] = m.PromptID
	case transcript.Response:
		data["message_id"] = m.MessageID
	case transcript.ToolCall:
		o := observation.Build(m.Tool.Name, gjson.ParseBytes(m.Tool.Input), m.Tool.Output, m.Tool.IsError)
		data["tool"], data["files"], data["is_error"], data["tool_use_id"] = o.Tool, o.Files, o.IsError, m.Tool.ID
		data["key"] = firstLine(ev.Text)
		truncated = false
	}
	data["truncated"] = truncated
	return payload(data)
}

// TestPayloadSame is an equivalence test: messageEvent's payloads against
// the maps they replace, for prompts (a private section left open and
// not, with and without a prompt id), responses and tool calls, with and
// without uuids, with characters JSON escapes, and with texts cut short.
func TestPayloadSame(t *testing.T) {
	texts := []string{"plain words", "a <b> & \"c\" \u2028 é 탭", strings.Repeat("long text ", MaxText/5), "<private>kept out", "before <private>kept out"}
	uuidSets := [][]string{nil, {}, {"u-1"}, {"u-1", "u-2<&>"}}
	n := 0
	for _, text := range texts {
		for _, uuids := range uuidSets {
			var msgs []transcript.Message
			for _, id := range []string{"", "p-7"} {
				msgs = append(msgs, transcript.Message{Kind: transcript.Prompt, UUID: "u-0", UUIDs: uuids, PromptID: id, Text: text})
				msgs = append(msgs, transcript.Message{Kind: transcript.Response, UUID: "u-0", UUIDs: uuids, MessageID: id, Text: text})
			}
			for _, tool := range []*transcript.Tool{
				{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"make test"}`), Output: text, IsError: true},
				{ID: "toolu_2", Name: "Edit", Input: json.RawMessage(`{"file_path":"src/a<b>.go","old_string":"x","new_string":"y"}`), Output: text},
				{ID: "", Name: "Read", Input: nil, Output: text},
			} {
				msgs = append(msgs, transcript.Message{Kind: transcript.ToolCall, UUID: "u-0", UUIDs: uuids, Tool: tool})
			}
			for _, m := range msgs {
				for _, open := range []bool{false, true} {
					before := open
					ev, ok := messageEvent(store.Session{ID: "s-1", Project: "/p"}, m, &open)
					if !ok {
						continue
					}
					var truncated bool
					switch m.Kind {
					case transcript.Prompt:
						_, truncated, _ = cleanPrompt(m.Text, before)
					case transcript.Response:
						_, truncated = clean(m.Text)
					}
					if want := payloadPlain(m, ev, open, truncated); !bytes.Equal(ev.Payload, want) {
						t.Fatalf("%s payload %s, want %s", m.Kind, ev.Payload, want)
					}
					n++
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("compared only %d payloads", n)
	}
}

package fakeapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// post sends a Messages API request and returns the reply rebuilt from the
// event stream (or the JSON body): the content block's type, text or tool
// name, and tool input.
func post(t *testing.T, url string, req map[string]any) (kind, text string, input map[string]any) {
	t.Helper()
	b, _ := json.Marshal(req)
	hreq, _ := http.NewRequest("POST", url+"/v1/messages?beta=true", bytes.NewReader(b))
	hreq.Header.Set("x-api-key", "sk-ant-secret")
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if stream, _ := req["stream"].(bool); !stream {
		var m struct {
			Content []struct {
				Type, Text, Name string
				Input            map[string]any
			}
		}
		json.NewDecoder(resp.Body).Decode(&m)
		c := m.Content[0]
		if c.Type == "tool_use" {
			return c.Type, c.Name, c.Input
		}
		return c.Type, c.Text, nil
	}
	var events []string
	var partial strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type         string
			ContentBlock struct{ Type, Name string } `json:"content_block"`
			Delta        struct {
				Type, Text  string
				PartialJSON string `json:"partial_json"`
			}
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		events = append(events, ev.Type)
		switch ev.Type {
		case "content_block_start":
			kind, text = ev.ContentBlock.Type, ev.ContentBlock.Name
		case "content_block_delta":
			text += ev.Delta.Text
			partial.WriteString(ev.Delta.PartialJSON)
		}
	}
	if got, want := strings.Join(events, " "), "message_start content_block_start ping content_block_delta content_block_delta content_block_stop message_delta message_stop"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	if kind == "tool_use" {
		if err := json.Unmarshal([]byte(partial.String()), &input); err != nil {
			t.Fatalf("tool input %q: %v", partial.String(), err)
		}
	}
	return kind, text, input
}

func user(text string) map[string]any { return map[string]any{"role": "user", "content": text} }

func tools(names ...string) []any {
	var out []any
	for _, n := range names {
		out = append(out, map[string]any{"name": n, "input_schema": map[string]any{}})
	}
	return out
}

// TestDirectives walks one prompt's tool calls round by round, then its answer.
func TestDirectives(t *testing.T) {
	var log bytes.Buffer
	srv := httptest.NewServer(&Server{Log: &log})
	defer srv.Close()
	prompt := "Look READFILE /etc/hostname then CALLTOOL mcp__plugin_x_mem__search {\"q\": \"jwt\"}\n" +
		"CALLTOOL NotOffered {}\nRUNBASH echo hi\nSAY the ledger is fine\nCITEMEM"
	msgs := []any{
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "earlier [mem:old111]"}}},
		map[string]any{"role": "assistant", "content": "ok"},
		map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "text", "text": "<system-reminder>\nUserPromptSubmit hook additional context: MEMORY-MARKER-123 [mem:ab12cd]\n</system-reminder>"},
			map[string]any{"type": "text", "text": prompt}}},
		map[string]any{"role": "system", "content": "context [mem:ef34gh]"},
	}
	want := []struct {
		name  string
		input string
	}{
		{"Read", `{"file_path":"/etc/hostname"}`},
		{"mcp__plugin_x_mem__search", `{"q":"jwt"}`},
		{"Bash", `{"command":"echo hi","description":"fakeapi requested command"}`},
	}
	for i, w := range want {
		kind, name, in := post(t, srv.URL, map[string]any{"model": "m", "stream": true, "messages": msgs,
			"tools": tools("Read", "Bash", "mcp__plugin_x_mem__search")})
		got, _ := json.Marshal(in)
		if kind != "tool_use" || name != w.name || string(got) != w.input {
			t.Fatalf("round %d: %s %s %s, want tool_use %s %s", i, kind, name, got, w.name, w.input)
		}
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t", "name": name, "input": in}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": "result [mem:zz99]"}}})
	}
	kind, text, _ := post(t, srv.URL, map[string]any{"stream": true, "messages": msgs, "tools": tools("Read", "Bash", "mcp__plugin_x_mem__search")})
	wantText := "FAKE-ANSWER: ok (tool_rounds=3 marker_seen=true marker_in_turn=true)\nthe ledger is fine\nMemories used: [mem:ab12cd] [mem:ef34gh] [mem:zz99]"
	if kind != "text" || text != wantText {
		t.Fatalf("final answer %s %q, want %q", kind, text, wantText)
	}
	if strings.Contains(log.String(), "sk-ant-secret") || !strings.Contains(log.String(), `"<redacted>"`) {
		t.Errorf("the API key is not redacted in the log")
	}
	if n := strings.Count(log.String(), "\n"); n != 4 {
		t.Errorf("%d log lines, want 4", n)
	}
}

func TestAnswers(t *testing.T) {
	srv := httptest.NewServer(&Server{Marker: "XMARK"})
	defer srv.Close()
	cases := []struct {
		name   string
		stream bool
		msgs   []any
		want   string
	}{
		{"plain json", false, []any{user("hello")}, "FAKE-ANSWER: ok (tool_rounds=0 marker_seen=false marker_in_turn=false)"},
		{"marker only earlier", true, []any{user("XMARK"), map[string]any{"role": "assistant", "content": "a"}, user("next")},
			"FAKE-ANSWER: ok (tool_rounds=0 marker_seen=true marker_in_turn=false)"},
		{"unoffered tool", true, []any{user("READFILE /x")}, "FAKE-ANSWER: ok (tool_rounds=0 marker_seen=false marker_in_turn=false)"},
		{"citemem none", true, []any{user("CITEMEM")}, "FAKE-ANSWER: ok (tool_rounds=0 marker_seen=false marker_in_turn=false)\nMemories used: none"},
		{"compaction", true, []any{user("Your task is to create a detailed summary of the conversation so far")},
			"<analysis>fake analysis</analysis>\n<summary>FAKE-SUMMARY (marker_seen=false)</summary>"},
		{"no prompt", false, []any{map[string]any{"role": "assistant", "content": "x"}}, "FAKE-ANSWER: no user prompt (marker_seen=false)"},
		{"korean split", true, []any{user("SAY 한국어 답변")}, "FAKE-ANSWER: ok (tool_rounds=0 marker_seen=false marker_in_turn=false)\n한국어 답변"},
		{"reply alone", true, []any{user("Take it out.\nSAY not this\nREPLY Done. Restart the kiln app.")}, "Done. Restart the kiln app."},
		{"reply drops citemem", true, []any{user("Take it out [mem:ab12cd].\nCITEMEM\nREPLY Done.")}, "Done."},
		{"reply only opening a line", true, []any{user("Write a REPLY to the reviewer.\nSAY drafted")},
			"FAKE-ANSWER: ok (tool_rounds=0 marker_seen=false marker_in_turn=false)\ndrafted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kind, text, _ := post(t, srv.URL, map[string]any{"stream": c.stream, "messages": c.msgs})
			if kind != "text" || text != c.want {
				t.Fatalf("%s %q, want %q", kind, text, c.want)
			}
		})
	}
}

// TestReplyAfterTools: REPLY answers once the prompt's tool calls are made.
func TestReplyAfterTools(t *testing.T) {
	srv := httptest.NewServer(&Server{})
	defer srv.Close()
	msgs := []any{user("take the glaze plugin out\nREADFILE /etc/hostname\nREPLY Done.")}
	kind, name, in := post(t, srv.URL, map[string]any{"stream": true, "messages": msgs, "tools": tools("Read")})
	if kind != "tool_use" || name != "Read" {
		t.Fatalf("first round: %s %s, want tool_use Read", kind, name)
	}
	msgs = append(msgs,
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t", "name": name, "input": in}}},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "t", "content": "host"}}})
	if kind, text, _ := post(t, srv.URL, map[string]any{"stream": true, "messages": msgs, "tools": tools("Read")}); kind != "text" || text != "Done." {
		t.Fatalf("after the tool: %s %q, want text \"Done.\"", kind, text)
	}
}

func TestOtherPaths(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(&Server{})
	defer srv.Close()
	for path, want := range map[string]int{"/v1/models": 200, "/v1/models/claude-x": 200, "/api/hello": 200, "/v1/nothing": 404} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, resp.StatusCode, want)
		}
	}
	resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader("{not json"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("bad JSON: %d, want 400", resp.StatusCode)
	}
}

// FuzzMessages: any request body gets a well-formed answer, never a panic.
func FuzzMessages(f *testing.F) {
	f.Add(`{"stream":true,"messages":[{"role":"user","content":"READFILE /x CALLTOOL a {\"b\":1}"}],"tools":[{"name":"Read"},{"name":"a"}]}`)
	f.Add(`{"messages":[{"role":"user","content":[{"type":"text","text":"CITEMEM [mem:x]"}]}]}`)
	f.Add(`{"messages":[{"role":"user","content":7}]}`)
	s := &Server{}
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/messages", strings.NewReader(body)))
		if rec.Code != 200 && rec.Code != 400 {
			t.Fatalf("status %d", rec.Code)
		}
	})
}

package observation

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/tidwall/gjson"
)

func TestBuild(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		tool, input, output string
		isErr               bool
		want                string // prefix of Text()
		files               int
	}{
		{"Bash", `{"command":"npm   test --\n test/orders.test.js"}`, "PASS", false, "Bash: npm test -- test/orders.test.js\nPASS", 0},
		{"Bash", `{"command":"npm test"}`, "Exit code 1\nFAIL", true, "Bash: npm test (error)\nExit code 1", 0},
		{"Edit", `{"file_path":"/a/app.js","old_string":"x()","new_string":"y()"}`, "updated", false, "Edit: /a/app.js\n- x()\n+ y()", 1},
		{"Write", `{"file_path":"/a/k.md","content":"RS256 keys\nlive here"}`, "created", false, "Write: /a/k.md\n+ RS256 keys\n+ live here", 1},
		{"Read", `{"file_path":"/a/b.go"}`, "package b", false, "Read: /a/b.go\npackage b", 1},
		{"Grep", `{"pattern":"JWT_SECRET","path":"src"}`, "src/a.ts:3", false, "Grep: JWT_SECRET in src", 0},
		{"mcp__db__query", `{"sql":"select 1","limit":5}`, "1", false, "mcp__db__query: limit=5 sql=select 1", 0},
	} {
		o := Build(tt.tool, gjson.Parse(tt.input), tt.output, tt.isErr)
		if got := o.Text(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: Text()=%q, want prefix %q", tt.tool, got, tt.want)
		}
		if len(o.Files) != tt.files {
			t.Errorf("%s: files %v", tt.tool, o.Files)
		}
	}
}

func TestResponseText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ resp, want string }{
		{`{"stdout":"ok","stderr":"warn"}`, "ok\nwarn"},
		{`{"type":"text","file":{"filePath":"/a","content":"body"}}`, "body"},
		{`"plain"`, "plain"},
		{`[{"type":"text","text":"a"},{"type":"image"}]`, "a"},
		{`{"filePath":"/a","structuredPatch":[]}`, ""},
		// A subagent's result, as Claude Code 2.1 gives it: the report,
		// not the prompt it was started with.
		{`{"status":"completed","prompt":"look at the kiln","agentId":"a1","content":[{"type":"text","text":"The kiln relay is fine."}],"totalToolUseCount":3,"totalDurationMs":900}`, "The kiln relay is fine."},
		// One started in the background reports later; until then there
		// is no output, only the prompt.
		{`{"isAsync":true,"status":"async_launched","agentId":"a1","description":"kiln","prompt":"look at the kiln"}`, ""},
		// Content blocks without text (an MCP server's resource) are
		// read as the rest of the response is.
		{`{"content":[{"type":"resource","resource":{"uri":"file:///a"}}]}`, `{"content":[{"type":"resource","resource":{"uri":"file:///a"}}]}`},
	} {
		if got := ResponseText(gjson.Parse(tt.resp)); got != tt.want {
			t.Errorf("ResponseText(%s)=%q, want %q", tt.resp, got, tt.want)
		}
	}
}

// TestSubagentReportKeptLonger: a subagent's report keeps its first
// maxReport bytes, where a command's output of the same length keeps its
// head and tail only.
func TestSubagentReportKeptLonger(t *testing.T) {
	t.Parallel()
	report := strings.Repeat("Screen settings match the manual.\n", 60) + "A firing program holds at most 14 ramp segments.\n" + strings.Repeat("Relay checks passed.\n", 60)
	if len(report) < 3*maxHead || len(report) > maxReport {
		t.Fatalf("the report is %d bytes", len(report))
	}
	agent := Build("Agent", gjson.Parse(`{"subagent_type":"general-purpose","description":"review"}`), report, false)
	if !strings.Contains(agent.Output, "at most 14 ramp segments") {
		t.Errorf("the report lost its middle:\n%s", agent.Output)
	}
	run := Build("Bash", gjson.Parse(`{"command":"cat review.txt"}`), report, false)
	if strings.Contains(run.Output, "at most 14 ramp segments") {
		t.Errorf("a command's output kept its middle:\n%s", run.Output)
	}
	// The extractor reads it cut as a command's output is.
	if got, want := ToolOutputCut(agent.Text()), "Agent: general-purpose: review\n"+run.Output; got != want {
		t.Errorf("ToolOutputCut = %q, want %q", got, want)
	}
	long := Build("Task", gjson.Parse(`{}`), strings.Repeat("x", 4*maxReport), false)
	if len(long.Output) > maxReport+maxTail+maxErrors+spanCost {
		t.Errorf("a long report kept %d bytes", len(long.Output))
	}
}

func TestTruncateKeepsUTF8(t *testing.T) {
	t.Parallel()
	s := strings.Repeat("토큰🔐", 500)
	got := Truncate(s, 700, 300)
	if !utf8.ValidString(got) || len(got) > 700+300+60 || !strings.Contains(got, "bytes cut") {
		t.Fatalf("Truncate: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	if Truncate("short", 700, 300) != "short" {
		t.Fatal("short text changed")
	}
}

// TestBuildFiltersBeforeCutting checks that a long output is filtered
// whole before its head and tail are kept: the kept tail alone has lost
// the context (a BEGIN line, an opening tag, a key name) that marks what
// it holds as secret.
func TestBuildFiltersBeforeCutting(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("building module foo ... ok\n", 80)
	keyBody := strings.Repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQEXAMPLEbody\n", 20)
	tests := []struct {
		name, output, secret string
	}{
		{"key block", pad + "-----BEGIN PRIVATE KEY-----\n" + keyBody + "-----END PRIVATE KEY-----\n", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQEXAMPLEbody"},
		{"private section", pad + "<private>\n" + strings.Repeat("my home address is 1 Example Road\n", 30) + "</private>\ndone", "1 Example Road"},
		// The kept tail starts inside the value: "x9qR…" with no name before it.
		{"key name", pad + "MY_SERVICE_API_KEY=Zx9qR2vT8wLmEXAMPLE " + strings.Repeat(".", 281), "x9qR2vT8wLm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, tool := range []string{"Bash", "Read", "mcp__db__query"} {
				o := Build(tool, gjson.Parse(`{"command":"make","file_path":"/tmp/x"}`), tt.output, false)
				// What capture stores: the observation, filtered.
				if stored := privacy.Filter(o.Text()); strings.Contains(stored, tt.secret) {
					t.Errorf("%s: stored text keeps %q:\n%s", tool, tt.secret, stored)
				}
			}
		})
	}
}

// TestBuildInputCutByFilter checks that an input longer than the filter
// reads (Write's content, Edit's new string) keeps no part of a secret the
// filter's cut splits: the kept tail of the change summary is taken from
// the end of what the filter read.
func TestBuildInputCutByFilter(t *testing.T) {
	t.Parallel()
	const secret = "ghp_1234567890abcdefghijABCDEFGHIJ123456"
	content := strings.Repeat("x", filterLimit-30) + " " + secret + "\nend"
	for _, tool := range []string{"Write", "Edit"} {
		in, _ := json.Marshal(map[string]string{"file_path": "/tmp/a", "content": content, "old_string": "a", "new_string": content})
		o := Build(tool, gjson.ParseBytes(in), "", false)
		if stored := privacy.Filter(o.Text()); strings.Contains(stored, secret[:20]) {
			t.Errorf("%s: stored text keeps the head of a cut secret:\n…%s", tool, stored[max(len(stored)-120, 0):])
		}
	}
}

// TestBuildMasksCookiesInViewedFiles checks that a session cookie in a
// file as a tool shows it (Read's "     N→" lines, cat -n's tabs, a diff's
// + and - lines, Write's "+ " lines) leaves Build masked: the line
// prefixes must not end the reading of the file's cookies.
func TestBuildMasksCookiesInViewedFiles(t *testing.T) {
	t.Parallel()
	const secret = "Hq7Vx2Lm9Kp4Rt6Wy8Zb3Nc5Df1Gj0Sa"
	state := "{\n  \"cookies\": [\n    {\n      \"name\": \"sessionid\",\n      \"value\": \"" + secret + "\",\n      \"domain\": \"x.test\"\n    }\n  ]\n}"
	content, _ := json.Marshal(state)
	numbered := func(sep string) string {
		lines := strings.Split(state, "\n")
		for i, l := range lines {
			lines[i] = strings.Repeat(" ", 5) + string(rune('1'+i)) + sep + l
		}
		return strings.Join(lines, "\n")
	}
	for _, tt := range []struct {
		name, tool, input, output string
	}{
		{"read", "Read", `{"file_path":"/app/e2e/.auth/user.json"}`, numbered("→")},
		{"cat -n", "Bash", `{"command":"cat -n e2e/.auth/user.json"}`, numbered("\t")},
		{"read har header", "Read", `{"file_path":"/app/session.har"}`,
			"    29→  {\n    30→    \"name\": \"set-cookie\",\n    31→    \"value\": \"sessionid=" + secret + "; Path=/\"\n    32→  }"},
		{"git diff", "Bash", `{"command":"git diff"}`,
			"@@ -2,6 +2,6 @@\n   \"cookies\": [\n     {\n       \"name\": \"sessionid\",\n-      \"value\": \"old\",\n+      \"value\": \"" + secret + "\",\n"},
		{"write", "Write", `{"file_path":"/app/e2e/.auth/user.json","content":` + string(content) + `}`, "created"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := Build(tt.tool, gjson.Parse(tt.input), tt.output, false)
			if got := o.Text(); strings.Contains(got, secret) || !strings.Contains(got, "[REDACTED:cookie]") {
				t.Errorf("Build(%s) keeps the cookie:\n%s", tt.tool, got)
			}
		})
	}
}

// TestResponseFailed: a background command's response says it failed in
// its status and exit code, the tool itself did not; one stopped did not
// fail.
func TestResponseFailed(t *testing.T) {
	t.Parallel()
	for resp, want := range map[string]bool{
		`{"shellId":"b1","status":"failed","exitCode":2,"stdout":"","stderr":"ImportError"}`: true,
		`{"shellId":"b1","status":"completed","exitCode":1,"stdout":"3 failed"}`:             true,
		`{"shellId":"b1","status":"completed","exitCode":0,"stdout":"ok"}`:                   false,
		`{"shellId":"b1","status":"killed","exitCode":143}`:                                  false,
		`{"shellId":"b1","status":"running","exitCode":null,"stdout":"listening"}`:           false,
		`{"stdout":"ok","stderr":""}`:                                                        false,
		`"plain"`:                                                                            false,
	} {
		if got := ResponseFailed(gjson.Parse(resp)); got != want {
			t.Errorf("ResponseFailed(%s) = %v, want %v", resp, got, want)
		}
	}
}

// FuzzResponse: a PostToolUse's tool_input and tool_response are the
// client's JSON, of any shape a tool or an MCP server gives. Reading them
// never panics, keeps valid UTF-8 valid, and keeps an output no longer
// than a head (a report's, the longest), a tail, the error lines and one
// cut's marker, whatever the response's size.
func FuzzResponse(f *testing.F) {
	f.Add("Agent", `{"subagent_type":"general-purpose","description":"look"}`, `{"status":"completed","prompt":"p","content":[{"type":"text","text":"report"}],"totalDurationMs":3}`)
	f.Add("Agent", `{"description":"bg"}`, `{"isAsync":true,"status":"async_launched","agentId":"a1","prompt":"p"}`)
	f.Add("Bash", `{"command":"npm test"}`, `{"stdout":"ok","stderr":"","interrupted":false}`)
	f.Add("Read", `{"file_path":"/a.go"}`, `{"type":"text","file":{"filePath":"/a.go","content":"package a"}}`)
	f.Add("mcp__x__y", `{"q":1}`, `[{"type":"text","text":"a"},{"type":"image","data":"AAAA"}]`)
	f.Add("Task", `{}`, `{"content":[{"text":"\xff\xfe"},{"text":{"nested":true}}]}`)
	f.Add("BashOutput", `{"bash_id":"b1"}`, `{"shellId":"b1","status":"failed","exitCode":2,"stdout":"","stderr":"boom"}`)
	f.Fuzz(func(t *testing.T, tool, input, resp string) {
		r := gjson.Parse(resp)
		out := ResponseText(r)
		o := Build(tool, gjson.Parse(input), out, ResponseFailed(r))
		text := o.Text()
		if utf8.ValidString(tool) && utf8.ValidString(input) && utf8.ValidString(resp) && !utf8.ValidString(text) {
			t.Fatalf("invalid UTF-8 out of valid input: %q", text)
		}
		if len(o.Output) > maxReport+maxTail+maxErrors+spanCost {
			t.Fatalf("kept %d bytes of output", len(o.Output))
		}
	})
}

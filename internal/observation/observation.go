// Package observation condenses a tool call into the short text the memory layer stores.
package observation

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/tidwall/gjson"
)

// Output limits: a tool observation is a reminder of what happened, not a copy
// of the output. Head and tail are kept because errors tend to be at the end.
const (
	maxHead  = 700
	maxTail  = 300
	maxInput = 400
)

// maxReport is the head kept of a subagent's report (Subagent): prose its
// agent wrote for the main agent to read, whose details the main agent's
// answer sums up and loses (a firmware review's "a firing program holds
// at most 14 ramp segments"). A background agent's report, which
// Claude Code delivers as a prompt, is kept whole as prompts are; 8 KB
// holds 83 % of the 98 reports of the evaluation transcripts whole (their
// median is 3 KB). Kept whole, or at 16 KB, reports outranked more answers
// (docs/recall.md, pass 85).
const maxReport = 8 << 10

// ToolOutputCut is a stored subagent report's text ("Agent: …" and its
// output) cut as any tool's output is, to its head and tail and its error
// lines: what the extractor reads of it. The report is kept longer for
// recall (maxReport), where its details answer questions; distilled at
// that length, an explorer's inventory of files ("Header.tsx - the site
// header") became memories and pushed a session's decisions out of its
// share.
func ToolOutputCut(text string) string {
	key, out, ok := strings.Cut(text, "\n")
	if !ok {
		return text
	}
	return key + "\n" + truncate(out, maxHead, maxTail, maxErrors, 0)
}

// Subagent reports whether tool runs a subagent, whose output is its report:
// the one list of those tools.
func Subagent(tool string) bool { return tool == "Task" || tool == "Agent" }

// Observation is a compact record of one tool call.
type Observation struct {
	Tool    string
	Key     string   // the input that identifies the call: file path, command, pattern, URL
	Files   []string // files the call touched
	Output  string   // truncated output or change summary
	IsError bool
	// Memories are the memory ids the full output showed the model, kept
	// apart because the truncated Output may have lost some of them.
	Memories []string
}

// Text renders the observation as stored and indexed:
//
//	Bash: npm test -- test/orders.test.js (error)
//	<output, truncated>
func (o Observation) Text() string {
	var b strings.Builder
	b.WriteString(o.Tool)
	if o.Key != "" {
		b.WriteString(": ")
		b.WriteString(o.Key)
	}
	if o.IsError {
		b.WriteString(" (error)")
	}
	if o.Output != "" {
		b.WriteString("\n")
		b.WriteString(o.Output)
	}
	return b.String()
}

// filterLimit bounds how much of an output the privacy filter reads; see
// filter.
const filterLimit = 1 << 20

// filter runs the privacy filter over s before anything of it is cut: a
// kept tail alone has lost the context (a BEGIN line, an opening
// <private>, the key name before "=") that marks what it holds as secret.
// Beyond filterLimit only the head is read, and reports cut as true: the
// caller then keeps no tail, since one taken from text the filter did not
// read whole could lie inside such a section.
func filter(s string) (out string, cut bool) {
	if len(s) > filterLimit {
		return privacy.Filter(s[:runeStart(s, filterLimit)]), true
	}
	return privacy.Filter(s), false
}

// filtered is filter for an input whose whole text may be kept (Write's
// content, Edit's strings, a command): when the filter read only a head,
// the last unreadMargin bytes of it are dropped too, since a secret the
// head's end cut in two is not recognised as one.
func filtered(s string) string {
	out, cut := filter(s)
	if cut {
		out = out[:runeStart(out, max(len(out)-unreadMargin, 0))]
	}
	return out
}

// Build condenses a call of tool with its input object and output text.
// Every field is privacy-filtered before it is cut to size.
func Build(tool string, input gjson.Result, output string, isError bool) Observation {
	o := Observation{Tool: tool, IsError: isError}
	get := func(k string) string { return filtered(input.Get(k).String()) }
	// "path" is left out: Grep and Glob use it for the directory searched, not a file touched.
	for _, k := range []string{"file_path", "notebook_path"} {
		if p := get(k); p != "" {
			o.Files = append(o.Files, p)
			break
		}
	}
	switch tool {
	case "Bash", "BashOutput":
		o.Key = oneLine(get("command"), maxInput)
	case "Read", "Write", "Edit", "MultiEdit", "NotebookEdit":
		o.Key = get("file_path")
		if o.Key == "" {
			o.Key = get("notebook_path")
		}
	case "Grep":
		o.Key = joinNonEmpty(" in ", oneLine(get("pattern"), maxInput), get("path"))
	case "Glob":
		o.Key = joinNonEmpty(" in ", get("pattern"), get("path"))
	case "WebFetch":
		o.Key = get("url")
	case "WebSearch":
		o.Key = oneLine(get("query"), maxInput)
	case "TodoWrite":
		o.Key = todoSummary(input)
	default:
		o.Key = genericKey(input)
		if Subagent(tool) {
			o.Key = oneLine(joinNonEmpty(": ", get("subagent_type"), get("description")), maxInput)
		}
	}
	switch tool {
	case "Edit":
		o.Output = changeSummary([2]string{get("old_string"), get("new_string")})
	case "MultiEdit":
		var edits [][2]string
		for _, e := range input.Get("edits").Array() {
			edits = append(edits, [2]string{filtered(e.Get("old_string").String()), filtered(e.Get("new_string").String())})
		}
		o.Output = changeSummary(edits...)
	case "Write":
		o.Output = "+ " + strings.ReplaceAll(get("content"), "\n", "\n+ ")
	}
	tail, unread, errs := maxTail, 0, 0
	if o.Output == "" || isError {
		out, cut := filter(output)
		if cut {
			tail, unread = 0, unreadMargin
		}
		o.Output = joinNonEmpty("\n", o.Output, out)
		if ReportsRun(tool) {
			errs = maxErrors
		}
	}
	if tool == "Edit" || tool == "MultiEdit" {
		// A diff's first line may be a kept one, whose mark is two spaces.
		o.Output = strings.Trim(o.Output, "\n")
	} else {
		o.Output = strings.TrimSpace(o.Output)
	}
	head := maxHead
	if Subagent(tool) {
		head = maxReport
	}
	o.Output = truncate(o.Output, head, tail, errs, unread)
	return o
}

// BySubagentKept reports whether a sub-agent's call of tool is kept: its
// file edits change the project as the main agent's do, while its reads,
// searches and runs are its exploration, which its report to the main
// agent (the Task result, kept) sums up. Kept whole they would bury that
// report under the files an Explore agent opened.
func BySubagentKept(tool string) bool {
	switch tool {
	case "Edit", "MultiEdit", "Write", "NotebookEdit":
		return true
	}
	return false
}

// ReportsRun reports whether tool's output is a report of something it
// ran (a command, a sub-agent, an MCP call) rather than content it read or
// wrote (a file, a search's matches, a page), whose lines saying "error"
// are the content's, not the call's.
func ReportsRun(tool string) bool {
	switch tool {
	case "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Grep", "Glob", "WebFetch", "WebSearch", "TodoWrite":
		return false
	}
	return true
}

// ResponseText extracts the readable output from a PostToolUse tool_response,
// whose shape depends on the tool (Bash: stdout/stderr; Read: file.content; ...).
func ResponseText(resp gjson.Result) string {
	switch {
	case resp.Type == gjson.String:
		return resp.String()
	case resp.Get("stdout").Exists() || resp.Get("stderr").Exists():
		return joinNonEmpty("\n", resp.Get("stdout").String(), resp.Get("stderr").String())
	case resp.Get("file.content").Exists():
		return resp.Get("file.content").String()
	case resp.Get("content").Type == gjson.String:
		return resp.Get("content").String()
	case resp.Get("content").IsArray() && blocksText(resp.Get("content")) != "":
		// A subagent's result (Task, Agent): its report is the text of
		// the content blocks; the rest is the prompt it was given and
		// its token counts. Blocks without text (an MCP server's
		// resources) are read as the rest of the response.
		return blocksText(resp.Get("content"))
	case resp.Get("status").String() == "async_launched":
		// A subagent started in the background: its report comes later,
		// in a <task-notification> message; the response holds only the
		// prompt Claude gave it.
		return ""
	case resp.Get("output").Exists():
		return resp.Get("output").String()
	case resp.Get("filenames").IsArray():
		var names []string
		for _, f := range resp.Get("filenames").Array() {
			names = append(names, f.String())
		}
		return strings.Join(names, "\n")
	case resp.IsArray():
		return blocksText(resp)
	case resp.Get("filePath").Exists() || resp.Get("structuredPatch").Exists():
		return "" // Edit/Write: Build summarises the input instead
	}
	return Truncate(filtered(resp.Raw), maxHead, 0)
}

// blocksText joins the text of an array of content blocks (an MCP tool's
// result, a subagent's report); other blocks (images) have none.
func blocksText(blocks gjson.Result) string {
	var parts []string
	for _, b := range blocks.Array() {
		if t := b.Get("text"); t.Exists() {
			parts = append(parts, t.String())
		}
	}
	return strings.Join(parts, "\n")
}

// ResponseFailed reports a tool response saying its command failed though
// the tool did not: a background command's (BashOutput) status "failed",
// or a non-zero exit code of one that completed. One Claude stopped
// ("killed") did not fail.
func ResponseFailed(resp gjson.Result) bool {
	switch resp.Get("status").String() {
	case "failed":
		return true
	case "completed":
		c := resp.Get("exitCode")
		return c.Type == gjson.Number && c.Int() != 0
	}
	return false
}

// Truncate keeps the first head and last tail bytes of s (on rune boundaries)
// with a marker between them saying how much was cut.
func Truncate(s string, head, tail int) string { return truncate(s, head, tail, 0, 0) }

// runeStart moves i back to the start of the rune it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

func todoSummary(input gjson.Result) string {
	var items []string
	for _, t := range input.Get("todos").Array() {
		items = append(items, fmt.Sprintf("[%s] %s", t.Get("status").String(), t.Get("content").String()))
	}
	// A plan is read back as steps (Steps), so it gets more room than
	// other inputs: a todo cut off is lost to the task list.
	return oneLine(strings.Join(items, "; "), maxHead+maxTail)
}

// genericKey summarises an unknown tool's input (MCP tools and the like) as
// its scalar fields in key order.
func genericKey(input gjson.Result) string {
	if !input.IsObject() {
		return oneLine(input.String(), maxInput)
	}
	var parts []string
	input.ForEach(func(k, v gjson.Result) bool {
		if v.Type == gjson.String || v.Type == gjson.Number || v.Type == gjson.True || v.Type == gjson.False {
			parts = append(parts, k.String()+"="+v.String())
		}
		return true
	})
	sort.Strings(parts)
	return oneLine(strings.Join(parts, " "), maxInput)
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(filtered(s)), " ")
	if len(s) > max {
		s = s[:runeStart(s, max)] + "…"
	}
	return s
}

func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

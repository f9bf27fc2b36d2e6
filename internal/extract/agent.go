package extract

import "strings"

// agentReport returns where the report of a sub-agent starts in a tool
// message: the output of a Task (or Agent) call that did not fail, after
// its first line ("Task: reviewer: Check the pagination fix"). A
// sub-agent's report is what the session's agent found or did, said as
// its own closing summary, and is read like an assistant's message.
func agentReport(text string) (int, bool) {
	if !strings.HasPrefix(text, "Task: ") && !strings.HasPrefix(text, "Agent: ") {
		return 0, false
	}
	head, _, ok := strings.Cut(text, "\n")
	if !ok || strings.HasSuffix(head, "(error)") {
		return 0, false
	}
	return len(head) + 1, true
}

// reportPenalty is taken from the score of a candidate quoted from a
// sub-agent's report when the session has more candidates than maxEntries.
const reportPenalty = 0.5

// reported reports a candidate first found in a sub-agent's report.
func (x *extractor) reported(c *cand) bool {
	if c.from < 0 || c.from >= len(x.msgs) || strings.ToLower(x.msgs[c.from].Role) != "tool" {
		return false
	}
	_, ok := agentReport(x.msgs[c.from].Text)
	return ok
}

// nextToCut reports a span of text that holds, touches or lies on the line
// next to the mark the store leaves where it cut a long tool output
// ("\n[… 2048 bytes cut …]\n"): the line before the mark stops
// mid-sentence, and the one after it starts mid-sentence.
func nextToCut(text string, start, end int) bool {
	const mark = " bytes cut …]"
	lineStart := strings.LastIndexByte(text[:start], '\n') + 1
	if lineStart > 1 {
		prev := strings.LastIndexByte(text[:lineStart-1], '\n') + 1
		if strings.Contains(text[prev:lineStart], mark) {
			return true
		}
	}
	lineEnd := len(text)
	if k := strings.IndexByte(text[end:], '\n'); k >= 0 {
		lineEnd = end + k
	}
	if strings.Contains(text[lineStart:lineEnd], mark) {
		return true
	}
	if lineEnd < len(text) {
		next := text[lineEnd+1:]
		if k := strings.IndexByte(next, '\n'); k >= 0 {
			next = next[:k]
		}
		return strings.Contains(next, mark)
	}
	return false
}

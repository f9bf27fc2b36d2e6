package observation

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Step is one step of the model's plan as a session's plan tool calls left
// it: a todo of TodoWrite, or a task of TaskCreate and TaskUpdate (Claude
// Code's newer task list).
type Step struct {
	Subject string // verbatim in the text of message Said
	Said    int    // the last message that names the step
	Status  string // pending, in_progress, completed, deleted, or removed (dropped from a later TodoWrite)
	Set     int    // the message that set Status
}

// Open reports whether the step was still to do: pending or in progress.
func (s Step) Open() bool { return s.Status == "pending" || s.Status == "in_progress" }

// Steps replays the plan tool calls among texts, one stored observation's
// text per message ("" or anything else for other messages), and returns
// each step's last state in the order the steps were first named.
//
// The observations are read, not the transcript, so that sessions imported
// from any source and the live hooks give the same plan. A TodoWrite call
// states the whole list, so a todo missing from a later call is "removed";
// TaskUpdate names a task by the id TaskCreate's result gave it.
func Steps(texts []string) []Step {
	var steps []Step
	index := map[string]int{} // todo content or "#"+task id -> position in steps
	for i, text := range texts {
		tool, rest, ok := strings.Cut(text, ": ")
		if !ok {
			continue
		}
		switch tool {
		case "TodoWrite":
			line, _, _ := strings.Cut(rest, "\n")
			listed := map[int]bool{}
			for _, item := range strings.Split(line, "; ") {
				status, content, ok := todoItem(item)
				if !ok {
					continue
				}
				k, seen := index[content]
				if !seen {
					k = len(steps)
					index[content] = k
					steps = append(steps, Step{Subject: content})
				}
				steps[k].Said, steps[k].Status, steps[k].Set = i, status, i
				listed[k] = true
			}
			for content, k := range index {
				if !strings.HasPrefix(content, "#") && !listed[k] && steps[k].Status != "removed" {
					steps[k].Status, steps[k].Set = "removed", i
				}
			}
		case "TaskCreate":
			out := result(rest)
			id, subject := out.Get("task.id").String(), strings.TrimSpace(out.Get("task.subject").String())
			if id == "" || subject == "" || !strings.Contains(text, subject) {
				continue
			}
			index["#"+id] = len(steps)
			steps = append(steps, Step{Subject: subject, Said: i, Status: "pending", Set: i})
		case "TaskUpdate":
			out := result(rest)
			k, ok := index["#"+out.Get("taskId").String()]
			to := out.Get("statusChange.to").String()
			if !ok || !out.Get("success").Bool() || to == "" {
				continue
			}
			steps[k].Status, steps[k].Set = to, i
		}
	}
	return steps
}

// todoItem parses "[status] content" as todoSummary wrote it. A content cut
// at the summary's limit ends in "…", which is dropped: what is left is
// still verbatim.
func todoItem(s string) (status, content string, ok bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") {
		return "", "", false
	}
	status, content, ok = strings.Cut(s[1:], "] ")
	content = strings.TrimSpace(strings.TrimSuffix(content, "…"))
	if !ok || content == "" || strings.ContainsAny(status, " []") {
		return "", "", false
	}
	return status, content, true
}

// result is the JSON result after an observation's first line.
func result(rest string) gjson.Result {
	_, out, _ := strings.Cut(rest, "\n")
	if !gjson.Valid(out) {
		return gjson.Result{}
	}
	return gjson.Parse(out)
}

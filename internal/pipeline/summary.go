package pipeline

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// summary is a short account of what the session did, for the next
// session's brief, built from its captured events: the files it changed,
// the commands that failed and then passed (or still fail), the decisions
// it recorded and the tasks it left open. It never repeats a prompt: a
// first prompt is often a slash command, a pasted log or half a thought.
func summary(sess store.Session, evs []store.Event, entries []store.Entry) string {
	var parts []string
	if files := changedFiles(sess, evs); len(files) > 0 {
		parts = append(parts, "Changed "+listOf(files, 4)+".")
	}
	fixed, failing := commandOutcomes(evs)
	if len(fixed) > 0 {
		parts = append(parts, "Failed, then passed: "+listOf(quoteAll(fixed), 2)+".")
	}
	if len(failing) > 0 {
		parts = append(parts, "Still failing: "+listOf(quoteAll(failing), 2)+".")
	}
	var decided, open []string
	for _, e := range entries {
		if e.Stage != store.StageVerified && e.Stage != store.StageCertified || e.Status == store.StatusSuperseded {
			continue
		}
		switch e.Type {
		case "decision":
			decided = append(decided, e.Title)
		case "task":
			open = append(open, e.Title)
		}
	}
	if len(decided) > 0 {
		parts = append(parts, "Decided: "+strings.Join(clipAll(decided, 2), "; ")+".")
	}
	if len(open) > 0 {
		parts = append(parts, "Open: "+strings.Join(clipAll(open, 2), "; ")+".")
	}
	if len(parts) == 0 {
		n := 0
		for _, e := range evs {
			if e.Type == store.TypeUserPrompt {
				n++
			}
		}
		if n == 0 {
			return ""
		}
		s := plural.Of(n, "prompt") + "; no file changed"
		if kept := memoryCounts(entries); kept != "" {
			return s + "; kept " + kept + "."
		}
		return s + ", nothing kept."
	}
	return strings.Join(parts, " ")
}

// observed is what the summary reads from a tool observation's payload.
type observed struct {
	Tool    string   `json:"tool"`
	Key     string   `json:"key"`
	Files   []string `json:"files"`
	IsError bool     `json:"is_error"`
}

func observationOf(e store.Event) (observed, bool) {
	if e.Type != store.TypeToolObservation {
		return observed{}, false
	}
	var o observed
	if json.Unmarshal(e.Payload, &o) != nil || o.Tool == "" {
		return observed{}, false
	}
	return o, true
}

// changedFiles lists the files the session wrote or edited, in the order
// first touched, relative to the session's directory when inside it.
func changedFiles(sess store.Session, evs []store.Event) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range evs {
		o, ok := observationOf(e)
		if !ok || o.IsError {
			continue
		}
		switch o.Tool {
		case "Write", "Edit", "MultiEdit", "NotebookEdit":
		default:
			continue
		}
		for _, f := range o.Files {
			f = relative(sess.Cwd, f)
			if f != "" && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

func relative(dir, f string) string {
	f = strings.ReplaceAll(f, "\\", "/")
	d := strings.TrimRight(strings.ReplaceAll(dir, "\\", "/"), "/")
	if d != "" && strings.HasPrefix(f, d+"/") {
		return f[len(d)+1:]
	}
	if strings.Count(f, "/") > 2 {
		return path.Join("…", path.Base(path.Dir(f)), path.Base(f))
	}
	return f
}

// commandOutcomes finds the shell commands that failed and later passed,
// and those whose last run failed. Runs of one command are matched by
// extract.CommandKey ("CI=1 ./x.sh -v" and "./x.sh" are one command).
func commandOutcomes(evs []store.Event) (fixed, failing []string) {
	for _, r := range commandRuns(evs) {
		switch {
		case r.failed && !r.last:
			fixed = append(fixed, clipCmd(r.cmd))
		case r.last:
			failing = append(failing, clipCmd(r.cmd))
		}
	}
	return fixed, failing
}

// commandRun is what the runs of one shell command came to.
type commandRun struct {
	cmd    string // as last run
	failed bool   // some run failed
	last   bool   // the last run failed
	at     int    // index in evs of the last run
}

// commandRuns are the shell commands of evs in the order first run.
func commandRuns(evs []store.Event) []commandRun {
	var out []commandRun
	byKey := map[string]int{}
	for i, e := range evs {
		o, ok := observationOf(e)
		if !ok || o.Tool != "Bash" {
			continue
		}
		cmd := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(o.Key, "Bash: "), " (error)"))
		if cmd == "" {
			continue
		}
		k := extract.CommandKey(cmd)
		j, ok := byKey[k]
		if !ok {
			j = len(out)
			byKey[k] = j
			out = append(out, commandRun{})
		}
		r := &out[j]
		r.cmd, r.failed, r.last, r.at = cmd, r.failed || o.IsError, o.IsError, i
	}
	return out
}

func clipCmd(cmd string) string {
	if i := strings.IndexAny(cmd, "\n"); i >= 0 {
		cmd = cmd[:i]
	}
	return clip(cmd, 60)
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + x + "`"
	}
	return out
}

func clipAll(xs []string, n int) []string {
	var out []string
	for _, x := range xs[:min(n, len(xs))] {
		out = append(out, clip(x, 80))
	}
	if len(xs) > n {
		out = append(out, fmt.Sprintf("+%d more", len(xs)-n))
	}
	return out
}

// listOf joins up to n items with commas and counts the rest.
func listOf(xs []string, n int) string {
	s := strings.Join(xs[:min(n, len(xs))], ", ")
	if len(xs) > n {
		s += fmt.Sprintf(" (+%d more)", len(xs)-n)
	}
	return s
}

// memoryCounts is "1 fact, 2 constraints" of the verified entries.
func memoryCounts(entries []store.Entry) string {
	n := map[string]int{}
	for _, e := range entries {
		if e.Stage == store.StageVerified || e.Stage == store.StageCertified {
			n[e.Type]++
		}
	}
	var parts []string
	for _, t := range []string{"decision", "constraint", "preference", "fact", "lesson", "task", "reference"} {
		if n[t] > 0 {
			parts = append(parts, plural.Of(n[t], t))
		}
	}
	return strings.Join(parts, ", ")
}

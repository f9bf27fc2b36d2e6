package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/cmdargs"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

type historyOptions struct {
	session     string
	types       []string
	project     string
	allProjects bool
	limit       int
	json        bool
}

func parseHistory(e *env, args []string) (historyOptions, error) {
	var o historyOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	fs := newFlags(e, "history", "[--session ID] [--type T]... [--project DIR|--all-projects] [--limit N] [--json]")
	fs.StringVar(&o.session, "session", "", "only this session's events (any project unless --project is given)")
	fs.StringSliceVar(&o.types, "type", nil, "only events of this type: user_prompt, agent_response, tool_observation, memory_injected, ... (repeatable)")
	choices(fs, "type", store.EventTypes)
	fs.StringVar(&o.project, "project", "", "this project's events (default: the current directory's)")
	fs.BoolVar(&o.allProjects, "all-projects", false, "every project's events")
	fs.IntVar(&o.limit, "limit", 50, "events at most")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q", fs.Arg(0))
	}
	if o.limit <= 0 {
		return o, usagef("--limit must be positive")
	}
	if o.project != "" && o.allProjects {
		return o, usagef("--project and --all-projects exclude each other")
	}
	// An unknown type used to select nothing and exit 0, as if there were
	// no such events.
	if err := oneOf("--type", o.types, store.EventTypes); err != nil {
		return o, err
	}
	return o, nil
}

func runHistory(ctx context.Context, e *env, args []string) error {
	o, err := parseHistory(e, args)
	if err != nil {
		return err
	}
	f := store.EventFilter{SessionID: o.session, Types: o.types, Limit: o.limit, Newest: true}
	// A session id names its project already; --project narrows only when given.
	if !o.allProjects && (o.session == "" || o.project != "") {
		if f.Project, err = projectFlag(o.project); err != nil {
			return err
		}
	}
	db, err := openReadStore(ctx, e, &f.Project)
	if err != nil {
		return err
	}
	var evs []store.Event
	if db != nil {
		defer db.Close()
		if f.SessionID, err = resolveSession(ctx, db, f.SessionID); err != nil {
			return err
		}
		f.Project = widenScope(ctx, e, db, f.Project, o.project, o.json, "events")
		if evs, err = db.Read().Events(ctx, f); err != nil {
			return err
		}
	}
	if o.json {
		out := struct {
			Events []eventJSON `json:"events"`
		}{Events: make([]eventJSON, 0, len(evs))}
		for _, ev := range evs {
			out.Events = append(out.Events, toEventJSON(ev))
		}
		return writeJSON(e.stdout, out)
	}
	if len(evs) == 0 {
		fmt.Fprintln(e.stdout, "no events")
		return nil
	}
	tty := isTerminal(e.stdout)
	for _, ev := range evs {
		printEventLine(e.stdout, ev, "", tty, true)
	}
	if len(evs) == o.limit {
		fmt.Fprintf(e.stdout, "(newest %d shown; --limit N for more)\n", o.limit)
	}
	return nil
}

// eventJSON is an event as every --json listing prints it (DESIGN.md, history --json).
type eventJSON struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	SessionID string `json:"session_id"`
	Project   string `json:"project"`
	Timestamp string `json:"timestamp"`
	Text      string `json:"text"`
}

// toEventJSON is ev for --json; a bookkeeping event, which has no text of its
// own, gets the summary human listings print, so no event's text is empty.
func toEventJSON(ev store.Event) eventJSON {
	text := ev.Text
	if text == "" {
		text = describeEvent(ev)
	}
	return eventJSON{ID: strconv.FormatInt(ev.ID, 10), Type: ev.Type, SessionID: ev.SessionID, Project: ev.Project,
		Timestamp: jsonTime(ev.Time), Text: text}
}

func eventsJSON(evs []store.Event) []eventJSON {
	out := make([]eventJSON, 0, len(evs))
	for _, ev := range evs {
		out = append(out, toEventJSON(ev))
	}
	return out
}

// jsonTime is the timestamp format of every --json output; the zero time is "".
func jsonTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// humanTime is the timestamp format of human output, in UTC like the store.
func humanTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// printEventLine prints one event on one line: mark ("*", ">") flags the
// events a listing is about; withSession adds the session's short id.
func printEventLine(w io.Writer, ev store.Event, mark string, tty, withSession bool) {
	typ := fmt.Sprintf("%-17s", ev.Type)
	if tty {
		typ = "\x1b[1m" + typ + "\x1b[0m"
	}
	sess := ""
	if withSession {
		sess = fmt.Sprintf("%-8s  ", shortID(ev.SessionID))
	}
	fmt.Fprintf(w, "%1s %-6s %s  %s %s%s\n", mark, "#"+strconv.FormatInt(ev.ID, 10), humanTime(ev.Time), typ, sess, clipLine(describeEvent(ev), 110))
}

// resolveSession turns a session id as listings print it (shortID) into the
// full id (store.DB.ResolveSession, in every project); an ambiguous one is
// a usage error listing the candidates.
func resolveSession(ctx context.Context, db *store.DB, id string) (string, error) {
	if db == nil {
		return id, nil
	}
	full, err := db.ResolveSession(ctx, id, "")
	if errors.Is(err, store.ErrAmbiguousSession) {
		return "", usageError{err}
	}
	return full, err
}

func shortID(id string) string {
	if id == "" {
		return "-"
	}
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// describeEvent is an event in words: the text of what was said or done, and
// a summary of the payload of bookkeeping events, which have no text.
func describeEvent(ev store.Event) string {
	p := gjson.ParseBytes(ev.Payload)
	switch ev.Type {
	case store.TypeMemoryCited:
		list := func(k string) string {
			var cids []string
			for _, c := range p.Get(k).Array() {
				cids = append(cids, c.String())
			}
			return strings.Join(cids, ", ")
		}
		s := "an answer cited " + list("cited")
		if u := list("used"); u != "" {
			s += "; used " + u
		}
		if u := list("unshown"); u != "" {
			s += "; not shown " + u
		}
		if u := list("unknown"); u != "" {
			s += "; unknown " + u
		}
		return s
	case store.TypeMemoryInjected:
		var cids []string
		for _, c := range p.Get("memories").Array() {
			cids = append(cids, c.String())
		}
		s := fmt.Sprintf("injected %s (%d chars)", strings.Join(cids, ", "), p.Get("chars").Int())
		if n := p.Get("warnings").Int(); n > 0 {
			s += fmt.Sprintf(", %s", plural.Of(int(n), "conflict warning"))
		}
		return s
	case store.TypeEvidenceAligned:
		return fmt.Sprintf("aligned %d of %d quotes: %s", p.Get("aligned").Int(), p.Get("aligned").Int()+p.Get("failed").Int(), p.Get("stage").String())
	case store.TypeConflict:
		return fmt.Sprintf("%s: %s vs %s: %s", p.Get("kind").String(), p.Get("older").String(), p.Get("newer").String(), p.Get("reason").String())
	case store.TypeCertified:
		return "certified " + p.Get("cid").String()
	case store.TypeRejected:
		return "rejected " + p.Get("cid").String()
	case store.TypeSelfCheck:
		return p.Get("line").String()
	case store.TypeSelfCheckShown:
		return "self-check #" + p.Get("check").String() + " shown"
	case store.TypePinned:
		return "pinned " + p.Get("cid").String()
	case store.TypeUnpinned:
		return "unpinned " + p.Get("cid").String()
	case store.TypeEdited:
		var changes []string
		for _, k := range []string{"type", "title", "body"} {
			if f := p.Get("from." + k); f.Exists() {
				changes = append(changes, fmt.Sprintf("%s %q → %q", k, clipLine(f.String(), 60), clipLine(p.Get("to."+k).String(), 60)))
			}
		}
		return "edited " + p.Get("cid").String() + ": " + strings.Join(changes, "; ")
	case store.TypeForgotten:
		var kinds []string
		for _, k := range p.Get("selector").Array() {
			kinds = append(kinds, k.String())
		}
		return fmt.Sprintf("forgot by %s: %s, %s deleted, %s redacted", strings.Join(kinds, "+"),
			plural.Of(int(p.Get("entries").Int()), "entry"), plural.Of(int(p.Get("events_deleted").Int()), "event"),
			plural.Of(int(p.Get("events_redacted").Int()), "event"))
	case store.TypeSessionStarted:
		if s := p.Get("source").String(); s != "" {
			return "session started (" + s + ")"
		}
		return "session started"
	case store.TypeSessionEnded:
		if s := p.Get("reason").String(); s != "" {
			return "session ended (" + s + ")"
		}
		return "session ended"
	case store.TypeSessionProcessed:
		return fmt.Sprintf("imported %s (%s) with %s", plural.Of(int(p.Get("messages").Int()), "message"),
			byteSize(p.Get("bytes").Int()), p.Get("extractor").String())
	case store.TypeConflictResolved:
		return fmt.Sprintf("resolved the conflict of %s and %s: %s", p.Get("older").String(), p.Get("newer").String(), p.Get("resolution").String())
	case store.TypeDigestSkipped:
		return "no digest: the session has nothing the user said or a tool read to quote"
	case store.TypeSpoolFolded:
		return fmt.Sprintf("stored %s spooled while the store was busy", plural.Of(int(p.Get("records").Int()), "record"))
	case store.TypeLLMCall:
		s := fmt.Sprintf("%s call: %d input, %d output tokens", p.Get("extractor").String(), p.Get("input_tokens").Int(), p.Get("output_tokens").Int())
		if usd := p.Get("cost_usd").Float(); usd > 0 {
			s += fmt.Sprintf(", $%.4f", usd)
		}
		return s
	case store.TypeBudgetReached:
		return fmt.Sprintf("LLM budget reached: %s %s cap %v, spent %v", p.Get("window").String(), p.Get("cap").String(), p.Get("limit").Value(), p.Get("spent").Value())
	}
	if ev.Text != "" {
		return ev.Text
	}
	if s := strings.TrimSpace(string(ev.Payload)); s != "" && s != "{}" {
		return ev.Type + " " + s
	}
	return ev.Type
}

// clipLine folds text onto one line and cuts it to about n runes.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// argsStdinFlag makes a command take (more of) its arguments from stdin. The
// slash commands in commands/*.md use it to hand over the user's text in a
// quoted heredoc: text substituted into a shell command line could become
// shell syntax, a heredoc body cannot, and Claude Code's permission check
// accepts a heredoc where it refuses variables. --args-stdin splits the text
// into words (quotes group, nothing is expanded); --args-stdin=text passes it
// whole as one last argument, after "--".
const argsStdinFlag = "--args-stdin"

// argsPromptFlag is --args-stdin with the text taken from what the
// UserPromptSubmit hook saved of the prompt that invoked the slash command
// (see package cmdargs), for the session in $CLAUDE_CODE_SESSION_ID. The
// command files use it: their shell block then holds no user text at all.
const argsPromptFlag = "--args-from-prompt"

// maxStdinArgs caps the text read for --args-stdin.
const maxStdinArgs = 64 << 10

// expandStdinArgs replaces --args-stdin[=words|=text] in args (before any
// "--") with the arguments read from e.stdin, or --args-from-prompt with
// those the hook saved. It also returns the arguments
// that came from stdin, so that a command can refuse some of them there.
func expandStdinArgs(e *env, args []string) (all, fromStdin []string, err error) {
	at, flag, mode := -1, "", ""
	for i, a := range args {
		if a == "--" {
			break
		}
		for _, f := range []string{argsStdinFlag, argsPromptFlag} {
			if a == f || strings.HasPrefix(a, f+"=") {
				at, flag, mode = i, f, strings.TrimPrefix(strings.TrimPrefix(a, f), "=")
			}
		}
		if at >= 0 {
			break
		}
	}
	if at < 0 {
		return args, nil, nil
	}
	if mode != "" && mode != "words" && mode != "text" {
		return nil, nil, usagef("%s=%s: want words or text", flag, mode)
	}
	var text string
	if flag == argsPromptFlag {
		cfg, err := loadConfig(e)
		if err != nil {
			return nil, nil, err
		}
		if text, err = cmdargs.Take(cfg.DataDir, e.getenv("CLAUDE_CODE_SESSION_ID")); err != nil {
			return nil, nil, fmt.Errorf("%s: %w (the plugin's UserPromptSubmit hook saves them; is it enabled?)", flag, err)
		}
		text = strings.TrimSpace(text)
	} else if e.stdin != nil {
		b, err := io.ReadAll(io.LimitReader(e.stdin, maxStdinArgs+1))
		if err != nil {
			return nil, nil, fmt.Errorf("read arguments from stdin: %w", err)
		}
		if len(b) > maxStdinArgs {
			return nil, nil, usagef("arguments on stdin exceed %d bytes", maxStdinArgs)
		}
		text = strings.TrimSpace(string(b))
	}
	rest := append([]string{}, args[:at]...)
	after := args[at+1:]
	if mode == "text" {
		rest = append(rest, after...)
		if text != "" {
			fromStdin = []string{text}
			if indexOf(rest, "--") < 0 {
				rest = append(rest, "--")
			}
			rest = append(rest, text)
		}
		return rest, fromStdin, nil
	}
	fromStdin = cmdargs.Split(text)
	rest = append(rest, fromStdin...)
	return append(rest, after...), fromStdin, nil
}

func indexOf(l []string, s string) int {
	for i, x := range l {
		if x == s {
			return i
		}
	}
	return -1
}

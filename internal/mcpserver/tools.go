package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/inspect"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/task"
	"github.com/claude-memory-layer/claude-memory-layer/internal/when"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
)

// Limits that keep every answer a few hundred tokens unless asked for more.
const (
	defaultLimit  = 10
	maxLimit      = 50
	defaultWindow = 5
	maxWindow     = 25
	maxGet        = 10
	lineRunes     = 160  // one result line's text
	messageRunes  = 4000 // a message in full, as get shows it
)

const searchDoc = `Search this project's memory: distilled memories ([mem:…]) and captured prompts, answers and tool calls (#N). ` +
	`Returns one line per hit, best first: id, kind, type, date, score, text. Rephrase and search again when nothing fits; ` +
	`then use timeline for what happened around a hit and get for the full record.`

type searchIn struct {
	Query       string   `json:"query" jsonschema:"words to look for"`
	Kind        []string `json:"kind,omitempty" jsonschema:"only these kinds: entry (a distilled memory), user_prompt, agent_response, tool_observation"`
	Type        []string `json:"type,omitempty" jsonschema:"only memories of these types: decision, fact, preference, constraint, lesson, task, reference"`
	Since       string   `json:"since,omitempty" jsonschema:"only from this date on: YYYY-MM-DD, or relative: today, yesterday, 12h, 3d, 2w, 3 days ago"`
	Until       string   `json:"until,omitempty" jsonschema:"only before this date: YYYY-MM-DD, or relative: today, yesterday, 3d, 2w"`
	Session     string   `json:"session,omitempty" jsonschema:"only this session: its id, or the first characters of it as listings print them"`
	AllProjects bool     `json:"all_projects,omitempty" jsonschema:"search every project, not only this one"`
	Limit       int      `json:"limit,omitempty" jsonschema:"results per page, 1 to 50; default 10"`
	Offset      int      `json:"offset,omitempty" jsonschema:"results to skip, for the next page"`
}

func (s *Server) search(ctx context.Context, _ *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, any, error) {
	opt := recall.SearchOptions{Query: strings.TrimSpace(in.Query), Kinds: in.Kind, Types: in.Type, Session: in.Session}
	if opt.Query == "" {
		return nil, nil, errors.New("query is empty")
	}
	limit, err := bounded("limit", in.Limit, defaultLimit, maxLimit)
	if err != nil {
		return nil, nil, err
	}
	if in.Offset < 0 {
		return nil, nil, fmt.Errorf("offset %d: must not be negative", in.Offset)
	}
	for _, k := range in.Kind {
		switch k {
		case recall.KindEntry, store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation:
		default:
			return nil, nil, fmt.Errorf("kind %q: want entry, user_prompt, agent_response or tool_observation", k)
		}
	}
	for _, t := range in.Type {
		if !validType(extract.Type(t)) && t != store.DigestType {
			return nil, nil, fmt.Errorf("type %q: want decision, fact, preference, constraint, lesson, task, reference or digest", t)
		}
	}
	if opt.Since, err = s.date("since", in.Since); err != nil {
		return nil, nil, err
	}
	if opt.Until, err = s.date("until", in.Until); err != nil {
		return nil, nil, err
	}
	// One more than the page tells whether another page follows.
	opt.Limit = in.Offset + limit + 1
	db, empty, err := s.reader(ctx)
	if db == nil {
		return empty, nil, err
	}
	opt.Project = s.scope(in.AllProjects) // as the store files it, once read
	// A session id as listings print it (its first characters), in the
	// search's scope: another project's sessions are never named.
	if opt.Session, err = db.ResolveSession(ctx, strings.TrimSpace(in.Session), opt.Project); err != nil {
		return nil, nil, err
	}
	res, err := recall.Search(ctx, db, opt)
	if err != nil {
		return nil, nil, err
	}
	more := len(res) > in.Offset+limit
	res = res[min(in.Offset, len(res)):min(in.Offset+limit, len(res))]
	var b strings.Builder
	where := "this project"
	if opt.Project == "" {
		where = "all projects"
	}
	if len(res) == 0 {
		fmt.Fprintf(&b, "Nothing found for %q in %s", opt.Query, where)
		if in.Offset > 0 {
			fmt.Fprintf(&b, " past result %d", in.Offset)
		}
		b.WriteString(". Try other words, a synonym, or all_projects.")
		return text(b.String()), nil, nil
	}
	fmt.Fprintf(&b, "Results %d-%d for %q in %s:\n", in.Offset+1, in.Offset+len(res), opt.Query, where)
	for _, r := range res {
		id, typ := r.ID, r.Kind
		if r.Kind == recall.KindEntry {
			id, typ = "["+r.ID+"]", oneLine(r.Type, lineRunes)
			if r.Stage != store.StageVerified && r.Stage != store.StageCertified || r.Status != store.StatusActive {
				typ += "," + r.Stage + "," + r.Status
			}
		} else {
			if n, err := strconv.ParseInt(r.ID, 10, 64); err == nil {
				id = "[" + store.EventCID(n) + "]" // cited like an entry, as the hook shows messages
			}
			typ = r.Kind
		}
		fmt.Fprintf(&b, "%s %s %s %.2f: %s\n", id, typ, day(r.Timestamp), r.Score, oneLine(r.Text, lineRunes))
	}
	if more {
		fmt.Fprintf(&b, "More: offset=%d\n", in.Offset+limit)
	}
	return text(b.String()), nil, nil
}

const timelineDoc = `What happened around a memory, a message or a date: the neighbouring prompts, answers and tool calls in order, one line each. ` +
	`Give id ([mem:…] or #N) or date. For a memory: the messages around its quotes (>) and its own record (+), the first and the latest of each kind; the rest are counted.`

type timelineIn struct {
	ID          string `json:"id,omitempty" jsonschema:"a memory [mem:…] or a message #N to centre on"`
	Date        string `json:"date,omitempty" jsonschema:"instead of id: a date YYYY-MM-DD, a time RFC 3339 or a relative time (yesterday, 3d) to centre on"`
	Window      int    `json:"window,omitempty" jsonschema:"messages before and after, 1 to 25; default 5"`
	AllProjects bool   `json:"all_projects,omitempty" jsonschema:"every project's messages and memories, not only this one's"`
}

func (s *Server) timeline(ctx context.Context, _ *mcp.CallToolRequest, in timelineIn) (*mcp.CallToolResult, any, error) {
	window, err := bounded("window", in.Window, defaultWindow, maxWindow)
	if err != nil {
		return nil, nil, err
	}
	if (in.ID == "") == (in.Date == "") {
		return nil, nil, errors.New("give either id or date")
	}
	var at time.Time
	if in.Date != "" {
		if at, err = s.date("date", in.Date); err != nil {
			return nil, nil, err
		}
	} else if _, _, err := inspect.Parse(in.ID); err != nil {
		return nil, nil, err
	}
	db, empty, err := s.reader(ctx)
	if db == nil {
		return empty, nil, err
	}
	var b strings.Builder
	if in.Date != "" {
		f := store.EventFilter{Project: s.scope(in.AllProjects), Types: conversation}
		f.Before, f.Newest, f.Limit = at, true, window
		before, err := db.Read().Events(ctx, f)
		if err != nil {
			return nil, nil, err
		}
		f.Before, f.Since, f.Newest = time.Time{}, at, false
		after, err := db.Read().Events(ctx, f)
		if err != nil {
			return nil, nil, err
		}
		evs := append(before, after...)
		if len(evs) == 0 {
			return text("No messages stored around " + in.Date + "."), nil, nil
		}
		inspect.SortEvents(evs)
		fmt.Fprintf(&b, "Around %s:\n", at.UTC().Format("2006-01-02 15:04"))
		writeEvents(&b, evs, func(store.Event) string { return "" })
		return text(b.String()), nil, nil
	}
	ref, err := s.lookup(ctx, db, in.ID, in.AllProjects)
	if err != nil {
		return nil, nil, err
	}
	if ref.Event != nil {
		before, after, err := inspect.NewSessions(db).Around(ctx, *ref.Event, window)
		if err != nil {
			return nil, nil, err
		}
		evs := append(append(before, *ref.Event), after...)
		fmt.Fprintf(&b, "Around %s:\n", ref.ID())
		writeEvents(&b, evs, func(ev store.Event) string {
			if ev.ID == ref.Event.ID {
				return ">"
			}
			return ""
		})
		return text(b.String()), nil, nil
	}
	x := *ref.Entry
	items, left, err := inspect.Timeline(ctx, db, x, window, timelineQuotes)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(&b, "Timeline of [%s] %s: %s\n", x.CID, oneLine(x.Type, lineRunes), oneLine(x.Title, lineRunes))
	evs := make([]store.Event, len(items))
	roles := map[int64]string{}
	for i, it := range items {
		evs[i], roles[it.ID] = it.Event, it.Role
	}
	writeEvents(&b, evs, func(ev store.Event) string {
		return map[string]string{"evidence": ">", "lifecycle": "+"}[roles[ev.ID]]
	})
	if note := left.Note(); note != "" {
		fmt.Fprintf(&b, "(%s)\n", note)
	}
	return text(b.String()), nil, nil
}

// timelineQuotes is how many of a memory's quotes timeline shows the
// messages around (each brings up to twice the window of lines), and of
// its records of each kind.
const timelineQuotes = 3

var conversation = []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}

// writeEvents writes one line per event, a session line where the session changes.
func writeEvents(b *strings.Builder, evs []store.Event, mark func(store.Event) string) {
	session := ""
	for _, ev := range evs {
		if ev.SessionID != session {
			fmt.Fprintf(b, "session %s\n", oneLine(ev.SessionID, lineRunes))
			session = ev.SessionID
		}
		fmt.Fprintf(b, "%1s[%s] %s %s: %s\n", mark(ev), store.EventCID(ev.ID), ev.Time.UTC().Format("2006-01-02 15:04"), ev.Type, clipLine(describe(ev), lineRunes))
	}
}

// describe is the one line an event gets in a listing.
func describe(ev store.Event) string {
	p := gjson.ParseBytes(ev.Payload)
	switch ev.Type {
	case store.TypeMemoryInjected:
		return "injected " + strings.Join(strs(p.Get("memories")), " ")
	case store.TypeMemoryCited:
		return "an answer cited " + strings.Join(strs(p.Get("cited")), " ")
	case store.TypeConflict:
		return recall.Inert(p.Get("kind").String() + ": " + p.Get("older").String() + " / " + p.Get("newer").String())
	}
	if ev.Text != "" {
		return recall.Inert(ev.Text)
	}
	return ev.Type
}

func strs(r gjson.Result) []string {
	var out []string
	for _, v := range r.Array() {
		out = append(out, "["+recall.Inert(v.String())+"]")
	}
	return out
}

const getDoc = `The full record of memories ([mem:…]) and captured messages (#N), at most 10 ids: ` +
	`a memory with its quotes in the messages they came from and those messages' neighbours (the first said and the latest; the rest are counted), its conflicts and how often it was injected and used; ` +
	`a message in full with the turns around it.`

type getIn struct {
	IDs         []string `json:"ids" jsonschema:"memory ids like mem:ab12cd (or ab12cd) and message ids like #123 or mem:t2bx"`
	AllProjects bool     `json:"all_projects,omitempty" jsonschema:"look the ids up in every project, not only this one"`
}

func (s *Server) get(ctx context.Context, _ *mcp.CallToolRequest, in getIn) (*mcp.CallToolResult, any, error) {
	if len(in.IDs) == 0 || len(in.IDs) > maxGet {
		return nil, nil, fmt.Errorf("ids: give 1 to %d ids, got %d", maxGet, len(in.IDs))
	}
	// One bad id costs only its own answer; only when none is an id at all
	// is the call an error.
	var bad []string
	for _, id := range in.IDs {
		if _, _, err := inspect.Parse(id); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if len(bad) == len(in.IDs) {
		return nil, nil, errors.New(strings.Join(bad, "; "))
	}
	db, empty, err := s.reader(ctx)
	if db == nil {
		return empty, nil, err
	}
	sc := inspect.NewSessions(db)
	var b strings.Builder
	for i, id := range in.IDs {
		if i > 0 {
			b.WriteString("\n")
		}
		if _, _, err := inspect.Parse(id); err != nil {
			fmt.Fprintf(&b, "%s: not a memory id (mem:ab12cd, ab12cd) or a message id (#123, t2bx)\n", strings.Trim(id, "[] "))
			continue
		}
		ref, err := s.lookup(ctx, db, id, in.AllProjects)
		if errors.Is(err, inspect.ErrNotFound) {
			what := "not found"
			if errors.Is(err, errOtherProject) {
				what = err.Error()
			}
			fmt.Fprintf(&b, "%s: %s\n", strings.Trim(id, "[] "), what)
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if ref.Event != nil {
			if err := writeMessage(ctx, &b, sc, *ref.Event); err != nil {
				return nil, nil, err
			}
			continue
		}
		m, err := inspect.LoadMemory(ctx, db, sc, ref.Entry.CID, 1, getQuotes)
		if err != nil {
			return nil, nil, err
		}
		writeMemory(&b, m)
	}
	return text(b.String()), nil, nil
}

// errOtherProject is an id of another project's memory or message: not
// found, as far as the session can tell.
var errOtherProject error = otherProject{}

type otherProject struct{}

func (otherProject) Error() string {
	return "not in the session's project (all_projects looks in every project)"
}

func (otherProject) Is(target error) bool { return target == inspect.ErrNotFound }

// lookup finds the memory or message id names in the session's project,
// or in any with all: ids are sequential, and another project's are
// reported as not found.
func (s *Server) lookup(ctx context.Context, db *store.DB, id string, all bool) (inspect.Ref, error) {
	ref, err := inspect.Lookup(ctx, db, id)
	if err != nil {
		return ref, err
	}
	project := ""
	switch {
	case ref.Entry != nil:
		project = ref.Entry.Project
	case ref.Event != nil:
		project = ref.Event.Project
	}
	if scope := s.scope(all); scope != "" && project != scope {
		return inspect.Ref{}, errOtherProject
	}
	return ref, nil
}

func writeMessage(ctx context.Context, b *strings.Builder, sc *inspect.Sessions, ev store.Event) error {
	fmt.Fprintf(b, "[%s] %s %s, session %s, project %s\n", store.EventCID(ev.ID), ev.Type, ev.Time.UTC().Format("2006-01-02 15:04:05"),
		oneLine(ev.SessionID, lineRunes), oneLine(ev.Project, lineRunes))
	body := recall.Inert(ev.Text)
	if utf8.RuneCountInString(body) > messageRunes {
		body = string([]rune(body)[:messageRunes]) + "… (cut)"
	}
	if body == "" {
		body = describe(ev)
	}
	b.WriteString(body + "\n")
	before, after, err := sc.Around(ctx, ev, 1)
	if err != nil {
		return err
	}
	for _, n := range append(before, after...) {
		fmt.Fprintf(b, "  [%s] %s: %s\n", store.EventCID(n.ID), n.Type, oneLine(n.Text, lineRunes))
	}
	return nil
}

// getQuotes is how many of a memory's quotes get shows: a claim said in
// every session has one per session, and a thousand of them would fill the
// model's context with the same words.
const getQuotes = 5

func writeMemory(b *strings.Builder, m inspect.Memory) {
	x := m.Entry
	fmt.Fprintf(b, "[%s] %s, %s, %s, %s, session %s, project %s\n", x.CID, oneLine(x.Type, lineRunes), x.Stage, x.Status, day(x.Created),
		oneLine(x.SessionID, lineRunes), oneLine(x.Project, lineRunes))
	b.WriteString(recall.Inert(x.Title) + "\n")
	if x.Body != "" && x.Body != x.Title {
		b.WriteString(recall.Inert(x.Body) + "\n")
	}
	if x.PromotionBlocked != "" {
		fmt.Fprintf(b, "Not verified: %s\n", recall.Inert(x.PromotionBlocked))
	}
	if len(x.Questions) > 0 {
		fmt.Fprintf(b, "Answers: %s\n", recall.Inert(strings.Join(x.Questions, " · ")))
	}
	hist := fmt.Sprintf("History: saved %s in session %s; injected into %d prompts", day(x.Created), oneLine(x.SessionID, lineRunes), x.InjectCount)
	if n := len(m.Injections); n > 0 {
		hist += ", last " + day(m.Injections[n-1].Time)
	}
	hist += fmt.Sprintf("; used by %d answers", x.UseCount)
	if n := len(m.Citations); n > 0 {
		hist += fmt.Sprintf(", last %s in session %s", day(m.Citations[n-1].Time), m.Citations[n-1].SessionID)
	}
	b.WriteString(hist + ".\n")
	for _, v := range m.Evidence {
		where := "not found"
		if v.Aligned() {
			where = fmt.Sprintf("%s match", v.Method)
			if v.Event != nil {
				where += fmt.Sprintf(" in [%s] (%s, %s)", store.EventCID(v.Event.ID), v.Event.Type, v.Event.Time.UTC().Format("2006-01-02 15:04"))
			}
		}
		fmt.Fprintf(b, "Evidence %d: %q, %s\n", v.N, recall.Inert(v.Quote), where)
		if v.Event == nil {
			continue
		}
		for _, n := range v.Before {
			fmt.Fprintf(b, "  [%s] %s: %s\n", store.EventCID(n.ID), n.Type, oneLine(n.Text, lineRunes))
		}
		fmt.Fprintf(b, "> [%s] %s: %s\n", store.EventCID(v.Event.ID), v.Event.Type, around(v.Event.Text, v.SpanStart, v.SpanEnd, 2*lineRunes))
		for _, n := range v.After {
			fmt.Fprintf(b, "  [%s] %s: %s\n", store.EventCID(n.ID), n.Type, oneLine(n.Text, lineRunes))
		}
	}
	if note := m.Note(); note != "" {
		fmt.Fprintf(b, "(%s)\n", note)
	}
	for _, c := range m.Conflicts {
		other := "[" + c.Other + "]"
		if c.Other == "" {
			other = "a memory since forgotten"
		}
		line := fmt.Sprintf("Conflict: %s %s", strings.ReplaceAll(c.Relation, "_", " "), other)
		if c.OtherTitle != "" {
			line += ": " + oneLine(c.OtherTitle, lineRunes)
		}
		if c.Reason != "" {
			line += " (" + oneLine(c.Reason, 4*lineRunes) + ")"
		}
		if c.Resolution != "" {
			line += "; resolved: " + c.Resolution
		}
		b.WriteString(line + "\n")
	}
}

const rememberDoc = `Save a memory for later sessions: a decision, fact, preference, constraint, lesson, task or reference from this session. ` +
	`quote must be copied verbatim from this session (the user's words, or a tool's output such as a file read or a command's result; not this turn's own answer): ` +
	`it is aligned against the stored messages like any extracted quote. Found in what the user said or a tool read, the memory is saved verified; ` +
	`found only in the model's own words (its answers, a command's input, a file it wrote), it is saved unverified; otherwise nothing is saved and the reason is returned.`

type rememberIn struct {
	Title   string `json:"title" jsonschema:"the memory as one plain statement, at most 80 characters"`
	Quote   string `json:"quote" jsonschema:"words from this session the memory rests on, copied verbatim"`
	Type    string `json:"type,omitempty" jsonschema:"decision, fact, preference, constraint, lesson, task or reference; default fact"`
	Body    string `json:"body,omitempty" jsonschema:"the claim in one or two sentences when the title is not enough"`
	Subject string `json:"subject,omitempty" jsonschema:"what the claim is about in a few words (e.g. jwt signing); memories on one subject are checked for conflicts"`
}

// maxRemember bounds what one remember call may store.
const (
	maxTitle = 200
	maxBody  = 2000
	maxQuote = 1000
)

func (s *Server) remember(ctx context.Context, _ *mcp.CallToolRequest, in rememberIn) (*mcp.CallToolResult, any, error) {
	// The model's own words are stored as they come, so they pass the same
	// filter as captured text: <private> sections and secrets never reach
	// the store. So does the quote, which the model copied from what it saw
	// before capture masked it; found, it is kept as the stored message's
	// words (Processor.entry).
	x := extract.Entry{Type: extract.Fact, Title: clean(in.Title), Body: clean(in.Body), Subject: clean(in.Subject),
		Evidence: []extract.Evidence{{Quote: clean(in.Quote)}}}
	if in.Type != "" {
		x.Type = extract.Type(in.Type)
	}
	switch {
	case !validType(x.Type):
		return nil, nil, fmt.Errorf("type %q: want decision, fact, preference, constraint, lesson, task or reference", in.Type)
	case x.Title == "":
		return nil, nil, errors.New("title is empty")
	case x.Evidence[0].Quote == "":
		return nil, nil, errors.New("quote is empty: a memory needs words of this session to rest on")
	case utf8.RuneCountInString(x.Title) > maxTitle, utf8.RuneCountInString(x.Body) > maxBody, utf8.RuneCountInString(x.Evidence[0].Quote) > maxQuote:
		return nil, nil, fmt.Errorf("too long: title at most %d characters, body %d, quote %d", maxTitle, maxBody, maxQuote)
	}
	if x.Body == "" {
		x.Body = x.Title
	}
	db, err := s.write(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	// The turn under way, whose prompt the quote usually comes from, is in
	// the spool: stored first, it names the session and can be quoted.
	if err := db.Fold(ctx); err != nil {
		return nil, nil, err
	}
	sessions, err := s.sessions(ctx, db)
	if err != nil {
		return nil, nil, err
	}
	p := &pipeline.Processor{DB: db, Log: s.Log, Now: s.Now}
	var r pipeline.Remembered
	var sid string
	for _, sid = range sessions {
		r, err = p.Remember(ctx, sid, x, pipeline.PluginCall) // these tools and the CLI vouch for nothing
		if !errors.Is(err, pipeline.ErrNotAligned) {
			break
		}
	}
	if errors.Is(err, pipeline.ErrNotAligned) {
		return nil, nil, fmt.Errorf("not saved: the quote is not in this session (%v); copy it verbatim from a stored message", err)
	}
	if err != nil {
		return nil, nil, err
	}
	e := r.Entry
	v := e.Evidence[len(e.Evidence)-1]
	for _, ev := range e.Evidence {
		if ev.SessionID == sid && ev.Quote == x.Evidence[0].Quote {
			v = ev
		}
	}
	var b strings.Builder
	switch {
	case r.Created && e.Stage == store.StageCandidate:
		fmt.Fprintf(&b, "Saved [%s] %s, %s, not verified: the quote is found (%s match) in [%s], but only in words the model wrote "+
			"(an answer, a tool call's input, a file it wrote), which vouch for nothing; the user can verify it.", e.CID, e.Type, e.Stage, v.Method, store.EventCID(v.EventID))
	case r.Created:
		fmt.Fprintf(&b, "Saved [%s] %s, %s: quote found (%s match) in [%s].", e.CID, e.Type, e.Stage, v.Method, store.EventCID(v.EventID))
	default:
		fmt.Fprintf(&b, "Already known as [%s] %s, %s; the quote (%s match in [%s]) was added to its evidence.", e.CID, e.Type, e.Stage, v.Method, store.EventCID(v.EventID))
	}
	if r.Conflicts > 0 {
		fmt.Fprintf(&b, " It conflicts with %d earlier memories: see get or conflicts.", r.Conflicts)
	}
	s.Log.Info("remembered", "cid", e.CID, "session", sid, "created", r.Created)
	return text(b.String()), nil, nil
}

// sessions are the sessions remember may quote, in the order tried: the
// one Claude Code started this server for, then the one whose prompt in this
// project is the newest (the prompt that led to this call, once the spool
// is folded). They differ after /clear, which starts a new session
// under the same server, or when another session of the project is running.
func (s *Server) sessions(ctx context.Context, db *store.DB) ([]string, error) {
	var out []string
	if s.SessionID != "" {
		out = append(out, s.SessionID)
	}
	// Remember may be the first call, on a connection read never opened.
	project, err := db.Read().RecordedProject(ctx, s.Project)
	if err != nil {
		return nil, err
	}
	evs, err := db.Read().Events(ctx, store.EventFilter{Project: project, Types: []string{store.TypeUserPrompt}, Newest: true, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(evs) > 0 && evs[0].SessionID != s.SessionID {
		out = append(out, evs[0].SessionID)
	}
	if len(out) == 0 {
		return nil, errors.New("no session of this project has been captured yet, so there is nothing to quote")
	}
	return out, nil
}

const conflictsDoc = `Open conflicts in this project's memory: pairs of memories that contradict each other and are not resolved, newest first, both sides with their dates and quotes.`

type conflictsIn struct {
	AllProjects bool `json:"all_projects,omitempty" jsonschema:"every project's conflicts, not only this one's"`
	Limit       int  `json:"limit,omitempty" jsonschema:"conflicts at most, 1 to 50; default 10"`
}

func (s *Server) conflicts(ctx context.Context, _ *mcp.CallToolRequest, in conflictsIn) (*mcp.CallToolResult, any, error) {
	limit, err := bounded("limit", in.Limit, defaultLimit, maxLimit)
	if err != nil {
		return nil, nil, err
	}
	db, empty, err := s.reader(ctx)
	if db == nil {
		return empty, nil, err
	}
	cs, err := db.OpenConflicts(ctx, s.scope(in.AllProjects), limit)
	if err != nil {
		return nil, nil, err
	}
	if len(cs) == 0 {
		return text("No open conflicts."), nil, nil
	}
	var b strings.Builder
	for i, c := range cs {
		older, errA := db.Read().EntryByID(ctx, c.Older)
		newer, errB := db.Read().EntryByID(ctx, c.Newer)
		if errA != nil || errB != nil {
			continue
		}
		fmt.Fprintf(&b, "%d. %s, recorded %s", i+1, c.Kind, day(c.Detected))
		if c.Reason != "" {
			b.WriteString(": " + oneLine(c.Reason, 4*lineRunes))
		}
		b.WriteString("\n")
		for _, x := range []store.Entry{older, newer} {
			fmt.Fprintf(&b, "  [%s] %s %s: %s", x.CID, oneLine(x.Type, lineRunes), day(x.Created), oneLine(x.Title, lineRunes))
			if q := bestQuote(x); q != "" {
				fmt.Fprintf(&b, " — %q", oneLine(q, lineRunes))
			}
			b.WriteString("\n")
		}
	}
	return text(b.String()), nil, nil
}

const tasksDoc = `What earlier sessions of this project left to do: open tasks (work put off, plan steps not done, blockers), newest first, each with its date and the quote it rests on; with all, closed tasks too and the words that closed them. A task closes itself when a later session finishes it; the user closes or drops one by hand (claude-memory-layer tasks close|drop mem:ID).`

type tasksIn struct {
	All         bool `json:"all,omitempty" jsonschema:"closed tasks too, with what closed them"`
	AllProjects bool `json:"all_projects,omitempty" jsonschema:"every project's tasks, not only this one's"`
	Limit       int  `json:"limit,omitempty" jsonschema:"tasks at most, 1 to 50; default 10"`
}

func (s *Server) tasks(ctx context.Context, _ *mcp.CallToolRequest, in tasksIn) (*mcp.CallToolResult, any, error) {
	limit, err := bounded("limit", in.Limit, defaultLimit, maxLimit)
	if err != nil {
		return nil, nil, err
	}
	db, empty, err := s.reader(ctx)
	if db == nil {
		return empty, nil, err
	}
	ts, err := task.List(ctx, db, s.scope(in.AllProjects), in.All)
	if err != nil {
		return nil, nil, err
	}
	if len(ts) == 0 {
		return text("No open tasks."), nil, nil
	}
	var b strings.Builder
	for _, t := range ts[:min(limit, len(ts))] {
		state := "open"
		if c := t.Closed; c != nil {
			state = c.How + " " + day(c.Time)
		}
		fmt.Fprintf(&b, "[%s] %s %s: %s", t.CID, state, day(t.Created), oneLine(t.Title, lineRunes))
		if q := bestQuote(t.Entry); q != "" {
			fmt.Fprintf(&b, " — %q", oneLine(q, lineRunes))
		}
		if t.Closed != nil && t.Closed.Quote != "" {
			fmt.Fprintf(&b, "; closed by %q", oneLine(t.Closed.Quote, lineRunes))
		}
		b.WriteString("\n")
	}
	if n := len(ts) - limit; n > 0 {
		fmt.Fprintf(&b, "and %d more (limit)\n", n)
	}
	return text(b.String()), nil, nil
}

func bestQuote(x store.Entry) string {
	q, best := "", -1.0
	for _, v := range x.Evidence {
		if v.Aligned() && v.Confidence > best {
			q, best = v.Quote, v.Confidence
		}
	}
	return q
}

// reader returns the store for a read tool. With no store yet, db is nil
// and empty says so: an empty memory is an answer, not an error.
func (s *Server) reader(ctx context.Context) (db *store.DB, empty *mcp.CallToolResult, err error) {
	db, err = s.read(ctx)
	if errors.Is(err, errNoStore) {
		return nil, text(err.Error()), nil
	}
	return db, nil, err
}

// text is a tool's answer. Stored text went through oneLine or
// recall.Inert already; Visible again over the whole is the last gate for
// characters nobody sees.
func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: recall.Visible(strings.TrimRight(s, "\n"))}}}
}

// bounded checks an optional count: 0 means def.
func bounded(name string, v, def, hi int) (int, error) {
	switch {
	case v == 0:
		return def, nil
	case v < 0 || v > hi:
		return 0, fmt.Errorf("%s %d: want 1 to %d", name, v, hi)
	}
	return v, nil
}

// date parses an optional date, time or relative time ("3d", "yesterday").
func (s *Server) date(name, v string) (time.Time, error) {
	if strings.TrimSpace(v) == "" {
		return time.Time{}, nil
	}
	t, err := when.Parse(v, s.Now())
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %v", name, err)
	}
	return t, nil
}

func day(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02")
}

// oneLine folds whitespace and clips s to n runes.
func oneLine(s string, n int) string { return clipLine(recall.Inert(s), n) }

// clipLine is s on one line, cut to n runes: for text of the tools' own
// making; stored text goes through oneLine.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// around shows the bytes [start, end) of text with up to width runes of
// context on one line, the span marked »…«.
func around(text string, start, end, width int) string {
	if start < 0 || end > len(text) || start >= end || !utf8.ValidString(text[start:end]) ||
		!utf8.RuneStart(text[start]) || end < len(text) && !utf8.RuneStart(text[end]) {
		return oneLine(text, width)
	}
	head := []rune(text[:start])
	tail := []rune(text[end:])
	pre, post := "", ""
	if len(head) > width/2 {
		head, pre = head[len(head)-width/2:], "…"
	}
	if len(tail) > width/2 {
		tail, post = tail[:width/2], "…"
	}
	return strings.TrimSpace(pre + oneLine(string(head), width) + " »" + oneLine(text[start:end], 4*width) + "« " + oneLine(string(tail), width) + post)
}

func clean(s string) string {
	return strings.TrimSpace(privacy.Filter(strings.ToValidUTF8(s, "\uFFFD")))
}

// validType reports whether t is an entry type.
func validType(t extract.Type) bool {
	switch t {
	case extract.Decision, extract.Fact, extract.Preference, extract.Constraint, extract.Lesson, extract.Task, extract.Reference:
		return true
	}
	return false
}

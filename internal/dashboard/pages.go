package dashboard

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/correct"
	"github.com/claude-memory-layer/claude-memory-layer/internal/inspect"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/task"
	"github.com/claude-memory-layer/claude-memory-layer/internal/team"
)

// pageData is what every template gets; each page fills its own part.
type pageData struct {
	Title   string
	Nav     string // the navigation entry to mark current
	CSRF    string
	Project string // "" for every project
	Flash   string
	Error   string
	Code    int

	Overview  *overviewData
	Memories  *memoriesData
	Memory    *memoryData
	Forget    *forgetData
	Message   *messageData
	Sessions  []sessionRow
	Session   *sessionData
	Conflicts []conflictRow
	Tasks     *tasksData
	Team      *teamData
}

func parseTemplates(base string) (map[string]*template.Template, error) {
	funcs := template.FuncMap{
		// base starts every link: the pages are under the server's base.
		"base":    func() string { return base },
		"when":    when,
		"clip":    clip,
		"msgID":   func(id int64) string { return store.EventCID(id) },
		"q":       url.QueryEscape,
		"plural":  plural.Of,
		"hasText": func(s string) bool { return strings.TrimSpace(s) != "" },
		"first": func(vs []store.Evidence) []store.Evidence {
			return vs[:min(len(vs), 1)]
		},
	}
	names, err := fs.Glob(assets, "templates/*.html")
	if err != nil {
		return nil, err
	}
	out := map[string]*template.Template{}
	for _, n := range names {
		name := strings.TrimSuffix(path.Base(n), ".html")
		if name == "layout" {
			continue
		}
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(assets, "templates/layout.html", n)
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", name, err)
		}
		out[name] = t
	}
	return out, nil
}

// page renders a whole page into memory first, so that a template error
// becomes a clean 500 rather than half a page.
func (s *Server) page(w http.ResponseWriter, code int, name string, d pageData) error {
	d.CSRF = s.csrf
	t := s.tmpl[name]
	if t == nil {
		return fmt.Errorf("no template %s", name)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return fmt.Errorf("render %s: %w", name, err)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, err := w.Write(b.Bytes())
	return err
}

func (s *Server) render(w http.ResponseWriter, name string, d pageData) error {
	return s.page(w, http.StatusOK, name, d)
}

// when is a timestamp as pages show it, in UTC like the store.
func when(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// clip shortens s to about n bytes on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// flashes are the messages a redirect after a change may show, by key, so
// that no text from the URL is echoed into the page.
var flashes = map[string]string{
	"certified":   "Verified: the memory is certified.",
	"rejected":    "Rejected: the memory is never injected.",
	"unchanged":   "Nothing changed: it already was so.",
	"pinned":      "Pinned: the session brief always shows it.",
	"unpinned":    "Unpinned.",
	"edited":      "Edited. The quotes are unchanged.",
	"superseded":  "Recorded: this memory is superseded.",
	"resolved":    "Conflict resolved.",
	"taskdone":    "Task closed as done.",
	"taskdropped": "Task dropped.",
	"forgotten":   "Forgotten for good.",
	"compactlate": "Forgotten, but the store could not be compacted yet: run claude-memory-layer forget --compact when no session is open.",
}

func (s *Server) base(r *http.Request, title, nav string) pageData {
	return pageData{Title: title, Nav: nav, Project: r.URL.Query().Get("project"), Flash: flashes[r.URL.Query().Get("done")]}
}

// ---- overview

type overviewData struct {
	Stats          store.Stats
	Projects       []store.ProjectStats
	MemoriesChart  template.HTML
	UsageChart     template.HTML
	OpenConflicts  []conflictRow
	Sessions       []sessionRow
	Pinned         int
	DBBytes        string
	RecentMemories []store.Entry
	// Spend is LLM extraction's spend of the day and month, nil when
	// nothing was spent this month and no cap is set.
	Spend   *spend.Status
	Reached string // the cap reached, if one is
}

func (s *Server) overview(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	d := s.base(r, "Overview", "overview")
	st, err := s.db.Stats(ctx, d.Project)
	if err != nil {
		return err
	}
	o := &overviewData{Stats: st, Projects: st.Projects}
	if n, err := s.db.Bytes(); err == nil {
		o.DBBytes = fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	days, err := s.db.Daily(ctx, d.Project, time.Time{})
	if err != nil {
		return err
	}
	o.MemoriesChart, o.UsageChart = memoriesChart(days), usageChart(days)
	if o.OpenConflicts, err = s.conflictRows(r, d.Project, 5); err != nil {
		return err
	}
	if o.Sessions, err = s.sessionRows(r, d.Project, 8); err != nil {
		return err
	}
	if o.RecentMemories, err = s.db.Read().Entries(ctx, store.EntryFilter{Project: d.Project, Limit: 8}); err != nil {
		return err
	}
	sp, err := spend.Read(ctx, s.db, s.caps, s.now())
	if err != nil {
		return err
	}
	if sp.Month.Calls > 0 || s.caps.Capped() {
		o.Spend = &sp
		if c, ok := sp.Reached(); ok {
			o.Reached = c.String()
		}
	}
	d.Overview = o
	return s.render(w, "overview", d)
}

// ---- memories

type memoriesData struct {
	Query                   string
	Type, Stage, Status     string
	PinnedOnly              bool
	Types, Stages, Statuses []string
	Entries                 []entryRow
	Messages                []recall.Result
	Searched                bool
	Limit                   int
}

type entryRow struct {
	store.Entry
	Pinned bool
	Score  float64
	Text   string
}

const listLimit = 200

func (s *Server) memories(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	d := s.base(r, "Memories", "memories")
	q := r.URL.Query()
	m := &memoriesData{Query: strings.TrimSpace(q.Get("q")), Type: q.Get("type"), Stage: q.Get("stage"), Status: q.Get("status"),
		PinnedOnly: q.Get("pinned") == "1", Types: correct.ListedTypes, Limit: listLimit,
		Stages:   []string{store.StageCandidate, store.StageVerified, store.StageCertified, store.StageRejected},
		Statuses: []string{store.StatusActive, store.StatusContested, store.StatusSuperseded}}
	if m.Type != "" && !contains(m.Types, m.Type) {
		return badRequest("unknown type %q", m.Type)
	}
	if m.Stage != "" && !contains(m.Stages, m.Stage) {
		return badRequest("unknown stage %q", m.Stage)
	}
	if m.Status != "" && !contains(m.Statuses, m.Status) {
		return badRequest("unknown status %q", m.Status)
	}
	pinned, err := s.db.Pinned(ctx, d.Project)
	if err != nil {
		return err
	}
	keep := func(x store.Entry) bool {
		return (m.Status == "" || x.Status == m.Status) && (!m.PinnedOnly || pinned[x.CID])
	}
	if m.Query != "" {
		// The CLI's search and the MCP tool's: one ranking of memories and messages.
		m.Searched = true
		opt := recall.SearchOptions{Query: m.Query, Project: d.Project, Limit: 50}
		if m.Type != "" {
			opt.Types = []string{m.Type}
		}
		if m.Stage != "" {
			opt.Stages = []string{m.Stage}
		}
		if m.Type != "" || m.Stage != "" || m.Status != "" || m.PinnedOnly {
			opt.Kinds = []string{recall.KindEntry}
		}
		res, err := recall.Search(ctx, s.db, opt)
		if err != nil {
			return err
		}
		for _, r := range res {
			if r.Kind != recall.KindEntry {
				id, _ := strconv.ParseInt(r.ID, 10, 64)
				r.ID = store.EventCID(id)
				m.Messages = append(m.Messages, r)
				continue
			}
			// The full row, for the counts the list shows.
			x, err := s.db.EntryByCID(ctx, r.ID)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if keep(x) {
				m.Entries = append(m.Entries, entryRow{Entry: x, Pinned: pinned[x.CID], Score: r.Score, Text: r.Text})
			}
		}
	} else {
		f := store.EntryFilter{Project: d.Project, Limit: listLimit}
		if m.Type != "" {
			f.Types = []string{m.Type}
		}
		if m.Stage != "" {
			f.Stages = []string{m.Stage}
		}
		if m.Status != "" {
			f.Statuses = []string{m.Status}
		}
		var es []store.Entry
		if m.PinnedOnly {
			// Few are pinned: look each up rather than page through all.
			for cid := range pinned {
				x, err := s.db.EntryByCID(ctx, cid)
				if errors.Is(err, store.ErrNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				if (m.Type == "" || x.Type == m.Type) && (m.Stage == "" || x.Stage == m.Stage) {
					es = append(es, x)
				}
			}
		} else if es, err = s.db.Read().Entries(ctx, f); err != nil {
			return err
		}
		for _, x := range es {
			if keep(x) {
				m.Entries = append(m.Entries, entryRow{Entry: x, Pinned: pinned[x.CID]})
			}
		}
	}
	d.Memories = m
	return s.render(w, "memories", d)
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// ---- one memory

type memoryData struct {
	inspect.Memory
	Evidence []evidenceView
	Types    []string
	Stated   bool
	// EarlierInjections and EarlierCitations count the prompts and answers
	// older than the pageQuotes latest the history lists.
	EarlierInjections, EarlierCitations int
}

type evidenceView struct {
	inspect.Evidence
	Marked        marked // the quoted message with the quote marked
	Before, After []store.Event
}

// marked is a message cut around a span: Before, the span, After.
type marked struct {
	Before, Span, After string
	Found               bool
}

// mark cuts text around the bytes [start, end) with up to width bytes on
// each side; a span that does not fit the text (a redacted message) leaves
// the text unmarked.
func mark(text string, start, end, width int) marked {
	if start < 0 || end > len(text) || start >= end || !utf8.ValidString(text[start:end]) {
		return marked{Before: clipKeep(text, 2*width)}
	}
	from := max(0, start-width)
	for from > 0 && !utf8.RuneStart(text[from]) {
		from--
	}
	to := min(len(text), end+width)
	for to < len(text) && !utf8.RuneStart(text[to]) {
		to++
	}
	m := marked{Before: text[from:start], Span: text[start:end], After: text[end:to], Found: true}
	if from > 0 {
		m.Before = "…" + m.Before
	}
	if to < len(text) {
		m.After += "…"
	}
	return m
}

// clipKeep shortens s to about n bytes, keeping its line breaks.
func clipKeep(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func (s *Server) loadEntry(r *http.Request) (store.Entry, error) {
	cid := r.PathValue("cid")
	if c, _, err := inspect.Parse(cid); err != nil || c == "" {
		return store.Entry{}, notFound("%q is no memory id", cid)
	}
	x, err := s.db.EntryByCID(r.Context(), cid)
	if errors.Is(err, store.ErrNotFound) {
		return x, notFound("no memory %s", cid)
	}
	return x, err
}

// pageQuotes is how many of a memory's quotes its page shows, each with
// its messages: one quoted in every session of a large store made a 4 MB
// page that took a second.
const pageQuotes = 50

func (s *Server) memory(w http.ResponseWriter, r *http.Request) error {
	x, err := s.loadEntry(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	m, err := inspect.LoadMemory(ctx, s.db, inspect.NewSessions(s.db), x.CID, 2, pageQuotes)
	if err != nil {
		return err
	}
	d := s.base(r, x.CID, "memories")
	md := &memoryData{Memory: m, Types: correct.Types}
	if !contains(md.Types, m.Entry.Type) {
		md.Types = []string{m.Entry.Type} // a digest stays a digest
	}
	// A memory shown on every prompt for months has thousands of each.
	md.Injections, md.EarlierInjections = latest(m.Injections, pageQuotes)
	md.Citations, md.EarlierCitations = latest(m.Citations, pageQuotes)
	for _, v := range m.Evidence {
		ev := evidenceView{Evidence: v, Before: v.Before, After: v.After}
		if v.Event != nil {
			ev.Marked = mark(v.Event.Text, v.SpanStart, v.SpanEnd, 400)
		}
		md.Evidence = append(md.Evidence, ev)
	}
	d.Memory = md
	return s.render(w, "memory", d)
}

// latest returns the last n of evs, oldest first, and how many it left out.
func latest(evs []store.Event, n int) ([]store.Event, int) {
	if len(evs) <= n {
		return evs, 0
	}
	return evs[len(evs)-n:], len(evs) - n
}

// ---- forget

type forgetData struct {
	Entry   store.Entry
	Shared  bool
	Preview store.ForgetPreview
	Done    bool
}

func (s *Server) forgetPreview(w http.ResponseWriter, r *http.Request) error {
	x, err := s.loadEntry(r)
	if err != nil {
		return err
	}
	shared := r.URL.Query().Get("shared") == "1"
	pv, err := s.db.PreviewForget(r.Context(), store.ForgetSelector{CID: x.CID, Shared: shared}, 5)
	if err != nil {
		return err
	}
	d := s.base(r, "Forget "+x.CID, "memories")
	d.Forget = &forgetData{Entry: x, Shared: shared, Preview: pv}
	return s.render(w, "forget", d)
}

// forget deletes the memory as the CLI's forget --yes does: finish an
// interrupted compaction, forget, compact, remove the upgrade backups.
func (s *Server) forget(w http.ResponseWriter, r *http.Request) error {
	x, err := s.loadEntry(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if s.db.CompactPending() {
		if err := s.db.Compact(ctx); err != nil {
			return fmt.Errorf("an earlier forget's compaction is unfinished: %w", err)
		}
	}
	p, err := s.db.Forget(ctx, store.ForgetSelector{CID: x.CID, Shared: r.PostForm.Get("shared") == "1"})
	if err != nil {
		return err
	}
	done := "forgotten"
	if err := s.db.Compact(ctx); err != nil {
		s.log.Warn("dashboard: forget: compact", "err", err)
		done = "compactlate"
	}
	if !p.Empty() {
		if _, err := s.db.RemoveBackups(); err != nil {
			return err
		}
	}
	http.Redirect(w, r, s.root+"/memories?done="+done, http.StatusSeeOther)
	return nil
}

// ---- corrections

// back redirects to the memory's page with a flash.
func (s *Server) back(w http.ResponseWriter, r *http.Request, cid, done string) error {
	http.Redirect(w, r, s.root+"/memory/"+cid+"?done="+done, http.StatusSeeOther)
	return nil
}

func (s *Server) setStage(w http.ResponseWriter, r *http.Request) error {
	x, err := s.loadEntry(r)
	if err != nil {
		return err
	}
	stage := r.PostForm.Get("stage")
	if stage != store.StageCertified && stage != store.StageRejected {
		return badRequest("stage %q: want certified or rejected", stage)
	}
	changed, err := correct.Stage(r.Context(), s.db, x, stage, s.now())
	if err != nil {
		return err
	}
	if !changed {
		return s.back(w, r, x.CID, "unchanged")
	}
	return s.back(w, r, x.CID, stage)
}

func (s *Server) setPin(w http.ResponseWriter, r *http.Request) error {
	x, err := s.loadEntry(r)
	if err != nil {
		return err
	}
	pin := r.PostForm.Get("pin") == "1"
	changed, err := correct.Pin(r.Context(), s.db, x, pin, s.now())
	if err != nil {
		return err
	}
	switch {
	case !changed:
		return s.back(w, r, x.CID, "unchanged")
	case pin:
		return s.back(w, r, x.CID, "pinned")
	}
	return s.back(w, r, x.CID, "unpinned")
}

func (s *Server) edit(w http.ResponseWriter, r *http.Request) error {
	x, err := s.loadEntry(r)
	if err != nil {
		return err
	}
	var to correct.Text
	for k, p := range map[string]**string{"title": &to.Title, "body": &to.Body, "type": &to.Type} {
		if vs, ok := r.PostForm[k]; ok && len(vs) == 1 {
			v := vs[0]
			*p = &v
		}
	}
	if to.Type != nil && *to.Type == x.Type {
		to.Type = nil // a digest's form offers its own type, which no edit sets
	}
	_, changed, err := correct.Edit(r.Context(), s.db, x, to, s.now())
	if errors.Is(err, correct.ErrInvalid) {
		return badRequest("%v", err)
	}
	if err != nil {
		return err
	}
	if !changed {
		return s.back(w, r, x.CID, "unchanged")
	}
	return s.back(w, r, x.CID, "edited")
}

func (s *Server) supersede(w http.ResponseWriter, r *http.Request) error {
	x, err := s.loadEntry(r)
	if err != nil {
		return err
	}
	by := strings.TrimSpace(r.PostForm.Get("by"))
	if !strings.HasPrefix(by, "mem:") {
		by = "mem:" + by
	}
	newer, err := s.db.EntryByCID(r.Context(), by)
	if errors.Is(err, store.ErrNotFound) {
		return badRequest("no memory %s", by)
	}
	if err != nil {
		return err
	}
	added, err := correct.Supersede(r.Context(), s.db, x, newer, s.now())
	if errors.Is(err, correct.ErrInvalid) {
		return badRequest("%v", err)
	}
	if err != nil {
		return err
	}
	if !added {
		return s.back(w, r, x.CID, "unchanged")
	}
	return s.back(w, r, x.CID, "superseded")
}

// ---- messages

type messageData struct {
	Event         store.Event
	CID           string
	Before, After []store.Event
	Quoted        []store.Entry
}

func (s *Server) message(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id := r.PathValue("id")
	ref, err := inspect.Lookup(ctx, s.db, id)
	if errors.Is(err, inspect.ErrNotFound) || errors.Is(err, inspect.ErrBadID) {
		return notFound("no message %s", id)
	}
	if err != nil {
		return err
	}
	if ref.Entry != nil {
		http.Redirect(w, r, s.root+"/memory/"+ref.Entry.CID, http.StatusSeeOther)
		return nil
	}
	ev := *ref.Event
	md := &messageData{Event: ev, CID: store.EventCID(ev.ID)}
	if md.Before, md.After, err = inspect.NewSessions(s.db).Around(ctx, ev, 3); err != nil {
		return err
	}
	if md.Quoted, err = s.db.EntriesQuoting(ctx, ev.ID); err != nil {
		return err
	}
	d := s.base(r, md.CID, "sessions")
	d.Message = md
	return s.render(w, "message", d)
}

// ---- sessions

type sessionRow struct {
	store.Session
	Messages int
}

func (s *Server) sessionRows(r *http.Request, project string, limit int) ([]sessionRow, error) {
	ss, err := s.db.Sessions(r.Context(), project, limit)
	if err != nil {
		return nil, err
	}
	out := make([]sessionRow, 0, len(ss))
	for _, x := range ss {
		if x.Source == store.SessionForgotten {
			continue
		}
		n, err := s.db.Read().CountSessionMessages(r.Context(), x.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, sessionRow{Session: x, Messages: n})
	}
	return out, nil
}

func (s *Server) sessions(w http.ResponseWriter, r *http.Request) error {
	d := s.base(r, "Sessions", "sessions")
	var err error
	if d.Sessions, err = s.sessionRows(r, d.Project, 100); err != nil {
		return err
	}
	return s.render(w, "sessions", d)
}

type sessionData struct {
	Session  store.Session
	Known    bool
	Items    []timelineItem
	Memories []store.Entry
	Shown    int
	Total    int
}

type timelineItem struct {
	store.Event
	Memories []store.Entry // the memories quoting this message
}

// sessionMessages caps the messages one session page shows.
const sessionMessages = 500

func (s *Server) session(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id := r.PathValue("id")
	sd := &sessionData{}
	sess, err := s.db.Read().Session(ctx, id)
	switch {
	case err == nil:
		sd.Session, sd.Known = sess, true
	case errors.Is(err, store.ErrNotFound):
		sd.Session = store.Session{ID: id}
	default:
		return err
	}
	evs, err := inspect.NewSessions(s.db).Conversation(ctx, id)
	if err != nil {
		return err
	}
	if !sd.Known && len(evs) == 0 {
		return notFound("no session %s", id)
	}
	if sd.Memories, err = s.db.Read().Entries(ctx, store.EntryFilter{SessionID: id, Evidence: true}); err != nil {
		return err
	}
	byEvent := map[int64][]store.Entry{}
	for _, x := range sd.Memories {
		seen := map[int64]bool{}
		for _, v := range x.Evidence {
			if v.EventID != 0 && !seen[v.EventID] {
				seen[v.EventID] = true
				byEvent[v.EventID] = append(byEvent[v.EventID], x)
			}
		}
	}
	sd.Total = len(evs)
	for _, ev := range evs[:min(len(evs), sessionMessages)] {
		sd.Items = append(sd.Items, timelineItem{Event: ev, Memories: byEvent[ev.ID]})
	}
	sd.Shown = len(sd.Items)
	d := s.base(r, "Session "+clip(id, 12), "sessions")
	d.Session = sd
	return s.render(w, "session", d)
}

// ---- conflicts

type conflictRow struct {
	store.Conflict
	Older, Newer store.Entry
}

func (s *Server) conflictRows(r *http.Request, project string, limit int) ([]conflictRow, error) {
	cs, err := s.db.OpenConflicts(r.Context(), project, limit)
	if err != nil {
		return nil, err
	}
	var out []conflictRow
	for _, c := range cs {
		row := conflictRow{Conflict: c}
		if row.Older, err = s.db.Read().EntryByID(r.Context(), c.Older); err != nil {
			return nil, err
		}
		if row.Newer, err = s.db.Read().EntryByID(r.Context(), c.Newer); err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, nil
}

func (s *Server) conflicts(w http.ResponseWriter, r *http.Request) error {
	d := s.base(r, "Conflicts", "conflicts")
	var err error
	if d.Conflicts, err = s.conflictRows(r, d.Project, 100); err != nil {
		return err
	}
	return s.render(w, "conflicts", d)
}

func (s *Server) resolve(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return notFound("no conflict %q", r.PathValue("id"))
	}
	c, err := s.db.Conflict(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return notFound("no conflict %d", id)
	}
	if err != nil {
		return err
	}
	older, err := s.db.Read().EntryByID(ctx, c.Older)
	if err != nil {
		return err
	}
	newer, err := s.db.Read().EntryByID(ctx, c.Newer)
	if err != nil {
		return err
	}
	err = correct.Resolve(ctx, s.db, c, older, newer, r.PostForm.Get("choice"), s.now())
	switch {
	case errors.Is(err, correct.ErrInvalid):
		return badRequest("%v", err)
	case errors.Is(err, store.ErrNotFound):
		return httpError{http.StatusConflict, errors.New("this conflict is resolved already")}
	case err != nil:
		return err
	}
	http.Redirect(w, r, s.root+"/conflicts?done=resolved", http.StatusSeeOther)
	return nil
}

// ---- tasks

// tasksData is the tasks page: what sessions left to do, open ones
// first, and the closed ones with what closed them.
type tasksData struct {
	Open, Closed []task.Task
}

func (s *Server) tasks(w http.ResponseWriter, r *http.Request) error {
	d := s.base(r, "Tasks", "tasks")
	ts, err := task.List(r.Context(), s.db, d.Project, true)
	if err != nil {
		return err
	}
	d.Tasks = &tasksData{}
	for _, t := range ts {
		if t.Closed == nil {
			d.Tasks.Open = append(d.Tasks.Open, t)
		} else {
			d.Tasks.Closed = append(d.Tasks.Closed, t)
		}
	}
	return s.render(w, "tasks", d)
}

// closeTask closes a task by hand, as done or dropped, like the CLI's
// tasks close and tasks drop.
func (s *Server) closeTask(w http.ResponseWriter, r *http.Request) error {
	x, err := s.loadEntry(r)
	if err != nil {
		return err
	}
	how := r.PostForm.Get("how")
	if how != task.Done && how != task.Dropped {
		return badRequest("how %q: want %s or %s", how, task.Done, task.Dropped)
	}
	changed, err := task.Close(r.Context(), s.db, x, how, s.now())
	if errors.Is(err, task.ErrNotTask) {
		return badRequest("%v", err)
	}
	if err != nil {
		return err
	}
	done := "unchanged"
	if changed {
		done = "task" + how
	}
	q := url.Values{"done": {done}}
	if p := r.PostForm.Get("project"); p != "" {
		q.Set("project", p)
	}
	http.Redirect(w, r, s.root+"/tasks?"+q.Encode(), http.StatusSeeOther)
	return nil
}

// ---- team

// teamData is the team page: this machine's team and sync state, read from
// the data directory and the store (the dashboard never touches the
// network), who shared what, and the newest of it.
type teamData struct {
	Joined    bool
	Status    team.Status
	Projects  []teamProject
	Authors   []store.Author
	SharedOwn int
	Recent    []store.Entry
}

type teamProject struct{ Dir, Identity string }

func (s *Server) team(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	d := s.base(r, "Team", "team")
	td := &teamData{}
	d.Team = td
	if s.dataDir != "" {
		tc, err := team.LoadConfig(s.dataDir)
		switch {
		case err == nil:
			td.Joined = true
			if td.Status, err = team.LocalStatus(ctx, s.db, tc); err != nil {
				return err
			}
			for dir, id := range tc.Projects {
				td.Projects = append(td.Projects, teamProject{dir, id})
			}
			sort.Slice(td.Projects, func(i, j int) bool { return td.Projects[i].Dir < td.Projects[j].Dir })
		case !errors.Is(err, team.ErrNotJoined):
			return err
		}
	}
	var err error
	if td.Authors, td.SharedOwn, err = s.db.TeamAuthors(ctx); err != nil {
		return err
	}
	if td.Recent, err = s.db.TeamEntries(ctx, 50); err != nil {
		return err
	}
	return s.render(w, "team", d)
}

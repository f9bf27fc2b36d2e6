package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

type showOptions struct {
	cid     string // a memory, or
	eventID int64  // an event
	context int
	json    bool
}

func parseShow(e *env, args []string) (showOptions, error) {
	var o showOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	fs := newFlags(e, "show", "mem:ID|EVENT_ID [--context N] [--json]")
	fs.IntVar(&o.context, "context", 1, "messages shown before and after each quoted message")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() != 1 {
		return o, usagef("want one memory id (mem:…) or event id")
	}
	if o.context < 0 {
		return o, usagef("--context must not be negative")
	}
	arg := fs.Arg(0)
	if id, err := strconv.ParseInt(strings.TrimPrefix(arg, "#"), 10, 64); err == nil && id > 0 {
		o.eventID = id
		return o, nil
	}
	cid, err := parseCID(arg)
	if err != nil {
		return o, usagef("%q is neither a memory id (mem:…) nor an event id (a number)", arg)
	}
	o.cid = cid
	return o, nil
}

func runShow(ctx context.Context, e *env, args []string) error {
	o, err := parseShow(e, args)
	if err != nil {
		return err
	}
	db, err := openReadStore(ctx, e)
	if err != nil {
		return err
	}
	if db == nil {
		return errors.New("no store yet: nothing has been captured")
	}
	defer db.Close()
	sc := &sessionCache{db: db, byID: map[string][]store.Event{}}
	if o.cid != "" {
		m, err := loadMemory(ctx, db, sc, o.cid, o.context)
		if err != nil {
			return err
		}
		if o.json {
			return writeJSON(e.stdout, struct {
				Memory memoryJSON `json:"memory"`
			}{m.json()})
		}
		m.print(e.stdout, isTerminal(e.stdout))
		return nil
	}
	ev, err := db.Event(ctx, o.eventID)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no event %d", o.eventID)
	}
	if err != nil {
		return err
	}
	before, after, err := sc.around(ctx, ev, o.context)
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(e.stdout, struct {
			Event  eventJSON   `json:"event"`
			Before []eventJSON `json:"before"`
			After  []eventJSON `json:"after"`
		}{toEventJSON(ev), eventsJSON(before), eventsJSON(after)})
	}
	printEvent(e.stdout, ev, before, after, isTerminal(e.stdout))
	return nil
}

// sessionCache loads each session's events once, in the order they happened.
type sessionCache struct {
	db   *store.DB
	byID map[string][]store.Event
}

var conversationTypes = []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}

// conversation returns the session's prompts, answers and tool observations in time order.
func (c *sessionCache) conversation(ctx context.Context, session string) ([]store.Event, error) {
	if evs, ok := c.byID[session]; ok {
		return evs, nil
	}
	evs, err := c.db.Events(ctx, store.EventFilter{SessionID: session, Types: conversationTypes})
	if err != nil {
		return nil, err
	}
	sortEvents(evs)
	c.byID[session] = evs
	return evs, nil
}

// around returns up to n events before and after ev in its session: among
// the conversation for a conversation event, among all events otherwise.
func (c *sessionCache) around(ctx context.Context, ev store.Event, n int) (before, after []store.Event, err error) {
	if ev.SessionID == "" || n == 0 {
		return nil, nil, nil
	}
	var evs []store.Event
	if ev.Conversation() {
		evs, err = c.conversation(ctx, ev.SessionID)
	} else {
		evs, err = c.db.Events(ctx, store.EventFilter{SessionID: ev.SessionID})
		sortEvents(evs)
	}
	if err != nil {
		return nil, nil, err
	}
	i := indexOfEvent(evs, ev.ID)
	if i < 0 {
		return nil, nil, nil
	}
	return evs[max(0, i-n):i], evs[i+1 : min(len(evs), i+1+n)], nil
}

func indexOfEvent(evs []store.Event, id int64) int {
	for i, e := range evs {
		if e.ID == id {
			return i
		}
	}
	return -1
}

// memoryView is everything show prints about a memory.
type memoryView struct {
	entry       store.Entry
	evidence    []evidenceView
	conflicts   []conflictView
	injections  []store.Event
	corrections []store.Event // the user's: verify, reject, edit, pin, unpin
	pinned      bool
}

type evidenceView struct {
	store.Evidence
	event         *store.Event // the message the quote was found in, if still stored
	before, after []store.Event
}

type conflictView struct {
	other      string // the other side's citation id, "" when it is gone
	otherTitle string
	relation   string // supersedes, superseded_by, contradicts
	kind       string
	reason     string
	detected   string
	resolution string
}

func loadMemory(ctx context.Context, db *store.DB, sc *sessionCache, cid string, n int) (memoryView, error) {
	var m memoryView
	x, err := db.EntryByCID(ctx, cid)
	if errors.Is(err, store.ErrNotFound) {
		return m, fmt.Errorf("no memory %s (see claude-memory-layer entries)", cid)
	}
	if err != nil {
		return m, err
	}
	m.entry = x
	for _, v := range x.Evidence {
		ev := evidenceView{Evidence: v}
		if v.EventID != 0 {
			src, err := db.Event(ctx, v.EventID)
			switch {
			case errors.Is(err, store.ErrNotFound):
			case err != nil:
				return m, err
			default:
				ev.event = &src
				if ev.before, ev.after, err = sc.around(ctx, src, n); err != nil {
					return m, err
				}
			}
		}
		m.evidence = append(m.evidence, ev)
	}
	cs, err := db.Conflicts(ctx, []int64{x.ID})
	if err != nil {
		return m, err
	}
	seenSuccessor := false
	for _, c := range cs {
		other := c.Older
		rel := "contradicts"
		if c.Older == x.ID {
			other = c.Newer
		}
		if c.Kind == "supersedes" {
			rel = "supersedes"
			if c.Older == x.ID {
				rel = "superseded_by"
				seenSuccessor = seenSuccessor || other == x.SupersededBy
			}
		}
		cv := conflictView{relation: rel, kind: c.Kind, reason: c.Reason, detected: jsonTime(c.Detected), resolution: c.Resolution}
		if o, err := db.EntryByID(ctx, other); err == nil {
			cv.other, cv.otherTitle = o.CID, o.Title
		}
		m.conflicts = append(m.conflicts, cv)
	}
	if x.SupersededBy != 0 && !seenSuccessor {
		cv := conflictView{relation: "superseded_by", kind: "supersedes"}
		if o, err := db.EntryByID(ctx, x.SupersededBy); err == nil {
			cv.other, cv.otherTitle = o.CID, o.Title
		}
		m.conflicts = append(m.conflicts, cv)
	}
	evs, err := db.EntryEvents(ctx, x)
	if err != nil {
		return m, err
	}
	for _, ev := range evs {
		switch ev.Type {
		case store.TypeMemoryInjected:
			m.injections = append(m.injections, ev)
		case store.TypeCertified, store.TypeRejected, store.TypeEdited, store.TypePinned, store.TypeUnpinned:
			m.corrections = append(m.corrections, ev)
			if ev.Type == store.TypePinned || ev.Type == store.TypeUnpinned {
				m.pinned = ev.Type == store.TypePinned
			}
		}
	}
	return m, nil
}

type memoryJSON struct {
	entryJSON
	LastUsed         string             `json:"last_used"`
	UseCount         int                `json:"use_count"`
	PromotionBlocked string             `json:"promotion_blocked"`
	Evidence         []evidenceShowJSON `json:"evidence"`
	Conflicts        []conflictJSON     `json:"conflicts"`
	Injections       []injectionJSON    `json:"injections"`
	Pinned           bool               `json:"pinned"`
	Corrections      []eventJSON        `json:"corrections"` // the user's verify, reject, edit, pin and unpin, oldest first
}

type evidenceShowJSON struct {
	evidenceJSON
	Event  *eventJSON  `json:"event"`
	Before []eventJSON `json:"before"`
	After  []eventJSON `json:"after"`
}

type conflictJSON struct {
	Other      string `json:"other"`
	Relation   string `json:"relation"`
	Kind       string `json:"kind"`
	Reason     string `json:"reason"`
	Detected   string `json:"detected"`
	Resolution string `json:"resolution"`
}

type injectionJSON struct {
	EventID   string `json:"event_id"`
	SessionID string `json:"session_id"`
	Timestamp string `json:"timestamp"`
}

func (m memoryView) json() memoryJSON {
	x := m.entry
	out := memoryJSON{entryJSON: toEntryJSON(x), LastUsed: jsonTime(x.LastUsed), UseCount: x.UseCount, PromotionBlocked: x.PromotionBlocked,
		Evidence: []evidenceShowJSON{}, Conflicts: []conflictJSON{}, Injections: []injectionJSON{}, Pinned: m.pinned,
		Corrections: eventsJSON(m.corrections)}
	if out.Corrections == nil {
		out.Corrections = []eventJSON{}
	}
	out.entryJSON.Evidence = nil
	for _, v := range m.evidence {
		j := evidenceShowJSON{evidenceJSON: toEvidenceJSON(v.Evidence), Before: eventsJSON(v.before), After: eventsJSON(v.after)}
		if v.event != nil {
			ej := toEventJSON(*v.event)
			j.Event = &ej
		}
		out.Evidence = append(out.Evidence, j)
	}
	for _, c := range m.conflicts {
		out.Conflicts = append(out.Conflicts, conflictJSON{Other: c.other, Relation: c.relation, Kind: c.kind, Reason: c.reason,
			Detected: c.detected, Resolution: c.resolution})
	}
	for _, ev := range m.injections {
		out.Injections = append(out.Injections, injectionJSON{EventID: strconv.FormatInt(ev.ID, 10), SessionID: ev.SessionID, Timestamp: jsonTime(ev.Time)})
	}
	return out
}

func (m memoryView) print(w io.Writer, tty bool) {
	x := m.entry
	id := x.CID
	if tty {
		id = "\x1b[1m" + id + "\x1b[0m"
	}
	fmt.Fprintf(w, "%s  %s\n", id, x.Type)
	fmt.Fprintf(w, "  title:    %s\n", x.Title)
	if x.Body != "" && x.Body != x.Title {
		fmt.Fprintf(w, "  body:     %s\n", indentRest(x.Body, "            "))
	}
	status := x.Stage + ", " + x.Status
	fmt.Fprintf(w, "  stage:    %s\n", status)
	fmt.Fprintf(w, "  form:     %s\n", formNote(entryForm(x)))
	if m.pinned {
		fmt.Fprintf(w, "  pinned:   yes, the session brief always shows it\n")
	}
	if x.PromotionBlocked != "" {
		fmt.Fprintf(w, "  blocked:  %s\n", x.PromotionBlocked)
	}
	fmt.Fprintf(w, "  project:  %s\n", x.Project)
	fmt.Fprintf(w, "  session:  %s\n", x.SessionID)
	fmt.Fprintf(w, "  created:  %s\n", humanTime(x.Created))
	used := "never injected"
	if x.UseCount > 0 {
		used = fmt.Sprintf("%s, last %s", plural(x.UseCount, "time"), humanTime(x.LastUsed))
	}
	fmt.Fprintf(w, "  used:     %s\n", used)

	fmt.Fprintf(w, "\nEvidence (%s)\n", evidenceSummary(x.Evidence))
	for i, v := range m.evidence {
		fmt.Fprintf(w, "  %d. %q\n", i+1, clipRunes(v.Quote, 300))
		how := v.Method
		if v.Aligned() {
			how += fmt.Sprintf(", confidence %.2f", v.Confidence)
		}
		if v.Failure != "" {
			how += ", " + v.Failure
		}
		if v.Ambiguous {
			how += ", ambiguous"
		}
		fmt.Fprintf(w, "     %s", how)
		if v.SourceUUID != "" {
			fmt.Fprintf(w, ", transcript row %s", v.SourceUUID)
		}
		fmt.Fprintln(w)
		if v.event == nil {
			if v.Aligned() {
				fmt.Fprintln(w, "     (the message it was found in is no longer stored)")
			}
			continue
		}
		if v.event.Text == store.Redacted {
			fmt.Fprintln(w, "     (the message it was found in was redacted by forget)")
		}
		for _, b := range v.before {
			printContextLine(w, b, " ", clipLine(b.Text, 100), tty)
		}
		printContextLine(w, *v.event, ">", markSpan(v.event.Text, v.SpanStart, v.SpanEnd, 200, tty), tty)
		for _, a := range v.after {
			printContextLine(w, a, " ", clipLine(a.Text, 100), tty)
		}
	}
	if len(m.conflicts) > 0 {
		fmt.Fprintln(w, "\nConflicts")
		for _, c := range m.conflicts {
			other := c.other
			if other == "" {
				other = "(a memory since forgotten)"
			}
			rel := map[string]string{"supersedes": "supersedes", "superseded_by": "superseded by", "contradicts": "contradicts"}[c.relation]
			line := fmt.Sprintf("  %s %s", rel, other)
			if c.otherTitle != "" {
				line += ": " + clipLine(c.otherTitle, 80)
			}
			fmt.Fprintln(w, line)
			var meta []string
			if c.detected != "" {
				meta = append(meta, "recorded "+c.detected[:10])
			}
			if c.reason != "" {
				meta = append(meta, c.reason)
			}
			if c.resolution != "" {
				meta = append(meta, "resolved: "+c.resolution)
			}
			if len(meta) > 0 {
				fmt.Fprintf(w, "    %s\n", strings.Join(meta, "; "))
			}
		}
	}
	if len(m.corrections) > 0 {
		fmt.Fprintln(w, "\nCorrections")
		for _, ev := range m.corrections {
			fmt.Fprintf(w, "  %s  %s\n", humanTime(ev.Time), describeEvent(ev))
		}
	}
	fmt.Fprintln(w)
	if len(m.injections) == 0 {
		fmt.Fprintln(w, "Never injected into a prompt.")
		return
	}
	fmt.Fprintf(w, "Injected into %s\n", plural(len(m.injections), "prompt"))
	for _, ev := range m.injections {
		fmt.Fprintf(w, "  %s  session %s  event #%d\n", humanTime(ev.Time), ev.SessionID, ev.ID)
	}
}

// printContextLine prints one message of a quote's surroundings.
func printContextLine(w io.Writer, ev store.Event, mark, text string, tty bool) {
	typ := fmt.Sprintf("%-17s", ev.Type)
	if tty && mark == ">" {
		typ = "\x1b[1m" + typ + "\x1b[0m"
	}
	fmt.Fprintf(w, "     %s #%-5d %s  %s %s\n", mark, ev.ID, humanTime(ev.Time), typ, text)
}

// markSpan shows the bytes [start, end) of text inside up to about width
// bytes of their surroundings on one line, marked »…« (bold on a terminal).
// A span that does not fit the text (the message was redacted) shows the text as it is.
func markSpan(text string, start, end, width int, tty bool) string {
	if start < 0 || end > len(text) || start >= end || !utf8.ValidString(text[start:end]) {
		return clipLine(text, width)
	}
	open, close := "»", "«"
	if tty {
		open, close = "\x1b[1;4m", "\x1b[0m"
	}
	from := start - width/2
	if from < 0 {
		from = 0
	}
	for from > 0 && !utf8.RuneStart(text[from]) {
		from--
	}
	to := min(len(text), end+width/2)
	for to < len(text) && !utf8.RuneStart(text[to]) {
		to++
	}
	s := foldSpace(text[from:start]) + open + foldSpace(text[start:end]) + close + foldSpace(text[end:to])
	if from > 0 {
		s = "…" + s
	}
	if to < len(text) {
		s += "…"
	}
	return s
}

// foldSpace turns every run of whitespace into one space, keeping a leading
// or trailing one, so pieces joined around a marker keep their spacing.
func foldSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == ' ' || r == '\n' || r == '\t' || r == '\r' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func indentRest(s, indent string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n"+indent)
}

func printEvent(w io.Writer, ev store.Event, before, after []store.Event, tty bool) {
	head := fmt.Sprintf("event #%d  %s", ev.ID, ev.Type)
	if tty {
		head = "\x1b[1m" + head + "\x1b[0m"
	}
	fmt.Fprintf(w, "%s  %s\n", head, humanTime(ev.Time))
	fmt.Fprintf(w, "  session:  %s\n", orDash(ev.SessionID))
	fmt.Fprintf(w, "  project:  %s\n", orDash(ev.Project))
	if ev.SourceUUID != "" {
		fmt.Fprintf(w, "  row:      %s\n", ev.SourceUUID)
	}
	if ev.Text != "" {
		fmt.Fprintf(w, "\n%s\n", indentLines(ev.Text, "  "))
	}
	if p := strings.TrimSpace(string(ev.Payload)); p != "" && p != "{}" {
		fmt.Fprintf(w, "\n  payload: %s\n", gjson.Parse(p).Raw)
	}
	if len(before)+len(after) > 0 {
		fmt.Fprintln(w)
		for _, b := range before {
			printContextLine(w, b, " ", clipLine(describeEvent(b), 100), tty)
		}
		printContextLine(w, ev, ">", clipLine(describeEvent(ev), 100), tty)
		for _, a := range after {
			printContextLine(w, a, " ", clipLine(describeEvent(a), 100), tty)
		}
	}
}

func indentLines(s, indent string) string {
	return indent + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+indent)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

type timelineOptions struct {
	cid    string
	window int
	json   bool
}

func parseTimeline(e *env, args []string) (timelineOptions, error) {
	var o timelineOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	fs := newFlags(e, "timeline", "mem:ID [--window N] [--json]")
	fs.IntVar(&o.window, "window", 5, "messages shown before and after each quoted message")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return o, err
	}
	if fs.NArg() != 1 {
		return o, usagef("want one memory id (mem:…)")
	}
	if o.window < 0 {
		return o, usagef("--window must not be negative")
	}
	cid, err := parseCID(fs.Arg(0))
	if err != nil {
		return o, err
	}
	o.cid = cid
	return o, nil
}

// timelineItem is one event of a timeline and why it is there.
type timelineItem struct {
	store.Event
	role string // evidence (a quoted message), context (near one), lifecycle (the memory's own record)
}

func runTimeline(ctx context.Context, e *env, args []string) error {
	o, err := parseTimeline(e, args)
	if err != nil {
		return err
	}
	db, err := openReadStore(ctx, e)
	if err != nil {
		return err
	}
	if db == nil {
		return errors.New("no store yet: nothing has been captured")
	}
	defer db.Close()
	x, err := db.EntryByCID(ctx, o.cid)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no memory %s (see claude-memory-layer entries)", o.cid)
	}
	if err != nil {
		return err
	}
	items, err := timeline(ctx, db, x, o.window)
	if err != nil {
		return err
	}
	if o.json {
		type itemJSON struct {
			eventJSON
			Role string `json:"role"`
		}
		out := struct {
			Memory string     `json:"memory"`
			Events []itemJSON `json:"events"`
		}{Memory: x.CID, Events: []itemJSON{}}
		for _, it := range items {
			out.Events = append(out.Events, itemJSON{toEventJSON(it.Event), it.role})
		}
		return writeJSON(e.stdout, out)
	}
	tty := isTerminal(e.stdout)
	fmt.Fprintf(e.stdout, "Timeline of %s (%s, %s): %s\n\n", x.CID, x.Type, x.Stage, clipLine(x.Title, 100))
	if len(items) == 0 {
		fmt.Fprintln(e.stdout, "no events recorded")
		return nil
	}
	prevSession := ""
	for i, it := range items {
		if it.SessionID != prevSession && it.SessionID != "" {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			fmt.Fprintf(e.stdout, "session %s\n", it.SessionID)
			prevSession = it.SessionID
		}
		mark := map[string]string{"evidence": "*", "lifecycle": "+", "context": ""}[it.role]
		printEventLine(e.stdout, it.Event, mark, tty, false)
	}
	fmt.Fprintln(e.stdout, "\n* quoted as evidence   + the memory's own record")
	return nil
}

// timeline gathers, in time order, the messages within window positions of
// each quoted message and the events that record the memory's life.
func timeline(ctx context.Context, db *store.DB, x store.Entry, window int) ([]timelineItem, error) {
	sc := &sessionCache{db: db, byID: map[string][]store.Event{}}
	roles := map[int64]string{}
	byID := map[int64]store.Event{}
	for _, v := range x.Evidence {
		if v.EventID == 0 {
			continue
		}
		src, err := db.Event(ctx, v.EventID)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		before, after, err := sc.around(ctx, src, window)
		if err != nil {
			return nil, err
		}
		for _, ev := range append(before, after...) {
			if roles[ev.ID] == "" {
				roles[ev.ID], byID[ev.ID] = "context", ev
			}
		}
		roles[src.ID], byID[src.ID] = "evidence", src
	}
	life, err := db.EntryEvents(ctx, x)
	if err != nil {
		return nil, err
	}
	for _, ev := range life {
		roles[ev.ID], byID[ev.ID] = "lifecycle", ev
	}
	evs := make([]store.Event, 0, len(byID))
	for _, ev := range byID {
		evs = append(evs, ev)
	}
	sortEvents(evs)
	out := make([]timelineItem, len(evs))
	for i, ev := range evs {
		out[i] = timelineItem{ev, roles[ev.ID]}
	}
	return out, nil
}

// formNote explains an entry's form: what "verified" vouches for.
func formNote(form string) string {
	if form == extract.Stated {
		return "stated: the body is what was said, word for word (see the evidence)"
	}
	return "distilled: the body restates the evidence in other words; the quotes below are what was said"
}

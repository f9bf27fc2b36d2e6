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
	"github.com/claude-memory-layer/claude-memory-layer/internal/inspect"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

type showOptions struct {
	id      string // a memory's or an event's citation id, as inspect.Parse reads it
	context int
	quotes  int
	json    bool
}

func parseShow(e *env, args []string) (showOptions, error) {
	var o showOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	fs := newFlags(e, "show", "mem:ID|EVENT_ID [--context N] [--quotes N] [--json]")
	fs.IntVar(&o.context, "context", 1, "messages shown before and after each quoted message")
	fs.IntVar(&o.quotes, "quotes", 20, "at most this many quotes shown, the first said and the latest; 0 shows all")
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
	if o.quotes < 0 {
		return o, usagef("--quotes must not be negative")
	}
	o.id = fs.Arg(0)
	if _, _, err := inspect.Parse(o.id); err != nil {
		return o, usagef("%q is neither a memory id (mem:…) nor an event id (a number)", o.id)
	}
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
	// One lookup resolves both kinds of id, as the MCP tools and the
	// citation check do.
	ref, err := inspect.Lookup(ctx, db, o.id)
	if errors.Is(err, inspect.ErrNotFound) {
		if cid, _, _ := inspect.Parse(o.id); cid != "" {
			return fmt.Errorf("no memory %s (see claude-memory-layer entries)", cid)
		}
		_, n, _ := inspect.Parse(o.id)
		return fmt.Errorf("no event %d", n)
	}
	if err != nil {
		return err
	}
	sc := inspect.NewSessions(db)
	if ref.Entry != nil {
		m, err := inspect.LoadMemory(ctx, db, sc, ref.Entry.CID, o.context, o.quotes)
		if err != nil {
			return err
		}
		if o.json {
			return writeJSON(e.stdout, struct {
				Memory memoryJSON `json:"memory"`
			}{toMemoryJSON(m)})
		}
		printMemory(e.stdout, m, isTerminal(e.stdout))
		return nil
	}
	ev := *ref.Event
	before, after, err := sc.Around(ctx, ev, o.context)
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

type memoryJSON struct {
	entryJSON
	LastUsed         string             `json:"last_used"`
	UseCount         int                `json:"use_count"`
	LastInjected     string             `json:"last_injected"`
	InjectCount      int                `json:"inject_count"`
	PromotionBlocked string             `json:"promotion_blocked"`
	Evidence         []evidenceShowJSON `json:"evidence"`       // at most --quotes of them
	Quotes           int                `json:"evidence_total"` // how many the memory has
	Conflicts        []conflictJSON     `json:"conflicts"`
	Injections       []injectionJSON    `json:"injections"`
	Citations        []injectionJSON    `json:"citations"`
	Pinned           bool               `json:"pinned"`
	Corrections      []eventJSON        `json:"corrections"` // the user's verify, reject, edit, pin and unpin, oldest first
}

type evidenceShowJSON struct {
	evidenceJSON
	N      int         `json:"n"` // its place among the memory's quotes in the order they were said, from 1
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

func toMemoryJSON(m inspect.Memory) memoryJSON {
	x := m.Entry
	out := memoryJSON{entryJSON: toEntryJSON(x), LastUsed: jsonTime(x.LastUsed), UseCount: x.UseCount,
		LastInjected: jsonTime(x.LastInjected), InjectCount: x.InjectCount, PromotionBlocked: x.PromotionBlocked,
		Evidence: []evidenceShowJSON{}, Conflicts: []conflictJSON{}, Injections: []injectionJSON{}, Citations: []injectionJSON{},
		Quotes: m.Quotes, Pinned: m.Pinned, Corrections: eventsJSON(m.Corrections)}
	if out.Corrections == nil {
		out.Corrections = []eventJSON{}
	}
	out.entryJSON.Evidence = nil
	for _, v := range m.Evidence {
		j := evidenceShowJSON{evidenceJSON: toEvidenceJSON(v.Evidence), N: v.N, Before: eventsJSON(v.Before), After: eventsJSON(v.After)}
		if v.Event != nil {
			ej := toEventJSON(*v.Event)
			j.Event = &ej
		}
		out.Evidence = append(out.Evidence, j)
	}
	for _, c := range m.Conflicts {
		out.Conflicts = append(out.Conflicts, conflictJSON{Other: c.Other, Relation: c.Relation, Kind: c.Kind, Reason: c.Reason,
			Detected: jsonTime(c.Detected), Resolution: c.Resolution})
	}
	for _, ev := range m.Injections {
		out.Injections = append(out.Injections, injectionJSON{EventID: strconv.FormatInt(ev.ID, 10), SessionID: ev.SessionID, Timestamp: jsonTime(ev.Time)})
	}
	for _, ev := range m.Citations {
		out.Citations = append(out.Citations, injectionJSON{EventID: strconv.FormatInt(ev.ID, 10), SessionID: ev.SessionID, Timestamp: jsonTime(ev.Time)})
	}
	return out
}

func printMemory(w io.Writer, m inspect.Memory, tty bool) {
	x := m.Entry
	id := x.CID
	if tty {
		id = "\x1b[1m" + id + "\x1b[0m"
	}
	fmt.Fprintf(w, "%s  %s\n", id, x.Type)
	fmt.Fprintf(w, "  title:    %s\n", x.Title)
	if x.Body != "" && x.Body != x.Title {
		fmt.Fprintf(w, "  body:     %s\n", indentRest(x.Body, "            "))
	}
	for i, q := range x.Questions {
		label := "answers: "
		if i > 0 {
			label = "         "
		}
		fmt.Fprintf(w, "  %s %s\n", label, q)
	}
	status := x.Stage + ", " + x.Status
	fmt.Fprintf(w, "  stage:    %s\n", status)
	fmt.Fprintf(w, "  form:     %s\n", formNote(entryForm(x)))
	if m.Pinned {
		fmt.Fprintf(w, "  pinned:   yes, the session brief always shows it\n")
	}
	if x.PromotionBlocked != "" {
		fmt.Fprintf(w, "  blocked:  %s\n", x.PromotionBlocked)
	}
	fmt.Fprintf(w, "  project:  %s\n", x.Project)
	fmt.Fprintf(w, "  session:  %s\n", x.SessionID)
	fmt.Fprintf(w, "  created:  %s\n", humanTime(x.Created))
	injected := "never"
	if x.InjectCount > 0 {
		injected = fmt.Sprintf("%s, last %s", plural.Of(x.InjectCount, "prompt"), humanTime(x.LastInjected))
	}
	fmt.Fprintf(w, "  injected: %s\n", injected)
	used := "never cited by an answer"
	if x.UseCount > 0 {
		used = fmt.Sprintf("cited by %s, last %s", plural.Of(x.UseCount, "answer"), humanTime(x.LastUsed))
	}
	fmt.Fprintf(w, "  used:     %s\n", used)

	fmt.Fprintf(w, "\nEvidence (%s)\n", evidenceSummary(x.Evidence))
	for _, v := range m.Evidence {
		fmt.Fprintf(w, "  %d. %q\n", v.N, clipRunes(v.Quote, 300))
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
		if v.Event == nil {
			if v.Aligned() {
				fmt.Fprintln(w, "     (the message it was found in is no longer stored)")
			}
			continue
		}
		if v.Event.Text == store.Redacted {
			fmt.Fprintln(w, "     (the message it was found in was redacted by forget)")
		}
		for _, b := range v.Before {
			printContextLine(w, b, " ", clipLine(b.Text, 100), tty)
		}
		printContextLine(w, *v.Event, ">", markSpan(v.Event.Text, v.SpanStart, v.SpanEnd, 200, tty), tty)
		for _, a := range v.After {
			printContextLine(w, a, " ", clipLine(a.Text, 100), tty)
		}
	}
	if note := m.Note(); note != "" {
		fmt.Fprintf(w, "  (%s; --quotes 0 shows all)\n", note)
	}
	if len(m.Conflicts) > 0 {
		fmt.Fprintln(w, "\nConflicts")
		for _, c := range m.Conflicts {
			other := c.Other
			if other == "" {
				other = "(a memory since forgotten)"
			}
			rel := map[string]string{"supersedes": "supersedes", "superseded_by": "superseded by", "contradicts": "contradicts"}[c.Relation]
			line := fmt.Sprintf("  %s %s", rel, other)
			if c.OtherTitle != "" {
				line += ": " + clipLine(c.OtherTitle, 80)
			}
			fmt.Fprintln(w, line)
			var meta []string
			if !c.Detected.IsZero() {
				meta = append(meta, "recorded "+jsonTime(c.Detected)[:10])
			}
			if c.Reason != "" {
				meta = append(meta, c.Reason)
			}
			if c.Resolution != "" {
				meta = append(meta, "resolved: "+c.Resolution)
			}
			if len(meta) > 0 {
				fmt.Fprintf(w, "    %s\n", strings.Join(meta, "; "))
			}
		}
	}
	if len(m.Corrections) > 0 {
		fmt.Fprintln(w, "\nCorrections")
		for _, ev := range m.Corrections {
			fmt.Fprintf(w, "  %s  %s\n", humanTime(ev.Time), describeEvent(ev))
		}
	}
	fmt.Fprintln(w)
	if len(m.Injections) == 0 {
		fmt.Fprintln(w, "Never injected into a prompt.")
	} else {
		fmt.Fprintf(w, "Injected into %s\n", plural.Of(len(m.Injections), "prompt"))
		for _, ev := range m.Injections {
			fmt.Fprintf(w, "  %s  session %s  event #%d\n", humanTime(ev.Time), ev.SessionID, ev.ID)
		}
	}
	if len(m.Citations) > 0 {
		fmt.Fprintf(w, "Cited by %s\n", plural.Of(len(m.Citations), "answer"))
		for _, ev := range m.Citations {
			fmt.Fprintf(w, "  %s  session %s  event #%d\n", humanTime(ev.Time), ev.SessionID, ev.ID)
		}
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
	quotes int
	json   bool
}

func parseTimeline(e *env, args []string) (timelineOptions, error) {
	var o timelineOptions
	args, _, err := expandStdinArgs(e, args)
	if err != nil {
		return o, err
	}
	fs := newFlags(e, "timeline", "mem:ID [--window N] [--quotes N] [--json]")
	fs.IntVar(&o.window, "window", 5, "messages shown before and after each quoted message")
	fs.IntVar(&o.quotes, "quotes", 20, "at most this many quotes shown with the messages around them, and records of each kind: the first and the latest; 0 shows all")
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
	if o.quotes < 0 {
		return o, usagef("--quotes must not be negative")
	}
	cid, err := parseCID(fs.Arg(0))
	if err != nil {
		return o, err
	}
	o.cid = cid
	return o, nil
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
	items, left, err := inspect.Timeline(ctx, db, x, o.window, o.quotes)
	if err != nil {
		return err
	}
	if o.json {
		type itemJSON struct {
			eventJSON
			Role string `json:"role"`
		}
		out := struct {
			Memory      string     `json:"memory"`
			Events      []itemJSON `json:"events"`
			QuotesLeft  int        `json:"quotes_not_shown"`  // quotes whose messages --quotes left out
			RecordsLeft int        `json:"records_not_shown"` // the memory's own records --quotes left out
		}{Memory: x.CID, Events: []itemJSON{}, QuotesLeft: left.Quotes, RecordsLeft: left.Records}
		for _, it := range items {
			out.Events = append(out.Events, itemJSON{toEventJSON(it.Event), it.Role})
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
		mark := map[string]string{"evidence": "*", "lifecycle": "+", "context": ""}[it.Role]
		printEventLine(e.stdout, it.Event, mark, tty, false)
	}
	fmt.Fprintln(e.stdout, "\n* quoted as evidence   + the memory's own record")
	if note := left.Note(); note != "" {
		fmt.Fprintf(e.stdout, "(%s; --quotes 0 shows all)\n", note)
	}
	return nil
}

// formNote explains an entry's form: what "verified" vouches for.
func formNote(form string) string {
	if form == extract.Stated {
		return "stated: the body is what was said, word for word (see the evidence)"
	}
	return "distilled: the body restates the evidence in other words; the quotes below are what was said"
}

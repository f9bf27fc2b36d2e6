// Package pipeline turns a session's stored messages into memory entries whose quoted evidence is aligned back to the messages.
package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/align"
	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/question"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spend"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/task"
	"github.com/tidwall/gjson"
)

// Extractor turns messages into candidate entries with quote-only evidence.
type Extractor interface {
	Name() string
	Extract(ctx context.Context, msgs []extract.Message) ([]extract.Entry, error)
}

// Offline is the deterministic built-in extractor.
type Offline struct {
	// Claims caches the claims of the texts it parses, across calls; nil
	// parses each time. A Processor gives its own (see withClaims).
	Claims *claim.Cache
}

// Name implements Extractor.
func (Offline) Name() string { return "offline" }

// Extract implements Extractor.
func (o Offline) Extract(_ context.Context, msgs []extract.Message) ([]extract.Entry, error) {
	return extract.OfflineWith(msgs, o.Claims), nil
}

// Result counts what Process did.
type Result struct {
	Messages   int
	Extracted  int
	Verified   int
	Candidates int
	New        int // entries created (the others added evidence to existing ones)
	Conflicts  int
	// TasksClosed counts the project's open tasks the session finished.
	TasksClosed int
	Extractor   string
}

// Processor runs the pipeline for sessions of one store.
type Processor struct {
	DB        *store.DB
	Extractor Extractor
	// Fallback is used when Extractor fails (an LLM backend timing out); nil means no fallback.
	Fallback Extractor
	// Budget, when set, records what Extractor spends and makes Fallback
	// extract instead once a cap is reached; nil means no budget.
	Budget *spend.Meter
	Log    *slog.Logger
	Now    func() time.Time
	// DigestAge is how old a session's latest message must be for
	// Reextract to build its digest again; 0 builds none (Digests takes
	// its cutoff as an argument).
	DigestAge time.Duration

	claims claim.Cache // texts parsed: sentences by the offline extractor, entries for conflicts
	roles  roleCache   // the values each role has in the store, for conflict detection
	facts  factCache   // the project's entries by subject and by id, for one memory per fact
	rivals rivalCache  // the entries conflict detection read, by id
}

// Plan is what the pipeline makes of a session before it writes anything:
// the entries extracted from its messages, their quotes aligned. Making a
// plan reads nothing from the store, so plans for several sessions can be
// made at once while another goroutine writes.
type Plan struct {
	Session store.Session
	// Events are the session's messages in order. Apply cites them by id, so
	// a plan made before they were stored needs their ids filled in first.
	Events []store.Event
	writes []store.EntryWrite
	res    Result
	// placed says the writes' claim keys are those of the facts they
	// state already (reextract placed them, see facts.place).
	placed bool
}

// Process extracts, aligns and stores the entries of one session, then records
// conflicts with the project's earlier entries and the session's summary.
// Extraction and alignment run before the write lock is taken; the writes
// land in one transaction. Processing a session again changes nothing:
// every write is keyed.
//
// A forget that runs while the extractor works (an LLM can take minutes)
// deletes or redacts messages the plan was made from. The plan is then
// checked inside the write transaction, found stale and made again from what
// is left, so a forgotten message is never written back as an entry, an
// event or a summary.
func (p *Processor) Process(ctx context.Context, sessionID string) (Result, error) {
	for attempt := 1; ; attempt++ {
		res, err := p.processOnce(ctx, sessionID)
		if !errors.Is(err, store.ErrChanged) {
			return res, err
		}
		if attempt == maxReplans {
			return Result{}, fmt.Errorf("process %s: gave up after %d attempts: %w", sessionID, attempt, err)
		}
		if p.Log != nil {
			p.Log.Info("messages forgotten while extracting; planning again", "session", sessionID, "err", err)
		}
	}
}

// maxReplans bounds how often Process plans a session again after a forget:
// each attempt may cost a model call, and forgets do not come in streams.
const maxReplans = 3

func (p *Processor) processOnce(ctx context.Context, sessionID string) (Result, error) {
	plan, err := p.load(ctx, p.DB.Read(), sessionID)
	if err != nil {
		return Result{}, err
	}
	if len(plan.Events) == 0 {
		return plan.res, nil // nothing to write: no need for the write lock
	}
	var res Result
	var applyErr error
	err = p.DB.Update(ctx, func(tx *store.Tx) error {
		if err := tx.Unchanged(ctx, plan.Events); err != nil {
			return err
		}
		res, applyErr = p.Apply(ctx, tx, plan)
		return applyErr
	})
	switch {
	case applyErr != nil:
		return res, applyErr
	case err != nil:
		return res, fmt.Errorf("process %s: %w", sessionID, err)
	}
	return res, nil
}

// ProcessIn is Process reading and writing in the caller's transaction st.
func (p *Processor) ProcessIn(ctx context.Context, st *store.Tx, sessionID string) (Result, error) {
	plan, err := p.load(ctx, st, sessionID)
	if err != nil {
		return Result{}, err
	}
	return p.Apply(ctx, st, plan)
}

// load reads a session's messages from st and plans them.
func (p *Processor) load(ctx context.Context, st *store.Tx, sessionID string) (*Plan, error) {
	sess, err := st.Session(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	evs, err := st.Events(ctx, store.EventFilter{SessionID: sessionID,
		Types: []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}})
	if err != nil {
		return nil, err
	}
	return p.Plan(ctx, sess, evs)
}

// Plan extracts the entries of a session's messages and aligns their quotes.
func (p *Processor) Plan(ctx context.Context, sess store.Session, evs []store.Event) (*Plan, error) {
	plan := &Plan{Session: sess, Events: evs}
	plan.res.Messages = len(evs)
	if len(evs) == 0 {
		return plan, nil
	}
	msgs := make([]extract.Message, len(evs))
	texts := make([]string, len(evs))
	for i, e := range evs {
		text := e.Text
		if e.Type == store.TypeToolObservation && observation.Subagent(gjson.GetBytes(e.Payload, "tool").String()) {
			text = observation.ToolOutputCut(text)
		}
		msgs[i] = extract.Message{Index: i, Role: role(e.Type), Text: text}
		texts[i] = e.Text
	}
	ext := p.Extractor
	if ext == nil {
		ext = Offline{}
	}
	if p.Fallback != nil && !p.Budget.Allow(ctx, sess) {
		ext = p.Fallback // the Meter has said so, once a window
	}
	if p.Budget != nil {
		name := ext.Name()
		ctx = spend.WithReporter(ctx, func(u spend.Usage) { p.Budget.Record(ctx, sess, name, u) })
	}
	entries, err := p.withClaims(ext).Extract(ctx, msgs)
	if err != nil && p.Fallback != nil {
		p.Log.Warn("extractor failed; using fallback", "extractor", ext.Name(), "fallback", p.Fallback.Name(), "err", err)
		ext = p.Fallback
		entries, err = p.withClaims(ext).Extract(ctx, msgs)
	}
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", ext.Name(), err)
	}
	plan.res.Extractor = ext.Name()
	plan.res.Extracted = len(entries)
	aligner := align.NewSession(texts)
	plan.writes = make([]store.EntryWrite, len(entries))
	for i, x := range entries {
		e, events := p.entry(sess, evs, aligner, x, ext.Name())
		if err := store.Prepare(events); err != nil {
			return nil, err
		}
		plan.writes[i] = store.EntryWrite{Entry: e, Events: events}
		if e.Stage == store.StageVerified {
			plan.res.Verified++
		} else {
			plan.res.Candidates++
		}
	}
	return plan, nil
}

// withClaims is ext, made to parse through the Processor's cache when it
// is the offline extractor without one: an import's sessions say the same
// sentences again and again, and parsing them was a third of extracting.
func (p *Processor) withClaims(ext Extractor) Extractor {
	if o, ok := ext.(Offline); ok && o.Claims == nil {
		o.Claims = &p.claims
		return o
	}
	return ext
}

// Apply stores a plan's entries in st, then records conflicts with the
// project's earlier entries and the session's summary.
func (p *Processor) Apply(ctx context.Context, st *store.Tx, plan *Plan) (Result, error) {
	res, err := p.apply(ctx, st, plan)
	if err != nil {
		p.Forget() // the caller rolls back what was kept since
	}
	return res, err
}

// Forget drops the entries the Processor keeps between sessions, for merging
// facts and for conflict detection. A caller whose transaction rolls back
// after Apply succeeded calls it: what was kept may never have been stored,
// and SQLite hands its ids out again.
func (p *Processor) Forget() {
	p.facts.reset()
	p.rivals.reset()
}

func (p *Processor) apply(ctx context.Context, st *store.Tx, plan *Plan) (Result, error) {
	res := plan.res
	if len(plan.Events) == 0 {
		return res, nil
	}
	now := p.now()
	for i := range plan.writes {
		e := &plan.writes[i].Entry
		// A date in the future (a clock that was ahead) is cut to now. Here,
		// not in Plan: import plans on several goroutines at once, and their
		// clocks would order the cut entries by chance, not as stored.
		if e.Created.After(now) {
			e.Created = now
		}
		for j, ev := range e.Evidence {
			if ev.Aligned() {
				e.Evidence[j].EventID = plan.Events[ev.MessageIndex].ID
			}
		}
	}
	// A fact the project holds in other words gains this session's quote.
	if !plan.placed {
		same := newFacts(plan.Session.Project)
		same.cache, same.parse = &p.facts, p.claims.Parse
		if err := same.place(ctx, st, plan.writes); err != nil {
			return res, err
		}
	}
	stored, created, err := st.PutEntries(ctx, plan.writes)
	if err != nil {
		return res, err
	}
	if err := reword(ctx, st, plan.writes, stored); err != nil {
		return res, err
	}
	p.facts.stored(plan.Session.Project, stored)
	for _, c := range created {
		if c {
			res.New++
		}
	}
	n, err := p.detectConflicts(ctx, st, plan.Session.Project, stored)
	if err != nil {
		return res, err
	}
	res.Conflicts = n
	// Tasks this session finished are closed in the same transaction, so
	// that the next brief never lists work the session did.
	if res.TasksClosed, err = task.Finish(ctx, st, plan.Session, plan.Events, now); err != nil {
		return res, err
	}
	if err := st.SetSummary(ctx, plan.Session.ID, summary(plan.Session, plan.Events, stored)); err != nil {
		return res, err
	}
	return res, dropStaleDigest(ctx, st, plan)
}

func role(typ string) string {
	switch typ {
	case store.TypeUserPrompt:
		return "user"
	case store.TypeAgentResponse:
		return "assistant"
	}
	return "tool"
}

// entry aligns an extracted entry's quotes and applies the verified gate: an
// entry is verified only when every quote was found in the session.
func (p *Processor) entry(sess store.Session, evs []store.Event, a *align.Session, x extract.Entry, extractor string) (store.Entry, []store.Event) {
	e := store.Entry{
		Project:   sess.Project,
		SessionID: sess.ID,
		Type:      string(x.Type),
		Title:     strings.TrimSpace(x.Title),
		Body:      strings.TrimSpace(x.Body),
		Subject:   normalizeKey(x.Subject),
		Stage:     store.StageVerified,
	}
	e.ClaimKey = claim.Key(e.Subject, e.Title)
	e.Questions = x.Questions
	if len(e.Questions) == 0 {
		e.Questions = question.ForWith(e.Type, e.Subject, e.Title+"\n"+e.Body, &p.claims)
	}
	var failed []string
	type spanInfo struct {
		Quote      string  `json:"quote"`
		Message    int     `json:"message"`
		Start      int     `json:"start"`
		End        int     `json:"end"`
		Method     string  `json:"method"`
		Confidence float64 `json:"confidence"`
		Failure    string  `json:"failure,omitempty"`
		Ambiguous  bool    `json:"ambiguous,omitempty"`
	}
	var spans []spanInfo
	x.Evidence = slices.Clone(x.Evidence)
	for k, q := range x.Evidence {
		s := a.Quote(q.Quote, q.MessageIndex)
		if s.OK() && s.Message < len(evs) && 0 <= s.Start && s.Start <= s.End && s.End <= len(evs[s.Message].Text) {
			// A quote found is kept as the message's own words: a near
			// match may hold what the message was stored without (a
			// secret, a private section the model saw before capture
			// masked it), and evidence is what was said.
			q.Quote = evs[s.Message].Text[s.Start:s.End]
			x.Evidence[k] = q
		}
		ev := store.Evidence{
			SessionID: sess.ID, MessageIndex: q.MessageIndex, Quote: q.Quote,
			Method: string(s.Method), Confidence: s.Confidence, Failure: s.Failure, Ambiguous: s.Ambiguous,
		}
		if s.OK() {
			ev.MessageIndex = s.Message // Apply sets EventID from it
			ev.SourceUUID = evs[s.Message].SourceUUID
			ev.SpanStart, ev.SpanEnd = s.Start, s.End
		} else {
			failed = append(failed, fmt.Sprintf("%s: %q", s.Failure, clip(q.Quote, 80)))
		}
		e.Evidence = append(e.Evidence, ev)
		spans = append(spans, spanInfo{q.Quote, ev.MessageIndex, ev.SpanStart, ev.SpanEnd, ev.Method, ev.Confidence, ev.Failure, ev.Ambiguous})
	}
	if len(x.Evidence) == 0 {
		failed = append(failed, "no evidence quoted")
	}
	e.Created = said(evs, e.Evidence)
	if len(failed) > 0 {
		e.Stage = store.StageCandidate
		e.PromotionBlocked = fmt.Sprintf("%d of %d quotes did not align: %s", len(failed), max(len(x.Evidence), 1), strings.Join(failed, "; "))
	}
	h := hash(e.ClaimKey)
	now := p.now()
	extracted, _ := json.Marshal(map[string]any{"type": e.Type, "title": e.Title, "body": e.Body, "subject": e.Subject,
		"claim_key": e.ClaimKey, "questions": e.Questions, "evidence": x.Evidence, "extractor": extractor})
	aligned, _ := json.Marshal(map[string]any{"claim_key": e.ClaimKey, "aligned": len(x.Evidence) - len(failed),
		"failed": len(failed), "stage": e.Stage, "promotion_blocked": e.PromotionBlocked, "spans": spans})
	events := []store.Event{
		{Time: now, Type: store.TypeEntryExtracted, SessionID: sess.ID, Project: sess.Project, Text: e.Title,
			DedupeKey: store.Key(store.KeyEntry, sess.ID, h), Payload: extracted},
		{Time: now, Type: store.TypeEvidenceAligned, SessionID: sess.ID, Project: sess.Project,
			DedupeKey: store.Key(store.KeyAligned, sess.ID, h), Payload: aligned},
	}
	return e, events
}

// said is when an entry was said: the time of the latest message its quotes
// were found in, or of the session's latest message when none was; zero when
// the messages carry no time (the store then uses now). A session imported
// months later so keeps its memories' dates, which recall ranks recency by
// and conflict detection tells the newer claim by.
func said(evs []store.Event, evidence []store.Evidence) time.Time {
	var t time.Time
	for _, v := range evidence {
		if v.Aligned() && v.MessageIndex < len(evs) && evs[v.MessageIndex].Time.After(t) {
			t = evs[v.MessageIndex].Time
		}
	}
	if t.IsZero() {
		for _, ev := range evs {
			if ev.Time.After(t) {
				t = ev.Time
			}
		}
	}
	return t
}

func (p *Processor) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func normalizeKey(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

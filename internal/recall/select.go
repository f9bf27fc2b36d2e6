package recall

import (
	"context"
	"errors"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
)

// messageTypes are the captured events recall draws on besides entries.
var messageTypes = []string{store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation}

// Tuning of the prompt path, measured through the hook on the dev sets
// (LoCoMo, real sessions, conflicts; see docs/recall.md).
const (
	hookCandidates = 100 // FTS hits re-ranked per prompt
	// An item's relevance is the share of the prompt's weight it matches
	// times how much of the project's own vocabulary it matches (see
	// coverage): a generic question matching generic words scores low, and
	// so does a message sharing one rare word with a long prompt. The scale
	// is the same for every prompt and store, so thresholds calibrated on
	// the dev sets hold: a prompt is answered only when its best item
	// reaches minRelevance, and then with items reaching itemRelevance.
	minRelevance  = 0.42
	itemRelevance = 0.28
	// relFloor drops items scoring below this share of the best item: a
	// strong match makes weak ones noise.
	relFloor = 0.25
	// windowBoost multiplies the score of an item from the span of time a
	// prompt names ("last week", "in May").
	windowBoost = 1.6
)

// Item is one thing recall shows: a verified entry, or a captured message
// (its own evidence, as it is verbatim).
type Item struct {
	CID       string // citation id: an entry's, or one naming the message (store.EventCID)
	Kind      string // entry, user_prompt, agent_response, tool_observation
	Type      string // an entry's type: decision, fact, ...
	Stage     string // an entry's stage
	Status    string // an entry's status
	SessionID string
	Time      time.Time
	Text      string // an entry's claim, or the message text
	Quote     string // an entry's best aligned quote
	Score     float64
	Coverage  float64 // share of the prompt's weight it matches
	Relevance float64 // coverage times the project vocabulary it matches

	entry  store.Entry // for an entry
	event  store.Event // for a message
	events []int64     // the messages this item shows (an entry: its evidence)
	// Context is the turn that explains a message: the answer that followed a
	// question, or the question an answer answered.
	Context *store.Event
	// contextOf is the quoted message an entry's Context explains
	// (entryContext); a message's Context explains the message itself.
	contextOf store.Event
	// Excerpt and ContextExcerpt are what is shown of Text and Context: the
	// parts that match the prompt.
	Excerpt, ContextExcerpt string
	// ReplacedBy names the item that replaced a statement this one makes.
	ReplacedBy string
	// Closed says how a task entry was closed ("done 2026-11-03"); "" for
	// an open task and everything else.
	Closed string
	// stale marks a message a superseded entry quotes: it counts for
	// whether the prompt is answered and brings the ledger's warning, which
	// then shows it beside its replacement (current).
	stale bool
	// reports marks a message that gives the version of the very thing a
	// prompt asks the version of (versionReport): it opens the gate even
	// as tool output.
	reports bool
	// msg is the message as messageItems read it for the prompt, its
	// lines split once (read); nil for other items.
	msg *message
	// widen is a long message's excerpt within leadChars, shown instead
	// of Excerpt when that pushes no memory out (Render), worked out only
	// where it may fit; nil for other items. wideMax bounds its length.
	widen   func() string
	wideMax int
	// quoteMsg is the message whose excerpt an entry shows as its quote
	// (merge, quoteValue); nil for others.
	quoteMsg *message
	// source is the first message merge folds into an entry: the one it
	// stands for, whose lines giving a value asked its quote may show
	// (quoteValue); zero for others.
	source store.Event
	// room is the bytes of Excerpt shown (of Quote, for an entry):
	// itemChars (quoteChars) when 0.
	room int
	// widenContext is the Context's excerpt within itemChars, shown
	// instead of ContextExcerpt when that pushes no memory out (Render);
	// nil when the Context fits contextChars. contextMax bounds its
	// length; contextRoom is the bytes of ContextExcerpt shown:
	// contextChars when 0.
	widenContext func() string
	contextMax   int
	contextRoom  int
	// promptConcepts are the concepts of the prompt the item was selected
	// for (Select); nil for an item built elsewhere.
	promptConcepts []concept
	// promptRoles are the roles the prompt asks the value of (claim.Asks),
	// but any version or amount, set with promptConcepts.
	promptRoles []string
	// promptNow marks a prompt asking how things stand now (asksNow),
	// set with promptConcepts.
	promptNow bool
	// cause is the real cause a message names, for a prompt asking one
	// (messageItems). raised marks an item whose Relevance messageItems
	// raised, for such a cause, for a setting the prompt names
	// (namedSetting) or for a failure asked (a failed run); openRelevance
	// is its relevance before, which it opens the gate with: that a
	// message names a cause, a file sets a name of everyday words or a run
	// failed says nothing of whether it is this project's answer.
	cause         *claim.Diagnosis
	raised        bool
	openRelevance float64
	// senseShare is the share of its gate relevance (openRelevance when
	// raised) the item keeps for the senses of another language's words
	// it matched (openBySense); 0 for all of it.
	senseShare float64
}

// gateRelevance is the relevance with which the item opens the gate.
func (it Item) gateRelevance() float64 {
	gate := it.Relevance
	if it.raised {
		gate = it.openRelevance
	}
	if it.senseShare > 0 {
		gate *= it.senseShare
	}
	return gate
}

// openBySense sets the share of its gate relevance the item keeps for the
// senses it matched (sensed of spec, senseCoverage): a word of another
// language matched by one of its dictionary's senses ranks the item as
// before, among the items the gate let through, but is weaker evidence
// that the prompt is about it.
func (it *Item) openBySense(spec, sensed float64) {
	if sensed < spec {
		it.senseShare = sensed / spec
	}
}

// takeRelevance gives it, found again as o (a role's value, an entry's
// message, a session's digest, an outcome), the better of the two
// relevances, and of the two it opens the gate with: a relevance raised
// for what a message says stays one that opens no gate (raised).
// One opening with less for a translation's sense (senseShare) stays one
// that was not raised: placeEnd spares only a run raised for what it says.
func (it *Item) takeRelevance(o Item) {
	gate := math.Max(it.gateRelevance(), o.gateRelevance())
	raised := it.raised || o.raised
	it.Relevance = math.Max(it.Relevance, o.Relevance)
	it.raised, it.openRelevance, it.senseShare = false, 0, 0
	switch {
	case gate >= it.Relevance:
	case raised:
		it.raised, it.openRelevance = true, gate
	default:
		it.senseShare = gate / it.Relevance
	}
}

// read is the item's text as recall reads it for the prompt: the message
// messageItems split, or its text read afresh.
func (it *Item) read() *message {
	if it.msg == nil {
		it.msg = readText(it.Text)
		it.msg.tool = toolHeaded(it.event) // an entry's event is empty: no header
	}
	return it.msg
}

// messageItem is the item showing captured message e, ex of its text.
func messageItem(e store.Event, ex string) Item {
	return Item{CID: store.EventCID(e.ID), Kind: e.Type, SessionID: e.SessionID, Time: e.Time, Text: e.Text,
		Excerpt: ex, event: e, events: []int64{e.ID}}
}

// EntryID is the entry's row id, or 0 for a message.
func (it Item) EntryID() int64 { return it.entry.ID }

// Select ranks everything the project has said for a prompt: verified entries
// and captured messages, together. Nothing is returned unless the best item
// reaches minRelevance (the abstain path). Candidate entries are never
// returned; superseded ones only through warnings.
func Select(ctx context.Context, db *store.DB, cfg config.Recall, req Request) ([]Item, error) {
	prompt := head(req.Prompt)
	if strings.Contains(prompt, "/memory-") && ownCommandRE.MatchString(prompt) {
		return nil, nil // the plugin's own slash commands show memory themselves
	}
	if transcript.TaskNotification(prompt) {
		// The client's own message (a background agent's report in its
		// <task-notification>), which Claude Code submits as a prompt: the
		// user asked nothing, and the report's every word would match.
		return nil, nil
	}
	cs := concepts(prompt, req.Glosses)
	if len(cs) == 0 {
		return nil, nil
	}
	// A polite request's "we" is who will do the work (request).
	body := request(prompt)
	// The prompt's form, read once: each reads the prompt's tense, and
	// howTo its languages.
	how, work := howTo(body), newWork(body)
	// A prompt naming the project asks about it unless it asks for new
	// work in it ("add i18n so the app can switch languages") or how to do
	// something there ("how do I add a health check to the app?"), not how
	// the project stands now ("how do I run the site locally now?").
	ours := saysOurs(body) || romanceWe(body) || germanWe(body) ||
		namesProject(body) && !work && (!how || currentRE.MatchString(body))
	counts := newTermCounts(db, req.SessionID)
	cs, err := counts.spellings(ctx, cs, prompt)
	if err != nil {
		return nil, err
	}
	// A how-to question in another language is asked of a manual too: its
	// words the project never wrote name what it asks about, and weigh as
	// an English prompt's unseen words do. The lighter weight of a foreign
	// unseen word (foreignUnseenWeight) is for a follow-up, whose words a
	// session held in English says otherwise; kept for a how-to question,
	// its one technical word the project shares ("Vite") cleared the
	// how-to bar alone.
	if how && !ours {
		for i := range cs {
			cs[i].foreign = false
		}
	}
	cs, total, err := counts.weigh(ctx, cs, ours)
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	// The prompt's tense (pastOrNow), read once and only where a decision
	// below asks it: three may, and a Russian past is read by the
	// dictionary.
	pastNow := sync.OnceValue(func() bool { return pastOrNow(prompt, req.Glosses) })
	// A prompt that says it is about the project's own ways or past ("we",
	// "last time", a past tense or "now", in its language) means its words
	// as the project used them: a translation the store holds is the sense
	// meant, and opens the gate as the word would (senseShare). Without
	// such a sign a prompt may be about anything, and one sense of several
	// the store happens to hold is weak evidence.
	if slices.ContainsFunc(cs, func(c concept) bool { return len(c.glosses) > 1 }) && (ours || pastNow()) {
		for i := range cs {
			cs[i].glosses = nil
		}
	}
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	find := plan(cs, total)
	// A request put as a question ("how should we add …?", request) asks
	// no role: its command is read, as its "we" is.
	asked := asks(cs, body)
	// A question for a role asks the project's own choice (a convention, a
	// tool), in a how-to form too. Not one for a value every project's
	// output holds (claim.Everywhere: an environment variable, a command):
	// "which env vars does Vite expose?", "what command lists docker
	// volumes?" are asked of a manual as often.
	asksRole := slices.ContainsFunc(asked, func(a ask) bool { return !a.any && !claim.Everywhere(a.role) })
	// A how-to question is asked of a manual: its everyday words say it is
	// about the stack the store talks about, not about what the project did.
	if !ours && how && !asksRole {
		for i := range cs {
			cs[i].specific *= everydayShare(cs[i].forms[0])
		}
	}
	// The texts read for a value the prompt asks, parsed once: a short
	// message read whole for a role is the line raiseValued and its
	// excerpt read again.
	pc := &claim.Cache{}
	msgs, err := messageItems(ctx, db, req, cs, find, asked, claim.AsksCause(prompt), claim.AsksFailure(prompt), pc)
	if err != nil {
		return nil, err
	}
	best, bestCov := 1.0, 1.0
	if len(msgs) > 0 {
		best, bestCov = msgs[0].Score, msgs[0].Coverage
	}
	ents, err := entryItems(ctx, db, req, cs, find, asked, best, pc)
	if err != nil {
		return nil, err
	}
	roles, err := roleItems(ctx, db, req, cs, asked, best, bestCov, pc)
	if err != nil {
		return nil, err
	}
	msgs, err = markSuperseded(ctx, db, mergeRoles(msgs, roles))
	if err != nil {
		return nil, err
	}
	if err := linkQuoted(ctx, db, ents, msgs); err != nil {
		return nil, err
	}
	items := standIn(merge(ents, msgs))
	if w := timeWindow(prompt, now); !w.zero() {
		for i := range items {
			if w.contains(items[i].Time) {
				items[i].Score *= windowBoost
			}
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Score > items[j].Score })
	valued := raiseValued(items, cs, asked, pc)
	if raiseCauses(items) || valued {
		sort.SliceStable(items, func(i, j int) bool { return items[i].Score > items[j].Score })
	}
	then, err := outcomeItems(ctx, db, req, prompt, items)
	if err != nil {
		return nil, err
	}
	items = withOutcome(items, then)
	// A how-to question asked of "we" in the present (howWe) that names a
	// term the project never wrote (newTerm: "how do we handle SIGHUP in our
	// server?", "как нам подключить Jaeger?") asks how to do new work, as
	// "how do I" does: its "we" is who will do it. It meets the how-to
	// bar, and its tool output opens nothing alone; its words stay weighed
	// as a question about the project's ways weighs them (weigh, above).
	// The project's own way of doing a thing is asked in its own words
	// ("how do we run the tests?"), and a question about what it did or
	// how it stands now says so (pastOrNow: "how do we deploy now?"). A
	// store whose messages hold none of the prompt's words tells nothing of
	// what is new to it (as for novel).
	seen := slices.ContainsFunc(cs, func(c concept) bool { return c.df > 0 })
	if ours && seen && howWe(prompt, how) && !pastNow() && namesUnseenTerm(cs, ents, prompt, req.Glosses, newTerm) {
		ours, how = false, true
	}
	// Tool output opens the gate alone only for a prompt about the
	// project's own past ("which JDK did it start on when we ran it?", "why
	// did the nightly import stop?") or how it stands now (pastOrNow): a
	// build log, a file read or a diff holds every word of a stack, so
	// matching one says a how-to question is about the same technology, not
	// about anything the project did. Otherwise it comes along once a
	// prompt, an answer or a memory opens the gate. A subagent's report is
	// tool output, whether a Task result or the notice Claude Code submits
	// as a prompt for one run in the background (transcript.TaskNotification):
	// an explorer's report names a stack's every word too.
	// So does a question that names a file the project's tool runs read
	// or wrote ("what base path does the astro config point at?"): like
	// "we" or the past tense, the project's own file says the question is
	// about the project, and any of its tool output may then open the gate,
	// as for those.
	// Not a question about the world's past ("did Node 22 make require()
	// work?"), whose tool output matched is a stack's, as for a how-to
	// question. Nor a request for new work (newWork), "our" or not: "add
	// a wishlist to our shop", "how should we add tags to our notes
	// page?" (request) name where the work goes, and a diff of that page
	// holds those words; what the project said of it may still open the
	// gate ("add our eslint config to the api package").
	isPast, world := past(prompt), worldPast(prompt)
	toolOpens := !work && (ours || !how && !world && (pastNow() || namesRunFile(prompt, items)))
	// A question for a field's value opens it with tool output printing
	// that field (givesField), read once a run: opens is asked of an item
	// up to three times, and a run's output may be long.
	field := ""
	if !toolOpens && !how && !work && questionRE.MatchString(prompt) {
		field = rarestForm(cs)
	}
	// A word the prompt names: one of a concept's forms, or its stem.
	named := func(w string) bool {
		k := stem(w)
		return slices.ContainsFunc(cs, func(c concept) bool { return slices.Contains(c.forms, w) || slices.Contains(c.keys, k) })
	}
	gives := map[int64]bool{}
	opens := func(it Item) bool {
		if toolOpens || it.reports || it.Kind != store.TypeToolObservation && !notice(it.event) {
			return true
		}
		if field == "" {
			return false
		}
		g, ok := gives[it.event.ID]
		if !ok {
			g = givesField(it.event.Text, field, named)
			gives[it.event.ID] = g
		}
		return g
	}
	relevant := 0.0
	for _, it := range items {
		if opens(it) {
			relevant = math.Max(relevant, it.gateRelevance())
		}
	}
	floor := minRelevance
	if cfg.Threshold > 0 {
		floor = cfg.Threshold // the user's own bar (config.json "threshold")
	}
	// A how-to question, a request for new work (newWork), or a prompt
	// about something the project never spoke of (novel), is answered
	// only by a strong match: the store
	// shares its everyday words, not its subject. Not a question about what
	// happened, or one asking a role, whose rarest word may be a paraphrase
	// the answer does not use; a request without a question mark asks no
	// role ("add a page where I can…" is no question for a path). novel
	// reads the English word table, so only an English prompt: every word
	// of another language is missing from it, as rare as a name.
	// A question for a role that names a product the project never wrote
	// ("which image format, AVIF or WebP?") asks that product's manual, not
	// the project's choice: a name is no paraphrase, and novel decides. The
	// words asking the role ("ORM", "CI", "enqueued") name no product
	// (review 307). Nor does "we", a how-to form or a request make a
	// prompt that writes such a name (product: "should we put our gateway
	// behind Traefik?") one about the project's own ways: it proposes
	// something new. A question about what happened may ("was Quillmark
	// on the diary page?"): the project's past is asked, whatever it was
	// called then.
	free, english := roleFree(cs, asked), englishOnly(prompt)
	product := english && (namesUnseenTerm(free, ents, prompt, req.Glosses, writtenName) ||
		proposalRE.MatchString(prompt) && namesUnseenTerm(free, ents, prompt, req.Glosses, proposedName))
	ownRole := asksRole && strings.Contains(prompt, "?") && !namesUnseenTerm(free, ents, prompt, req.Glosses, unknownWord)
	// unspoken reports a prompt about what the project never spoke of
	// (novel) that neither "we" nor a role asked of the project spares;
	// read only where it decides, as novel reads the entries found. "We"
	// or "our" in a request for new work ("add a braille version of our
	// help pages") name who does it and where it goes, and spare nothing.
	unspoken := func() bool { return (!ours || work) && !ownRole && english && novel(cs, ents) }
	if product && !pastAsked(prompt) || !ours && (how || work) || !isPast && unspoken() {
		floor *= howToBar
		// A how-to question naming a term the project never wrote, or a
		// request for new work naming a tool it never used ("write vitest
		// tests for the server routes"), twice that: the stack it shares
		// with the prompt is all a match can be (namesUnseenTerm).
		if how || work {
			kind := unknownWord
			if how {
				kind = rareWord
			}
			if namesUnseenTerm(cs, ents, prompt, req.Glosses, kind) {
				floor *= howToBar
			}
		}
	}
	// A question about what happened ("which did I pick in the end?",
	// "did we block that?") says itself that its subject is in the
	// project's past: what it shares with a message is likelier a
	// paraphrase of the answer than a stack's vocabulary, and the gate
	// opens at pastBar of the floor. Only the gate: what is shown beside
	// the best item is chosen by the floor as for any prompt. Not one
	// about the world's past (worldPast: "did Node 22 make require()
	// work?"), about what the project never spoke of (novel: "did Python
	// 3.13 ship a build without the GIL?"), or naming a product it never
	// wrote (product): the prompt's words are no paraphrase then, and a
	// hedge in the past tense ("I was wondering if we should add
	// Storybook") is no question about what happened.
	gate := floor
	if !how && !work && isPast && !world && !product && !unspoken() {
		gate *= pastBar
	}
	if relevant < gate {
		return nil, nil
	}
	// The best opening item's line that matched the prompt's rarest word
	// leads to the items that share its words (feedback.go). It is chosen
	// here, as ranked before the session raises its working files, and
	// followed below, only when a place is left for what it finds.
	anchor := -1
	for i, it := range items {
		if opens(it) && (anchor < 0 || it.gateRelevance() > items[anchor].gateRelevance()) {
			anchor = i
		}
	}
	var anchorItem Item
	if anchor >= 0 {
		anchorItem = items[anchor]
	}
	// Only a prompt that will be answered reads what its session has: most
	// prompts stop above.
	so := readSession(ctx, db, req)
	if raiseWorking(items, so.files) {
		sort.SliceStable(items, func(i, j int) bool { return items[i].Score > items[j].Score })
	}
	var known contextText
	if req.InContext != nil {
		known = contextText(foldWords(req.InContext()))
	}
	var out []Item
	said, runs := map[string]bool{}, runCache{}
	for _, it := range items {
		if len(out) == cfg.K {
			break
		}
		// The share of the best item's score drops weak matches beside a
		// strong one. An item that clears the floor and opens the gate is
		// no weak match: it falls under the share when short messages that
		// echo the prompt's words (a request and its acknowledgement) score
		// high on length alone.
		if it.Score < relFloor*items[0].Score && (it.Relevance < floor || !opens(it)) {
			continue
		}
		// What the session was shown already, or a CLAUDE.md file says, is
		// in Claude's context: the next best item takes its place.
		if so.shown[it.CID] || known.holds(it) {
			continue
		}
		// The same words said again (a question asked in several sessions)
		// are shown once, at their best rank; a command run again giving
		// nearly the same output, once at its best rank as its newest run:
		// that is how things stood last (a file read before and after an
		// edit, a status polled until it changed).
		if it.Kind != KindEntry {
			key := wordsKey(it.Text)
			if said[key] {
				continue
			}
			said[key] = true
			if j := runs.repeated(it, out); j >= 0 {
				switch {
				case !it.Time.After(out[j].Time):
					continue // an older run of what is shown
				case it.Relevance >= out[j].Relevance:
					out[j] = it
					continue
				}
				// A newer run that matches the prompt less is shown beside
				// the one that matches it: the prompt may name what was
				// true before ("still on 8080?") and the newer run says
				// how things stand.
			}
		}
		out = append(out, it)
	}
	// fresh reports whether an item found past the prompt's own matches may
	// be added: not shown to the session, not known, not the words of one
	// kept. fill adds such items to the places left, each unless it repeats
	// one kept.
	fresh := func(it Item) bool {
		return !so.shown[it.CID] && !known.holds(it) && !said[wordsKey(it.Text)]
	}
	add := func(it Item) {
		said[wordsKey(it.Text)] = true
		out = append(out, it)
	}
	fill := func(more []Item) {
		for _, it := range more {
			if len(out) >= cfg.K {
				break
			}
			if fresh(it) && runs.repeated(it, out) < 0 {
				add(it)
			}
		}
	}
	// The items ranked for the prompt itself; what is added after them
	// never takes one's place, but a later edit may (below).
	ranked := len(out)
	// A command's newer run comes with an older one shown: asked whether
	// a test still fails, the failing run names the test, the run after the
	// fix may not ("ok ledgerfx"), and it is how things stand. It takes no
	// place from an item matching the prompt itself; with no place left,
	// its searches are not run: most answered prompts fill every place.
	if len(out) < cfg.K {
		fill(laterRuns(ctx, db, req, cs, out, runs, cfg.K-len(out)))
	}
	// A later edit of a shown file that changed a line the file's item
	// shows is the newer side of what is shown, and its warning says so:
	// worth a place even when none is left (placeEdits). An edit is its
	// own change, not a repeat: one changing a line back is how it stands
	// now.
	out, ranked = placeEdits(out, ranked, cfg.K, laterEdits(ctx, db, req, cs, asked, pc, out[:ranked]), func(e Item) bool {
		if !fresh(e) {
			return false
		}
		said[wordsKey(e.Text)] = true
		return true
	})
	// So is the answer the best item's session ended its subject on
	// (sessionEnd): how the work came out. Nothing after reads which
	// items were ranked.
	if anchor >= 0 {
		if end, ok := sessionEnd(items, anchorItem); ok && fresh(end) {
			var placed bool
			if out, placed = placeEnd(out, ranked, cfg.K, end, anchorItem); placed {
				said[wordsKey(end.Text)] = true
			}
		}
	}
	// A config file the prompt names whole, as it stands now.
	if len(out) < cfg.K {
		fill(namedFileNow(ctx, db, req, cs, out, so.files))
	}
	// What the best item's line leads to fills the places left, as the
	// newer runs do.
	if anchor >= 0 && len(out) < cfg.K {
		more, err := feedback(ctx, db, counts, req, cs, anchorItem, items)
		if err != nil {
			return nil, err
		}
		fill(more)
	}
	if err := attachContext(ctx, db, out); err != nil {
		return nil, err
	}
	standing := asksNow(body)
	var askedRoles []string // shared by the items, read only
	for _, a := range asked {
		if !a.any {
			askedRoles = append(askedRoles, a.role)
		}
	}
	for i := range out {
		it := &out[i]
		it.promptConcepts, it.promptRoles, it.promptNow = cs, askedRoles, standing
		if it.Kind == KindEntry {
			it.Excerpt = it.Text
			if len(asked) > 0 {
				it.quoteValue(cs, asked, pc)
			}
		} else if len(asked) > 0 {
			// The lines shown of a long message are the ones giving the
			// value the prompt asks for, read only for what is shown:
			// parsing claims is the costly part.
			it.Excerpt = valueExcerpt(it.read(), cs, asked, pc, itemChars)
		}
		// A long message's excerpt within leadChars, which Render shows
		// where the budget has room: what a message says past its lines
		// sharing the prompt's words (the list item after the one that
		// matched, the sentence after the symptom) is often what was
		// asked.
		m := it.msg
		if it.Kind == KindEntry {
			m = it.quoteMsg
		}
		if m != nil && len(m.text) > itemChars {
			it.widen = func() string {
				if len(asked) > 0 {
					return valueExcerpt(m, cs, asked, pc, leadChars)
				}
				return m.excerpt(cs, leadChars)
			}
			it.wideMax = min(len(m.text), leadChars+16) // "…" marks
		}
		// An entry's quote is shown in part (quoteChars); where the
		// budget has room, as much as a message shows: the message's
		// longer excerpt when the quote is a message's words (merge).
		if q := it.Quote; it.Kind == KindEntry && it.widen == nil && len(q) > quoteChars {
			it.widen = func() string { return q }
			it.wideMax = min(len(q), itemChars+8)
		}
		if it.Kind == KindEntry && it.Type == store.DigestType {
			// A digest's lines that match the prompt, each still a line.
			ex := excerpt(it.entry.Body, cs, digestChars)
			it.Excerpt = it.entry.Title + ": " + strings.Join(strings.Fields(strings.ReplaceAll(ex, "\n", " ; ")), " ")
		}
		if it.Context != nil {
			text := it.Context.Text
			if it.Context.Type == store.TypeToolObservation {
				text = addedLines(text) // the fix, not the code it replaced
			}
			it.ContextExcerpt = excerpt(text, cs, contextChars)
			if len(text) > contextChars {
				it.widenContext = func() string { return excerpt(text, cs, itemChars) }
				it.contextMax = min(len(text), itemChars+16) // "…" marks
			}
		}
	}
	showSettingsAnew(out, cs, asked, pc)
	return out, nil
}

// quoteValue makes an entry's quote the lines of the message it stands for
// that give the value the prompt asks (valueWeights), when neither its
// claim nor its quote gives one: an entry distilled from a long report's
// first line stood in for the report, and its quote hid the one line
// giving the handbook's length asked. The message is the one whose words
// the quote shows (quoteMsg), or else the one merge folded into the entry.
func (it *Item) quoteValue(cs []concept, asked []ask, pc *claim.Cache) {
	m := it.quoteMsg
	if m == nil {
		if it.source.ID == 0 {
			return
		}
		m = readEvent(it.source)
	}
	weights, vcs := m.valueWeights(cs, asked, pc)
	if weights == nil {
		return
	}
	// The entry keeps its quote when its claim or the part of the quote
	// shown gives the value asked of what the prompt names; an amount of
	// something else ("Rewrote 20 sections", bareAmount) leaves the
	// question open.
	own, _ := readText(it.Text+"\n"+clipRunes(it.Quote, quoteChars)).valueWeights(cs, asked, pc)
	if slices.ContainsFunc(own, func(w float64) bool { return w > bareAmount*heaviest(vcs) }) {
		return
	}
	it.Quote, it.quoteMsg = m.pick(vcs, weights, quoteChars), m
}

// sittingGap is the pause between two of a session's items that ends a
// sitting: a session resumed hours later (claude --resume the next day)
// is mostly on other work.
const sittingGap = 3 * time.Hour

// sessionEnd is the last of Claude's answers among items in the session of
// best, said after it in the same sitting, covering at least half as much
// of the prompt as best does: where the work best matches came out
// ("Perfect! The deployment is working … now live at …" after the first
// deployment's report). The same sitting: no pause of sittingGap between
// the session's items from best to it (items only: the session's other
// events are not read); a session resumed the next day is on other work.
// Half the coverage keeps an answer on other work that shares a word or
// two of the prompt out; one on other work sharing as much of it, in the
// same sitting, is taken for the end (a session's subjects are not told
// apart otherwise: its user turns switch between them and back).
func sessionEnd(items []Item, best Item) (Item, bool) {
	var session []Item
	for _, it := range items {
		if it.SessionID == best.SessionID && it.Time.After(best.Time) {
			session = append(session, it)
		}
	}
	slices.SortStableFunc(session, func(a, b Item) int { return a.Time.Compare(b.Time) })
	var end Item
	found := false
	last := best.Time
	for _, it := range session {
		if it.Time.Sub(last) >= sittingGap {
			break
		}
		last = it.Time
		if it.Kind == store.TypeAgentResponse && it.Coverage >= best.Coverage/2 {
			end, found = it, true
		}
	}
	return end, found
}

// placeEnd lists a session's end (sessionEnd) right after the first item of
// its session among out[:ranked], the items ranked for the prompt. With k
// items listed it takes the place of the lowest-ranked tool run of that
// session, never best, the item it follows, a run raised as the value or
// failure asked (Item.raised, Item.reports) or another session's run: a
// later session's run may show how things stand now. It reports whether
// it placed end.
func placeEnd(out []Item, ranked, k int, end, best Item) ([]Item, bool) {
	at := slices.IndexFunc(out[:ranked], func(o Item) bool { return o.SessionID == end.SessionID })
	if at < 0 || slices.ContainsFunc(out, func(o Item) bool { return o.CID == end.CID }) {
		return out, false
	}
	if len(out) >= k {
		j := -1
		for i := ranked - 1; i > at && j < 0; i-- {
			o := out[i]
			if o.Kind == store.TypeToolObservation && o.SessionID == end.SessionID && o.CID != best.CID && !o.raised && !o.reports {
				j = i
			}
		}
		if j < 0 {
			return out, false
		}
		out = slices.Delete(out, j, j+1)
	}
	return slices.Insert(out, at+1, end), true
}

// valuedCandidates is how many of the best-ranked items are read for a
// value of the role a prompt asks (raiseValued): parsing claims is the
// costly part, and an item ranked lower is rarely shown.
const valuedCandidates = 24

// valueBoost is what an item gains that states a value of the role a
// prompt asks, on a line sharing the prompt's weightiest concept, or that
// names the real cause a prompt asks (raiseCauses).
const valueBoost = 2

// raiseCauses raises the messages naming the real cause a prompt asks
// (Item.cause), each cause once, at its best rank: a session sums up its
// finding in several messages ("Root cause: …" in each), and the repeats
// would push out the answer to the prompt's other half. Two name one cause
// when most of the words of either are the other's. Items are sorted by
// score; it reports whether it raised any.
func raiseCauses(items []Item) bool {
	var raised []*claim.Diagnosis
	for i := range items {
		d := items[i].cause
		if d == nil || slices.ContainsFunc(raised, func(o *claim.Diagnosis) bool {
			return 2*claim.Shared(*o, *d) > min(len(o.Words), len(d.Words))
		}) {
			continue
		}
		items[i].Score *= valueBoost
		raised = append(raised, d)
	}
	return len(raised) > 0
}

// raiseValued raises the best-ranked messages that state a value of a role
// the prompt asks (claim.Asks: a version, an interval, a port…) on a line
// that shares the prompt's weightiest concept, and reports whether it raised
// any. "Which zorblat version do we build with?" is answered by the one
// line saying "compiling with zorblat 4.2.1", not by the build logs that
// name zorblat more often and rank above it. Items are sorted by score.
func raiseValued(items []Item, cs []concept, asked []ask, pc *claim.Cache) bool {
	// Only a value of a shape: a tool's role is often read in passing
	// ("the mobile release" asks no mobile toolkit), and every file
	// importing the project's framework states one.
	asked = slices.DeleteFunc(slices.Clone(asked), func(a ask) bool { return !a.shape && !strings.HasPrefix(a.role, "version:") })
	if len(asked) == 0 {
		return false
	}
	raised := false
	for i := range min(len(items), valuedCandidates) {
		it := &items[i]
		if it.Kind == KindEntry || it.Relevance < itemRelevance {
			continue
		}
		if it.read().statesAsked(cs, asked, pc) {
			it.Score *= valueBoost
			raised = true
		}
	}
	return raised
}

// contextText is text already in Claude's context, folded for comparison.
type contextText string

// minKnown is the shortest text that counts as already in context: a few
// words ("use pnpm") are in any long file by chance.
const minKnown = 24

// foldWords lower-cases s and joins its words with single spaces, dropping
// Markdown's emphasis and list marks, so a line of a CLAUDE.md and the same
// words in a message compare equal.
func foldWords(s string) string {
	s = strings.ToLower(strings.NewReplacer("*", " ", "`", " ", "_", " ", "#", " ", "- ", " ").Replace(s))
	return strings.Join(strings.Fields(s), " ")
}

// holds reports whether the context already says what item it says: its
// text, or an entry's quote.
func (k contextText) holds(it Item) bool {
	if k == "" {
		return false
	}
	for _, s := range []string{it.Text, it.Quote} {
		if f := foldWords(s); len(f) >= minKnown && strings.Contains(string(k), f) {
			return true
		}
	}
	return false
}

// repeated is the index of the tool run in out that tool run it repeats,
// or -1: the command run again, perhaps changed a little ("sleep 2 && make
// …"), whose output holds nearly the same words (repeats): a status polled
// again, a log with other timestamps, a file read before and after a small
// edit. Repeats of a symptom must not push its answer out. Messages are not
// compared so: two that differ in one word may differ in the value that
// matters ("deploys go to Heroku" and "… to Fly.io"), and each is its own
// statement.
func (rw runCache) repeated(it Item, out []Item) int {
	r := rw.of(it)
	if r == nil {
		return -1
	}
	for j, o := range out {
		if or := rw.of(o); or != nil && r.same(or) {
			return j
		}
	}
	return -1
}

// runCache holds, by citation id, what repeated compares each tool run by,
// read once: a run is compared with every item kept.
type runCache map[string]*run

// run is what a tool run is compared by: its output, the words of its
// command line (the tool and its file or command, numbers left out: "sleep
// 2 && make check" and "sleep 9 && make check" are one command), the set of
// its output's words, and its output's lines that report a failure.
type run struct {
	output                   string
	command, words, failures []string
}

// of is what tool run it is compared by, nil for a message or a run
// without output.
func (rw runCache) of(it Item) *run {
	if it.Kind != store.TypeToolObservation {
		return nil
	}
	if r, ok := rw[it.CID]; ok {
		return r
	}
	var r *run
	if command, output, ok := strings.Cut(it.Text, "\n"); ok && strings.TrimSpace(output) != "" {
		r = &run{
			output:   strings.Join(strings.Fields(output), " "),
			command:  slices.DeleteFunc(lowerRuns(command), isNumber),
			words:    outputWords(output),
			failures: failureLines(output),
		}
	}
	rw[it.CID] = r
	return r
}

// same reports whether two runs repeat each other: the same output, or
// the same command with the same failures and nearly the same output. Two
// files with the same keys, two runs of a test suite failing different
// tests, a job polled as failed then as succeeded are each two things to
// show.
func (r *run) same(o *run) bool {
	return r.output == o.output ||
		slices.Equal(r.command, o.command) && slices.Equal(r.failures, o.failures) && repeats(r.words, o.words)
}

// placeEdits lists each of edits, for which take accepts it, right after
// the run it came for among out[:ranked], the items ranked for the
// prompt: memories are rendered in order until the budget is spent, and an
// edit added last was the first left out, the stale run shown without it.
// With k items listed, an edit takes the place of the lowest-ranked tool
// run it may (roomFor), or none. The edits come in the order of the runs
// they came for: one may take the place of a lower-ranked run another
// edit came for, and that edit then has no run to be listed beside. It
// returns out and the count of ranked items, the edits among them.
func placeEdits(out []Item, ranked, k int, edits []laterEdit, take func(Item) bool) ([]Item, int) {
	kept := map[string]bool{} // the runs an edit was added for, and the edits
	for _, le := range edits {
		at := slices.IndexFunc(out[:ranked], func(o Item) bool { return o.CID == le.of })
		if at < 0 {
			continue
		}
		j := -1
		if len(out) >= k {
			if j = roomFor(out[:ranked], le, kept); j < 0 {
				continue
			}
		}
		if !take(le.edit) {
			continue
		}
		if j >= 0 {
			out = slices.Delete(out, j, j+1)
			ranked--
			if j < at {
				at--
			}
		}
		out = slices.Insert(out, at+1, le.edit)
		ranked++
		kept[le.of], kept[le.edit.CID] = true, true
	}
	return out, ranked
}

// roomFor is the place among ranked, the items ranked for the prompt, that
// a later edit le may take: the lowest-ranked tool run, never a statement,
// nor a run reporting the version asked (Item.reports), one an edit was
// added for or an edit added (kept); -1 when there is none. A run showing
// the file le edits gives its place only when it is older than the run le
// came for: that one shows the file as the edit found it, and an older
// write or read of it is a staler copy of the same lines (a write and the
// read after it both showing the URL the edit then changed).
func roomFor(ranked []Item, le laterEdit, kept map[string]bool) int {
	_, file, _ := strings.Cut(firstLine(le.edit.Text), ": ")
	of := slices.IndexFunc(ranked, func(o Item) bool { return o.CID == le.of })
	for j := len(ranked) - 1; j >= 0; j-- {
		o := ranked[j]
		if o.Kind != store.TypeToolObservation || o.reports || kept[o.CID] || o.CID == le.of {
			continue
		}
		if strings.HasSuffix(firstLine(o.Text), ": "+file) && (of < 0 || !o.Time.Before(ranked[of].Time)) {
			continue
		}
		return j
	}
	return -1
}

// laterRunScan is how many of the runs holding a shown command's words (or
// a shown file's path), the newest stored first, laterRuns (laterEdits)
// reads for one of that very command (an edit of that very file).
const laterRunScan = 32

// laterRunWords is how many of a command line's words laterRuns searches
// by: the tool and the command's first words find its runs, each compared
// whole after. Every word of a 400-byte line cost 6 ms a search.
const laterRunWords = 6

// commandLine is the command a tool run ran, its text's first line "Tool:
// key" without the capture's " (error)" mark: the failed run and the one
// that passed after the fix ran one command. It is "" for a tool that reads
// or writes content (observation.ReportsRun: each read of a file is its own
// content) and for a tool given no key: a BashOutput poll reads whatever
// shell it is pointed at, a keyless MCP call whatever page is open.
func commandLine(text string) string {
	line := strings.TrimSuffix(firstLine(text), " (error)")
	tool, key, ok := strings.Cut(line, ": ")
	if !ok || strings.TrimSpace(key) == "" || !observation.ReportsRun(tool) {
		return ""
	}
	return line
}

// laterRuns are, for shown tool runs, the newest later run of the same
// command (commandLine) in the project's other sessions, where its output
// does not repeat the shown one (same); at most room of them. Later is by
// time: an imported session's runs are stored after newer ones. The items
// carry no score: they fill places after the ranking. A search that fails
// is left out: the shown runs stand without it.
func laterRuns(ctx context.Context, db *store.DB, req Request, cs []concept, out []Item, runs runCache, room int) []Item {
	var more []Item
	for _, it := range out {
		if len(more) >= room {
			break
		}
		r := runs.of(it)
		line := commandLine(it.Text)
		if r == nil || line == "" || slices.ContainsFunc(out, func(o Item) bool {
			return o.Time.After(it.Time) && commandLine(o.Text) == line
		}) {
			continue
		}
		words := lowerRuns(line)
		ev, err := newestLater(ctx, db, req, it, words[:min(len(words), laterRunWords)], func(text string) bool {
			return commandLine(text) == line
		})
		if err != nil {
			return more
		}
		if ev.ID == 0 {
			continue
		}
		// The newest run of the command is how things stand: one that
		// repeats the shown run adds nothing.
		if lr := runs.of(messageItem(ev, "")); lr != nil && !lr.same(r) {
			more = append(more, laterItem(ev, cs))
		}
	}
	return more
}

// newestLater is the newest by time of the tool runs after it, in the
// project's other sessions, that hold words and whose text keep accepts; a
// zero Event when there is none. The search reads laterRunScan of them, the
// newest stored first, and keep is asked only of one newer than the newest
// accepted so far.
func newestLater(ctx context.Context, db *store.DB, req Request, it Item, words []string, keep func(text string) bool) (store.Event, error) {
	hits, err := db.SearchEvents(ctx, store.EventQuery{
		Match: store.MatchAll(words, false), Project: req.Project, ExcludeSession: req.SessionID,
		Types: []string{store.TypeToolObservation}, Since: it.Time, Newest: true, Limit: laterRunScan,
	})
	if err != nil {
		return store.Event{}, err
	}
	var newest store.Event
	for _, h := range hits {
		if h.Time.After(it.Time) && (newest.ID == 0 || h.Time.After(newest.Time)) && keep(h.Text) {
			newest = h.Event
		}
	}
	return newest, nil
}

// laterItem is the item of a run laterRuns or laterEdits found: it carries
// no score (it is added after the ranking), and its excerpt is read for cs.
func laterItem(ev store.Event, cs []concept) Item {
	it := messageItem(ev, "")
	it.msg = readEvent(ev)
	it.Excerpt = it.msg.excerpt(cs, itemChars)
	return it
}

// failureLines are the lines of a tool output that report a failure
// (observation.ReportsError: "0 failed" reports none), their numbers left
// out (a duration, a line number), sorted and each once.
func failureLines(output string) []string {
	var out []string
	for line := range strings.Lines(output) {
		if observation.ReportsError(line) {
			out = append(out, strings.Join(slices.DeleteFunc(lowerRuns(line), isNumber), " "))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// repeatShare is the share of the longer of two tool outputs' words the
// shorter must hold for the runs to repeat each other: a short output is
// not the repeat of a long one that holds its few words (a one-line edit
// and the lint report naming the line it changed).
const repeatShare = 0.8

// outputWords is the set of a tool output's words, sorted.
func outputWords(s string) []string {
	ws := lowerRuns(s)
	slices.Sort(ws)
	return slices.Compact(ws)
}

// repeats reports whether two word sets share nearly all the words of the
// larger (repeatShare).
func repeats(a, b []string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if float64(len(a)) < repeatShare*float64(len(b)) {
		return false
	}
	in := 0
	for _, w := range a {
		if _, ok := slices.BinarySearch(b, w); ok {
			in++
		}
	}
	return len(b) > 0 && float64(in) >= repeatShare*float64(len(b))
}

// hookRankBudget is rankBudget for the prompt path, which must answer in a
// few milliseconds: a tenth of what search ranks (500 messages). On the dev
// sets a quarter found nothing more (a follow-up less, in fact) and cost
// 7 ms instead of 2 at 10k messages; a twentieth lost a follow-up.
const hookRankBudget = rankBudget / 10

// hookScoreBudget is how many messages the prompt path ranks by BM25 at
// most. The two rarest words of a prompt about something discussed all the
// time ("how did we configure retries for the payment webhook?") can be in
// a tenth of a large store's messages: at 100k messages, ranking all 26,000
// of them took 50 ms. Beyond the budget only the newest of them are ranked
// (see search); messages holding a word within the budget, however old,
// are still found.
const hookScoreBudget = 600

// search is what the prompt path's full-text queries look for.
type search struct {
	// match is the concepts' forms, English words by stem and others as
	// prefixes (store.MatchStems): the rarest the store holds while their
	// messages add up to no more than hookRankBudget (and always the two
	// rarest). Ranking an OR query by BM25 evaluates every match, most of
	// the prompt path's time in a large store; a common word left out still
	// counts in coverage. A prefix of an English word ("config*" for
	// "configuration") only found messages coverage, which compares stems,
	// then ranked low, and merged the document lists of every word it starts.
	match store.Match
	// after, when match selects more than hookScoreBudget messages, ranks
	// only those past this id: about the newest hookScoreBudget of them,
	// message ids growing about evenly with time.
	after int64
	// rare is then the rarest concept's forms when it alone is within
	// hookScoreBudget: ranked over every message, so that an old message
	// holding it is not lost to the window.
	rare store.Match
}

// plan is the search for concepts weighed in a store whose largest event id
// is total.
func plan(cs []concept, total int) search {
	var seen []concept
	for _, c := range cs {
		if c.df > 0 || c.said { // a word in no message finds nothing; one the session said may be a memory's
			seen = append(seen, c)
		}
	}
	sort.SliceStable(seen, func(i, j int) bool { return seen[i].df < seen[j].df })
	var forms []string
	sum := 0
	for i, c := range seen {
		if i >= 2 && sum+c.df > hookRankBudget {
			break
		}
		sum += c.df
		for k, f := range c.forms {
			if slices.Index(c.keys, c.keys[k]) == k { // one spelling of a key: FTS5 reads its list once
				forms = append(forms, f)
			}
		}
	}
	s := search{match: store.MatchStems(forms)}
	if sum > hookScoreBudget && total > 0 {
		s.after = int64(total - total*hookScoreBudget/sum)
		if seen[0].df <= hookScoreBudget {
			s.rare = store.MatchStems(seen[0].forms)
		}
	}
	return s
}

// relevanceMix is how much of an item's rank does not depend on its
// relevance (the share of the prompt it matches times its project words).
const relevanceMix = 0.5

// toolWeight scales a tool observation's rank by what it records: a command's
// output or a fetched page answers questions later; a file edit, read or
// search shows code the repository holds anyway, and a to-do list shows
// intentions, not outcomes.
func toolWeight(text string) float64 {
	name, _, _ := strings.Cut(text, ":")
	switch name {
	case "TodoWrite", "TodoRead":
		return 0.3
	case "Edit", "MultiEdit", "Write", "Read", "Grep", "Glob", "NotebookEdit", "LS":
		return 0.5
	}
	return 1
}

// messageItems scores the captured messages the full-text index finds, as
// Search does (BM25 raised by coverage, then inContext), times their
// relevance, and keeps those reaching itemRelevance. A message giving the
// value a role asked for (asked), Claude's naming the real cause when the
// prompt asks one (cause; Item.cause), or a failed run when it asks what
// failed (failure), is at least as relevant as roleRelevance.
func messageItems(ctx context.Context, db *store.DB, req Request, cs []concept, find search, asked []ask, cause, failure bool, pc *claim.Cache) ([]Item, error) {
	q := store.EventQuery{
		Match: find.match, After: find.after, Project: req.Project, ExcludeSession: req.SessionID, Types: messageTypes, Limit: hookCandidates,
	}
	hits, err := db.SearchEvents(ctx, q)
	if err == nil && find.after > 0 && !find.rare.Empty() {
		q.Match, q.After = find.rare, 0
		var old []store.EventHit
		old, err = db.SearchEvents(ctx, q)
		hits = union(hits, old, eventID) // a message in both keeps its rank for every word searched
	}
	if err == nil && find.after > 0 && len(hits) < hookCandidates/2 {
		// The newest messages are another project's (the window counts
		// every project's): rank this project's matches, all of them.
		q.Match, q.After = find.match, 0
		var all []store.EventHit
		all, err = db.SearchEvents(ctx, q)
		hits = union(hits, all, eventID)
	}
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	type scored struct {
		store.EventHit
		m    *message
		ex   string
		cov  float64
		spec float64
		// sensed is spec by the senses matched (senseCoverage).
		sensed float64
		base   float64
	}
	var causeFree []concept // the prompt's concepts but those asking for a cause
	if cause {
		causeFree = slices.DeleteFunc(slices.Clone(cs), func(c concept) bool {
			return slices.ContainsFunc(c.forms, func(f string) bool { return claim.CauseNoun(f) || claim.RealQualifier(f) || f == "caused" })
		})
	}
	var failureFree []concept // the prompt's concepts but those naming a failure
	if failure {
		failureFree = slices.DeleteFunc(slices.Clone(cs), func(c concept) bool { return slices.ContainsFunc(c.forms, claim.FailureWord) })
	}
	ss := make([]scored, 0, len(hits))
	for _, h := range hits {
		if ctx.Err() != nil {
			break // past the hook's deadline: rank what was read
		}
		if neverRecalled(h.Event) {
			continue
		}
		// A message is judged by what would be shown of it: a long log
		// contains every word somewhere, its best lines need not.
		m := readEvent(h.Event)
		cov, spec, sensed := senseCoverage(cs, m.passageKeys(cs, itemChars)...)
		ex := m.excerpt(cs, itemChars)
		ss = append(ss, scored{EventHit: h, m: m, ex: ex, cov: cov, spec: spec, sensed: sensed, base: h.Score * (1 + coverageWeight*cov)})
	}
	evs := make([]store.Event, len(ss))
	bases := make([]float64, len(ss))
	for i, s := range ss {
		evs[i], bases[i] = s.Event, s.base
	}
	scores := inContext(evs, bases)
	named := newestNamed(evs, cs)
	out := make([]Item, 0, len(ss)) // an Item is large: growing the slice was a tenth of a prompt's garbage
	// Only the best-ranked candidates are read for the value a prompt asks:
	// parsing claims is the costly part, and the rest would not be shown.
	sort.Sort(sort.Reverse(sort.Float64Slice(bases)))
	roleFloor := 0.0
	if len(bases) > roleCandidates {
		roleFloor = bases[roleCandidates]
	}
	for i, s := range ss {
		covRel := s.cov * s.spec // what the message shares with the prompt
		rel := covRel
		shaped := false   // raised only for a value every project's output holds (answeredRole)
		roleGave := false // rel is the relevance of an answered role, not shaped
		if rel < roleRelevance && s.base > roleFloor {
			var raised bool
			raised, shaped = answeredRole(asked, func(a ask) bool {
				if a.any {
					return false // no statement fills an any role: no message answers it so
				}
				ex := s.m.excerpt(a.cs, itemChars)
				if !answers(keysOf(ex), &parsed{text: ex, pc: pc}, cs, a) {
					return false
				}
				s.ex = ex
				return true
			})
			if raised {
				rel = roleRelevance // it gives the value the prompt asks for
				roleGave = !shaped
			}
		}
		// Claude's naming the real cause ("Root cause: …", "the actual
		// problem was …"), when the prompt asks what turned out to be the
		// reason, gives the value asked in its own words, as a statement of
		// a role's value does: the messages repeating the symptom share
		// more of the prompt's words. Of what the prompt names: the words
		// asking for a cause ("cause", "real", "reason") are in every such
		// statement (causeFree).
		var diagnosis *claim.Diagnosis
		if cause && s.base > roleFloor && s.Type == store.TypeAgentResponse {
			if own, _ := coverage(causeFree, keysOf(s.ex)); own >= shapeOwnCoverage {
				for _, d := range claim.Diagnoses(s.ex) {
					if d.Revised {
						diagnosis = &d
						break
					}
				}
			}
		}
		// The newest run of a config file setting a name the prompt's
		// words name ("which output folder …" for pages_build_output_dir)
		// gives the value asked, as a statement of a role's value does,
		// its excerpt showing the line. Neither this nor a named cause
		// opens the gate: a setting's name is made of everyday coding
		// words ("build", "command") any prompt may hold.
		setLine, isNamed := named[s.ID]
		if isNamed && !showsWholeLine(s.ex, setLine) {
			s.ex = s.m.pickLine(cs, setLine)
		}
		// A failed run, when the prompt asks what failed ("what error came
		// out of the type check?"), is the failure asked in the run's own
		// words ("npx tsc --noEmit (error) … TS18046"): those of what ran,
		// matched beside the prompt's failure words, which every failure
		// holds (failureFree). It opens no gate, as a named cause opens none.
		failed := false
		if failure && s.Type == store.TypeToolObservation && strings.HasSuffix(firstLine(s.Text), " (error)") && s.base > roleFloor {
			own, _ := coverage(failureFree, keysOf(s.ex))
			failed = own >= shapeOwnCoverage
		}
		ownRel := covRel
		if !shaped {
			ownRel = rel
		}
		if diagnosis != nil || isNamed || failed {
			rel = max(rel, roleRelevance)
		}
		if rel < itemRelevance {
			continue
		}
		score := scores[i]
		score *= relevanceMix + rel
		if s.Type == store.TypeToolObservation {
			score *= toolWeight(s.Text)
		}
		if isNamed {
			// A line setting what the prompt names outranks the runs and
			// messages naming the tool more often (raiseValued's case).
			score *= valueBoost
		}
		it := messageItem(s.Event, s.ex)
		it.Score, it.Coverage, it.Relevance, it.msg = score, s.cov, rel, s.m
		if diagnosis != nil || isNamed || failed || shaped {
			// What a message says raises it, not what it shares with the
			// prompt: it opens no gate. A value every project's output
			// holds (an environment variable's name, a command that ran)
			// tells nothing of this one's: "which env vars does Vite
			// expose?" asks none of them.
			it.cause, it.raised, it.openRelevance = diagnosis, true, ownRel
		}
		if !roleGave { // a relevance an answered role gave opens whole
			it.openBySense(s.spec, s.sensed)
		}
		out = append(out, it)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out, nil
}

// union is a followed by the hits of b it does not hold, by id: a hit in
// both keeps its score in a.
func union[H any](a, b []H, id func(H) int64) []H {
	seen := make(map[int64]bool, len(a))
	for _, h := range a {
		seen[id(h)] = true
	}
	for _, h := range b {
		if !seen[id(h)] {
			a = append(a, h)
		}
	}
	return a
}

func eventID(h store.EventHit) int64 { return h.ID }

func entryID(h store.EntryHit) int64 { return h.ID }

// entryItems scores verified entries on the scale of the best message.
func entryItems(ctx context.Context, db *store.DB, req Request, cs []concept, find search, asked []ask, bestMessage float64, pc *claim.Cache) ([]Item, error) {
	q := store.EntryQuery{
		Match: find.match, Project: req.Project,
		Stages:   []string{store.StageVerified, store.StageCertified},
		Statuses: []string{store.StatusActive, store.StatusContested},
		Limit:    candidates,
		Quotes:   entryQuotes,
	}
	if find.after > 0 {
		// Words in many messages are in many entries too: rank the newest.
		q.RankNewest = hookScoreBudget / 2
	}
	hits, err := db.SearchEntries(ctx, q)
	if err == nil && q.RankNewest > 0 && !find.rare.Empty() {
		// An old entry holding the rarest word, past the newest ranked.
		rare := q
		rare.Match, rare.RankNewest = find.rare, 0
		var old []store.EntryHit
		old, err = db.SearchEntries(ctx, rare)
		hits = union(hits, old, entryID)
	}
	if err == nil && q.RankNewest > 0 && len(hits) < candidates/2 {
		// The newest matches are another project's, or not verified.
		q.RankNewest = 0
		var all []store.EntryHit
		all, err = db.SearchEntries(ctx, q)
		hits = union(hits, all, entryID)
	}
	if err != nil || len(hits) == 0 {
		return nil, err
	}
	bestEntry := hits[0].Score
	if bestEntry <= 0 {
		bestEntry = 1
	}
	var out []Item
	for _, h := range hits {
		if h.SessionID == req.SessionID && req.SessionID != "" {
			continue
		}
		text := entryText(h.Entry)
		tk := keysOf(text)
		cov, spec, sensed := senseCoverage(cs, tk)
		rel := cov * spec
		shaped := false   // raised only for a value every project's output holds (answeredRole)
		roleGave := false // rel is the relevance of an answered role, not shaped
		if rel < roleRelevance {
			p := &parsed{text: text, pc: pc} // each role asked reads the same claims
			var raised bool
			raised, shaped = answeredRole(asked, func(a ask) bool { return answers(tk, p, cs, a) })
			if raised {
				rel = roleRelevance
				roleGave = !shaped
			}
		}
		if rel < itemRelevance {
			continue
		}
		m := memory(h.Entry)
		it := Item{
			CID: h.CID, Kind: KindEntry, Type: h.Type, Stage: h.Stage, Status: h.Status, SessionID: h.SessionID,
			Time: h.Created, Text: claimText(m), Quote: m.Quote, Coverage: cov, Relevance: rel, entry: h.Entry,
		}
		if shaped {
			it.raised, it.openRelevance = true, cov*spec // opens no gate (messageItems)
		}
		if !roleGave {
			it.openBySense(spec, sensed)
		}
		it.Score = h.Score / bestEntry * bestMessage * entryWeight * (0.5 + cov) *
			stageWeight(h.Stage) * statusWeight(h.Status) * (1 + 0.1*math.Log1p(float64(h.UseCount)))
		for _, v := range h.Evidence {
			if v.EventID != 0 {
				it.events = append(it.events, v.EventID)
			}
		}
		out = append(out, it)
	}
	return out, nil
}

// roleFree is cs without the concepts that ask a role rather than name a
// thing: a role's own words ("ORM", "enqueued"; claim.AskWord) and the
// words of a role asked.
func roleFree(cs []concept, asked []ask) []concept {
	return slices.DeleteFunc(slices.Clone(cs), func(c concept) bool {
		return slices.ContainsFunc(c.forms, claim.AskWord) || slices.ContainsFunc(asked, func(a ask) bool { return hasAny(a.words, c.keys) })
	})
}

// answeredRole reports whether a text gives the value of a role asked
// (answer), and shaped when every role it answers is one whose values
// every project's output holds (claim.Everywhere): such a statement is
// raised for rank only and opens no gate. A text that answers another
// role asked is raised for that, whichever is asked first.
func answeredRole(asked []ask, answer func(a ask) bool) (raised, shaped bool) {
	for _, a := range asked {
		if raised && (!shaped || claim.Everywhere(a.role)) {
			continue
		}
		if answer(a) {
			raised, shaped = true, claim.Everywhere(a.role)
		}
	}
	return raised, shaped
}

// roleRelevance is the relevance of a message that states the value of what
// a prompt asks ("which linter do we use?" and "we lint with biome now"): a
// decision the prompt asks for, whatever words it shares with it.
const roleRelevance = 0.5

// roleItems finds the messages that state a value for the roles a prompt
// asks about (claim.Asks), newest first: the bridge between a question and
// an answer that share no word ("which lint tool?" and "we use biome").
//
// bestMessage and bestCov are the best message's score and coverage.
func roleItems(ctx context.Context, db *store.DB, req Request, cs []concept, asked []ask, bestMessage, bestCov float64, pc *claim.Cache) ([]Item, error) {
	var out []Item
	seen := map[int64]bool{}
	bare := 0 // items sharing too few of the prompt's own words (roleBare)
	for _, a := range asked {
		words := claim.Words(a.role)
		if len(words) == 0 {
			continue // a shape with no word of its own: found by messageItems
		}
		// The values the project's entries gave the role that no table
		// lists ("we lint with quorvel"): their names find the messages.
		// Not a shape's (a port, a host, a region): the shape itself is
		// what answers takes, and the project's every port number added
		// to the search only made it slower.
		var own []string
		if !a.shape {
			known, err := db.Read().RoleValues(ctx, req.Project, a.role)
			if err != nil {
				return nil, err
			}
			for _, v := range known {
				if !slices.Contains(words, v) {
					own = append(own, v)
				}
			}
		}
		words = append(slices.Clip(words), own...)
		// A Korean particle sticks to the name ("Heroku에서"): a prompt in
		// another script looks for the names as prefixes too. An English one
		// looks for them as the index stores them, which costs a tenth
		// ("port*" is also portal, porter and ports).
		match := store.MatchStems(words)
		if !isASCII(req.Prompt) {
			match = store.MatchAny(words, true)
		}
		hits, err := db.SearchEvents(ctx, store.EventQuery{
			Match: match, Project: req.Project, ExcludeSession: req.SessionID,
			Types: messageTypes, Limit: roleLimit(a.role, cs), Newest: true,
		})
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			if seen[h.ID] || neverRecalled(h.Event) {
				continue
			}
			ex := readEvent(h.Event).excerpt(a.cs, itemChars)
			tk := keysOf(ex)
			p := &parsed{text: ex, pc: pc} // parsed once for answers, states and replacesIn
			if !answers(tk, p, cs, a) && !(!a.shape && len(own) > 0 && states(p.claims(), a.role)) {
				continue
			}
			cov, spec, sensed := senseCoverage(cs, tk)
			if cov < shapeOwnCoverage {
				if bare == roleBare {
					continue
				}
				bare++
			}
			seen[h.ID] = true
			it := messageItem(h.Event, ex)
			it.Score, it.Coverage, it.Relevance = bestMessage*0.9, cov, math.Max(roleRelevance, cov*spec)
			if claim.Everywhere(a.role) {
				// A value every project's output holds opens no gate
				// (messageItems): the message opens it only as far as
				// the passage the prompt's own words pick matches.
				c, sp, se := senseCoverage(cs, readEvent(h.Event).passageKeys(cs, itemChars)...)
				it.raised, it.openRelevance = true, c*sp
				it.openBySense(sp, se)
			} else if cov*spec > roleRelevance && sensed < spec {
				// What it shares with the prompt beyond the role's
				// relevance opens by the senses matched; the role's, whole.
				it.senseShare = math.Max(roleRelevance, cov*sensed) / it.Relevance
			}
			// A statement ranks beside the best message only as far as it
			// matches as much of the prompt (the words asking for the role
			// counted as matched): a role read in passing (a question about
			// "the invoice data" asks no database) otherwise ranked every
			// message naming the project's database above the answer.
			// Unless it names the value it replaced: the newer side of a
			// reversal comes with the older. Nor a tool's report of the
			// version asked of a name (versionReport): an install or a
			// banner names the tool and its version, the compile logs
			// that match the rest of the prompt ("… should the controller be
			// compiled with?") name no version.
			it.reports = versionReport(a.role, cs)
			if share, _ := coverage(cs, tk, a.words); bestCov > 0 && share < bestCov && !replacesIn(p, a.role) && !it.reports {
				it.Score *= share / bestCov
			}
			out = append(out, it)
		}
	}
	// The newest statement of a decision first: it is the current one.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.After(out[j].Time) })
	for i := range out {
		out[i].Score *= 1 - 0.02*float64(i)
	}
	return out, nil
}

// replacesIn reports whether p's text names the value of role it replaced
// ("we moved deploys from Heroku to Fly.io").
func replacesIn(p *parsed, role string) bool {
	for _, c := range p.claims() {
		if c.Role == role && !c.Negated && c.Replaces != "" {
			return true
		}
	}
	return false
}

// versionReport reports whether a role asks the version of a name the
// prompt itself says ("which zorblat version is installed?"): a tool's
// output stating that name's version ("zorblat 3.14.2") is then the
// answer, not a log that merely shares the stack's words; a version is
// what a tool reports, and often nothing else in the store says it.
func versionReport(role string, cs []concept) bool {
	name, ok := strings.CutPrefix(role, "version:")
	if !ok {
		return false
	}
	for _, c := range cs {
		if slices.Contains(c.forms, name) {
			return true
		}
	}
	return false
}

// givesField reports tool output giving field a value, as a JSON key
// (`"ref": "dfisdvkipzycpvesynkx"`) or a setting opening its line (`ref =
// main`, `- ref: main`, a written file's `+ ref = main`). The prompt's
// rarest word asked as a field ("what's the project ref of the supabase
// project?") and printed as one by a tool is the output answering it, as a
// version a tool reports is (versionReport): a log that only shares a
// stack's words prints no field the question names. A key of several words
// gives it when the field is one of them and another is a word the prompt
// names (named): "which topic patterns are blocked?" and
// `BLOCKED_TOPIC_PATTERNS = [...]`; a key sharing the field alone
// (`SOURCE_REF`) names another thing. Mid-line, a word and a colon is code
// or a log's prefix (`Bucket{Ref: x}`, "ERROR kilnstore: timeout"); ":="
// and "==" are code; an empty value (null, "", [] or {}) or a variable
// gives none. So does a version printed just before the field
// (versionBefore).
func givesField(text, field string, named func(string) bool) bool {
	lower := strings.ToLower(text)
	for i := 0; ; {
		k := strings.Index(lower[i:], field)
		if k < 0 {
			return false
		}
		start, end := i+k, i+k+len(field)
		i = end
		var ok bool
		if start, end, ok = keyNaming(text, lower, start, end, field, named); !ok {
			continue // part of a longer word ("refresh", "prefix") or of another key
		}
		if end == i && len(text) == len(lower) && versionBefore(text[:start]) {
			return true // a version's name needs its case: only where lowering kept the bytes
		}
		quoted := start > 0 && lower[start-1] == '"' && end < len(lower) && lower[end] == '"'
		if !quoted && !opensLine(lower[:start]) {
			continue
		}
		rest := lower[end:]
		if quoted {
			rest = rest[1:]
		}
		rest = strings.TrimLeft(rest, " \t")
		sep := strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, ":=") && !strings.HasPrefix(rest, "::") ||
			!quoted && strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==")
		if !sep {
			continue
		}
		value, _, _ := strings.Cut(strings.TrimLeft(rest[1:], " \t"), "\n")
		value = strings.TrimSpace(value)
		token := strings.TrimRight(strings.Fields(value + " x")[0], ",}")
		if value == "" || value[0] == ',' || value[0] == '}' || value[0] == '$' ||
			slices.Contains([]string{"null", "nil", "none", "~", `""`, "[]", "{}"}, token) {
			continue
		}
		return true
	}
}

// versionBefore reports whether before, the text ahead of a word, ends in
// a product's name, its dotted version and a space: a tool naming what it
// uses by name, version and kind ("Using CPython 3.12.12 interpreter at:
// …", asked "which python interpreter is the .venv built on?"). The name
// has a capital and stands on the version's line; the version has two or
// three parts. So a count ("3 workers"), a decimal ("mean 0.85
// threshold"), an address ("PING 10.0.0.12 host"), a date or a numbered
// heading at a line's start ("## 2.1 Interpreter") is none.
func versionBefore(before string) bool {
	b, ok := strings.CutSuffix(before, " ")
	if !ok {
		return false
	}
	k := strings.LastIndexAny(b, " \t\n")
	if k < 0 || b[k] != ' ' {
		return false
	}
	parts := strings.Split(strings.TrimPrefix(b[k+1:], "v"), ".")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	name := b[strings.LastIndexAny(b[:k], " \t\n(")+1 : k]
	return strings.ContainsFunc(name, unicode.IsUpper)
}

// keyNaming widens lower[start:end], field found in text, to the word or
// identifier holding it, and reports whether that is field itself, or an
// identifier whose words (text's camelCase, snake_case or kebab-case parts)
// are field and another the prompt names. lower is text lower-cased; where
// lowering moved the bytes, the identifier's case is not read.
func keyNaming(text, lower string, start, end int, field string, named func(string) bool) (int, int, bool) {
	// An identifier of ASCII: a read file's "12→" is no part of its line's key.
	in := func(b byte) bool { return b < 0x80 && isWordByte(b) || b == '-' }
	s, e := start, end
	for start > 0 && in(lower[start-1]) {
		start--
	}
	for end < len(lower) && in(lower[end]) {
		end++
	}
	for start < s && lower[start] == '-' {
		start++ // a flag's or a list's dashes ("--ref=main")
	}
	for end > e && lower[end-1] == '-' {
		end--
	}
	if start == s && end == e {
		return start, end, true
	}
	key := lower[start:end]
	if end <= len(text) && strings.ToLower(text[start:end]) == key {
		key = text[start:end]
	}
	parts := splitIdent(key)
	has, other := false, false
	for _, p := range parts {
		p = strings.ToLower(p)
		if p == field {
			has = true
		} else if named(p) {
			other = true
		}
	}
	return start, end, has && other
}

// opensLine reports whether before, the text ahead of a word, ends in a
// line's start: only indentation, a list's "- ", the "+ " of a line a tool
// wrote, or the number a file read puts ahead of each line ("  12→",
// "12\t"), after the last line break.
func opensLine(before string) bool {
	if k := strings.LastIndexByte(before, '\n'); k >= 0 {
		before = before[k+1:]
	}
	if n := strings.TrimLeft(before, " "); n != "" && n[0] >= '0' && n[0] <= '9' {
		n = strings.TrimLeft(n, "0123456789")
		if n, ok := strings.CutPrefix(n, "→"); ok {
			before = n
		} else if n, ok := strings.CutPrefix(n, "\t"); ok {
			before = n
		}
	}
	return strings.TrimLeft(before, " \t-+") == ""
}

// rarestForm is the written form of the prompt's weightiest concept, ""
// for a concept of many forms (a group of tools), which names no field.
func rarestForm(cs []concept) string {
	top := -1
	for i, c := range cs {
		if top < 0 || c.weight > cs[top].weight {
			top = i
		}
	}
	if top < 0 || len(cs[top].forms) != 1 {
		return ""
	}
	return strings.ToLower(cs[top].forms[0])
}

// roleLimit is how many of the newest messages naming a role's values are
// read for a statement of it: more for the version of a name the prompt
// says, which every log of that tool names without giving its version.
func roleLimit(role string, cs []concept) int {
	if versionReport(role, cs) {
		return 200
	}
	return 30
}

// roleBare is how many of a prompt's role items may share less than
// shapeOwnCoverage of its weight, the newest first: the current statement of
// the choice asked and the one it replaced ("which Go version?" and "bumped
// the go directive to 1.23"). More such statements are the same role
// elsewhere in the project (every file that imports a UI library states a
// frontend framework), and thirty of them pushed out the messages that share
// the prompt's words.
const roleBare = 2

// shapeCoverage is the share of a prompt's weight a text must match for a
// shape it gives (a path, a port, a duration) to count as the value asked
// for: one project has many, "every 8 hours" answers "how often?" only
// about what the prompt names.
const shapeCoverage = 0.25

// shapeOwnCoverage is the share of a prompt's weight a text giving a shape
// must match with its own words: the words asking for the role alone do not
// tie an address to the host the prompt is about.
const shapeOwnCoverage = 0.15

// ask is a role a prompt asks the value of, prepared once per prompt.
type ask struct {
	role  string
	shape bool // its values are shapes (claim.Shape)
	// any marks a role no statement fills (claim.AnyVersion,
	// claim.AnyAmount): any version, any amount answers it. It picks the
	// lines shown; it says nothing of whether a message gives the
	// project's own choice.
	any   bool
	cs    []concept // the prompt's concepts and the role's own words (withRole)
	words textKeys  // the words naming it ("address", "how often", "every")
}

// asks prepares the roles prompt, whose concepts are cs, asks
// (claim.Asks). An amount's concepts leave out the word asking it ("big"
// of "how big is the close button?", claim.AmountAsker): a line saying
// "big" is not about the close button for it.
func asks(cs []concept, prompt string) []ask {
	roles := claim.Asks(prompt)
	// Japanese's where asks for a path in a question about what the
	// project did or holds now ("どこに移したんだっけ？", where did we move
	// it?); Asks reads no path of it, a travel question's where being as
	// common (claim.JapaneseWhere).
	if claim.JapaneseWhere(prompt) && cjkPastNow(prompt) && !slices.Contains(roles, "path") {
		roles = append(roles, "path")
	}
	out := make([]ask, len(roles))
	for i, r := range roles {
		a := ask{role: r, shape: claim.Shape(r), any: r == claim.AnyVersion || r == claim.AnyAmount, cs: withRole(cs, r), words: keysOf(strings.Join(claim.Words(r), " "))}
		if w := claim.AmountAsker(prompt); r == claim.AnyAmount && w != "" {
			a.cs = slices.DeleteFunc(slices.Clone(cs), func(c concept) bool { return slices.Contains(c.forms, w) })
		}
		out[i] = a
	}
	return out
}

// answers reports whether p's text, whose keys are tk, gives a value for the
// role a asks about, the thing prompt concepts cs name. The words asking for
// the role count as matched by a text giving its value. Coverage is checked
// first: parsing the text's claims is the costly part.
func answers(tk textKeys, p *parsed, cs []concept, a ask) bool {
	if a.shape {
		if own, _ := coverage(cs, tk); own < shapeOwnCoverage {
			return false
		}
		// An identifier's statement shares a word besides the noun
		// asking, where the prompt has one: "which namespace should this
		// helper go in?" and "the namespace billing-prod" share only the
		// noun, which ties the statement to nothing the prompt is about;
		// "which branch are we on?" has nothing else to share. A
		// duration's or a port's word is no everyday noun ("how often …
		// poll?" and "polling frequency: 12 hours").
		if claim.Identifier(a.role) && !sharesOther(cs, tk, a) {
			return false
		}
		if cov, _ := coverage(cs, tk, a.words); cov < shapeCoverage {
			return false
		}
	}
	return statesIn(p, a.role)
}

// sharesOther reports whether text keys tk hold a concept of cs that does
// not name a's role, or cs has none.
func sharesOther(cs []concept, tk textKeys, a ask) bool {
	other := false
	for _, c := range cs {
		if slices.ContainsFunc(c.keys, a.words.has) {
			continue
		}
		if slices.ContainsFunc(c.keys, tk.has) {
			return true
		}
		other = true
	}
	return !other
}

// roleCandidates is how many of the best-ranked messages are read for the
// value a prompt asks about.
const roleCandidates = 40

// withRole adds to a prompt's concepts the words that state a value of role
// ("every", "poll" for an interval), weighted as its weightiest concept: the
// lines shown of a long message are then the ones giving the value asked
// for, with the prompt's words, not only the ones sharing the prompt's words.
func withRole(cs []concept, role string) []concept {
	top := heaviest(cs)
	rc := concept{weight: top}
	for _, w := range claim.Words(role) {
		if !strings.ContainsRune(w, ' ') {
			rc.forms = append(rc.forms, w)
			rc.keys = append(rc.keys, indexKey(w))
		}
	}
	if len(rc.keys) == 0 {
		return cs
	}
	return append(slices.Clip(cs), rc)
}

// parsed is a text whose claims are parsed at most once, when first asked
// for: a message read for the value a prompt asks is checked for it, for a
// value only the project's entries name, and for the value it replaced.
// The claims come from pc (nil parses), shared with the other readers of
// the same text: they must not be changed.
type parsed struct {
	text   string
	pc     *claim.Cache
	parsed []claim.Claim
	done   bool
}

func (p *parsed) claims() []claim.Claim {
	if !p.done {
		p.parsed, p.done = p.pc.Parse(p.text), true
	}
	return p.parsed
}

// statesIn reports whether p's text fills role with a value.
func statesIn(p *parsed, role string) bool {
	if vs, ok := claim.ShapeValues(role, p.text); ok {
		return len(vs) > 0
	}
	return claim.Mentions(p.text, role) && states(p.claims(), role)
}

// states reports whether claims fill role with a value.
func states(cs []claim.Claim, role string) bool {
	for _, c := range cs {
		if c.Role == role && !c.Negated {
			return true
		}
	}
	return false
}

// mergeRoles adds the role items to the messages; a message found both ways
// keeps the better of its two scores and relevances.
func mergeRoles(msgs, roles []Item) []Item {
	at := map[int64]int{}
	for i, m := range msgs {
		at[m.events[0]] = i
	}
	for _, r := range roles {
		if i, ok := at[r.events[0]]; ok {
			msgs[i].Score = math.Max(msgs[i].Score, r.Score)
			msgs[i].takeRelevance(r)
			msgs[i].reports = msgs[i].reports || r.reports
			continue
		}
		msgs = append(msgs, r)
	}
	return msgs
}

// markSuperseded marks the messages a superseded entry quotes. They are
// not dropped here: a prompt whose best match is the old side of a reversal
// is still about it, and must get the warning that names the newer side
// (current then shows the old side only inside that warning).
func markSuperseded(ctx context.Context, db *store.DB, msgs []Item) ([]Item, error) {
	ids := make([]int64, len(msgs))
	for i, m := range msgs {
		ids[i] = m.events[0]
	}
	gone, err := db.SupersededQuotes(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range msgs {
		msgs[i].stale = gone[msgs[i].events[0]]
	}
	return msgs, nil
}

// entryQuotes is how many of an entry's quotes the prompt path reads, the
// most confident first: what its coverage of a prompt is judged on besides
// its claim. An entry said in every session has thousands.
const entryQuotes = 8

// linkQuoted adds to each entry's events the messages among msgs it quotes,
// which merge folds into it: entryItems reads only entryQuotes of its quotes.
func linkQuoted(ctx context.Context, db *store.DB, ents, msgs []Item) error {
	ids := make([]int64, len(ents))
	for i, e := range ents {
		ids[i] = e.EntryID()
	}
	var events []int64
	for _, m := range msgs {
		events = append(events, m.events[0])
	}
	links, err := db.EvidenceLinks(ctx, ids, events)
	if err != nil {
		return err
	}
	for i := range ents {
		for _, id := range links[ents[i].EntryID()] {
			if !slices.Contains(ents[i].events, id) {
				ents[i].events = append(ents[i].events, id)
			}
		}
	}
	return nil
}

// merge shows an entry and the messages it quotes once: the entry, ranked at
// the best of its own score and theirs (a distilled claim outranks the turn
// that says the same thing).
func merge(ents, msgs []Item) []Item {
	byEvent := map[int64]int{}
	for i, m := range msgs {
		byEvent[m.events[0]] = i
	}
	dropped := map[int]bool{}
	for i := range ents {
		for _, id := range ents[i].events {
			if j, ok := byEvent[id]; ok && !dropped[j] && !aside(ents[i].entry, msgs[j]) {
				e, m := &ents[i], msgs[j]
				e.Score = math.Max(e.Score, m.Score*1.05)
				e.takeRelevance(m)
				if e.source.ID == 0 {
					e.source = m.event
				}
				if m.Coverage > e.Coverage {
					// The message says more about the prompt than the
					// distilled claim: show its words as the entry's quote.
					e.Quote, e.Coverage, e.quoteMsg = m.Excerpt, m.Coverage, m.msg
				}
				e.events = append(e.events, m.events...)
				dropped[j] = true
			}
		}
	}
	out := make([]Item, len(ents), len(ents)+len(msgs)-len(dropped))
	copy(out, ents)
	for j, m := range msgs {
		if !dropped[j] {
			out = append(out, m)
		}
	}
	return out
}

// aside reports whether entry e cites message m only in passing: for a
// claim m does not state (the entry was drawn from another message), by
// quotes none of which is a third of it, or beside quotes of other
// messages. Such a message says more than the entry (a plan quoted for
// one line of its benefits also gives its timeline; the message that fixed
// a reported fault, quoted as support for the report, gives the fix):
// folded into the entry, it was shown as the entry's claim. A message
// whose words hold the claim is the entry's source, which the entry
// stands for, and so is a message mostly quoted: the only one quoted, or
// one quoted for what the entry's first quote says (a claim said in many
// sessions).
func aside(e store.Entry, m Item) bool {
	longest, others, restates := -1, false, false
	for _, v := range e.Evidence {
		if v.EventID == m.event.ID {
			longest = max(longest, len(v.Quote))
			restates = restates || wordsOnly(v.Quote) == wordsOnly(e.Evidence[0].Quote)
		} else {
			others = true
		}
	}
	if longest < 0 || 3*longest >= len(m.event.Text) && (!others || restates) {
		return false
	}
	text := wordsOnly(m.event.Text)
	for _, c := range []string{e.Body, strings.TrimSuffix(e.Title, "…")} {
		if f := wordsOnly(c); f != "  " && strings.Contains(text, f) {
			return false
		}
	}
	return true
}

// wordsOnly is s's words, lower-case, joined by single spaces: its
// punctuation and Markdown dropped.
func wordsOnly(s string) string {
	return " " + strings.Join(lowerRuns(s), " ") + " "
}

// standIn shows a session's digest in place of its turns: when the digest
// of an old session and some of its messages both match a prompt, the
// digest ranks above them (at the best of its score and theirs, as merge
// ranks an entry above the messages it quotes), and its messages that
// match no more of the prompt than the digest does are left out: the
// digest says it in the session's context, with the rest of what the
// session did. A message matching more of the prompt than the digest
// stays, below it. Search still finds every message.
func standIn(items []Item) []Item {
	digests := map[string]int{} // session → its digest's index
	for i, it := range items {
		if it.Kind == KindEntry && it.Type == store.DigestType {
			digests[it.SessionID] = i
		}
	}
	if len(digests) == 0 {
		return items
	}
	for _, m := range items {
		if i, ok := digests[m.SessionID]; ok && m.Kind != KindEntry {
			d := &items[i]
			d.Score = math.Max(d.Score, m.Score*1.05)
			d.takeRelevance(m)
		}
	}
	by := make(map[string]Item, len(digests)) // read before out overwrites items
	for s, i := range digests {
		by[s] = items[i]
	}
	out := items[:0]
	for _, m := range items {
		if d, ok := by[m.SessionID]; ok && m.Kind != KindEntry {
			if m.Coverage <= d.Coverage {
				continue
			}
			m.Score = math.Min(m.Score, d.Score/1.05)
		}
		out = append(out, m)
	}
	return out
}

// digestChars is how much of a digest's lines one item shows.
const digestChars = 500

// claimText is how an entry reads in one line: its title, and its body when
// the body says more.
func claimText(m Memory) string {
	if m.Body != "" && m.Body != m.Title && !strings.Contains(m.Title, m.Body) {
		return m.Title + " — " + m.Body
	}
	return m.Title
}

// slashRE matches a prompt that is a slash command ("/memory-search jwt").
var slashRE = lazyregexp.New(`^/[A-Za-z][\w:.-]*(\s|$)`)

// ownCommandRE matches a prompt that runs one of the plugin's slash commands
// ("/memory-search jwt", "/memory-layer:memory-show mem:ab12cd").
var ownCommandRE = lazyregexp.New(`^\s*/(memory-layer:)?memory-[a-z]+(\s|$)`)

// citedRE finds citation ids in stored text.
var citedRE = lazyregexp.New(`\bmem:[0-9a-z]{3,12}\b`)

// neverRecalled reports messages that are not the project's own words: slash
// command invocations, and the plugin's own output as Claude relayed it (a
// /memory-search listing, a CLI run) — showing them would feed recall its
// own output.
func neverRecalled(e store.Event) bool {
	t := strings.TrimSpace(e.Text)
	switch e.Type {
	case store.TypeUserPrompt:
		return slashRE.MatchString(t)
	case store.TypeToolObservation:
		// The CLI run through Bash, or one of the plugin's MCP tools
		// ("mcp__plugin_memory-layer_…").
		first := firstLine(t)
		return strings.Contains(first, "claude-memory-layer") || strings.Contains(first, "memory-layer")
	case store.TypeAgentResponse:
		if strings.Count(t, "mem:") < 2 {
			return false // what follows needs two citations; most answers have none
		}
		ids := map[string]bool{}
		for _, m := range citedRE.FindAllString(withoutUsedLine(t), -1) {
			ids[m] = true
		}
		return len(ids) >= 2
	}
	return false
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// usedLineRE is the "Memories used: …" line the citation trace asks for.
var usedLineRE = lazyregexp.New(`(?im)^\s*\**memories used:.*$`)

func withoutUsedLine(s string) string {
	if !hasUsedColon(s) {
		return strings.TrimSpace(s) // the regexp's scan was most of reading a candidate
	}
	return strings.TrimSpace(usedLineRE.ReplaceAllString(s, ""))
}

// hasUsedColon reports whether s holds "ed:" in any case, which every
// match of usedLineRE does ('e' and 'd' fold to nothing but their capitals).
func hasUsedColon(s string) bool {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], ':')
		if j < 0 {
			return false
		}
		if i += j; i >= 2 && s[i-1]|0x20 == 'd' && s[i-2]|0x20 == 'e' {
			return true
		}
		i++
	}
}

// attachContext gives each message item the turn that explains it: a short
// question brings the answer that followed it (what its step found, when
// that answer only announced one), an answer given right after a tool run
// failed that failure, an answer that was a step of its turn what Claude
// said next, one that asked the user the reply, another answer the short
// question it answered, a tool run the user's next prompt when the user
// spoke right after it, else a command run the file edit it led to or, when
// it failed, the command run next (editAfter), unless that turn is itself
// shown. An entry brings what the first message it quotes that has one
// would bring (entryContext).
func attachContext(ctx context.Context, db *store.DB, items []Item) error {
	shown := map[int64]bool{}
	// The item showing an event: the message's own item, else the first
	// entry quoting it. An entry quotes a message it does not stand for
	// (aside), which is then an item of its own, and whose words the
	// entry must not bring again as its context.
	shownBy := map[int64]int{}
	for _, entries := range []bool{false, true} {
		for i, it := range items {
			if (it.Kind == KindEntry) != entries {
				continue
			}
			for _, id := range it.events {
				shown[id] = true
				if _, ok := shownBy[id]; !ok {
					shownBy[id] = i
				}
			}
		}
	}
	for i := range items {
		it := &items[i]
		var c store.Event
		var err error
		if it.Kind == KindEntry {
			c, it.contextOf, err = entryContext(ctx, db, it.events, func(id int64) bool {
				by, ok := shownBy[id]
				return shown[id] && (!ok || by != i)
			})
		} else {
			c, err = messageContext(ctx, db, it, func(id int64) bool { return shown[id] })
		}
		if err != nil {
			return err
		}
		if c.ID != 0 {
			it.Context = &c
			shown[c.ID] = true
		}
	}
	return nil
}

// entryContext is the turn that explains an entry: what the first of the
// messages it quotes (among its first entryQuotes events) that has one
// would bring as an item of its own (messageContext). An entry stands for
// the messages it quotes, and quotes a line of each: a lesson distilled
// from a failing test states the symptom, and the fix is the edit after
// the failed run; a claim drawn from an answer that announced a step ("the
// docs page returns 404, let me check the app") leaves out what the step
// found. An event the entry itself quotes may be brought (it quotes a line
// of it, an edit by its file's name); shown tells the events other items
// show. It returns the turn and the quoted message it explains; zero Events
// when none has one.
func entryContext(ctx context.Context, db *store.DB, events []int64, shown func(int64) bool) (c, of store.Event, err error) {
	for _, id := range events[:min(len(events), entryQuotes)] {
		ev, err := db.Event(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return store.Event{}, store.Event{}, err
		}
		if !slices.Contains(messageTypes, ev.Type) || neverRecalled(ev) {
			continue
		}
		m := messageItem(ev, ev.Text)
		c, err := messageContext(ctx, db, &m, shown)
		if err != nil {
			return store.Event{}, store.Event{}, err
		}
		if c.ID != 0 {
			return c, ev, nil
		}
	}
	return store.Event{}, store.Event{}, nil
}

// messageContext is the turn attachContext gives message item it (see
// there); shown tells the events shown already. A zero Event when it has
// none.
func messageContext(ctx context.Context, db *store.DB, it *Item, shown func(int64) bool) (store.Event, error) {
	if it.Kind == store.TypeToolObservation {
		// The user spoke right after the tool ran, before Claude said
		// anything of it: the user stopped it or answered it ("hold on,
		// keep everything in one table").
		next, err := db.Next(ctx, it.event, messageTypes)
		if err != nil {
			return store.Event{}, err
		}
		if next.Type == store.TypeUserPrompt && !shown(next.ID) && !neverRecalled(next) {
			return next, nil
		}
		c, err := editAfter(ctx, db, it.event, next)
		if err != nil || c.ID != 0 && shown(c.ID) {
			return store.Event{}, err
		}
		if c.ID == 0 && strings.HasPrefix(it.event.Text, "Bash") && failed(it.event) && next.Type == store.TypeAgentResponse &&
			!shown(next.ID) && !neverRecalled(next) && !acknowledgement(next.Text) {
			// A command failed and Claude spoke next, changing no file
			// after: what it said is what the failure meant and what
			// was done of it ("We need to downgrade NumPy to 1.x"),
			// as the answer after a failed run has the run (below).
			// Not a failed read or edit, after which Claude only says
			// what it tries next.
			return next, nil
		}
		return c, nil
	}
	if it.Kind != store.TypeUserPrompt && it.Kind != store.TypeAgentResponse {
		return store.Event{}, nil
	}
	turns := []string{store.TypeUserPrompt, store.TypeAgentResponse}
	// Only an answer's message and turn before it count (the cases
	// below). The message just before, when a turn or none at all, is
	// the turn just before too (messageTypes holds the turns' types):
	// the turn is looked up apart only after a tool run. Each message
	// is looked up only when no case before it decided.
	var prev store.Event
	var err error
	if it.Kind == store.TypeAgentResponse {
		if prev, err = db.Previous(ctx, it.event, messageTypes); err != nil {
			return store.Event{}, err
		}
	}
	var c store.Event
	if failed(prev) && prev.Type == store.TypeToolObservation {
		// The answer came right after a tool run failed: it is about
		// that failure ("I need to fix the stylesheet first"), which
		// says what went wrong.
		c = prev
	} else if c, err = turnAround(ctx, db, it, prev, turns); err != nil {
		return store.Event{}, err
	}
	if c.ID != 0 && !shown(c.ID) && !neverRecalled(c) && !acknowledgement(c.Text) {
		return c, nil
	}
	if it.Kind == store.TypeUserPrompt && c.Type == store.TypeAgentResponse && acknowledgement(c.Text) {
		// The answer only says it is done ("Done. Restart Claude Desktop
		// again."): what was done is the turn's edit.
		e, err := turnEdit(ctx, db, it.event, c)
		if err != nil || e.ID == 0 || shown(e.ID) {
			return store.Event{}, err
		}
		return e, nil
	}
	return store.Event{}, nil
}

// turnEdit is the first file edit between prompt and its answer, past any
// other tool run of the turn (a read, a search, a command), within editSteps
// events: what the request was done by. A zero Event when there is none.
func turnEdit(ctx context.Context, db *store.DB, prompt, answer store.Event) (store.Event, error) {
	next := prompt
	for range editSteps {
		var err error
		if next, err = db.Next(ctx, next, messageTypes); err != nil || next.ID == 0 || next.ID >= answer.ID {
			return store.Event{}, err
		}
		if isEdit(next) {
			if neverRecalled(next) {
				return store.Event{}, nil
			}
			return next, nil
		}
	}
	return store.Event{}, nil
}

// isEdit reports a file edit's capture: an Edit, MultiEdit, Write or
// NotebookEdit tool run.
func isEdit(e store.Event) bool {
	if e.Type != store.TypeToolObservation {
		return false
	}
	switch name, _, _ := strings.Cut(e.Text, ":"); name {
	case "Edit", "MultiEdit", "Write", "NotebookEdit":
		return true
	}
	return false
}

// turnAround is the turn attachContext gives a prompt or an answer it has
// not given a failed tool run: the answer to a question, the next step of an
// answer, the user's reply to an answer asking back, or the short question
// an answer answered. prev is the message before an answer.
func turnAround(ctx context.Context, db *store.DB, it *Item, prev store.Event, turns []string) (store.Event, error) {
	after, err := db.Next(ctx, it.event, turns)
	if err != nil {
		return store.Event{}, err
	}
	switch {
	case it.Kind == store.TypeUserPrompt && after.Type == store.TypeAgentResponse:
		if len(after.Text) <= contextChars {
			// A short answer Claude went on from before the user spoke
			// announced a step ("let me look at the scripts first"): the
			// question's answer is what the step found.
			if found, err := stepFound(ctx, db, after); err != nil {
				return store.Event{}, err
			} else if found.ID != 0 {
				return found, nil
			}
		}
		return after, nil
	case it.Kind == store.TypeAgentResponse && after.Type == store.TypeAgentResponse:
		// Claude spoke again before the user did: this answer was a
		// step ("the export fails with a 403, let me check the
		// credentials"), and the next one says what the step found. A
		// symptom's message then brings its resolution.
		return after, nil
	case it.Kind == store.TypeAgentResponse && after.Type == store.TypeUserPrompt && asksBack(it.Text):
		// Claude ended by asking ("should I also add an XLSX
		// export?"): the user's reply is the decision.
		return after, nil
	case it.Kind == store.TypeAgentResponse:
		before := prev
		if prev.ID != 0 && !slices.Contains(turns, prev.Type) {
			if before, err = db.Previous(ctx, it.event, turns); err != nil {
				return store.Event{}, err
			}
		}
		if before.Type == store.TypeUserPrompt && len(before.Text) <= contextChars {
			return before, nil
		}
	}
	return store.Event{}, nil
}

// stepFound is what the step answer ev announced found: the first tool run
// after it that failed (a hook blocking the read, a command not found), else
// the next answer, before the user spoke. A zero Event when the user spoke
// first: ev was the turn's answer, no step.
func stepFound(ctx context.Context, db *store.DB, ev store.Event) (store.Event, error) {
	next := ev
	for range foundSteps {
		var err error
		if next, err = db.Next(ctx, next, messageTypes); err != nil {
			return store.Event{}, err
		}
		switch {
		case next.ID == 0 || next.Type == store.TypeUserPrompt:
			return store.Event{}, nil
		case next.Type == store.TypeAgentResponse || failed(next):
			return next, nil
		}
	}
	return store.Event{}, nil
}

// foundSteps is how many events past a step stepFound reads: the tool runs
// of one check.
const foundSteps = 8

// editSteps is how many events past a command run editAfter reads for the
// edit it led to: the files read and the words said between them.
const editSteps = 4

// editAfter is the file edit that command run ev led Claude to make, its
// next event being next: the first edit after it, past reads, searches and
// Claude's words, before the user spoke or another tool ran. A failing
// build or test prints the symptom; the edit that followed is the fix (the
// import removed, the method added), often named nowhere else: the run
// failed (a non-zero exit) or its output shows a failure. A passing run
// leads to no fix: what Claude edits next is the next step. When ev failed
// (the capture's "(error)"), the next command run is what Claude tried
// instead, and is returned too. A command run in the background fails as
// its output's status says (BashOutput, backgroundFailed): the edit after
// it is the fix too. A zero Event when there is none, or ev is no failed
// shell command.
func editAfter(ctx context.Context, db *store.DB, ev, next store.Event) (store.Event, error) {
	run, _, _ := strings.Cut(ev.Text, ":")
	if !strings.HasPrefix(run, "Bash") || !failed(ev) && !extract.Failed(ev.Text) {
		return store.Event{}, nil // a fetch, a search, a subagent, or a run that passed
	}
	for step := 1; next.ID != 0 && next.Type != store.TypeUserPrompt; step++ {
		if isEdit(next) {
			if neverRecalled(next) {
				return store.Event{}, nil
			}
			return next, nil
		}
		if next.Type == store.TypeToolObservation {
			if toolWeight(next.Text) == 1 {
				if name, _, _ := strings.Cut(next.Text, ":"); name == "Bash" && run == "Bash" && failed(ev) && !neverRecalled(next) {
					// The run failed and Claude ran another command
					// instead: what it tried next ("brew install zorp"
					// found no formula, "cargo install zorp"). A page
					// fetched or a tool called is reading, not a try.
					// After a background run's failure, what Claude said
					// of it tells more than the command it ran next
					// (messageContext).
					return next, nil
				}
				break // another tool ran first
			}
		}
		if step == editSteps {
			break
		}
		var err error
		if next, err = db.Next(ctx, next, messageTypes); err != nil {
			return store.Event{}, err
		}
	}
	return store.Event{}, nil
}

// addedLines is what a file edit's text, as the capture renders it (its
// header, then "- " removed, "+ " added and "  " kept lines), shows of the change:
// the header and the added lines that were not there before. The old lines
// share no word with the fix, and an excerpt of the whole would fall back to
// its start, the removed code. The text itself when nothing was added (a
// deletion).
func addedLines(text string) string {
	head, body, _ := strings.Cut(text, "\n")
	lines := strings.Split(body, "\n")
	old := map[string]bool{}
	for _, l := range lines {
		if r, ok := strings.CutPrefix(l, "- "); ok {
			old[strings.TrimSpace(r)] = true
		}
	}
	var add []string
	for _, l := range lines {
		if r, ok := strings.CutPrefix(l, "+ "); ok && strings.TrimSpace(r) != "" && !old[strings.TrimSpace(r)] {
			add = append(add, l)
		}
	}
	if len(add) == 0 {
		return text
	}
	return head + "\n" + strings.Join(add, "\n")
}

// asksBack reports whether an answer ends with a question to the user, in
// any language that ends a question with a question mark.
func asksBack(text string) bool {
	t := strings.TrimRight(text, " \t\n*_`)\"'")
	return strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？")
}

// ackRE matches a reply that only acknowledges ("Got it, I will follow that
// from now on."): no context worth its space.
var ackRE = lazyregexp.New(`(?i)^[\s\p{P}]*(?:(?:got it|ok|okay|sure|thanks|thank you|will do|understood|noted|done|great|sounds good)\b|알겠|네[,.!\s]|좋아)`)

func acknowledgement(s string) bool {
	return len(s) < 100 && ackRE.MatchString(s)
}

// asksNow reports a prompt asking how things stand now: one that says so
// (currentRE), or a question in the present that asks yes or no ("does
// /deploy push to origin?", "is the kiln spec on Seger?", presentRE)
// with no past in it. Not any prompt that is not past: past reads few
// forms ("has … used before", "what happened to …" are past too), and a
// question about what a document says asks no more of now than the word
// says.
func asksNow(prompt string) bool {
	return currentRE.MatchString(prompt) || presentRE.MatchString(prompt) && !past(prompt)
}

// presentRE finds an English question that opens with an auxiliary of the
// present: a yes-or-no question of how things stand.
var presentRE = lazyregexp.New(`(?i)^\s*(?:does|do|is|are)\b`)

// currentRE finds a prompt that asks how things stand now ("these days",
// "currently", "at the moment", "지금"): tool output may open the gate for
// it (pastOrNow). Each is English's (or Korean's) ordinary way of saying
// "now".
var currentRE = lazyregexp.New(`(?i)\b(now|these days|nowadays|currently|at the moment|any ?more|still|latest|current)\b|지금|현재|요즘`)

// wordsKey is what Select compares to show the same words said again once:
// the text's words, lower case, one space apart.
func wordsKey(text string) string { return strings.ToLower(strings.Join(strings.Fields(text), " ")) }

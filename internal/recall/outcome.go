package recall

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// outcomeRE finds a prompt asking how something earlier turned out: "did
// that go through?" (English's plain way of asking whether something
// succeeded, so general), "where did we leave off?", "how did it end?", "на чём
// оборвалась сессия?", "어떻게 됐어?". Its answer is rarely in words the
// prompt shares: it is what happened next in that session, an error or the
// session's last message.
var outcomeRE = lazyregexp.New(`(?i)\bdid (that|it|this|they|we|the \w+) (go through|work|succeed|pass|land|get (merged|done|deployed|fixed|finished))\b|` +
	`\b(leave|left|stop|stopped) off\b|\bwhere did (we|it|that|the session) (stop|end|break|leave)|\bhow did (it|that|this|the \w+) (end|go|turn out)\b|` +
	`\bwhat happened (with|to|after|next)\b|\bdid we (ever )?finish\b|\b(never|didn't|did not) (finish|get (done|finished))\b|\bended up\b|` +
	`оборвал|останов|закончил|доделал|получилось|чем кончил|` +
	`어디까지|어떻게 됐|끝났|마무리`)

// earlierRE finds a prompt that places what it asks in an earlier session:
// an outcome question about the project's own past, not a general one
// ("what happened to Python 2?"). The Russian says "last (time)",
// "yesterday" and "we", as the English beside it.
var earlierRE = lazyregexp.New(`(?i)\b(last time|last session|previous session|earlier|yesterday|we|we've|we'd|our)\b|прошл|вчера|мы |지난번|저번|어제|우리`)

// outcomeShown is how many messages of what followed are shown: the
// failures after the recalled turn, then the session's last message.
const outcomeShown = 3

// outcomeScan is how many messages after the recalled turn are read for
// what became of it; outcomeTail how many at a session's end when no turn
// was recalled.
const (
	outcomeScan = 60
	outcomeTail = 8
)

// outcomeItems finds what became of the work a prompt asks about: in the
// session of the best recalled item (or, when nothing was recalled, the
// project's latest other session), the failures that followed it and the
// session's last message. Each reaches minRelevance: the prompt asked for
// exactly this.
func outcomeItems(ctx context.Context, db *store.DB, req Request, prompt string, items []Item) ([]Item, error) {
	// earlierRE first: it is the smaller expression to compile, and a
	// prompt it does not match never compiles outcomeRE.
	if !earlierRE.MatchString(prompt) || !outcomeRE.MatchString(prompt) {
		return nil, nil
	}
	var session string
	var after int64
	if len(items) > 0 && items[0].Relevance >= minRelevance && len(items[0].events) > 0 {
		// The best item is what the prompt names (the plan); what came of
		// it follows it, though later turns may be recalled too.
		session = items[0].SessionID
		after = slices.Max(items[0].events)
	} else {
		ss, err := db.Sessions(ctx, req.Project, 2)
		if err != nil {
			return nil, err
		}
		for _, s := range ss {
			if s.ID != req.SessionID {
				session = s.ID
				break
			}
		}
	}
	if session == "" {
		return nil, nil
	}
	f := store.EventFilter{SessionID: session, Types: messageTypes, AfterID: after, Limit: outcomeScan}
	if after == 0 {
		// No turn to start from: how the session ended is in its tail.
		f.Newest, f.Limit = true, outcomeTail
	}
	next, err := db.Read().Events(ctx, f)
	if err != nil {
		return nil, err
	}
	if f.Newest {
		slices.Reverse(next)
	}
	last := next[max(len(next)-1, 0):] // the session's last message, when the scan reached its end
	if !f.Newest && len(next) == f.Limit {
		if last, err = db.Read().Events(ctx, store.EventFilter{SessionID: session, Types: messageTypes, Newest: true, Limit: 1}); err != nil {
			return nil, err
		}
	}
	var picked []store.Event
	for _, e := range next {
		if len(picked) < outcomeShown-1 && failed(e) && !neverRecalled(e) {
			picked = append(picked, e)
		}
	}
	if len(last) == 1 && last[0].ID > after && !neverRecalled(last[0]) && (len(picked) == 0 || picked[len(picked)-1].ID != last[0].ID) {
		picked = append(picked, last[0])
	}
	out := make([]Item, 0, len(picked))
	for _, e := range picked {
		it := messageItem(e, readEvent(e).excerpt(nil, itemChars))
		it.Relevance = minRelevance
		out = append(out, it)
	}
	return out, nil
}

// failedRE finds an answer that reports the turn failed outright (the model
// API gave up, the client stopped waiting): one short line that opens with
// an error, or whose first words (four at most) end in "failed" or "timed
// out". "Fixed the parse error in config.go." is no failure: its error is
// not its start.
var failedRE = lazyregexp.New(`(?i)^(api error\b|error\b|(\w+ ){0,3}(failed|timed out)\b)[^\n]{0,160}$`)

// failed reports a message recording a failure: a tool run the capture marked
// "(error)" (a non-zero exit, a hook blocking the command), a background
// command's output saying it failed (backgroundFailed), or an answer that
// is an API error.
func failed(e store.Event) bool {
	switch e.Type {
	case store.TypeToolObservation:
		return strings.Contains(firstLine(e.Text), " (error)") || backgroundFailed(e.Text)
	case store.TypeAgentResponse:
		return failedRE.MatchString(strings.TrimSpace(e.Text))
	}
	return false
}

// backgroundFailed reports a background command's output, as a transcript
// records Claude Code's BashOutput, saying it failed: its result is no
// tool error, its status and exit code say so ("<status>failed</status>",
// "<exit_code>2</exit_code>"), ahead of the output. A command Claude
// stopped ("killed") did not fail. The live hook reads the same from the
// tool's response (observation.ResponseFailed).
func backgroundFailed(text string) bool {
	head, ok := strings.CutPrefix(text, "BashOutput")
	if !ok {
		return false
	}
	head = head[:min(len(head), 200)]
	switch {
	case strings.Contains(head, "<status>failed</status>"):
		return true
	case strings.Contains(head, "<status>killed</status>"):
		return false
	}
	_, code, ok := strings.Cut(head, "<exit_code>")
	code, _, _ = strings.Cut(code, "<")
	return ok && strings.TrimSpace(code) != "0"
}

// withOutcome puts what followed right after the best item (first, when
// nothing else was recalled), each message once: one recalled already, for
// sharing a few words with the prompt, moves up to its place.
func withOutcome(items, then []Item) []Item {
	if len(then) == 0 {
		return items
	}
	top := 1.0
	if len(items) > 0 {
		top = items[0].Score
	}
	at := map[int64]int{}
	for i, it := range items {
		if len(it.events) == 1 {
			at[it.events[0]] = i
		}
	}
	for k, it := range then {
		it.Score = top * (0.99 - 0.01*float64(k))
		if i, ok := at[it.events[0]]; ok {
			items[i].Score = math.Max(items[i].Score, it.Score)
			items[i].takeRelevance(it)
			continue
		}
		items = append(items, it)
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Score > items[j].Score })
	return items
}

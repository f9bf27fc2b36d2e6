package recall

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
)

// maxAgain is the longest time between an answer and the same failure
// reported again for the report to say the answer did not hold: months
// later the failure is a new occurrence.
const maxAgain = 14 * 24 * time.Hour

// sameFailure reports two reports' failure words (sorted, each once) the
// same failure: every word of the smaller in the larger (a longer paste of
// it), nearly all the larger's (repeatShare), and one word at least that
// everyday English has not ("api", "lodash"): "Error: build failed" is
// every build's failure, and "Cannot find module 'lodash'" is not the one
// of 'express'.
func sameFailure(a, b []string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if float64(len(a)) < repeatShare*float64(len(b)) {
		return false
	}
	specific := false
	for _, w := range a {
		if _, ok := slices.BinarySearch(b, w); !ok {
			return false
		}
		specific = specific || !wordfreq.Everyday(w)
	}
	return specific
}

// maxAnswerQuote is the most of an answer an againWarnings side quotes.
const maxAnswerQuote = 240

// answered is a failure the user reported and the answer shown with it.
type answered struct {
	Item
	answer string    // the answer as shown
	at     time.Time // when it was given
	asked  time.Time // when the failure was reported
	fail   []string  // the report's failure lines' words, sorted, each once
	line   string    // the report's first failure line
}

// againWarnings finds, among recalled items, a failure the user reported
// again after an answer had explained or fixed it: the same failure lines
// ("Apollo API error: 403 Forbidden") back within maxAgain, the first
// answer ("it requires a master API key") did not hold, and the answer to
// the later report ("not available on the free plan") is the current one.
// Both answers must be shown, each with its report: a prompt shown with the
// answer to it, or an answer shown with the prompt it replied to.
func againWarnings(sel []Item, paired map[[2]int64]bool) []Warning {
	var reports []answered
	for _, it := range sel {
		if a, ok := reportAnswered(it); ok {
			reports = append(reports, a)
		}
	}
	slices.SortStableFunc(reports, func(a, b answered) int { return a.at.Compare(b.at) })
	var out []Warning
	for j, n := range reports {
		if len(out) == perKind {
			break
		}
		// The newest earlier answer to the same failure.
		for i := j - 1; i >= 0; i-- {
			o := reports[i]
			if o.CID == n.CID || !o.at.Before(n.asked) || n.asked.Sub(o.at) > maxAgain || paired[pair(itemKey(o.Item), itemKey(n.Item))] ||
				!sameFailure(o.fail, n.fail) || wordsOnly(o.answer) == wordsOnly(n.answer) {
				continue
			}
			// Each side quotes Claude's answer, whichever message the item
			// shows.
			said := kindLabel(Item{Kind: store.TypeAgentResponse})
			out = append(out, Warning{Severity: "HIGH", Kind: "superseded", kept: true, standsFor: true,
				A: Memory{CID: o.CID, Type: said, Date: o.at, Title: clipAtWord(o.answer, maxAnswerQuote)},
				B: Memory{CID: n.CID, Type: said, Date: n.at, Title: clipAtWord(n.answer, maxAnswerQuote)},
				Note: fmt.Sprintf("the failure %s was reported again (%s) after the first answer: it did not hold; the second is the current one.",
					curlyQuotes.Replace(Inert(`"`+clipAtWord(n.line, maxCauseNote)+`"`)), date(n.asked))})
			paired[pair(itemKey(o.Item), itemKey(n.Item))] = true
			break
		}
	}
	return out
}

// reportAnswered reads item it as a user's report of a failure and the
// answer shown with it.
func reportAnswered(it Item) (answered, bool) {
	if it.Context == nil {
		return answered{}, false
	}
	a := answered{Item: it}
	var report store.Event
	switch {
	case it.Kind == store.TypeUserPrompt && it.Context.Type == store.TypeAgentResponse:
		report, a.answer, a.at, a.asked = it.event, it.ContextExcerpt, it.Context.Time, it.Time
	case it.Kind == store.TypeAgentResponse && it.Context.Type == store.TypeUserPrompt:
		report, a.answer, a.at, a.asked = *it.Context, it.Excerpt, it.Time, it.Context.Time
	default:
		return answered{}, false
	}
	// The report's pasted output too: the failure is what it pastes. A
	// line asking ("why does the build fail?") is the user's question,
	// not the failure's output.
	var out strings.Builder
	for l := range strings.Lines(scanned(report.Text)) {
		if t := strings.TrimSpace(l); !strings.HasSuffix(t, "?") {
			out.WriteString(l)
			if a.line == "" && observation.ReportsError(t) {
				a.line = t
			}
		}
	}
	lines := failureLines(out.String())
	// An answer that states nothing ("Let me look at the component.")
	// announced a step: nothing of it can fail to hold.
	if len(lines) == 0 || len(claim.Parse(a.answer)) == 0 && len(claim.Diagnoses(a.answer)) == 0 {
		return answered{}, false
	}
	a.fail = slices.Compact(slices.Sorted(slices.Values(strings.Fields(strings.Join(lines, " ")))))
	return a, true
}

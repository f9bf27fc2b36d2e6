package recall

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// maxAnswerQuote is the most of an answer an againWarnings side quotes.
const maxAnswerQuote = 240

// answered is a failure the user reported and the answer shown with it.
type answered struct {
	Item
	answer string    // the answer as shown
	at     time.Time // when it was given
	fail   []string  // the report's failure lines' words, sorted, each once
	line   string    // the report's first failure line
}

// againWarnings finds, among recalled items, a failure the user reported
// again after an answer had explained or fixed it: the same failure lines
// ("Apollo API error: 403 Forbidden") back, the first answer ("it requires
// a master API key") did not hold, and the answer to the later report ("not
// available on the free plan") is the current one. Both answers must be
// shown, each with its report: a prompt shown with the answer to it, or an
// answer shown with the prompt it replied to.
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
			if o.CID == n.CID || !o.at.Before(n.Time) || paired[pair(itemKey(o.Item), itemKey(n.Item))] ||
				!repeats(o.fail, n.fail) || wordsOnly(o.answer) == wordsOnly(n.answer) {
				continue
			}
			out = append(out, Warning{Severity: "HIGH", Kind: "superseded", kept: true, standsFor: true,
				A: Memory{CID: o.CID, Type: kindLabel(o.Item), Date: o.at, Title: clipAtWord(o.answer, maxAnswerQuote)},
				B: Memory{CID: n.CID, Type: kindLabel(n.Item), Date: n.at, Title: clipAtWord(n.answer, maxAnswerQuote)},
				Note: fmt.Sprintf("the failure %s was reported again (%s) after the first answer: it did not hold; the second is the current one.",
					curlyQuotes.Replace(Inert(`"`+clipAtWord(n.line, maxCauseNote)+`"`)), date(n.Time))})
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
		report, a.answer, a.at = it.event, it.ContextExcerpt, it.Context.Time
	case it.Kind == store.TypeAgentResponse && it.Context.Type == store.TypeUserPrompt:
		report, a.answer, a.at = *it.Context, it.Excerpt, it.Time
	default:
		return answered{}, false
	}
	// The report's pasted output too: the failure is what it pastes.
	text := scanned(report.Text)
	lines := failureLines(text)
	if len(lines) == 0 || strings.TrimSpace(a.answer) == "" {
		return answered{}, false
	}
	for l := range strings.Lines(text) {
		if l = strings.TrimSpace(l); a.line == "" && l != "" && slices.Contains(lines, strings.Join(slices.DeleteFunc(lowerRuns(l), isNumber), " ")) {
			a.line = l
		}
	}
	a.fail = slices.Compact(slices.Sorted(slices.Values(strings.Fields(strings.Join(lines, " ")))))
	return a, true
}

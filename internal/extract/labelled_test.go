package extract

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// session is a test session in testdata: messages, and for the labelled set
// what a human wants remembered from them.
type session struct {
	Notes     string  `json:"notes"`
	Messages  []msg   `json:"messages"`
	Expected  []label `json:"expected"`
	Optional  []label `json:"optional"`  // fine to extract or not: counted neither way
	Negatives []label `json:"negatives"` // must not be extracted (already false positives; listed for the log)
}

type msg struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// label says: an entry of Type (any type when empty) quoting QuoteContains
// from message MessageIndex.
type label struct {
	Type          Type   `json:"type"`
	QuoteContains string `json:"quote_contains"`
	MessageIndex  int    `json:"messageIndex"`
}

func (s session) messages() []Message {
	out := make([]Message, len(s.Messages))
	for i, m := range s.Messages {
		out[i] = Message{Index: i, Role: m.Role, Text: m.Text}
	}
	return out
}

func mustLoad(tb testing.TB, path string) session {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var s session
	if err := json.Unmarshal(b, &s); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return s
}

// testSessions returns every session in testdata, by file name.
func testSessions(tb testing.TB) map[string]session {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "labelled", "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	files = append(files, filepath.Join("testdata", "basic.json"))
	out := map[string]session{}
	for _, f := range files {
		out[filepath.Base(f)] = mustLoad(tb, f)
	}
	return out
}

// compatible lists the types a label of one type also accepts. Preferences
// and constraints are both rules about how to work ("always use functional
// components" is either); a reference is a fact that happens to be a link.
// Nothing else is interchangeable: a decision is not a fact, a lesson is not
// a fact.
var compatible = map[Type][]Type{
	Preference: {Constraint},
	Constraint: {Preference},
	Fact:       {Reference},
	Reference:  {Fact},
}

func typeMatches(got, want Type) bool {
	if want == "" || got == want {
		return true
	}
	for _, t := range compatible[want] {
		if got == t {
			return true
		}
	}
	return false
}

func (l label) matches(e Entry) bool {
	if !typeMatches(e.Type, l.Type) {
		return false
	}
	for _, ev := range e.Evidence {
		if ev.MessageIndex == l.MessageIndex && strings.Contains(ev.Quote, l.QuoteContains) {
			return true
		}
	}
	return false
}

// TestLabelledSet measures precision and recall of Offline against the hand
// labels in testdata/labelled. An entry is a true positive when it matches
// an expected label, neutral when it matches only an optional one, and a
// false positive otherwise; a label is recalled when some entry matches it.
func TestLabelledSet(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "labelled", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 8 {
		t.Fatalf("%d labelled sessions, want at least 8", len(files))
	}
	sort.Strings(files)
	var tp, fp, neutral, labels, recalled int
	perType := map[Type][2]int{} // recalled, labels
	var split [2]score           // tuned, held-out
	for _, f := range files {
		s := mustLoad(t, f)
		entries := Offline(s.messages())
		sc := &split[0]
		if strings.HasPrefix(filepath.Base(f), "heldout_") {
			sc = &split[1]
		}
		var report []string
		for _, e := range entries {
			switch {
			case anyMatch(s.Expected, e):
				tp++
				sc.tp++
			case anyMatch(s.Optional, e):
				neutral++
			default:
				fp++
				sc.fp++
				report = append(report, fmt.Sprintf("false positive %s %q (msg %d: %q)", e.Type, e.Title, e.Evidence[0].MessageIndex, e.Evidence[0].Quote))
				for _, n := range s.Negatives {
					if n.matches(e) {
						report = append(report, fmt.Sprintf("  ^ hits negative %q in msg %d", n.QuoteContains, n.MessageIndex))
					}
				}
			}
		}
		for _, l := range s.Expected {
			labels++
			sc.labels++
			r := perType[l.Type]
			r[1]++
			found := false
			for _, e := range entries {
				if l.matches(e) {
					found = true
					break
				}
			}
			if found {
				recalled++
				sc.recalled++
				r[0]++
			} else {
				report = append(report, fmt.Sprintf("missed %s %q in msg %d", l.Type, l.QuoteContains, l.MessageIndex))
			}
			perType[l.Type] = r
		}
		if len(report) > 0 {
			t.Logf("%s:\n  %s", filepath.Base(f), strings.Join(report, "\n  "))
		}
	}
	precision := float64(tp) / float64(max(tp+fp, 1))
	recall := float64(recalled) / float64(max(labels, 1))
	t.Logf("sessions=%d labels=%d entries=%d (tp=%d fp=%d optional=%d)", len(files), labels, tp+fp+neutral, tp, fp, neutral)
	for _, typ := range priority {
		if r := perType[typ]; r[1] > 0 {
			t.Logf("  recall %-10s %d/%d", typ, r[0], r[1])
		}
	}
	for i, name := range []string{"tuned (written first, rules developed against them)", "held-out (heldout_*, never tuned against)"} {
		sc := split[i]
		t.Logf("  %s: labels=%d precision=%.3f recall=%.3f", name, sc.labels,
			float64(sc.tp)/float64(max(sc.tp+sc.fp, 1)), float64(sc.recalled)/float64(max(sc.labels, 1)))
	}
	t.Logf("precision=%.3f recall=%.3f", precision, recall)
	if precision < 0.8 {
		t.Errorf("precision %.3f < 0.8", precision)
	}
	if recall < 0.7 {
		t.Errorf("recall %.3f < 0.7", recall)
	}
}

type score struct{ tp, fp, labels, recalled int }

func anyMatch(ls []label, e Entry) bool {
	for _, l := range ls {
		if l.matches(e) {
			return true
		}
	}
	return false
}

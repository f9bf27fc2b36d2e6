package extract

import (
	"strings"
	"testing"
)

// The scans below were rewritten for speed; these are the plain forms they
// replace, kept to check that the fast forms answer the same.

func lowerASCIIPlain(s string) string {
	b := []byte(s)
	for j := range b {
		if b[j] >= 'A' && b[j] <= 'Z' {
			b[j] += 'a' - 'A'
		}
	}
	return string(b)
}

func startsWithPhrasePlain(b string, list []string) bool {
	for _, w := range list {
		if strings.HasPrefix(b, w) && (len(b) == len(w) || !isWordByte(b[len(w)]) || !isWordByte(w[len(w)-1])) {
			return true
		}
	}
	return false
}

func containsPhrasePlain(b string, list []string) bool {
	for _, w := range list {
		for from := 0; from < len(b); {
			k := strings.Index(b[from:], w)
			if k < 0 {
				break
			}
			k += from
			from = k + 1
			if bounded(b, k, k+len(w), w) {
				return true
			}
		}
	}
	return false
}

func skipOpenersPlain(low string) int {
	i := 0
	for {
		for i < len(low) && strings.IndexByte(" \t-*>\"'(,.:!", low[i]) >= 0 {
			i++
		}
		for _, d := range []string{"—", "–"} {
			if strings.HasPrefix(low[i:], d) {
				i += len(d)
			}
		}
		moved := false
		for _, o := range openers {
			if strings.HasPrefix(low[i:], o) {
				e := i + len(o)
				if e == len(low) || strings.IndexByte(" ,.!:", low[e]) >= 0 {
					i = e
					moved = true
					break
				}
			}
		}
		if !moved {
			return min(i, len(low))
		}
	}
}

// phraseLists are the lists the extractor scans texts for, each phrase also
// alone, so that a list's later phrases are not hidden by its first.
func phraseLists() [][]string {
	lists := [][]string{acks, changeVerbs, commandPurposes, deferrals, directives, fixOpeners, ifNeeded, inspections, lookCommands, narrationVerbs, planOpeners, planRequests, proposalLeads, rejects, runners, selfTalk, standing, statusPhrases, stepsOn, oneOffVerbs, openers, markers,
		{"with", "to", "from"}, {"today", "yesterday", "tonight"}, {"here's", "here is", "as follows"}}
	for _, l := range lists[:len(lists):len(lists)] {
		for _, w := range l {
			lists = append(lists, []string{w})
		}
	}
	return lists
}

func checkScans(t *testing.T, text string) {
	t.Helper()
	for _, b := range []string{text, lowerASCIIPlain(text)} {
		if got, want := lowerASCII(b), lowerASCIIPlain(b); got != want {
			t.Fatalf("lowerASCII(%q) = %q, want %q", b, got, want)
		}
		if got, want := skipOpeners(b), skipOpenersPlain(b); got != want {
			t.Fatalf("skipOpeners(%q) = %d, want %d", b, got, want)
		}
		for _, l := range phraseLists() {
			if got, want := containsPhrase(b, l), containsPhrasePlain(b, l); got != want {
				t.Fatalf("containsPhrase(%q, %q) = %v, want %v", b, l, got, want)
			}
			if got, want := startsWithPhrase(b, l), startsWithPhrasePlain(b, l); got != want {
				t.Fatalf("startsWithPhrase(%q, %q) = %v, want %v", b, l, got, want)
			}
		}
	}
}

// TestScansSame checks the fast scans against the plain ones on every
// message of the test sessions, and on each phrase of the lists said in a
// sentence, at its start, inside a word and in a path.
func TestScansSame(t *testing.T) {
	n := 0
	for _, s := range testSessions(t) {
		for _, m := range s.Messages {
			checkScans(t, m.Text)
			n++
		}
	}
	for _, l := range phraseLists() {
		for _, w := range l {
			for _, text := range []string{w, w + " it", "so " + w + ".", "x" + w, w + "x", "src/" + w, strings.ToUpper(w) + " now", "I'm " + w} {
				checkScans(t, text)
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("checked only %d texts", n)
	}
}

// FuzzScansSame is TestScansSame on arbitrary text.
func FuzzScansSame(f *testing.F) {
	for _, seed := range []string{"", "I see it", "ok, so — and then", "- yes. okay:", "Looks like it's done", "thanks!", "ok", "a/ok", "okay.", "알겠습니다", "\xff", "SORRY, my bad"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) { checkScans(t, text) })
}

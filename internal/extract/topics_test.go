package extract

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

// topicHitsPlain is topicHits as it was before it read an index of the
// topics' values: every value asked whether its first two bytes start a
// word of low.
func topicHitsPlain(low string) []valueHit {
	var hits []valueHit
	bits, ascii := wordStarts(low)
	depth := parenDepth(low)
	for ti := range topics {
		t := &topics[ti]
		for _, v := range t.values {
			if !mayStart(&bits, ascii, v) {
				continue
			}
			for from := 0; ; {
				k := strings.Index(low[from:], v)
				if k < 0 {
					break
				}
				k += from
				from = k + len(v)
				if valueBounded(low, k, k+len(v)) && depth[k] == 0 {
					hits = append(hits, valueHit{k, k + len(v), t})
				}
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].at != hits[j].at {
			return hits[i].at < hits[j].at
		}
		return hits[i].end > hits[j].end
	})
	return hits
}

// checkTopics compares topicHits, and a sentence's topics, with the old
// form on every sentence of text and on text itself, lowered, and returns
// how many values they found.
func checkTopics(t *testing.T, text string) int {
	t.Helper()
	n := 0
	low := lowerASCII(text)
	if got, want := topicHits(low), topicHitsPlain(low); !reflect.DeepEqual(got, want) {
		t.Fatalf("topicHits(%q) = %v, want %v", low, got, want)
	}
	for _, sp := range sentences(text) {
		s := newSent(0, sp.start, text[sp.start:limit(text, sp.start, sp.end)], false)
		got, want := s.topics(), topicHitsPlain(s.low)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("topics(%q) = %v, want %v", s.low, got, want)
		}
		n += len(got)
	}
	return n
}

// TestTopicHitsSame is an equivalence test: topicHits and sent.topics
// against the old topicHits on the test sessions' messages and invented
// lines.
func TestTopicHitsSame(t *testing.T) {
	n := 0
	for _, sess := range testSessions(t) {
		for _, m := range sess.Messages {
			n += checkTopics(t, m.Text)
		}
	}
	for _, text := range []string{
		"We moved from Jest to Vitest (the old jest config stays), and Redis caches sessions.",
		"ts-jest is not jest; use pnpm, not npm-run-all. Postgres 16 via docker compose.",
		"CSS modules or styled-components? (tailwind later) — sqlite/duckdb for tests.",
		"Render 대신 Fly로 배포합니다. postgres를 씁니다.",
	} {
		n += checkTopics(t, text)
	}
	if n == 0 {
		t.Fatal("no topic value found: the comparison checked only misses")
	}
}

// FuzzTopicHitsSame is TestTopicHitsSame on arbitrary text.
func FuzzTopicHitsSame(f *testing.F) {
	for _, seed := range []string{"", "use vitest", "(jest) jest", "\xff redis", "ts-jest-vitest npm"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) { checkTopics(t, text) })
}

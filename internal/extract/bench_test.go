package extract

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// syntheticSession builds an n-message session from the labelled sessions'
// realistic messages, numbering each copy so that repeats stay distinct.
func syntheticSession(tb testing.TB, n int) []Message {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "labelled", "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(files)
	var pool []msg
	for _, f := range files {
		pool = append(pool, mustLoad(tb, f).Messages...)
	}
	out := make([]Message, n)
	for i := range out {
		m := pool[i%len(pool)]
		text := m.Text
		if round := i / len(pool); round > 0 {
			text = fmt.Sprintf("%s (pass %d)", text, round)
		}
		out[i] = Message{Index: i, Role: m.Role, Text: text}
	}
	return out
}

// BenchmarkOffline extracts from a synthetic 1,000-message session.
func BenchmarkOffline(b *testing.B) {
	for _, n := range []int{100, 1000} {
		msgs := syntheticSession(b, n)
		bytes := 0
		for _, m := range msgs {
			bytes += len(m.Text)
		}
		b.Run(fmt.Sprintf("msgs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(bytes))
			for b.Loop() {
				Offline(msgs)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

// longSession builds an n-message made-up session in which every user
// message states a rule in words of its own ("Never edit the wqxab … by
// hand."), the shape that made merging quadratic: many kept candidates of
// one type, few words in common between any two.
func longSession(n int) []Message {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%cx%c%c", 'a'+r.IntN(26), 'a'+r.IntN(26), 'a'+r.IntN(26))
	}
	out := make([]Message, n)
	for i := range out {
		var b strings.Builder
		b.WriteString("Never edit the")
		for range 12 {
			b.WriteString(" " + vocab[r.IntN(len(vocab))])
		}
		b.WriteString(" by hand.")
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		out[i] = Message{Index: i, Role: role, Text: b.String()}
	}
	return out
}

// BenchmarkOfflineLongSession extracts from a made-up 4,000-message
// session: session-end extracts a whole session within its hook timeout.
func BenchmarkOfflineLongSession(b *testing.B) {
	for _, n := range []int{1500, 4000} {
		msgs := longSession(n)
		b.Run(fmt.Sprintf("msgs=%d", n), func(b *testing.B) {
			for b.Loop() {
				Offline(msgs)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

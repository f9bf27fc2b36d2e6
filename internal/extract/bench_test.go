package extract

import (
	"fmt"
	"path/filepath"
	"sort"
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

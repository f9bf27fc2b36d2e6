package transcript

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// FuzzRead checks, for any input and any start line: Read never fails or
// panics on content, Offset stays on a line boundary within [off, len], a
// final read consumes every complete line, strings are valid UTF-8, and
// following live reads with a final one emits exactly what one final read
// does: nothing lost, nothing twice.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"testdata/basic.jsonl", "testdata/edge-cases.jsonl"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		for i, l := range lines {
			if len(l) > 4096 {
				l = append(l[:2048:2048], l[len(l)-2048:]...) // keep the corpus small
			}
			f.Add(l, uint8(0))
			f.Add(l[:len(l)/2], uint8(0))                      // cut line
			f.Add(bytes.TrimSuffix(l, []byte("\n")), uint8(0)) // complete but unterminated
			if i+1 < len(lines) && len(l)+len(lines[i+1]) < 8192 {
				f.Add(append(append([]byte(nil), l...), lines[i+1]...), uint8(1))
			}
		}
	}
	for _, tt := range readTests() {
		f.Add([]byte(strings.Join(tt.lines, "")), uint8(0))
	}

	f.Fuzz(func(t *testing.T, data []byte, startLine uint8) {
		// Start at the startLine-th line boundary (0: the beginning).
		var off int64
		for n := int(startLine); n > 0; n-- {
			i := bytes.IndexByte(data[off:], '\n')
			if i < 0 {
				break
			}
			off += int64(i) + 1
		}
		checkRead(t, data, off)
	})
}

// FuzzReadRows is FuzzRead on well-formed rows: each input byte picks a row
// from small pools of message and tool ids, so rows of one message, tool
// results, duplicates, interrupts and stop reasons meet far more often
// than in mutated JSON.
func FuzzReadRows(f *testing.F) {
	f.Add([]byte{0, 1, 13, 4, 2})
	f.Add([]byte{0, 11, 3, 13, 14, 24, 0})
	f.Add([]byte{1, 3, 13, 5, 8, 18, 8, 9})
	f.Fuzz(func(t *testing.T, ops []byte) {
		checkRead(t, rowsFrom(ops), 0)
	})
}

// TestReadRows runs FuzzReadRows's check on seeded random row sequences.
func TestReadRows(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		ops := make([]byte, 1+rng.IntN(40))
		for i := range ops {
			ops[i] = byte(rng.IntN(256))
		}
		checkRead(t, rowsFrom(ops), 0)
	}
}

// rowsFrom builds a transcript from ops, one row (or odd line) per byte.
func rowsFrom(ops []byte) []byte {
	var w bytes.Buffer
	for i, op := range ops {
		k, p := op%10, int(op/10)
		m, tool := fmt.Sprintf("m%d", p%4), fmt.Sprintf("t%d", p%5)
		uuid := fmt.Sprintf("r%d", i)
		var o obj
		switch k {
		case 0:
			o = prompt(uuid, fmt.Sprintf("prompt %d", i))
		case 1:
			o = assistant(uuid, m, nil, text(fmt.Sprintf("text %d", i)))
		case 2:
			o = assistant(uuid, m, end, text(fmt.Sprintf("last %d", i)))
		case 3:
			o = assistant(uuid, m, nil, use(tool, "Bash"))
		case 4:
			o = result(uuid, res(tool, fmt.Sprintf("out %d", i), p%2 == 1))
		case 5:
			o = prompt(uuid, "[Request interrupted by user for tool use]")
		case 6:
			// A subagent's row: its text, an edit it makes (kept), a read
			// (not kept), or a result of either.
			switch p % 4 {
			case 0:
				o = with(assistant(uuid, m, nil, text("side")), "isSidechain", true)
			case 1:
				o = with(assistant(uuid, m, nil, use(tool, "Edit")), "isSidechain", true)
			case 2:
				o = with(assistant(uuid, m, nil, use(tool, "Read")), "isSidechain", true)
			default:
				o = with(result(uuid, res(tool, fmt.Sprintf("side out %d", i), false)), "isSidechain", true)
			}
		case 7:
			o = with(prompt(uuid, "meta"), "isMeta", true)
		case 8:
			o = with(assistant(uuid, m, nil, text(fmt.Sprintf("block %d", i))), "apiBlockIndex", p%3)
		default:
			w.WriteString([]string{"\n", "{bad\n", `{"type":"system"}` + "\n", `{"type":"user"`}[p%4])
			continue
		}
		w.WriteString(rowLine(o))
	}
	return w.Bytes()
}

// checkRead checks Read's invariants on data read from off, a line boundary.
func checkRead(t *testing.T, data []byte, off int64) {
	read := func(off int64, final bool) Batch {
		b, err := Read(bytes.NewReader(data), off, final)
		if err != nil {
			t.Fatalf("Read(off=%d, final=%v): %v", off, final, err)
		}
		if b.Offset < off || b.Offset > int64(len(data)) {
			t.Fatalf("Read(off=%d, final=%v): Offset %d outside [%d, %d]", off, final, b.Offset, off, len(data))
		}
		if b.Offset > off && data[b.Offset-1] != '\n' {
			t.Fatalf("Read(off=%d, final=%v): Offset %d not at a line boundary", off, final, b.Offset)
		}
		if b.Skipped < 0 || b.Skipped > b.Rows {
			t.Fatalf("Rows=%d Skipped=%d", b.Rows, b.Skipped)
		}
		for _, m := range b.Messages {
			checkValid(t, m)
			if (m.Kind == ToolCall) != (m.Tool != nil) {
				t.Fatalf("%s with Tool %v", m.Kind, m.Tool)
			}
		}
		return b
	}

	full := read(off, true)
	if want := off + int64(bytes.LastIndexByte(data[off:], '\n')+1); full.Offset != want {
		t.Fatalf("final Read Offset=%d, want %d (end of the last complete line)", full.Offset, want)
	}
	// Live reads until one makes no progress, then a final read.
	var got []Message
	pos := off
	for {
		b := read(pos, false)
		got = append(got, b.Messages...)
		if b.Offset == pos {
			break
		}
		pos = b.Offset
	}
	got = append(got, read(pos, true).Messages...)
	if !reflect.DeepEqual(got, full.Messages) {
		t.Fatalf("live reads then a final read:\n%s\nwant:\n%s",
			strings.Join(summary(got), "\n"), strings.Join(summary(full.Messages), "\n"))
	}
}

// BenchmarkRead reads a synthetic ~10 MB transcript: basic.jsonl repeated
// with fresh ids.
func BenchmarkRead(b *testing.B) {
	data := synthetic(b, 10<<20)
	for _, final := range []bool{true, false} {
		b.Run(fmt.Sprint("final=", final), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			msgs := 0
			for b.Loop() {
				bt, err := Read(bytes.NewReader(data), 0, final)
				if err != nil {
					b.Fatal(err)
				}
				msgs += len(bt.Messages)
			}
			b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

// synthetic returns about size bytes of transcript made of basic.jsonl
// copies whose ids end in the copy number, so no two copies share an id.
func synthetic(tb testing.TB, size int) []byte {
	tb.Helper()
	basic := mustReadFile(tb, "testdata/basic.jsonl")
	ids := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(msg|toolu|req)_[0-9A-Za-z]{24}`)
	var out bytes.Buffer
	for n := 0; out.Len() < size; n++ {
		suffix := fmt.Sprintf("%06d", n)
		out.Write(ids.ReplaceAllFunc(basic, func(id []byte) []byte {
			return append(id[:len(id)-len(suffix):len(id)-len(suffix)], suffix...)
		}))
	}
	return out.Bytes()
}

func TestSynthetic(t *testing.T) {
	t.Parallel()
	data := synthetic(t, 100<<10)
	b := mustRead(t, data, 0, false)
	copies := bytes.Count(data, []byte(`"type":"file-history-snapshot"`)) / 2
	if got, want := len(b.Messages), 14*copies; got != want {
		t.Errorf("%d messages from %d copies, want %d", got, copies, want)
	}
	seen := map[string]bool{}
	for _, m := range b.Messages {
		if seen[m.UUID] {
			t.Fatalf("uuid %s repeats", m.UUID)
		}
		seen[m.UUID] = true
	}
}

package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func mustReadFile(tb testing.TB, path string) []byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func mustRead(tb testing.TB, data []byte, off int64, final bool) Batch {
	tb.Helper()
	b, err := Read(bytes.NewReader(data), off, final)
	if err != nil {
		tb.Fatalf("Read(off=%d, final=%v): %v", off, final, err)
	}
	return b
}

// dump renders a batch compactly for golden files: one block per message,
// long strings cut to a prefix with their full length.
func dump(b Batch) string {
	var w strings.Builder
	fmt.Fprintf(&w, "offset=%d rows=%d skipped=%d messages=%d\n", b.Offset, b.Rows, b.Skipped, len(b.Messages))
	for i, m := range b.Messages {
		fmt.Fprintf(&w, "\n#%d %s %s\n", i+1, m.Kind, m.Timestamp.Format("2006-01-02T15:04:05.000Z07:00"))
		fmt.Fprintf(&w, "  uuid=%s uuids=%v\n", m.UUID, m.UUIDs)
		fmt.Fprintf(&w, "  session=%s cwd=%s prompt=%s message=%s\n", m.SessionID, m.Cwd, m.PromptID, m.MessageID)
		if m.Text != "" {
			fmt.Fprintf(&w, "  text=%s\n", clip(m.Text))
		}
		if t := m.Tool; t != nil {
			fmt.Fprintf(&w, "  tool=%s id=%s result=%v error=%v\n", t.Name, t.ID, t.HasResult, t.IsError)
			fmt.Fprintf(&w, "  input=%s\n", cut(string(t.Input))) // one line of JSON: readable unquoted
			fmt.Fprintf(&w, "  output=%s\n", clip(t.Output))
		}
	}
	return w.String()
}

// clip quotes s, cut to its first 120 bytes.
func clip(s string) string {
	if c := cut(s); len(c) < len(s) {
		return fmt.Sprintf("%q… (%d bytes)", c, len(s))
	}
	return fmt.Sprintf("%q", s)
}

// cut returns the first 120 bytes of s, ending on a rune boundary.
func cut(s string) string {
	n := 120
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func TestGolden(t *testing.T) {
	for _, name := range []string{"basic", "edge-cases"} {
		t.Run(name, func(t *testing.T) {
			data := mustReadFile(t, filepath.Join("testdata", name+".jsonl"))
			b := mustRead(t, data, 0, true)
			got := dump(b)
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := string(mustReadFile(t, golden))
			if got != want {
				t.Errorf("Read(%s) differs from %s (rerun with -update if intended)\n%s", name, golden, lineDiff(want, got))
			}
			// Both fixtures end with every message complete, so a live read
			// emits the same as a final one.
			if live := mustRead(t, data, 0, false); !reflect.DeepEqual(live, b) {
				t.Errorf("live Read differs from final Read:\nlive:\n%s\nfinal:\n%s", dump(live), dump(b))
			}
		})
	}
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	var w strings.Builder
	shown := 0
	for i := 0; i < max(len(wl), len(gl)) && shown < 10; i++ {
		var a, b string
		if i < len(wl) {
			a = wl[i]
		}
		if i < len(gl) {
			b = gl[i]
		}
		if a != b {
			fmt.Fprintf(&w, "line %d:\n- %s\n+ %s\n", i+1, a, b)
			shown++
		}
	}
	return w.String()
}

// summary is one line per message, for comparing message lists at a glance.
func summary(msgs []Message) []string {
	var out []string
	for _, m := range msgs {
		switch m.Kind {
		case ToolCall:
			t := m.Tool
			out = append(out, fmt.Sprintf("tool %s %s result=%v error=%v output=%q", t.Name, t.ID, t.HasResult, t.IsError, t.Output))
		case Prompt:
			out = append(out, "prompt "+m.Text)
		default:
			out = append(out, "response "+m.Text)
		}
	}
	return out
}

func kinds(msgs []Message) map[Kind]int {
	n := map[Kind]int{}
	for _, m := range msgs {
		n[m.Kind]++
	}
	return n
}

func TestBasic(t *testing.T) {
	t.Parallel()
	b := mustRead(t, mustReadFile(t, "testdata/basic.jsonl"), 0, true)
	if got, want := b.Offset, int64(26580); got != want {
		t.Errorf("Offset=%d, want %d", got, want)
	}
	if got, want := kinds(b.Messages), (map[Kind]int{Prompt: 2, Response: 6, ToolCall: 6}); !reflect.DeepEqual(got, want) {
		t.Fatalf("kinds=%v, want %v\n%s", got, want, dump(b))
	}
	type want struct {
		kind     Kind
		uuid     string
		uuids    []string
		promptID string
		msgID    string
		text     string // prefix
		tool     string
		output   string // prefix
		isError  bool
	}
	wants := []want{
		{kind: Prompt, uuid: "62f746b4-84e6-4ceb-95bd-447e7184d454", promptID: "0d8b6c1e-3f2a-4b7c-9e15-6a4d2c8f0b93",
			text: "Add JWT authentication to our Express app. Only /api/orders should need a token; /health stays public."},
		{kind: Response, uuid: "b61e6ba5-3682-4dd6-b804-69b84b2d451c", msgID: "msg_01Jx4Q8vTbN2mKc7RpW3sLdY",
			text: "I'll start with the app entry point to see how the routes are mounted."},
		{kind: ToolCall, uuid: "dc36fc90-2248-4d70-aca4-a1a9f5b19f71", uuids: []string{"ec7ac8ad-1b2b-406b-aae1-2c972399d29d", "dc36fc90-2248-4d70-aca4-a1a9f5b19f71"},
			msgID: "msg_01Jx4Q8vTbN2mKc7RpW3sLdY", tool: "Read", output: "     1\tconst express = require('express');\n"},
		{kind: Response, uuid: "e500bddf-37b0-4307-8f0f-4c3c2052e52b", msgID: "msg_01Cw8NsR5tXq2HbK9mVy3FjP", text: "The orders router is mounted without any auth."},
		{kind: ToolCall, uuid: "8c0a70a7-a845-47f9-953a-5154281fa6f5", tool: "Write", output: "File created successfully at: /home/dev/shop-api/src/middleware/requireJwt.js"},
		{kind: ToolCall, uuid: "5e571eaa-66c1-44e7-8859-90d2e844c762", tool: "Edit", output: "The file /home/dev/shop-api/src/app.js has been updated successfully."},
		{kind: Response, uuid: "939ae232-588e-4bce-b71e-d78a1dc02e27", msgID: "msg_01Ap6WeH2yLk9SdN4vQx8TcR", text: "Done. `/api/orders` now requires a `Bearer` token"},
		{kind: Prompt, uuid: "3af9f30c-5a66-4477-bda9-d8c096d38ff5", promptID: "4e7a1b90-2c5d-4f83-a6e2-9b1d7c3f5e08", text: "npm test fails now:"},
		{kind: Response, uuid: "baa2919c-0ded-47bb-bec0-c9226ed91f2e", text: "Running the orders tests to see the failure."},
		{kind: ToolCall, uuid: "50d00787-862a-43db-851b-ec1ede27387c", tool: "Bash", output: "Exit code 1\n", isError: true},
		{kind: Response, uuid: "7a8d9ccd-7582-429f-bac5-26d3d4381551", text: "The test calls the route without a token."},
		{kind: ToolCall, uuid: "bce1cb34-00e2-47d7-9eda-7e46a386c4a7", tool: "Edit", output: "The file /home/dev/shop-api/test/orders.test.js has been updated successfully."},
		{kind: ToolCall, uuid: "944782d7-3418-42c5-9b24-10a6f0ae1284", tool: "Bash", output: "> shop-api@1.4.0 test\n"},
		{kind: Response, uuid: "101379c7-d2ab-4d67-8074-a6442ba33d67", msgID: "msg_01Ue4VbN8qRs2KmW6tXy3LdP", text: "Fixed. The test now signs an RS256 token"},
	}
	if len(b.Messages) != len(wants) {
		t.Fatalf("got %d messages, want %d", len(b.Messages), len(wants))
	}
	for i, w := range wants {
		m := b.Messages[i]
		if m.Kind != w.kind || m.UUID != w.uuid {
			t.Errorf("#%d: %s %s, want %s %s", i+1, m.Kind, m.UUID, w.kind, w.uuid)
		}
		if w.uuids != nil && !reflect.DeepEqual(m.UUIDs, w.uuids) {
			t.Errorf("#%d: UUIDs=%v, want %v", i+1, m.UUIDs, w.uuids)
		}
		if m.PromptID != w.promptID {
			t.Errorf("#%d: PromptID=%q, want %q", i+1, m.PromptID, w.promptID)
		}
		if w.msgID != "" && m.MessageID != w.msgID {
			t.Errorf("#%d: MessageID=%q, want %q", i+1, m.MessageID, w.msgID)
		}
		if !strings.HasPrefix(m.Text, w.text) {
			t.Errorf("#%d: Text=%q, want prefix %q", i+1, m.Text, w.text)
		}
		if m.SessionID != "5f0c2a9e-7b1d-4c3e-9a6f-2d8e4b1c7a30" || m.Cwd != "/home/dev/shop-api" || m.Timestamp.IsZero() {
			t.Errorf("#%d: session=%q cwd=%q time=%v", i+1, m.SessionID, m.Cwd, m.Timestamp)
		}
		if (m.Tool != nil) != (w.tool != "") {
			t.Fatalf("#%d: Tool=%v, want tool %q", i+1, m.Tool, w.tool)
		}
		if m.Tool == nil {
			continue
		}
		if m.Text != "" {
			t.Errorf("#%d: tool call has Text %q", i+1, m.Text)
		}
		tl := m.Tool
		if tl.Name != w.tool || !tl.HasResult || tl.IsError != w.isError || !strings.HasPrefix(tl.Output, w.output) {
			t.Errorf("#%d: tool %s result=%v error=%v output=%q, want %s error=%v output prefix %q",
				i+1, tl.Name, tl.HasResult, tl.IsError, tl.Output, w.tool, w.isError, w.output)
		}
		if !strings.HasPrefix(tl.ID, "toolu_") || !json.Valid(tl.Input) || len(m.UUIDs) != 2 {
			t.Errorf("#%d: ID=%q Input=%s UUIDs=%v", i+1, tl.ID, tl.Input, m.UUIDs)
		}
	}
	// The first prompt's timestamp, with its milliseconds.
	if got, want := b.Messages[0].Timestamp, time.Date(2026, 11, 20, 9, 14, 3, 112e6, time.UTC); !got.Equal(want) {
		t.Errorf("Timestamp=%v, want %v", got, want)
	}
	// A tool call is dated by its tool_use row.
	if got, want := b.Messages[2].Timestamp, time.Date(2026, 11, 20, 9, 14, 7, 530e6, time.UTC); !got.Equal(want) {
		t.Errorf("tool call Timestamp=%v, want %v", got, want)
	}
	var input struct {
		FilePath string `json:"file_path"`
	}
	if err := json.Unmarshal(b.Messages[2].Tool.Input, &input); err != nil || input.FilePath != "/home/dev/shop-api/src/app.js" {
		t.Errorf("Read input %s: file_path=%q err=%v", b.Messages[2].Tool.Input, input.FilePath, err)
	}
}

func TestEdgeCases(t *testing.T) {
	t.Parallel()
	data := mustReadFile(t, "testdata/edge-cases.jsonl")
	b := mustRead(t, data, 0, true)
	want := []string{
		`prompt 결제 API에 JWT 인증을 붙여 주세요. 액세스 토큰 만료는 15분, "refresh" 토큰도 필요해요 🔐`,
		"response 네, 액세스 토큰은 RS256으로 서명하고 15분 뒤 만료되게 하겠습니다. 리프레시 토큰은 DB에 해시로 저장해서 재사용을 막겠습니다. 키는 `./keys`에 둡니다 — 기존 결정과 같습니다.",
		"prompt /review src/auth",
		"prompt /model",
		"prompt 이 에러 화면 좀 봐 주세요. 의존성 트리도 확인해 줘요.",
	}
	got := summary(b.Messages)
	if len(got) != 7 {
		t.Fatalf("got %d messages, want 7:\n%s", len(got), strings.Join(got, "\n"))
	}
	if !reflect.DeepEqual(got[:5], want) {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(got[:5], "\n"), strings.Join(want, "\n"))
	}

	// Nothing comes from the injected context, the sidechain, the isMeta
	// command body, the compact summary, the local command output, the
	// interrupt, the synthetic API error, or the metadata rows.
	all := strings.Join(got, "\n")
	for _, s := range []string{
		"Decisions recorded for this project", // hook_additional_context
		"JWT_SECRET", "Found 2 places",        // sidechain user and assistant
		"ARGUMENTS:",                                                     // isMeta
		"This session is being continued",                                // isCompactSummary
		"Set model to",                                                   // local-command-stdout
		"Request interrupted",                                            // interrupt
		"API Error",                                                      // synthetic
		"payment-jwt", "Add JWT auth to payment API", "결제 API JWT 인증 추가", // metadata rows
		"사용자는 15분",   // thinking
		"리프레시 토큰 회전", // the cut last line
	} {
		if strings.Contains(all, s) {
			t.Errorf("messages contain %q", s)
		}
	}

	// The 144 KB tool_result line arrives whole.
	bash := b.Messages[5]
	if bash.Kind != ToolCall || bash.Tool.Name != "Bash" || !bash.Tool.HasResult || bash.Tool.IsError {
		t.Fatalf("#6 = %+v, want the npm ls Bash call", bash)
	}
	if got, want := len(bash.Tool.Output), 88652; got != want {
		t.Errorf("npm ls output is %d bytes, want %d", got, want)
	}
	if !strings.HasPrefix(bash.Tool.Output, "payment_api@0.9.0 /Users/minji/work/payment_api\n") ||
		!strings.HasSuffix(bash.Tool.Output, "pg-leaf-1035@0.0.1 deduped") {
		t.Errorf("npm ls output is cut: %s", clip(bash.Tool.Output))
	}

	// The block-array tool_result with is_error.
	read := b.Messages[6]
	if read.Kind != ToolCall || read.Tool.Name != "Read" || !read.Tool.IsError ||
		read.Tool.Output != "<tool_use_error>File does not exist.</tool_use_error>" ||
		read.UUID != "4ca8c324-a8eb-42f1-a27d-239fdf8adf39" {
		t.Errorf("#7 = %+v %+v, want the failed Read", read, read.Tool)
	}

	// The thinking row is not part of the response.
	resp := b.Messages[1]
	if got, want := resp.UUIDs, []string{"2ccd5f71-12fc-4e59-b1e9-f4fd46b1f9d2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("response UUIDs=%v, want %v", got, want)
	}
	if got, want := b.Messages[2].PromptID, "04a0a7d3-d3f1-4773-a6e3-5f4b2b1522b8"; got != want {
		t.Errorf("slash command PromptID=%q, want %q", got, want)
	}

	// The truncated last line is not consumed.
	cutAt := bytes.LastIndexByte(data, '\n') + 1
	if got, want := b.Offset, int64(cutAt); got != want || want != 195024 {
		t.Errorf("Offset=%d, want %d (start of the cut line, 195024)", got, want)
	}
	if got, want := b.Rows, 24; got != want { // 26 lines: one empty, one cut
		t.Errorf("Rows=%d, want %d", got, want)
	}
}

// completion finishes the last, cut line of edge-cases.jsonl.
const completion = `큰 저장소를 확인하겠습니다."}],"stop_reason":"end_turn","stop_sequence":null},"requestId":"req_x","apiBlockIndex":0,"uuid":"0c6f3a52-9d41-4b7e-8e2a-5f1d3c7b9a60","timestamp":"2026-11-21T01:22:05.002Z","cwd":"/Users/minji/work/payment_api","sessionId":"9b3d6f12-4a8c-4e57-b1d9-6c2f8a0e4d73"}` + "\n"

func TestTruncatedLineCompleted(t *testing.T) {
	t.Parallel()
	data := mustReadFile(t, "testdata/edge-cases.jsonl")
	for _, final := range []bool{false, true} {
		t.Run(fmt.Sprint("final=", final), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			first, err := ReadFile(path, 0, final)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := first.Offset, int64(195024); got != want {
				t.Fatalf("Offset=%d, want %d", got, want)
			}
			// Nothing new is written: reading again yields nothing.
			again, err := ReadFile(path, first.Offset, final)
			if err != nil {
				t.Fatal(err)
			}
			if len(again.Messages) != 0 || again.Offset != first.Offset || again.Rows != 0 {
				t.Errorf("re-read = %d messages, Offset %d, Rows %d; want none at %d", len(again.Messages), again.Offset, again.Rows, first.Offset)
			}

			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(completion); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			next, err := ReadFile(path, first.Offset, final)
			if err != nil {
				t.Fatal(err)
			}
			got := summary(next.Messages)
			want := []string{"response 리프레시 토큰 회전 로직을 src/auth/refresh.ts에 추가하겠습니다. 먼저 토큰 저장소를 확인하겠습니다."}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("after completing the line: %q, want %q", got, want)
			}
			if got, want := next.Offset, int64(len(data)+len(completion)); got != want {
				t.Errorf("Offset=%d, want %d", got, want)
			}
			all := append(first.Messages, next.Messages...)
			n := 0
			for _, m := range all {
				if m.MessageID == "msg_01Ve9MfA4qOw7ZrX1cPh6TbV" {
					n++
				}
			}
			if n != 1 {
				t.Errorf("completed message emitted %d times, want 1", n)
			}
		})
	}
}

func TestReadFileMissing(t *testing.T) {
	t.Parallel()
	_, err := ReadFile(filepath.Join(t.TempDir(), "nope.jsonl"), 0, true)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) error = %v, want os.ErrNotExist", err)
	}
}

// TestReadFileGrowing: a transcript another process keeps appending to is
// read up to the size it had when opened. Before, ReadFile chased the
// writer: a file that grew faster than it was parsed was never done, and
// all it read was held in memory (an import of one reached 6 GB). Not
// parallel: it sets the package's hook.
func TestReadFileGrowing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "growing.jsonl")
	if err := os.WriteFile(p, []byte(rowLine(prompt("u0", "first"))+rowLine(prompt("u1", "second"))), 0o600); err != nil {
		t.Fatal(err)
	}
	sized = func(path string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		for i := 2; i < 50; i++ {
			f.WriteString(rowLine(prompt(fmt.Sprintf("u%d", i), "written while the read was under way")))
		}
	}
	t.Cleanup(func() { sized = nil })
	b, err := ReadFile(p, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Messages) != 2 {
		t.Errorf("read %d prompts, want the 2 there when the read began", len(b.Messages))
	}
	sized = nil
	if rest, err := ReadFile(p, b.Offset, true); err != nil || len(rest.Messages) != 48 {
		t.Errorf("the next read found %d prompts (%v), want the 48 written meanwhile", len(rest.Messages), err)
	}
}

func TestReadNegativeOffset(t *testing.T) {
	t.Parallel()
	if _, err := Read(bytes.NewReader(nil), -1, true); err == nil {
		t.Error("Read(off=-1) = nil error")
	}
}

func TestReadPastEnd(t *testing.T) {
	t.Parallel()
	b := mustRead(t, []byte(rowLine(prompt("u1", "hi"))), 1000, true)
	if b.Offset != 1000 || len(b.Messages) != 0 {
		t.Errorf("Read(past end) = %+v, want nothing at 1000", b)
	}
}

type failReader struct{ err error }

func (r failReader) ReadAt([]byte, int64) (int, error) { return 0, r.err }

func TestReadError(t *testing.T) {
	t.Parallel()
	errDisk := errors.New("disk gone")
	_, err := Read(failReader{errDisk}, 0, true)
	if !errors.Is(err, errDisk) {
		t.Errorf("Read error = %v, want %v", err, errDisk)
	}
}

// Incremental reading: a live read of a prefix, then a final read of the
// whole file from the returned Offset, yields what one full read does.

func TestIncrementalLineBoundaries(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"basic", "edge-cases"} {
		t.Run(name, func(t *testing.T) {
			data := mustReadFile(t, filepath.Join("testdata", name+".jsonl"))
			want := mustRead(t, data, 0, true).Messages
			dir := t.TempDir()
			full := filepath.Join(dir, "full.jsonl")
			if err := os.WriteFile(full, data, 0o644); err != nil {
				t.Fatal(err)
			}
			for i, c := range data {
				if c != '\n' {
					continue
				}
				prefix := filepath.Join(dir, fmt.Sprintf("prefix-%d.jsonl", i+1))
				if err := os.WriteFile(prefix, data[:i+1], 0o644); err != nil {
					t.Fatal(err)
				}
				first, err := ReadFile(prefix, 0, false)
				if err != nil {
					t.Fatal(err)
				}
				if first.Offset > int64(i+1) || (first.Offset > 0 && data[first.Offset-1] != '\n') {
					t.Fatalf("cut %d: Offset=%d not a line boundary within the prefix", i+1, first.Offset)
				}
				rest, err := ReadFile(full, first.Offset, true)
				if err != nil {
					t.Fatal(err)
				}
				if got := append(first.Messages, rest.Messages...); !reflect.DeepEqual(got, want) {
					t.Fatalf("cut at %d (Offset %d):\n%s\nwant:\n%s", i+1, first.Offset,
						strings.Join(summary(got), "\n"), strings.Join(summary(want), "\n"))
				}
			}
		})
	}
}

// TestIncrementalBytePositions cuts inside lines: the partial last line
// must be left for the next Read whatever its length.
func TestIncrementalBytePositions(t *testing.T) {
	t.Parallel()
	data := mustReadFile(t, "testdata/basic.jsonl")
	want := mustRead(t, data, 0, true).Messages
	cuts := []int{0, 1, len(data) - 1}
	start := 0
	for i, c := range data {
		if c == '\n' {
			cuts = append(cuts, start+1, (start+i)/2, i, i+2)
			start = i + 1
		}
	}
	for _, cut := range cuts {
		cut = min(max(cut, 0), len(data))
		first := mustRead(t, data[:cut], 0, false)
		if first.Offset > int64(cut) || (first.Offset > 0 && data[first.Offset-1] != '\n') {
			t.Fatalf("cut %d: Offset=%d not a line boundary within the prefix", cut, first.Offset)
		}
		rest := mustRead(t, data, first.Offset, true)
		if got := append(first.Messages, rest.Messages...); !reflect.DeepEqual(got, want) {
			t.Fatalf("cut at %d (Offset %d):\n%s\nwant:\n%s", cut, first.Offset,
				strings.Join(summary(got), "\n"), strings.Join(summary(want), "\n"))
		}
	}
}

// TestIncrementalTail follows a growing file the way the hooks do: a live
// Read from the last Offset each time more is written, and a final Read at
// the end.
func TestIncrementalTail(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"basic", "edge-cases"} {
		data := mustReadFile(t, filepath.Join("testdata", name+".jsonl"))
		want := mustRead(t, data, 0, true).Messages
		var lines []int
		for i, c := range data {
			if c == '\n' {
				lines = append(lines, i+1)
			}
		}
		rng := rand.New(rand.NewPCG(1, 2))
		var random []int
		for p := 0; p < len(data); p += 1 + rng.IntN(3000) {
			random = append(random, p)
		}
		for _, tc := range []struct {
			name string
			cuts []int
		}{
			{"lines", lines},
			{"random", random},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				var got []Message
				var off int64
				for _, cut := range tc.cuts {
					b := mustRead(t, data[:cut], off, false)
					if b.Offset < off {
						t.Fatalf("cut %d: Offset went back from %d to %d", cut, off, b.Offset)
					}
					got, off = append(got, b.Messages...), b.Offset
				}
				b := mustRead(t, data, off, true)
				got = append(got, b.Messages...)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(summary(got), "\n"), strings.Join(summary(want), "\n"))
				}
			})
		}
	}
}

// Rows for table tests.

type obj = map[string]any

func rowLine(o obj) string {
	b, err := json.Marshal(o)
	if err != nil {
		panic(err) // test inputs are built in code
	}
	return string(b) + "\n"
}

func with(o obj, kv ...any) obj {
	for i := 0; i+1 < len(kv); i += 2 {
		o[kv[i].(string)] = kv[i+1]
	}
	return o
}

func prompt(uuid string, content any) obj {
	return obj{
		"type": "user", "uuid": uuid, "promptId": "p-" + uuid, "sessionId": "s1", "cwd": "/w",
		"timestamp": "2026-11-20T09:14:03.112Z",
		"message":   obj{"role": "user", "content": content},
	}
}

func assistant(uuid, msgID string, stop any, blocks ...obj) obj {
	return obj{
		"type": "assistant", "uuid": uuid, "sessionId": "s1", "cwd": "/w",
		"timestamp": "2026-11-20T09:14:04.000Z",
		"message": obj{"id": msgID, "type": "message", "role": "assistant", "model": "claude-sonnet-5",
			"content": blocks, "stop_reason": stop},
	}
}

func text(s string) obj { return obj{"type": "text", "text": s} }

func use(id, name string) obj {
	return obj{"type": "tool_use", "id": id, "name": name, "input": obj{"command": "ls"}}
}

func result(uuid string, blocks ...obj) obj {
	return obj{
		"type": "user", "uuid": uuid, "sessionId": "s1", "cwd": "/w",
		"timestamp": "2026-11-20T09:14:05.000Z",
		"message":   obj{"role": "user", "content": blocks},
	}
}

func res(id string, content any, isError bool) obj {
	o := obj{"type": "tool_result", "tool_use_id": id, "content": content}
	if isError {
		o["is_error"] = true
	}
	return o
}

type readTest struct {
	name  string
	lines []string
	final bool
	want  []string // summary of the messages
	held  int      // trailing lines (of lines) that Offset stays before
}

func readTests() []readTest {
	return []readTest{
		{"string prompt", []string{rowLine(prompt("u1", "hello"))}, false, []string{"prompt hello"}, 0},
		{"block prompt", []string{rowLine(prompt("u1", []obj{text("a"), {"type": "image", "source": obj{}}, text("b")}))}, false,
			[]string{"prompt a\n\nb"}, 0},
		{"image only", []string{rowLine(prompt("u1", []obj{{"type": "image", "source": obj{}}}))}, false, nil, 0},
		{"blank prompt", []string{rowLine(prompt("u1", " \n "))}, false, nil, 0},
		{"interrupt", []string{rowLine(prompt("u1", []obj{text("[Request interrupted by user]")}))}, false, nil, 0},
		{"interrupt for tool use", []string{rowLine(prompt("u1", "[Request interrupted by user for tool use]"))}, false, nil, 0},
		{"local command stdout", []string{rowLine(prompt("u1", "<local-command-stdout>ok</local-command-stdout>"))}, false, nil, 0},
		{"local command stderr", []string{rowLine(prompt("u1", "<local-command-stderr>no</local-command-stderr>"))}, false, nil, 0},
		{"local command caveat", []string{rowLine(prompt("u1", "<local-command-caveat>Caveat</local-command-caveat>"))}, false, nil, 0},
		// A shell-mode command's output is a Bash call of its own, with
		// no id and not marked failed (no exit status is recorded).
		{"bash output", []string{rowLine(prompt("u1", "<bash-stdout>a</bash-stdout><bash-stderr></bash-stderr>"))}, false, []string{`tool Bash  result=true error=false output="a"`}, 0},
		{"bash stderr", []string{rowLine(prompt("u1", "<bash-stderr>x</bash-stderr>"))}, false, []string{`tool Bash  result=true error=false output="x"`}, 0},
		{"bash no output", []string{rowLine(prompt("u1", "<bash-stdout></bash-stdout><bash-stderr> </bash-stderr>"))}, false, nil, 0},
		{"bash input and output", []string{rowLine(prompt("u1", "<bash-input>bd onboard</bash-input>")), rowLine(prompt("u2", "<bash-stdout></bash-stdout><bash-stderr>Error: missing key</bash-stderr>"))}, false,
			[]string{"prompt !bd onboard", `tool Bash  result=true error=false output="Error: missing key"`}, 0},
		{"bash input", []string{rowLine(prompt("u1", "<bash-input>ls -la</bash-input>"))}, false, []string{"prompt !ls -la"}, 0},
		{"slash command", []string{rowLine(prompt("u1", "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/auth  </command-args>"))}, false,
			[]string{"prompt /review src/auth"}, 0},
		{"slash command other order", []string{rowLine(prompt("u1", "<command-args>a b</command-args><command-name>/x</command-name><command-message>x</command-message>"))}, false,
			[]string{"prompt /x a b"}, 0},
		{"slash command no args no slash", []string{rowLine(prompt("u1", "<command-name>clear</command-name>"))}, false, []string{"prompt /clear"}, 0},
		{"command message without name", []string{rowLine(prompt("u1", "<command-message>odd</command-message>"))}, false,
			[]string{"prompt <command-message>odd</command-message>"}, 0},
		{"isMeta", []string{rowLine(with(prompt("u1", "body"), "isMeta", true))}, false, nil, 0},
		{"isCompactSummary", []string{rowLine(with(prompt("u1", "summary"), "isCompactSummary", true))}, false, nil, 0},
		{"isVisibleInTranscriptOnly", []string{rowLine(with(prompt("u1", "x"), "isVisibleInTranscriptOnly", true))}, false, nil, 0},
		{"sidechain", []string{
			rowLine(with(prompt("u1", "sub task"), "isSidechain", true)),
			rowLine(with(assistant("a1", "m1", end, text("sub answer")), "isSidechain", true)),
		}, false, nil, 0},
		// A sub-agent's file edits are kept, as PostToolUse keeps them live;
		// its reads and runs, prompts and text are not.
		{"sidechain tools", []string{
			rowLine(with(prompt("u1", "fix the docs"), "isSidechain", true)),
			rowLine(with(assistant("a1", "m1", "tool_use", text("reading"), use("t1", "Read"), use("t2", "Edit")), "isSidechain", true)),
			rowLine(with(result("r1", res("t1", "file body", false), res("t2", "edited", false)), "isSidechain", true)),
			rowLine(with(assistant("a2", "m2", end, text("docs fixed")), "isSidechain", true)),
		}, false, []string{`tool Edit t2 result=true error=false output="edited"`}, 0},
		{"ignored types", []string{
			rowLine(obj{"type": "attachment", "uuid": "x1", "attachment": obj{"type": "hook_additional_context", "content": []string{"memory"}}}),
			rowLine(obj{"type": "system", "uuid": "x2", "subtype": "turn_duration", "content": "x"}),
			rowLine(obj{"type": "progress", "uuid": "x3", "data": obj{}}),
			rowLine(obj{"type": "summary", "summary": "s", "leafUuid": "x"}),
			rowLine(obj{"type": "custom-title", "customTitle": "t"}),
			rowLine(obj{"type": "ai-title", "aiTitle": "t"}),
			rowLine(obj{"type": "last-prompt", "lastPrompt": "hello"}),
			rowLine(obj{"type": "file-history-snapshot", "messageId": "x"}),
			rowLine(obj{"type": "queue-operation", "operation": "enqueue", "content": "queued"}),
			rowLine(obj{"type": "brand-new-type", "message": obj{"content": "x"}}),
			rowLine(obj{"message": obj{"role": "user", "content": "no type"}}),
		}, false, nil, 0},
		{"api error", []string{rowLine(with(assistant("a1", "m1", end, text("API Error: 500")), "isApiErrorMessage", true))}, false, nil, 0},
		{"synthetic model", []string{rowLine(with(assistant("a1", "m1", end, text("x")), "message",
			obj{"id": "m1", "model": "<synthetic>", "content": []obj{text("x")}, "stop_reason": end}))}, false, nil, 0},
		{"merge rows of one message", []string{
			rowLine(assistant("a1", "m1", nil, text("one"))),
			rowLine(assistant("a2", "m1", nil, obj{"type": "thinking", "thinking": "hmm"})),
			rowLine(assistant("a3", "m1", nil, obj{"type": "redacted_thinking", "data": "xx"})),
			rowLine(assistant("a4", "m1", end, text("two"))),
		}, false, []string{"response one\n\ntwo"}, 0},
		{"whitespace text block", []string{rowLine(assistant("a1", "m1", end, text("\n\n"), text("real")))}, false, []string{"response real"}, 0},
		{"tool use only", []string{
			rowLine(assistant("a1", "m1", "tool_use", use("t1", "Bash"))),
			rowLine(result("r1", res("t1", "out", false))),
		}, false, []string{`tool Bash t1 result=true error=false output="out"`}, 0},
		{"text and tools in one row", []string{
			rowLine(assistant("a1", "m1", "tool_use", text("first"), use("t1", "Bash"), use("t2", "Read"))),
			rowLine(result("r1", res("t2", "two", false), res("t1", "one", false))),
		}, false, []string{
			"response first",
			`tool Bash t1 result=true error=false output="one"`,
			`tool Read t2 result=true error=false output="two"`,
		}, 0},
		{"duplicate block row", []string{
			rowLine(with(assistant("a1", "m1", nil, text("once")), "apiBlockIndex", 0)),
			rowLine(with(assistant("a2", "m1", nil, text("once")), "apiBlockIndex", 0)),
			rowLine(prompt("u1", "next")),
		}, false, []string{"response once", "prompt next"}, 0},
		{"duplicate tool use", []string{
			rowLine(assistant("a1", "m1", nil, use("t1", "Bash"))),
			rowLine(assistant("a2", "m2", nil, use("t1", "Bash"))),
			rowLine(result("r1", res("t1", "out", false))),
			rowLine(result("r2", res("t1", "again", false))),
		}, false, []string{`tool Bash t1 result=true error=false output="out"`}, 0},
		{"orphan result", []string{rowLine(result("r1", res("t0", "out", false)))}, false, nil, 0},
		{"result row with text", []string{
			rowLine(assistant("a1", "m1", nil, use("t1", "Bash"))),
			rowLine(result("r1", res("t1", "out", false), text("also this"))),
		}, false, []string{`tool Bash t1 result=true error=false output="out"`, "prompt also this"}, 0},

		// Live reads hold back what may still grow.
		{"live: open assistant message", []string{
			rowLine(prompt("u1", "go")),
			rowLine(assistant("a1", "m1", nil, text("thinking aloud"))),
		}, false, []string{"prompt go"}, 1},
		{"final: open assistant message", []string{
			rowLine(prompt("u1", "go")),
			rowLine(assistant("a1", "m1", nil, text("thinking aloud"))),
		}, true, []string{"prompt go", "response thinking aloud"}, 0},
		{"live: stop_reason ends a message", []string{rowLine(assistant("a1", "m1", end, text("done")))}, false, []string{"response done"}, 0},
		{"live: next message ends a message", []string{
			rowLine(assistant("a1", "m1", nil, text("one"))),
			rowLine(assistant("a2", "m2", nil, text("two"))),
		}, false, []string{"response one"}, 1},
		{"live: system row does not end a message", []string{
			rowLine(assistant("a1", "m1", nil, text("one"))),
			rowLine(obj{"type": "system", "subtype": "informational", "uuid": "s1"}),
		}, false, nil, 2},
		{"live: sidechain row does not end a message", []string{
			rowLine(assistant("a1", "m1", nil, text("one"))),
			rowLine(with(prompt("u1", "sub"), "isSidechain", true)),
		}, false, nil, 2},
		{"live: api error ends a message", []string{
			rowLine(assistant("a1", "m1", nil, text("one"))),
			rowLine(with(assistant("a2", "m2", end, text("API Error")), "isApiErrorMessage", true)),
		}, false, []string{"response one"}, 0},
		{"live: tool without result", []string{
			rowLine(prompt("u1", "go")),
			rowLine(assistant("a1", "m1", nil, text("let me look"))),
			rowLine(assistant("a2", "m1", "tool_use", use("t1", "Bash"))),
		}, false, []string{"prompt go", "response let me look"}, 1},
		{"live: tool without result, message open", []string{
			rowLine(prompt("u1", "go")),
			rowLine(assistant("a1", "m1", nil, text("let me look"))),
			rowLine(assistant("a2", "m1", nil, use("t1", "Bash"))),
		}, false, []string{"prompt go"}, 2},
		{"live: tool result completes", []string{
			rowLine(assistant("a1", "m1", nil, text("let me look"))),
			rowLine(assistant("a2", "m1", nil, use("t1", "Bash"))),
			rowLine(result("r1", res("t1", "out", false))),
		}, false, []string{"response let me look", `tool Bash t1 result=true error=false output="out"`}, 0},
		{"live: one of two results", []string{
			rowLine(assistant("a1", "m1", nil, text("both"))),
			rowLine(assistant("a2", "m1", nil, use("t1", "Bash"))),
			rowLine(assistant("a3", "m1", "tool_use", use("t2", "Read"))),
			rowLine(result("r1", res("t1", "out", false))),
		}, false, []string{"response both"}, 3},
		{"final: one of two results", []string{
			rowLine(assistant("a1", "m1", nil, text("both"))),
			rowLine(assistant("a2", "m1", nil, use("t1", "Bash"))),
			rowLine(assistant("a3", "m1", "tool_use", use("t2", "Read"))),
			rowLine(result("r1", res("t1", "out", false))),
		}, true, []string{"response both", `tool Bash t1 result=true error=false output="out"`, `tool Read t2 result=false error=false output=""`}, 0},
		{"live: prompt abandons a tool", []string{
			rowLine(assistant("a1", "m1", "tool_use", use("t1", "Bash"))),
			rowLine(prompt("u1", "never mind")),
		}, false, []string{`tool Bash t1 result=false error=false output=""`, "prompt never mind"}, 0},
		{"live: interrupt abandons a tool", []string{
			rowLine(assistant("a1", "m1", "tool_use", use("t1", "Bash"))),
			rowLine(prompt("u1", "[Request interrupted by user for tool use]")),
		}, false, []string{`tool Bash t1 result=false error=false output=""`}, 0},
		{"live: isMeta row does not abandon a tool", []string{
			rowLine(assistant("a1", "m1", "tool_use", use("t1", "Bash"))),
			rowLine(with(prompt("u1", "expanded"), "isMeta", true)),
		}, false, nil, 2},
		{"live: other result does not abandon a tool", []string{
			rowLine(assistant("a1", "m1", nil, use("t1", "Bash"))),
			rowLine(assistant("a2", "m1", "tool_use", use("t2", "Bash"))),
			rowLine(result("r2", res("t2", "two", false))),
		}, false, nil, 3},

		// Lines.
		{"complete last line without newline", []string{rowLine(prompt("u1", "one")), strings.TrimSuffix(rowLine(prompt("u2", "two")), "\n")}, true,
			[]string{"prompt one"}, 1},
		{"bad line is consumed", []string{"{\"type\":\"user\",\n", rowLine(prompt("u1", "after"))}, false, []string{"prompt after"}, 0},
		{"not objects", []string{"[1,2]\n", "\"user\"\n", "42\n", "null\n", "}{\n"}, false, nil, 0},
		{"empty and blank lines", []string{"\n", "   \n", rowLine(prompt("u1", "x")), "\r\n", "\n"}, false, []string{"prompt x"}, 0},
		{"leading NULs", []string{"\x00\x00\x00" + rowLine(prompt("u1", "x"))}, false, []string{"prompt x"}, 0},
		{"CRLF", []string{strings.TrimSuffix(rowLine(prompt("u1", "x")), "\n") + "\r\n"}, false, []string{"prompt x"}, 0},
		{"long line", []string{rowLine(prompt("u1", strings.Repeat("é", 300_000)))}, false, []string{"prompt " + strings.Repeat("é", 300_000)}, 0},
		{"invalid UTF-8", []string{"{\"type\":\"user\",\"uuid\":\"u\xff1\",\"message\":{\"content\":\"a\xffb\xc3\"}}\n"}, false, []string{"prompt a\uFFFDb\uFFFD"}, 0},
	}
}

func TestRead(t *testing.T) {
	t.Parallel()
	for _, tt := range readTests() {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(strings.Join(tt.lines, ""))
			b := mustRead(t, data, 0, tt.final)
			if got := summary(b.Messages); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			wantOff := len(strings.Join(tt.lines[:len(tt.lines)-tt.held], ""))
			if got, want := b.Offset, int64(wantOff); got != want {
				t.Errorf("Offset=%d, want %d", got, want)
			}
			for _, m := range b.Messages {
				checkValid(t, m)
			}
		})
	}
}

// checkValid fails if any string of m is not valid UTF-8.
func checkValid(tb testing.TB, m Message) {
	tb.Helper()
	s := []string{m.UUID, m.SessionID, m.PromptID, m.MessageID, m.Cwd, m.Text}
	s = append(s, m.UUIDs...)
	if m.Tool != nil {
		s = append(s, m.Tool.ID, m.Tool.Name, m.Tool.Output)
	}
	for _, v := range s {
		if !utf8.ValidString(v) {
			tb.Fatalf("invalid UTF-8 %q in %+v", v, m)
		}
	}
}

func TestResultBlocks(t *testing.T) {
	t.Parallel()
	data := []byte(rowLine(assistant("a1", "m1", "tool_use", use("t1", "Read"))) +
		rowLine(result("r1", res("t1", []obj{text("a"), {"type": "image", "source": obj{}}, text("b"), {"type": "other"}}, true))))
	b := mustRead(t, data, 0, false)
	if len(b.Messages) != 1 {
		t.Fatalf("got %d messages, want 1", len(b.Messages))
	}
	m := b.Messages[0]
	if got, want := m.Tool.Output, "a\n[image]\nb"; got != want {
		t.Errorf("Output=%q, want %q", got, want)
	}
	if !m.Tool.IsError || !m.Tool.HasResult {
		t.Errorf("IsError=%v HasResult=%v, want both", m.Tool.IsError, m.Tool.HasResult)
	}
	if got, want := m.UUID, "r1"; got != want {
		t.Errorf("UUID=%q, want %q", got, want)
	}
	if got, want := m.UUIDs, []string{"a1", "r1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("UUIDs=%v, want %v", got, want)
	}
	if got, want := string(m.Tool.Input), `{"command":"ls"}`; got != want {
		t.Errorf("Input=%s, want %s", got, want)
	}
}

func TestTimestamps(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ts   any
		want time.Time
	}{
		{"2026-11-20T09:14:03.112Z", time.Date(2026, 11, 20, 9, 14, 3, 112e6, time.UTC)},
		{"2026-11-20T10:14:03+01:00", time.Date(2026, 11, 20, 9, 14, 3, 0, time.UTC)},
		{"yesterday", time.Time{}},
		{"", time.Time{}},
		{1732000000, time.Time{}},
		{nil, time.Time{}},
	}
	for _, tt := range tests {
		b := mustRead(t, []byte(rowLine(with(prompt("u1", "x"), "timestamp", tt.ts))), 0, true)
		if len(b.Messages) != 1 {
			t.Fatalf("timestamp %v: %d messages", tt.ts, len(b.Messages))
		}
		if got := b.Messages[0].Timestamp; !got.Equal(tt.want) {
			t.Errorf("timestamp %v: got %v, want %v", tt.ts, got, tt.want)
		}
	}
}

func TestCounts(t *testing.T) {
	t.Parallel()
	data := []byte(rowLine(prompt("u1", "x")) + "garbage\n" + "\n" +
		rowLine(obj{"type": "summary"}) +
		rowLine(assistant("a1", "m1", end, obj{"type": "thinking", "thinking": "t"})) +
		rowLine(assistant("a2", "m1", end, text("y"))))
	b := mustRead(t, data, 0, true)
	if b.Rows != 5 || b.Skipped != 3 {
		t.Errorf("Rows=%d Skipped=%d, want 5 and 3", b.Rows, b.Skipped)
	}
}

// end is a stop_reason: the message is complete.
const end = "end_turn"

// TestShellOutputNamesItsCommand: a shell-mode output row is a Bash call
// of the command the shell-mode prompt right before it ran, and only of
// that one: an output after another prompt names none.
func TestShellOutputNamesItsCommand(t *testing.T) {
	t.Parallel()
	data := []byte(rowLine(prompt("u1", "<bash-input>bd onboard</bash-input>")) +
		rowLine(prompt("u2", "<bash-stderr>Error: missing key</bash-stderr>")) +
		rowLine(prompt("u3", "now fix it")) +
		rowLine(prompt("u4", "<bash-stdout>done</bash-stdout>")))
	var cmds []string
	for _, m := range mustRead(t, data, 0, true).Messages {
		if m.Kind == ToolCall {
			if !m.Tool.Shell || m.Tool.ID != "" {
				t.Errorf("a shell-mode call: %+v", m.Tool)
			}
			cmds = append(cmds, string(m.Tool.Input))
		}
	}
	if want := []string{`{"command":"bd onboard"}`, `{"command":""}`}; !reflect.DeepEqual(cmds, want) {
		t.Errorf("commands %q, want %q", cmds, want)
	}
}

package observation

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

func TestReportsError(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"[ERROR] /src/app/Mapper.java:[42,18] Ambiguous candidates", true},
		{"./internal/app/app.go:12:3: undefined: frobnicate", true},
		{"src/app.ts(12,5): error TS2322: Type 'string' is not assignable", true},
		{"error[E0425]: cannot find value `x` in this scope", true},
		{"Traceback (most recent call last):", true},
		{"ValueError: invalid literal for int()", true},
		{"Caused by: java.lang.IllegalStateException: no bean", true},
		{"--- FAIL: TestParse (0.00s)", true},
		{"npm ERR! code ELIFECYCLE", true},
		{"make: *** [all] Error 2", true},
		{"Exit code 137", true},
		{"process exited with status 2", true},
		{"Tests run: 5, Failures: 1, Errors: 0, Skipped: 0", true},
		{"panic: runtime error: index out of range", true},
		{"[INFO] Compiling 12 source files", false},
		{"Tests run: 5, Failures: 0, Errors: 0, Skipped: 0", false},
		{"0 errors, 0 warnings", false},
		{"exit status 0", false},
		{"src/app.ts:3:  const errorless = 1", false}, // grep -n: one number
		{"[WARNING] /src/Invoice.java:[42,13] @Builder will ignore the initializing expression", false},
		{"main.c:3:5: warning: unused variable 'x'", false},
		{"ok  \tgithub.com/x/y\t0.012s", false},
		{"errorless terrorism", false},
		{"see https://example.com:8080/path", false},
		{"No errors found.", false},
		{"Compiled without errors in 2.1s", false},
		{"lib.rs:7:9: warning: unused variable `error_count`", false},
		{"warning: build failed to find a cached artifact, rebuilding", false},
		{"let err2 = parse(x)", false},
		{"error_count=3 retries_left=2", false},
		{"1 warning and 2 errors generated.", true},
		{"Deprecation warning printed; build failed", true},
		{"status: ERROR_FILE_NOT_FOUND", true},
	} {
		if got := ReportsError(tt.line); got != tt.want {
			t.Errorf("ReportsError(%q)=%v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestStatesError(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"Error: listen EADDRINUSE: address already in use :::2004", true},
		{"TypeError: Cannot read properties of undefined (reading 'map')", true},
		{"error[E0432]: unresolved import `axum::extract::Multipart`", true},
		{"FAILED tests/test_api.py::test_login - AssertionError", true},
		{"fatal: not a git repository (or any of the parent directories): .git", true},
		{"java.lang.IllegalStateException: closed", true},
		{"  ValueError", true},
		{"[2025-09-17 06:36:12] ERROR database is locked", true},
		{"--- FAIL: TestParse (0.00s)", true},
		{"panic: runtime error: index out of range", true},
		{"node:events:485", false},
		{"      throw er; // Unhandled 'error' event", false},
		{"    at Server.setupListenHandle [as _listen2] (node:net:1940:16)", false},
		{"    at emitErrorNT (node:net:1976:8)", false},
		{"  code: 'EADDRINUSE',", false},
		{"Traceback (most recent call last):", false}, // the head of a trace, not the error
		{"Error handling was moved to the middleware", false},
		{"Errors: 0", false},
		{"error_count: 3", false},
		{"TypeErrors", false},
		{"", false},
	} {
		if got := StatesError(tt.line); got != tt.want {
			t.Errorf("StatesError(%q)=%v, want %v", tt.line, got, tt.want)
		}
	}
}

// buildLog is a long build output whose error lines sit in its middle,
// far from its head and tail.
func buildLog(errs ...string) string {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "[INFO] Compiling module %02d of the service ... ok\n", i)
	}
	for _, e := range errs {
		b.WriteString(e + "\n")
		for i := range 20 {
			fmt.Fprintf(&b, "[INFO] Copying resource %02d to target/classes\n", i)
		}
	}
	for i := range 40 {
		fmt.Fprintf(&b, "[INFO] Reactor summary line %02d ............. SKIPPED\n", i)
	}
	return b.String()
}

// TestBuildKeepsErrorLines checks that a long command output keeps the
// lines that report an error from the part the cut removes, in order and
// with markers, and that a file's content does not: its lines saying
// "error" are code.
func TestBuildKeepsErrorLines(t *testing.T) {
	t.Parallel()
	first := "[ERROR] /src/main/java/app/OrderMapper.java:[12,7] Conflicting converters for property \"total\": round(Money), sum(Money)"
	second := "./internal/app/app.go:12:3: undefined: frobnicate"
	log := buildLog(first, second)
	o := Build("Bash", gjson.Parse(`{"command":"mvn compile"}`), log, true)
	got := o.Text()
	i, j := strings.Index(got, first), strings.Index(got, second)
	if i < 0 || j < i {
		t.Fatalf("error lines not kept in order:\n%s", got)
	}
	if strings.Contains(got, "Copying resource 05") {
		t.Errorf("an ordinary line of the middle kept:\n%s", got)
	}
	if n := strings.Count(got, "bytes cut"); n != 3 {
		t.Errorf("%d markers, want 3 (before, between and after the error lines):\n%s", n, got)
	}
	if len(got) > len("Bash: mvn compile (error)\n")+maxHead+maxTail+maxErrors+spanCost {
		t.Errorf("kept %d bytes", len(got))
	}
	for _, tool := range []string{"Read", "Grep"} {
		if got := Build(tool, gjson.Parse(`{"file_path":"/a.log"}`), log, false).Text(); strings.Contains(got, "frobnicate") {
			t.Errorf("%s: a content line kept as an error:\n%s", tool, got)
		}
	}
}

// TestBuildKeepsRestOfCutErrorLine checks that an error line the head
// cuts in two keeps its rest, and an indented line after it (javac's
// "symbol:") comes with it.
func TestBuildKeepsRestOfCutErrorLine(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("x", maxHead-40)
	out := pad + "\n[ERROR] /src/test/java/app/CartViewTest.java:[51,22] cannot find symbol\n  symbol:   method withTotal()\n" +
		strings.Repeat("[INFO] ------------------------------------------------\n", 30)
	got := Build("Bash", gjson.Parse(`{"command":"mvn test"}`), out, false).Text()
	for _, want := range []string{"CartViewTest.java:[51,22] cannot find symbol", "symbol:   method withTotal()"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q:\n%s", want, got)
		}
	}
}

// TestBuildErrorLinesFiltered checks that error lines are taken from the
// filtered text only: a secret on one is masked, and beyond what the
// filter read (filterLimit, less unreadMargin) no line is kept.
func TestBuildErrorLinesFiltered(t *testing.T) {
	t.Parallel()
	secret := "Zx9qR2vT8wLmEXAMPLEq7"
	got := Build("Bash", gjson.Parse(`{"command":"deploy"}`), buildLog("Error: login failed with DEPLOY_API_KEY="+secret), false).Text()
	if !strings.Contains(got, "login failed") || strings.Contains(got, secret) {
		t.Errorf("error line missing or unmasked:\n%s", got)
	}

	fill := func(b *strings.Builder, upTo int) {
		for b.Len() < upTo {
			b.WriteString("[INFO] progress ................................................\n")
		}
	}
	var b strings.Builder
	fill(&b, 4000)
	b.WriteString("error: read-and-kept\n")
	fill(&b, filterLimit-unreadMargin/2)
	b.WriteString("error: near-the-cut\n")
	fill(&b, filterLimit+1000)
	b.WriteString("error: never-read\n")
	fill(&b, filterLimit+5000)
	got = Build("Bash", gjson.Parse(`{"command":"make"}`), b.String(), false).Text()
	if !strings.Contains(got, "read-and-kept") {
		t.Errorf("error line the filter read not kept:\n%s", got)
	}
	for _, no := range []string{"near-the-cut", "never-read"} {
		if strings.Contains(got, no) {
			t.Errorf("kept %q, a line the filter did not read whole:\n%s", no, got)
		}
	}
}

// FuzzTruncateErrors checks the cutter's bounds on any input: it never
// panics, keeps valid UTF-8 valid, adds no text (every line it keeps is a
// part of the input), and keeps at most head+tail+budget bytes and one
// marker.
func FuzzTruncateErrors(f *testing.F) {
	f.Add(buildLog("[ERROR] a.java:[1,2] bad", "FAIL x"), 100, 50, 200, 0)
	f.Add(strings.Repeat("error: x\n", 500), 10, 0, 800, 100)
	f.Add(strings.Repeat("é", 3000)+"\nerror "+strings.Repeat("ü", 900)+"\n"+strings.Repeat("a", 900), 700, 300, 800, 0)
	f.Add("Exit code 1\n\tat x\n\tat y\n"+strings.Repeat("z\n", 600), 3, 3, 100, 0)
	f.Fuzz(func(t *testing.T, s string, head, tail, budget, unread int) {
		if head < 0 || tail < 0 || budget < 0 || unread < 0 || head+tail > len(s) || budget > 1<<16 {
			return
		}
		got := truncate(s, head, tail, budget, unread)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 out of valid input: %q", got)
		}
		if len(got) > head+tail+budget+spanCost && got != s {
			t.Fatalf("kept %d bytes of %d (head %d tail %d budget %d)", len(got), len(s), head, tail, budget)
		}
		for _, part := range strings.Split(got, "\n") {
			part = strings.TrimSuffix(part, "…")
			if !strings.Contains(s, part) && !strings.HasPrefix(part, "[… ") {
				t.Fatalf("kept %q, not in the input", part)
			}
		}
	})
}

// FuzzStatesError: a line stating an error reports one too, whatever its
// bytes.
func FuzzStatesError(f *testing.F) {
	for _, s := range []string{"Error: listen EADDRINUSE", "  java.lang.X.YError", "Errors: 0", "FAIL\t", "error_x:", "\xffERROR\x00", "0 errors:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if StatesError(line) && !ReportsError(line) {
			t.Fatalf("%q states an error ReportsError does not see", line)
		}
	})
}

// SourcePosition gives the file's name without its directory and the
// position, in each compiler's form; one number alone is no position.
func TestSourcePosition(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		line, want string
	}{
		{"[ERROR] /w/src/OrderMapper.java:[12,7] Conflicting converter methods", "OrderMapper.java:[12,7]"},
		{"src/Cart.tsx(40,9): error TS2322: Type 'x'", "Cart.tsx(40,9)"},
		{"./cmd/app/main.go:12:5: undefined: frob", "main.go:12:5"},
		{"lib/video.mp4:3:1: unexpected byte", "video.mp4:3:1"},
		{"notes.txt:12: a grep hit", ""},
		{"see https://example.com:8080/path", ""},
	} {
		got := ""
		if start, end := SourcePosition(tt.line); start >= 0 {
			got = tt.line[start:end]
		}
		if got != tt.want {
			t.Errorf("SourcePosition(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

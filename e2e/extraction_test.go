package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests replay, in the real client, three ways the extractor used to
// store or report something false: a slash command's argument stored as a
// decision, an "Update: …" taken for a contradiction, and a test script
// reported still failing after it passed when run with a prefix.

// lastInjection is the prompt hook's context in the last request of a
// session run that carries one, up to the end of its block, or "".
func lastInjection(t *testing.T, dir string) string {
	t.Helper()
	const ups, end = "UserPromptSubmit hook additional context", "</claude-memory-layer-context>"
	reqs := requests(t, dir)
	for i := len(reqs) - 1; i >= 0; i-- {
		if j := strings.LastIndex(reqs[i], ups); j >= 0 {
			got := reqs[i][j:]
			if k := strings.Index(got, end); k >= 0 {
				got = got[:k+len(end)]
			}
			return got
		}
	}
	return ""
}

// TestRealClientSearchIsNoDecision: searching the memory for "yarn" with the
// slash command stores no memory about yarn, leaves the project's pnpm
// decision uncontested, and a later question about the package manager gets
// pnpm without a conflict warning.
func TestRealClientSearchIsNoDecision(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "We decided to use pnpm for this repo's packages, never npm.")
	w.session("s2", nil, "/memory-layer:memory-search yarn")
	var got entriesJSON
	if err := json.Unmarshal(w.cli("entries", "--json", "--all-projects"), &got); err != nil {
		t.Fatal(err)
	}
	pnpm := false
	for _, e := range got.Entries {
		text := strings.ToLower(e.Title)
		for _, v := range e.Evidence {
			text += " " + strings.ToLower(v.Quote)
		}
		if strings.Contains(text, "yarn") {
			t.Errorf("the search stored a memory: %s %q (%s)", e.Type, e.Title, e.Stage)
		}
		if strings.Contains(text, "pnpm") {
			pnpm = true
			if e.Status != "active" {
				t.Errorf("the pnpm memory is %s after the search, want active", e.Status)
			}
		}
	}
	if !pnpm {
		t.Fatalf("no pnpm memory: %+v", got)
	}
	ctx := lastInjection(t, w.session("s3", nil, "Which package manager should I use to add a dependency here?"))
	t.Logf("injected:\n%s", ctx)
	if !strings.Contains(ctx, "pnpm") || strings.Contains(ctx, "CONFLICT WARNINGS") {
		t.Errorf("the package manager question got:\n%s", ctx)
	}
}

// TestRealClientUpdateSupersedes: "Update: the API now listens on 9443"
// said after "the API listens on 8443" in one session replaces it (same
// date, ordered by position); the next question about the port is told the
// newer value replaced the older, not that two sources disagree.
func TestRealClientUpdateSupersedes(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil,
		"Note for later: the orders API listens on port 8443 behind the gateway.",
		"Update: the orders API now listens on port 9443.")
	ctx := lastInjection(t, w.session("s2", nil, "Which port does the orders API listen on?"))
	t.Logf("injected:\n%s", ctx)
	if !strings.Contains(ctx, "9443") {
		t.Fatalf("the port question was not answered with 9443:\n%s", ctx)
	}
	if strings.Contains(ctx, "These sources disagree") {
		t.Errorf("the update is reported as a disagreement, so Claude would hedge:\n%s", ctx)
	}
	if strings.Contains(ctx, "8443") && !strings.Contains(ctx, "replaced") {
		t.Errorf("the older port is shown without saying the newer replaced it:\n%s", ctx)
	}
}

// TestRealClientNoFalseStillFailing: a test script that failed, then passed
// when run with an environment prefix and a flag, is reported in the next
// session's brief as failed then passed, never as still failing.
func TestRealClientNoFalseStillFailing(t *testing.T) {
	w := newWorld(t)
	script := filepath.Join(w.work, "project", "scripts", "test-integration.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "#!/bin/sh\nif [ \"$CI\" = 1 ]; then echo 'integration: 12 passed'; exit 0; fi\necho 'integration: 2 failed (CI not set)' >&2\nexit 1\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	w.session("s1", nil,
		"Run the integration tests RUNBASH ./scripts/test-integration.sh",
		"They need CI set. RUNBASH CI=1 ./scripts/test-integration.sh -v")
	brief := briefOf(t, w.session("s2", nil, "What's next?"))
	t.Logf("brief:\n%s", brief)
	if strings.Contains(brief, "Still failing") {
		t.Errorf("the brief says the passing script still fails:\n%s", brief)
	}
	if !strings.Contains(brief, "test-integration.sh") {
		t.Errorf("the brief does not report the script's runs at all:\n%s", brief)
	}
}

// TestRealClientPastedSessionIsNoDecision: a prompt that pastes a terminal
// session (the command, then what the compiler printed) and then says what
// the team will do stores the user's decision and nothing of the output:
// no memory quotes a compiler line, a position in a file or the status.
func TestRealClientPastedSessionIsNoDecision(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, strings.Join([]string{
		"$ quillc build --target wasm ./cmd/atlasmap",
		"[quillc] compiling 42 units...",
		"src/atlasmap/grid.ql:18:7 error: unknown symbol 'tileSpanQ'",
		"src/atlasmap/grid.ql:31:2 warning: unused binding 'qv'",
		"BUILD FAILED in 3.2s",
		"From now on we build atlasmap with quillc --strict before every release.",
	}, "\n"))
	var got entriesJSON
	if err := json.Unmarshal(w.cli("entries", "--json", "--all-projects"), &got); err != nil {
		t.Fatal(err)
	}
	decided := false
	for _, e := range got.Entries {
		text := e.Title
		for _, v := range e.Evidence {
			text += "\n" + v.Quote
		}
		for _, out := range []string{"compiling 42 units", "grid.ql:", "unknown symbol", "unused binding", "BUILD FAILED"} {
			if strings.Contains(text, out) {
				t.Errorf("a memory quotes the pasted output (%q): %s %q", out, e.Type, e.Title)
			}
		}
		if strings.Contains(text, "--strict") {
			decided = true
		}
	}
	if !decided {
		t.Errorf("the user's decision after the paste is not a memory: %+v", got.Entries)
	}
}

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealClientGlossary: /memory-layer:memory-glossary creates the
// project's glossary and tells Claude where it is; a term written into it is
// explained, its private part left out, in the context Claude receives for a
// prompt that uses it (on a store with no memory about it), and not for one
// that does not.
func TestRealClientGlossary(t *testing.T) {
	w := newWorld(t)
	project := filepath.Join(w.work, "project")
	path := strings.TrimSpace(string(w.cli("glossary", "--path", "--project", project)))
	s1 := w.session("s1", nil, "/memory-layer:memory-glossary")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the slash command did not create the glossary: %v", err)
	}
	reqs := requests(t, s1)
	if len(reqs) == 0 || !strings.Contains(reqs[len(reqs)-1], path) || !strings.Contains(reqs[len(reqs)-1], "Created the glossary") {
		t.Fatalf("the glossary's path did not reach the model; requests: %d", len(reqs))
	}

	text := "# Glossary\n\n## Heron relay / heron\nThe outbound mail gateway of the billing team; it batches invoices every 15 minutes. " +
		"<private>Its admin sits at relay-07.corp.</private>\n\n- **Quiet window**: 02:00 to 04:00 UTC, when no deploys run.\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	const (
		uses  = "Why did the HERON relays stop sending this morning?"
		plain = "How do I reverse a linked list in Python?"
	)
	s2 := w.session("s2", nil, uses, plain)
	reqs = requests(t, s2)
	got := requestWith(t, reqs, uses)
	for _, want := range []string{"[TERMINOLOGY]", "Heron relay (also heron): The outbound mail gateway of the billing team", "[/TERMINOLOGY]"} {
		if !strings.Contains(got, want) {
			t.Errorf("the prompt's context lacks %q:\n%.3000s", want, got)
		}
	}
	if strings.Contains(got, "relay-07") || strings.Contains(got, "Quiet window") {
		t.Errorf("the context holds the private part or a term the prompt did not use:\n%.3000s", got)
	}
	if r := requestWith(t, reqs, plain); strings.Count(r, "[TERMINOLOGY]") != 1 {
		t.Errorf("the prompt using no term got terms of its own (%d blocks in the conversation)", strings.Count(r, "[TERMINOLOGY]"))
	}
}

// TestRealClientInstructionBlocks: the verification checklist and intent
// clarification blocks are absent from injected memories by default and
// present when their settings are on.
func TestRealClientInstructionBlocks(t *testing.T) {
	const ask = "What's the longest the payments worker waits between two webhook delivery attempts?"
	// Each in a world of its own, so that both recall from the same store:
	// in one store the first run's question and answer would be candidates
	// for the second.
	answered := func(extra []string) string {
		w := newWorld(t)
		w.session("s1", nil, "The payments worker retries failed webhook deliveries with exponential backoff, capped at 90 seconds between attempts; the cap lives in config/retry.toml.")
		r := requestWith(t, requests(t, w.session("s2", extra, ask)), ask)
		if injections(r) != 1 || !strings.Contains(r, "90 seconds") {
			t.Fatalf("the question was not answered from memory (env %q):\n%.3000s", extra, r)
		}
		return r
	}
	off := answered(nil)
	if strings.Contains(off, "[VERIFICATION CHECKLIST]") || strings.Contains(off, "[INTENT CLARIFICATION]") {
		t.Errorf("an instruction block by default:\n%.3000s", off)
	}
	on := answered([]string{"CLAUDE_MEMORY_VERIFICATION_CHECKLIST=1", "CLAUDE_MEMORY_INTENT_CLARIFICATION=true"})
	for _, want := range []string{"[VERIFICATION CHECKLIST]", "say which memories you relied on", "[/VERIFICATION CHECKLIST]",
		"[INTENT CLARIFICATION]", "ask the user one short question", "[/INTENT CLARIFICATION]"} {
		if !strings.Contains(on, want) {
			t.Errorf("enabled, the context lacks %q:\n%.4000s", want, on)
		}
	}
}

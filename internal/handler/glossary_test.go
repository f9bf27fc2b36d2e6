package handler

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/glossary"
	"github.com/claude-memory-layer/claude-memory-layer/internal/hook"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/recall"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

// writeGlossary writes the glossary of the project at cwd in data.
func writeGlossary(t testing.TB, data, cwd, text string) string {
	t.Helper()
	path := glossary.Path(data, project.Identify(cwd))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestGlossaryTermInjected runs the prompt hook's binary: a prompt that uses
// a term of the project's glossary gets its definition, with the private
// part and the secret left out, on an empty store; a prompt that uses none
// gets nothing; an edit of the file counts from the next prompt.
func TestGlossaryTermInjected(t *testing.T) {
	data, cwd := t.TempDir(), t.TempDir()
	path := writeGlossary(t, data, cwd, "# Glossary\n\n## Ledger service / ledger\nThe payments service on port 7443.\n"+
		"<private>Runs on box-17.internal.</private>\nAdmin password=Tr0ub4dor-and-3 for ops.\n\n- **Hot path**: the per-request code.\n")
	prompt := func(id, text string) []byte {
		return fmt.Appendf(nil, `{"session_id":"g","cwd":%q,"hook_event_name":"UserPromptSubmit","prompt_id":%q,"prompt":%q}`, cwd, id, text)
	}
	ctxOf := func(r result) string {
		validReply(t, r, "UserPromptSubmit")
		return gjson.Get(r.stdout, "hookSpecificOutput.additionalContext").String()
	}
	got := ctxOf(runBinary(t, "user-prompt-submit", data, prompt("p1", "Why do the LEDGERS time out?")))
	for _, want := range []string{recall.TermsOpen, "- Ledger service (also ledger): The payments service on port 7443.", recall.TermsClose} {
		if !strings.Contains(got, want) {
			t.Errorf("context lacks %q:\n%s", want, got)
		}
	}
	for _, leak := range []string{"box-17", "Tr0ub4dor", "Hot path"} {
		if strings.Contains(got, leak) {
			t.Errorf("context holds %q:\n%s", leak, got)
		}
	}
	if got := ctxOf(runBinary(t, "user-prompt-submit", data, prompt("p2", "center a div please"))); got != "" {
		t.Errorf("a prompt using no term got %q", got)
	}
	if err := os.WriteFile(path, []byte("## Ledger\nRenamed: the billing ledger.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := ctxOf(runBinary(t, "user-prompt-submit", data, prompt("p3", "and the ledger?"))); !strings.Contains(got, "- Ledger: Renamed: the billing ledger.") {
		t.Errorf("after the edit, context:\n%s", got)
	}
	// Injection off for the session: nothing, terms included.
	if got := ctxOf(runBinary(t, "user-prompt-submit", data, prompt("p4", "/memory-layer:memory-off"))); got != "" {
		t.Errorf("memory-off got %q", got)
	}
	if got := ctxOf(runBinary(t, "user-prompt-submit", data, prompt("p5", "the ledger again"))); got != "" {
		t.Errorf("paused session got %q", got)
	}
}

// TestGlossaryBroken checks that a glossary the hook cannot read (a
// directory in its place) costs the prompt nothing but the terms.
func TestGlossaryBroken(t *testing.T) {
	data, cwd := t.TempDir(), t.TempDir()
	path := glossary.Path(data, project.Identify(cwd))
	if err := os.MkdirAll(path, 0o700); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, "user-prompt-submit", data, fmt.Appendf(nil, `{"session_id":"g","cwd":%q,"hook_event_name":"UserPromptSubmit","prompt_id":"p","prompt":"the ledger"}`, cwd))
	validReply(t, r, "UserPromptSubmit")
	if n := len(storedEvents(t, data, store.EventFilter{SessionID: "g", Types: []string{store.TypeUserPrompt}})); n != 1 {
		t.Errorf("%d prompts stored, want 1", n)
	}
}

// BenchmarkPromptGlossary is the prompt hook in-process (config, open,
// recall, spool, close) on a small store, without a glossary and with one
// of a typical size and of the largest size read, the prompt using a term.
func BenchmarkPromptGlossary(b *testing.B) {
	cwd := b.TempDir()
	for _, size := range []int{0, 4 << 10, glossary.MaxFile} {
		b.Run(fmt.Sprintf("glossary=%dKB", size>>10), func(b *testing.B) {
			data := b.TempDir()
			if size > 0 {
				var g strings.Builder
				for i := 0; g.Len() < size-100; i++ {
					fmt.Fprintf(&g, "## Service %d / svc%d\nThe service number %d of the fleet, owned by team %d.\n\n", i, i, i, i%7)
				}
				writeGlossary(b, data, cwd, g.String())
			}
			getenv := func(k string) string {
				if k == "CLAUDE_MEMORY_DIR" {
					return data
				}
				return ""
			}
			var out bytes.Buffer
			for i := 0; b.Loop(); i++ {
				out.Reset()
				in := fmt.Sprintf(`{"session_id":"bench","cwd":%q,"hook_event_name":"UserPromptSubmit","prompt_id":"p%d","prompt":"why does svc12 time out behind the proxy?"}`, cwd, i)
				hook.Run(strings.NewReader(in), &out, io.Discard, hook.Options{Name: "user-prompt-submit", Budget: time.Minute, Getenv: getenv}, UserPromptSubmit(nil))
				b.StopTimer()
				foldSpool(b, data)
				b.StartTimer()
			}
			if size > 0 && !bytes.Contains(out.Bytes(), []byte("Service 12")) {
				b.Fatalf("the term was not injected: %s", out.Bytes())
			}
		})
	}
}

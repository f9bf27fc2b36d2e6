package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/glossary"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
)

// TestGlossaryCommand: without a file the command says where init would
// put it; init creates it once and leaves the user's text alone after; the
// terms are listed, the private part and secrets left out, problems named.
func TestGlossaryCommand(t *testing.T) {
	t.Parallel()
	data, proj := t.TempDir(), t.TempDir()
	vars := map[string]string{"CLAUDE_MEMORY_DIR": data, "HOME": data}
	runIt := func(args ...string) (string, int) {
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] },
			now: func() time.Time { return testNow }}
		code := run(context.Background(), append(args, "--project", proj), e)
		return out.String() + errb.String(), code
	}
	path := glossary.Path(data, project.Identify(proj))

	out, code := runIt("glossary", "--path")
	if code != exitOK || strings.TrimSpace(out) != path {
		t.Fatalf("glossary --path: exit %d, %q; want %q", code, out, path)
	}
	if out, code := runIt("glossary"); code != exitOK || !strings.Contains(out, "No glossary") || !strings.Contains(out, path) {
		t.Fatalf("glossary without a file: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("glossary without init created the file: %v", err)
	}
	if out, code := runIt("glossary", "init"); code != exitOK || !strings.Contains(out, "Created") || !strings.Contains(out, "defines no term") {
		t.Fatalf("glossary init: exit %d\n%s", code, out)
	}
	text := "## Ledger / ledger service\nThe payments service. <private>on box-17</private>\n\n- **Token**: api_key=sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ\n- **Empty**:\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code = runIt("glossary", "init")
	if code != exitOK || strings.Contains(out, "Created") || !strings.Contains(out, "2 terms:") ||
		!strings.Contains(out, "- Ledger (also ledger service): The payments service.") || !strings.Contains(out, `"Empty" has no definition`) {
		t.Fatalf("glossary init over a file: exit %d\n%s", code, out)
	}
	for _, leak := range []string{"box-17", "sk-ant-"} {
		if strings.Contains(out, leak) {
			t.Errorf("output holds %q:\n%s", leak, out)
		}
	}
	out, code = runIt("glossary", "--json")
	var r glossaryReport
	if err := json.Unmarshal([]byte(out), &r); code != exitOK || err != nil {
		t.Fatalf("glossary --json: exit %d, %v\n%s", code, err, out)
	}
	if !r.Exists || r.Path != path || len(r.Terms) != 2 || r.Terms[0].Line != 1 || len(r.Notes) != 1 {
		t.Errorf("glossary --json = %+v", r)
	}
	if _, code := runIt("glossary", "delete"); code != exitUsage {
		t.Errorf("glossary delete: exit %d, want %d", code, exitUsage)
	}
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
}

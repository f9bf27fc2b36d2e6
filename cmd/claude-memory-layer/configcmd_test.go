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

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
)

// TestConfigCommand: a value from config.json, one from the environment and
// an untouched one each show up with their source, in text and in --json.
func TestConfigCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, config.ConfigFile), []byte(`{"recall":{"k":3,"brief_tokens":-1},"llm":{"model":"m1"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"CLAUDE_MEMORY_DIR": dir, "HOME": dir, "CLAUDE_MEMORY_TOKEN_BUDGET": "900", "CLAUDE_MEMORY_LLM_MODEL": "m2"}
	runIt := func(args ...string) (string, string) {
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] },
			now: func() time.Time { return testNow }}
		if code := run(context.Background(), args, e); code != exitOK {
			t.Fatalf("%v: exit %d, stderr %s", args, code, errb.String())
		}
		return out.String(), errb.String()
	}

	out, errs := runIt("config", "--json")
	var got struct {
		DataDir  string      `json:"data_dir"`
		Keys     []configKey `json:"keys"`
		Warnings []string    `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("config --json: %v\n%s", err, out)
	}
	if got.DataDir != dir || len(got.Keys) != len(config.Keys) {
		t.Fatalf("data_dir %q, %d keys: %s", got.DataDir, len(got.Keys), out)
	}
	want := map[string][2]string{ // key: value, source
		"recall.k":            {"3", config.FromFile},
		"recall.token_budget": {"900", config.FromEnv},
		"llm.model":           {"m2", config.FromEnv},      // the environment wins over config.json
		"recall.brief_tokens": {"600", config.FromDefault}, // a refused value leaves the default
		"extractor":           {"offline", config.FromDefault},
	}
	for _, k := range got.Keys {
		if k.Meaning == "" || k.Range == "" {
			t.Errorf("%s has no meaning or range", k.Key)
		}
		if w, ok := want[k.Key]; ok {
			if k.Value != w[0] || k.Source != w[1] {
				t.Errorf("%s = %q from %q, want %q from %q", k.Key, k.Value, k.Source, w[0], w[1])
			}
			delete(want, k.Key)
		}
	}
	if len(want) > 0 {
		t.Errorf("keys missing: %v", want)
	}
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "recall.brief_tokens") || !strings.Contains(errs, "recall.brief_tokens") {
		t.Errorf("warnings %q, stderr %q", got.Warnings, errs)
	}

	text, _ := runIt("config")
	for _, line := range []string{"recall.k ", "recall.token_budget "} {
		i := strings.Index(text, line)
		if i < 0 {
			t.Fatalf("no %q in:\n%s", line, text)
		}
		row := text[i : i+strings.IndexByte(text[i:], '\n')]
		if (line == "recall.k " && !strings.Contains(row, config.FromFile)) ||
			(line == "recall.token_budget " && !strings.Contains(row, "environment (CLAUDE_MEMORY_TOKEN_BUDGET)")) {
			t.Errorf("row %q", row)
		}
	}
}

func TestConfigUsage(t *testing.T) {
	t.Parallel()
	checkUsage(t, []usageCase{
		{"plain", []string{"config"}, exitOK},
		{"stray argument", []string{"config", "recall.k"}, exitUsage},
		{"unknown flag", []string{"config", "--yaml"}, exitUsage},
	})
}

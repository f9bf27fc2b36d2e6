package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDataDir(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"CLAUDE_MEMORY_DIR": "/x/mem", "XDG_DATA_HOME": "/xdg", "HOME": "/h"}, "/x/mem"},
		{map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/h"}, "/xdg/claude-memory-layer"},
		{map[string]string{"HOME": "/h"}, "/h/.local/share/claude-memory-layer"},
	} {
		got, err := DataDir(env(tt.env))
		if err != nil || got != tt.want {
			t.Errorf("DataDir(%v)=%q,%v want %q", tt.env, got, err, tt.want)
		}
	}
	if _, err := DataDir(env(nil)); !errors.Is(err, ErrNoHome) {
		t.Errorf("no HOME: err=%v, want ErrNoHome", err)
	}
}

func TestLoadFileThenEnv(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ConfigFile), []byte(`{"extractor":"anthropic","llm":{"model":"m1"},
		"recall":{"k":3,"token_budget":800,"conflict_severity":"high","citation_trace":false,"brief_tokens":-5}}`), 0o600)
	c, err := Load(env(map[string]string{"CLAUDE_MEMORY_DIR": dir, "CLAUDE_MEMORY_RECALL_K": "7", "CLAUDE_MEMORY_DISABLE": "1",
		"CLAUDE_MEMORY_CONFLICT_WARNINGS": "false", "CLAUDE_MEMORY_TOKEN_BUDGET": "lots"}))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Recall
	if c.Extractor != "anthropic" || c.LLM.Model != "m1" || r.K != 7 || r.TokenBudget != 800 || r.ConflictSeverity != High ||
		r.CitationTrace || r.ConflictWarnings || !c.Disabled || r.BriefTokens != 600 {
		t.Fatalf("config %+v", c)
	}
	// The two bad values are reported and leave their defaults.
	if len(c.Warnings) != 2 || !strings.Contains(strings.Join(c.Warnings, ";"), "CLAUDE_MEMORY_TOKEN_BUDGET") {
		t.Fatalf("warnings %q", c.Warnings)
	}
	if c.DBPath() != filepath.Join(dir, "memory.db") || c.LogPath() != filepath.Join(dir, "claude-memory-layer.log") {
		t.Fatalf("paths %s %s", c.DBPath(), c.LogPath())
	}
}

func TestLoadBadFileKeepsDefaults(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ConfigFile), []byte(`{not json`), 0o600)
	c, err := Load(env(map[string]string{"CLAUDE_MEMORY_DIR": dir, "CLAUDE_MEMORY_EXTRACTOR": "gpt-magic"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Extractor != "offline" || c.Recall.K != 5 || len(c.Warnings) != 2 {
		t.Fatalf("config %+v", c)
	}
}

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
	t.Parallel()
	j := filepath.Join
	for _, tt := range []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", map[string]string{"CLAUDE_MEMORY_DIR": "/x/mem", "XDG_DATA_HOME": "/xdg", "HOME": "/h"}, "/x/mem"},
		{"linux", map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/h"}, "/xdg/claude-memory-layer"},
		{"linux", map[string]string{"HOME": "/h"}, "/h/.local/share/claude-memory-layer"},
		{"freebsd", map[string]string{"HOME": "/h"}, "/h/.local/share/claude-memory-layer"},
		{"darwin", map[string]string{"HOME": "/Users/h"}, "/Users/h/Library/Application Support/claude-memory-layer"},
		{"darwin", map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/Users/h"}, "/xdg/claude-memory-layer"},
		{"windows", map[string]string{"LOCALAPPDATA": j("C:", "Users", "h", "AppData", "Local"), "USERPROFILE": j("C:", "Users", "h"), "HOME": "/home/h"},
			j("C:", "Users", "h", "AppData", "Local", "claude-memory-layer")},
		{"windows", map[string]string{"USERPROFILE": j("C:", "Users", "h")}, j("C:", "Users", "h", "AppData", "Local", "claude-memory-layer")},
		{"windows", map[string]string{"HOME": "/home/h"}, j("/home/h", "AppData", "Local", "claude-memory-layer")},
	} {
		got, err := dataDir(tt.goos, env(tt.env))
		if err != nil || got != tt.want {
			t.Errorf("dataDir(%s, %v)=%q,%v want %q", tt.goos, tt.env, got, err, tt.want)
		}
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if _, err := dataDir(goos, env(nil)); !errors.Is(err, ErrNoHome) {
			t.Errorf("%s, no home: err=%v, want ErrNoHome", goos, err)
		}
	}
	if got, err := DataDir(env(map[string]string{"CLAUDE_MEMORY_DIR": "/x/mem"})); err != nil || got != filepath.Clean("/x/mem") {
		t.Errorf("DataDir=%q,%v", got, err)
	}
}

func TestClaudeDir(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", map[string]string{"CLAUDE_CONFIG_DIR": "/cfg", "HOME": "/h"}, "/cfg"},
		{"linux", map[string]string{"HOME": "/h", "USERPROFILE": "/p"}, filepath.Join("/h", ".claude")},
		{"darwin", map[string]string{"HOME": "/Users/h"}, filepath.Join("/Users/h", ".claude")},
		{"windows", map[string]string{"USERPROFILE": "/p", "HOME": "/h"}, filepath.Join("/p", ".claude")},
		{"windows", map[string]string{"HOME": "/h"}, filepath.Join("/h", ".claude")},
	} {
		got, err := claudeDir(tt.goos, env(tt.env))
		if err != nil || got != tt.want {
			t.Errorf("claudeDir(%s, %v)=%q,%v want %q", tt.goos, tt.env, got, err, tt.want)
		}
	}
	if _, err := claudeDir("windows", env(nil)); !errors.Is(err, ErrNoHome) {
		t.Errorf("no home: err=%v, want ErrNoHome", err)
	}
}

func TestLoadFileThenEnv(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ConfigFile), []byte(`{not json`), 0o600)
	c, err := Load(env(map[string]string{"CLAUDE_MEMORY_DIR": dir, "CLAUDE_MEMORY_EXTRACTOR": "gpt-magic"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Extractor != "offline" || c.Recall.K != Default(dir).Recall.K || len(c.Warnings) != 2 {
		t.Fatalf("config %+v", c)
	}
}

// TestBudget reads the LLM budget caps from config.json: zero or more is
// taken, a negative cap is refused with a warning and leaves no cap.
func TestBudget(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	body := `{"llm":{"budget":{"daily_tokens":50000,"monthly_tokens":-1,"daily_usd":0.5,"monthly_usd":0}}}`
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(env(map[string]string{"CLAUDE_MEMORY_DIR": dir}))
	if err != nil {
		t.Fatal(err)
	}
	want := Budget{DailyTokens: 50000, DailyUSD: 0.5}
	if c.LLM.Budget != want || !c.LLM.Budget.Capped() {
		t.Errorf("budget %+v, want %+v", c.LLM.Budget, want)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "llm.budget.monthly_tokens=-1") {
		t.Errorf("warnings %q, want one on llm.budget.monthly_tokens", c.Warnings)
	}
	if (Budget{}).Capped() {
		t.Error("the default budget is capped")
	}
}

// TestSelfCheck: the self-check is off by default, on from config.json, and
// the environment wins over the file.
func TestSelfCheck(t *testing.T) {
	t.Parallel()
	if Default("").LLM.SelfCheck {
		t.Error("the self-check is on by default")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte(`{"llm":{"self_check":true}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		env  string
		want bool
	}{{"", true}, {"false", false}, {"1", true}} {
		c, err := Load(env(map[string]string{"CLAUDE_MEMORY_DIR": dir, "CLAUDE_MEMORY_SELF_CHECK": tt.env}))
		if err != nil {
			t.Fatal(err)
		}
		if c.LLM.SelfCheck != tt.want || len(c.Warnings) != 0 {
			t.Errorf("CLAUDE_MEMORY_SELF_CHECK=%q: self-check %v (warnings %q), want %v", tt.env, c.LLM.SelfCheck, c.Warnings, tt.want)
		}
	}
}

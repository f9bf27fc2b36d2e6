package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEKeys keeps README's settings table equal to Keys: change a key
// here and the README must follow (the failure prints the table to paste).
func TestREADMEKeys(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- config-keys:begin -->\n", "<!-- config-keys:end -->"
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q section", begin, end)
	}
	if got, want := s[i+len(begin):j], MarkdownTable(); got != want {
		t.Errorf("README.md's settings table differs from config.Keys; put this between the markers:\n%s", want)
	}
}

// TestKeysMatchLoad: every key in Keys is one Load reads from config.json or
// the environment, and is reported as coming from there.
func TestKeysMatchLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := map[string]any{}
	vars := map[string]string{"CLAUDE_MEMORY_DIR": dir}
	for _, k := range Keys {
		if k.Name == "" {
			vars[k.Env] = "1"
			continue
		}
		var v any = k.Default()
		if err := json.Unmarshal([]byte(k.Default()), &v); err != nil {
			v = k.Default() // a string
		}
		m := file
		parts := strings.Split(k.Name, ".")
		for _, p := range parts[:len(parts)-1] {
			if _, ok := m[p]; !ok {
				m[p] = map[string]any{}
			}
			m = m[p].(map[string]any)
		}
		m[parts[len(parts)-1]] = v
	}
	b, _ := json.Marshal(file)
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(env(vars))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) > 0 {
		t.Fatalf("warnings %q for %s", c.Warnings, b)
	}
	for _, k := range Keys {
		want := FromFile
		if k.Name == "" {
			want = FromEnv
		}
		if got := c.Source(k); got != want {
			t.Errorf("%s: source %q, want %q (Load does not read it?)", k.ID(), got, want)
		}
	}
}

package settings

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMergeAndRemoveHooks checks that merging the plugin's hooks keeps the
// user's own, that a second merge changes nothing, and that removing takes
// out only ours.
func TestMergeAndRemoveHooks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plugin := filepath.Join(dir, "plugin")
	if err := os.MkdirAll(filepath.Join(plugin, "hooks"), 0o700); err != nil {
		t.Fatal(err)
	}
	hooksJSON := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/run", "args": ["stop"]}]}]}}`
	if err := os.WriteFile(filepath.Join(plugin, "hooks", "hooks.json"), []byte(hooksJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "claude", "settings.json")
	if err := Write(path, map[string]any{"theme": "dark", "hooks": map[string]any{
		"Stop": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "my-linter"}}}},
	}}); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} {
		changed, err := MergeHooks(path, plugin, "linux", false)
		if err != nil || changed != want {
			t.Fatalf("merge %d: changed=%v, %v; want %v", i+1, changed, err, want)
		}
	}
	s, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	stop, _ := s["hooks"].(map[string]any)["Stop"].([]any)
	if len(stop) != 2 || !HasOurHooks(s) || s["theme"] != "dark" {
		t.Fatalf("after merge: %v", s)
	}
	if cmd := stop[1].(map[string]any)["hooks"].([]any)[0].(map[string]any)["command"]; cmd != plugin+"/hooks/run" {
		t.Errorf("our hook's command = %v, want the plugin's hooks/run", cmd)
	}
	n, err := RemoveHooks(path, false)
	if err != nil || n != 1 {
		t.Fatalf("RemoveHooks = %d, %v; want 1", n, err)
	}
	s, _ = Read(path)
	if HasOurHooks(s) || len(s["hooks"].(map[string]any)["Stop"].([]any)) != 1 {
		t.Errorf("after remove: %v", s)
	}
}

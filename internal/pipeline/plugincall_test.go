package pipeline

import (
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestPluginCallByProgram checks that a Bash call counts as the plugin's CLI
// when it runs it, not when a path on its line merely holds its name (a
// checkout of the plugin, a file in it). Before, any line naming
// claude-memory-layer counted, and its output could vouch for nothing.
func TestPluginCallByProgram(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		input string
		want  bool
	}{
		{"claude-memory-layer search ledger", true},
		{"/home/u/.claude/plugins/memory-layer/bin/claude-memory-layer show mem:ab12cd", true},
		{"FOO=1 timeout 5 claude-memory-layer stats --json", true},
		{"cd /tmp && claude-memory-layer history > /tmp/h.txt", true},
		{"cd /src/claude-memory-layer && go test ./...", false},
		{"cat ~/work/claude-memory-layer/README.md", false},
		{"grep -rn claude-memory-layer .", false},
	} {
		ev := store.Event{Type: store.TypeToolObservation, Text: "Bash: " + tt.input + "\noutput", Payload: []byte(`{"tool":"Bash"}`)}
		if got := PluginCall(ev); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.input, got, tt.want)
		}
	}
}

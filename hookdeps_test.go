package claudememorylayer_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestHooksLinkNoNetworkClient checks that no hook binary links an HTTP
// client or the PostgreSQL driver: the hooks never touch the network, and
// team memory (internal/team, pgx) runs only in the CLI and its worker.
// "net" itself comes in through the standard library and is allowed.
func TestHooksLinkNoNetworkClient(t *testing.T) {
	forbidden := []string{"net/http", "github.com/jackc/", "/internal/team", "/internal/llm"}
	for _, hook := range []string{"session-start", "user-prompt-submit", "post-tool-use", "stop", "session-end"} {
		out, err := exec.Command("go", "list", "-deps", "./cmd/"+hook).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", hook, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, f := range forbidden {
				if strings.Contains(dep, f) {
					t.Errorf("%s links %s", hook, dep)
				}
			}
		}
	}
}

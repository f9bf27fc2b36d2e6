package pipeline

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func tool(name, key string, files []string, isErr bool) store.Event {
	p, _ := json.Marshal(map[string]any{"tool": name, "key": key, "files": files, "is_error": isErr})
	return store.Event{Type: store.TypeToolObservation, Text: key, Payload: p}
}

func prompt(text string) store.Event {
	return store.Event{Type: store.TypeUserPrompt, Text: text}
}

// TestSummary checks the session summary against golden files: what the
// session changed, which commands failed and then passed, what it decided
// and left open, and never the first prompt.
func TestSummary(t *testing.T) {
	sess := store.Session{ID: "s", Cwd: "/home/dev/shop-api"}
	verified := func(typ, title string) store.Entry {
		return store.Entry{Type: typ, Title: title, Stage: store.StageVerified, Status: store.StatusActive}
	}
	tests := []struct {
		name    string
		evs     []store.Event
		entries []store.Entry
	}{
		{"work", []store.Event{
			prompt("/build specs/freight-rate-importer.md"),
			tool("Read", "Read: /home/dev/shop-api/src/app.js", []string{"/home/dev/shop-api/src/app.js"}, false),
			tool("Write", "Write: /home/dev/shop-api/src/middleware/requireJwt.js", []string{"/home/dev/shop-api/src/middleware/requireJwt.js"}, false),
			tool("Edit", "Edit: /home/dev/shop-api/src/app.js", []string{"/home/dev/shop-api/src/app.js"}, false),
			tool("Bash", "Bash: npm test -- test/orders.test.js (error)", nil, true),
			tool("Edit", "Edit: /home/dev/shop-api/test/orders.test.js", []string{"/home/dev/shop-api/test/orders.test.js"}, false),
			tool("Bash", "Bash: npm test -- test/orders.test.js", nil, false),
			tool("Bash", "Bash: npm run lint (error)", nil, true),
		}, []store.Entry{
			verified("decision", "Use RS256 keys stored in ./keys"),
			verified("task", "Rotate the staging key before release"),
			verified("fact", "Database: Postgres 16 on port 6543"),
			{Type: "decision", Title: "Use HS256", Stage: store.StageCandidate, Status: store.StatusActive},
		}},
		{"talk only", []store.Event{prompt("What does this repo do?"), prompt("thanks")}, nil},
		{"one exchange", []store.Event{prompt("Our unit tests run with jest; use npx jest to run them.")},
			[]store.Entry{verified("fact", "Our unit tests run with jest; use npx jest to run them")}},
		{"nothing", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := summary(sess, tt.evs, tt.entries)
			for _, e := range tt.evs {
				if e.Type == store.TypeUserPrompt && strings.Contains(got, e.Text) {
					t.Errorf("summary repeats the prompt %q: %q", e.Text, got)
				}
			}
			file := filepath.Join("testdata", "summary-"+strings.ReplaceAll(tt.name, " ", "-")+".golden")
			if *update {
				if err := os.WriteFile(file, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if got+"\n" != string(want) {
				t.Errorf("summary\n got %q\nwant %q (go test -update rewrites it)", got, strings.TrimSuffix(string(want), "\n"))
			}
		})
	}
}

// TestSummaryPrefixedRun checks that a command that failed and then passed
// when run with an environment prefix, a directory change or a redirect is
// reported as fixed, not as still failing.
func TestSummaryPrefixedRun(t *testing.T) {
	evs := []store.Event{
		prompt("run the integration tests"),
		tool("Bash", "Bash: ./scripts/check-all.sh (error)", nil, true),
		tool("Bash", "Bash: SKIP_SLOW=1 ./scripts/check-all.sh --verbose 2>&1 | tail -5", nil, false),
		tool("Bash", "Bash: make lint (error)", nil, true),
		tool("Bash", "Bash: cd web && make lint", nil, false),
	}
	got := summary(store.Session{ID: "s", Cwd: "/home/dev/app"}, evs, nil)
	if strings.Contains(got, "Still failing") || !strings.Contains(got, "Failed, then passed") {
		t.Errorf("summary = %q; want both commands fixed and none still failing", got)
	}
}

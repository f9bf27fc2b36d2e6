package question

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
)

func TestFor(t *testing.T) {
	var cache claim.Cache
	for _, tt := range []struct {
		typ, subject, text string
		want               []string
	}{
		// A tool role: which one the project chose, whatever the wording.
		{"decision", "package manager", "We use pnpm for the workspace", []string{"Which package manager do we use?"}},
		{"decision", "package manager", "pnpm it is, npm is too slow here", []string{"Which package manager do we use?"}},
		// A shape role, for the subject that holds it.
		{"fact", "ledger service", "The ledger service listens on port 7443", []string{"What port does ledger service use?"}},
		// No role: the kind asks about the subject.
		{"lesson", "flaky upload test", "The flaky upload test failed because the bucket was not mocked", []string{"What went wrong with flaky upload test and how was it fixed?"}},
		{"task", "rate limiter", "Add a rate limiter later", []string{"What is left to do on rate limiter?"}},
		// A lesson whose subject is its cause asks of what its title says failed.
		{"lesson", "bucket mocked", "The upload test failed because the bucket was not mocked.\nFixed by mocking it.", []string{"What went wrong with upload test and how was it fixed?"}},
		{"lesson", "clock skewed", "The nightly export silently crashed because the clock skewed", []string{"What went wrong with nightly export and how was it fixed?"}},
		{"lesson", "pool exhausted", "Ledger sync timed out because the pool exhausted", []string{"What went wrong with ledger sync and how was it fixed?"}},
		{"lesson", "quota reached", "It stopped because the quota was reached", nil},
		// A subject of function words names nothing to ask about.
		{"fact", "to", "To: see above", nil},
		// The subject as the text writes it: an index stem read as its
		// word, the marks that join a name kept.
		{"decision", "gard", "We keep the garden beds on the north side", []string{"What was decided about garden?"}},
		{"fact", "http localhost 7700", "The preview answers at http://localhost:7700 once built", []string{"What is http://localhost:7700?"}},
		// No question rather than one on a fragment: a word cut from inside
		// another, a phrase the text splits, a clause.
		{"fact", "ocalhost 7700", "The preview answers at http://localhost:7700 once built", nil},
		{"fact", "preview answers http", "The preview answers at http://localhost:7700 once built", nil},
		// (A lesson asks of what its title says failed instead.)
		{"lesson", "upload test quietly", "The upload test failed quietly because the bucket was not mocked", []string{"What went wrong with upload test and how was it fixed?"}},
		{"fact", "ledger schema updated", "Ledger schema updated with a currency column", nil},
		// A role's question asks of the subject only when the statement of
		// the value names it; a port is always of something.
		{"fact", "pnpm dev", "Run pnpm dev to start everything", []string{"Which package manager do we use?"}},
		{"fact", "7443", "It listens on port 7443", nil},
		// A subject that holds the number asks of what else it names.
		{"fact", "ledger port 7443", "We serve the ledger on port 7443", []string{"What port does ledger use?"}},
		{"fact", "7443 ledger", "Port 7443 is taken by the ledger.", []string{"What port does ledger use?"}},
		// Nor of a subject that is a script the tool runs, or a role itself.
		{"fact", "deploy", "Run pnpm deploy after the build", []string{"Which package manager do we use?"}},
		{"fact", "framework", "The framework is Next.js on the kiosk", []string{"Which frontend framework do we use?"}},
		// A file sets the tool, it does not use it; a tool's command is run,
		// not found.
		{"fact", ".env", "The .env file says we use jwt for sessions", []string{"Which auth method do we use?"}},
		{"fact", "pnpm dev", "Run pnpm dev from apps/kiosk/ to start it", []string{"Which package manager do we use?"}},
		// A Korean word is written whole with its particle on it.
		{"lesson", "빌드 캐시", "빌드 캐시는 오래된 파일을 지우지 않았습니다", []string{"What went wrong with 빌드 캐시 and how was it fixed?"}},
		{"constraint", "브랜치 이름", "브랜치 이름은 항상 소문자로 씁니다", []string{"What rule applies to 브랜치 이름?"}},
		{"fact", "장부 서버", "장부 서버는 포트 7443에서 실행됩니다", []string{"What port does 장부 서버 use?"}},
		{"fact", "장", "장부 서버는 포트 7443에서 실행됩니다", nil}, // a syllable of a longer word
		// A word of every sentence names nothing to ask about.
		{"lesson", "once", "Once the cache warmed the flaky upload test passed", nil},
		// Nor does a kind without a question of its own (a digest).
		{"digest", "session 3afa26d2", "Asked: the deploy", nil},
	} {
		if got := For(tt.typ, tt.subject, tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("For(%q, %q, %q) = %q, want %q", tt.typ, tt.subject, tt.text, got, tt.want)
		}
		// Through a cache, cold and warm, the same.
		for range 2 {
			if got := ForWith(tt.typ, tt.subject, tt.text, &cache); !slices.Equal(got, tt.want) {
				t.Errorf("ForWith(%q, %q, %q) = %q, want %q", tt.typ, tt.subject, tt.text, got, tt.want)
			}
		}
	}
}

// FuzzFor: a memory's subject and text come from a session's messages, any
// bytes; For ends on any of them, and each question it builds is one line of
// valid UTF-8 ending in a question mark.
func FuzzFor(f *testing.F) {
	for _, s := range [][3]string{
		{"fact", "ledger service", "The ledger service listens on port 7443"},
		{"decision", "gard", "We keep the garden beds on the north side"},
		{"fact", "http localhost 7700", "The preview answers at http://localhost:7700 once built"},
		{"task", "", "\xff\xfe: ?"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, typ, subject, text string) {
		for _, q := range For(typ, subject, text) {
			if !utf8.ValidString(q) || strings.ContainsAny(q, "\n\r") || !strings.HasSuffix(q, "?") {
				t.Fatalf("For(%q, %q, %q): question %q", typ, subject, text, q)
			}
		}
	})
}

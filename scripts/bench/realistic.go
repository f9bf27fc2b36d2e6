//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// The realistic store is what a project's history looks like after months of
// use: coding sessions of 100 messages whose decisions, facts and lessons
// recur across sessions (a project's test runner is mentioned in most of
// them), so a few entries carry hundreds of evidence rows, and some choices
// are reversed later (conflicts). It is made the way a real store is, by
// importing transcripts through the CLI, so entries, evidence, roles and
// conflicts are what the pipeline makes of them.

// claims are the statements sessions repeat. Earlier ones are said far more
// often (pickSkewed), as a project's settled choices are; the pairs that
// disagree make the ledger's conflicts.
var claims = []string{
	"We'll use vitest for the unit tests, it runs the suite in 4 seconds.",
	"We'll use pnpm workspaces as the package manager for the monorepo.",
	"The orders API verifies JWTs signed with RS256 keys stored in ./keys.",
	"We decided to keep the job queue on Redis 7 with TLS.",
	"Always run `pnpm migrate` before deploying the Postgres schema.",
	"The API server listens on port 8443 in every environment.",
	"We deploy the staging cluster with GitHub Actions on every merge to main.",
	"Lesson: the webhook handler must answer within 3 seconds or Stripe retries it.",
	"We'll use biome as the linter and formatter.",
	"The cache layer expires order summaries after 300 seconds.",
	"We decided to log errors as JSON lines with pino.",
	"Prefer small pull requests: one migration per PR.",
	"We switched the unit tests from jest to vitest last sprint.",
	"We'll use RabbitMQ for the job queue instead of Redis.",
	"The API server listens on port 8080 behind the load balancer.",
	"We'll use npm as the package manager; pnpm broke the Docker build.",
	"We decided to sign JWTs with a shared HS256 secret for now.",
	"We'll use eslint and prettier, biome missed the import rules.",
	"Lesson: the migration script times out on tables above 10 million rows; batch it.",
	"The feature flag LEDGER_V2 stays off in production until the audit.",
}

// pickSkewed picks an index in [0, n), low indexes far more often.
func pickSkewed(r *rand.Rand, n int) int {
	f := r.Float64()
	return int(float64(n) * f * f * f)
}

// realisticSessions writes sessions of 100 messages (50 prompt/answer turns,
// every fifth with a Bash tool call) into dir until they hold messages
// messages or bytes bytes, whichever is set, and returns how many messages.
func realisticSessions(r *rand.Rand, dir string, messages, bytes int) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	t0 := time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)
	total, size := 0, 0
	for i := 0; (messages > 0 && total < messages) || (bytes > 0 && size < bytes); i++ {
		sid := fmt.Sprintf("real-%05d", i)
		b := realisticTranscript(r, sid, t0.Add(time.Duration(i)*3*time.Hour), i)
		if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), b, 0o600); err != nil {
			return 0, err
		}
		total += 100
		size += len(b)
	}
	return total, nil
}

func realisticTranscript(r *rand.Rand, sid string, start time.Time, n int) []byte {
	var b bytes.Buffer
	line := func(v map[string]any) {
		j, _ := json.Marshal(v)
		b.Write(j)
		b.WriteByte('\n')
	}
	for t := range 50 {
		ts := start.Add(time.Duration(t) * time.Minute)
		stamp := func(s int) string { return ts.Add(time.Duration(s) * time.Second).Format("2006-01-02T15:04:05.000Z") }
		base := func(typ, uuid string, s int) map[string]any {
			return map[string]any{"type": typ, "uuid": fmt.Sprintf("%s-%s%d", sid, uuid, t), "sessionId": sid,
				"cwd": "/home/dev/shop-api", "timestamp": stamp(s)}
		}
		u := base("user", "u", 0)
		u["promptId"] = fmt.Sprintf("%s-p%d", sid, t)
		prompt := "Please look at " + pick(r, files) + ": " + sentence(r)
		if r.IntN(6) == 0 {
			prompt += " " + claims[pickSkewed(r, len(claims))]
		}
		u["message"] = map[string]any{"role": "user", "content": prompt}
		line(u)
		if t%5 == 2 {
			tool := fmt.Sprintf("toolu_%s_%d", sid, t)
			a := base("assistant", "t", 1)
			a["message"] = map[string]any{"id": fmt.Sprintf("msg-%s-t%d", sid, t), "role": "assistant",
				"content": []any{map[string]any{"type": "tool_use", "id": tool, "name": "Bash", "input": map[string]any{"command": "pnpm test -- " + pick(r, files)}}}}
			line(a)
			res := base("user", "r", 2)
			res["message"] = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": tool,
				"content": "FAIL " + pick(r, files) + "\n" + sentence(r) + "\nTests: 3 failed, 41 passed"}}}
			line(res)
		}
		answer := sentence(r) + " " + sentence(r) + " I changed " + pick(r, files) + "."
		if r.IntN(3) == 0 {
			answer += " " + claims[pickSkewed(r, len(claims))]
		}
		if t == 25 && n%9 == 4 {
			// A specific fact said in a few sessions: the benchmark prompt asks about it.
			answer += fmt.Sprintf(" The staging pgbouncer listens on port %d behind haproxy on db-gw-%d.", 6400+n%7, n%13)
		}
		a := base("assistant", "a", 30)
		a["message"] = map[string]any{"id": fmt.Sprintf("msg-%s-%d", sid, t), "role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": answer}}, "stop_reason": "end_turn"}
		line(a)
	}
	return b.Bytes()
}

// seedRealistic imports realistic sessions of n messages in all into the
// store in dataDir with the CLI in binDir.
func seedRealistic(binDir, dataDir string, n int) error {
	hist, err := os.MkdirTemp("", "cml-history-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(hist)
	if _, err := realisticSessions(rand.New(rand.NewPCG(42, uint64(n))), hist, n, 0); err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(binDir, "claude-memory-layer"), "import", "--dir", hist, "--json")
	cmd.Env = []string{"CLAUDE_MEMORY_DIR=" + dataDir, "HOME=" + dataDir, "PATH=" + os.Getenv("PATH")}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("import: %v\n%s", err, out)
	}
	return nil
}

// storeCounts are the rows a seeded store holds, for the table.
type storeCounts struct{ events, entries, evidence, conflicts int }

func countStore(path string) (storeCounts, error) {
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		return storeCounts{}, err
	}
	defer db.Close()
	var c storeCounts
	for q, v := range map[string]*int{"events": &c.events, "entries": &c.entries, "evidence": &c.evidence, "conflicts": &c.conflicts} {
		if err := db.SQL().QueryRowContext(ctx, "SELECT count(*) FROM "+q).Scan(v); err != nil {
			return c, err
		}
	}
	return c, nil
}

// importRealistic imports a realistic history of about 50 MB into a fresh
// store and prints the throughput.
func importRealistic(binDir, tmp string) error {
	dir := filepath.Join(tmp, "history-realistic")
	if _, err := realisticSessions(rand.New(rand.NewPCG(9, 9)), dir, 0, 50<<20); err != nil {
		return err
	}
	err := importLine(binDir, tmp, dir, "realistic sessions of 100 messages, claims recurring across sessions")
	os.RemoveAll(dir)
	return err
}

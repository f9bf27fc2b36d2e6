package torture

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestCrashRecovery kills a Stop hook on a big transcript, a SessionEnd hook,
// the worker and an import of several MB at seeded random moments, round after
// round. After every kill the store must pass integrity_check; running the
// command again must complete the work; and the final store must hold exactly
// what a run of the same commands without kills produced.
func TestCrashRecovery(t *testing.T) {
	need(t)
	const seed = 7_2026_11
	rounds, liveTurns, importFiles, importTurns := 30, 300, 3, 100
	if quick() {
		rounds, liveTurns, importTurns = 4, 100, 30
	}
	began := time.Now()
	root := t.TempDir()
	liveProj, importProj, importDir := filepath.Join(root, "proj-live"), filepath.Join(root, "proj-import"), filepath.Join(root, "import")
	for _, d := range []string{liveProj, importProj, importDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	live := newConversation(rand.New(rand.NewPCG(seed, 1)), "crash-live", "L", liveProj, liveTurns, 1000)
	tp := filepath.Join(root, "live.jsonl")
	live.write(t, tp)
	size := int64(len(live.transcript()))
	for k := range importFiles {
		c := newConversation(rand.New(rand.NewPCG(seed, uint64(10+k))), fmt.Sprintf("crash-imp-%d", k), fmt.Sprintf("I%d", k), importProj, importTurns, 3000)
		c.write(t, filepath.Join(importDir, c.ID+".jsonl"))
		size += int64(len(c.transcript()))
	}
	t.Logf("seed %d: %d rounds; %.1f MB of transcripts (live session %d turns, %d imported × %d turns)",
		seed, rounds, float64(size)/(1<<20), liveTurns, importFiles, importTurns)

	steps := []struct {
		name string
		p    proc
	}{
		{"stop", proc{bin: "stop", stdin: live.stopInput(tp, liveTurns-1)}},
		{"session-end", proc{bin: "session-end", stdin: live.endInput(tp)}},
		{"process", proc{bin: "claude-memory-layer", args: []string{"process", "--session", live.ID}}},
		{"import", proc{bin: "claude-memory-layer", args: []string{"import", "--dir", importDir, "--json"}}},
	}
	// finish runs a step to completion and returns how long the process ran.
	finish := func(data string, step int) (time.Duration, error) {
		p := steps[step].p
		p.dataDir = data
		r := run(p)
		waitWorkers(t, data, 2*time.Minute)
		if r.code != 0 || r.err != nil {
			return r.took, fmt.Errorf("%s: exit %d err %v stderr %q", steps[step].name, r.code, r.err, clip(r.stderr, 500))
		}
		if steps[step].name == "import" && !strings.Contains(r.stdout, `"sessions_failed": 0`) {
			return r.took, fmt.Errorf("import: %s", r.stdout)
		}
		return r.took, nil
	}

	// The reference: the same commands, never killed.
	ref := newDataDir(t)
	took := make([]time.Duration, len(steps))
	for i := range steps {
		d, err := finish(ref, i)
		if err != nil {
			t.Fatalf("reference run: %v", err)
		}
		took[i] = d
	}
	want := snapshotStore(t, dbPath(ref))
	t.Logf("reference: %s; took %v", want.summary(), took)

	kills, hits := map[string]int{}, map[string]int{}
	var slowest time.Duration
	for round := range rounds {
		roundStart := time.Now()
		r := rand.New(rand.NewPCG(seed, uint64(1000+round)))
		data := newDataDir(t)
		var trace []string
		for i, st := range steps {
			for n := 1 + r.IntN(2); n > 0; n-- {
				// Uniform over the reference run's duration: most kills land
				// while the process works, a few before it has opened the store.
				delay := time.Duration(r.Int64N(int64(took[i])))
				p := st.p
				p.dataDir = data
				res := runKill(p, delay)
				kills[st.name]++
				trace = append(trace, fmt.Sprintf("%s kill@%v killed=%v", st.name, delay.Round(time.Millisecond), res.killed))
				if res.killed {
					hits[st.name]++
				}
				waitWorkers(t, data, 2*time.Minute)
				if _, err := os.Stat(dbPath(data)); err != nil {
					continue // killed before the store was created
				}
				if v, err := integrity(dbPath(data)); err != nil || v != "ok" {
					t.Fatalf("round %d (seed %d, stream %d) after %s: integrity_check = %q, %v\ntrace: %v", round, seed, 1000+round, st.name, v, err, trace)
				}
			}
			if _, err := finish(data, i); err != nil {
				t.Fatalf("round %d (seed %d, stream %d): re-run did not complete: %v\ntrace: %v", round, seed, 1000+round, err, trace)
			}
		}
		got := snapshotStore(t, dbPath(data))
		if diff := want.diff(got); diff != "" {
			t.Errorf("round %d (seed %d, stream %d): store differs from the reference:\n%s\ntrace: %v", round, seed, 1000+round, diff, trace)
		}
		slowest = max(slowest, time.Since(roundStart))
		if round == 0 || (round+1)%10 == 0 {
			t.Logf("round %d took %v (at %v): %v", round, time.Since(roundStart).Round(time.Millisecond), time.Since(began).Round(time.Millisecond), trace)
		}
		os.RemoveAll(data)
	}
	var names []string
	for n := range kills {
		names = append(names, fmt.Sprintf("%s %d/%d", n, hits[n], kills[n]))
	}
	sort.Strings(names)
	t.Logf("kills that landed while the process ran (per command, landed/tried): %s", strings.Join(names, ", "))
	t.Logf("total %v; slowest round %v", time.Since(began).Round(time.Millisecond), slowest.Round(time.Millisecond))
}

// storeSnapshot is what must not depend on crashes: the events by identity,
// the entries by claim with their evidence and conflicts, and the sessions.
type storeSnapshot struct {
	events, entries, evidence, conflicts, sessions map[string]bool
	dupTexts                                       int
}

func snapshotStore(t testing.TB, path string) storeSnapshot {
	t.Helper()
	db := openRO(t, path)
	defer db.Close()
	set := func(q string) map[string]bool {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		out := map[string]bool{}
		for rows.Next() {
			vals := make([]sql.NullString, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = v.String
			}
			out[strings.Join(parts, " | ")] = true
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	return storeSnapshot{
		events: set(`SELECT type, session_id, dedupe_key FROM events`),
		entries: set(`SELECT project, claim_key, session_id, type, stage, status, title, body, promotion_blocked,
			(SELECT claim_key FROM entries s WHERE s.id = e.superseded_by) FROM entries e`),
		evidence: set(`SELECT e.claim_key, v.session_id, v.quote_hash, v.method, v.span_start, v.span_end, v.source_uuid,
			(SELECT dedupe_key FROM events WHERE id = v.event_id) FROM evidence v JOIN entries e ON e.id = v.entry_id`),
		conflicts: set(`SELECT o.claim_key, n.claim_key, c.kind, c.reason FROM conflicts c
			JOIN entries o ON o.id = c.older JOIN entries n ON n.id = c.newer`),
		sessions: set(`SELECT id, project, ingest_offset, ended_at <> '', end_reason, summary FROM sessions`),
		dupTexts: queryInt(t, db, `SELECT count(*) FROM (SELECT 1 FROM events
			WHERE type IN ('user_prompt', 'agent_response', 'tool_observation')
			GROUP BY session_id, type, text HAVING count(*) > 1)`),
	}
}

func (s storeSnapshot) summary() string {
	return fmt.Sprintf("%d events, %d entries, %d evidence rows, %d conflicts, %d sessions",
		len(s.events), len(s.entries), len(s.evidence), len(s.conflicts), len(s.sessions))
}

// diff describes how got differs from s, or returns "".
func (s storeSnapshot) diff(got storeSnapshot) string {
	var b strings.Builder
	cmp := func(name string, want, got map[string]bool) {
		var missing, extra []string
		for k := range want {
			if !got[k] {
				missing = append(missing, k)
			}
		}
		for k := range got {
			if !want[k] {
				extra = append(extra, k)
			}
		}
		sort.Strings(missing)
		sort.Strings(extra)
		if len(missing)+len(extra) > 0 {
			fmt.Fprintf(&b, "%s: %d missing, %d extra\n", name, len(missing), len(extra))
			for _, k := range missing[:min(len(missing), 5)] {
				fmt.Fprintf(&b, "  - %s\n", clip(k, 300))
			}
			for _, k := range extra[:min(len(extra), 5)] {
				fmt.Fprintf(&b, "  + %s\n", clip(k, 300))
			}
		}
	}
	cmp("events", s.events, got.events)
	cmp("entries", s.entries, got.entries)
	cmp("evidence", s.evidence, got.evidence)
	cmp("conflicts", s.conflicts, got.conflicts)
	cmp("sessions", s.sessions, got.sessions)
	if got.dupTexts != 0 {
		fmt.Fprintf(&b, "%d (session, type, text) groups stored more than once\n", got.dupTexts)
	}
	return b.String()
}

package recall

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/capture"
	"github.com/claude-memory-layer/claude-memory-layer/internal/pipeline"
	"github.com/claude-memory-layer/claude-memory-layer/internal/project"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/transcript"
)

// TestLoCoMo measures Search on the LoCoMo dev split in-process, the way
// scripts/locomo.sh measures it through the CLI: import each conversation into
// a fresh store through the live pipeline, search each question, score
// recall@k and uuids@k as score.py does. It is for tuning; set CML_LOCOMO=1,
// and LOCOMO_DIR to the evaluation set's folder (default: ../shared/eval/locomo
// beside the repository, where the evaluation data lives; the test suite
// itself never reads it). Once asked for, missing data fails the test.
func TestLoCoMo(t *testing.T) {
	t.Parallel()
	if os.Getenv("CML_LOCOMO") == "" {
		t.Skip("set CML_LOCOMO=1 to run the LoCoMo dev evaluation")
	}
	dir := filepath.Join("..", "..", "..", "shared", "eval", "locomo")
	if d := os.Getenv("LOCOMO_DIR"); d != "" {
		dir = d
	}
	dir = filepath.Join(dir, "dev")
	qs := loadQuestions(t, filepath.Join(dir, "questions.jsonl"))
	byConv := map[string][]question{}
	for _, q := range qs {
		byConv[q.Conv] = append(byConv[q.Conv], q)
	}
	type agg struct {
		r5, r10, u5, u10 float64
		n                int
	}
	cats := map[string]*agg{}
	add := func(k string, r5, r10, u5, u10 float64) {
		a := cats[k]
		if a == nil {
			a = &agg{}
			cats[k] = a
		}
		a.r5 += r5
		a.r10 += r10
		a.u5 += u5
		a.u10 += u10
		a.n++
	}
	convs := make([]string, 0, len(byConv))
	for c := range byConv {
		convs = append(convs, c)
	}
	sort.Strings(convs)
	for _, conv := range convs {
		db := importConv(t, filepath.Join(dir, "transcripts", conv))
		for _, q := range byConv[conv] {
			res, err := Search(context.Background(), db, SearchOptions{Query: q.Question, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			r5, u5 := score(q.Evidence, res, 5)
			r10, u10 := score(q.Evidence, res, 10)
			add(q.CategoryName, r5, r10, u5, u10)
			add("all", r5, r10, u5, u10)
			if q.Category != 5 {
				add("non-adv", r5, r10, u5, u10)
			}
		}
	}
	for _, k := range []string{"single-hop", "multi-hop", "temporal", "open-domain", "adversarial", "non-adv", "all"} {
		a := cats[k]
		if a == nil {
			continue
		}
		n := float64(a.n)
		t.Logf("%-12s n=%3d recall@5 %.1f recall@10 %.1f uuids@5 %.1f uuids@10 %.1f", k, a.n, 100*a.r5/n, 100*a.r10/n, a.u5/n, a.u10/n)
	}
}

type question struct {
	QID          string   `json:"qid"`
	Conv         string   `json:"conv"`
	Question     string   `json:"question"`
	Category     int      `json:"category"`
	CategoryName string   `json:"category_name"`
	Evidence     []string `json:"evidence_uuids"`
}

func loadQuestions(t *testing.T, path string) []question {
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("LoCoMo data (set LOCOMO_DIR): %v", err)
	}
	defer f.Close()
	var qs []question
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var q question
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		qs = append(qs, q)
	}
	return qs
}

func score(evidence []string, res []Result, k int) (recall, uuids float64) {
	got := map[string]bool{}
	for _, r := range res[:min(k, len(res))] {
		for _, u := range r.SourceUUIDs {
			got[u] = true
		}
	}
	hit := 0
	for _, e := range evidence {
		if got[e] {
			hit++
		}
	}
	return float64(hit) / float64(len(evidence)), float64(len(got))
}

// importConv imports every transcript of a conversation as the CLI's import does.
func importConv(t *testing.T, dir string) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	rec := &capture.Recorder{DB: db, Log: log}
	p := &pipeline.Processor{DB: db, Extractor: pipeline.Offline{}, Log: log}
	for _, f := range files {
		b, err := transcript.ReadFile(f, 0, true)
		if err != nil || len(b.Messages) == 0 {
			t.Fatalf("read %s: %v", f, err)
		}
		m := b.Messages[0]
		sid := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		if err := db.Update(ctx, func(tx *store.Tx) error {
			return tx.TouchSession(ctx, store.Session{ID: sid, Project: project.Identify(m.Cwd), Cwd: m.Cwd, TranscriptPath: f, Source: "import", StartedAt: m.Timestamp})
		}); err != nil {
			t.Fatal(err)
		}
		s, _ := db.Read().Session(ctx, sid)
		if _, err := rec.Ingest(ctx, s, true); err != nil {
			t.Fatal(err)
		}
		if os.Getenv("CML_LOCOMO_NOEXTRACT") == "" {
			if _, err := p.Process(ctx, sid); err != nil {
				t.Fatal(fmt.Errorf("process %s: %w", sid, err))
			}
		}
	}
	return db
}

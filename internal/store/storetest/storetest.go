// Package storetest builds store contents for other packages' tests.
package storetest

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// QuotedEntry stores a verified memory of project quoted once in each of n
// sessions, as a claim said in every session is: session i's prompt is
// quote(i), said an hour after session i-1's, and the memory's i-th quote
// is all of it. It returns the memory.
func QuotedEntry(tb testing.TB, db *store.DB, project, title string, n int, quote func(i int) string) store.Entry {
	tb.Helper()
	ctx := context.Background()
	t0 := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	var evidence []store.Evidence
	for i := range n {
		s := fmt.Sprintf("quoted-%03d", i)
		text := quote(i)
		var id int64
		if err := db.Update(ctx, func(tx *store.Tx) error {
			res, err := tx.Append(ctx, store.Event{Time: t0.Add(time.Duration(i) * time.Hour), Type: store.TypeUserPrompt,
				SessionID: s, Project: project, Text: text, DedupeKey: "quoted:" + s})
			if err == nil && len(res.IDs) == 1 {
				id = res.IDs[0]
			}
			return err
		}); err != nil {
			tb.Fatal(err)
		}
		evidence = append(evidence, store.Evidence{EventID: id, SessionID: s, Quote: text, SpanEnd: len(text), Method: "exact", Confidence: 1})
	}
	x, _, err := db.PutEntry(ctx, store.Entry{Project: project, SessionID: "quoted-000", Type: "fact", Title: title,
		ClaimKey: "quoted|" + title, Stage: store.StageVerified, Created: t0, Evidence: evidence})
	if err != nil {
		tb.Fatal(err)
	}
	return x
}

// Open opens a new store in a temporary directory, closed when the test
// ends.
func Open(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// OldStore writes at path a store as the first release wrote it (the store
// package's testdata/v1.db, 300 prompts), padded to at least size bytes:
// one a hook must leave to a background upgrade when size is over its limit.
func OldStore(tb testing.TB, path string, size int64) {
	tb.Helper()
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("no caller information to find testdata/v1.db by")
	}
	v1, err := os.ReadFile(filepath.Join(filepath.Dir(self), "..", "testdata", "v1.db"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, v1, 0o600); err != nil {
		tb.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		tb.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`CREATE TABLE pad (b BLOB); INSERT INTO pad VALUES (zeroblob(?))`, size); err != nil {
		tb.Fatal(err)
	}
}

// ToolHeads returns the first line of each tool observation db holds, in
// the log's order: the tool and what it was called on ("Edit: /p/docs.md").
func ToolHeads(tb testing.TB, db *store.DB) []string {
	tb.Helper()
	evs, err := db.Read().Events(context.Background(), store.EventFilter{})
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		if e.Type == store.TypeToolObservation {
			head, _, _ := strings.Cut(e.Text, "\n")
			out = append(out, head)
		}
	}
	return out
}

// NotOnDisk fails tb for each of words that the store's file at path or its
// write-ahead log holds, in any case: a privacy test's proof that a text is
// gone from the disk, not only from what queries return.
func NotOnDisk(tb testing.TB, path string, words ...string) {
	tb.Helper()
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			tb.Fatal(err)
		}
		b = bytes.ToLower(b)
		for _, w := range words {
			if n := bytes.Count(b, []byte(strings.ToLower(w))); n > 0 {
				tb.Errorf("%s holds %q %d times", filepath.Base(path+suffix), w, n)
			}
		}
	}
}

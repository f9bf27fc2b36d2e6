package store

import (
	"context"
	"database/sql"
	"sort"
	"strings"
)

// queryIDs runs a query that selects one column of ids.
func queryIDs(ctx context.Context, t *Tx, query string, args ...any) ([]int64, error) {
	return queryColumn[int64](ctx, t, query, args...)
}

// queryColumn runs a query of one column and returns its values.
func queryColumn[T any](ctx context.Context, t *Tx, query string, args ...any) ([]T, error) {
	return queryAll(ctx, t, query, func(r *sql.Rows) (v T, err error) { return v, r.Scan(&v) }, args...)
}

// queryAll runs a query and returns its rows as scan reads each.
func queryAll[T any](ctx context.Context, t *Tx, query string, scan func(*sql.Rows) (T, error), args ...any) ([]T, error) {
	rows, err := t.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// chunkSize keeps IN lists well under SQLite's limit on bound parameters.
const chunkSize = 500

func chunks(ids []int64) [][]int64 {
	var out [][]int64
	for len(ids) > 0 {
		n := min(chunkSize, len(ids))
		out = append(out, ids[:n])
		ids = ids[n:]
	}
	return out
}

func chunkStrings(ss []string) [][]string {
	var out [][]string
	for len(ss) > 0 {
		n := min(chunkSize, len(ss))
		out = append(out, ss[:n])
		ss = ss[n:]
	}
	return out
}

func int64Args(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

func stringArgs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func keys(m map[int64]bool) []int64 {
	out := make([]int64, 0, len(m))
	for id, ok := range m {
		if ok {
			out = append(out, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// sqlStrings is vs as a list of SQL string literals, for an IN list of the
// store's own names (event types, stages, statuses): the query's text is
// then the same on every call and the readers' cache keeps it prepared,
// where a list of placeholders marks a query as one whose text varies
// (readStmt). A prompt reads a recalled message's neighbours dozens of times.
func sqlStrings(vs []string) string {
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("'" + strings.ReplaceAll(v, "'", "''") + "'")
	}
	return b.String()
}

func placeholders(n int) string { return repeated("?", n) }

// repeated is n copies of s separated by commas: a list of placeholders,
// or the rows of a multi-row INSERT's VALUES.
func repeated(s string, n int) string {
	return strings.TrimSuffix(strings.Repeat(s+",", n), ",")
}

package store

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// Day is one day's activity of a project: memories created, memories
// injected into prompts, and memories answers cited after being shown them.
type Day struct {
	Date     string // 2006-01-02, UTC
	Memories int
	Injected int
	Used     int
}

// Daily counts a project's activity ("" for every project) per day from
// since on, oldest first; days with nothing are left out.
func (db *DB) Daily(ctx context.Context, project string, since time.Time) ([]Day, error) {
	by := map[string]*Day{}
	var order []string
	get := func(d string) *Day {
		if by[d] == nil {
			by[d] = &Day{Date: d}
			order = append(order, d)
		}
		return by[d]
	}
	from := FormatTime(since)
	for _, c := range []struct {
		q    string
		args []any
		set  func(*Day, int)
	}{
		{`SELECT substr(created_at, 1, 10), count(*) FROM entries WHERE (? = '' OR project = ?) AND created_at >= ? GROUP BY 1`,
			[]any{project, project, from}, func(d *Day, n int) { d.Memories = n }},
		{`SELECT substr(ts, 1, 10), coalesce(sum(json_array_length(payload, '$.memories')), 0) FROM events
			WHERE type = ? AND ts >= ? AND (? = '' OR project = ?) GROUP BY 1`,
			[]any{TypeMemoryInjected, from, project, project}, func(d *Day, n int) { d.Injected = n }},
		{`SELECT substr(ts, 1, 10), coalesce(sum(json_array_length(payload, '$.used')), 0) FROM events
			WHERE type = ? AND ts >= ? AND (? = '' OR project = ?) GROUP BY 1`,
			[]any{TypeMemoryCited, from, project, project}, func(d *Day, n int) { d.Used = n }},
	} {
		rows, err := db.Read().query(ctx, c.q, c.args...)
		if err != nil {
			return nil, fmt.Errorf("daily: %w", err)
		}
		for rows.Next() {
			var d string
			var n int
			if err := rows.Scan(&d, &n); err != nil {
				rows.Close()
				return nil, fmt.Errorf("daily: %w", err)
			}
			c.set(get(d), n)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("daily: %w", err)
		}
	}
	out := make([]Day, 0, len(order))
	for _, d := range order {
		out = append(out, *by[d])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Date < out[j].Date })
	return out, nil
}

// EntriesQuoting lists the entries with a quote found in the event, oldest first.
func (db *DB) EntriesQuoting(ctx context.Context, eventID int64) ([]Entry, error) {
	ids, err := queryIDs(ctx, db.Read(), `SELECT DISTINCT entry_id FROM evidence WHERE event_id = ? ORDER BY entry_id`, eventID)
	if err != nil {
		return nil, fmt.Errorf("entries quoting %d: %w", eventID, err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return db.Read().Entries(ctx, EntryFilter{IDs: ids})
}

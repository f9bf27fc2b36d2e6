package store

import (
	"context"
	"fmt"
	"os"
	"sort"
	"time"
)

// Stats are counts over the store, of one project or of all.
type Stats struct {
	Events   int
	Entries  int
	Sessions int // sessions with a row, forgotten ones excepted
	// ForgottenSessions counts the content-free rows forget keeps (see SessionForgotten).
	ForgottenSessions int
	ByType            map[string]int // events by type
	ByStage           map[string]int // entries by stage
	ByStatus          map[string]int // entries by status
	Projects          []ProjectStats // largest first; only when counting all projects
	// LastIngest is when something was last ingested: the newest prompt,
	// answer or tool observation, or the newest import of a transcript
	// (whose messages keep their own, older times).
	LastIngest time.Time
	// Injections counts memory_injected events; InjectedChars and
	// InjectedMemories sum their payloads' chars and memories.
	Injections       int
	InjectedChars    int
	InjectedMemories int
	// Citations counts memory_cited events (answers that cited memories);
	// Uses sums the memories they cited after being shown them, Flagged
	// those they cited without (not shown in the turn, or not stored).
	Citations int
	Uses      int
	Flagged   int
	Forgets   int // memory_forgotten events
}

// ProjectStats are one project's counts.
type ProjectStats struct {
	Project  string
	Events   int
	Entries  int
	Sessions int
}

// Stats counts events, entries and sessions of project ("" for all projects).
func (db *DB) Stats(ctx context.Context, project string) (Stats, error) {
	st := Stats{ByType: map[string]int{}, ByStage: map[string]int{}, ByStatus: map[string]int{}}
	where, args := "", []any{}
	if project != "" {
		where, args = " WHERE project = ?", []any{project}
	}
	groups := []struct {
		q string
		m map[string]int
	}{
		{`SELECT type, count(*) FROM events` + where + ` GROUP BY type`, st.ByType},
		{`SELECT stage, count(*) FROM entries` + where + ` GROUP BY stage`, st.ByStage},
		{`SELECT status, count(*) FROM entries` + where + ` GROUP BY status`, st.ByStatus},
	}
	for _, g := range groups {
		if err := countInto(ctx, db, g.q, args, g.m); err != nil {
			return st, fmt.Errorf("stats: %w", err)
		}
	}
	for _, n := range st.ByType {
		st.Events += n
	}
	for _, n := range st.ByStage {
		st.Entries += n
	}
	sessions := map[string]int{}
	if err := countInto(ctx, db, `SELECT source = '`+SessionForgotten+`', count(*) FROM sessions`+where+` GROUP BY 1`, args, sessions); err != nil {
		return st, fmt.Errorf("stats: %w", err)
	}
	st.Sessions, st.ForgottenSessions = sessions["0"], sessions["1"]

	ingested := `type IN ('` + TypeUserPrompt + `', '` + TypeAgentResponse + `', '` + TypeToolObservation + `', '` + TypeSessionProcessed + `')`
	q := `SELECT coalesce(max(ts), '') FROM events WHERE ` + ingested
	if project != "" {
		q += ` AND project = ?`
	}
	var last string
	if err := db.Read().queryRow(ctx, q, args...).Scan(&last); err != nil {
		return st, fmt.Errorf("stats: last ingest: %w", err)
	}
	st.LastIngest = ParseTime(last)

	q = `SELECT count(*), coalesce(sum(json_extract(payload, '$.chars')), 0),
		coalesce(sum(json_array_length(payload, '$.memories')), 0) FROM events WHERE type = ?`
	iargs := []any{TypeMemoryInjected}
	if project != "" {
		q += ` AND project = ?`
		iargs = append(iargs, project)
	}
	if err := db.Read().queryRow(ctx, q, iargs...).Scan(&st.Injections, &st.InjectedChars, &st.InjectedMemories); err != nil {
		return st, fmt.Errorf("stats: injections: %w", err)
	}
	q = `SELECT count(*), coalesce(sum(json_array_length(payload, '$.used')), 0),
		coalesce(sum(json_array_length(payload, '$.unshown') + json_array_length(payload, '$.unknown')), 0) FROM events WHERE type = ?`
	iargs[0] = TypeMemoryCited
	if err := db.Read().queryRow(ctx, q, iargs...).Scan(&st.Citations, &st.Uses, &st.Flagged); err != nil {
		return st, fmt.Errorf("stats: citations: %w", err)
	}
	st.Forgets = st.ByType[TypeForgotten]

	if project == "" {
		ps, err := db.projectStats(ctx)
		if err != nil {
			return st, err
		}
		st.Projects = ps
	}
	return st, nil
}

func (db *DB) projectStats(ctx context.Context) ([]ProjectStats, error) {
	by := map[string]*ProjectStats{}
	get := func(p string) *ProjectStats {
		if by[p] == nil {
			by[p] = &ProjectStats{Project: p}
		}
		return by[p]
	}
	for _, c := range []struct {
		q   string
		set func(*ProjectStats, int)
	}{
		{`SELECT project, count(*) FROM events GROUP BY project`, func(p *ProjectStats, n int) { p.Events = n }},
		{`SELECT project, count(*) FROM entries GROUP BY project`, func(p *ProjectStats, n int) { p.Entries = n }},
		{`SELECT project, count(*) FROM sessions WHERE source <> '` + SessionForgotten + `' GROUP BY project`, func(p *ProjectStats, n int) { p.Sessions = n }},
	} {
		m := map[string]int{}
		if err := countInto(ctx, db, c.q, nil, m); err != nil {
			return nil, fmt.Errorf("stats by project: %w", err)
		}
		for p, n := range m {
			c.set(get(p), n)
		}
	}
	out := make([]ProjectStats, 0, len(by))
	for _, p := range by {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Events != out[j].Events {
			return out[i].Events > out[j].Events
		}
		return out[i].Project < out[j].Project
	})
	return out, nil
}

func countInto(ctx context.Context, db *DB, q string, args []any, m map[string]int) error {
	rows, err := db.Read().query(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return err
		}
		m[k] = n
	}
	return rows.Err()
}

// Bytes is the size of the store on disk: the database file plus its WAL.
func (db *DB) Bytes() (int64, error) {
	var total int64
	for _, p := range []string{db.path, db.path + "-wal"} {
		fi, err := os.Stat(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("store size: %w", err)
		}
		total += fi.Size()
	}
	return total, nil
}

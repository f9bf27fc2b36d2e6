package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestEntryRoles: entries are found by the roles their claims fill, through
// the (project, role) index; entries never given roles are found as such.
func TestEntryRoles(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	stored, _, err := putEntries(ctx, db, []EntryWrite{
		{Entry: Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: "Use jest", ClaimKey: "k1", Created: t0}},
		{Entry: Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: "Port 8080", ClaimKey: "k2", Created: t0}},
		{Entry: Entry{Project: "/q", SessionID: "s2", Type: "decision", Title: "Use mocha", ClaimKey: "k3", Created: t0}},
	})
	if err != nil {
		t.Fatal(err)
	}
	unparsed, err := db.Read().Entries(ctx, EntryFilter{Project: "/p", RolesUnparsed: true})
	if err != nil || len(unparsed) != 2 {
		t.Fatalf("unparsed entries of /p: %d (%v), want 2", len(unparsed), err)
	}
	for _, e := range stored {
		rvs := map[string][]RoleValue{"Use jest": {{"test runner", "jest"}}, "Port 8080": {{"port", "8080"}},
			"Use mocha": {{"test runner", "mocha"}}}[e.Title]
		if err := db.Update(ctx, func(tx *Tx) error { return tx.SetEntryRoles(ctx, e.ID, e.Project, rvs) }); err != nil {
			t.Fatal(err)
		}
	}
	// Setting again replaces.
	if err := db.Update(ctx, func(tx *Tx) error {
		return tx.SetEntryRoles(ctx, stored[0].ID, "/p", []RoleValue{{"test runner", "jest"}})
	}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		f    EntryFilter
		want []string
	}{
		{EntryFilter{Project: "/p", Rivals: []RoleValue{{"test runner", "vitest"}}}, []string{"Use jest"}},
		{EntryFilter{Project: "/p", Rivals: []RoleValue{{"test runner", "jest"}}}, nil}, // agrees: not a rival
		{EntryFilter{Project: "/p", Values: []string{"8080"}}, []string{"Port 8080"}},
		{EntryFilter{Project: "/p", Rivals: []RoleValue{{"port", "9090"}}, Values: []string{"jest"}}, []string{"Port 8080", "Use jest"}},
	} {
		got, err := db.Read().Entries(ctx, tt.f)
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, e := range got {
			titles = append(titles, e.Title)
		}
		sort.Strings(titles)
		if !reflect.DeepEqual(titles, tt.want) {
			t.Errorf("Entries(%+v) = %q, want %q", tt.f, titles, tt.want)
		}
	}
	if n, _ := db.Read().Entries(ctx, EntryFilter{Project: "/p", RolesUnparsed: true}); len(n) != 0 {
		t.Fatalf("%d entries of /p still unparsed", len(n))
	}

	// Both lookups go through their indexes, not a scan of entries.
	for q, index := range map[string]string{
		`SELECT DISTINCT r.entry_id, r.created_at FROM entry_roles r JOIN entries e ON e.id = r.entry_id
			WHERE r.project = ? AND r.role = ? AND r.value <> ? AND e.project = ? ORDER BY r.created_at DESC, r.entry_id DESC LIMIT 30`: "entry_roles_recent",
		`SELECT DISTINCT r.entry_id, r.created_at FROM entry_roles r JOIN entries e ON e.id = r.entry_id
			WHERE r.project = ? AND r.value = ? AND e.project = ? ORDER BY r.created_at DESC, r.entry_id DESC LIMIT 30`: "entry_roles_value_recent",
		`SELECT id FROM entries WHERE project = ? AND roles_parsed = 0`: "entries_roles_unparsed",
	} {
		args := []any{"/p", "a", "b", "/p"}[:strings.Count(q, "?")]
		if strings.Contains(q, "r.value = ?") {
			args = []any{"/p", "a", "/p"}
		}
		// A rival lookup walks its role's rows newest first and stops at
		// its limit, rather than sorting every row of the role.
		if p := queryPlan(t, db, q, args...); !strings.Contains(p, index) || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("plan of %q: %s, want it to use %s and no sort", q, p, index)
		}
	}

	// Deleting an entry deletes its roles.
	if _, err := db.sql.ExecContext(ctx, `DELETE FROM entries WHERE id = ?`, stored[0].ID); err != nil {
		t.Fatal(err)
	}
	var n int
	db.sql.QueryRowContext(ctx, `SELECT count(*) FROM entry_roles WHERE entry_id = ?`, stored[0].ID).Scan(&n)
	if n != 0 {
		t.Fatalf("%d roles left of a deleted entry", n)
	}
}

// The newest rivals of several roles and values, limited, are the newest of
// all the entries they select, as one query over entries sorts them; an
// entry whose date moves back (an older session imported later) moves back
// among them.
func TestRivalsNewest(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	var ws []EntryWrite
	for i := range 60 {
		ws = append(ws, EntryWrite{Entry: Entry{Project: "/p", SessionID: fmt.Sprintf("s%d", i%7), Type: "decision",
			Title: fmt.Sprintf("entry %d", i), ClaimKey: fmt.Sprintf("k%d", i), Status: []string{StatusActive, StatusContested, StatusSuperseded}[i%3],
			Created: t0.Add(time.Duration((i*37)%60) * time.Hour)}})
	}
	stored, _, err := putEntries(ctx, db, ws)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range stored {
		// Roles in a pattern: some entries give one role two values, some
		// give two roles, some none.
		var rvs []RoleValue
		if i%2 == 0 {
			rvs = append(rvs, RoleValue{"port", fmt.Sprint(8000 + i%5)})
		}
		if i%4 == 0 {
			rvs = append(rvs, RoleValue{"port", "9999"})
		}
		if i%3 == 0 {
			rvs = append(rvs, RoleValue{"test runner", []string{"jest", "vitest"}[i%2]})
		}
		if err := db.Update(ctx, func(tx *Tx) error { return tx.SetEntryRoles(ctx, e.ID, "/p", rvs) }); err != nil {
			t.Fatal(err)
		}
	}
	// Entry 6 is said again by an older session: its date moves back.
	if _, _, err := db.PutEntry(ctx, Entry{Project: "/p", SessionID: "old", Type: "decision", Title: "entry 6", ClaimKey: "k6",
		Created: t0.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	// reference is the selection as one query over entries makes it.
	reference := func(f EntryFilter) []int64 {
		var or []string
		var args []any
		for _, r := range f.Rivals {
			or = append(or, "SELECT entry_id FROM entry_roles WHERE project = ? AND role = ? AND value <> ?")
			args = append(args, f.Project, r.Role, r.Value)
		}
		if len(f.Values) > 0 {
			or = append(or, "SELECT entry_id FROM entry_roles WHERE project = ? AND value IN ("+placeholders(len(f.Values))+")")
			args = append(args, f.Project)
			for _, v := range f.Values {
				args = append(args, v)
			}
		}
		q := `SELECT id FROM entries WHERE project = ? AND status IN ('active', 'contested') AND id IN (` + strings.Join(or, " UNION ") +
			`) ORDER BY created_at DESC, id DESC LIMIT ` + fmt.Sprint(f.Limit)
		rows, err := db.sql.QueryContext(ctx, q, append([]any{f.Project}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var ids []int64
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			ids = append(ids, id)
		}
		return ids
	}
	for _, f := range []EntryFilter{
		{Rivals: []RoleValue{{"port", "8001"}}, Limit: 5},
		{Rivals: []RoleValue{{"port", "8001"}}, Limit: 50},
		{Rivals: []RoleValue{{"port", "9999"}, {"test runner", "jest"}}, Limit: 7},
		{Rivals: []RoleValue{{"test runner", "vitest"}}, Values: []string{"8003", "9999"}, Limit: 6},
		{Values: []string{"jest"}, Limit: 3},
	} {
		f.Project, f.Statuses = "/p", []string{StatusActive, StatusContested}
		got, err := db.Read().Entries(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, e := range got {
			ids = append(ids, e.ID)
		}
		if want := reference(f); !reflect.DeepEqual(ids, want) || len(want) == 0 {
			t.Errorf("Entries(rivals %v, values %v, limit %d) = %v, want %v", f.Rivals, f.Values, f.Limit, ids, want)
		}
		// EntryIDs selects the same, without reading the entries.
		if only, err := db.Read().EntryIDs(ctx, f); err != nil || !reflect.DeepEqual(only, ids) {
			t.Errorf("EntryIDs(rivals %v, values %v, limit %d) = %v, %v; want %v", f.Rivals, f.Values, f.Limit, only, err, ids)
		}
	}
	// And without roles, as Entries lists them.
	f := EntryFilter{Project: "/p", Types: []string{"decision"}, Limit: 7}
	all, err := db.Read().Entries(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, e := range all {
		ids = append(ids, e.ID)
	}
	if only, err := db.Read().EntryIDs(ctx, f); err != nil || !reflect.DeepEqual(only, ids) || len(ids) != 7 {
		t.Errorf("EntryIDs(decisions, limit 7) = %v, %v; want %v", only, err, ids)
	}
}

// TestSetEntryRolesReplaces: setting an entry's roles again leaves exactly
// the new ones, each with the entry's project and date, whether a row is
// kept, dropped, added or moves to another project.
func TestSetEntryRolesReplaces(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	stored, _, err := putEntries(ctx, db, []EntryWrite{
		{Entry: Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: "Use jest on node", ClaimKey: "k1", Created: t0}},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := stored[0].ID
	rows := func() []string {
		t.Helper()
		got, err := queryColumn[string](ctx, db.Read(), `SELECT project || ' ' || role || '=' || value || ' ' || created_at
			FROM entry_roles WHERE entry_id = ? ORDER BY role, value`, id)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	at := FormatTime(t0)
	for _, step := range []struct {
		project string
		rvs     []RoleValue
		want    []string
	}{
		{"/p", []RoleValue{{"test runner", "jest"}, {"js runtime", "node"}}, []string{"/p js runtime=node " + at, "/p test runner=jest " + at}},
		{"/p", []RoleValue{{"test runner", "jest"}, {"test runner", "vitest"}}, []string{"/p test runner=jest " + at, "/p test runner=vitest " + at}},
		{"/q", []RoleValue{{"test runner", "jest"}}, []string{"/q test runner=jest " + at}},
		{"/q", nil, nil},
	} {
		if err := db.Update(ctx, func(tx *Tx) error { return tx.SetEntryRoles(ctx, id, step.project, step.rvs) }); err != nil {
			t.Fatal(err)
		}
		if got := rows(); !reflect.DeepEqual(got, step.want) {
			t.Errorf("after setting %s %v: rows %q, want %q", step.project, step.rvs, got, step.want)
		}
	}
}

// TestSetRoles: one call sets the roles of many entries, each as
// SetEntryRoles would: rows kept, dropped and added, more than one insert's
// worth, an entry listed twice getting its last list, and every entry
// marked parsed, one with no roles too.
func TestSetRoles(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	var ws []EntryWrite
	for i := range 3 {
		ws = append(ws, EntryWrite{Entry: Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: fmt.Sprintf("Entry %d", i),
			ClaimKey: fmt.Sprintf("k%d", i), Created: t0.Add(time.Duration(i) * time.Hour)}})
	}
	stored, _, err := putEntries(ctx, db, ws)
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := stored[0].ID, stored[1].ID, stored[2].ID
	if err := db.Update(ctx, func(tx *Tx) error {
		return tx.SetEntryRoles(ctx, a, "/p", []RoleValue{{"test runner", "jest"}, {"js runtime", "node"}})
	}); err != nil {
		t.Fatal(err)
	}
	var many []RoleValue // 70 rows: inserts of 64, 4, 1 and 1
	for i := range 70 {
		many = append(many, RoleValue{"port", strconv.Itoa(8000 + i)})
	}
	if err := db.Update(ctx, func(tx *Tx) error {
		return tx.SetRoles(ctx, "/p", []EntryRoles{
			{ID: a, Roles: []RoleValue{{"test runner", "jest"}, {"test runner", "vitest"}}},
			{ID: b, Roles: []RoleValue{{"db", "mysql"}}},
			{ID: c},
			{ID: b, Roles: many},
		})
	}); err != nil {
		t.Fatal(err)
	}
	rows, err := queryColumn[string](ctx, db.Read(), `SELECT entry_id || ' ' || project || ' ' || role || '=' || value || ' ' || created_at
		FROM entry_roles ORDER BY entry_id, role, value`)
	if err != nil {
		t.Fatal(err)
	}
	row := func(id int64, rv RoleValue, created time.Time) string {
		return fmt.Sprintf("%d /p %s=%s %s", id, rv.Role, rv.Value, FormatTime(created))
	}
	want := []string{row(a, RoleValue{"test runner", "jest"}, t0), row(a, RoleValue{"test runner", "vitest"}, t0)}
	var ports []string
	for _, rv := range many {
		ports = append(ports, row(b, rv, t0.Add(time.Hour)))
	}
	sort.Strings(ports)
	want = append(want, ports...)
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows:\n%q\nwant\n%q", rows, want)
	}
	parsed, err := queryColumn[int64](ctx, db.Read(), `SELECT id FROM entries WHERE roles_parsed = 1 ORDER BY id`)
	if err != nil || !reflect.DeepEqual(parsed, []int64{a, b, c}) {
		t.Errorf("parsed entries %v, %v; want %v", parsed, err, []int64{a, b, c})
	}
}

// TestRoleLookupAfterWrite: a write transaction keeps its role lookups only
// until it writes; the same lookup after a write, or after a savepoint's
// rollback, sees the store as it is then.
func TestRoleLookupAfterWrite(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	stored, _, err := putEntries(ctx, db, []EntryWrite{
		{Entry: Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: "Port 8443", ClaimKey: "k1"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := stored[0].ID
	f := EntryFilter{Project: "/p", Values: []string{"8443"}}
	err = db.Update(ctx, func(tx *Tx) error {
		look := func(step string, want []int64) {
			t.Helper()
			got, err := tx.EntryIDs(ctx, f)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: EntryIDs = %v, %v; want %v", step, got, err, want)
			}
		}
		look("before", nil)
		if err := tx.SetEntryRoles(ctx, id, "/p", []RoleValue{{"port", "8443"}}); err != nil {
			return err
		}
		look("after the roles were set", []int64{id})
		tx.Savepoint(ctx, func() error {
			if err := tx.SetEntryRoles(ctx, id, "/p", nil); err != nil {
				return err
			}
			look("inside the savepoint", nil)
			return errors.New("undo")
		})
		look("after the rollback", []int64{id})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRoleValuesByRole: a role's values come sorted and once each, read
// from the role's own rows of entry_roles_recent, not from a walk over every
// role of the project. The old query's plan walked entry_roles_value_recent
// by project alone.
func TestRoleValuesByRole(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	var ws []EntryWrite
	for i, v := range []string{"9000", "7000", "9000", "8000"} {
		ws = append(ws, EntryWrite{Entry: Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: "Port " + v,
			ClaimKey: "k" + strconv.Itoa(i), Created: t0.Add(time.Duration(i) * time.Hour)}})
	}
	ws = append(ws, EntryWrite{Entry: Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: "Use tabs", ClaimKey: "kt", Created: t0}})
	stored, _, err := putEntries(ctx, db, ws)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range stored {
		rv := RoleValue{"port", strings.TrimPrefix(e.Title, "Port ")}
		if e.Title == "Use tabs" {
			rv = RoleValue{"indent", "tabs"}
		}
		if err := db.Update(ctx, func(tx *Tx) error { return tx.SetEntryRoles(ctx, e.ID, e.Project, []RoleValue{rv}) }); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Read().RoleValues(ctx, "/p", "port")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"7000", "8000", "9000"}; !reflect.DeepEqual(got, want) {
		t.Errorf("RoleValues(/p, port) = %q, want %q", got, want)
	}
	if p := queryPlan(t, db, roleValuesQuery, "/p", "port"); !strings.Contains(p, "entry_roles_recent (project=? AND role=?)") {
		t.Errorf("plan of RoleValues: %s, want a search of entry_roles_recent by project and role", p)
	}
}

// TestRoleValuesSame is an equivalence test: RoleValues, which sorts the
// distinct values in Go, gives what the query that sorted them in SQL gave,
// for values that differ in case, script and length only.
func TestRoleValuesSame(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	values := []string{"b", "B", "a", "ab", "a b", "Ä", "ä", "z", "10", "9", "É", "é", "ß", "日本", "a", "b", "", "~", "aa"}
	var ws []EntryWrite
	for i := range values {
		ws = append(ws, EntryWrite{Entry: Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: "Value " + strconv.Itoa(i),
			ClaimKey: "k" + strconv.Itoa(i), Created: t0.Add(time.Duration(-i) * time.Hour)}})
	}
	stored, _, err := putEntries(ctx, db, ws)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range stored {
		rvs := []RoleValue{{"tool", values[i]}, {"other", values[len(values)-1-i]}}
		if err := db.Update(ctx, func(tx *Tx) error { return tx.SetEntryRoles(ctx, e.ID, e.Project, rvs) }); err != nil {
			t.Fatal(err)
		}
	}
	for _, role := range []string{"tool", "other", "none"} {
		got, err := db.Read().RoleValues(ctx, "/p", role)
		if err != nil {
			t.Fatal(err)
		}
		want, err := queryColumn[string](ctx, db.Read(), `SELECT DISTINCT value FROM entry_roles INDEXED BY entry_roles_recent WHERE project = ? AND role = ? ORDER BY value`, "/p", role)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("RoleValues(/p, %s) = %q, want %q", role, got, want)
		}
		if role != "none" && len(got) < 15 {
			t.Errorf("RoleValues(/p, %s) = %q: the test stored more values", role, got)
		}
	}
}

// TestEntriesOfTypeByIndex: a project's entries of one type (the brief's open
// tasks) are looked up through entries_type, in date order, not found by
// walking every entry of the project; they come newest first either way.
func TestEntriesOfTypeByIndex(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	var ws []EntryWrite
	for i, typ := range []string{"task", "decision", "task", "fact", "task"} {
		ws = append(ws, EntryWrite{Entry: Entry{Project: "/p", SessionID: "s1", Type: typ, Title: fmt.Sprintf("%s %d", typ, i),
			ClaimKey: "k" + strconv.Itoa(i), Created: t0.Add(time.Duration(i) * time.Hour)}})
	}
	if _, _, err := putEntries(ctx, db, ws); err != nil {
		t.Fatal(err)
	}
	f := EntryFilter{Project: "/p", Types: []string{"task"}, Statuses: []string{StatusActive, StatusContested}}
	got, err := db.Read().Entries(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, e := range got {
		titles = append(titles, e.Title)
	}
	if want := []string{"task 4", "task 2", "task 0"}; !reflect.DeepEqual(titles, want) {
		t.Errorf("tasks = %q, want %q", titles, want)
	}
	where, args := entryWhere(f, "")
	if p := queryPlan(t, db, entriesQuery("id", "entries", where, f), args...); !strings.Contains(p, "entries_type (project=? AND type=?)") || strings.Contains(p, "TEMP B-TREE") {
		t.Errorf("plan of the tasks' lookup: %s, want a search of entries_type by project and type, and no sort", p)
	}
}

// TestEntriesByIDsLookedUp: a project's entries given by id (the rivals and
// facts an import reads) are looked up by id and sorted, not found by
// walking every entry of the project by date, which grows with the store;
// they come newest first, the later id first at one date, either way.
func TestEntriesByIDsLookedUp(t *testing.T) {
	db := MustOpen(t)
	ctx := context.Background()
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	var ws []EntryWrite
	for i, h := range []int{3, 1, 4, 1, 5, 9, 2, 6} {
		ws = append(ws, EntryWrite{Entry: Entry{Project: "/p", SessionID: "s1", Type: "fact", Title: fmt.Sprintf("fact %d", i),
			ClaimKey: "k" + strconv.Itoa(i), Created: t0.Add(time.Duration(h) * time.Hour)}})
	}
	stored, _, err := putEntries(ctx, db, ws)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, i := range []int{0, 1, 3, 5, 7} {
		ids = append(ids, stored[i].ID)
	}
	f := EntryFilter{Project: "/p", IDs: ids}
	got, err := db.Read().Entries(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, e := range got {
		titles = append(titles, e.Title)
	}
	if want := []string{"fact 5", "fact 7", "fact 0", "fact 3", "fact 1"}; !reflect.DeepEqual(titles, want) {
		t.Errorf("entries by id = %q, want %q", titles, want)
	}
	where, args := entryWhere(f, "")
	for _, cols := range []string{"id", entryColumns} {
		if p := queryPlan(t, db, entriesQuery(cols, "entries", where, f), args...); !strings.Contains(p, "INTEGER PRIMARY KEY") {
			t.Errorf("plan of entries by id (%.20s...): %s, want a search by primary key", cols, p)
		}
	}
}

// queryPlan returns the details of SQLite's plan for query q, joined by "; ".
func queryPlan(t *testing.T, db *DB, q string, args ...any) string {
	t.Helper()
	rows, err := db.sql.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "; ")
}

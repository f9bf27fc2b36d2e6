package store

import (
	"context"
	"reflect"
	"sort"
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
		`SELECT entry_id FROM entry_roles WHERE project = ? AND role = ? AND value <> ?`: "entry_roles_role",
		`SELECT entry_id FROM entry_roles WHERE project = ? AND value IN (?)`:            "entry_roles_value",
		`SELECT id FROM entries WHERE project = ? AND roles_parsed = 0`:                  "entries_roles_unparsed",
	} {
		rows, err := db.sql.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, "/p", "a", "b")
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		if p := strings.Join(plan, "; "); !strings.Contains(p, index) {
			t.Errorf("plan of %q: %s, want it to use %s", q, p, index)
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

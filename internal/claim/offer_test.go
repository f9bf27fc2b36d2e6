package claim

import "testing"

// Statements that were read as changes they do not make (issue 26): a
// maker beside its product, a change restated. The texts are made up.
func TestNoChangeMade(t *testing.T) {
	for _, tc := range []struct{ name, older, newer string }{
		{"a maker and its product",
			"The system uses Quillet to write the replies.",
			"Delete the old voice script; both systems will use Quillet Voice from now on."},
		{"a change restated",
			"Understood! From now on:\n\n**CockroachDB is the single store** for all records:\n\n- All records come from CockroachDB tables\n- No local MariaDB database exists anymore\n- The server connects directly to CockroachDB\n\nThe pages load faster.\nThe tests pass.\n\nEverything is kept in and read from your CockroachDB cluster. The move is done and MariaDB has been fully taken out of the repo.",
			"Yes, confirmed - the app reads all its records from CockroachDB. There is no other database - MariaDB is deleted. Every read goes through CockroachDB now."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rel, role, ov, nv := Compare(Parse(tc.older), Parse(tc.newer)); rel == Supersedes || rel == Contradicts {
				t.Errorf("Compare = %v %s: %q -> %q, want no conflict", rel, role, ov, nv)
			}
		})
	}
}

// Words that only say a change or qualify the replaced name are no values:
// the change word opening a statement, the head of the phrase a replaced
// name qualifies.
func TestNoValueRead(t *testing.T) {
	for _, tc := range []struct{ name, text, notValue, notReplaced string }{
		{"a change word opening a statement", "Fix: ```ini depth=7 ``` Remove extra KELVO_TOKEN from `.env` so one is left.", "remove", ""},
		{"the head of the replaced name's phrase", "- Drop Kelbo licence price-trap … - Move Kelbo client to Prisma client", "price-trap", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range Parse(tc.text) {
				if tc.notValue != "" && c.Value == tc.notValue || tc.notReplaced != "" && c.Replaces == tc.notReplaced {
					t.Errorf("claim %+v", c)
				}
			}
		})
	}
}

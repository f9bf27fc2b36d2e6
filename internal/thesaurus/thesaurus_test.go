package thesaurus

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// table writes a thesaurus of rows (sorted, header first) into a fresh
// directory and opens it.
func table(t *testing.T, rows string) *Table {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, file), []byte("# header\n"+rows), 0o644); err != nil {
		t.Fatal(err)
	}
	return Open(dir)
}

func TestRelated(t *testing.T) {
	t.Parallel()
	th := table(t, "berry drupe\nfolder binder\nhop skip leap\nmend repair fix\nsupply provision\n")
	for _, c := range []struct {
		word string
		want string // one word it must give; "" for none
	}{
		{"mend", "repair"},
		{"folders", "binder"}, // a plural
		{"mending", "fix"},    // a present participle
		{"hopped", "leap"},    // a doubled consonant
		{"berries", "drupe"},  // -ies for -y
		{"supplied", "provision"},
		{"zzz", ""},
		{"me", ""}, // too short to look for
	} {
		got := th.Related(c.word)
		if c.want == "" && got != nil || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("Related(%q) = %q, want it to hold %q", c.word, got, c.want)
		}
	}
}

// TestReadsNothingUnasked: a process that asks no word reads no table, and
// one without a table relates nothing and says why.
func TestReadsNothingUnasked(t *testing.T) {
	t.Parallel()
	th := Open(filepath.Join(t.TempDir(), "none"))
	if err := th.Err(); err != nil {
		t.Fatalf("Err() before any word = %v, want nil", err)
	}
	if !th.Missing() {
		t.Error("Missing() = false for a directory without the table")
	}
	if got := th.Related("mend"); got != nil {
		t.Errorf("Related without a table = %q, want nil", got)
	}
	if th.Err() == nil {
		t.Error("Err() = nil after reading a missing table")
	}
	var none *Table
	if none.Related("mend") != nil || none.Err() != nil || !none.Missing() {
		t.Error("a nil Table relates something")
	}
}

package store

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// TestEventTypesListsEveryType: every event type the store declares is in
// EventTypes, which history --type and completion check against; three
// merged features each added one and two were missing.
func TestEventTypesListsEveryType(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^\s*Type[A-Z]\w*\s*=\s*"([a-z_]+)"`)
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllSubmatch(b, -1) {
			n++
			if typ := string(m[1]); !slices.Contains(EventTypes, typ) {
				t.Errorf("%s declares event type %q, not in EventTypes", f, typ)
			}
		}
	}
	if n < 20 {
		t.Fatalf("found %d event type declarations; the pattern no longer matches the source", n)
	}
}

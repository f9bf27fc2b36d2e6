package extract

import (
	"flag"
	"sort"
	"testing"
)

var dumpEntries = flag.Bool("dump", false, "log every entry extracted from the test sessions")

// TestDump logs what Offline extracts from every test session, for reading:
// go test ./internal/extract -run TestDump -v -args -dump
func TestDump(t *testing.T) {
	t.Parallel()
	if !*dumpEntries {
		t.Skip("run with -args -dump")
	}
	sessions := testSessions(t)
	var names []string
	for n := range sessions {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("=== %s%s", n, dump(Offline(sessions[n].messages())))
	}
}

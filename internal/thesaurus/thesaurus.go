// Package thesaurus gives the English words WordNet relates to an English
// word: its synonyms in its most frequent senses, then its derivationally
// related forms.
//
// The table (synonyms/eng.txt, generated from Debian's wordnet-base by
// scripts/gen-synonyms.sh; Princeton WordNet 3.0, under the WordNet 3.0
// license) is data beside the binaries, not compiled in: scripts/build.sh
// copies it to bin/synonyms/ and a process reads it, through a Table, at
// the first word asked, once. Without it nothing has synonyms and recall
// works as before.
package thesaurus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
	"github.com/claude-memory-layer/claude-memory-layer/internal/sortedlines"
)

// file is the table's name in its directory.
const file = "eng.txt"

// maxTable bounds what is read of the table; it is about two megabytes.
const maxTable = 8 << 20

// Table is the thesaurus of one directory. It is read at the first word
// asked, and once: a process that asks nothing reads nothing. A nil *Table
// relates nothing. Safe for concurrent use.
type Table struct {
	dir func() (string, error) // where the table is, asked at the first read

	mu   sync.Mutex
	read bool   // the table was asked for
	rows string // the table without its header line; "" when unread
	err  error  // why it could not be read
}

// Open is the thesaurus in directory dir; it reads nothing yet.
func Open(dir string) *Table {
	return &Table{dir: func() (string, error) { return dir, nil }}
}

// Installed is the directory of the thesaurus of a plugin whose binaries
// are in binDir: scripts/build.sh copies it there.
func Installed(binDir string) string { return filepath.Join(binDir, "synonyms") }

// Beside is the thesaurus installed beside the running executable
// (Installed), found at the first word asked.
func Beside() *Table {
	return &Table{dir: func() (string, error) {
		exe, err := os.Executable()
		if err == nil {
			exe, err = filepath.EvalSymlinks(exe)
		}
		if err != nil {
			return "", fmt.Errorf("thesaurus: no directory beside the executable: %w", err)
		}
		return Installed(filepath.Dir(exe)), nil
	}}
}

// Err is the error reading the table, nil when it was read or never asked
// for: a binary without its thesaurus relates nothing, and says so through
// the caller's log.
func (t *Table) Err() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// Missing reports whether the table is absent from its directory, for
// doctor to report; a nil Table's is. It reads nothing.
func (t *Table) Missing() bool {
	if t == nil {
		return true
	}
	dir, err := t.dir()
	if err != nil {
		return true
	}
	fi, err := os.Stat(filepath.Join(dir, file))
	return err != nil || !fi.Mode().IsRegular()
}

// load is the table's rows, read at the first call.
func (t *Table) load() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.read {
		return t.rows
	}
	t.read = true
	dir, err := t.dir()
	if err != nil {
		t.err = err
		return ""
	}
	// The file must be regular (a FIFO would block the hook).
	b, err := regular.ReadFile(filepath.Join(dir, file), maxTable)
	if err != nil {
		t.err = fmt.Errorf("thesaurus: %w", err)
		return ""
	}
	_, t.rows, _ = strings.Cut(string(b), "\n")
	return t.rows
}

// Related is the words the table relates to word, a lower-case English
// word, most frequent sense first: its synonyms, then the words derived
// from it or it from them. A regular inflection is read as its base form
// ("folders" as "folder", "removing" as "remove"), the first base form the
// table holds. nil for a word the table does not hold, or a nil Table.
func (t *Table) Related(word string) []string {
	if t == nil || len(word) < 3 {
		return nil
	}
	rows := t.load()
	if rows == "" {
		return nil
	}
	for _, w := range bases(word) {
		if r, ok := lookup(rows, w); ok {
			return r
		}
	}
	return nil
}

// endings are English's regular inflections, as WordNet's morphy detaches
// them: the ending cut, then what replaces it.
var endings = [...]struct{ cut, add string }{
	{"ies", "y"}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"es", "e"}, {"s", ""},
	{"ied", "y"}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""},
}

// bases is word, then the base forms its ending suggests, the doubled
// consonant of "stopped", "running" undone too.
func bases(word string) []string {
	out := []string{word}
	for _, e := range endings {
		b, ok := strings.CutSuffix(word, e.cut)
		if !ok || len(b) < 2 {
			continue
		}
		out = append(out, b+e.add)
		if n := len(b); e.add == "" && n >= 3 && b[n-1] == b[n-2] && (e.cut == "ed" || e.cut == "ing") {
			out = append(out, b[:n-1])
		}
	}
	return out
}

// lookup is the words of headword w in rows.
func lookup(rows, w string) ([]string, bool) {
	line, _ := sortedlines.Line(rows, sortedlines.Search(rows, w))
	head, words, _ := strings.Cut(line, " ")
	if head != w {
		return nil, false
	}
	return strings.Fields(words), true
}

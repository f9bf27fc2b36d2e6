package recall

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/config"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// perKind caps each kind of warning.
const perKind = 5

// doubtRE matches wording inside a memory that doubts what it says: the
// self-flag signal. Change wording ("switched to", "instead of") is not doubt:
// a memory that reports its own change states the current choice.
var doubtRE = regexp.MustCompile(`(?i)\b(wrong|incorrect|mistaken|outdated|obsolete|deprecated|not sure|unclear|unverified|broken)\b|잘못|틀렸|폐기|불확실`)

// SelfFlag grades the doubt in a text by its distinct signals: LOW for one,
// MEDIUM for two, HIGH for three or more; 0 for none. A word repeated is one
// signal.
func SelfFlag(text string) (config.Severity, []string) {
	seen := map[string]bool{}
	var uniq []string
	for _, f := range doubtRE.FindAllString(text, -1) {
		f = strings.ToLower(f)
		if !seen[f] {
			seen[f] = true
			uniq = append(uniq, f)
		}
	}
	switch n := len(uniq); {
	case n >= 3:
		return config.High, uniq
	case n == 2:
		return config.Medium, uniq
	case n == 1:
		return config.Low, uniq
	}
	return 0, nil
}

// itemMemory is an item as one side of a warning.
func itemMemory(it Item) Memory {
	if it.Kind == KindEntry {
		return memory(it.entry)
	}
	return Memory{CID: it.CID, Type: kindLabel(it), Date: it.Time, Title: it.Excerpt}
}

// Warnings collects the conflict signals among the selected items: the ledger
// (recorded supersessions and contradictions of a selected entry, with the
// other side fetched even if it was not selected), and self-flags at or above
// the configured severity.
func Warnings(ctx context.Context, db *store.DB, cfg config.Recall, sel []Item) ([]Warning, error) {
	var ids []int64
	for _, it := range sel {
		if id := it.EntryID(); id != 0 {
			ids = append(ids, id)
		}
	}
	var out []Warning
	paired := map[[2]int64]bool{}
	pair := func(a, b int64) [2]int64 {
		if a > b {
			a, b = b, a
		}
		return [2]int64{a, b}
	}
	cs, err := db.Conflicts(ctx, ids)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, c := range cs {
		if n == perKind || paired[pair(c.Older, c.Newer)] {
			continue
		}
		older, err := db.EntryByID(ctx, c.Older)
		if err != nil {
			continue
		}
		newer, err := db.EntryByID(ctx, c.Newer)
		if err != nil {
			continue
		}
		w := Warning{Severity: "HIGH", A: memory(older), B: memory(newer)}
		if c.Kind == "supersedes" {
			w.Kind = "superseded"
			w.Note = fmt.Sprintf("The newer statement (%s) explicitly replaces the older; it is the current one.", date(newer.Created))
		} else {
			w.Kind = "contested"
			w.Note = fmt.Sprintf("Neither says it replaces the other; the newer is from %s.", date(newer.Created))
		}
		out = append(out, w)
		paired[pair(c.Older, c.Newer)] = true
		n++
	}

	n = 0
	for _, it := range sel {
		if n == perKind {
			break
		}
		sev, words := SelfFlag(it.Excerpt + "\n" + it.Quote)
		if sev == 0 || sev < cfg.ConflictSeverity {
			continue
		}
		out = append(out, Warning{Severity: sev.String(), Kind: "self-flag", A: itemMemory(it), Note: strings.Join(words, ", ")})
		n++
	}
	return out, nil
}

func tokens(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) > 1 && !stopwords[w] {
			m[w] = true
		}
	}
	return m
}

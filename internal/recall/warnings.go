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

// indicatorRE matches wording inside a memory that suggests it reverses or
// doubts something: the self-flag signal.
var indicatorRE = regexp.MustCompile(`(?i)\b(instead of|no longer|revert(ed|ing)?|actually|wrong|deprecated|not any ?more|replaced|switched|rolled back|obsolete|outdated|incorrect|mistaken)\b|반대|대신|더 이상|되돌|잘못|취소|폐기`)

// SelfFlag grades the reversal wording in a text: LOW for one indicator,
// MEDIUM for two, HIGH for three or more; 0 for none.
func SelfFlag(text string) (config.Severity, []string) {
	found := indicatorRE.FindAllString(text, -1)
	seen := map[string]bool{}
	var uniq []string
	for _, f := range found {
		f = strings.ToLower(f)
		if !seen[f] {
			seen[f] = true
			uniq = append(uniq, f)
		}
	}
	switch n := len(found); {
	case n >= 3:
		return config.High, uniq
	case n == 2:
		return config.Medium, uniq
	case n == 1:
		return config.Low, uniq
	}
	return 0, nil
}

// Warnings collects the conflict signals among the selected memories: the
// ledger (recorded supersessions and contradictions, with the other side
// fetched even if it was not selected), cross-divergence between selected
// pairs, and self-flags at or above the configured severity.
func Warnings(ctx context.Context, db *store.DB, cfg config.Recall, sel []Scored) ([]Warning, error) {
	ids := make([]int64, len(sel))
	for i, s := range sel {
		ids[i] = s.ID
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
			w.Note = fmt.Sprintf("The newer statement (%s) explicitly replaces the older.", date(newer.Created))
		} else {
			w.Kind = "contested"
			w.Note = "Neither says it replaces the other."
		}
		out = append(out, w)
		paired[pair(c.Older, c.Newer)] = true
		n++
	}

	n = 0
	for i := range sel {
		for j := i + 1; j < len(sel) && n < perKind; j++ {
			a, b := sel[i].Entry, sel[j].Entry
			if paired[pair(a.ID, b.ID)] || !Divergent(a, b) {
				continue
			}
			older, newer := a, b
			if newer.Created.Before(older.Created) {
				older, newer = newer, older
			}
			out = append(out, Warning{Severity: "MEDIUM", Kind: "divergent", A: memory(older), B: memory(newer),
				Note: "They share a subject but little content."})
			paired[pair(a.ID, b.ID)] = true
			n++
		}
	}

	n = 0
	for _, s := range sel {
		if n == perKind {
			break
		}
		sev, words := SelfFlag(entryText(s.Entry))
		if sev == 0 || sev < cfg.ConflictSeverity {
			continue
		}
		out = append(out, Warning{Severity: sev.String(), Kind: "self-flag", A: memory(s.Entry), Note: strings.Join(words, ", ")})
		n++
	}
	return out, nil
}

// Divergent reports whether two memories look like two takes on one subject:
// of the same type, their titles share at least two words while their content
// (title, body and quotes) overlaps little (token Jaccard below 0.30). The
// same-type condition keeps a decision and a related fact from being flagged.
func Divergent(a, b store.Entry) bool {
	if a.Type != b.Type {
		return false
	}
	ta, tb := tokens(a.Title), tokens(b.Title)
	shared := 0
	for t := range ta {
		if tb[t] {
			shared++
		}
	}
	if shared < 2 {
		return false
	}
	return jaccard(tokens(entryText(a)), tokens(entryText(b))) < 0.30
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

func jaccard(a, b map[string]bool) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

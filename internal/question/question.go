// Package question builds the short questions a memory answers from its kind, role and subject.
package question

import (
	"strings"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
)

// maxRoles bounds the role questions of one memory: a statement that
// names many tools decides one or two of them.
const maxRoles = 2

// For returns the questions a memory answers: for each role its text
// fills ("we use pnpm": the package manager) which value the project gives
// it, and for its subject what its kind says about it (a decision: what was
// decided; a lesson: what went wrong). typ is the memory's kind (decision,
// fact, preference, constraint, lesson, task, reference), subject what it
// is about, text its title and body. The questions are templates over the
// role and subject only, so they are the same for any wording of the fact;
// nil when the memory names neither.
func For(typ, subject, text string) []string { return ForWith(typ, subject, text, nil) }

// ForWith is For parsing text through claims (nil parses it): the
// pipeline parses a memory's title and body again to tell its facts.
func ForWith(typ, subject, text string, claims *claim.Cache) []string {
	var out []string
	seen := map[string]bool{}
	// A lesson, a task, a preference or a rule is asked about by its
	// subject, not by the tools it happens to name: its text is not parsed.
	byRole := typ == "decision" || typ == "fact" || typ == "reference"
	var cs []claim.Claim
	if byRole {
		cs = claims.Parse(text)
	}
	for _, c := range cs {
		if c.Negated || seen[c.Role] || len(seen) == maxRoles || !known(c.Role) {
			continue
		}
		seen[c.Role] = true
		out = append(out, roleQuestion(c.Role, subject))
	}
	if s := topic(subject); s != "" && len(out) == 0 {
		if q := kindQuestion(typ, s); q != "" {
			out = append(out, q)
		}
	}
	return out
}

// known reports whether role is one a question can name: a role of named
// tools, of a shape (a port, a path) or a product's version. A value no
// table lists gets its role from a word beside it, which may be a stem.
func known(role string) bool {
	return claim.Shape(role) || len(claim.Values(role)) > 0 || strings.HasPrefix(role, "version:")
}

// roleQuestion asks which value a role has, for the memory's subject when
// it names more than the role itself ("server start port": the server
// start's port).
func roleQuestion(role, subject string) string {
	if product, ok := strings.CutPrefix(role, "version:"); ok {
		return "What " + product + " version do we use?"
	}
	owner := topic(strings.TrimSpace(strings.ReplaceAll(" "+subject+" ", " "+role+" ", " ")))
	switch {
	case role == "path" && owner != "":
		return "Where is " + owner + "?"
	case owner == "":
		return "Which " + role + " do we use?"
	case claim.Shape(role):
		return "What " + role + " does " + owner + " use?"
	}
	return "Which " + role + " does " + owner + " use?"
}

// kindQuestion asks what a memory of kind typ says about subject s; ""
// for another kind (a session's digest is found by its session's words).
func kindQuestion(typ, s string) string {
	switch typ {
	case "decision":
		return "What was decided about " + s + "?"
	case "preference":
		return "How should " + s + " be done?"
	case "constraint":
		return "What rule applies to " + s + "?"
	case "lesson":
		return "What went wrong with " + s + " and how was it fixed?"
	case "task":
		return "What is left to do on " + s + "?"
	case "reference":
		return "Where is " + s + "?"
	case "fact":
		return "What is " + s + "?"
	}
	return ""
}

// topic is subject as a question names it, "" when it holds no content
// word (a subject "to" or "it" names nothing to ask about).
func topic(subject string) string {
	subject = strings.Join(strings.Fields(subject), " ")
	words := strings.FieldsFunc(strings.ToLower(subject), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	fw := funcwords.For(words)
	for _, w := range words {
		if len([]rune(w)) > 1 && !fw.Has(w) {
			return subject
		}
	}
	return ""
}

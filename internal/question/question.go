// Package question builds the short questions a memory answers from its kind, role and subject.
package question

import (
	"slices"
	"strings"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/korean"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
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
	// Stored text is valid UTF-8 already; a caller's bytes that are not
	// must not make a question that is not.
	subject, text = strings.ToValidUTF8(subject, ""), strings.ToValidUTF8(text, "")
	var out []string
	seen := map[string]bool{}
	// A lesson, a task, a preference or a rule is asked about by its
	// subject, not by the tools it happens to name: its text is not parsed.
	byRole := typ == "decision" || typ == "fact" || typ == "reference"
	var cs []claim.Claim
	if byRole {
		cs = claims.Parse(text)
	}
	src := newSource(text)
	for _, c := range cs {
		if c.Negated || seen[c.Role] || len(seen) == maxRoles || !known(c.Role) {
			continue
		}
		seen[c.Role] = true
		if q := roleQuestion(c, cs, subject, text, src); q != "" {
			out = append(out, q)
		}
	}
	s := topic(src.written(subject))
	if s == "" && typ == "lesson" {
		// A lesson's subject may be its cause ("token expired"), no
		// thing's name: its title names what failed.
		s = topic(src.written(failed(text)))
	}
	if s != "" && len(out) == 0 {
		if q := kindQuestion(typ, s); q != "" {
			out = append(out, q)
		}
	}
	return out
}

// failed is what the title (text's first line) says failed: its words
// before the first failure verb, after the last function word and without
// an adverb ("The cron job silently failed": cron job); "" when it names
// no failure.
func failed(text string) string {
	title, _, _ := strings.Cut(text, "\n")
	words := runs(title)
	for i, w := range words {
		if !slices.Contains(failureVerbs, w) && (w != "timed" || i+1 == len(words) || words[i+1] != "out") {
			continue
		}
		head := words[:i]
		for len(head) > 0 && adverb(head[len(head)-1]) {
			head = head[:len(head)-1]
		}
		fw := funcwords.For(words)
		j := len(head)
		for j > 0 && !fw.Has(head[j-1]) {
			j--
		}
		return strings.Join(head[j:], " ")
	}
	return ""
}

// failureVerbs say that something failed ("timed out" too).
var failureVerbs = []string{"failed", "broke", "crashed", "stopped"}

// known reports whether role is one a question can name: a role of named
// tools, of a shape (a port, a path) or a product's version. A value no
// table lists gets its role from a word beside it, which may be a stem.
func known(role string) bool {
	return claim.Shape(role) || len(claim.Values(role)) > 0 || strings.HasPrefix(role, "version:")
}

// roleQuestion asks which value c's role has, for the memory's subject when
// it names more than the role itself ("server start port": the server
// start's port) and the statement of the value names it too; of the
// project otherwise. A subject that holds the value ("vite version") or
// that the statement does not name ("error", when an error message
// happens to name a tool) is not what the value belongs to.
func roleQuestion(c claim.Claim, cs []claim.Claim, subject, text string, src *source) string {
	role := c.Role
	if product, ok := strings.CutPrefix(role, "version:"); ok {
		return "What " + product + " version do we use?"
	}
	// The role word and the value's words name no owner: "api port 8080"
	// asks of the api.
	owner := topic(src.written(strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(" "+subject+" ", " "+role+" ", " "), " "+strings.ToLower(c.Value)+" ", " "))))
	statement := text[max(0, min(c.Start, len(text))):max(0, min(c.End, len(text)))]
	if owner != "" && (hasWord(owner, c.Value) || !names(statement, owner) || isRole(owner, role) || !claim.Shape(role) && argument(statement, c.Value, owner)) {
		owner = ""
	}
	if owner != "" && !claim.Shape(role) && fileName(owner) {
		owner = "" // a file sets which tool is used; it does not use one
	}
	if owner != "" && role == "path" && holdsValue(owner, cs) {
		owner = "" // "npm run dev" is run, not found
	}
	switch {
	case role == "path" && owner != "":
		return "Where is " + owner + "?"
	case owner == "" && claim.Shape(role):
		return "" // "which port do we use?" asks nothing: a port is of something
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
// word (a subject "to" or "it" names nothing to ask about, nor does a
// number) or does not read as the name of a thing (phrase).
func topic(subject string) string {
	subject = strings.Join(strings.Fields(subject), " ")
	words := runs(subject)
	fw := funcwords.For(words)
	if !phrase(words, fw) {
		return ""
	}
	if len(words) == 1 && wordfreq.Zipf(words[0]) >= maxZipf {
		return "" // "once", "problem": a word of every sentence names no one thing
	}
	for _, w := range words {
		if len([]rune(w)) > 1 && !fw.Has(w) && strings.ContainsFunc(w, unicode.IsLetter) {
			return subject
		}
	}
	return ""
}

// maxZipf is how common in everyday English a subject of one word may be.
const maxZipf = 5.5

// reportVerbs are the verbs that open or close a line reporting work
// ("added retry helper", "build passed"): a subject cut from such a line
// names the work, not a thing.
var reportVerbs = []string{
	"added", "changed", "created", "deleted", "fixed", "implemented", "installed", "looking", "moved",
	"passed", "refactored", "removed", "renamed", "replaced", "running", "saved", "started", "switched",
	"updated", "uses", "using",
}

// phrase reports whether words read as a noun phrase: not opened or closed
// by a function word ("run it with", "since both keys"), with no adverb
// ("fully", "correctly": a clause's word) and no verb reporting work at
// either end.
func phrase(words []string, fw funcwords.Set) bool {
	if len(words) == 0 {
		return false
	}
	first, last := words[0], words[len(words)-1]
	if fw.Has(first) || fw.Has(last) || slices.Contains(reportVerbs, first) || slices.Contains(reportVerbs, last) {
		return false
	}
	if len(words) > 1 && strings.HasSuffix(last, "ed") && !strings.HasSuffix(last, "eed") {
		return false // "agent created": a clause, its verb last
	}
	for _, w := range words {
		if adverb(w) {
			return false
		}
	}
	return true
}

// adverb reports an English adverb: a word in -ly made of a common word
// ("correct-ly", "full-y", "eas-ily"), other than an adjective of a
// period ("weekly report") or of a kind ("friendly").
func adverb(w string) bool {
	stem, ok := strings.CutSuffix(w, "ly")
	if !ok || len(stem) < 3 || slices.Contains(lyAdjectives, w) {
		return false
	}
	var cands []string
	if len(stem) > 3 {
		cands = append(cands, stem)
	}
	if strings.HasSuffix(stem, "l") {
		cands = append(cands, stem+"l") // full-y
	}
	if s, ok := strings.CutSuffix(stem, "i"); ok {
		cands = append(cands, s+"y") // eas-ily
	}
	for _, c := range cands {
		if wordfreq.Zipf(c) >= minZipf {
			return true
		}
	}
	return false
}

// lyAdjectives are common adjectives in -ly made of a noun.
var lyAdjectives = []string{"daily", "hourly", "weekly", "monthly", "yearly", "quarterly", "nightly", "friendly", "costly", "orderly"}

// minZipf is how common the word an -ly word is made of must be to call
// the -ly word an adverb: "family" is not "fami" + "ly".
const minZipf = 3.5

// textWords is the set of words of text, lower-case: its runs of letters
// and digits.
func textWords(text string) map[string]bool {
	m := map[string]bool{}
	for _, w := range runs(text) {
		m[w] = true
	}
	return m
}

// runs splits s into its lower-case runs of letters and digits.
func runs(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// maxStemTail is how many letters a subject's stem ("websit") may lack of
// the word of the text it was cut from ("website").
const maxStemTail = 3

// joiners are the marks that join the words of one name without a space.
const joiners = "/:.-_@#()[]=+~"

// source is a memory's text as a subject is looked up in it.
type source struct {
	low   string          // the text, lower-case
	spans [][2]int        // its runs of letters and digits
	words map[string]bool // the runs
}

func newSource(text string) *source {
	s := &source{low: strings.ToLower(text), words: map[string]bool{}}
	s.spans = runSpans(s.low)
	for _, r := range s.spans {
		s.words[s.low[r[0]:r[1]]] = true
	}
	return s
}

// written returns subject as the memory's text writes it, "" when the text
// does not: each word of it whole ("lhost", cut from inside "localhost",
// or a syllable of a longer Korean word, is not), an index stem of a Latin
// word ("experienc") read as the one word of the text it begins
// ("experience"), the words in a row in one clause of the text, joined as
// the text joins them ("http://localhost:3000", not "http localhost 3000").
// A subject whose words the text splits ("server running http", from
// "server running at http://…") is a phrase made by the index, not a
// thing's name.
func (src *source) written(subject string) string {
	sp := runSpans(subject)
	if len(sp) == 0 {
		return ""
	}
	ws := make([]string, len(sp))
	for k, r := range sp {
		if ws[k] = src.word(subject[r[0]:r[1]]); ws[k] == "" {
			return ""
		}
	}
	for i := 0; i+len(ws) <= len(src.spans); i++ {
		if !src.at(i, ws) {
			continue
		}
		var b strings.Builder
		b.WriteString(subject[:sp[0][0]])
		for k, w := range ws {
			if k > 0 {
				b.WriteString(src.low[src.spans[i+k-1][1]:src.spans[i+k][0]])
			}
			b.WriteString(w)
		}
		b.WriteString(subject[sp[len(sp)-1][1]:])
		return b.String()
	}
	return ""
}

// word is w as the text writes it: w when the text holds it whole or, a
// Korean word, with a particle written onto it; the one word of the text
// it is the stem of; or "".
func (src *source) word(w string) string {
	if src.words[w] {
		return w
	}
	if korean.Hangul(w) {
		if hasJosa(src.words, w) {
			return w // "서버는": the word 서버 and its particle
		}
		return ""
	}
	if !isLatin(w) {
		return ""
	}
	full := ""
	for t := range src.words {
		if len(t) > len(w) && len(t) <= len(w)+maxStemTail && strings.HasPrefix(t, w) {
			if full != "" {
				return "" // two words it may be cut from: not one subject
			}
			full = t
		}
	}
	return full
}

// at reports whether the text's runs from the i-th are ws, one name: what
// separates them is one space or joiners ("localhost:3000", "app.main").
func (src *source) at(i int, ws []string) bool {
	for k, w := range ws {
		r := src.spans[i+k]
		if t := src.low[r[0]:r[1]]; t != w && !josa(t, w) {
			return false
		}
		if k > 0 {
			if sep := src.low[src.spans[i+k-1][1]:r[0]]; sep != " " && strings.Trim(sep, joiners) != "" {
				return false
			}
		}
	}
	return true
}

// josa reports whether the text word t is the Korean word w with one
// particle written onto it ("서버는": the word 서버 as a topic).
func josa(t, w string) bool {
	rest, ok := strings.CutPrefix(t, w)
	return ok && korean.Hangul(w) && slices.Contains(korean.Particles, rest)
}

// runSpans is the byte spans of the runs of letters and digits of s.
func runSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// isLatin reports whether w is written in ASCII letters only (the stems an
// English index cuts).
func isLatin(w string) bool {
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// hasWord reports whether phrase holds value as a whole word.
func hasWord(phrase, value string) bool {
	v := runs(value)
	if len(v) == 0 {
		return false
	}
	p := runs(phrase)
	for i := 0; i+len(v) <= len(p); i++ {
		if slices.Equal(p[i:i+len(v)], v) {
			return true
		}
	}
	return false
}

// fileName reports whether owner is the name of a file: one word with an
// extension (".env", "site.toml").
func fileName(owner string) bool {
	if strings.ContainsAny(owner, " /") {
		return false
	}
	i := strings.LastIndex(owner, ".")
	return i >= 0 && i < len(owner)-1 && !strings.ContainsFunc(owner[i+1:], func(r rune) bool { return !unicode.IsLetter(r) })
}

// holdsValue reports whether owner opens with the value of one of cs: a
// command of a tool ("pnpm dev"), not a place.
func holdsValue(owner string, cs []claim.Claim) bool {
	o := runs(owner)
	for _, c := range cs {
		if v := runs(c.Value); c.Role != "path" && len(v) > 0 && len(o) > len(v) && slices.Equal(o[:len(v)], v) {
			return true
		}
	}
	return false
}

// isRole reports whether owner names a role rather than a thing that has
// one: "database" does not use a workflow engine, and "framework" is no
// owner of a frontend framework.
func isRole(owner, role string) bool {
	o, r := runs(owner), runs(role)
	return known(owner) || len(o) > 0 && len(r) > 0 && o[len(o)-1] == r[len(r)-1]
}

// maxArgGap is how many words may stand between a tool and what the
// statement runs with it ("npm run build": build).
const maxArgGap = 2

// argument reports whether statement writes owner just after value, as
// what the tool is run with ("pnpm run deploy", "wrangler login"): a
// script or a subcommand of the tool, not a thing that uses it.
func argument(statement, value, owner string) bool {
	v, o, ws := runs(value), runs(owner), runs(statement)
	if len(v) == 0 || len(o) == 0 {
		return false
	}
	for i := 0; i+len(v) <= len(ws); i++ {
		if !slices.Equal(ws[i:i+len(v)], v) {
			continue
		}
		after := ws[i+len(v):]
		for k := 0; k < len(after) && k <= maxArgGap; k++ {
			if after[k] == o[0] {
				return true
			}
		}
	}
	return false
}

// names reports whether statement holds every word of phrase, a Korean
// word with or without its particle.
func names(statement, phrase string) bool {
	m := textWords(statement)
	for _, w := range runs(phrase) {
		if !m[w] && !hasJosa(m, w) {
			return false
		}
	}
	return true
}

// hasJosa reports whether words hold the Korean word w with a particle
// written onto it: each particle looked up, not each word read.
func hasJosa(words map[string]bool, w string) bool {
	if !korean.Hangul(w) {
		return false
	}
	for _, p := range korean.Particles {
		if words[w+p] {
			return true
		}
	}
	return false
}

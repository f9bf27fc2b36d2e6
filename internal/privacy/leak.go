package privacy

import (
	"math"
	"regexp"
	"strings"
	"sync"
)

// The hand-written rules (formatEdits, contextEdits) know the secrets a
// coding session shows most, in every shape they take there. Behind them,
// gitleaks' default rules (leakRules, generated into gitleaks_rules.go by
// scripts/gitleaksrules) add some two hundred provider formats, kept up by
// gitleaks' maintainers. They run as gitleaks runs them: a rule's regular
// expression only where one of its keywords occurs, then its secret group,
// entropy floor and allowlists.

// leakTarget is what an allowlist's regexes look at.
type leakTarget int

const (
	targetSecret leakTarget = iota
	targetMatch
	targetLine
)

// leakAllow is one gitleaks allowlist: a finding is allowed (not a
// secret) if any of its checks holds, or all of them with and.
type leakAllow struct {
	target    leakTarget
	and       bool
	regexes   []string
	stopwords []string // lower case
}

// leakRule is one gitleaks rule.
type leakRule struct {
	id string
	re string
	// value is, for a rule of gitleaks' semi-generic shape (name with a
	// keyword, separator, value), the expression of the value and what
	// ends it, anchored; see leakEdits.
	value    string
	keywords []string // lower case
	group    int      // the capture group holding the secret; 0: the first non-empty one
	entropy  float64  // a secret must have more Shannon entropy than this
	allow    []leakAllow
}

// compiledRule is a leakRule with its regular expressions compiled.
type compiledRule struct {
	re *regexp.Regexp
	// anchored is re matched only at the start of the text, for context
	// rules; see leakEdits.
	anchored *regexp.Regexp
	value    *regexp.Regexp
	allow    []compiledAllow
}

type compiledAllow struct {
	leakAllow
	res []*regexp.Regexp
}

// leakCompiled holds each rule compiled on first use. Compiling all of them
// costs milliseconds that every hook would pay for rules most texts never
// wake; a rule is compiled only once one of its keywords shows up, and
// then once per process. It is the package's only mutable state, and it
// only ever caches what the constant rules compile to.
var leakCompiled [len(leakRules)]struct {
	once sync.Once
	c    compiledRule
}

var (
	leakGlobal = sync.OnceValue(func() []compiledAllow { return compileAllows([]leakAllow{leakGlobalAllow}) })
	leakIndex  = sync.OnceValue(buildLeakIndex)
)

func compiledLeakRule(i int) *compiledRule {
	e := &leakCompiled[i]
	e.once.Do(func() {
		e.c = compiledRule{re: regexp.MustCompile(leakRules[i].re), allow: compileAllows(leakRules[i].allow)}
		switch {
		case leakRules[i].value != "":
			e.c.value = regexp.MustCompile(leakRules[i].value)
		case isContextRule(leakRules[i].re):
			e.c.anchored = regexp.MustCompile(`^(?:` + leakRules[i].re + `)`)
		}
	})
	return &e.c
}

func compileAllows(as []leakAllow) []compiledAllow {
	out := make([]compiledAllow, len(as))
	for i, a := range as {
		out[i].leakAllow = a
		for _, r := range a.regexes {
			out[i].res = append(out[i].res, regexp.MustCompile(r))
		}
	}
	return out
}

// keywordIndex finds every rule's keywords in one pass: a bit per pair of
// lower-case first bytes says whether any keyword starts so, and only
// then are the keywords of that pair compared.
type keywordIndex struct {
	pairs  [1 << 16 / 64]uint64
	slot   [1 << 16]uint16 // index into byPair, for the pairs whose bit is set
	byPair [][]keywordRules
}

type keywordRules struct {
	kw    string
	rules []int
}

func buildLeakIndex() *keywordIndex {
	n := 0
	for _, r := range leakRules {
		n += len(r.keywords)
	}
	// Sized up front: the index is built in every hook process that stores
	// text, and growing the map was a third of the building.
	x := &keywordIndex{byPair: make([][]keywordRules, 1, n+1)}
	rulesOf := make(map[string][]int, n)
	order := make([]string, 0, n)
	for i, r := range leakRules {
		for _, kw := range r.keywords {
			if len(kw) < 2 {
				continue // none is; a one-byte keyword would wake its rule everywhere
			}
			if _, ok := rulesOf[kw]; !ok {
				order = append(order, kw)
			}
			rulesOf[kw] = append(rulesOf[kw], i)
		}
	}
	for _, kw := range order {
		p := uint16(kw[0])<<8 | uint16(kw[1])
		x.pairs[p/64] |= 1 << (p % 64)
		if x.slot[p] == 0 {
			x.slot[p] = uint16(len(x.byPair))
			x.byPair = append(x.byPair, nil)
		}
		x.byPair[x.slot[p]] = append(x.byPair[x.slot[p]], keywordRules{kw, rulesOf[kw]})
	}
	return x
}

// lowerByte folds ASCII upper case.
func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// keywordHit is where a keyword occurs: s[start:end].
type keywordHit struct{ start, end int }

// find returns, for each rule whose keywords occur in s, where they occur.
func (x *keywordIndex) find(s string) map[int][]keywordHit {
	var found map[int][]keywordHit
	for i := 0; i+1 < len(s); i++ {
		p := uint16(lowerByte(s[i]))<<8 | uint16(lowerByte(s[i+1]))
		if x.pairs[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for _, k := range x.byPair[x.slot[p]] {
			if !hasFold(s, i, k.kw) {
				continue
			}
			if found == nil {
				found = map[int][]keywordHit{}
			}
			for _, r := range k.rules {
				if at := found[r]; len(at) == 0 || at[len(at)-1].start != i {
					found[r] = append(at, keywordHit{i, i + len(k.kw)})
				}
			}
		}
	}
	return found
}

// A format rule (neither semi-generic nor a context rule) runs over the
// whole text when the text is short, as gitleaks runs it. Over a longer
// text it runs only over the line of each of its keywords, so that a long tool output costs a few short windows rather
// than two hundred passes over all of it; a match whose keyword lies on
// another line is missed there.
const (
	leakWhole     = 4 << 10
	leakMaxBefore = 256
	leakMaxAfter  = 1 << 10
	// leakMaxValue bounds the text a semi-generic rule's value expression
	// reads: no value of theirs is longer than 150 bytes, and short input
	// lets Go's regexp use its fast backtracker.
	leakMaxValue = 256
)

// leakEdits masks what gitleaks' rules find in s.
//
// A context rule ("[\w.-]{0,50}?(?:keyword)…=value") is tried only where a
// separator follows one of its keywords, and only anchored at the start
// of the name that holds the keyword: Go's regexp runs an unanchored
// expression that starts with fifty optional bytes at a few MB/s, and an
// anchored one over a few dozen bytes.
func leakEdits(s string, edits []edit) []edit {
	found := leakIndex().find(s)
	for r, at := range found {
		c := compiledLeakRule(r)
		if c.value != nil {
			done := 0
			for _, h := range at {
				if h.start < done {
					continue
				}
				n := len(edits)
				edits = leakValue(s, h, r, c, edits)
				if len(edits) > n {
					done = edits[len(edits)-1].end
				}
			}
			continue
		}
		if c.anchored != nil {
			done := 0
			for _, h := range at {
				if h.start < done || !separatorAfter(s, h.end) {
					continue
				}
				st := h.start
				for st > 0 && h.start-st < 50 && (isToken(s[st-1]) || s[st-1] == '.') {
					st--
				}
				n := len(edits)
				edits = leakMatch(s, st, min(len(s), h.end+leakMaxAfter), r, c, edits)
				if len(edits) > n {
					done = edits[len(edits)-1].end
				}
			}
			continue
		}
		if len(s) <= leakWhole {
			edits = leakMatches(s, 0, len(s), r, c, edits)
			continue
		}
		done := 0 // s[:done] has been searched
		for _, h := range at {
			if h.start < done {
				continue
			}
			from := max(h.start-leakMaxBefore, done)
			if i := strings.LastIndexByte(s[from:h.start], '\n'); i >= 0 {
				from += i + 1
			}
			// The keyword's line: the formats these rules know are tokens
			// that hold their keyword, written on one line.
			to := min(len(s), h.end+leakMaxAfter)
			if i := strings.IndexByte(s[h.end:to], '\n'); i >= 0 {
				to = h.end + i
			}
			edits = leakMatches(s, from, to, r, c, edits)
			done = to
		}
	}
	return edits
}

// separators are the separators of gitleaks' semi-generic rules.
var separators = [...]string{":::=", "::=", ":=", "=>", "?=", "||", "=", ">", ":", ","}

// leakValue masks the value that a semi-generic rule's keyword at h
// names, as the rule's whole expression would: at most twenty name bytes
// or blanks and three blanks or quotes after the keyword, a separator, at
// most five quotes, blanks or '=', then the value.
func leakValue(s string, h keywordHit, r int, c *compiledRule, edits []edit) []edit {
	p := h.end
	for n := 0; p < len(s) && n < 20 && (isToken(s[p]) || s[p] == '.' || isBlank(s[p])); n++ {
		p++
	}
	for n := 0; p < len(s) && n < 3 && (s[p] <= ' ' && s[p] != 0 || s[p] == '"' || s[p] == '\''); n++ {
		p++
	}
	st := h.start
	for st > 0 && h.start-st < 50 && (isToken(s[st-1]) || s[st-1] == '.') {
		st--
	}
	for _, sep := range separators {
		if !strings.HasPrefix(s[p:], sep) {
			continue
		}
		q := p + len(sep)
		for k := 0; k <= 5 && q+k <= len(s); k++ {
			if k > 0 && !(isQuote(s[q+k-1]) || s[q+k-1] <= ' ' || s[q+k-1] == '=') {
				break
			}
			v := q + k
			if m := c.value.FindStringSubmatchIndex(s[v:min(len(s), v+leakMaxValue)]); m != nil {
				// The match as the whole expression would give it: from
				// the name to the end of the value.
				for i := range m {
					if m[i] >= 0 {
						m[i] += v - st
					}
				}
				m[0] = 0
				return leakFinding(s, st, m, r, c, edits)
			}
		}
	}
	return edits
}

// isContextRule reports whether a gitleaks rule finds a value by the name
// before it: its expression starts with up to fifty name bytes, then the
// keyword, then a separator ('=', ':', '>', ',', "||", "?=").
func isContextRule(re string) bool {
	re = strings.TrimPrefix(re, "(?i)")
	return strings.HasPrefix(re, `[\w.-]{0,50}?`)
}

// separatorAfter reports whether the separator a context rule needs can
// follow the keyword that ends at s[i]: at most twenty name bytes or
// blanks, three blanks or quotes, then a separator. Most keywords in code
// and prose (keyboard, "the key is") fail here, before any regular
// expression runs.
func separatorAfter(s string, i int) bool {
	for n := 0; i < len(s) && n < 20 && (isToken(s[i]) || s[i] == '.' || isBlank(s[i])); n++ {
		i++
	}
	for n := 0; i < len(s) && n < 3 && (s[i] <= ' ' || s[i] == '"' || s[i] == '\''); n++ {
		i++
	}
	return i < len(s) && strings.IndexByte("=>:|?,", s[i]) >= 0
}

// leakMatch masks the secret rule r's anchored expression finds at
// s[from:], looking no further than s[to].
func leakMatch(s string, from, to, r int, c *compiledRule, edits []edit) []edit {
	if m := c.anchored.FindStringSubmatchIndex(s[from:to]); m != nil {
		edits = leakFinding(s, from, m, r, c, edits)
	}
	return edits
}

// leakMatches masks the secrets rule r finds in s[from:to].
func leakMatches(s string, from, to, r int, c *compiledRule, edits []edit) []edit {
	for _, m := range c.re.FindAllStringSubmatchIndex(s[from:to], -1) {
		edits = leakFinding(s, from, m, r, c, edits)
	}
	return edits
}

// leakFinding masks the secret of match m of rule r in s[from:], unless
// gitleaks' checks let it be.
func leakFinding(s string, from int, m []int, r int, c *compiledRule, edits []edit) []edit {
	rule := &leakRules[r]
	start, end := from+m[0], from+m[1]
	// gitleaks drops the line breaks a match ends with.
	for end > start && s[end-1] == '\n' {
		end--
	}
	ss, se := start, end
	switch {
	case rule.group > 0 && 2*rule.group+1 < len(m):
		if m[2*rule.group] < 0 {
			return edits
		}
		ss, se = from+m[2*rule.group], from+m[2*rule.group+1]
	case rule.group == 0:
		for g := 1; 2*g+1 < len(m); g++ {
			if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
				ss, se = from+m[2*g], from+m[2*g+1]
				break
			}
		}
	}
	se = min(se, end)
	if se <= ss {
		return edits
	}
	secret := s[ss:se]
	if rule.entropy != 0 && shannonEntropy(secret) <= rule.entropy {
		return edits
	}
	if (rule.value != "" || strings.HasPrefix(rule.id, "generic")) && looksLikeName(strings.Trim(secret, `"'`)) {
		return edits
	}
	if overlapsMarker(s, ss, se) {
		return edits
	}
	line := s[lineStart(s, start):lineEnd(s, end)]
	if allowed(leakGlobal(), secret, s[start:end], line) || allowed(c.allow, secret, s[start:end], line) {
		return edits
	}
	return append(edits, edit{ss, se, rule.id})
}

// allowed reports whether an allowlist lets a finding be.
func allowed(as []compiledAllow, secret, match, line string) bool {
	for _, a := range as {
		target := secret
		switch a.target {
		case targetMatch:
			target = match
		case targetLine:
			target = line
		}
		var checks, held int
		if len(a.res) > 0 {
			checks++
			for _, re := range a.res {
				if re.MatchString(target) {
					held++
					break
				}
			}
		}
		if len(a.stopwords) > 0 {
			checks++
			low := strings.ToLower(secret)
			for _, w := range a.stopwords {
				if strings.Contains(low, w) {
					held++
					break
				}
			}
		}
		if checks > 0 && (a.and && held == checks || !a.and && held > 0) {
			return true
		}
	}
	return false
}

// overlapsMarker reports whether s[ss:se] overlaps a marker an earlier
// rule wrote.
func overlapsMarker(s string, ss, se int) bool {
	if strings.Contains(s[ss:se], redactPrefix) {
		return true
	}
	// Inside a marker: a "[REDACTED:" before ss that no ']' closes.
	lo := max(0, ss-len(redactPrefix)-64)
	if i := strings.LastIndex(s[lo:ss], redactPrefix); i >= 0 && !strings.Contains(s[lo+i:ss], "]") {
		return true
	}
	// A marker that starts inside the secret's tail.
	hi := min(len(s), se+len(redactPrefix))
	return strings.Contains(s[max(ss, se-len(redactPrefix)):hi], redactPrefix)
}

// shannonEntropy is the entropy of s in bits per byte, as gitleaks
// computes it.
func shannonEntropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	var h float64
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// looksLikeName reports whether what one of gitleaks' generic or
// semi-generic rules took for a secret is a name in code
// (encryptionKey1024, PCP_CHANGEPASSWORD, ek.encryptionKey1024,
// TDHPRIVKEY_VER3) or an OID or version (1.3.6.1.4.1.311): the
// hand-written rules judge the values of secret-named keys, and these
// rules add only values that look like no name.
func looksLikeName(v string) bool {
	if strings.Trim(v, "0123456789.") == "" {
		return true
	}
	switch {
	case isDottedName(v): // ek.encryptionKey1024
		return true
	case !isIdent(v):
		return false
	case strings.Contains(v, "_") && !strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyz"): // TDHPRIVKEY_VER3
		return true
	}
	return identNamesSecret(v) || !hasDigit(v)
}

// lineStart is the start of the line holding s[i], looked for at most 256
// bytes back.
func lineStart(s string, i int) int {
	if j := strings.LastIndexByte(s[max(0, i-256):i], '\n'); j >= 0 {
		return max(0, i-256) + j + 1
	}
	return max(0, i-256)
}

// lineEnd is the end of the line holding s[i], looked for at most 256
// bytes on.
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:min(len(s), i+256)], '\n'); j >= 0 {
		return i + j
	}
	return min(len(s), i+256)
}

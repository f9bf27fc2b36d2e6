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
	id       string
	re       string
	keywords []string // lower case
	group    int      // the capture group holding the secret; 0: the first non-empty one
	entropy  float64  // a secret must have more Shannon entropy than this
	allow    []leakAllow
}

// compiledRule is a leakRule with its regular expressions compiled.
type compiledRule struct {
	re    *regexp.Regexp
	allow []compiledAllow
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
	byPair map[uint16][]keywordRules
}

type keywordRules struct {
	kw    string
	rules []int
}

func buildLeakIndex() *keywordIndex {
	x := &keywordIndex{byPair: map[uint16][]keywordRules{}}
	rulesOf := map[string][]int{}
	var order []string
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
		x.byPair[p] = append(x.byPair[p], keywordRules{kw, rulesOf[kw]})
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

// find returns, for each rule whose keywords occur in s, where they occur.
func (x *keywordIndex) find(s string) map[int][]int {
	var found map[int][]int
	for i := 0; i+1 < len(s); i++ {
		p := uint16(lowerByte(s[i]))<<8 | uint16(lowerByte(s[i+1]))
		if x.pairs[p/64]&(1<<(p%64)) == 0 {
			continue
		}
		for _, k := range x.byPair[p] {
			if !hasFold(s, i, k.kw) {
				continue
			}
			if found == nil {
				found = map[int][]int{}
			}
			for _, r := range k.rules {
				if at := found[r]; len(at) == 0 || at[len(at)-1] != i {
					found[r] = append(at, i)
				}
			}
		}
	}
	return found
}

// A rule runs over the whole text when the text is short, as gitleaks runs
// it. Over a longer text it runs only over windows around its keywords,
// so that a 1 MB tool output costs a few windows rather than two hundred
// passes; a match whose keyword lies further away than that is missed.
const (
	leakWhole        = 64 << 10
	leakWindowBefore = 1 << 10
	leakWindowAfter  = 4 << 10
)

// leakEdits masks what gitleaks' rules find in s.
func leakEdits(s string, edits []edit) []edit {
	found := leakIndex().find(s)
	for r, at := range found {
		c := compiledLeakRule(r)
		if len(s) <= leakWhole {
			edits = leakMatches(s, 0, len(s), r, c, edits)
			continue
		}
		for i := 0; i < len(at); {
			from := lineStart(s, max(0, at[i]-leakWindowBefore))
			to := min(len(s), at[i]+leakWindowAfter)
			for i++; i < len(at) && at[i]-leakWindowBefore < to; i++ {
				to = min(len(s), at[i]+leakWindowAfter)
			}
			edits = leakMatches(s, from, lineEnd(s, to), r, c, edits)
		}
	}
	return edits
}

func lineStart(s string, i int) int {
	if j := strings.LastIndexByte(s[:i], '\n'); j >= 0 && i-j < 256 {
		return j + 1
	}
	return i
}

func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 && j < 256 {
		return i + j
	}
	return i
}

// leakMatches masks the secrets rule r finds in s[from:to].
func leakMatches(s string, from, to, r int, c *compiledRule, edits []edit) []edit {
	rule := &leakRules[r]
	for _, m := range c.re.FindAllStringSubmatchIndex(s[from:to], -1) {
		start, end := from+m[0], from+m[1]
		// gitleaks drops the line breaks a match ends with.
		for end > start && s[end-1] == '\n' {
			end--
		}
		ss, se := start, end
		switch {
		case rule.group > 0 && 2*rule.group+1 < len(m):
			if m[2*rule.group] < 0 {
				continue
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
			continue
		}
		secret := s[ss:se]
		if rule.entropy != 0 && shannonEntropy(secret) <= rule.entropy {
			continue
		}
		if strings.HasPrefix(rule.id, "generic") && looksLikeName(secret) {
			continue
		}
		if overlapsMarker(s, ss, se) {
			continue
		}
		line := s[lineStart(s, start):lineEnd(s, end)]
		if allowed(leakGlobal(), secret, s[start:end], line) || allowed(c.allow, secret, s[start:end], line) {
			continue
		}
		edits = append(edits, edit{ss, se, rule.id})
	}
	return edits
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

// looksLikeName reports whether what gitleaks' generic rule took for a
// secret is a name in code (encryptionKey1024, PCP_CHANGEPASSWORD) or an
// OID or version (1.3.6.1.4.1.311): the hand-written rules judge the
// values of secret-named keys, and the generic rule adds only values that
// look like no name.
func looksLikeName(v string) bool {
	if strings.Trim(v, "0123456789.") == "" {
		return true
	}
	return isIdent(v) && (identNamesSecret(v) || !hasDigit(v))
}

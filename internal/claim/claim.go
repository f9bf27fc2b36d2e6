// Package claim recognises what a statement decides: its role, its value, and whether it says it replaces an earlier value.
package claim

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/wordfreq"
)

// Claim is one decision a text makes: which role ("test runner", "port",
// "version:node") it fills with which value, and what it says it replaces.
type Claim struct {
	Role     string // canonical role: "test runner", "package manager", "database", "port", "version:node", ...
	Value    string // canonical value, lower-case: "vitest", "5432", "postgres"
	Replaces string // the value this statement explicitly replaces ("switch from X to Y" -> X), or ""
	Negated  bool   // the statement rejects Value ("no longer use X", "don't use X", "X 더 이상")
	Removed  bool   // rejected as removed ("removed X", "dropped X"): it was there and is gone
	Start    int    // byte span of the statement in the text it was parsed from
	End      int

	// Changed is set when the claim's statement says it changes something
	// ("from now on", "moved to", "대신"), even without naming the old value.
	Changed bool
	// Except is set when the statement states an exception to a default
	// ("team accounts get 50 GB instead of the default"): a refinement.
	Except bool
	// Setting is set when the value is written as a setting's name
	// ("USE_CACHE"): it names what is set, not a value of it.
	Setting bool
	// Scope holds the stems of the statement's content words other than the
	// values: what the decision is about ("price", "cache"), compared to
	// tell one component's decision from another's.
	Scope []string
	// Weak is set when the value is a plain word that modifies the words
	// after it or a state said with "now" ("now ready", "with proper
	// codes"): enough to tell what a statement is about, never a value to
	// set against another (Compare skips it).
	Weak bool
	// moved is set when change wording marks the value as the one a change
	// sets ("X now", "X instead", "switched to X"), not only as used ("use
	// X"). Only Compare reads it, so it is no part of the claim's key.
	moved bool
	// tally is set for a number of things said without a change ("14
	// looms"): Compare reads it only as the older side of a count the
	// newer says it changed ("14 looms down to 8").
	tally bool
}

// Relation is how a later text's claims relate to an earlier text's claims.
type Relation int

// The relations Compare reports, weakest first.
const (
	Unrelated   Relation = iota // no role in common, or different components
	Agrees                      // the same value for the same role
	Refines                     // agrees and adds detail, or states an exception
	Contradicts                 // another value for the same role, without saying it replaces it
	Supersedes                  // another value for the same role, saying it replaces the earlier one
)

func (r Relation) String() string {
	switch r {
	case Agrees:
		return "agrees"
	case Refines:
		return "refines"
	case Contradicts:
		return "contradicts"
	case Supersedes:
		return "supersedes"
	}
	return "unrelated"
}

// ChangeCue reports whether text explicitly says it replaces something earlier.
func ChangeCue(text string) bool {
	if len(text) > maxText {
		text = text[:maxText]
	}
	toks, sents := tokenize(text)
	return anyChangeCue(text, toks, sents)
}

// anyChangeCue reports whether one of the statements sents says it
// changes something.
func anyChangeCue(text string, toks []token, sents []statement) bool {
	for _, s := range sents {
		if changeCue(text, toks, s) {
			return true
		}
	}
	return false
}

// Settled reports whether text states what it names as it stands: no
// change wording (ChangeCue) and no word the parser reads as putting a
// thing named on the side of what goes, a removal, a rejection or a
// negation ("Now remove `x`", "we don't need `x`", "`x` instead of `y`").
// "Added `x` as a dependency" is settled; a plan to remove it is not. The
// words are the parser's own (strongBefore, rejectBefore, strongAfter):
// wording they lack ("delete", "rip out") passes, as it passes Parse.
func Settled(text string) bool {
	if len(text) > maxText {
		text = text[:maxText]
	}
	toks, sents := tokenize(text)
	for _, t := range toks {
		if strongBefore().Has(t.s) || rejectBefore().Has(t.s) || strongAfter().Has(t.s) {
			return false
		}
	}
	return !anyChangeCue(text, toks, sents)
}

// mention is one place a value of a role occurs.
type mention struct {
	role, value   string
	first, last   int // token indexes of the mention
	sent          int
	old, new, neg bool // marked as the old value, the new one, rejected outright
	removed       bool // rejected by a removal ("removed X")
	listed        int  // 1+ the mention a removal names before it in one list ("removed `a` and `b`"), else 0
	weak          bool // a plain word that does not stand for itself (Claim.Weak)
	moved         bool // marked new by change wording (Claim.moved)
	tally         bool // a number of things, not a setting (Claim.tally)
}

// Parse returns the claims a text makes (any length: a sentence, a message,
// an entry's title+body+quote). It never fails: a text without a
// recognisable decision yields nil.
func Parse(text string) []Claim {
	if len(text) > maxText {
		text = text[:maxText]
	}
	toks, sents := tokenize(text)
	if len(toks) == 0 {
		return nil
	}
	p := parser{text: text, toks: toks, sents: sents, owner: make([]int16, len(toks))}
	p.mark()
	p.find()
	p.shaped()
	p.examples()
	p.partners()
	if len(p.ms) == 0 {
		return nil
	}
	p.markers()
	p.changedCounts()
	p.weakenOffered()
	return p.claims()
}

// maxText bounds the work on one text: decisions are stated in sentences,
// not in a pasted log.
const maxText = 64 << 10

type parser struct {
	text    string
	toks    []token
	sents   []statement
	ms      []mention
	owner   []int16  // 1 + index of the mention a token belongs to, 0 if none
	cue     []bool   // per statement: change wording
	offered []bool   // per token: in the clause of an alternative offered, no decision
	except  []bool   // per statement: exception wording
	counted [][2]int // mentions of a count changed: the old, the new
	scopes  [][]string
}

// mark finds which statements carry change and exception wording.
func (p *parser) mark() {
	p.cue = make([]bool, len(p.sents))
	p.except = make([]bool, len(p.sents))
	p.offered = make([]bool, len(p.toks))
	for i, s := range p.sents {
		p.cue[i] = changeCue(p.text, p.toks, s)
		p.except[i] = exceptCue(p.toks, s)
		p.offers(s)
	}
	plan := p.plan()
	for _, s := range p.sents {
		// A text that presents itself as a plan proposes each change it
		// lists ("Replace the Kelbo client with Quillet", "Switch to
		// polling"); only one it reports made is made. A task list's
		// open item ("- [ ] Remove the Kelbo client") is a change to
		// make, wherever it stands.
		if s.n > 0 && (plan && !p.made(s.first, s.first+s.n-1) || p.onOpenTask(s)) {
			p.markOffered(s.first, s.first+s.n-1)
		}
	}
	// The items of a list under a line that says a change ("Key changes
	// in `player.ts`:") are the changes: an arrow between two names in one
	// ("- `kelbo` → `quillet`") says where it went, as "to" does after a
	// change word. One pass: the header is the last statement on a line no
	// list marker opens, read once.
	header, heads, read := -1, false, false
	line, seen := 0, 0 // where the line of the statement at hand starts; text[:seen] is read
	for i, s := range p.sents {
		if nl := strings.LastIndexByte(p.text[seen:s.start], '\n'); nl >= 0 {
			line = seen + nl + 1
		}
		seen = s.start
		if _, item := cutListMarker(strings.TrimLeft(p.text[line:s.start], " \t")); !item {
			header, read = i, false
			continue
		}
		if p.cue[i] || header < 0 || !p.namesArrow(s) {
			continue
		}
		if !read {
			hs := p.sents[header]
			heads, read = strings.HasSuffix(strings.TrimRight(p.text[hs.start:hs.end], " *_"), ":") && p.announcesChange(header), true
		}
		p.cue[i] = heads
	}
}

// namesArrow reports an arrow in statement s between two code spans or two
// capitalised words ("`kelbo-av` → `kelbo-audio`", "Kelbo → Quillet"), not
// between words of a sentence ("the key from your profile → Basic auth").
func (p *parser) namesArrow(s statement) bool {
	for k := s.first + 1; k+1 < s.first+s.n; k++ {
		if !p.isArrow(k) {
			continue
		}
		before, after := p.text[p.toks[k-1].end:p.toks[k].start], p.text[p.toks[k].end:p.toks[k+1].start]
		if strings.Contains(before, "`") && strings.Contains(after, "`") || upper(p.text[p.toks[k-1].start]) && upper(p.text[p.toks[k+1].start]) {
			return true
		}
	}
	return false
}

func upper(c byte) bool { return c >= 'A' && c <= 'Z' }

// onOpenTask reports a statement on a line that is a task list's open
// item (openTask).
func (p *parser) onOpenTask(s statement) bool {
	start, end := lineBounds(p.text, s.start)
	return openTask(strings.TrimSpace(p.text[start:end]))
}

// isArrow reports whether token k is an arrow, which tokenize reads as "to".
func (p *parser) isArrow(k int) bool {
	return k >= 0 && k < len(p.toks) && p.toks[k].arrow
}

// plan reports a text whose first line of words, or the line after a heading
// that opens it, presents a plan or a proposal of a
// change ("# Kelbo Migration Plan", "here's a plan to move the ledger to
// Quillet:", "I've created a migration plan to Quillet"). A plan that is a
// thing made ("feat: add the deployment plan", "a plan with 12 agents")
// proposes nothing.
func (p *parser) plan() bool {
	if len(p.toks) == 0 {
		return false
	}
	// The first line with a word: a text may open with blank lines.
	start, end := lineBounds(p.text, p.toks[0].start)
	if p.plans(start, end) {
		return true
	}
	// A heading names the text ("## Summary"); the line after it says
	// what it is as well ("I've created a migration plan to Quillet").
	// Each line is read alone: a plan word ending the heading ("##
	// Backup plan") does not reach the line under it.
	if !heading(strings.TrimSpace(p.text[start:end])) {
		return false
	}
	for _, t := range p.toks {
		if t.start > end {
			return p.plans(lineBounds(p.text, t.start))
		}
	}
	return false
}

// plans reports a plan word in text[start:end] that presents a plan or a
// proposal of a change (plan).
func (p *parser) plans(start, end int) bool {
	first := 0
	for first < len(p.toks) && p.toks[first].start < start {
		first++
	}
	n := first
	for n < len(p.toks) && p.toks[n].start < end {
		n++
	}
	for k := first; k < n; k++ {
		if planWords().Has(p.toks[k].s) && (p.planned(k, n) || k > first && changeWord(p.toks[k-1].s)) {
			return true
		}
	}
	return false
}

// heading reports a trimmed line that is a Markdown heading: one to six
// "#" and a space ("## Summary"; not "#123" or "#!/bin/sh"), as recall's
// isHeading reads one.
func heading(line string) bool {
	n := len(line) - len(strings.TrimLeft(line, "#"))
	return n >= 1 && n <= 6 && strings.HasPrefix(line[n:], " ")
}

// lineBounds returns the start and end of the line of text holding byte i,
// its newline left out.
func lineBounds(text string, i int) (start, end int) {
	start = strings.LastIndexByte(text[:i], '\n') + 1
	if k := strings.IndexByte(text[i:], '\n'); k >= 0 {
		return start, i + k
	}
	return start, len(text)
}

// announcesChange reports a line, the one holding statement h, that says
// a change or names changes ("Audio refactor done. Key changes in X:",
// "Migrated the client:"): a list under it lists what changed.
func (p *parser) announcesChange(h int) bool {
	line := strings.LastIndexByte(p.text[:p.sents[h].start], '\n')
	for k := h; k >= 0 && p.sents[k].start > line; k-- {
		if p.cue[k] {
			return true
		}
		st := p.sents[k]
		if slices.ContainsFunc(p.toks[st.first:st.first+st.n], func(t token) bool { return changeWord(t.s) }) {
			return true
		}
	}
	return false
}

// changeWord reports a word that says a change made or to make: a change
// verb's form ("changes", "migration", "switched") or a verb of one done
// ("replaced", "dropped").
func changeWord(w string) bool {
	return doneWords().Has(w) || slices.ContainsFunc(cueVerbs, func(v string) bool { return strings.HasPrefix(w, v) && len(w) <= len(v)+4 })
}

func (p *parser) add(role, value string, first, last int) {
	if value == "" || len(p.ms) >= 1<<14 {
		return
	}
	for k := first; k <= last; k++ {
		if p.owner[k] != 0 {
			return // already part of another mention
		}
	}
	p.ms = append(p.ms, mention{role: role, value: value, first: first, last: last, sent: p.toks[first].sent})
	for k := first; k <= last; k++ {
		p.owner[k] = int16(len(p.ms))
	}
}

// find collects the mentions of values, most specific shapes first.
func (p *parser) find() {
	v := vocab()
	lastProduct := ""
	portSeen := false
	durRole := ""
	for i := 0; i < len(p.toks); i++ {
		t := &p.toks[i]
		if t.hangul || p.owner[i] != 0 {
			continue
		}
		// Product and version: "Node 20", "go 1.23", "python3.12".
		if prod, ver, last := p.version(i); prod != "" {
			lastProduct = prod
			p.add(VersionRole(prod), ver, i, last)
			if tl := v.phrases[p.toks[i].s]; tl != nil && len(p.ms) > 0 && int(p.owner[i]) == len(p.ms) {
				// The tool is also chosen ("MySQL 8" says MySQL): a second
				// mention over the same tokens.
				m := p.ms[len(p.ms)-1]
				m.role, m.value = p.pickRole(tl, i), tl.value
				p.ms = append(p.ms, m)
			}
			i = last
			continue
		}
		// Known tools, longest phrase first.
		if n, tl := p.phrase(v, i); tl != nil && !p.productCode(i+n-1) && !p.roleNoun(tl.value, i) {
			p.add(p.pickRole(tl, i), tl.value, i, i+n-1)
			i += n - 1
			continue
		}
		s := t.s
		switch {
		case isRegion(s):
			p.add("region", s, i, i)
		case isClock(s):
			p.add("time", s, i, i)
		case strings.Contains(s, "://"):
			host := s[strings.Index(s, "://")+3:]
			if k := strings.IndexAny(host, "/?#&"); k >= 0 {
				host = host[:k]
			}
			host = host[strings.LastIndexByte(host, '@')+1:] // not its user and password
			p.add("host", host, i, i)
		case isPath(s) && p.imageName(i):
			p.add("image", s, i, i)
		case isPath(s) && p.repositoryName(i):
			p.add("repository", s, i, i)
		case isPath(s) && t.start > 0 && p.text[t.start-1] == '<':
			// "</div>": a closing tag of pasted markup, no path.
		case isPath(s) && t.start > 0 && p.text[t.start-1] == '@' && scopedPackage(s):
			// "@cloudflare/next-on-pages", "@types/node@20": a scoped
			// package's name, no path.
		case isPath(s) && !wordPair(p.text[t.start:t.end]):
			if role := p.packageFor(i); role != "" {
				p.add(role, s, i, i)
				continue
			}
			p.add("path", strings.TrimSuffix(strings.TrimPrefix(s, "./"), "/"), i, i)
		case isNumber(s) || durationOf(s, t.particle) != "":
			if d := p.duration(i); d != "" {
				role := durationRole(p, t.sent)
				if role == "" {
					role = durRole
				}
				// "45초로 바꿔 주세요" right before or after the sentence that
				// names the timeout.
				for _, s := range []int{t.sent - 1, t.sent + 1} {
					if role == "" && s >= 0 && s < len(p.sents) {
						role = durationRole(p, s)
					}
				}
				if role != "" {
					durRole = role
					p.add(role, d, i, p.unitEnd(i))
				}
				continue
			}
			if role, val, last := p.count(i); role != "" {
				p.add(role, val, i, last)
				continue
			}
			if isNumber(s) && strings.Contains(s, ".") && isVersion(s) && !isIPv4(s) {
				// "must target 3.12": the product is the one named last in
				// the statement, or the one last given a version.
				prod := p.productBefore(i)
				if prod == "" {
					prod = lastProduct
				}
				if prod != "" {
					lastProduct = prod
					p.add(VersionRole(prod), canonVersion(s), i, i)
					continue
				}
			}
			if isPortNumber(s) && (portSeen || p.afterPortWord(i)) {
				portSeen = true
				p.add("port", strings.TrimLeft(s, "0"), i, i)
			}
			if p.owner[i] == 0 {
				p.tally(i)
			}
		default:
			if k := strings.LastIndexByte(s, ':'); k > 0 && isPortNumber(s[k+1:]) && !isNumber(s[:k]) && !fileLine(s[:k]) {
				portSeen = true
				p.add("port", s[k+1:], i, i)
				continue
			}
			if role, val := p.named(i); role != "" {
				p.add(role, val, i, i)
			}
		}
	}
}

// roleNoun reports a tool's name that is also a role's ("bundler", Ruby's
// package manager and any bundler) written as the role: in lower case,
// after a determiner and a word that qualifies it ("the default bundler",
// "a new artifact registry"). "The bundler gem", "the Artifact Registry"
// name the tool.
func (p *parser) roleNoun(value string, i int) bool {
	if !tableRoles()[value] || i < 2 || p.toks[i-2].sent != p.toks[i].sent {
		return false
	}
	t := p.toks[i]
	return determiners().Has(p.toks[i-2].s) && !determiners().Has(p.toks[i-1].s) &&
		p.text[t.start:t.end] == t.s
}

// productCode reports a product code right after token i ("Cloudflare R5",
// "Acme X2"): the vendor's product, which no table lists, not the vendor's
// own tool; the name is read by its shape (shaped).
func (p *parser) productCode(i int) bool {
	j := i + 1
	if j >= len(p.toks) || p.toks[i].particle != "" || p.toks[j].sent != p.toks[i].sent || !onlySpace(p.text[p.toks[i].end:p.toks[j].start]) {
		return false
	}
	t := p.toks[j]
	return codeName(p.text[t.start:t.end-len(t.particle)]) && vocab().phrases[t.s] == nil
}

// codeName: a capital letter then letters and digits, with a digit, up to
// six long ("R5", "X2", "M4"), not a version.
func codeName(raw string) bool {
	if len(raw) < 2 || len(raw) > 6 || raw[0] < 'A' || raw[0] > 'Z' || isVersion(strings.ToLower(raw)) {
		return false
	}
	digit := false
	for i := 1; i < len(raw); i++ {
		switch c := raw[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		default:
			return false
		}
	}
	return digit
}

// phrase finds the longest known tool phrase starting at token i.
func (p *parser) phrase(v *vocabulary, i int) (int, *tool) {
	for n := min(v.maxLen, len(p.toks)-i); n >= 2; n-- {
		if !p.sameRun(i, n) {
			continue
		}
		var b strings.Builder
		for k := 0; k < n; k++ {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(p.toks[i+k].s)
		}
		if tl := v.phrases[b.String()]; tl != nil {
			return n, tl
		}
		// "merge commits", "api keys": a phrase's plural names it too.
		if last := p.toks[i+n-1].s; len(last) > 3 && last[len(last)-1] == 's' {
			if tl := v.phrases[strings.TrimSuffix(b.String(), "s")]; tl != nil {
				return n, tl
			}
		}
	}
	if tl := v.phrases[p.toks[i].s]; tl != nil {
		return 1, tl
	}
	// A trailing "-style", "-based" or the like makes another word
	// ("MySQL-style"), not the tool.
	return 0, nil
}

// sameRun reports whether tokens i..i+n-1 are adjacent Latin words of one
// statement, only the last carrying a particle.
func (p *parser) sameRun(i, n int) bool {
	if !firstWords()[p.toks[i].s] {
		return false
	}
	for k := i; k < i+n; k++ {
		t := p.toks[k]
		if t.hangul || t.sent != p.toks[i].sent || (k < i+n-1 && t.particle != "") || p.owner[k] != 0 {
			return false
		}
		if k > i && !onlySpace(p.text[p.toks[k-1].end:t.start]) {
			return false
		}
	}
	return true
}

func onlySpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' && s[i] != '-' {
			return false
		}
	}
	return len(s) <= 2
}

// firstWords holds the first word of each multi-word phrase, so most tokens
// skip building n-grams. Built on first use, as the vocabulary is: every hook
// links this package, most never parse a claim.
var firstWords = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(roleTable)*4)
	for _, r := range roleTable {
		for item := range strings.SplitSeq(r.tools, "|") {
			for n := range strings.SplitSeq(item, ",") {
				n = strings.TrimPrefix(n, "=")
				if f, _, ok := strings.Cut(n, " "); ok {
					m[f] = true
				}
			}
		}
	}
	return m
})

// pickRole chooses, for a tool in several roles, the one its statement's
// words point to; otherwise the tool's first role.
func (p *parser) pickRole(tl *tool, i int) string {
	if len(tl.roles) == 1 {
		return tl.roles[0]
	}
	s := p.sents[p.toks[i].sent]
	for _, role := range tl.roles {
		for _, h := range roleHints()[role] {
			for k := s.first; k < s.first+s.n; k++ {
				w := p.toks[k].s
				if p.toks[k].hangul {
					w = stripParticle(w)
				}
				if w == h {
					return role
				}
			}
		}
	}
	return tl.roles[0]
}

// products are names that take a version number ("Node 20", "go 1.23")
// besides the tools of the vocabulary.
var products = map[string]string{
	"node": "node", "nodejs": "node", "node.js": "node", "python": "python", "py": "python", "cpython": "python", "go": "go", "golang": "go",
	"java": "java", "jdk": "java", "openjdk": "java", "ruby": "ruby", "rust": "rust", "php": "php", "typescript": "typescript",
	"kotlin": "kotlin", "swift": "swift", "scala": "scala", "elixir": "elixir", "erlang": "erlang", "otp": "erlang",
	"dotnet": ".net", ".net": ".net", "net": ".net", "ubuntu": "ubuntu", "debian": "debian", "alpine": "alpine",
	"android": "android", "ios": "ios", "xcode": "xcode", "electron": "electron", "perl": "perl", "lua": "lua",
	"deno": "deno", "bun": "bun", "c++": "c++", "gcc": "gcc", "clang": "clang", "llvm": "llvm", "cuda": "cuda",
	"pnpm": "pnpm", "npm": "npm", "yarn": "yarn", "rails": "rails", "django": "django", "react": "react",
	"angular": "angular", "vue": "vue", "spring": "spring", "dart": "dart", "flutter": "flutter", "zig": "zig",
	"r": "r", "julia": "julia", "haskell": "haskell", "ghc": "ghc", "ocaml": "ocaml", "centos": "centos", "rhel": "rhel",
	"fedora": "fedora", "windows": "windows", "macos": "macos", "chrome": "chrome", "firefox": "firefox", "safari": "safari",
	"openssl": "openssl", "tls": "tls", "http": "http", "oauth": "oauth", "api": "api", "sdk": "sdk", "schema": "schema",
}

// Product reports whether name is a product that takes a version number
// ("node", "go", "python"), as a "version:" role names it.
func Product(name string) bool {
	_, ok := products[name]
	return ok || vocab().phrases[name] != nil
}

// versionGap are words allowed between a product and its version ("the go
// directive to 1.23", "Node.js runtime 20").
var versionGap = map[string]bool{"directive": true, "version": true, "versions": true, "runtime": true, "toolchain": true,
	"to": true, "at": true, "is": true, "of": true, "v": true, "sdk": true, "from": true, "on": true, "lts": true, "release": true}

var joinedVersion = lazyregexp.New(`^(node|nodejs|python|py|go|java|jdk|ruby|php|dotnet|net|openjdk|ubuntu|debian|alpine)-?(\d+(?:\.\d+)*)(?:\.x)?$`)

// version recognises a product with its version at token i: its canonical
// product, version and last token.
func (p *parser) version(i int) (string, string, int) {
	s := p.toks[i].s
	spec := s
	if t := p.toks[i]; t.start > 0 && p.text[t.start-1] == '@' {
		spec = "@" + s // a scoped package ("@octokit/rest@22.0.0"), whose "@" the tokens leave out
	}
	if prod, ver, ok := packageSpec(spec); ok {
		return prod, ver, i
	}
	if joinedCandidate(s) {
		if m := joinedVersion.FindStringSubmatch(s); m != nil {
			return products[m[1]], canonVersion(m[2]), i
		}
	}
	prod, ok := products[s]
	if !ok {
		if tl := vocab().phrases[s]; tl != nil {
			prod = tl.value
		} else {
			return "", "", 0
		}
	}
	if p.toks[i].particle != "" {
		return "", "", 0
	}
	for k := i + 1; k < len(p.toks) && k <= i+4 && p.toks[k].sent == p.toks[i].sent && !p.elided(k-1); k++ {
		w := p.toks[k].s
		// An address is no version: "Postgres is at 10.1.0.4" says where
		// it runs.
		if isVersion(w) && !isClock(w) && !isIPv4(w) && durationOf(w, p.toks[k].particle) == "" && !p.countNoun(k+1) {
			return prod, canonVersion(w), k
		}
		if !versionGap[w] {
			break
		}
	}
	return "", "", 0
}

// runtimes are the products of the table one installs in versions and runs
// code on, whose name alone after "which" asks which version: "which
// Python did it pick?" asks 3.12 or 3.14, where "which React" asks
// nothing a version answers as surely. Not node, a cluster's or a graph's
// as often as Node.js.
var runtimes = map[string]bool{"python": true, "java": true, "ruby": true, "go": true, "rust": true, "php": true,
	"elixir": true, "erlang": true, ".net": true, "deno": true, "bun": true, "perl": true, "lua": true, "dart": true,
	"flutter": true, "zig": true, "julia": true, "kotlin": true, "swift": true, "scala": true}

// VersionRole is the role of a product's version: "version:node", under
// the tables' name for the product where they know it (productName), so
// that "Node.js 20", "node@20.11.0" and "which Node version" fill one role.
func VersionRole(prod string) string {
	if p := productName(prod); p != "" {
		prod = p
	}
	return "version:" + prod
}

// productName is the name the tables give the product a word names, or ""
// for none: the word itself ("node.js" is node, "alpinejs" alpine.js), its
// package's name ("next" is published for next.js), or its name without
// ".js" ("vue.js" is vue).
func productName(w string) string {
	if p, ok := products[w]; ok {
		return p
	}
	for _, n := range []string{w, w + ".js", w + "js", strings.TrimSuffix(w, ".js")} {
		if tl := vocab().phrases[n]; tl != nil {
			return tl.value
		}
	}
	return ""
}

// packageSpec reads a package pinned at a version the way npm, yarn, pnpm
// and bun write it ("next@15.5.2", "vue@^3.4.21"): the package is the
// product, under a table's name for it. A name no table knows is a package
// only with a version of three parts ("quillpress@2.1.0"): "jane@1.2" is
// as likely someone at a host.
func packageSpec(s string) (prod, ver string, ok bool) {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || !strings.Contains(s[at:], ".") {
		return "", "", false // a version with a dot: "user@2" is no pin
	}
	name, v := s[:at], strings.TrimLeft(s[at+1:], "^~=")
	if !isVersion(v) || isIPv4(v) || !packageName(name) {
		return "", "", false
	}
	if p := productName(name); p != "" {
		return p, canonVersion(v), true
	}
	if strings.Count(strings.TrimPrefix(v, "v"), ".") != 2 {
		return "", "", false
	}
	return name, canonVersion(v), true
}

// packageName: an npm package name, lower case, with its scope if it has
// one ("next", "@types/node", "lodash.merge").
func packageName(s string) bool {
	if scope, rest, ok := strings.Cut(s, "/"); ok {
		if !strings.HasPrefix(scope, "@") || !packageName(scope[1:]) {
			return false
		}
		s = rest
	}
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

// productBefore returns the product named last before token i in its
// statement ("All Python services must target 3.12"), or "".
func (p *parser) productBefore(i int) string {
	for k := i - 1; k >= 0 && p.toks[k].sent == p.toks[i].sent; k-- {
		if prod, ok := products[p.toks[k].s]; ok && p.toks[k].s != "go" && p.toks[k].s != "api" && p.toks[k].s != "http" {
			return prod
		}
	}
	return ""
}

// joinedCandidate is a cheap test before joinedVersion: a letter first and
// a digit somewhere ("node18", "python3.12").
func joinedCandidate(s string) bool {
	if len(s) < 3 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	return strings.ContainsAny(s, "0123456789")
}

// isVersion: "20", "1.23", "v2.3.0", "18.x".
func isVersion(s string) bool {
	s = strings.TrimPrefix(s, "v")
	s = strings.TrimSuffix(s, ".x")
	if s == "" || len(s) > 16 {
		return false
	}
	dots := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && i > 0 && s[i-1] != '.':
			dots++
		default:
			return false
		}
	}
	return dots <= 3 && s[len(s)-1] != '.'
}

// canonVersion drops a "v" prefix and trailing ".x"/".0" parts, so "v18.0"
// and "18.x" both read "18".
func canonVersion(s string) string {
	s = strings.TrimPrefix(s, "v")
	s = strings.TrimSuffix(s, ".x")
	for strings.Count(s, ".") > 0 && strings.HasSuffix(s, ".0") {
		s = strings.TrimSuffix(s, ".0")
	}
	return s
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' {
			return false
		}
	}
	return s[0] != '.'
}

func isPortNumber(s string) bool {
	if len(s) < 2 || len(s) > 5 {
		return false
	}
	n, err := strconv.Atoi(s)
	return err == nil && n > 0 && n <= 65535
}

var regionRE = lazyregexp.New(`^(?:(?:us|eu|ap|sa|ca|me|af|il|cn|mx)(?:-gov)?-(?:east|west|north|south|central|northeast|southeast|northwest|southwest)-\d|(?:us|europe|asia|australia|northamerica|southamerica|me|africa)-(?:east|west|north|south|central|northeast|southeast|northwest|southwest)\d)$`)

// isRegion reports a cloud region's name ("us-east-1", "europe-west4").
// Every one has a hyphen and ends in a digit, which is checked first: most
// words have neither, and a hook process that never meets such a word need
// not compile regionRE.
func isRegion(s string) bool {
	return len(s) >= 9 && len(s) <= 24 && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' && strings.Contains(s, "-") && regionRE.MatchString(s)
}

func isClock(s string) bool {
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(m) != 2 || len(h) < 1 || len(h) > 2 || !isDigits(h) || !isDigits(m) {
		return false
	}
	hh, _ := strconv.Atoi(h)
	mm, _ := strconv.Atoi(m)
	return hh < 24 && mm < 60
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// FileExt reports an extension, lower-case and without its dot, that makes
// a dotted word a file name ("ts", "svelte", "properties").
func FileExt(ext string) bool { return fileExts[ext] }

// fileExts are extensions that make a dotted word a file name.
var fileExts = map[string]bool{"yaml": true, "yml": true, "toml": true, "json": true, "ts": true, "tsx": true, "js": true,
	"jsx": true, "mjs": true, "cjs": true, "go": true, "py": true, "rb": true, "rs": true, "java": true, "kt": true, "sql": true,
	"sh": true, "md": true, "txt": true, "env": true, "ini": true, "conf": true, "cfg": true, "xml": true, "lock": true,
	"mod": true, "sum": true, "tf": true, "hcl": true, "proto": true, "csv": true, "html": true, "css": true, "scss": true,
	"vue": true, "svelte": true, "gradle": true, "properties": true, "plist": true, "swift": true, "c": true, "h": true,
	"cpp": true, "cs": true, "php": true, "lua": true, "db": true, "sqlite": true, "log": true, "pem": true, "key": true,
	"dart": true, "kts": true, "scala": true, "ex": true, "exs": true, "hs": true, "zig": true, "hpp": true, "cc": true,
	"mm": true, "ps1": true, "astro": true, "graphql": true, "prisma": true}

// notPaths are slash words that are not file system paths.
var notPaths = map[string]bool{"and/or": true, "i/o": true, "n/a": true, "w/o": true, "tcp/ip": true, "ci/cd": true,
	"read/write": true, "on/off": true, "yes/no": true, "true/false": true, "client/server": true, "ns/op": true,
	"b/op": true, "allocs/op": true, "req/s": true, "ops/s": true, "mb/s": true, "kb/s": true, "gb/s": true}

func isPath(s string) bool {
	if len(s) < 3 || strings.IndexByte(s, '/') >= 0 && notPaths[s] { // each of notPaths has a slash
		return false
	}
	if strings.Contains(s, "/") {
		if rate(s) {
			return false
		}
		letters := false
		for i := 0; i < len(s); i++ {
			if c := s[i]; c >= 'a' && c <= 'z' {
				letters = true
				break
			}
		}
		return letters
	}
	if s[0] == '.' {
		return len(s) > 2 && !strings.Contains(s[1:], ".") || fileExts[s[strings.LastIndexByte(s, '.')+1:]]
	}
	if k := strings.LastIndexByte(s, '.'); k > 0 && k < len(s)-1 {
		return fileExts[s[k+1:]] && !isNumber(s[:k])
	}
	return false
}

// rate reports an amount per unit of time ("20-40/month", "5/min",
// "$1.5k/day"): a number, or a range of two, before the one slash, and a
// unit of time after it (units, or a month's or a year's). "10/src" and
// "2/api" are paths.
func rate(s string) bool {
	amount, unit, ok := strings.Cut(s, "/")
	if !ok || amount == "" || units[unit] == 0 && !longUnits[unit] {
		return false
	}
	amount = strings.ReplaceAll(strings.TrimLeft(amount, "~$€£"), "–", "-")
	lo, hi, _ := strings.Cut(amount, "-")
	return isNumber(strings.TrimRight(lo, "kKmM")) && (hi == "" || isNumber(strings.TrimRight(hi, "kKmM")))
}

// longUnits are the units of time a rate is given in that a duration is
// not (units): a month's and a year's.
var longUnits = map[string]bool{"mo": true, "month": true, "months": true, "yr": true, "year": true, "years": true}

// wordPair reports a pair of capitalised words joined by a slash
// ("Marshal/Unmarshal", "Read/Write"): an alternative, not a path.
func wordPair(raw string) bool {
	a, b, ok := strings.Cut(raw, "/")
	return ok && a != "" && b != "" && a[0] >= 'A' && a[0] <= 'Z' && b[0] >= 'A' && b[0] <= 'Z' && !strings.ContainsAny(b, "/.")
}

func (p *parser) afterPortWord(i int) bool {
	for k := i - 1; k >= 0 && k >= i-3 && p.toks[k].sent == p.toks[i].sent; k-- {
		w := p.toks[k].s
		if p.toks[k].hangul {
			w = stripParticle(w)
		}
		if w == "port" || w == "ports" || w == "포트" {
			return true
		}
		if k < i-1 && listens(w) {
			return true // "listens on 9443", "bound to 8080": a number a server takes is its port
		}
		if !(w == "on" || w == "to" || w == "at" || w == "is" || w == "number" || w == "of" || w == "from") {
			return false
		}
	}
	return false
}

// listens reports a verb a server takes its port with.
func listens(w string) bool {
	for _, v := range []string{"listen", "bind", "bound", "expose"} {
		if strings.HasPrefix(w, v) && len(w) <= len(v)+3 {
			return true
		}
	}
	return false
}

// duration units, to seconds.
var units = map[string]int64{"ms": -1, "millisecond": -1, "milliseconds": -1, "s": 1, "sec": 1, "secs": 1, "second": 1,
	"seconds": 1, "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "h": 3600, "hr": 3600, "hrs": 3600,
	"hour": 3600, "hours": 3600, "d": 86400, "day": 86400, "days": 86400, "week": 604800, "weeks": 604800,
	"초": 1, "분": 60, "시간": 3600, "일": 86400, "주": 604800, "밀리초": -1}

var koreanUnits = []string{"밀리초", "시간", "초", "분", "일", "주"}

// Duration is the canonical duration ("30s", "500ms") a word written as a
// whole number and a unit of time states ("30s", "500ms", "2m"; "0.5h"
// states none), or "".
func Duration(w string) string { return durationOf(w, "") }

// durationOf reads "30s", "500ms", or a number with a Korean counter
// ("10초"): the canonical duration ("30s", "500ms") or "".
func durationOf(s, particle string) string {
	k := 0
	for k < len(s) && (s[k] >= '0' && s[k] <= '9') {
		k++
	}
	if k == 0 || k > 9 {
		return ""
	}
	n, _ := strconv.ParseInt(s[:k], 10, 64)
	// "a 12-hour interval", "a 1-second delay": the unit joined by a hyphen.
	unit := strings.TrimPrefix(s[k:], "-")
	if len(unit) < 3 && unit != s[k:] {
		return "" // "2-d", "3-m": a label, not a duration
	}
	if unit == "" {
		for _, u := range koreanUnits {
			if strings.HasPrefix(particle, u) {
				unit = u
				break
			}
		}
	}
	mult, ok := units[unit]
	if !ok || unit == "" {
		return ""
	}
	return canonDuration(n, mult)
}

func canonDuration(n, mult int64) string {
	if mult < 0 {
		if n%1000 == 0 {
			return strconv.FormatInt(n/1000, 10) + "s"
		}
		return strconv.FormatInt(n, 10) + "ms"
	}
	return strconv.FormatInt(n*mult, 10) + "s"
}

// duration reads a duration at token i, joined ("30s") or spaced ("30
// seconds").
func (p *parser) duration(i int) string {
	t := p.toks[i]
	if d := durationOf(t.s, t.particle); d != "" {
		return d
	}
	if !isDigits(t.s) || i+1 >= len(p.toks) || t.particle != "" {
		return ""
	}
	u := p.toks[i+1]
	if u.sent != t.sent {
		return ""
	}
	w := u.s
	if u.hangul {
		for _, ku := range koreanUnits {
			if strings.HasPrefix(w, ku) {
				w = ku
				break
			}
		}
	}
	mult, ok := units[w]
	if !ok || len(w) == 1 && !u.hangul {
		return "" // "5 m" is more likely metres than minutes
	}
	n, err := strconv.ParseInt(t.s, 10, 64)
	if err != nil {
		return ""
	}
	return canonDuration(n, mult)
}

func (p *parser) unitEnd(i int) int {
	if durationOf(p.toks[i].s, p.toks[i].particle) != "" || i+1 >= len(p.toks) {
		return i
	}
	return i + 1
}

// durationRole names what a duration in statement s sets, from its words.
func durationRole(p *parser, s int) string {
	st := p.sents[s]
	for k := st.first; k < st.first+st.n; k++ {
		w := p.toks[k].s
		switch {
		case strings.HasPrefix(w, "timeout") || w == "timing" || w == "timed" || w == "time-out" || strings.HasPrefix(w, "타임아웃") || strings.HasPrefix(w, "시간초과"):
			return "timeout"
		case w == "ttl" || strings.HasPrefix(w, "expir") || w == "expire" || strings.HasPrefix(w, "만료"):
			return "ttl"
		case w == "interval" || w == "every" || strings.HasPrefix(w, "poll") || strings.HasPrefix(w, "주기") || strings.HasPrefix(w, "간격"):
			return "interval"
		case strings.HasPrefix(w, "retention") || strings.HasPrefix(w, "retain") || strings.HasPrefix(w, "보관") || strings.HasPrefix(w, "보존"):
			return "retention"
		case w == "delay" || w == "delays" || w == "backoff" || w == "debounce" || w == "grace" || strings.HasPrefix(w, "지연"):
			return "delay"
		}
	}
	return ""
}

// countNouns are things whose number is a setting ("5 retries", "3
// replicas"), mapped to their role.
var countNouns = map[string]string{"retries": "retries", "retry": "retries", "attempts": "retries", "attempt": "retries",
	"replicas": "replicas", "replica": "replicas", "workers": "workers", "threads": "threads", "partitions": "partitions",
	"shards": "shards", "connections": "connections", "instances": "instances", "processes": "processes",
	"concurrency": "concurrency", "재시도": "retries", "레플리카": "replicas", "워커": "workers"}

func (p *parser) countNoun(k int) bool {
	if k >= len(p.toks) {
		return false
	}
	_, ok := countNouns[p.toks[k].s]
	return ok || p.toks[k].s == "requests" || p.toks[k].s == "req"
}

// count reads "5 retries", "3 retries max", "100 requests per minute".
func (p *parser) count(i int) (string, string, int) {
	t := p.toks[i]
	if !isDigits(t.s) || t.particle != "" || i+1 >= len(p.toks) || p.toks[i+1].sent != t.sent {
		return "", "", 0
	}
	n := strings.TrimLeft(t.s, "0")
	if n == "" {
		n = "0"
	}
	w := p.toks[i+1].s
	if w == "requests" || w == "req" || w == "calls" {
		if i+3 < len(p.toks) && (p.toks[i+2].s == "per" || p.toks[i+2].s == "a") {
			return "request rate", n + "/" + strings.TrimSuffix(p.toks[i+3].s, "s"), i + 3
		}
		return "", "", 0
	}
	if role, ok := countNouns[w]; ok {
		return role, n, i + 1
	}
	// "max retries to 3", "retries: 5"
	for k := i - 1; k >= 0 && k >= i-3 && p.toks[k].sent == t.sent; k-- {
		if role, ok := countNouns[p.toks[k].s]; ok {
			return role, n, i
		}
		if w := p.toks[k].s; !(w == "to" || w == "at" || w == "of" || w == "is" || w == "max") {
			break
		}
	}
	return "", "", 0
}

// tally reads a number of things no table lists ("14 looms", "8 wider
// looms") as a value of the role "number of" the noun, and a count
// changed ("14 looms down to 8", "folded 14 looms into 8 wider
// looms") as a change: the first number is the old value, the one after
// "to" or "into" the new. Only the number is the mention, so the noun still
// says what a statement is about. A count said without a change is a
// tally: the older side of a count changed, never set against another
// count (a project counts many things, each by its own reason).
func (p *parser) tally(i int) {
	role, noun := p.countOf(i)
	if role == "" {
		return
	}
	p.add(role, canonCount(p.toks[i].s), i, i)
	a := len(p.ms) - 1
	p.ms[a].tally = true
	// "14 looms down to 8", "3 ports into 2 ports": a number after "to"
	// or "into" right after the noun is the count it was changed to.
	k, moved := noun+1, false
	if k < len(p.toks) && (p.toks[k].s == "down" || p.toks[k].s == "up") {
		k, moved = k+1, true
	}
	if k+1 >= len(p.toks) || p.toks[k+1].sent != p.toks[i].sent || p.toks[k].s != "to" && p.toks[k].s != "into" {
		return
	}
	j := k + 1
	if !isDigits(p.toks[j].s) || p.toks[j].particle != "" || p.owner[j] != 0 {
		return
	}
	// The new count is of the same noun: said again after it, or left
	// unsaid where the words can mean nothing else. "Down to" and "up to"
	// say a count moved; a clause that ends at the number after "into"
	// says the things became that many. A bare "to" also sends things
	// somewhere ("3 nodes to 17", a version; "120 tests to 3 of the
	// shards"; "3 jobs to 2 am", a time), so it needs the noun.
	if r, _ := p.countOf(j); r != role && (r != "" || !moved && (p.toks[k].s == "to" || !p.endsClause(j) || p.divided(i))) {
		return // "3 servers to 2 regions": two things
	}
	p.add(role, canonCount(p.toks[j].s), j, j)
	p.counted = append(p.counted, [2]int{a, len(p.ms) - 1})
}

// divided reports a verb that cuts things into parts (dividers) among the
// three words before the count at token i: "split the 120 tests into 4".
func (p *parser) divided(i int) bool {
	for k := i - 1; k >= 0 && k >= i-3 && p.toks[k].sent == p.toks[i].sent; k-- {
		if dividers().Has(p.toks[k].s) {
			return true
		}
	}
	return false
}

// endsClause reports token i the last of its clause: the sentence's last,
// or followed by a comma, a semicolon, a colon or a dash.
func (p *parser) endsClause(i int) bool {
	if i+1 >= len(p.toks) || p.toks[i+1].sent != p.toks[i].sent {
		return true
	}
	between := strings.TrimSpace(p.text[p.toks[i].end:p.toks[i+1].start])
	return between != "" && strings.ContainsAny(between[:1], ",;:-—–(")
}

// countOf returns the role of a number at token i followed, within three
// words, by a plural noun ("14 looms", "8 well-oiled looms") and the
// noun's token, or "" when no noun counted follows: a unit ("5 minutes",
// "10 MB") or a word of a link between makes it no count of things.
func (p *parser) countOf(i int) (string, int) {
	t := p.toks[i]
	if !isDigits(t.s) || t.particle != "" || len(t.s) > 4 {
		return "", 0
	}
	for k := i + 1; k <= i+3 && k < len(p.toks) && p.toks[k].sent == t.sent; k++ {
		w := p.toks[k].s
		if !onlySpace(p.text[p.toks[k-1].end:p.toks[k].start]) || !letterWord(w) || linkWords().Has(w) || determiners().Has(w) || p.owner[k] != 0 {
			return "", 0
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") &&
			!strings.HasSuffix(w, "ous") && durationOf(w, "") == "" && !sizeUnits().Has(w) && !scopeStop().Has(w) {
			return "number of " + w, k
		}
	}
	return "", 0
}

// counting reports a role of a number of things (tally): only a number is
// its value, never a name said beside it.
func counting(role string) bool { return strings.HasPrefix(role, "number of ") }

// canonCount is a count's digits without leading zeros.
func canonCount(s string) string {
	if n := strings.TrimLeft(s, "0"); n != "" {
		return n
	}
	return "0"
}

// namedNouns are things referred to by an identifier ("the release branch",
// "S3 bucket zeta-media", "arm-large runners"), mapped to their role.
var namedNouns = map[string]string{"runner": "ci runner", "runners": "ci runner", "bucket": "bucket", "buckets": "bucket",
	"branch": "branch", "topic": "topic", "queue": "queue name", "cluster": "cluster", "namespace": "namespace",
	"image": "image", "channel": "channel", "domain": "domain", "table": "table", "index": "index", "repo": "repository",
	"repository": "repository", "버킷": "bucket", "브랜치": "branch", "토픽": "topic", "큐": "queue name", "클러스터": "cluster",
	"이미지": "image", "채널": "channel", "도메인": "domain", "테이블": "table"}

// branchWords are branch names that are plain words; they name a branch only
// in a statement about branches.
var branchWords = lazywords.Lookup(`main master develop development trunk gh-pages`)

// named reads an identifier next to the noun that says what it names.
func (p *parser) named(i int) (string, string) {
	s := p.toks[i].s
	if branchWords().Has(s) && p.aboutBranches(p.toks[i].sent) {
		return "branch", s
	}
	if !identifierShaped(s) {
		return "", ""
	}
	look := func(k int) string {
		if k < 0 || k >= len(p.toks) || p.toks[k].sent != p.toks[i].sent {
			return ""
		}
		w := p.toks[k].s
		if p.toks[k].hangul {
			w = stripParticle(w)
		}
		return namedNouns[w]
	}
	if r := look(i + 1); r != "" && p.toks[i].particle == "" {
		return r, s
	}
	if r := look(i - 1); r != "" {
		return r, s
	}
	return "", ""
}

// scopedPackage reports s, read after an "@", as an npm scoped package's
// name: one scope and one name, a version after a second "@" aside.
func scopedPackage(s string) bool {
	name, _, _ := strings.Cut(s, "@")
	return namespaced(name, 1)
}

// packageFor returns the purpose of a package path at token i ("stick with
// encoding/json for serialization": a library chosen for serialization, not
// a file), from "for NP" right after it, or "". A path with a root, a file
// extension or a trailing slash is a place in the tree.
func (p *parser) packageFor(i int) string {
	s := p.toks[i].s
	if strings.ContainsAny(s[:1], "/.~") || strings.HasSuffix(s, "/") || strings.Contains(s[strings.LastIndexByte(s, '/')+1:], ".") {
		return ""
	}
	if i+2 >= len(p.toks) || p.toks[i+1].s != "for" || p.toks[i+2].sent != p.toks[i].sent || p.clauseBreak(i) {
		return ""
	}
	return p.phraseAfter(i + 2)
}

// imageLinks are the words that may stand between "image" and its name
// ("the image was renamed to acme/api", "pushes the image to the registry
// as acme/api").
var imageLinks = lazywords.Lookup(`the a an our its was is are be been now renamed rename called named to as becomes became
	pushed push pushes published tagged registry under`)

// imageName reports whether the slash-separated name at token i names a
// container image ("zeta/invoices-job") rather than a path: it has no leading
// slash or dot and no file extension, and "image" stands shortly before it,
// joined by linking words only, or the text named an image of the same
// registry namespace before it.
func (p *parser) imageName(i int) bool {
	s := p.toks[i].s
	if !namespaced(s, 2) {
		return false
	}
	ns := s[:strings.IndexByte(s, '/')+1]
	for _, m := range p.ms {
		if m.role == "image" && strings.HasPrefix(m.value, ns) {
			return true // another image of the registry namespace the text already named
		}
	}
	for k := i - 1; k >= 0 && k >= i-7 && p.toks[k].sent == p.toks[i].sent && !p.clauseBreak(k); k-- {
		w := p.toks[k].s
		if p.toks[k].hangul {
			w = stripParticle(w)
		}
		if w == "image" || w == "images" || w == "이미지" {
			return true
		}
		if !imageLinks().Has(w) {
			return false
		}
	}
	return false
}

// namespaced reports a path-shaped token that names a thing in a namespace
// ("zeta/invoices-job", "acme/docs-content") rather than a file or folder:
// no root (the tokens of "./x" start at its slash) and no leading dot
// (".github/workflows"), one to depth slashes, none at its end, and no file
// extension.
func namespaced(s string, depth int) bool {
	n := strings.Count(s, "/")
	return s[0] != '/' && s[0] != '.' && n >= 1 && n <= depth && !strings.HasSuffix(s, "/") && !strings.Contains(s[strings.LastIndexByte(s, '/')+1:], ".")
}

// repositoryName reports whether a path-shaped token at i is a repository,
// owner and name ("acme/docs-content"), not a folder: the noun naming a
// repository right after it, nothing but spacing and emphasis between, and
// heading its phrase ("the `acme/docs-content` repository is archived",
// "… repository holds the posts"; not "the src/components repository code").
// Before it, the noun is mostly the project's ("in this repo internal/recall
// decides …").
func (p *parser) repositoryName(i int) bool {
	t := p.toks[i]
	if !namespaced(t.s, 1) || wordPair(p.text[t.start:t.end]) || i+1 >= len(p.toks) {
		return false
	}
	n := p.toks[i+1]
	if namedNouns[n.s] != "repository" || strings.Trim(p.text[t.end:n.start], " `*_") != "" {
		return false
	}
	if i+2 < len(p.toks) && onlySpace(p.text[n.end:p.toks[i+2].start]) && !scopeStop().Has(p.toks[i+2].s) {
		// A word goes on the phrase: a folder's ("repository code"),
		// unless it is a verb whose object a determiner opens.
		return i+3 < len(p.toks) && determiners().Has(p.toks[i+3].s)
	}
	return true
}

// aboutBranches reports whether statement s talks about git branches.
func (p *parser) aboutBranches(s int) bool {
	st := p.sents[s]
	for k := st.first; k < st.first+st.n; k++ {
		switch w := p.toks[k].s; {
		case w == "branch" || w == "branches" || strings.HasPrefix(w, "브랜치"):
			return true
		}
	}
	return false
}

// identifierShaped: a lower-case name with a separator or digit
// ("arm-large", "billing.v2"), not a plain word, number or version.
func identifierShaped(s string) bool {
	if len(s) < 3 || len(s) > 80 || isVersion(s) || isNumber(s) {
		return false
	}
	sep, letter := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			letter = true
		case c == '-' || c == '_' || c == '.' || (c >= '0' && c <= '9'):
			sep = true
		case c >= 0x80:
			return false
		}
	}
	return sep && letter
}

// compoundZipf is how common in everyday English each word of a compound
// read as English is: above wordfreq.Everyday, as the table counts
// subtitles, where "dom" and "react" are names and verbs, and "react-dom"
// names a package.
const compoundZipf = 4.0

// englishCompound reports words joined by hyphens that are each a common
// English word ("theme-aware", "client-side", "read-only"): an
// adjective of prose, where a name joins a word that is none ("next-auth",
// "date-fns") or names itself in backquotes. A tool named by everyday
// words is in the role table ("styled-components"); a thing named beside
// its noun ("the arm-large runners") is read by named.
func englishCompound(s string) bool {
	parts := strings.Split(s, "-")
	if len(parts) < 2 {
		return false
	}
	for _, w := range parts {
		if w == "" || strings.ContainsFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) || wordfreq.Zipf(w) < compoundZipf {
			return false
		}
	}
	return true
}

// fileLine reports a file name before a colon ("roster.tsx:14", "main.go:120"):
// the number after it is a line, not a port.
func fileLine(name string) bool {
	k := strings.LastIndexByte(name, '.')
	if k <= 0 || !fileExts[name[k+1:]] {
		return false
	}
	// An extension that is also a country's domain, after a dotted name,
	// is a host's ("api.example.cc:8443"); after a file's name alone, a
	// file's ("render.cc:105").
	return !hostTLDs[name[k+1:]] || !strings.Contains(name[:k], ".")
}

// hostTLDs are the file extensions that are also top-level domains.
var hostTLDs = map[string]bool{"cc": true, "mm": true, "sh": true, "md": true}

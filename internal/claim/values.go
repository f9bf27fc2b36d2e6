package claim

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
)

// Values no table lists are recognised by their shape (a size, a version, a
// host, an address, a code span, a channel, a capitalised name) and given the
// role of the noun phrase they attach to ("the upload limit is 10 MB",
// "Quorvel for linting", "Linter: quorvel", "we lint with Quorvel"), so that
// two statements about a thing no table knows still meet on one role.

// linkWords join a value to the noun phrase that names what it sets: "the
// limit is now 10 MB", "the memory limit changed from 256Mi to 512Mi", "lint
// with quorvel".
var linkWords = lazywords.Lookup(`is are was were be been becomes became now set sets changed change changes switched switch
	moved move migrated migrate bumped bump raised raise lowered lower increased reduced cut to from into onto
	with using via = currently still go goes went live lives run runs point points in on at by through use uses
	should must will shall can has have had need needs`)

// determiners open a noun phrase without naming anything.
var determiners = lazywords.Lookup(`the a an our your their its this that these those my his her every each any some`)

// Determiner reports a word that opens a noun phrase without naming
// anything ("the", "a", "our", "each"), in lower case.
func Determiner(w string) bool { return determiners().Has(w) }

// dividers are verbs that cut a set of things into parts: after them a bare
// "into 4" counts the parts ("split the 120 tests into 4"), not the things.
var dividers = lazywords.Lookup(`split splits splitting divide divides divided dividing shard shards sharded sharding
partition partitions partitioned partitioning spread spreads spreading break breaks broke breaking`)

// genericHeads name a kind of thing, not what it does: "lint tool" is about
// linting.
var genericHeads = lazywords.Lookup(`tool tools library lib libraries framework frameworks service services setting settings
	value values option options thing things one choice default defaults provider system instance instances`)

// shaped adds the values of unowned tokens that no table knows, found by
// their shape, with the role of the phrase around them.
func (p *parser) shaped() {
	for i := 0; i < len(p.toks); i++ {
		if p.toks[i].hangul || p.owner[i] != 0 {
			continue
		}
		v, last, fallback, plain := p.shapeAt(i)
		if v == "" || p.inTag(i) || p.flag(i) {
			continue
		}
		if last == i && v == p.toks[i].s && (strongBefore().Has(v) || cueWords().Has(v)) {
			// "Drop the spare KELVO_KEY line": the word saying the change
			// opens the statement capitalised; it is no value.
			continue
		}
		role, strong := p.roleOf(i, last)
		if role == "" && (p.toks[last].particle != "" || last+1 < len(p.toks) && p.toks[last+1].hangul && p.toks[last+1].sent == p.toks[i].sent) {
			// Korean: "캐시는 Plimbo를 씁니다", "Plimbo 대신 Trevvix로". A
			// topic ("ORM은") is what the statement is about, not a value.
			pt := p.toks[last].particle
			topic := strings.HasPrefix(pt, "은") || strings.HasPrefix(pt, "는") || strings.HasPrefix(pt, "이") || strings.HasPrefix(pt, "가")
			role, strong = p.koreanRole(p.toks[i].sent), !topic
		}
		if strings.HasPrefix(fallback, "version:") {
			role = fallback // the name it follows says what it is a version of
		}
		if plain && !strong {
			role = "" // a plain word is a value only where it is set or used for something
		}
		// A plain word that does not stand for itself ("now ready", "with
		// proper codes", "now part of": an adjective, an adverb, a verb)
		// still tells what a statement is about, but sets nothing.
		weak := plain && !isNumber(v) && (p.afterNow(i) || p.modifies(last)) || p.verbFormAt(i, v, plain)
		if role == "" {
			role = fallback
		}
		if role == "" && !plain && p.cue[p.toks[i].sent] && p.isArrow(last+1) {
			// "- `kelbo` → `quillet`" in a list of changes: a choice
			// left, for a purpose the list does not name.
			role = "choice"
		}
		if role == "" && !plain && i > 0 && useWords().Has(p.toks[i-1].s) && p.toks[i-1].sent == p.toks[i].sent && (!p.isArrow(i-1) || p.cue[p.toks[i].sent]) {
			// "Use Kelbo.", "go with Zorvix instead": chosen, for a purpose
			// the statement does not name. An arrow is a step of a path
			// ("Settings → Profile → Keys") unless a change is said.
			role = "choice"
		}
		listed := 0
		if role == "" && !plain && p.removedCode(i) {
			// "Removed `fetchMock()`": a piece of code that was there, gone.
			// A name in prose ("dropped Kelbo") takes the role of what
			// replaces it (partners).
			role = "choice"
		} else if role == "" && !plain {
			// "Removed `a`, `b` and `c` from …": the removal names each.
			if listed = p.removedBefore(i, last); listed > 0 {
				role = "choice"
			}
		}
		if role != "" {
			p.add(role, v, i, last)
			if listed > 0 && int(p.owner[i]) == len(p.ms) {
				p.ms[len(p.ms)-1].listed = listed
			}
			if weak && int(p.owner[i]) == len(p.ms) {
				p.ms[len(p.ms)-1].weak = true
			}
		}
		i = last
	}
}

// removedCode reports a code span at token i after a removal word of its
// statement ("Removed `fetchMock()`"), directly or past one word describing
// what went, a determiner before it ("removed incorrect `rag>=0.1.0`",
// "removed the unused `lodash`"), in one phrase with the removal (only
// spaces between). Not past two words ("removed tests covering `a`": the
// span is what the describing words did), a function word ("removed tests
// for `a`") or an exception ("removed everything except `a`").
func (p *parser) removedCode(i int) bool {
	if !strings.HasSuffix(p.text[:p.toks[i].start], "`") {
		return false
	}
	described := false
	for k := i - 1; k >= 0 && p.toks[k].sent == p.toks[i].sent; k-- {
		if k < i-1 && strings.TrimSpace(p.text[p.toks[k].end:p.toks[k+1].start]) != "" {
			return false // "removed, kept `a`": not one phrase
		}
		w := p.toks[k].s
		switch {
		case removals().Has(w):
			return true
		case determiners().Has(w) && k < i-1:
			continue // "removed the unused `a`"
		case described || !describing(w):
			return false
		}
		described = true
	}
	return false
}

// describing reports whether w may describe a removed thing between the
// removal and its code span (removedCode, removesNext): a content word, not
// a function word ("for", "from") nor an exception ("except").
func describing(w string) bool {
	return !exceptWords().Has(w) && !funcwords.In("eng", w) && !funcwords.EnglishMore(w)
}

// removedBefore returns 1+ the index of the mention of removed code just
// before the code span at tokens i to last, in one list with it, else 0:
// only commas or "and" between them ("`a`, `b` and `c`"), the first right
// after the removal word (removedCode), and the list going on or ending
// after this one (listGoesOn). Not "`a` or `b`": one of them was removed.
func (p *parser) removedBefore(i, last int) int {
	if !strings.HasSuffix(p.text[:p.toks[i].start], "`") || !p.listGoesOn(last) {
		return 0
	}
	k := i - 1
	if k >= 0 && p.toks[k].s == "and" && p.owner[k] == 0 {
		k--
	}
	if k < 0 || p.owner[k] == 0 {
		return 0
	}
	mi := int(p.owner[k]) - 1
	m := p.ms[mi]
	if m.role != "choice" || m.listed == 0 && !p.removedCode(m.first) {
		return 0
	}
	// Only backticks, commas, spaces and one "and" between the two: this
	// also keeps a list in one statement, and k the mention's last token.
	gap := strings.FieldsFunc(p.text[p.toks[k].end:p.toks[i].start], func(r rune) bool { return r == '`' || r == ',' || r == ' ' })
	if len(gap) > 1 || len(gap) == 1 && gap[0] != "and" {
		return 0
	}
	return mi + 1
}

// listGoesOn reports whether what follows a code span ending at token
// last goes on with a removal's list, or ends it: the statement's or a
// clause's end, "and" before another span, or where it was removed from
// ("from", "in"). Anything else makes the span the subject of a clause of
// its own ("Removed `a`, `b` stays.").
func (p *parser) listGoesOn(last int) bool {
	k := last + 1
	if k >= len(p.toks) || p.toks[k].sent != p.toks[last].sent || strings.ContainsAny(p.text[p.toks[last].end:p.toks[k].start], ",;:.)") {
		return true
	}
	if w := p.toks[k].s; w != "and" {
		return removedFrom().Has(w)
	}
	return k+1 < len(p.toks) && strings.HasSuffix(p.text[:p.toks[k+1].start], "`")
}

// shapeAt reads a value at token i by its shape: the canonical value, its
// last token, the role it has when no phrase names one ("size", "address",
// "channel"), and whether it is a plain word, which needs a strong link.
func (p *parser) shapeAt(i int) (value string, last int, fallback string, plain bool) {
	t := p.toks[i]
	raw := p.text[t.start:t.end]
	s := t.s
	before := byte(0)
	if t.start > 0 {
		before = p.text[t.start-1]
	}
	switch {
	case before == '`':
		// A code span: everything up to the closing backtick.
		end := strings.IndexByte(p.text[t.start:], '`')
		if end < 0 || end > 80 {
			return "", 0, "", false
		}
		end += t.start
		if strings.Contains(p.text[t.start-1:end], "{") || raw[0] == '$' {
			// "${agentRole}", "{{ $env.TOKEN }}": a placeholder for a
			// value, not one.
			return "", 0, "", false
		}
		last = i
		for last+1 < len(p.toks) && p.toks[last+1].end <= end && p.toks[last+1].sent == t.sent {
			last++
		}
		return strings.ToLower(strings.TrimSpace(p.text[t.start:end])), last, "", false
	case before == '{' || before == '$':
		// "${agentRole}", "{{ .Name }}": a placeholder for a value, not one.
		return "", 0, "", false
	case before == '#' && (t.start < 2 || !isWord(rune(p.text[t.start-2]))) && !isDigits(s):
		return "#" + s, i, "channel", false
	case before == '@' && (t.start < 2 || !isWord(rune(p.text[t.start-2]))):
		return "@" + s, i, "", false
	}
	if isIPv4(s) {
		return s, i, "address", false
	}
	if sz, l := p.size(i); sz != "" {
		return sz, l, "size", false
	}
	if d := p.duration(i); d != "" {
		return d, p.unitEnd(i), "", false
	}
	if pkg, ver, ok := archive(s); ok {
		if pkg == "" {
			return "", 0, "", false // a dated archive: no value
		}
		return canonVersion(ver), i, VersionRole(pkg), false
	}
	if isHost(s) {
		return s, i, "host", false
	}
	if prod := p.namedBefore(i); prod != "" {
		return canonVersion(s), i, VersionRole(prod), false
	}
	if isNumber(s) {
		// A bare number is a value only where it is set ("the ingest
		// port changed from 7070 to 7171", "the batch size is now 500").
		return s, i, "", true
	}
	if identifierShaped(s) && !isPath(s) && !(englishCompound(s) && p.beforeNoun(i)) {
		return s, i, "", false
	}
	if !isName(s) || determiners().Has(s) || linkWords().Has(s) || scopeStop().Has(s) {
		return "", 0, "", false
	}
	// A word opening a statement, a clause or a list item ("- Delete an
	// option") is capitalised for that, not because it is a name. Emphasis
	// written onto the word ("→ **Chroma**") opens nothing.
	first := i == p.sents[t.sent].first || strings.ContainsAny(strings.TrimRight(p.text[p.toks[i-1].end:t.start], "*_"), ":\"(-*#")
	acronym := len(s) <= 4 && strings.ToUpper(raw) == raw // "API", "SDK": a noun more often than a name
	if raw[0] >= 'A' && raw[0] <= 'Z' && !first && !acronym && !(i > 0 && determiners().Has(p.toks[i-1].s)) {
		// A capitalised name mid-sentence, not after "the": a product, a
		// service, a person; with the capitalised words that follow it
		// ("Kelbo Streams", "Cloud Zentrox").
		last = i
		for k := i + 1; k < len(p.toks) && k <= i+2 && p.capitalised(k) && p.owner[k] == 0 &&
			p.toks[k].sent == t.sent && onlySpace(p.text[p.toks[k-1].end:p.toks[k].start]) && p.toks[k-1].particle == ""; k++ {
			last = k
		}
		for k := i + 1; k <= last; k++ {
			s += " " + p.toks[k].s
		}
		return s, last, "", false
	}
	return s, i, "", true
}

// verbForm reports a value of plain words that ends as a verb form
// ("rotating", "self-rotating", "throttled"): a condition, not a name.
func verbForm(v string) bool {
	if !letterWord(v) {
		return false
	}
	w := v[strings.LastIndexByte(v, '-')+1:]
	return len(w) > 4 && strings.HasSuffix(w, "ing") || participle(w)
}

// verbFormAt reports a value v at token i that is a verb form written as
// a word ("the keys are self-rotating", "is enabled", or "Pinned builds"
// opening a table cell or a heading, which capitalises any word): a condition,
// not a name, so it sets nothing. A name that only ends like one is
// written as a name: capitalised mid-sentence ("Brassling"), in a code
// span, or set by a change ("from brassling to quilvane").
func (p *parser) verbFormAt(i int, v string, plain bool) bool {
	if !verbForm(v) || p.changeEnd(i) {
		return false
	}
	// '\x60' is a backtick: a literal one here would pair with the next
	// raw string's for tools that read string literals by their quotes.
	if t := p.toks[i]; t.start > 0 && p.text[t.start-1] == '\x60' {
		return false
	}
	return plain || p.lower(i) || i > 0 && strings.Contains(p.text[p.toks[i-1].end:p.toks[i].start], "|")
}

// changeEnd reports a value right after "from", "to" or "into": one end
// of a change, which names what was replaced or chosen.
func (p *parser) changeEnd(i int) bool {
	if i == 0 || p.toks[i-1].sent != p.toks[i].sent {
		return false
	}
	w := p.toks[i-1].s
	return w == "from" || w == "to" || w == "into"
}

// maxTag bounds how far back inTag looks for the opening of a tag.
const maxTag = 400

// flag reports a token written as a command-line option ("--frozen-lockfile",
// "-g"): it says how a tool runs, and is no value of its own ("replaced npm ci
// with pnpm install --frozen-lockfile" names pnpm, not the option).
func (p *parser) flag(i int) bool {
	start := p.toks[i].start
	if start < 2 || p.text[start-1] != '-' {
		return false
	}
	b := p.text[start-2]
	return b == '-' || b == ' ' || b == '\t' || b == '\n' || b == '\x60'
}

// inTag reports a token inside a markup tag ("<span data-tone='muted
// px-3'>"): pasted code, whose attribute values no one decided in
// words.
func (p *parser) inTag(i int) bool {
	start := p.toks[i].start
	for k := start - 1; k >= 0 && k >= start-maxTag; k-- {
		switch p.text[k] {
		case '>', '\n':
			return false
		case '<':
			return k+1 < len(p.text) && (p.text[k+1] >= 'a' && p.text[k+1] <= 'z' || p.text[k+1] >= 'A' && p.text[k+1] <= 'Z')
		}
	}
	return false
}

// afterNow reports a value right after "now" with no link or verb between:
// "is now ready", "can now access" read a state or an action, where a
// name said to be current follows a verb ("now uses X", "is now X:").
func (p *parser) afterNow(i int) bool {
	return i > 0 && p.toks[i-1].s == "now" && p.toks[i-1].sent == p.toks[i].sent && onlySpace(p.text[p.toks[i-1].end:p.toks[i].start])
}

// lower reports a token written in lower case.
func (p *parser) lower(k int) bool {
	c := p.text[p.toks[k].start]
	return c >= 'a' && c <= 'z'
}

// modifies reports a word at last that goes on into the phrase after it
// ("proper HTTP codes", "part of the app", "access Module 3"): an
// adjective, an adverb or a verb, not a name standing for itself. A link,
// a change marker or a purpose ("quorvel for linting", "zentrox instead")
// lets a name end there.
func (p *parser) modifies(last int) bool {
	k := last + 1
	if k >= len(p.toks) || p.toks[k].sent != p.toks[last].sent || p.toks[k].hangul || p.clauseBreak(last) {
		return false
	}
	w := p.toks[k].s
	if _, ok := namedNouns[w]; ok || roleWords().Has(w) {
		// "the content repository", "the docs folder": the noun names what
		// the word is; before a plural ("various buckets", "separate
		// buckets", "several retries") the word says how many or which
		// kind.
		return slices.ContainsFunc(plural.Singulars(w), func(s string) bool { return roleWords().Has(s) || namedNouns[s] != "" })
	}
	return !linkWords().Has(w) && !newAfter().Has(w) && !markerWord(w) && w != "for" && w != "as" && w != "and" && w != "or"
}

// namedBefore returns the name a version at token i belongs to ("Zentrox
// 4.2", "bump zentrox to v4.2", "the zentrox version to 4.2.1"), or "". A
// bare integer is a version only with "version" before it.
func (p *parser) namedBefore(i int) string {
	s := p.toks[i].s
	if !isVersion(s) || isClock(s) {
		return ""
	}
	said := strings.HasPrefix(s, "v") || strings.Contains(s, ".")
	for k := i - 1; k >= 0 && k >= i-4 && p.toks[k].sent == p.toks[i].sent; k-- {
		w := p.toks[k].s
		if versionGap[w] {
			said = said || w == "version" || w == "v"
			continue
		}
		if said && isName(w) && !scopeStop().Has(w) && !determiners().Has(w) && !p.clauseBreak(k) {
			return w
		}
		break
	}
	return ""
}

// isIPv4: "10.0.0.5", "10.0.0.5:8080".
func isIPv4(s string) bool {
	s, port, ok := strings.Cut(s, ":")
	if ok && !isPortNumber(port) {
		return false
	}
	if strings.Count(s, ".") != 3 {
		return false // before Split, which allocates: most words have no dot
	}
	parts := strings.Split(s, ".")
	for _, x := range parts {
		if !isDigits(x) || len(x) > 3 || len(x) > 1 && x[0] == '0' {
			return false
		}
		if n, _ := strconv.Atoi(x); n > 255 {
			return false
		}
	}
	return true
}

// beforeNoun reports a word of content right after token i in its
// statement, past a space: the place of an adjective ("theme-aware CSS
// variables"). A package named in prose stands before a function word or
// at a statement's end ("installed express-session and connect-redis").
func (p *parser) beforeNoun(i int) bool {
	k := i + 1
	if k >= len(p.toks) || p.toks[k].sent != p.toks[i].sent || p.text[p.toks[i].end:p.toks[k].start] != " " {
		return false
	}
	w := p.toks[k].s
	return w[0] >= 'a' && w[0] <= 'z' && !scopeStop().Has(w) && !determiners().Has(w) && !linkWords().Has(w)
}

// capitalised reports a word written with a capital first letter that is a
// name's word, not a link or a determiner.
func (p *parser) capitalised(k int) bool {
	t := p.toks[k]
	c := p.text[t.start]
	return c >= 'A' && c <= 'Z' && !t.hangul && (isName(t.s) || identifierShaped(t.s) || codeName(p.text[t.start:t.end-len(t.particle)])) &&
		!linkWords().Has(t.s) && !determiners().Has(t.s) && !scopeStop().Has(t.s)
}

// isName: a word of letters, maybe joined by "-", "." or "_", three letters
// or more.
func isName(s string) bool {
	if len(s) < 3 || len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || (i > 0 && (c == '-' || c == '.' || c == '_') && i < len(s)-1)) {
			return false
		}
	}
	return true
}

// archiveExts end the file name of a package's published archive: a
// Python wheel or source archive, an npm tarball, a Java archive, a gem, a
// crate, a NuGet package.
var archiveExts = []string{".whl", ".tar.gz", ".tgz", ".jar", ".gem", ".crate", ".nupkg"}

// archive reads the package and the version a published archive's file
// name holds, as the packaging formats write it, name first and the
// version after a hyphen: "zorblat-0.4.2-py3-none-any.whl" and
// "zorblat-0.4.2.tar.gz" are zorblat 0.4.2, "guava-32.1.2-jre.jar" guava
// 32.1.2, "certifi-2024.2.2-py3-none-any.whl" certifi 2024.2.2 (a version
// by the date). The name is normalized as PyPI's are (PEP 503: runs of
// "-", "_" and "." are one "-"; "llm_guard" is llm-guard). ok reports a
// name ending as an archive does with a version after a hyphen; pkg is ""
// for one dated as a backup is ("backup-2024.01.15.tar.gz": a part written
// with a leading zero, which no version is), or whose name is no name. A
// path's archive ("dist/zorblat-0.4.2.tar.gz") is read as the path it is.
func archive(s string) (pkg, ver string, ok bool) {
	for _, ext := range archiveExts {
		stem, found := strings.CutSuffix(s, ext)
		if !found {
			continue
		}
		parts := strings.Split(stem, "-")
		for k := 1; k < len(parts); k++ {
			if !strings.Contains(parts[k], ".") || !isVersion(parts[k]) {
				continue
			}
			for n := range strings.SplitSeq(strings.TrimPrefix(parts[k], "v"), ".") {
				if len(n) > 1 && n[0] == '0' {
					return "", "", true // a date: "backup-2024.01.15.tar.gz"
				}
			}
			name := strings.Join(strings.FieldsFunc(strings.Join(parts[:k], "-"), func(r rune) bool { return r == '-' || r == '_' || r == '.' }), "-")
			if !isName(name) {
				return "", "", true
			}
			return name, parts[k], true
		}
		return "", "", false
	}
	return "", "", false
}

// isHost: a dotted name of three labels or more ("api.acme.io",
// "db.internal.acme.dev"), not a file or a version.
func isHost(s string) bool {
	if strings.Count(s, ".") < 2 || isVersion(s) || isNumber(s) || strings.ContainsAny(s, "/:@") {
		return false
	}
	labels := strings.Split(s, ".")
	for _, l := range labels {
		if l == "" || !isLabel(l) {
			return false
		}
	}
	tld := labels[len(labels)-1]
	return !fileExts[tld] && !isDigits(tld) && len(tld) >= 2
}

func isLabel(l string) bool {
	for i := 0; i < len(l); i++ {
		if c := l[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// sizeUnits are the units of a size, decimal and binary (Kubernetes writes
// "512Mi").
var sizeUnits = lazywords.Lookup(`b kb mb gb tb pb kib mib gib tib ki mi gi ti bytes kilobytes megabytes gigabytes terabytes`)

// size reads a size at token i, joined ("512Mi", "10MB") or spaced ("10
// MB"): its canonical form ("512mi", "10mb") and last token.
func (p *parser) size(i int) (string, int) {
	s := p.toks[i].s
	k := 0
	for k < len(s) && (s[k] >= '0' && s[k] <= '9' || s[k] == '.' && k > 0) {
		k++
	}
	if k == 0 {
		return "", 0
	}
	if k < len(s) {
		if u := s[k:]; sizeUnits().Has(u) {
			return s, i
		}
		return "", 0
	}
	if i+1 < len(p.toks) && p.toks[i+1].sent == p.toks[i].sent && sizeUnits().Has(p.toks[i+1].s) && p.toks[i+1].s != "b" &&
		onlySpace(p.text[p.toks[i].end:p.toks[i+1].start]) {
		return s + p.toks[i+1].s, i + 1
	}
	return "", 0
}

// useWords make the value right after them the thing used or set: "use
// quorvel", "with quorvel", "now quorvel".
var useWords = lazywords.Lookup(`use uses using used adopt adopted chose choose pick picked prefer prefers with via through now to into onto`)

// roleOf names what the value at tokens first..last sets, from the phrase
// it attaches to (phraseRole). A name's phrase named the way a question names
// a tool's role ("admin login moved off X to Y", "Y for every new endpoint")
// takes that role: a product there is the tool doing it. A shape's phrase
// names the thing itself ("the metrics endpoint is metrics.acme.dev").
func (p *parser) roleOf(first, last int) (role string, strong bool) {
	role, strong = p.phraseRole(first, last)
	if r := askRoles()[role]; r != "" && !tableRoles()[role] {
		if s := p.toks[first].s; !isNumber(s) && p.duration(first) == "" {
			if _, _, fallback, _ := p.shapeAt(first); fallback == "" {
				role = r
			}
		}
	}
	return role, strong
}

// askRoles maps the stem of each one-word name a question gives a tool's
// role ("login", "endpoint", "exceptions") to the role; a stem two roles
// share maps to "".
var askRoles = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for role, ws := range askWords() {
		if genericRoles[role] {
			continue // "throttle", "how often": a shape's role needs its shape
		}
		for _, w := range ws {
			if strings.Contains(w, " ") || w >= "\u1100" {
				continue
			}
			s := wordStem(w)
			if r, ok := m[s]; ok && r != role {
				m[s] = ""
				continue
			}
			m[s] = role
		}
	}
	return m
})

// phraseRole names what the value at tokens first..last sets, from the
// phrase it attaches to: "for linting" or "as our linter" after it, else the
// noun phrase before it across link words ("the upload limit is now",
// "Linter:", "lint with"). strong is set when the value is said to be set,
// changed or used ("now", "use", "with", a colon, "to" in a statement saying
// a change), not merely described ("the build is broken").
func (p *parser) phraseRole(first, last int) (role string, strong bool) {
	sent := p.toks[first].sent
	st := p.sents[sent]
	end := st.first + st.n
	if first > st.first {
		gap := p.text[p.toks[first-1].end:p.toks[first].start]
		w := p.toks[first-1].s
		// A use word after a determiner is a noun: "the use cases for
		// storing content" uses nothing.
		noun := first-1 > st.first && determiners().Has(p.toks[first-2].s)
		strong = strings.ContainsAny(gap, ":=") || useWords().Has(w) && !noun && (w != "to" && w != "into" && w != "onto" || p.cue[sent])
	}
	if n := last + 1; n < end && !p.clauseBreak(last) && newAfter().Has(p.toks[n].s) {
		strong = true // "runs on bazomex now", "bazomex instead"
	}
	// After: "for NP", "as NP" (past "instead of X"), "is our NP", "runs NP".
	for k := last + 1; k < end && k <= last+4 && !p.clauseBreak(k-1); k++ {
		switch w := p.toks[k].s; {
		case w == "for" || w == "as":
			if ws := p.phraseWords(k + 1); len(ws) > 0 && (w == "for" || !componentNouns().Has(ws[len(ws)-1])) {
				return roleName(ws), strong
			}
		case k == last+1 && (w == "is" || w == "are") && k+1 < end && (p.toks[k+1].s == "our" || p.toks[k+1].s == "the" || p.toks[k+1].s == "now"):
			j := k + 1
			if p.toks[j].s == "now" {
				j++
			}
			if np := p.phraseAfter(j); np != "" {
				return np, true
			}
		case k == last+1 && (w == "runs" || w == "handles" || w == "does" || w == "owns" || w == "serves"):
			if np := p.phraseAfter(k + 1); np != "" {
				return np, true
			}
		case w == "instead" || w == "of" || w == "rather" || w == "than" || w == "now" || p.owner[k] != 0 || k > last+1 && p.toks[k-1].s == "of" ||
			strings.HasPrefix(w, "replace") || w == "it" || w == "them":
			// "Y replaces it for NP": the purpose follows what Y replaces.
			continue
		}
		break
	}
	if np := p.headAfter(first, last); np != "" {
		return np, strong
	}
	// A statement opening with "For NP," names what its values are for
	// ("For API docs we use Swaggo").
	if p.toks[st.first].s == "for" && first > st.first+1 {
		if np := p.phraseAfter(st.first + 1); np != "" {
			return np, strong
		}
	}
	// Before: link words and other values ("from X"), then the noun phrase.
	k, verbRole := first-1, ""
	for ; k >= st.first && k >= first-8; k-- {
		if p.toks[k].hangul || p.clauseBreak(k) && (p.elided(k) || !strings.ContainsAny(p.text[p.toks[k].end:p.toks[k+1].start], ":=")) {
			return "", false
		}
		if k > st.first && (p.toks[k-1].s == "from" || p.toks[k-1].s == "off") {
			k-- // "from zorvix to", "off zorvix to": the old value, not what it sets
			continue
		}
		if w := p.toks[k].s; participle(w) {
			// "sessions are cached in X", "docs are built with X": the
			// verb names the role when a table knows it.
			if r := roleIndex()[wordStem(w)]; r != "" && verbRole == "" {
				verbRole = r
			}
			continue
		}
		// A determiner is passed only in a statement saying a change ("has
		// to move to the shared X"): "go to the audit.v2 stream" names a
		// thing, not the value of its subject.
		if p.owner[k] == 0 && !linkWords().Has(p.toks[k].s) && !(determiners().Has(p.toks[k].s) && p.cue[sent]) {
			break
		}
	}
	if verbRole != "" {
		return verbRole, strong
	}
	if k < st.first || k < first-8 || k == first-1 && !strings.ContainsAny(p.text[p.toks[k].end:p.toks[first].start], ":=") {
		// A phrase right before the value without a link is not what it
		// sets ("yesterday Dana").
		return "", false
	}
	np, start := p.phraseBefore(k)
	if np == "" && k > st.first && !p.clauseBreak(k-1) {
		// "The SPA now builds with X": a verb stands between the value's
		// link and the subject; the subject names what the value is for.
		j := k - 1
		for j > st.first && linkWords().Has(p.toks[j].s) && p.owner[j] == 0 && !p.clauseBreak(j-1) {
			j--
		}
		if p.roleWord(j) {
			np, start = p.phraseBefore(j)
		}
	}
	// "deploy the API to X", "lint the code with X": a verb a table knows
	// before the phrase names the role.
	for v := start - 1; v >= st.first && v >= start-3 && !p.toks[v].hangul && !p.clauseBreak(v); v-- {
		if r := roleIndex()[wordStem(p.toks[v].s)]; r != "" && p.owner[v] == 0 {
			return r, strong
		}
		if !determiners().Has(p.toks[v].s) && p.owner[v] == 0 {
			break
		}
	}
	return np, strong
}

// headAfter reads the noun a name modifies ("the in-process Kelbo rate
// limiter"): the phrase right after a capitalised name that ends its clause,
// unless it only names a kind of thing ("the Kelbo instance").
func (p *parser) headAfter(first, last int) string {
	k := last + 1
	if k >= len(p.toks) || p.toks[k].sent != p.toks[first].sent || p.clauseBreak(last) || !p.roleWord(k) {
		return ""
	}
	if !upper(p.text[p.toks[first].start]) {
		return "" // "on-call owner", "in-process cache": a lower-case modifier is an adjective
	}
	if first == p.sents[p.toks[first].sent].first || p.clauseBreak(first-1) {
		return "" // "… — Order events go to": a capital opening a clause is no name
	}
	if upper(p.text[p.toks[k].start]) {
		return "" // "ONNX Runtime", "Kelbo Streams": a capital goes on with the name
	}
	n := k
	for n < len(p.toks) && n < k+3 && p.toks[n].sent == p.toks[k].sent && p.roleWord(n) {
		if genericHeads().Has(p.toks[n].s) && n == k {
			return ""
		}
		if p.clauseBreak(n) {
			n++
			break
		}
		n++
	}
	if n < len(p.toks) && p.toks[n].sent == p.toks[k].sent && !p.clauseBreak(n-1) && !linkWords().Has(p.toks[n].s) {
		return "" // the phrase goes on: not a noun the name modifies
	}
	return p.phraseAfter(k)
}

// phraseAfter reads the noun phrase starting at token k: up to three content
// words, after a determiner.
func (p *parser) phraseAfter(k int) string { return roleName(p.phraseWords(k)) }

// phraseWords are the content words of the noun phrase starting at token k.
func (p *parser) phraseWords(k int) []string {
	sent := p.toks[min(k, len(p.toks)-1)].sent
	if k < len(p.toks) && determiners().Has(p.toks[k].s) && p.toks[k].sent == sent && !p.clauseBreak(k) {
		k++
	}
	if k < len(p.toks) && p.toks[k].s == "new" && p.toks[k].sent == sent && !p.clauseBreak(k) {
		k++ // "for every new endpoint"
	}
	var ws []string
	for ; k < len(p.toks) && p.toks[k].sent == sent && len(ws) < 3; k++ {
		if !p.roleWord(k) {
			break
		}
		ws = append(ws, p.toks[k].s)
		if p.clauseBreak(k) {
			break
		}
	}
	return ws
}

// componentNouns name a part a project has, not a role: a value "as an
// optional dependency" or "as a plugin" is a package, not a package manager.
var componentNouns = lazywords.Lookup(`dependency dependencies package packages library libraries module modules plugin plugins
	extension extensions crate crates gem gems`)

// phraseBefore reads the noun phrase ending at token k, and its first token.
func (p *parser) phraseBefore(k int) (string, int) {
	sent := p.toks[k].sent
	if w := p.toks[k].s; k > 0 && scopeStop().Has(w) && isName(w) && !linkWords().Has(w) && !determiners().Has(w) && p.owner[k] == 0 &&
		p.toks[k-1].sent == sent && !p.clauseBreak(k-1) && p.roleWord(k-1) {
		// A head our stop list holds for its verb sense ("HTTP calls",
		// "frontend work"): the words before it name the thing.
		k--
	}
	var ws []string
	for ; k >= 0 && p.toks[k].sent == sent && len(ws) < 3; k-- {
		if !p.roleWord(k) {
			break
		}
		ws = append([]string{p.toks[k].s}, ws...)
		if p.clauseBreak(k - 1) {
			k--
			break
		}
	}
	return roleName(ws), k + 1
}

// roleWord reports whether token k may be part of the phrase naming a role:
// a word, not a value, a link or a word that says nothing about the subject.
func (p *parser) roleWord(k int) bool {
	t := p.toks[k]
	if t.hangul || p.owner[k] != 0 || linkWords().Has(t.s) || determiners().Has(t.s) || scopeStop().Has(t.s) && !roleWords().Has(t.s) && roleIndex()[wordStem(t.s)] == "" {
		return false
	}
	if strings.HasSuffix(t.s, "ed") && len(t.s) > 4 {
		return false // "is served from": a verb, not what the value sets
	}
	if adverb(t.s) && k+1 < len(p.toks) && linkWords().Has(p.toks[k+1].s) {
		return false // "is launched directly with": how, not what the value sets
	}
	return isName(t.s) || t.s == "ci" || t.s == "db" || t.s == "ui" || t.s == "os"
}

// adverb reports a word of six letters or more ending in "ly" the way an
// adverb does ("directly", "manually", "quickly"), not as the nouns
// "supply", "assembly", "family" or "anomaly" do. Before a link word only
// ("drains manually via"): "the nightly build" names what is built.
func adverb(w string) bool {
	return len(w) >= 6 && strings.HasSuffix(w, "ly") && !strings.ContainsRune("pbfiao", rune(w[len(w)-3]))
}

// roleName turns a noun phrase into a role from its head, the last word that
// names more than a kind of thing ("lint tool" -> lint): the role a table
// gives the head ("linting" -> linter), else its stem.
func roleName(ws []string) string {
	if len(ws) == 0 {
		return ""
	}
	for n := min(len(ws), 3); n >= 2; n-- {
		if name := strings.Join(ws[len(ws)-n:], " "); tableRoles()[name] {
			return name // "state management", "error tracking"
		}
	}
	head := ws[len(ws)-1]
	for i := len(ws) - 1; i > 0 && genericHeads().Has(head); i-- {
		head = ws[i-1]
	}
	h := wordStem(head)
	if r := roleIndex()[h]; r != "" {
		return r
	}
	return h
}

// tableRoles are the roles the tool table names.
var tableRoles = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, r := range roleTable {
		m[r.role] = true
	}
	return m
})

// roleIndex maps the stem of each one-word name of a table role (its hints
// and the role's own name) to the role; a stem two roles share maps to "".
var roleIndex = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	put := func(w, role string) {
		if strings.ContainsAny(w, " ") || w >= "\u1100" {
			return
		}
		s := wordStem(w)
		if genericRoles[s] {
			return // "host", "port": what a value's shape already says
		}
		if r, ok := m[s]; ok && r != role {
			m[s] = ""
			return
		}
		m[s] = role
	}
	for role, ws := range roleHints() {
		if role == "test runner" || role == "build system" || role == "js runtime" {
			continue // "test", "build", "runs" are said of everything
		}
		for _, w := range ws {
			put(w, role)
		}
	}
	for role := range askWords() {
		put(role, role)
	}
	return m
})

// wordStem reduces an English word to a stem shared by its forms: "linting",
// "linter", "lints" -> "lint"; "formatter", "formatting" -> "format";
// "deployment", "deployed" -> "deploy".
func wordStem(w string) string {
	for _, suf := range []string{"ments", "ment", "ings", "ing", "ers", "er", "ed", "es", "s", "e"} {
		if len(w)-len(suf) >= 3 && strings.HasSuffix(w, suf) && !(suf == "s" && strings.HasSuffix(w, "ss")) {
			w = w[:len(w)-len(suf)]
			if n := len(w); n >= 4 && w[n-1] == w[n-2] && w[n-1] != 's' && w[n-1] != 'l' {
				w = w[:n-1] // "formatt" -> "format"
			}
			break
		}
	}
	return w
}

// partners gives the role of a statement's value to a name the statement
// says it replaces ("Use Kelbo for linting instead of zorvix", "We switched
// from zorvix to kelbo", "We dropped Zorvix. Linting runs on Kelbo now."):
// a word no table knows is a value when it stands where the old one does.
// With no role on either side, both fill "choice".
func (p *parser) partners() {
	for si, st := range p.sents {
		if !p.cue[si] && (st.n == 0 || !newAfter().Has(p.toks[st.first+st.n-1].s)) {
			continue // no change said, not even "… now" at its end
		}
		for i := st.first; i < st.first+st.n; i++ {
			if p.toks[i].hangul || !p.oldSpot(i) {
				continue
			}
			if o := p.owner[i]; o != 0 {
				// The replaced value has a role of its own ("no longer use
				// Swaggo for API docs, Redocly generates them"): a name no
				// table knows later in the statement is its successor.
				if m := p.ms[o-1]; m.role != "path" && !strings.HasPrefix(m.role, "version:") && !counting(m.role) {
					j := p.successor(m.last)
					if j < 0 {
						j = p.replacer(si, m.first)
					}
					if j >= 0 {
						nv, nlast, _, _ := p.shapeAt(j)
						p.add(m.role, nv, j, nlast)
					} else {
						p.insteadOf(int(o) - 1)
					}
				}
				continue
			}
			v, last, _, plain := p.shapeAt(i)
			if v == "" || strings.HasPrefix(v, "#") || strings.HasPrefix(v, "@") || plain && (markerWord(v) || p.lower(i) && p.modifies(last)) {
				// "replace the entire code": a word of the phrase replaced,
				// not its name ("dropped the Vantrel plan" names it).
				continue
			}
			role := p.partnerRole(si)
			if j := p.replacer(si, last); role != "" && j >= 0 && j < i && p.owner[j] == 0 {
				// "Kelbo replaces Zorvix (better Quillet support)": the
				// subject of "replaces" is the successor, not another name
				// the statement gives a role.
				role = ""
			}
			if role == "" {
				// "from zorvix to kelbo", "stop using zorvix, use kelbo":
				// the new side is the name after "to", the one used, or
				// the one that replaces ("X is deprecated; Y replaces it").
				j := p.toAfterIndex(last)
				if j < 0 {
					j = p.usedIn(si, last)
				}
				if j < 0 {
					j = p.replacer(si, last)
				}
				if j < 0 || p.owner[j] != 0 {
					continue
				}
				nv, nlast, _, _ := p.shapeAt(j)
				if nv == "" {
					continue
				}
				role, _ = p.roleOf(j, nlast)
				if role == "" {
					role = "choice"
				}
				p.add(role, nv, j, nlast)
			}
			p.add(role, v, i, last)
			i = last
		}
	}
}

// insteadOf gives the value named just before "instead of" the role of
// mention oi, named after it ("use pgx for the ledger retry instead of
// sqlc"): the two fill one slot, the new value and the old, and claims
// pair values by role. The replaced value's role is the one a table or its
// shape gave it; the other's may be a phrase's ("for the ledger retry")
// that names no kind of thing. Not when the two are of different kinds (a
// number and a name), nor when the value before already has a role a table
// gives it.
func (p *parser) insteadOf(oi int) {
	o := &p.ms[oi]
	b := o.first - 1
	if b > 0 && determiners().Has(p.toks[b].s) {
		b--
	}
	if b < 2 || p.toks[b].s != "of" || p.toks[b-1].s != "instead" || p.toks[b-2].sent != o.sent {
		return
	}
	k := b - 2 // the word before "instead", past a comma ("uses pgx, instead of sqlc")
	for ; k >= 0 && p.toks[k].sent == o.sent && p.owner[k] == 0; k-- {
		if k < b-2 && p.clauseBreak(k) {
			return
		}
	}
	if k < 0 || p.toks[k].sent != o.sent || p.owner[k] == 0 {
		return
	}
	n := &p.ms[p.owner[k]-1]
	if t := p.toks[o.first]; n.role == "host" && o.role == "port" && o.first == o.last && !strings.Contains(t.s, "://") {
		// "a link to https://example.org instead of localhost:3000": the
		// host changed; the port went with it.
		if h, _, ok := strings.Cut(t.s, ":"); ok && h != "" {
			o.role, o.value = "host", h
		}
	}
	if n.role == o.role || n.role == "path" || strings.HasPrefix(n.role, "version:") || counting(n.role) ||
		isNumber(n.value) != isNumber(o.value) || slices.Contains(RolesOf(n.value), n.role) {
		return
	}
	n.role = o.role
}

// successor returns the first capitalised name after token i in its
// statement that no mention holds, or -1: none when the statement names the
// new value after "to", and none past an ellipsis (an excerpt's cut).
func (p *parser) successor(i int) int {
	st := p.sents[p.toks[i].sent]
	if j := p.toAfterIndex(i); j >= 0 {
		if p.owner[j] != 0 && p.owner[i] != 0 && p.ms[p.owner[j]-1].role == p.ms[p.owner[i]-1].role {
			return -1 // "from quillet to Plenk": the successor is named
		}
		if p.owner[j] == 0 {
			if v, _, _, plain := p.shapeAt(j); v == "" || plain {
				// "from Kelbo to D1 ✅ **Ledger Schema**": the successor is
				// after "to", in a shape no rule reads; a name further on is
				// something else.
				return -1
			}
		}
	}
	phrase := true // still in the noun phrase the replaced name opens
	for k := i + 1; k < st.first+st.n && !p.elided(k-1); k++ {
		inPhrase := phrase && onlySpace(p.text[p.toks[k-1].end:p.toks[k].start]) && p.lower(k) && !scopeStop().Has(p.toks[k].s) && !markerWord(p.toks[k].s)
		phrase = inPhrase
		if p.owner[k] != 0 || p.toks[k].hangul || inPhrase {
			// "drop the Kelbo licence price-trap": the words right after
			// the replaced name are what it qualifies, not its successor.
			continue
		}
		if v, _, _, plain := p.shapeAt(k); v != "" && !plain && !p.oldSpot(k) && !p.flag(k) {
			return k
		}
	}
	return -1
}

// oldSpot reports whether token i stands where a replaced value does, maybe
// after a determiner ("dropped the Kelbo contract", "instead of the X").
func (p *parser) oldSpot(i int) bool {
	sent := p.toks[i].sent
	b := i - 1
	if b > 0 && determiners().Has(p.toks[b].s) && p.toks[b].sent == sent && !p.clauseBreak(b) {
		b--
	}
	if b >= 0 && p.toks[b].sent == sent && !p.clauseBreak(b) {
		w := p.toks[b].s
		if w == "of" && b > 0 && p.toks[b-1].s == "instead" || (weakBefore().Has(w) || strongBefore().Has(w)) && (w != "from" || p.toAfterIndex(i) >= 0) {
			return true
		}
		if (w == "use" || w == "using") && b > 0 && strongBefore().Has(p.toks[b-1].s) {
			return true // "stop using X", "no longer use X"
		}
	}
	j := i + 1
	if j >= len(p.toks) || p.toks[j].sent != sent || p.clauseBreak(i) {
		return false
	}
	w := p.toks[j].s
	if w == "is" || w == "was" || w == "were" || w == "has" {
		// "X is deprecated", "X was too slow", "X has been dropped".
		j++
		if j < len(p.toks) && p.toks[j].s == "been" {
			j++
		}
		return j < len(p.toks) && p.toks[j].sent == sent && (strongAfter().Has(p.toks[j].s) || weakAfter().Has(p.toks[j].s) && p.toks[j].s != "was")
	}
	return strongAfter().Has(w) || weakAfter().Has(w) || w == "대신" || w == "대신에"
}

// toAfterIndex returns the token right after the "to" that follows token i
// within two tokens in its statement, past a determiner ("from X to Y", "off
// X to the Y instance"), or -1.
func (p *parser) toAfterIndex(i int) int {
	for k := i + 1; k <= i+2 && k+1 < len(p.toks) && p.toks[k+1].sent == p.toks[i].sent; k++ {
		if w := p.toks[k].s; w == "to" || w == "into" || w == "onto" {
			if determiners().Has(p.toks[k+1].s) && k+2 < len(p.toks) && p.toks[k+2].sent == p.toks[i].sent {
				return k + 2
			}
			return k + 1
		}
	}
	return -1
}

// partnerRole is the role of the value statement si, or a neighbour, says
// is the new one: the role its replaced name takes.
func (p *parser) partnerRole(si int) string {
	for _, s := range []int{si, si + 1, si - 1} {
		for _, m := range p.ms {
			if m.sent == s && m.role != "path" && !strings.HasPrefix(m.role, "version:") && !counting(m.role) {
				return m.role
			}
		}
	}
	return ""
}

// usedIn returns the first token other than i in statement si, the next or
// the one before, that is used ("use kelbo", "with Kelbo", "written for
// Kelbo now; zorvix is deprecated"), or -1.
func (p *parser) usedIn(si, i int) int {
	for _, s := range []int{si, si + 1, si - 1} {
		if s < 0 || s >= len(p.sents) {
			continue
		}
		st := p.sents[s]
		for k := st.first; k < st.first+st.n; k++ {
			if k == i || k == 0 || p.owner[k] != 0 {
				continue
			}
			used := useWords().Has(p.toks[k-1].s) && p.toks[k-1].s != "now"
			if !used && k+1 < st.first+st.n && newAfter().Has(p.toks[k+1].s) && !p.clauseBreak(k) {
				used = p.toks[k+1].s != "replaces" // the subject of "replaces" is replacer's
			}
			if used && !p.oldSpot(k) {
				if v, _, _, plain := p.shapeAt(k); v != "" && !(plain && markerWord(v)) {
					return k
				}
			}
		}
	}
	return -1
}

// replacer returns the first token other than i in statement si, or the
// next, that is the subject of "replace" ("Y replaces it", "Y supersedes
// X"), or -1.
func (p *parser) replacer(si, i int) int {
	for _, s := range []int{si, si + 1} {
		if s >= len(p.sents) {
			break
		}
		st := p.sents[s]
		for k := st.first; k+1 < st.first+st.n; k++ {
			w := p.toks[k+1].s
			if k == i || p.owner[k] != 0 || p.clauseBreak(k) || !strings.HasPrefix(w, "replace") && !strings.HasPrefix(w, "supersede") {
				continue
			}
			if v, _, _, _ := p.shapeAt(k); v != "" && !markerWord(v) {
				return k
			}
		}
	}
	return -1
}

// participle reports a verb form that links a value to its subject ("built
// with", "deployed to", "written in").
func participle(w string) bool {
	switch w {
	case "built", "written", "sent", "kept", "run", "done", "made", "held", "put", "set":
		return true
	}
	return len(w) > 4 && strings.HasSuffix(w, "ed")
}

// markerWord reports a word that says a change or a verb form ("turned",
// "pushing"): never the value changed.
func markerWord(w string) bool {
	return strongBefore().Has(w) || weakBefore().Has(w) || strongAfter().Has(w) || weakAfter().Has(w) || newBefore().Has(w) || cueWords().Has(w) ||
		strings.HasSuffix(w, "ing") || participle(w) || isNumber(w)
}

// koreanRole names the role of a Korean statement from its Hangul words: the
// table role one of them starts with ("캐시는" -> cache), else the stem of
// the first.
func (p *parser) koreanRole(si int) string {
	st := p.sents[si]
	// The object ("이미지 저장소를 X로 옮겼어요") is what the statement sets:
	// its last word, the head, names the role, also by the Korean words a
	// question names a tool's role with ("저장소" -> object storage).
	for k := st.first; k < st.first+st.n; k++ {
		if t := p.toks[k]; t.hangul && (strings.HasSuffix(t.s, "을") || strings.HasSuffix(t.s, "를")) {
			w := stripParticle(t.s)
			for _, a := range koreanAsks() {
				if strings.HasPrefix(w, a[0]) {
					return a[1]
				}
			}
		}
	}
	first := ""
	for k := st.first; k < st.first+st.n; k++ {
		t := p.toks[k]
		if !t.hangul {
			if pt := t.particle; (strings.HasPrefix(pt, "은") || strings.HasPrefix(pt, "는")) && p.owner[k] == 0 {
				if r := roleName([]string{t.s}); r != "" && roleIndex()[wordStem(t.s)] != "" {
					return r // "ORM은 …": a topic a table names
				}
			}
			continue
		}
		w := stripParticle(t.s)
		for role, ws := range roleHints() {
			for _, h := range ws {
				if h >= "\u1100" && strings.HasPrefix(w, h) {
					return role
				}
			}
		}
		if r := namedNouns[w]; r != "" {
			return r // "알림 채널을" -> channel
		}
		if k > st.first && p.toks[k-1].s == "더" || koreanCue(w) {
			continue // "더 이상", "대신": change wording, not what changes
		}
		if first == "" && len([]rune(w)) >= 2 {
			first = stem(w, true)
		}
	}
	if first == "" {
		return "choice"
	}
	return first
}

// koreanAsks are the one-word Korean names of tool roles, from the hints and
// the question words, as (word, role) pairs in a fixed order.
var koreanAsks = sync.OnceValue(func() [][2]string {
	var out [][2]string
	add := func(role string, ws []string) {
		if genericRoles[role] {
			return
		}
		for _, w := range ws {
			if w >= "\u1100" && !strings.Contains(w, " ") {
				out = append(out, [2]string{w, role})
			}
		}
	}
	for role, ws := range roleHints() {
		add(role, ws)
	}
	for role, ws := range askWords() {
		add(role, ws)
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0]+a[1], b[0]+b[1]) })
	return out
})

// koreanCue reports a Korean word that says a change ("대신", "바꿨어요").
func koreanCue(w string) bool {
	for _, c := range koreanCues {
		if strings.Contains(w, c) {
			return true
		}
	}
	return false
}

// letterWord reports a lower-case word of letters, hyphens inside.
func letterWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c == '-' && i > 0 && i < len(s)-1) {
			return false
		}
	}
	return s != ""
}

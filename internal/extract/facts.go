package extract

import (
	"path"
	"strings"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
)

// Facts stated by layout rather than by a verb: a table row ("| Database |
// Postgres 16 |"), a bold label ("**Database:** Postgres 16 on port 6543")
// and a one-line code block after the sentence that says what it does ("To
// run the tests:" then "npx jest"). Each quotes the text as written; the
// title is the label and the value, in the source's own words.

// structured makes a fact of a table row or a one-line code block, and
// reports whether the sentence was one of them.
func (x *extractor) structured(ss []*sent, k int) bool {
	s := ss[k]
	switch {
	case s.shape&shapeTable != 0:
		x.tableFact(s)
		return true
	case s.shape&shapeBlock != 0:
		x.blockCommand(ss, k)
		return true
	case s.shape&shapeCode != 0:
		if k > 0 && ss[k-1].msg == s.msg {
			x.commandFact(ss[k-1], s)
		}
		return true
	}
	return false
}

// blockCommand keeps a line of a short code block that runs a project tool
// ("cargo build --release", "DATABASE_URL=sqlite://x.db cargo run"), labelled
// by the comment line above it in the block when there is one.
func (x *extractor) blockCommand(ss []*sent, k int) {
	s := ss[k]
	line := strings.TrimSpace(s.norm)
	if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//") {
		return
	}
	if i := strings.Index(line, " #"); i > 0 {
		s.cut(i) // "npm test  # Already passing!": the command, not the remark
		line = strings.TrimSpace(s.norm)
	}
	f := strings.Fields(line)
	for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") {
		f = f[1:] // environment assignments in front
	}
	cmd := strings.Join(f, " ")
	if !startsWithPhrase(lowerASCII(cmd), runners) {
		return
	}
	label := "" // the nearest comment above it in the block
	for j := k - 1; j >= 0 && ss[j].msg == s.msg && ss[j].shape&shapeBlock != 0; j-- {
		if c := strings.TrimSpace(ss[j].norm); strings.HasPrefix(c, "#") {
			label = strings.TrimRight(strings.TrimSpace(strings.TrimLeft(c, "#")), ": ")
			break
		}
	}
	if label == "" {
		return // "npm test" alone: a command without what it is for (a sentence before the block says it: commandFact)
	}
	c := x.addFact(s, line, line, 1.5)
	c.labelled = false
	c.subject = CommandKey(cmd)
	c.title, c.body = clip(label+": "+line, maxTitle), label+": "+line
}

// tableFact keeps a body row whose first cell names a thing and whose
// cells hold a value: a port, a version, a path, a host, a tool, a code
// name ("| `LRU` (default) | General use |").
func (x *extractor) tableFact(s *sent) {
	cells := strings.Split(s.norm, "|")
	var vals []string
	for _, c := range cells[1:] {
		if c = strings.TrimSpace(clean(c)); c != "" {
			vals = append(vals, c)
		}
	}
	label := strings.TrimSpace(clean(cells[0]))
	if label == "" || len(vals) == 0 || len(strings.Fields(label)) > 5 || marked(s) {
		return
	}
	ok := valueLike(s.norm) // raw cells: a code span in any of them counts
	for _, v := range vals {
		ok = ok || valueLike(v)
	}
	if ok {
		x.addFact(s, label, strings.Join(vals, ", "), 1.5)
	}
}

// commandFact keeps a command shown in its own code block when the
// sentence before it says what the command is for.
func (x *extractor) commandFact(lead, code *sent) {
	l := strings.TrimRight(strings.TrimSpace(lead.low), ":")
	if !containsPhrase(l, commandPurposes) || isQuestion(lead) {
		return
	}
	label := strings.TrimRight(strings.TrimSpace(clean(stripMarkers(lead.norm, false))), ":")
	c := x.addFact(code, label, strings.TrimSpace(code.norm), 1.5)
	if c != nil {
		off, q := lead.quote(lead.body)
		c.ev = append([]evi{{lead.msg, off, q}}, c.ev...)
	}
}

// commandPurposes say what a command that follows is for.
var commandPurposes = []string{"run", "start", "test", "tests", "build", "deploy", "install", "lint", "format",
	"migrate", "release", "publish", "serve", "실행", "테스트", "빌드", "배포", "설치"}

// labelFact keeps "**Label:** value" and "Label: value" lines whose value is
// one a fact can hold, when nothing else in the sentence made an entry.
func (x *extractor) labelFact(s *sent) {
	if s.shape&shapeLine == 0 || isQuestion(s) {
		return
	}
	t := clean(s.norm)
	k := strings.Index(t, ": ")
	if k <= 0 || k > 40 {
		if !x.boldSetting(s) {
			x.namedFact(s)
		}
		return
	}
	label, value := strings.TrimSpace(t[:k]), strings.TrimSpace(t[k+2:])
	if len(strings.Fields(label)) > 4 || value == "" || sequenceLabel(label) ||
		startsWithPhrase(lowerASCII(label), narrationVerbs) || startsWithPhrase(lowerASCII(value), narrationVerbs) ||
		marked(s) || !valueLike(value) && !definition(s.norm, value) && !hasTicket(label) && !namesPath(label) && !codeName(label) || isPlanStep(lowerASCII(label)) && !containsPhrase(lowerASCII(label), commandPurposes) {
		return // "Step 2: …", "Week 1: …", "Initialize Prisma: …" order a plan; "✅ Tests: 690 passing" reports a run
	}
	if in(pastLabels, strings.ToLower(label)) {
		return // "Before: Heroku hobby dyno" is the state a change replaced
	}
	if r, _ := firstRef(value); oneDeploy(r) {
		return // "Production: https://a41f09bc.app.example.dev" is where one build went
	}
	x.addFact(s, label, value, 1.5)
}

// recordShape is a table or record written with its fields:
// "invoices (id, customer_id, total, issued_at)".
var recordShape = lazyregexp.New(`^[A-Za-z_][\w.]*\s*\(\s*[A-Za-z_]\w*(\s*,\s*[A-Za-z_]\w*){2,}\s*\)$`)

// definition reports a label's value that is a code span holding a table
// or record and its fields ("**DB**: `invoices (id, total, issued_at)`"): the
// shape the project's data settled on, which the label's code span keeps
// apart from a call in prose.
func definition(raw, value string) bool {
	return recordShape.MatchString(value) && strings.Contains(raw, "`"+value+"`")
}

// pastLabels say that what follows them is no longer so.
var pastLabels = []string{"before", "previously", "old", "was", "formerly"}

// valueKinds name a kind of value rather than the thing a value belongs
// to; a fact labelled with only one of them ("URL: http://localhost:2004",
// "Host: 0.0.0.0") does not say what it is about.
var valueKinds = []string{"url", "urls", "uri", "link", "links", "address", "host", "hostname", "ip", "port", "ports",
	"path", "paths", "file", "files", "filename", "directory", "dir", "folder", "location", "version", "command",
	"commands", "cmd", "script", "status", "state", "result", "results", "output", "config", "configuration",
	"settings", "value", "values", "type", "format", "example", "source", "target", "environment", "env",
	"environment variables", "env vars", "variables"}

// valueLike reports a value a developer would look up: a path, a host or
// URL, a code span, an environment variable, a port, a version, a hex
// colour, a known tool or a setting ("12 hours", "50 pages"), in a phrase rather than a
// sentence of prose. A bare count or price ("25 unique photos", "$15/1M")
// is a measurement of the moment or an estimate, not a fact about the
// project.
func valueLike(v string) bool {
	var buf [17]string
	if len(headFields(buf[:0], v)) > 16 {
		return false
	}
	if strings.Contains(v, "`") || len(paths(v)) > 0 || envVar(v) != "" || portAt(lowerASCII(v)) >= 0 || hasVersion(v) {
		return true
	}
	if r, _ := firstRef(v); strings.HasPrefix(r, "http") {
		return true
	}
	for w := range strings.FieldsSeq(v) {
		if hexColour(colourTrim.trim(w)) {
			return true
		}
	}
	return len(topicHits(lowerASCII(v))) > 0 || setting(lowerASCII(v))
}

// settingUnits follow a number that sets how something behaves: "12 hours",
// "1 second", "50 pages", "3 retries", "12시간", "1초".
var settingUnits = []string{"ms", "s", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes",
	"h", "hour", "hours", "day", "days", "kb", "mb", "gb", "retries", "retry", "attempts", "pages", "workers",
	"threads", "connections", "items", "rows", "entries", "초", "분", "시간", "일", "회", "페이지"}

// setting reports a value that starts with a number and its unit: a
// configured interval, limit or size. A value that starts with a verb
// ("Found 27 photos") reports a run.
func setting(v string) bool {
	v = strings.TrimLeft(v, " ~<>=≤≥")
	i := 0
	for i < len(v) && (isDigit(v[i]) || v[i] == '.' || v[i] == ',') {
		i++
	}
	if i == 0 {
		return false
	}
	rest := strings.TrimLeft(strings.TrimPrefix(v[i:], "-"), " ")
	return in(settingUnits, firstWord(rest))
}

// hasVersion reports a version number: "v0.9.0", "7.1.5", or a bare
// "16.2" where something says it is a version ("Node 16.2", "version 2.0");
// not a price ("$1.25"), a percentage ("99.6%"), a reading ("26.7°C"), a
// size ("1.5 GB") or a section ("section 3.2").
func hasVersion(v string) bool {
	for i := 1; i+1 < len(v); i++ {
		if v[i] != '.' || !isDigit(v[i-1]) || !isDigit(v[i+1]) {
			continue
		}
		a, b := i-1, i+1
		for a > 0 && (isDigit(v[a-1]) || v[a-1] == '.') {
			a--
		}
		for b < len(v) && (isDigit(v[b]) || v[b] == '.') {
			b++
		}
		i = b
		if a > 0 && v[a-1] == '$' || b < len(v) && (v[b] == '%' || strings.HasPrefix(v[b:], "°") || v[b] == 'x') {
			continue
		}
		if a > 0 && (v[a-1] == 'v' || v[a-1] == 'V') && (a == 1 || !isWordByte(v[a-2])) ||
			strings.Count(strings.TrimRight(v[a:b], "."), ".") >= 2 || versionNamed(v) {
			return true
		}
	}
	return false
}

// versionNamed reports text whose claims give a version to a tool or a
// language the vocabulary knows ("Vite 5.2", "Python 3.12"), or to
// something it calls a version ("version 2.1"): a bare number with a dot is
// as often a size, a ratio or a section.
func versionNamed(v string) bool {
	for _, c := range claim.Parse(v) {
		if p, ok := strings.CutPrefix(c.Role, "version:"); ok && (claim.Product(p) || strings.Contains(lowerASCII(v), "version "+c.Value)) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// marked reports a line led by a check mark or cross: a progress report.
func marked(s *sent) bool { return markedText(s.norm) }

// markedText is marked for an entry's text.
func markedText(t string) bool {
	t = strings.TrimLeft(t, " *_-#")
	for _, m := range []string{"✅", "❌", "✓", "✗", "✔", "☑", "🔄", "⏳", "⚠"} {
		if strings.HasPrefix(t, m) {
			return true
		}
	}
	return false
}

// addFact records a fact titled "label: value" with s as its quote.
func (x *extractor) addFact(s *sent, label, value string, w float64) *cand {
	c := &cand{typ: Fact, score: w, seq: len(x.cands), from: s.msg, user: s.user}
	if s.user {
		c.score += 0.5
	}
	off, q := s.quote(s.body)
	c.ev = []evi{{s.msg, off, q}}
	c.subject = strings.ToLower(label)
	c.labelled = true
	c.label, c.val = label, value
	c.title = clip(label+": "+value, maxTitle)
	c.body = label + ": " + value
	if hits := s.topics(); len(hits) > 0 {
		c.value = canonical(s.low[hits[0].at:hits[0].end])
	}
	x.cands = append(x.cands, c)
	return c
}

// listings finds label facts whose label repeats in the session with
// another value: "File: a.mp4", "File: b.mp4" list items, and the label
// names no one thing. The same label with the same value is one fact said
// twice (a summary repeated, a resumed session's copy) and is merged, not
// listed.
//
// It also finds catalogues: a message listing three or more things of the
// code with a gloss each ("`Ledger.tsx` - Main component", "GET /api/x -
// List x", "ledger_lines - invoice-account links") describes the code as it
// stands, which the code itself says better; such a gloss rarely holds
// what a developer would look up weeks later. An item of a catalogue stays
// only when its value holds something the code does not show at a glance:
// an address, a port or a command.
func (x *extractor) listings() map[*cand]bool {
	values := map[string]map[string]bool{} // per label: the values it is given
	things := map[int]int{}                // per message: labelled facts naming a thing of the code
	for _, c := range x.cands {
		if c.labelled {
			if values[c.subject] == nil {
				values[c.subject] = map[string]bool{}
			}
			values[c.subject][strings.ToLower(c.val)] = true
			if codeThing(c.label) {
				things[c.from]++
			}
		}
	}
	out := map[*cand]bool{}
	for _, c := range x.cands {
		if c.labelled && (len(values[c.subject]) >= 2 || things[c.from] >= 3 && !lookedUp(c.val)) {
			out[c] = true
		}
	}
	return out
}

// codeThing reports a label that names a part of the code: a source file or
// directory, a route or endpoint ("GET /api/x", "/accounts/ledger"), or an
// identifier as code spells it ("AccountLedger", "ledger_lines"). A document
// ("docs/DEPLOY.md") and an environment variable are not: pointers to them
// are looked up.
func codeThing(label string) bool {
	l := strings.Trim(label, "`*_ ")
	f := strings.Fields(l)
	if len(f) == 0 || envVar(l) == l {
		return false
	}
	if len(f) == 2 && in(httpMethods, strings.ToUpper(f[0])) {
		return true
	}
	if len(f) > 1 {
		return false
	}
	switch ext := strings.ToLower(path.Ext(l)); {
	case ext == ".md" || ext == ".txt" || ext == ".rst" || ext == ".pdf":
		return false
	case strings.HasPrefix(l, "/") || strings.HasSuffix(l, "/") || len(paths(l)) > 0:
		return true
	}
	return codeName(l)
}

var httpMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

// lookedUp reports a value a developer comes back for: an address, a port
// or a command to run.
func lookedUp(v string) bool {
	low := lowerASCII(v)
	if r, _ := firstRef(v); strings.HasPrefix(r, "http") {
		return true
	}
	return portAt(low) >= 0 || startsWithPhrase(strings.Trim(low, "`"), runners)
}

// boldSetting keeps a bullet whose bold label is followed by its setting in
// parentheses: "**Linear backoff on reconnect** (2s, 4s, 6s) — …" says how
// the project behaves as plainly as "Retry backoff: 1s, 2s, 4s" would.
func (x *extractor) boldSetting(s *sent) bool {
	t := strings.TrimSpace(s.norm)
	if s.shape&shapeBullet == 0 || !strings.HasPrefix(t, "**") || marked(s) {
		return false
	}
	end := strings.Index(t[2:], "**")
	if end <= 0 {
		return false
	}
	label := strings.TrimSpace(t[2 : 2+end])
	rest := strings.TrimSpace(t[4+end:])
	close := strings.IndexByte(rest, ')')
	if !strings.HasPrefix(rest, "(") || close < 0 || len(strings.Fields(label)) > 5 {
		return false
	}
	value := strings.TrimSpace(rest[1:close])
	if !setting(lowerASCII(value)) {
		return false
	}
	x.addFact(s, label, value, 1.5)
	return true
}

// namedFact keeps a list item that names a code thing and says what it is:
// "`zeta/web-shop` — the storefront". The name is the value;
// the rest must say something (two words or more). An arrow from one path
// to another ("`icons/` → `static/icons/` (served from the site root)")
// says where the thing is now.
func (x *extractor) namedFact(s *sent) {
	if s.shape&shapeBullet == 0 || !strings.HasPrefix(strings.TrimLeft(s.norm, "*_ "), "`") {
		return
	}
	t := clean(s.norm)
	for _, sep := range []string{" — ", " – ", " - ", " → ", " -> "} {
		k := strings.Index(t, sep)
		if k <= 0 || k > 60 {
			continue
		}
		name, what := strings.TrimSpace(t[:k]), strings.TrimSpace(t[k+len(sep):])
		if strings.Contains(sep, ">") || strings.Contains(sep, "→") {
			if !movedPath(name, what) {
				return
			}
		}
		if len(strings.Fields(name)) > 3 || len(strings.Fields(what)) < 2 || marked(s) || sequenceLabel(what) ||
			strings.HasPrefix(lowerASCII(what), "has ") {
			return // "`x-fjj` - Step 11: Celery" is a plan's numbering; "`ci.yml` - Has …" a finding
		}
		c := x.addFact(s, name, what, 1.5)
		c.title = clip(name+sep+what, maxTitle)
		c.body = name + sep + what
		return
	}
}

// movedPath reports an arrow item whose both sides are paths: "icons/"
// to "static/icons/ (served from the site root)", not "window.CONFIG → export const".
func movedPath(from, to string) bool {
	f := strings.Fields(to)
	return len(f) > 0 && pathLike(from) && pathLike(f[0])
}

// pathLike reports a file or directory as a list names it: a path, or a
// bare directory ("icons/") or file name ("app.jsx").
func pathLike(w string) bool {
	return len(paths(w)) > 0 || fileName(w) || strings.HasSuffix(w, "/") && codeWord(strings.TrimSuffix(w, "/"))
}

// acceptances are whole replies that take up what was just proposed.
var acceptances = []string{"yes", "yep", "yeah", "sure", "ok", "okay", "go ahead", "do it", "please do", "sounds good",
	"lgtm", "go for it", "yes please", "let's do it", "네", "예", "좋아요", "좋습니다", "그렇게 해 주세요", "그렇게 해주세요",
	"진행해 주세요", "진행해주세요"}

// bareAcceptance reports a user message that only says yes.
func bareAcceptance(text string) bool {
	t := strings.Trim(lowerASCII(strings.TrimSpace(text)), " .!~,")
	var buf [5]string
	if len(headFields(buf[:0], t)) > 4 {
		return false
	}
	for _, a := range acceptances {
		if t == a || strings.HasPrefix(t, a+",") || strings.HasPrefix(t, a+" ") && onlyAck(t) {
			return true
		}
	}
	return false
}

// proposalLeads introduce what the assistant offers to do.
var proposalLeads = []string{"want me to", "should i", "shall i", "would you like me to", "i'd recommend", "i recommend",
	"i suggest", "shall we", "should we", "할까요", "드릴까요", "제안"}

// acceptPlan makes a decision of what a bare "yes" in user message i takes
// up: the first item of the list the assistant's offer introduced ("Want
// me to: 1. Add `a/` and `b/` as npm workspaces …"), quoted with the yes.
func (x *extractor) acceptPlan(i int) {
	prev := i - 1
	for prev >= 0 && strings.ToLower(x.msgs[prev].Role) == "tool" {
		prev--
	}
	if prev < 0 || strings.ToLower(x.msgs[prev].Role) != "assistant" {
		return
	}
	text := x.msgs[prev].Text
	if len(text) > maxScan {
		text = text[:maxScan]
	}
	led := false
	for _, sp := range sentences(text) {
		s := newSent(prev, sp.start, x.msgs[prev].Text[sp.start:limit(x.msgs[prev].Text, sp.start, sp.end)], false)
		s.shape = sp.shape
		switch {
		case containsPhrase(s.low, proposalLeads):
			led = true
		case led && s.shape&shapeBullet != 0:
			if in(proposalVerbs, firstWord(leadText(s.low))) {
				x.addAccepted(s, i)
				return
			}
		case led:
			led = false
		}
	}
}

// proposalVerbs open an offered step that settles how the project works.
var proposalVerbs = []string{"use", "add", "switch", "replace", "move", "migrate", "adopt", "keep", "pin", "upgrade",
	"track", "store", "split", "rename", "drop", "remove", "make", "set", "convert", "enable", "disable"}

func (x *extractor) addAccepted(s *sent, yes int) {
	c := &cand{typ: Decision, score: 2.5, seq: len(x.cands), from: yes, user: true}
	off, q := s.quote(s.body)
	yesText := strings.TrimSpace(x.msgs[yes].Text)
	c.ev = []evi{{s.msg, off, q}, {yes, strings.Index(x.msgs[yes].Text, yesText), yesText}}
	c.title = finishTitle(stripMarkers(s.norm, false))
	c.body = clean(s.norm)
	c.subject = phraseSubject(stripMarkers(s.norm, false), true)
	x.cands = append(x.cands, c)
}

// sequenceLabels number the parts of a plan or a report: "Step 2", "Week 1".
var sequenceLabels = []string{"step", "steps", "phase", "week", "day", "days", "stage", "part", "option", "stream",
	"priority", "round", "sprint", "milestone", "task", "item", "p0", "p1", "p2", "p3", "단계", "주차", "일차"}

// sequenceLabel reports a label that orders a plan rather than names a
// thing: a sequence word and a number, "Step 2", "Day 8-10", "Phase 1: Core".
func sequenceLabel(label string) bool {
	f := strings.Fields(lowerASCII(label))
	for i, w := range f {
		if in(sequenceLabels, strings.Trim(w, "*_#(")) && (i+1 < len(f) && isDigit(f[i+1][0]) || strings.ContainsAny(w, "0123456789")) {
			return true
		}
	}
	return false
}

// hasTicket reports a label naming a pull request, issue or ticket: "PR
// #401", "JIRA-812". The label is then the value.
func hasTicket(label string) bool {
	t, _ := ticket(label)
	return t != ""
}

// runners name the tools a project is built, tested, linted and shipped
// with; a command starting with one that passed is how the project works.
// Each is its ecosystem's standard command as its documentation spells it
// ("cargo build"), not any question's wording.
var runners = []string{"pytest", "jest", "vitest", "go test", "go build", "go vet", "cargo test", "cargo build",
	"cargo run", "cargo clippy", "npm test", "npm run", "npx", "pnpm", "yarn", "make", "ruff", "eslint", "uv run",
	"uv build", "uv publish", "uv sync", "docker compose", "docker-compose", "gradle", "./gradlew", "mvn",
	"bundle exec", "rake", "tox", "mypy", "golangci-lint", "prettier", "poetry run", "python -m pytest", "dotnet test",
	"dotnet build", "swift test", "flutter test", "esphome run", "esphome compile"}

// maxCommands caps the command facts of one session.
const maxCommands = 3

// commands makes facts of the project commands the session ran more than
// once and saw pass ("uv run pytest -v"): run again and again, it is how
// the project is built or tested, not a one-off. One per command (its first
// two words), the first few only. The quote is the command as run, cut
// before a redirect, pipe or chain.
func (x *extractor) commands() {
	runs := map[string]int{}
	for _, m := range x.msgs {
		if c, ok := strings.CutPrefix(m.Text, "Bash: "); ok && strings.ToLower(m.Role) == "tool" {
			if k := strings.IndexByte(c, '\n'); k >= 0 {
				c = c[:k]
			}
			runs[CommandKey(strings.TrimSuffix(c, " (error)"))]++
		}
	}
	seen := map[string]bool{}
	n := 0
	for i, m := range x.msgs {
		if n == maxCommands || strings.ToLower(m.Role) != "tool" {
			continue
		}
		line := m.Text
		if k := strings.IndexByte(line, '\n'); k >= 0 {
			line = line[:k]
		}
		cmd, ok := strings.CutPrefix(line, "Bash: ")
		if !ok || strings.HasSuffix(cmd, " (error)") {
			continue
		}
		for _, cut := range []string{" 2>&1", " 2>", " |", " &&", " ;", "; ", " >"} {
			if k := strings.Index(cmd, cut); k >= 0 {
				cmd = cmd[:k]
			}
		}
		cmd = commandHead(strings.TrimSpace(cmd))
		key := CommandKey(cmd)
		if cmd == "" || seen[key] || runs[key] < 2 || !startsWithPhrase(lowerASCII(cmd), runners) || len(cmd) > maxQuote {
			continue
		}
		seen[key] = true
		n++
		off := len("Bash: ") + strings.Index(m.Text[len("Bash: "):], cmd)
		c := &cand{typ: Fact, score: 1.5, seq: len(x.cands), from: i, subject: key, title: clip(cmd, maxTitle), body: cmd}
		c.ev = []evi{{i, off, cmd}}
		x.cands = append(x.cands, c)
	}
}

// commandHead is cmd up to its first argument naming a file or directory:
// "npm test" of "npm test test/notes.test.ts", the command and not the run.
func commandHead(cmd string) string {
	// walk the fields by offset, so that what is returned is a prefix of
	// cmd as written (a quote), spacing and all
	i, n := 0, 0
	for i < len(cmd) {
		for i < len(cmd) && (cmd[i] == ' ' || cmd[i] == '\t') {
			i++
		}
		start := i
		for i < len(cmd) && cmd[i] != ' ' && cmd[i] != '\t' {
			i++
		}
		if start == i {
			break
		}
		a := cmd[start:i]
		if n >= 2 && (a == "--" || strings.ContainsAny(a, "/\\") || strings.Contains(a, ".") && !strings.HasPrefix(a, "-")) {
			return strings.TrimRight(cmd[:start], " \t")
		}
		n++
	}
	return cmd
}

// namesPath reports a label that names where its thing lives: "Media
// Scanner (`src/scanner/`)".
func namesPath(label string) bool {
	return strings.Contains(label, "/") && len(paths(label)) > 0
}

// codeName reports a label that is one identifier as code spells it:
// "InMemoryOrderStore", "retry_budget" — a class, a module or a setting the
// value then describes — and not a word or a heading.
func codeName(label string) bool {
	if strings.ContainsAny(label, " \t") || len(label) < 4 {
		return false
	}
	upper, inner := 0, false
	for i := 0; i < len(label); i++ {
		c := label[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
			inner = inner || i > 0 && label[i-1] >= 'a' && label[i-1] <= 'z'
		case c == '_' && i > 0 && i < len(label)-1:
			inner = true
		case isWordByte(c):
		default:
			return false
		}
	}
	return inner && upper < len(label)/2
}

// createdWith keeps "Created `path` with:" and the first item of the list
// under it that names a code element: "`RatesClient` class for
// token-based login". The line alone says a file was made; with the item
// it says where a part of the project lives. It reports whether it did.
func (x *extractor) createdWith(ss []*sent, k int) bool {
	s := ss[k]
	t := strings.TrimSpace(s.low)
	lead := leadText(t)
	if s.user || k+1 >= len(ss) || !strings.HasSuffix(t, ":") {
		return false
	}
	english := startsWithPhrase(lead, []string{"created", "added", "wrote"}) && strings.HasSuffix(t, " with:")
	korean := strings.Contains(t, "만들었") || strings.Contains(t, "생성했")
	ps := paths(s.norm)
	if !english && !korean || len(ps) != 1 {
		return false
	}
	n := ss[k+1]
	item := strings.TrimSpace(n.norm)
	if n.msg != s.msg || n.shape&shapeBullet == 0 || !strings.HasPrefix(item, "`") || marked(n) {
		return false
	}
	c := x.addFact(n, ps[0], clean(item), 2)
	c.labelled = false // one file's parts, not a "Label: value" list
	off, q := s.quote(s.body)
	c.ev = append([]evi{{s.msg, off, q}}, c.ev...)
	n.used = true
	return true
}

package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
)

// The noise gate: sentences that are never worth a memory however they are
// worded, recognised by their shape rather than by the words of any one
// session. A memory is read weeks later; a heading, an acknowledgement, a
// progress report, a plan step the assistant proposed or a line of compiler
// output says nothing then.

// noiseClass names why a sentence was skipped; tests check each class.
type noiseClass uint8

const (
	notNoise  noiseClass = iota
	heading              // "What still needs doing:", "## Next Steps", "🎯 Summary"
	ack                  // "Got it, I will follow that from now on.", "You're right, sorry"
	status               // "Port 3030 is free.", "The tests should now pass."
	toolLine             // "note: function defined here", "error: could not compile"
	narration            // "Created `x.rs` with the grouping logic", "✅ Added logs to .gitignore"
	planStep             // an assistant's "Replace X with Y", "Let's try compiling again"
)

// noise classifies s, one sentence of a message, as one of the kinds of
// noise, or notNoise.
func noise(s *sent) noiseClass {
	// A sentence is judged in the message's loop, again as an answer
	// and as an antecedent: once is enough while it is the same.
	if !s.noisyOK || s.noisyAt != s.shape || s.noisyIn != s.planned {
		s.noisy, s.noisyOK, s.noisyAt, s.noisyIn = noiseOf(s), true, s.shape, s.planned
	}
	return s.noisy
}

// noiseOf is noise, computed.
func noiseOf(s *sent) noiseClass {
	lead := leadText(s.low)
	switch {
	case s.shape&shapeHeading != 0:
		return heading
	case s.shape&shapeTable != 0 || s.shape&shapeCode != 0:
		return notNoise // judged by tableFact and commandFact
	case isToolLine(lead):
		return toolLine
	case isLabelOnly(s):
		return heading
	case startsWithPhrase(lead, acks) && (onlyAck(lead) || !s.user && containsPhrase(lead, selfTalk)):
		return ack
	case s.user:
		return notNoise
	case reportsSwitch(lead):
		return notNoise
	case marked(s) || containsPhrase(lead, statusPhrases) || checked(lead):
		return status
	case isNarration(lead):
		return narration
	case (startsWithPhrase(afterLabel(lead), planOpeners) || isPlanStep(lead)) && !s.hasIn(rulesIndex) && !howTo(s) && !planItem(s, lead):
		return planStep
	case isTitleLine(s):
		return heading
	}
	return notNoise
}

// leadText is low without the list markers, emphasis and emoji in front.
func leadText(low string) string {
	i := 0
	for i < len(low) {
		r, n := utf8.DecodeRuneInString(low[i:])
		if r == ' ' || r == '*' || r == '_' || r == '`' || r == '>' || r == '-' || r == '#' || r == '"' ||
			r >= 0x2190 && !unicode.IsLetter(r) && !unicode.IsDigit(r) || r == 0xFE0F {
			i += n
			continue
		}
		break
	}
	return low[i:]
}

// afterLabel is the text after a short "Label:" or "`path` —" in front.
func afterLabel(lead string) string {
	var buf [5]string
	for _, sep := range []string{": ", " — ", " – ", " - ", " â€\" ", " â€” ", " â€“ "} { // and "—" read as cp1252
		// A label is in the first 40 bytes: the first separator is looked
		// for there, not in the whole of a long text.
		if k := strings.Index(lead[:min(len(lead), 40+len(sep))], sep); k > 0 && len(headFields(buf[:0], lead[:k])) <= 4 {
			return leadText(lead[k+len(sep):])
		}
	}
	return lead
}

// startsWithPhrase reports whether b opens with a phrase of list as whole
// words. Comparing first bytes before the prefixes skips most of a long list
// without a call.
func startsWithPhrase(b string, list []string) bool {
	for _, w := range list {
		if w != "" && (b == "" || w[0] != b[0]) {
			continue
		}
		if strings.HasPrefix(b, w) && (len(b) == len(w) || !isWordByte(b[len(w)]) || !isWordByte(w[len(w)-1])) {
			return true
		}
	}
	return false
}

// containsPhrase reports whether a phrase of list occurs in b as whole words
// (bounded). b's word starts are read once, so that a phrase whose first two
// bytes start no word of b is skipped without a scan, as sent.find does.
func containsPhrase(b string, list []string) bool {
	if b == "" {
		return false
	}
	bits, ascii := wordStarts(b)
	for _, w := range list {
		if len(w) > 1 && !mayStart(&bits, ascii, w) {
			continue
		}
		for from := 0; from < len(b); {
			k := strings.Index(b[from:], w)
			if k < 0 {
				break
			}
			k += from
			from = k + 1
			if bounded(b, k, k+len(w), w) {
				return true
			}
		}
	}
	return false
}

// acks open a reply that only acknowledges, thanks or apologises.
var acks = []string{"got it", "understood", "you're right", "you are right", "you're absolutely right", "sorry",
	"apologies", "my apologies", "thanks", "thank you", "great", "perfect", "excellent", "awesome", "sounds good",
	"will do", "noted", "sure", "ok", "okay", "of course", "absolutely", "good catch", "good point", "nice",
	"i will follow", "i'll follow", "i'll remember", "i will remember", "i'll keep", "i will keep",
	"알겠습니다", "알겠어요", "네 알겠", "네, 알겠", "좋습니다", "감사합니다", "고맙습니다", "죄송", "기억하겠습니다",
	"명심하겠습니다", "그렇게 하겠습니다", "맞습니다", "맞아요", "좋아요"}

// statusPhrases report the state of the work at that moment.
var statusPhrases = []string{"successfully", "should now", "now works", "now working", "now passes", "now pass",
	"is ready", "are ready", "ready to", "ready for", "is free", "it seems", "seems to", "appears to", "looks like",
	"looks good", "looks great", "looks excellent", "all tests pass", "tests pass", "tests are passing",
	"is working", "are working", "works now", "is now running", "now ready", "still failing",
	"is complete", "are complete", "now complete", "complete", "completed", "is done", "are done", "passing", "we're on a", "i see",
	"i notice", "i can see", "now we need", "running properly", "working properly", "working correctly", "running correctly",
	"완료했습니다", "완료되었습니다", "성공적으로", "통과합니다", "통과했습니다", "해결되었습니다", "준비되었습니다",
	"확인했습니다", "실행 중", "진행하겠습니다"}

// isToolLine reports compiler, test-runner or shell output: pasted into a
// prompt or echoed in a reply, it is a symptom, not a memory.
func isToolLine(lead string) bool {
	for _, p := range []string{"error:", "error[", "warning:", "warning[", "note:", "help:", "-->", "= note", "= help",
		"traceback", "npm err", "fail ", "pass ", "panic:", "exception in", "caused by:", "at ", "error ts",
		"fatal:", "hint:", "info:", "debug:", "thread '", "test result:", "ok  \t", "---", "+++", "$ "} {
		if strings.HasPrefix(lead, p) {
			return p != "at " || strings.Contains(lead, "(") && strings.Contains(lead, ":")
		}
	}
	// "  |" gutters and "12 | code" line numbers
	t := strings.TrimLeft(lead, "0123456789 ")
	return len(t) < len(lead) && strings.HasPrefix(t, "|")
}

// isLabelOnly reports a whole line that only names what follows it: "What
// still needs doing:", "**Root Cause**", "Next steps (in order):".
func isLabelOnly(s *sent) bool {
	if s.shape&shapeLine == 0 && !strings.HasSuffix(strings.TrimSpace(s.low), ":") {
		return false
	}
	t := strings.TrimRight(strings.TrimSpace(s.low), "*_ ")
	if !strings.HasSuffix(t, ":") || strings.Contains(strings.TrimSuffix(t, ":"), ": ") {
		return false // "**Label:** value" says more
	}
	// a short "Label:" introduces what follows; a longer one with a value
	// ("The printer runs a status page on port 631 with a JSON API:") is a claim
	return len(strings.Fields(t)) <= 8 && !valueLike(s.norm)
}

// isTitleLine reports an assistant line that reads as a title: short, no
// sentence ending, most words capitalised or an emoji in front, and no value
// a fact could hold.
func isTitleLine(s *sent) bool {
	if s.shape&shapeLine == 0 || s.shape&shapeBullet != 0 && strings.Contains(s.norm, ":") {
		return false
	}
	t := strings.TrimSpace(s.norm)
	if strings.HasSuffix(t, ".") || strings.HasSuffix(t, "!") || strings.HasSuffix(t, "다") || strings.HasSuffix(t, "요") {
		return false
	}
	f := strings.Fields(clean(t))
	if len(f) == 0 || len(f) > 10 {
		return false
	}
	caps := 0
	for _, w := range f {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.IsUpper(r) || !unicode.IsLetter(r) {
			caps++
		}
	}
	// Most lines are not capitalised as titles are: the value test, which
	// reads the whole line for paths and topics, is asked last.
	return caps*3 >= len(f)*2 && !valueLike(s.norm)
}

// narrationVerbs open a report of what was just done.
var narrationVerbs = []string{"added", "created", "modified", "updated", "fixed", "removed", "moved", "changed",
	"implemented", "refactored", "deleted", "renamed", "wrote", "installed", "built", "ran", "enabled",
	"disabled", "cleaned", "committed", "pushed", "merged", "opened", "closed", "configured", "set up",
	"replaced", "switched", "migrated", "converted", "extracted", "integrated", "improved", "enhanced",
	"resolved", "addressed", "verified", "tested", "checked", "adding", "creating", "updating", "fixing",
	"i've", "i have", "we've", "we have", "done", "finished", "completed",
	"추가했", "생성했", "수정했", "변경했", "삭제했", "만들었", "고쳤", "완료"}

// isNarration reports an assistant sentence telling what it did:
// "Created `billing.rs` module", "`settings.py` — Added the constants".
// The file is in the repository by then; what it says is not a memory. A
// change to a new value ("Replaced ONNX Runtime with rustface") and how a
// failure was fixed are kept.
func isNarration(lead string) bool {
	b := afterLabel(lead)
	if !startsWithPhrase(b, narrationVerbs) && !startsWithPhrase(lead, narrationVerbs) {
		return false
	}
	if containsPhrase(b, deferrals) {
		return false // "I've noted it as a follow-up: …" is the task itself
	}
	if startsWithPhrase(b, fixOpeners) {
		return false // "Fixed by returning the commit error": how it was fixed
	}
	if startsWithPhrase(b, changeVerbs) && containsPhrase(b, []string{"to", "with", "from", "for"}) {
		return false // "Pinned golangci-lint to v1.59.1": the value from now on
	}
	return !describesAddition(b)
}

// describesAddition reports "created `billing.rs` module with
// monthly invoicing logic", "added `refresh_rates` service for manual
// refresh", "updated `sync_worker.go` to fetch every 8 hours": a named file
// or code thing and what it holds or does, which says how the code works
// now; "Created migration file `004_x.sql`" says only that it was made.
func describesAddition(b string) bool {
	if !startsWithPhrase(b, []string{"created", "added", "updated", "modified", "changed"}) ||
		len(paths(b)) == 0 && strings.Count(b, "`") < 2 || strings.HasSuffix(strings.TrimSpace(b), ":") {
		return false
	}
	named := strings.IndexByte(b, '`')
	if p := paths(b); len(p) > 0 {
		if k := strings.Index(b, lowerASCII(p[0])); k >= 0 && (named < 0 || k < named) {
			named = k
		}
	}
	for _, w := range []string{" with ", " for ", " that ", " which ", " to "} {
		// the thing is named before what is said of it: "added `x` to poll",
		// not "added logs to .gitignore"
		if k := strings.Index(b, w); k > named && named >= 0 && len(strings.Fields(b[k+len(w):])) >= 2 {
			return true
		}
	}
	return false
}

// reportsSwitch reports a sentence saying the assistant put one thing in
// place of another, however pleased it sounds: "I've successfully replaced
// Memcached with Valkey". What the project uses from now on is a
// decision; "successfully" only says the step worked.
func reportsSwitch(lead string) bool {
	b := strings.TrimPrefix(withoutOwnOpener(lead), "successfully ")
	return startsWithPhrase(b, []string{"replaced", "switched", "migrated"}) &&
		containsPhrase(b, []string{"with", "to", "from"})
}

// switchMade words an assistant's report of a switch as the decision it
// records: "I've successfully replaced Memcached with Valkey, making
// …" is "Replaced Memcached with Valkey". Any other body is returned
// as it is.
func switchMade(body string) string {
	low := lowerASCII(body)
	if !reportsSwitch(low) || straightQuotes(low) != low {
		return body
	}
	rest := withoutOwnOpener(low)
	rest = strings.TrimPrefix(rest, "successfully ")
	t := body[len(body)-len(rest):]
	if k := strings.Index(t, ", "); k > 0 && containsPhrase(lowerASCII(t[:k]), []string{"with", "to", "from"}) {
		t = t[:k] // ", making your platform …": what it brings, not what was chosen
	}
	return capitalize(t)
}

// withoutOwnOpener is lead without the assistant's "I've" or "we've" in
// front.
func withoutOwnOpener(lead string) string {
	for _, o := range []string{"i've ", "i have ", "we've ", "we have "} {
		if t, ok := strings.CutPrefix(straightQuotes(lead), o); ok {
			return t
		}
	}
	return lead
}

// changeVerbs report a setting changed to a new value, which stays true
// after the session; fixOpeners report how a failure was fixed.
var (
	changeVerbs = []string{"replaced", "switched", "migrated", "changed", "moved", "pinned", "upgraded",
		"downgraded", "bumped", "renamed"}
	fixOpeners = []string{"fixed by", "fixed it by", "fixed this by", "resolved by", "solved by", "worked around"}
)

// rules mark a sentence that states a rule, which even an assistant's
// instruction-shaped sentence may carry: "Keep in mind that X must stay Y".
var rules = []phrase{{s: "must"}, {s: "never"}, {s: "always"}, {s: "keep in mind"}, {s: "remember"},
	{s: "don't"}, {s: "do not"}, {s: "avoid"}, {s: "out of"}, {s: "only"}, {s: "절대"}, {s: "반드시"}, {s: "항상"}}

// selfTalk, after an acknowledgement, is the assistant talking about its own
// conduct: "Got it, I will follow that from now on", "You're right, sorry".
var selfTalk = []string{"i will", "i'll", "i should", "i shouldn't", "sorry", "apologies", "from now on",
	"going forward", "my mistake", "i was wrong", "하겠습니다", "앞으로", "죄송"}

// onlyAck reports a user sentence that is an acknowledgement and nothing
// more: "ok", "thanks!", but not "좋아요, 그걸로 통일합시다".
func onlyAck(lead string) bool {
	for _, a := range acks {
		if strings.HasPrefix(lead, a) {
			rest := strings.Trim(lead[len(a):], " ,.!~")
			return len(strings.Fields(rest)) < 2
		}
	}
	return false
}

// planOpeners open an assistant sentence about its next move.
var planOpeners = []string{"let's", "let me", "now let's", "now we need", "we need to", "now i need", "next,", "next we",
	"first,", "then,", "then we", "to get", "to fix", "to do this", "we should", "we can", "you can", "you could",
	"you'll need", "you will need", "you need", "make sure", "ensure", "navigate", "open", "run", "click"}

// isPlanStep reports an assistant sentence that starts with an imperative
// verb: a plan step or an instruction it gave, not something settled.
func isPlanStep(lead string) bool {
	w := firstWord(afterLabel(lead))
	return in(imperativeVerbs, w) || in(planVerbs, w)
}

var planVerbs = []string{"create", "replace", "implement", "install", "migrate", "switch", "review", "merge",
	"configure", "enable", "disable", "build", "consider", "try", "verify", "check", "ensure", "document",
	"extract", "introduce", "convert", "integrate", "leverage", "setup", "start", "stop", "restart", "initialize",
	"initialise", "init", "generate", "prepare", "add", "upgrade", "bump", "develop", "design"}

// hasValue reports a sentence holding something a fact can keep: a number,
// a path, a code span, a URL, an environment variable or a known tool.
func hasValue(s *sent) bool {
	if strings.ContainsAny(s.norm, "`0123456789") || len(paths(s.norm)) > 0 || envVar(s.norm) != "" {
		return true
	}
	if r, _ := firstRef(s.norm); r != "" {
		return true
	}
	return len(s.topics()) > 0
}

// rejects open a user reply that turns down what was just proposed.
var rejects = []string{"no", "nope", "don't", "do not", "not that", "instead", "rather", "let's not", "i don't want",
	"i do not want", "that's wrong", "that is wrong", "wrong", "stop", "never mind", "nevermind",
	"아니", "아뇨", "아니요", "하지 마", "하지마", "말고", "그건 아니", "그거 말고", "안 돼", "안돼"}

// rejected reports whether text, a user message, turns down the assistant
// message before it.
func rejected(text string) bool {
	low := leadText(lowerASCII(strings.TrimSpace(text)))
	return startsWithPhrase(low, rejects)
}

// deferrals make a task of "we need to …": work put off past the session.
// Without one, a "need to" is a step of the work in hand.
var deferrals = []string{"todo", "to-do", "fixme", "later", "follow-up", "follow up", "followup", "next time",
	"eventually", "backlog", "action item", "before release", "before the release", "before launch",
	"next sprint", "next week", "tomorrow", "left to do", "not yet", "separate pr", "separate issue",
	"before the end", "by the end", "this quarter", "next quarter", "deadline", "next step is", "monday",
	"tuesday", "wednesday", "thursday", "friday", "나중에", "다음에", "남은 작업", "할 일", "다음 주", "내일", "추후",
	"i can't", "i cannot", "which i can't", "스프린트", "다음 단계", "아직 남아", "마감",
	"blocked on", "blocked by"} // blocked: put off until what blocks it moves

// keeps applies the rules a candidate must pass as a whole: a lesson names
// its fix, states its cause as found, explains a failure that later passes,
// or the user stated it; a proposal the user turned down in the
// next message is no decision.
func (x *extractor) keeps(c *cand) bool {
	if c.typ == Lesson && !c.user && (!c.fixed && !c.diagnosed && !c.resolved || c.fixOnly) {
		return false // a guess mid-debugging, or "I fixed the typos" with nothing learnt
	}
	body := c.body
	if body == "" && len(c.ev) > 0 {
		body = clean(c.ev[0].quote)
	}
	if !standsAlone(c.typ, body) || namesNothing(c.typ, body) {
		return false
	}
	if c.edit {
		return true // the edit vouches for it, however the sentence reports it
	}
	if x.reported(c) && !identifier(body) {
		return false // a sub-agent's report is kept for what it names of the code
	}
	if c.user && len(c.ev) > 0 && c.from >= 0 && c.from < len(x.msgs) && pastedCommand(x.msgs[c.from].Text, c.ev[0].quote) {
		return false
	}
	if !c.user && (c.typ == Preference || c.typ != Lesson && (onlyIfNeeded(body) || nextStep(body))) {
		return false // a preference is someone's: the user's, or a proposal they accepted (c.user)
	}
	if !c.user && c.typ != Lesson && guessedCause(body) {
		return false // the user's "must" is a rule they set, not a guess
	}
	if !c.user && len(c.ev) > 0 && pointsAhead(c.ev[len(c.ev)-1].quote) {
		return false // "replace all of page.tsx with this:": what is chosen is the code after it
	}
	if !c.user && c.typ == Lesson && datedToday(body) {
		return false // "the project was just modified today": dated by the turn, not a cause
	}
	if !c.user && c.typ == Lesson && len(c.ev) == 1 && prospective(c.ev[0].quote) {
		return false // "Let me check the logs", alone: no failure, no finding, only the next look
	}
	if c.user {
		if c.typ == Lesson {
			return !c.fixOnly // "Fix: hm looks fixed now" learns nothing
		}
		if c.report && (c.typ == Decision || c.typ == Constraint || c.typ == Preference) {
			return false // "the weekly import died on the build box:" and its log: a report, not a choice
		}
		return c.typ == Task || !reportsTrouble(body) && !forTheMoment(body) && !ofTheMoment(body, true) && !markedText(body)
	}
	if c.typ != Lesson && (selfNarration(body) || advice(body) || madeChange(body) || absent(body) || ofTheMoment(body, false) || stateOfTheMoment(body) || markedText(body) || actionOfTheMoment(body)) ||
		c.typ == Fact && (momentFact(body) || kindLabel(body) || glossRepeatsName(body) || bareInstall(body)) || planPart(body) {
		return false
	}
	switch c.typ {
	case Decision, Constraint, Preference, Task:
		return !x.rejectedNext(c.from)
	}
	// An answer the user calls wrong is not what the project does, however
	// plainly it was stated.
	return !c.answer || !x.rejectedNext(c.from)
}

// rejectedNext reports whether the user's next message after message i
// turns it down. A notice the client typed in between is not the user
// speaking.
func (x *extractor) rejectedNext(i int) bool {
	for j := i + 1; j < len(x.msgs); j++ {
		switch strings.ToLower(x.msgs[j].Role) {
		case "user", "human":
			if clientNotice(x.msgs[j].Text) {
				continue
			}
			return rejected(x.msgs[j].Text)
		}
	}
	return false
}

// actionOfTheMoment reports a body whose command records or shows one
// change rather than how the project is built or run: "Commit: git add
// src/app/page.tsx && git commit -m …", "echo … | uv run …".
func actionOfTheMoment(body string) bool {
	_, value := splitLabel(body)
	if value == "" {
		value = body
	}
	v := strings.Trim(lowerASCII(value), "`* ")
	return startsWithPhrase(v, []string{"git add", "git commit", "git push", "git checkout", "git stash", "git reset", "echo"}) ||
		strings.Contains(lowerASCII(body), "git commit -m") || commitLine(body)
}

// commitLine reports a body that quotes a commit by its short hash and
// message ("Summary: 3f9c2d1 refactor: move the worker"): the log records
// it; what it changed is in the code. The hash leads the value, as git log
// prints it; one named inside a sentence ("pin the parser to commit
// 4f2a9c1e until …") is part of a decision.
func commitLine(body string) bool {
	_, value := splitLabel(body)
	if value == "" {
		value = body
	}
	var buf [2]string
	f := headFields(buf[:0], strings.Trim(value, "`*- "))
	return len(f) >= 2 && len(f[0]) >= 7 && len(f[0]) <= 12 && hexWord(strings.Trim(f[0], "`*:"))
}

// hexWord reports a lower-case hex word with a digit and a letter, as git
// prints a short hash.
func hexWord(w string) bool {
	digit, letter := false, false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
			letter = true
		default:
			return false
		}
	}
	return digit && letter
}

// bareInstall reports a fact whose command only installs the dependencies
// the manifest lists ("Install deps: npm install"): every project of that
// kind has it, so it says nothing of this one.
func bareInstall(body string) bool {
	_, value := splitLabel(body)
	if value == "" {
		value = body
	}
	var buf [3]string
	f := headFields(buf[:0], strings.Trim(lowerASCII(value), "`* "))
	if len(f) < 2 || !in([]string{"npm", "pnpm", "yarn", "bun"}, f[0]) || f[1] != "install" && f[1] != "i" {
		return false
	}
	if len(f) == 2 {
		return true
	}
	// What follows ends the command ("— then run", "&& npm run dev", "#
	// comment"); a flag ("-D vitest", "-g pnpm") installs something named.
	return f[2] == "-" || f[2] == "—" || f[2] == "&&" || strings.ContainsAny(f[2][:1], "(#|;")
}

// kindLabel reports a "Label: value" body whose label only names the kind
// of its value (valueKinds).
func kindLabel(body string) bool {
	label, value := splitLabel(body)
	return value != "" && in(valueKinds, strings.Trim(lowerASCII(label), "*_` "))
}

// genericWords are in nearly every failure line and explain none.
var genericWords = lazywords.Of("error", "errors", "failed", "failure", "could", "compile", "previous", "warning",
	"warnings", "emitted", "test", "tests", "with", "from", "that", "this", "because", "issue", "problem", "when",
	"expected", "received", "actual", "value", "undefined", "null", "true", "false", "object", "string", "number",
	"function", "response", "result", "structure", "should", "must", "cannot", "unable", "found")

// sharesWord reports whether a failure line and a lesson share a content
// word of four or more letters or a three-digit number: "upload-artifact"
// or "401" in both.
func sharesWord(line, about string) bool {
	ws := map[string]bool{}
	for _, w := range strings.FieldsFunc(about, notWordRune) {
		if (len(w) >= 4 || len(w) == 3 && w[0] >= '0' && w[0] <= '9') && !genericWords()[w] && !isStopword(w) {
			ws[w] = true
		}
	}
	for _, w := range strings.FieldsFunc(line, notWordRune) {
		if ws[w] {
			return true
		}
	}
	return false
}

func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
}

// diagnosis reports a cause stated as found ("the cause was", "failed
// because", "원인은") rather than guessed mid-debugging ("the issue is that").
func diagnosis(s *sent, h hit) bool {
	if h.k != cause || h.end <= h.at {
		return false
	}
	p := s.low[h.at:h.end]
	if p[0] >= utf8.RuneSelf {
		return true // the Korean cause phrases all report a finding
	}
	return in(findings, p)
}

// findings state a cause as established, in the past tense.
var findings = []string{"root cause", "the cause was", "the problem was", "the issue was", "the bug was", "the culprit",
	"turned out", "turns out", "failed because", "broke because", "crashed because", "the reason was", "was silently",
	"were silently", "silently dropped", "silently ignored", "caused by"}

// howTo reports an instruction that names a command in a code span:
// "Run `make migrate-up` to apply them locally" says how the project works.
func howTo(s *sent) bool {
	return strings.Count(s.norm, "`") >= 2 && containsPhrase(s.low, commandPurposes)
}

// firstPersonChange reports "I rewrote it as a range predicate", "I've added
// a permission request": after a cause, the change that fixed it.
func firstPersonChange(s *sent) bool {
	b := leadText(s.low)
	for _, p := range []string{"i've ", "i have ", "we've ", "i ", "we ", "so i ", "so we "} {
		if strings.HasPrefix(b, p) {
			b = b[len(p):]
			w := firstWord(b)
			return in(narrationVerbs, w) || in(changeVerbs, w) || in([]string{"rewrote", "reordered", "wrapped", "made", "set", "moved"}, w)
		}
	}
	return false
}

// planRequests in a user message ask for a plan, whose items are then what
// the user is planning.
var planRequests = []string{"plan", "planning", "roadmap", "migration plan", "propose", "proposal", "계획", "로드맵"}

// planItem reports a bullet of a plan the user asked for that changes what
// the project uses: "Replace Firebase Auth with Lucia Auth or Clerk".
func planItem(s *sent, lead string) bool {
	return s.planned && s.shape&shapeBullet != 0 && startsWithPhrase(afterLabel(lead), []string{"replace", "switch", "migrate", "move"}) &&
		len(s.topics()) > 0
}

// checked reports a checklist line: "`EXPORT_DIR` is configured",
// "the token is set" state what was checked, not how the project works.
func checked(lead string) bool {
	t := strings.TrimRight(lead, " .!*_`")
	for _, e := range []string{" is set", " are set", " is configured", " are configured", " is installed", " are installed", " is enabled", " is running"} {
		if strings.HasSuffix(t, e) {
			return true
		}
	}
	return false
}

// onlyIfNeeded reports a step or a part the assistant offers on a
// condition of the moment ("Stop the process on :3000 if it's not needed",
// "roster/ (optional) - sub-components"): whether it happened is for that
// turn to say.
func onlyIfNeeded(body string) bool {
	low := lowerASCII(straightQuotes(body))
	return containsPhrase(low, ifNeeded) || whenNeeded(low)
}

var ifNeeded = []string{"if needed", "if necessary", "if not needed", "if it's not needed", "if it is not needed",
	"if not done", "if not already", "(optional)", "(if not)", "if you want", "if you'd like", "if you prefer",
	"when ready", "once ready"}

// whenNeeded reports "when needed" closing a step offered ("Restart the
// worker when needed", "the cache can be cleared when needed"); closing a
// statement ("`cron/vacuum.sh` vacuums the table when needed") it says how
// the thing behaves.
func whenNeeded(low string) bool {
	for from := 0; ; {
		k := strings.Index(low[from:], "when needed")
		if k < 0 {
			return false
		}
		k += from
		from = k + 1
		end := strings.TrimLeft(low[k+len("when needed"):], " )")
		if !bounded(low, k, k+len("when needed"), "when needed") || end != "" && strings.IndexByte(".,;:!", end[0]) < 0 {
			continue
		}
		clause := low[:k]
		for _, sep := range []string{". ", "; ", ": ", ", "} {
			if j := strings.LastIndex(clause, sep); j >= 0 {
				clause = clause[j+len(sep):]
			}
		}
		if lead := leadText(clause); isPlanStep(lead) || startsWithPhrase(afterLabel(lead), planOpeners) || strings.Contains(clause, " can be ") {
			return true
		}
	}
}

// nextStep reports an assistant's instruction placed in the turn's order
// of steps: "Then test: …", "Now restart the worker on 7040: …", or
// after a short clause pointing at the step in hand ("After the change,
// run: …", "Once done, we'll check the page", "after a rebuild—then stage
// 2", or any clause followed by "then"). A clause that states a condition
// ("After editing any .proto file, run …", "Once a migration is merged,
// run …"), or a main clause that says "always" or "every time", makes a
// standing rule, which is kept.
func nextStep(body string) bool {
	lead := leadText(lowerASCII(straightQuotes(body)))
	for _, p := range []string{"then ", "now "} {
		if strings.HasPrefix(lead, p) {
			w := firstWord(strings.TrimLeft(lead[len(p):], " ,"))
			return in(imperativeVerbs, w) || in(planVerbs, w)
		}
	}
	var clause string
	for _, p := range []string{"once ", "after "} {
		if strings.HasPrefix(lead, p) {
			clause = lead[len(p):]
		}
	}
	if clause == "" {
		return false
	}
	k := strings.IndexAny(clause, ",—") // the clause ends at the first of either
	if k < 0 || k > 40 {
		return false
	}
	_, sepLen := utf8.DecodeRuneInString(clause[k:])
	rest := strings.TrimLeft(clause[k+sepLen:], " ")
	if containsPhrase(clause[:k], []string{"any", "every", "each"}) || containsPhrase(rest, []string{"always", "every time"}) {
		return false
	}
	if strings.HasPrefix(rest, "then ") {
		return true // "after the import—then stage 2": a sequence of the plan
	}
	if !turnStep(clause[:k]) {
		return false
	}
	w := firstWord(rest)
	return in(imperativeVerbs, w) || in(planVerbs, w) || in([]string{"we'll", "i'll", "you'll"}, w)
}

// turnStep reports the clause of "after …," or "once …," that points at
// the step in hand: "that", "this is merged", "done", "the fix", "a
// rebuild", "changes".
func turnStep(clause string) bool {
	f := strings.Fields(clause)
	if len(f) == 0 {
		return false
	}
	if in([]string{"that", "this", "these", "those", "it", "it's", "that's", "done", "finished", "complete", "completed"}, f[0]) {
		return true
	}
	if len(f) > 1 && in([]string{"the", "a"}, f[0]) {
		f = f[1:]
	}
	return in([]string{"change", "changes", "fix", "rebuild", "restart"}, f[0])
}

// guessedCause reports "the issue must be in the proxy", "the problem
// must lie in the workflow": a "must" that infers where a trouble lies, not
// a rule. What the session found, if anything, is said later. The trouble
// noun is the subject right before "must", and a verb of being or place
// follows: "error responses must use RFC 7807" is a rule.
func guessedCause(body string) bool {
	low := lowerASCII(straightQuotes(body))
	k := strings.Index(low, " must ")
	if k < 0 {
		return false
	}
	before := strings.FieldsFunc(low[:k], notWordRune)
	if len(before) == 0 || !in([]string{"issue", "problem", "bug", "error", "culprit", "cause", "fault"}, before[len(before)-1]) {
		return false
	}
	return in([]string{"be", "lie", "come", "have", "stem"}, firstWord(low[k+len(" must "):]))
}

// namesNothing reports a choice of "this one" or "that one" that names no
// value: what was chosen was shown in the turn, not in the words.
func namesNothing(typ Type, body string) bool {
	if typ != Decision && typ != Preference && typ != Constraint {
		return false
	}
	low := lowerASCII(straightQuotes(body))
	return containsPhrase(low, []string{"this one", "that one", "these ones", "those ones", "the other one"}) &&
		!hasValue(newSent(0, 0, body, false))
}

// bareValue reports text that is only a value: "10.0.0.7:4418",
// pasted on its own, does not say what it is the value of.
func bareValue(body string) bool {
	words := 0
	for w := range strings.FieldsSeq(body) {
		if w = valueWordTrim.trimRight(w); w == "" || strings.ContainsAny(w, "0123456789:/.@`") {
			continue
		}
		words++
	}
	return words == 0 && strings.ContainsAny(body, "0123456789")
}

// glossRepeatsName reports a catalogue line "invoices - invoice records",
// "GET /api/invoices - List invoices with paging" whose name is a plain
// lower-case identifier or a route and whose short gloss only says the name
// again: the code says as much.
func glossRepeatsName(body string) bool {
	label, value := splitLabel(body)
	if value == "" || strings.ContainsAny(value, "0123456789`/") || envVar(value) != "" {
		return false
	}
	if !route(label) || len(strings.Fields(value)) > 8 {
		// a route's gloss says what its handler does, which the handler says too
		if len(strings.Fields(value)) > 5 {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
				return false // a file, an environment variable or a type says more than a table name
			}
		}
	}
	stems := map[string]bool{}
	for _, w := range strings.FieldsFunc(lowerASCII(label), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 4 {
			stems[w[:4]] = true
		}
	}
	for _, w := range strings.FieldsFunc(lowerASCII(value), notWordRune) {
		if len(w) >= 4 && stems[w[:4]] {
			return true
		}
	}
	return false
}

// pastedCommand reports a quote from a slash-command definition pasted
// into a prompt (Claude Code's command files take their arguments as
// $ARGUMENTS): its steps are the command's, not what the user chose. The
// user's own words are on the first line, before it.
func pastedCommand(text, quote string) bool {
	k := strings.Index(text, quote)
	nl := strings.IndexByte(text, '\n')
	return k >= 0 && nl >= 0 && k > nl && strings.Contains(text, "$ARGUMENTS")
}

// planPart reports a body labelled as a numbered part of a plan ("Phase 4:
// responsive layout", "Step 2 - wire the form") or as the pros or cons of
// an option: the plan of that session, done or dropped by its end.
func planPart(body string) bool {
	label, value := splitLabel(body)
	if value != "" && in([]string{"pros", "cons", "pro", "con", "upside", "downside", "trade-off", "tradeoff"}, strings.Trim(lowerASCII(label), "*_#+-✅❌ ")) {
		return true // one side of options weighed, before any was chosen
	}
	var buf [3]string
	f := headFields(buf[:0], lowerASCII(strings.Trim(label, "*_# ")))
	if value == "" || len(f) != 2 || !in([]string{"phase", "step", "stage", "part", "milestone"}, f[0]) {
		return false
	}
	return strings.Trim(f[1], "0123456789.") == ""
}

// pointsAhead reports a quote ending in a colon whose last words point at
// what follows it ("replace the page with this (responsive, English):"):
// the thing is in the lines after, which the quote leaves out.
func pointsAhead(quote string) bool {
	t := strings.TrimRight(strings.TrimSpace(quote), "*_ ")
	if !strings.HasSuffix(t, ":") {
		return false
	}
	f := strings.Fields(lowerASCII(straightQuotes(t)))
	for _, w := range f[max(0, len(f)-10):] {
		if in([]string{"this", "it", "below"}, strings.Trim(w, ",.;:()*_")) {
			return true
		}
	}
	return false
}

// datedToday reports a statement dated by the day it was said in ("was
// just modified today"), unless it says it holds on ("from today").
func datedToday(body string) bool {
	low := lowerASCII(straightQuotes(body))
	if containsPhrase(low, standing) {
		return false
	}
	return containsPhrase(low, []string{"today", "yesterday", "tonight"})
}

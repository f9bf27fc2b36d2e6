package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A memory is read weeks later, alone, by someone who does not have the
// session in front of them. These checks look at the finished entry, not at
// the trigger that found it: whether its text names what it is about,
// whether it is a statement rather than a question, a pasted log line or
// the tail of a hard-wrapped line, and whether what the user said is a
// choice rather than a report of trouble.

// standsAlone reports whether body, an entry's text, can be read on its own.
func standsAlone(typ Type, body string) bool {
	raw := strings.TrimSpace(body)
	t := strings.TrimSpace(stripMarkers(raw, true))
	if t == "" {
		return false
	}
	switch {
	case strings.HasSuffix(raw, ":") && (typ != Lesson && len(strings.Fields(t)) < 12 || endsOnFunctionWord(t) || announces(t)):
		return false // "Here's what you should do:": what it says is in the lines after it
	case typ != Lesson && bareValue(raw):
		return false // "10.0.0.7:4418": of what?
	case typ != Lesson && danglingOpener(t):
		return false // "It's in the parser.": what "it" is was said before (a lesson's failure names it)
	case fragmentOpener(raw):
		return false // "and GET /x failed": the second half of a wrapped line
	case logLine(raw):
		return false // `"start_time": "…",`, "2025-01-02 10:00:01 [debug] …": output, pasted
	case wh(t):
		return false // "How do I rename the service", asked without its question mark
	}
	return true
}

// pronouns never name what they stand for; "this" and "that" do only when
// a noun follows ("this repo uses pnpm"), so they count when a verb does.
var pronouns = []string{"it", "it's", "its", "they", "they're", "he", "she", "them"}

var copulas = []string{"is", "was", "are", "were", "'s", "will", "would", "should", "must", "can", "could",
	"has", "had", "does", "did", "doesn't", "isn't", "wasn't", "means", "needs", "requires", "makes", "works",
	"seems", "looks", "happens", "explains"}

func danglingOpener(t string) bool {
	// Five words tell "With these TODO." from a longer sentence; lowering
	// and straightening them is lowering and straightening t (neither
	// touches a space).
	var buf [5]string
	f := headFields(buf[:0], t)
	if len(f) == 0 {
		return false
	}
	for i, w := range f[:min(len(f), 2)] {
		f[i] = lowerASCII(straightQuotes(w))
	}
	w := strings.TrimRight(f[0], ",.;:")
	if in(pronouns, w) {
		return true
	}
	if len(f) <= 4 && len(f) > 1 && in([]string{"with", "for", "in", "on", "from", "to", "by", "about", "like"}, w) &&
		in([]string{"this", "that", "these", "those", "it", "them"}, strings.TrimRight(f[1], ",.;:")) {
		return true // "With these TODO.": these what?
	}
	if w == "this" || w == "that" || w == "these" || w == "those" || w == "this's" || w == "that's" {
		return w == "that's" || len(f) > 1 && in(copulas, strings.TrimRight(f[1], ",.;:"))
	}
	return false
}

// announces reports a sentence that says a list or a plan follows.
func announces(t string) bool {
	return containsPhrase(lowerASCII(straightQuotes(t)), []string{"here's", "here is", "here are", "as follows", "the following"})
}

// endsOnFunctionWord reports "… is caused by:": the clause the colon
// leaves open. A lesson's "Cause: downloads take minutes:" is whole.
func endsOnFunctionWord(t string) bool {
	f := strings.Fields(lowerASCII(straightQuotes(strings.TrimSuffix(t, ":"))))
	return len(f) < 3 || in([]string{"by", "is", "are", "was", "were", "to", "of", "with", "the", "a", "following", "this", "these",
		"do", "here", "as", "in", "from", "for", "and", "because", "it", "that", "below", "steps"}, f[len(f)-1]) ||
		in([]string{"here", "here's", "there", "there's"}, f[0]) // "There are two problems with the config:"
}

// advice reports an assistant's sentence that offers, conditions or gives
// an alternative rather than states: "You can also turn the overlay off in
// …", "If the build fails, run …", "Or, to skip it, set …". What was
// decided is said elsewhere, or nowhere.
func advice(t string) bool {
	low := lowerASCII(straightQuotes(leadText(lowerASCII(t))))
	if startsWithPhrase(low, []string{"you can now"}) {
		return false // what the work made possible: "You can now run it with …"
	}
	return startsWithPhrase(low, []string{"if", "or", "you can", "you could", "you may", "you might", "optionally", "alternatively", "alternative"})
}

// madeChange reports an assistant's report of a change it made that names
// no value ("Replaced the placeholder with the real list"): what the code
// now does is in the code. "Pinned the linter to v1.59.1" names one.
func madeChange(t string) bool {
	lead := leadText(lowerASCII(t))
	if !startsWithPhrase(lead, narrationVerbs) || describesAddition(lead) || strings.ContainsAny(t, "`0123456789") {
		return false // "Created billing.rs with the invoicing logic" says where the code is
	}
	return !namesValue(t)
}

// namesValue reports text naming a file, a module, a route or a type by
// name: a word with a dot, underscore or slash inside, or in CamelCase.
func namesValue(t string) bool {
	for _, w := range strings.Fields(t) {
		w = strings.Trim(w, ".,;:()\"'")
		if strings.ContainsAny(w, "._/") || codeName(w) {
			return true
		}
	}
	return false
}

// selfNarration reports an assistant's sentence about what it is doing or
// is about to do, a step done or dropped by the session's end ("I need to …", "I'll …", "Let me …", "Now I …").
func selfNarration(t string) bool {
	low := lowerASCII(straightQuotes(leadText(lowerASCII(t))))
	return prospective(t) || startsWithPhrase(low, []string{"i've", "i have", "i'm", "i am"})
}

// prospective reports an assistant's sentence about its next move ("Let me
// check …", "I'll look at …", "Now I …"): whatever type its words suggest,
// it is a step of the turn, and what the step found is said later.
func prospective(t string) bool {
	low := lowerASCII(straightQuotes(leadText(lowerASCII(t))))
	if startsWithPhrase(low, []string{"we'll", "we will"}) && containsPhrase(low, []string{"now", "right away", "next"}) {
		return true // "We'll patch it now by …"; "we'll use Postgres" may be the proposal itself
	}
	return startsWithPhrase(low, []string{"i need", "i'll", "i will", "i'm going", "i am going", "let me", "now i", "next, i", "first, i", "first i"})
}

// fragmentOpener reports text opening with a conjunction or a relative
// word, in lower case: the rest of a sentence that began on another line.
func fragmentOpener(t string) bool {
	w := firstWord(t)
	return w != "" && t[0] >= 'a' && t[0] <= 'z' && in([]string{"and", "or", "but", "which", "whose", "whereas", "so", "then", "because", "cause", "where", "is", "are", "was", "were"}, w)
}

// logLine reports a line of program output: a JSON member or a line
// stamped with a date and a time.
func logLine(t string) bool {
	t = strings.TrimLeft(t, "{[ ")
	if strings.HasPrefix(t, `"`) {
		if k := strings.Index(t[1:], `":`); k > 0 && !strings.ContainsAny(t[1:1+k], " ") {
			return true
		}
	}
	// 2025-01-02 10:00 or 2025-01-02T10:00
	if len(t) >= 16 && isDigit(t[0]) && isDigit(t[3]) && t[4] == '-' && t[7] == '-' && (t[10] == ' ' || t[10] == 'T') && isDigit(t[11]) && t[13] == ':' {
		return true
	}
	// 17:03:51 or 7:03:51.011: a clock time in front is a log's timestamp
	if i := strings.IndexByte(t, ':'); i == 1 || i == 2 {
		if len(t) >= i+6 && isDigit(t[0]) && isDigit(t[i-1]) && isDigit(t[i+1]) && isDigit(t[i+2]) && t[i+3] == ':' && isDigit(t[i+4]) {
			return true
		}
	}
	// a call with a JSON object for its arguments, the object most of the
	// line: `TaskCreate {"subject": "…"}`
	if k := strings.Index(t, `{"`); k >= 0 && strings.HasSuffix(strings.TrimRight(t, " "), "}") && len(t)-k > len(t)/2 {
		if j := strings.Index(t[k+2:], `":`); j > 0 && !strings.ContainsAny(t[k+2:k+2+j], " ") {
			return true
		}
	}
	// a line of code: "@@index([a, b])", "const x = 1;", "server {"
	return strings.HasPrefix(t, "@@") || strings.HasSuffix(t, ";") || strings.HasSuffix(t, "{")
}

// wh reports a sentence opening with a question word followed by a verb
// or a pronoun: a question, with or without its mark.
func wh(t string) bool {
	var buf [2]string
	f := headFields(buf[:0], t) // as in danglingOpener
	if len(f) < 2 {
		return false
	}
	if w := lowerASCII(straightQuotes(f[0])); !in([]string{"what", "what's", "how", "why", "where", "which", "who"}, w) {
		return false
	}
	w := lowerASCII(straightQuotes(f[1]))
	return in(copulas, w) || in([]string{"do", "i", "we", "you", "to", "can", "it", "the", "should", "about", "if"}, w)
}

// straightQuotes turns curly apostrophes straight, so that "it\u2019s"
// compares as "it's".
func straightQuotes(s string) string {
	if !hasCurlyQuote(s) || !strings.ContainsAny(s, "\u2018\u2019") {
		return s
	}
	return apostrophes.Replace(s)
}

var apostrophes = strings.NewReplacer("\u2018", "'", "\u2019", "'")

// hasCurlyQuote reports whether s may hold a curly quote (U+2018 to U+201D):
// their UTF-8 all start with E2 80, which strings.Contains finds in one
// vectorised scan. ContainsAny with runes outside ASCII decodes s rune by
// rune, and asking it of every sentence was 8 % of extracting a session;
// it now runs only on text with such a prefix (a dash, an ellipsis, a quote).
func hasCurlyQuote(s string) bool { return strings.Contains(s, "\xe2\x80") }

// reportsTrouble reports what a user said about something going wrong: an
// error message pasted ("Foo.tsx:14 Uncaught TypeError: …"), or a thing that
// does not work ("it still shows a blank page"). It is the start of the
// work that follows, not a decision, preference or constraint of theirs. A
// sentence that also directs ("errors must go to Sentry", "so it has to
// move") chooses something and is kept.
func reportsTrouble(body string) bool {
	low := lowerASCII(straightQuotes(body))
	if directs(low) {
		return false
	}
	return pastedError(body) || negatedWorking(low) || failing(low)
}

// directs reports a lowered text that chooses or sets a rule, whatever else
// it says: "failures must be paged", "never push to mainline".
func directs(low string) bool {
	return containsPhrase(low, directives) || startsWithPhrase(leadText(low), []string{"don't", "do not", "never", "always"})
}

// commands reports a lowered text that opens with a verb of change in the
// imperative (proposalVerbs), its first clause reporting no failure. A
// verb followed by a gerund goes on with what happens ("keep getting a
// timeout"), and one followed by a failing verb is a tool's name ("make
// fails with:"): neither is a command. Only introducesFailure asks it: a
// line over a failed paste that commands a change ("switch the queue to
// Redis, the in-memory one loses work:") chooses something. Elsewhere
// (reportsTrouble) such a line is as often a program's advice over its
// error, or the user's errand of the moment, and is not kept.
func commands(lead string) bool {
	w := firstWord(lead)
	if w == "" || !in(proposalVerbs, w) {
		return false
	}
	clause := lead[len(w):]
	if k := strings.IndexAny(clause, ",;:.!?"); k >= 0 {
		clause = clause[:k]
	}
	return !strings.HasSuffix(firstWord(clause), "ing") && !failing(clause) && !negatedWorking(clause)
}

// ofTheMoment reports a statement dated by the moment it was said in:
// "already merged to main", "was just modified today", "do not set up
// policies yet", "let's analyze first". What a project is stays true
// without them; a rule that says it holds on ("always", "from now on")
// is not of the moment whatever else it says. From a user "already" often
// states how things are ("we already use pnpm"), so only the assistant's
// counts; "first" orders a user's steps for the turn.
func ofTheMoment(body string, user bool) bool {
	low := lowerASCII(straightQuotes(body))
	if containsPhrase(low, standing) {
		return false
	}
	for w := range strings.FieldsFuncSeq(low, func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch w {
		case "today", "yesterday", "tonight", "yet":
			return true
		case "first": // "analyze first": the order of the turn's steps ("the first row" is the assistant's)
			return user
		case "already":
			return !user
		}
	}
	return false
}

// standing say that a rule holds beyond the turn it was said in.
// A change dated "from today" holds from then on.
var standing = []string{"always", "never", "every time", "whenever", "from now on", "going forward", "in general",
	"by default", "from today", "as of today", "starting today", "as of now"}

// absent reports a statement that something is not there yet ("the
// TOKEN variable is not set", "pre_tool_use.py is missing", "the .github
// directory doesn't exist"): the state the work in hand starts from, which
// the next step changes. A lesson may say it; a fact or decision does not.
func absent(body string) bool {
	low := lowerASCII(straightQuotes(body))
	if strings.HasPrefix(leadText(low), "missing ") {
		return true // "Missing hook files - …"
	}
	for _, p := range absences {
		if strings.Contains(low, p) {
			return true
		}
	}
	return false
}

var absences = []string{"is missing", "are missing", "doesn't exist", "don't exist", "does not exist",
	"do not exist", "is not set", "isn't set", "not installed", "not found", "not configured", "not yet"}

// failing finds a verb of failing: "npm test fails now", "the deploy
// crashed". The nouns ("errors are reported to Sentry") may name a topic.
func failing(low string) bool {
	for w := range strings.FieldsFuncSeq(low, func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch w {
		case "fails", "failing", "failed", "crashes", "crashing", "crashed", "broke", "broken":
			return true
		}
	}
	return false
}

// pastedError finds the shape of an error message: a CamelCase error or
// exception name ("SyntaxError", "NullPointerException"), or a file and
// line ("index.css:74") with an error word.
func pastedError(t string) bool {
	fileLine := false
	for w := range strings.FieldsFuncSeq(t, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("()[]'\"`,", r) }) {
		w = errorWordTrim.trimRight(w)
		for _, suf := range []string{"Error", "Exception"} {
			if strings.HasSuffix(w, suf) && len(w) > len(suf) && unicode.IsUpper(rune(w[0])) {
				return true
			}
		}
		if k := strings.LastIndexByte(w, ':'); k > 0 && k+1 < len(w) && isDigit(w[k+1]) && strings.Contains(w[:k], ".") && !strings.Contains(w, "//") {
			fileLine = true
		}
	}
	return fileLine && strings.Contains(lowerASCII(t), "error")
}

// negatedWorking finds "doesn't work", "cannot see anything", "is not
// showing": a negation and, within two words, a verb of working or showing.
func negatedWorking(low string) bool {
	f := strings.Fields(low)
	for i, w := range f {
		if !in([]string{"not", "doesn't", "don't", "isn't", "can't", "cannot", "won't", "didn't", "still"}, w) {
			continue
		}
		for _, v := range f[i+1 : min(len(f), i+3)] {
			v = strings.TrimRight(v, ",.;:!")
			for _, stem := range []string{"work", "show", "see", "load", "start", "run", "render", "display", "appear", "open"} {
				if strings.HasPrefix(v, stem) && utf8.RuneCountInString(v) <= len(stem)+3 {
					return true
				}
			}
		}
	}
	return false
}

// directives make a sentence a choice or a rule, whatever it is about.
var directives = []string{"always", "never", "should", "must", "let's", "we use", "we'll use", "use ", "prefer", "make sure",
	"has to", "have to", "need to", "needs to", "goes to", "go to"}

// momentFact reports a "label: value" fact that records the moment rather
// than the project: a status with its check mark ("API: ✓ running"), a
// change made or planned ("App.tsx - Added the routes", "Layout.tsx - Add a
// link"), or a duration that estimates work rather than sets a timing
// ("integration phase: ~45 minutes").
func momentFact(body string) bool {
	label, value := splitLabel(body)
	if value == "" {
		return false
	}
	for _, m := range []string{"✅", "❌", "✓", "✗", "✔", "☑", "🔄", "⏳"} {
		if strings.Contains(value, m) {
			return true
		}
	}
	if checkLabel(label) {
		return true // "Test the fix: make sync-dry": a check of the turn's change, run once
	}
	lv := lowerASCII(strings.TrimLeft(value, " *_~"))
	if startsWithPhrase(lv, narrationVerbs) && !namesValue(value) {
		return true // "App.tsx - Added the routes"; "Reprocessing: Added /api/reprocess" names the route
	}
	if isPlanStep(lv) && !startsWithPhrase(lv, runners) && !route(label) {
		return true // "Layout.tsx - Add a link"; "GET /api/x - Start a scan" says what a route does
	}
	return setting(lv) && in(timeUnits, firstWord(strings.TrimLeft(strings.TrimLeft(lv, " ~<>=≤≥0123456789.,-"), " "))) &&
		!timing(label)
}

// checkLabel reports a label that tells the user how to check the change
// just made ("Test: …", "Verify it: …", "Visit the page: …"), an
// instruction for that turn rather than how the project is run. It is an
// imperative clause: a check verb alone or followed by its object's
// determiner or pronoun, an adverb or an address. The same verb opening a compound
// noun ("Refresh token TTL", "Test database") labels a lasting fact.
func checkLabel(label string) bool {
	f := strings.Fields(lowerASCII(strings.Trim(label, " *_#")))
	if len(f) == 0 || !in(checkVerbs, f[0]) {
		return false
	}
	// "Visit localhost:3000", "Check /health": the object is an address.
	return len(f) == 1 || in(checkObjects, f[1]) || len(addresses(f[1])) > 0 || strings.HasPrefix(f[1], "/")
}

var checkVerbs = []string{"test", "verify", "check", "try", "visit", "refresh", "confirm"}

// checkObjects may follow a check verb in an imperative label: "Test the
// fix", "Try it locally", "Check with curl".
var checkObjects = []string{"the", "a", "an", "it", "this", "that", "these", "them", "your", "everything",
	"with", "in", "locally", "again"}

// stateOfTheMoment reports a statement of how something stands at the
// moment it was said, "the branch is active", "the token is loading", "the
// name is confirmed": true then, and nothing a developer looks up weeks
// later. The state, or two joined by "and", ends its clause, or only
// "now", "again" or "fine" follow it: "is running as a systemd unit", "is running in Docker", "is
// up to 100 requests" say where or how a thing runs, and are kept. So is a
// state with an address ("the API is running on localhost:8000").
func stateOfTheMoment(body string) bool {
	if len(addresses(body)) > 0 || strings.Contains(body, "://") {
		return false
	}
	f := stateTokens(lowerASCII(straightQuotes(body)))
	for i, w := range f {
		if !in([]string{"is", "are", "was", "were"}, w) {
			continue
		}
		j := i + 1
		for j < len(f) && in([]string{"now", "still", "currently"}, f[j]) {
			j++
		}
		if j >= len(f) || !in(momentStates, f[j]) {
			continue
		}
		j++
		if j+1 < len(f) && f[j] == "and" && in(momentStates, f[j+1]) {
			j += 2 // "is correct and working"
		}
		if j == len(f) || f[j] == clauseEnd || in([]string{"now", "again", "fine"}, f[j]) {
			return true
		}
	}
	return false
}

// clauseEnd is the token stateTokens puts where a clause ends.
const clauseEnd = "|"

// stateTokens splits s into words, letters and digits with the hyphens,
// dots and slashes inside them ("down-scaled", "compose.yaml"), and a
// clauseEnd token for each stop, comma, colon, semicolon, bracket or dash
// between them.
func stateTokens(s string) []string {
	var out []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			out = append(out, w.String())
			w.Reset()
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		inner := i+1 < len(rs) && (unicode.IsLetter(rs[i+1]) || unicode.IsDigit(rs[i+1]))
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || w.Len() > 0 && inner && strings.ContainsRune("-_./", r):
			w.WriteRune(r)
		case strings.ContainsRune(".,;:!?()[]—–", r):
			flush()
			out = append(out, clauseEnd)
		default:
			flush()
		}
	}
	flush()
	return out
}

// momentStates are states a thing is in for a while: running, loading,
// up or down, confirmed.
var momentStates = []string{"running", "loading", "active", "up", "working", "started", "starting", "ready", "online",
	"down", "broken", "failing", "confirmed", "correct"}

// route reports a label naming an HTTP route: "GET /api/items", "/health".
func route(label string) bool {
	f := strings.Fields(label)
	return len(f) > 0 && (strings.HasPrefix(f[0], "/") || len(f) > 1 && strings.HasPrefix(f[1], "/") && strings.ToUpper(f[0]) == f[0])
}

// timing reports a label naming what a duration sets, or a limit on how
// long something takes ("Search: <3 seconds").
func timing(label string) bool {
	for _, w := range strings.Fields(lowerASCII(label)) {
		w = strings.Trim(w, ".,:;()")
		for _, t := range timings {
			if strings.HasPrefix(w, t) && len(w) <= len(t)+2 {
				return true
			}
		}
	}
	return false
}

// splitLabel cuts "label: value", "label - value" or "label — value".
func splitLabel(body string) (label, value string) {
	best := -1
	sep := ""
	for _, s := range []string{": ", " - ", " — ", " – "} {
		// Only a first separator in the first 60 bytes counts.
		if k := strings.Index(body[:min(len(body), 60+len(s))], s); k > 0 && (best < 0 || k < best) {
			best, sep = k, s
		}
	}
	if best < 0 || best > 60 {
		return body, ""
	}
	return strings.TrimSpace(body[:best]), strings.TrimSpace(body[best+len(sep):])
}

var timeUnits = []string{"ms", "s", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes", "h", "hour",
	"hours", "day", "days", "초", "분", "시간", "일"}

// timings are what a duration sets rather than estimates.
var timings = []string{"timeout", "ttl", "interval", "delay", "retention", "expiry", "expiration", "expires", "lifetime",
	"period", "window", "backoff", "cooldown", "frequency", "schedule", "cache", "session", "token", "limit", "max", "cron",
	"retry", "retries", "간격", "주기", "만료", "타임아웃", "지연", "보관", "제한"}

// forTheMoment reports a user's request about the work in hand rather than
// a lasting choice: an instruction to look, check, tell or review ("have a
// look at the modal", "check which port answers").
func forTheMoment(body string) bool {
	lead := leadText(lowerASCII(straightQuotes(stripMarkers(body, true))))
	for _, p := range []string{"ok", "okay", "so", "now", "please", "pls", "and", "then", "also"} {
		lead = strings.TrimLeft(strings.TrimPrefix(lead, p+" "), " ,")
		lead = strings.TrimLeft(strings.TrimPrefix(lead, p+","), " ")
	}
	if startsWithPhrase(lead, inspections) || startsWithPhrase(lead, stepsOn) {
		return true
	}
	// "don't change any files, only tell me the command": asked for an answer
	// now; "always tell me before you push" is a standing rule
	low := lowerASCII(straightQuotes(body))
	return containsPhrase(low, []string{"tell me", "show me", "let me know"}) && !containsPhrase(low, standing)
}

// stepsOn ask the assistant to carry the work in hand on, once.
var stepsOn = []string{"push", "go back", "continue", "proceed", "let's continue", "let's proceed", "carry on", "keep going"}

// inspections ask the assistant to look or report, never to choose.
var inspections = []string{"have a look", "take a look", "look at", "check", "tell me", "show me", "explain", "think about",
	"analyze", "analyse", "review", "investigate", "find out", "see if", "see why", "go ahead", "let me know", "can you", "could you"}

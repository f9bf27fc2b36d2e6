package extract

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The forms of the rules below before they read a text's words with
// headFields and strings.FieldsSeq rather than a slice of all of them, and
// before afterLabel and splitLabel looked for a label's separator only
// where a label can end, and stripMarkers before it read its text as
// lower-case without lowering it, kept to check that they answer the same
// (TestFieldsSame).

func danglingOpenerPlain(t string) bool {
	f := strings.Fields(lowerASCII(straightQuotes(t)))
	if len(f) == 0 {
		return false
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

func whPlain(t string) bool {
	f := strings.Fields(lowerASCII(straightQuotes(t)))
	if len(f) < 2 || !in([]string{"what", "what's", "how", "why", "where", "which", "who"}, f[0]) {
		return false
	}
	return in(copulas, f[1]) || in([]string{"do", "i", "we", "you", "to", "can", "it", "the", "should", "about", "if"}, f[1])
}

func pastedErrorPlain(t string) bool {
	fileLine := false
	for _, w := range strings.FieldsFunc(t, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("()[]'\"`,", r) }) {
		w = strings.TrimRight(w, ":.;")
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

func ofTheMomentPlain(body string, user bool) bool {
	low := lowerASCII(straightQuotes(body))
	if containsPhrase(low, standing) {
		return false
	}
	for _, w := range strings.FieldsFunc(low, func(r rune) bool { return !unicode.IsLetter(r) }) {
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

func failingPlain(low string) bool {
	for _, w := range strings.FieldsFunc(low, func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch w {
		case "fails", "failing", "failed", "crashes", "crashing", "crashed", "broke", "broken":
			return true
		}
	}
	return false
}

func prosePlain(t string) bool {
	t = strings.TrimSpace(stripMarkers(t, true))
	r, _ := utf8.DecodeRuneInString(t)
	if !unicode.IsLetter(r) {
		return false
	}
	f := strings.Fields(t)
	if strings.Contains(f[0], "=") {
		return false
	}
	words := 0
	for _, w := range f {
		w = strings.Trim(w, ".,;:!?()\"'`*")
		if utf8.RuneCountInString(w) >= 2 && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' }) < 0 {
			words++
		}
	}
	return words >= 3
}

func pathsPlain(s string) []string {
	var out []string
	for _, f := range strings.Fields(s) {
		tick := strings.HasPrefix(f, "`")
		if tick {
			// the code span's content: "`deploy/k8s/base`와" names deploy/k8s/base
			if e := strings.IndexByte(f[1:], '`'); e >= 0 {
				f = f[1 : 1+e]
			}
		}
		f = strings.Trim(f, "`'\"(),;:!?")
		f = strings.TrimRight(f, ".")
		if f == "" || strings.Contains(f, "://") {
			continue
		}
		if isPath(f, tick) {
			out = append(out, f)
		}
	}
	return out
}

func bareValuePlain(body string) bool {
	words := 0
	for _, w := range strings.Fields(body) {
		if w = strings.TrimRight(w, ":,;.!?"); w == "" || strings.ContainsAny(w, "0123456789:/.@`") {
			continue
		}
		words++
	}
	return words == 0 && strings.ContainsAny(body, "0123456789")
}

func commitLinePlain(body string) bool {
	_, value := splitLabel(body)
	if value == "" {
		value = body
	}
	f := strings.Fields(strings.Trim(value, "`*- "))
	return len(f) >= 2 && len(f[0]) >= 7 && len(f[0]) <= 12 && hexWord(strings.Trim(f[0], "`*:"))
}

func bareInstallPlain(body string) bool {
	_, value := splitLabel(body)
	if value == "" {
		value = body
	}
	f := strings.Fields(strings.Trim(lowerASCII(value), "`* "))
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

func planPartPlain(body string) bool {
	label, value := splitLabel(body)
	if value != "" && in([]string{"pros", "cons", "pro", "con", "upside", "downside", "trade-off", "tradeoff"}, strings.Trim(lowerASCII(label), "*_#+-✅❌ ")) {
		return true // one side of options weighed, before any was chosen
	}
	f := strings.Fields(lowerASCII(strings.Trim(label, "*_# ")))
	if value == "" || len(f) != 2 || !in([]string{"phase", "step", "stage", "part", "milestone"}, f[0]) {
		return false
	}
	return strings.Trim(f[1], "0123456789.") == ""
}

func addressesPlain(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, "()[]<>,;`'\"")
		w = strings.TrimRight(w, ".:!?") // the end of the sentence: "runs on localhost:8123."
		w = strings.TrimPrefix(strings.TrimPrefix(w, "http://"), "https://")
		if i := strings.IndexByte(w, '/'); i >= 0 {
			w = w[:i]
		}
		if hostPort(w) {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

func bareAcceptancePlain(text string) bool {
	t := strings.Trim(lowerASCII(strings.TrimSpace(text)), " .!~,")
	if len(strings.Fields(t)) > 4 {
		return false
	}
	for _, a := range acceptances {
		if t == a || strings.HasPrefix(t, a+",") || strings.HasPrefix(t, a+" ") && onlyAck(t) {
			return true
		}
	}
	return false
}

func valueLikePlain(v string) bool {
	if len(strings.Fields(v)) > 16 {
		return false
	}
	if strings.Contains(v, "`") || len(paths(v)) > 0 || envVar(v) != "" || portAt(lowerASCII(v)) >= 0 || hasVersion(v) {
		return true
	}
	if r, _ := firstRef(v); strings.HasPrefix(r, "http") {
		return true
	}
	for _, w := range strings.Fields(v) {
		if hexColour(strings.Trim(w, ".,;:()[]\"'*")) {
			return true
		}
	}
	return len(topicHits(lowerASCII(v))) > 0 || setting(lowerASCII(v))
}

func identifierPlain(t string) bool {
	if strings.Count(t, "`") >= 2 || len(paths(t)) > 0 || envVar(t) != "" || hasVersion(t) {
		return true
	}
	for _, w := range strings.Fields(t) {
		w = strings.Trim(w, ".,;:()[]\"'*!?")
		if codeName(w) || fileName(w) || hexColour(w) {
			return true
		}
	}
	return false
}

func answerSentencePlain(s *sent) bool {
	if s.user || s.shape&(shapeHeading|shapeTable|shapeCode|shapeBlock|shapeBullet) != 0 {
		return false // a list item is one line of a catalogue: read alone it rarely says what it lists
	}
	t := strings.TrimSpace(s.norm)
	if strings.HasSuffix(t, ":") || strings.HasSuffix(t, "!") || isQuestion(s) || s.has(hedges) || s.has(modalHedges) || !prose(t) {
		return false // what a colon opens is elsewhere; an exclamation reports, it does not state
	}
	if lead := strings.TrimLeft(t, "-+> "); strings.HasPrefix(lead, "**") || strings.HasPrefix(strings.TrimLeft(lead, "0123456789. "), "**") ||
		strings.Count(t, "**")%2 == 1 {
		return false // a line led by bold text (or cut from one) is a title or a label: "**Problem:** …"
	}
	if strings.Contains(s.low, " has been ") || strings.Contains(s.low, " have been ") {
		return false // "the command has been created": the work done, which the code now shows
	}
	if noise(s) != notNoise || selfNarration(t) || firstPersonChange(s) {
		return false
	}
	lead := leadText(lowerASCII(clean(s.norm)))
	if label, value := splitLabel(lead); value != "" && len(strings.Fields(label)) <= 3 {
		return false
	}
	f := strings.Fields(strings.Trim(lead, ".!"))
	if len(f) < 2 || in([]string{"you", "you'll", "you're", "you've"}, f[0]) {
		return false
	}
	if opener, _, ok := strings.Cut(lead, ","); ok && strings.HasSuffix(f[0], "ing") && f[0] != "according" && cutAtVerb(opener) == opener || startsWithPhrase(lead, []string{"based on"}) {
		// "Looking at your config, …": what the speaker did to find it, a
		// reading of the moment; "Logging goes to `app.log`, …" has its
		// verb before the comma
		return false
	}
	if (f[0] == "line" || f[0] == "lines") && startsWithDigit(f[1]) {
		return false // "Lines 34-37 check …": a reading of the code as it was that day
	}
	for _, w := range f {
		if in(conversationWords, strings.Trim(w, ",;:()\"'")) {
			return false
		}
	}
	return identifier(s.norm)
}

func afterLabelPlain(lead string) string {
	for _, sep := range []string{": ", " — ", " – ", " - ", " â€\" ", " â€” ", " â€“ "} { // and "—" read as cp1252
		if k := strings.Index(lead, sep); k > 0 && k <= 40 && len(strings.Fields(lead[:k])) <= 4 {
			return leadText(lead[k+len(sep):])
		}
	}
	return lead
}

func splitLabelPlain(body string) (label, value string) {
	best := -1
	sep := ""
	for _, s := range []string{": ", " - ", " — ", " – "} {
		if k := strings.Index(body, s); k > 0 && (best < 0 || k < best) {
			best, sep = k, s
		}
	}
	if best < 0 || best > 60 {
		return body, ""
	}
	return strings.TrimSpace(body[:best]), strings.TrimSpace(body[best+len(sep):])
}

func stripMarkersPlain(s string, keepI bool) string {
	s = strings.TrimSpace(s)
	for changed := true; changed; {
		changed = false
		l := lowerASCII(s)
		if k := skipOpeners(l); k > 0 && k < len(s) {
			s, l, changed = strings.TrimSpace(s[k:]), l[k:], true
			l = strings.TrimLeft(l, " ")
		}
		for _, m := range markers {
			if keepI && m == "i " {
				continue
			}
			if strings.HasPrefix(l, m) && len(s) > len(m) && (!isWordByte(m[len(m)-1]) || !isWordByte(l[len(m)])) {
				s, changed = strings.TrimLeft(s[len(m):], " ,:"), true
				break
			}
		}
		if changed {
			continue
		}
		// a short label: "One follow-up:", "메모해 둬:", "남은 작업:"
		if k := strings.Index(s, ": "); k > 0 && k <= 30 && len(strings.Fields(s[:k])) <= 4 && !strings.ContainsAny(s[:k], "`/") && len(s) > k+2 {
			s, changed = strings.TrimSpace(s[k+2:]), true
		}
	}
	return s
}

// checkFields compares each rule with its plain form on text, whole and
// sentence by sentence, as a user's and as an assistant's.
func checkFields(t *testing.T, text string) {
	t.Helper()
	texts := []string{text}
	for _, sp := range sentences(text) {
		texts = append(texts, text[sp.start:limit(text, sp.start, sp.end)])
	}
	for _, x := range texts {
		for _, c := range []struct {
			name      string
			got, want any
		}{
			{"danglingOpener", danglingOpener(x), danglingOpenerPlain(x)},
			{"wh", wh(x), whPlain(x)},
			{"pastedError", pastedError(x), pastedErrorPlain(x)},
			{"ofTheMoment user", ofTheMoment(x, true), ofTheMomentPlain(x, true)},
			{"ofTheMoment", ofTheMoment(x, false), ofTheMomentPlain(x, false)},
			{"failing", failing(lowerASCII(x)), failingPlain(lowerASCII(x))},
			{"paths", strings.Join(paths(x), "\x00"), strings.Join(pathsPlain(x), "\x00")},
			{"bareValue", bareValue(x), bareValuePlain(x)},
			{"commitLine", commitLine(x), commitLinePlain(x)},
			{"bareInstall", bareInstall(x), bareInstallPlain(x)},
			{"planPart", planPart(x), planPartPlain(x)},
			{"addresses", strings.Join(addresses(x), "\x00"), strings.Join(addressesPlain(x), "\x00")},
			{"bareAcceptance", bareAcceptance(x), bareAcceptancePlain(x)},
			{"valueLike", valueLike(x), valueLikePlain(x)},
			{"identifier", identifier(x), identifierPlain(x)},
			{"afterLabel", afterLabel(x), afterLabelPlain(x)},
			{"afterLabel lowered", afterLabel(lowerASCII(x)), afterLabelPlain(lowerASCII(x))},
		} {
			if c.got != c.want {
				t.Fatalf("%s(%q) = %v, plain form %v", c.name, x, c.got, c.want)
			}
		}
		for _, keepI := range []bool{true, false} {
			if got, want := stripMarkers(x, keepI), stripMarkersPlain(x, keepI); got != want {
				t.Fatalf("stripMarkers(%q, %v) = %q, plain form %q", x, keepI, got, want)
			}
		}
		if got, want := skipOpenersFold(x), skipOpeners(lowerASCII(x)); got != want {
			t.Fatalf("skipOpenersFold(%q) = %d, skipOpeners of it lowered %d", x, got, want)
		}
		l, v := splitLabel(x)
		if pl, pv := splitLabelPlain(x); l != pl || v != pv {
			t.Fatalf("splitLabel(%q) = %q, %q, plain form %q, %q", x, l, v, pl, pv)
		}
		// prose reads a text that opens with a letter, as its callers give it.
		if r, _ := utf8.DecodeRuneInString(strings.TrimSpace(stripMarkers(x, true))); unicode.IsLetter(r) {
			if got, want := prose(x), prosePlain(x); got != want {
				t.Fatalf("prose(%q) = %v, plain form %v", x, got, want)
			}
		}
		for _, user := range []bool{true, false} {
			for _, sh := range []shape{0, shapeBullet} {
				s1, s2 := newSent(0, 0, x, user), newSent(0, 0, x, user)
				s1.shape, s2.shape = sh, sh
				if got, want := answerSentence(s1), answerSentencePlain(s2); got != want {
					t.Fatalf("answerSentence(%q, user %v, shape %d) = %v, plain form %v", x, user, sh, got, want)
				}
			}
		}
	}
}

// TestFieldsSame is an equivalence test: every message of the test
// sessions, and invented lines of each rule's shape.
func TestFieldsSame(t *testing.T) {
	for _, s := range testSessions(t) {
		for _, m := range s.Messages {
			checkFields(t, m.Text)
		}
	}
	for _, text := range []string{
		"", " ", "It works now.", "With these TODO.", "That\u2019s it.", "THIS IS fine", "what\u2019s the port?", "How do I run it",
		"Why", "Which port?", "Sounds good!", "ok thanks", "perfect, ship it", "a1b2c3d4 fix the parser",
		"npm install", "pnpm i -D vitest", "yarn install && npm run dev", "Phase 2: rollout", "Pros: faster",
		"runs on localhost:8123.", "see http://db.internal:5432/x", "src/app.js and ./keys", "`deploy/k8s/base`와",
		"TypeError: x is undefined at index.css:74 error", "app.go:12: error", "we fixed it today", "tests are failing",
		"Lines 34-37 check the token.", "Summary: 3f9c2d1 refactor", ": leading colon: then a label", "a - b: c",
		"Next step — wire the retry queue into the worker pool", "label `x` — y", "an unusually long label that runs past forty bytes: value",
		"an unusually long label that runs well past the sixty bytes a label may have: value", "x – y",
		"OK, so From now on, keep the cache warm.", "Yes. Please Remember That the port is 8125", "I Think we should pin it",
		"BTW, Decision: use Zephyr", "One follow-up: also, FYI: rotate the keys", "ALRIGHT — One More Thing: fine",
		"Okay", "  - So, well: note:", "Also-ran teams", "그리고 Decision: keep it", "NOTE THAT", "i", "I ", "You can set TIMEOUT=30.", "The API listens on port 9443 behind `nginx`.",
		"#3a7bd5", "v1.2.3", "Looking at your config, the cache is Redis.", "\xff\xfe what is", "what\u00a0is\u2028it", "Who is on call?",
	} {
		checkFields(t, text)
	}
}

// FuzzFieldsSame is TestFieldsSame on arbitrary text.
func FuzzFieldsSame(f *testing.F) {
	for _, seed := range []string{"", "With these TODO.", "what\u2019s up", "pnpm i x", "a:1 SyntaxError", "\xe2\x80 \xc2\xa0x"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) { checkFields(t, text) })
}

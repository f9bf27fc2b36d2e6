package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
)

// When the user asks something ("which queue does the mailer use?"), the
// assistant's last message of that turn is its answer, and a sentence of
// it that names a thing of the project ("The mailer publishes to
// `outbox-events-v3`.") is a finding the session reached
// on purpose: what was looked up, not what was being tried. Such a sentence
// is kept as a fact even when no trigger phrase marks it, and it carries the
// user's question as what it answers.

// maxAnswerFacts is how many sentences of one answer are kept as facts.
// No trigger phrase vouches for them, so the first that pass stand for the
// answer: it states its finding first, and the sentences after it are
// detail (how the code does it) that the code itself keeps better.
const maxAnswerFacts = 2

// MaxQuestion is the length in runes of a question an entry stores, from
// either extractor: a question is looked up and shown as one line, and a
// longer "question" is a pasted request, not one thing asked.
const MaxQuestion = 200

// Question returns q as an entry stores it, privacy-filtered (again: the
// filter is idempotent) with its spaces collapsed, and whether it may be
// stored: 1 to MaxQuestion runes, with no control character that could
// reach a terminal or the injected context.
func Question(q string) (string, bool) {
	q = strings.Join(strings.Fields(privacy.Filter(q)), " ")
	n := utf8.RuneCountInString(q)
	return q, n >= 1 && n <= MaxQuestion && !strings.ContainsFunc(q, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
	})
}

// answers returns the question the user's prompt of the current turn asks
// when message i is the turn's final answer: the last assistant message
// before the user speaks again or the client types a notice. A notice
// (a background task finished) does not start a turn, but what the
// assistant says after it is about the notice, not the prompt.
func (x *extractor) answers(i int) (string, bool) {
	if x.turn < 0 {
		return "", false
	}
	for _, m := range x.msgs[x.turn+1 : i] {
		if r := strings.ToLower(m.Role); (r == "user" || r == "human") && clientNotice(m.Text) {
			return "", false
		}
	}
	for _, m := range x.msgs[i+1:] {
		switch strings.ToLower(m.Role) {
		case "assistant":
			return "", false
		case "user", "human":
			return x.turnQuestion()
		}
	}
	return x.turnQuestion()
}

// turnQuestion is the question the turn's prompt asks, if any: the final
// answer of a turn is kept whether or not it was asked for, and says what
// it answers when it was.
func (x *extractor) turnQuestion() (string, bool) {
	q, _ := userQuestion(x.msgs[x.turn])
	return q, true
}

// userQuestion is the first question of a user's prompt, as asked. Of a
// prompt longer than the extractor reads, it is the last question of the
// prompt's end when its start asks none: a long prompt is mostly a paste,
// and the question about it comes after it.
func userQuestion(m Message) (string, bool) {
	if typedByClient(m.Text) {
		return "", false
	}
	text := m.Text
	if len(text) <= maxScan {
		return askedIn(text, false)
	}
	if q, ok := askedIn(text[:runeBefore(text, maxScan, 0)], false); ok {
		return q, true
	}
	return askedIn(text[runeStart(text, len(text)-maxScan):], true)
}

// askedIn is the first (or the last) question of text that can be stored.
func askedIn(text string, last bool) (string, bool) {
	found := ""
	for _, sp := range sentences(text) {
		s := newSent(0, sp.start, text[sp.start:limit(text, sp.start, sp.end)], true)
		if sp.shape&(shapeCode|shapeBlock|shapeTable) != 0 || !isQuestion(s) {
			continue
		}
		q, ok := Question(clean(s.norm))
		if !ok || utf8.RuneCountInString(q) < 8 {
			continue // "why?": the question is in what came before it
		}
		if found = q; !last {
			break
		}
	}
	return found, found != ""
}

// answer keeps sentence s of the turn's final answer as a fact answering
// question q when it states something about a named thing of the project.
// The usual checks of a fact (keeps) still apply to it.
func (x *extractor) answer(s *sent, q string) {
	if !answerSentence(s) {
		if s = statedClause(s); s == nil {
			return
		}
	}
	c := &cand{typ: Fact, score: 1.2, seq: len(x.cands), from: s.msg, answer: true}
	if q, ok := standalone(q); ok {
		c.questions = []string{q}
	}
	off, quote := s.quote(s.body)
	c.ev = []evi{{s.msg, off, quote}}
	c.body = clean(s.norm)
	c.subject = phraseSubject(s.norm[s.body:], false)
	x.cands = append(x.cands, c)
}

// statedClause is the first clause of s, before a dash or a semicolon,
// when it is an answer sentence by itself and the whole is not: "The
// `spool_b` folder holds the second tray's jobs; I moved the stuck ones
// back" states a finding, then tells what the speaker did about it. It is nil otherwise.
func statedClause(s *sent) *sent {
	k := -1
	for _, b := range []string{" - ", " — ", " – ", "; "} {
		if i := strings.Index(s.norm, b); i > s.body && (k < 0 || i < k) {
			k = i
		}
	}
	if k < 0 {
		return nil
	}
	c := newSent(s.msg, s.off, s.text[:s.orig(k)], s.user)
	c.shape, c.planned = s.shape, s.planned
	if !answerSentence(c) {
		return nil
	}
	return c
}

// answerSentence reports a sentence of prose that states, in the third
// person and without a hedge, something about a named thing of the project
// (identifier). A sentence about the speaker ("I …", "Let me …"), to the
// listener ("You want …"), led by a label (a fact of its own kind), or
// noise (a status, a plan step) is the conversation, not the finding. One
// that opens with a pronoun is judged with the sentence before it
// (antecedents).
func answerSentence(s *sent) bool {
	if s.user || s.shape&(shapeHeading|shapeTable|shapeCode|shapeBlock|shapeBullet) != 0 {
		return false // a list item is one line of a catalogue: read alone it rarely says what it lists
	}
	t := strings.TrimSpace(s.norm)
	if strings.HasSuffix(t, ":") || strings.HasSuffix(t, "!") || isQuestion(s) || s.hasIn(hedgesIndex) || s.hasIn(modalHedgesIndex) || !prose(t) {
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
	words := strings.Trim(lead, ".!")
	var buf [2]string
	f := headFields(buf[:0], words)
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
	for w := range strings.FieldsSeq(words) {
		if in(conversationWords, conversedTrim.trim(w)) {
			return false
		}
	}
	return identifier(s.norm)
}

// conversationWords mark a sentence of the exchange rather than a statement
// of the project's state: the speaker ("Yes, I read the guide", "but let me
// check the logs first") and the modal and future auxiliaries of a
// prediction or advice ("the cache should be warm now", "the patch will let
// the job finish"). A lasting fact
// is said in the third person and the indicative, so an answer sentence
// with any of them is left out, at the cost of a rare fact put as a
// prediction ("The server will return 404 when …"). Measured: without this,
// the final answers of fold A and B of real-sessions-2 gave 22 more facts,
// nearly all of them of the moment (docs/extraction-judgement-7.md).
var conversationWords = []string{"i", "i'm", "i've", "i'll", "i'd", "me", "my", "let's", "should", "will", "won't"}

// identifier reports text naming a thing as code or a file spells it: a
// code span, a path or a file name, an environment variable, a snake_case
// or CamelCase name, a version or a hex colour. "create/edit/delete" and
// "Python/FastAPI" name no one thing.
func identifier(t string) bool {
	if strings.Count(t, "`") >= 2 || len(paths(t)) > 0 || envVar(t) != "" || hasVersion(t) {
		return true
	}
	for w := range strings.FieldsSeq(t) {
		w = nameTrim.trim(w)
		if codeName(w) || fileName(w) || hexColour(w) {
			return true
		}
	}
	return false
}

// fileName reports "server.js", "oai.py", "clip.mp4": a bare name with an
// extension (isLowerExt), which paths only takes in a code span; not a
// number ("1.5") or an abbreviation ("e.g").
func fileName(w string) bool {
	k := strings.LastIndexByte(w, '.')
	if k < 2 || len(w)-k-1 > 6 || !isLowerExt(w[k+1:]) || strings.Count(w, ".") > 2 {
		return false
	}
	return strings.IndexFunc(w[:k], unicode.IsLetter) >= 0
}

// hexColour reports "#3a7bd5", "#C2410C" or "#fa0"; three digits alone
// ("#482") are an issue or a pull request.
func hexColour(w string) bool {
	if len(w) != 7 && len(w) != 4 || w[0] != '#' {
		return false
	}
	letter := false
	for i := 1; i < len(w); i++ {
		if !isHex(w[i]) {
			return false
		}
		letter = letter || !isDigit(w[i])
	}
	return letter || len(w) == 7
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// standalone returns the question q asks as a developer would ask it of
// the project's memory, and whether it reads so on its own: its last
// clause after a colon (what came before it is the occasion), opening with
// a question word ("what's" is "what"), ending in a question mark, and
// pointing at nothing of the conversation ("you", "I", "this"): "so which
// of them do I keep?" asks of what was just said, not of the project. The
// lists are English: a question in another language ("¿Dónde …?",
// "… 쓰나요?") is kept as the user asked it.
func standalone(q string) (string, bool) {
	if !english(q) {
		return q, strings.TrimSpace(q) != ""
	}
	if i := strings.LastIndex(q, ": "); i >= 0 {
		q = q[i+2:]
	}
	q = strings.TrimSpace(q)
	if !strings.HasSuffix(q, "?") && !strings.HasSuffix(q, "？") {
		return "", false
	}
	q = strings.TrimSpace(strings.TrimRight(q, "?？"))
	words := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(words) < 3 {
		return "", false
	}
	if first, _, _ := strings.Cut(words[0], "'"); !in(questionWords, first) {
		return "", false
	}
	for _, w := range words {
		if in(deictics, w) {
			return "", false
		}
	}
	r, n := utf8.DecodeRuneInString(q)
	return string(unicode.ToUpper(r)) + q[n:] + "?", true
}

// english reports whether q opens with an English word: its first word in
// ASCII letters, no "¿" before it.
func english(q string) bool {
	i := strings.IndexFunc(q, unicode.IsLetter)
	if i < 0 || strings.ContainsRune(q[:i], '¿') {
		return false
	}
	for _, r := range q[i:] {
		if !unicode.IsLetter(r) {
			break
		}
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// questionWords are the words a direct question opens with.
var questionWords = []string{"what", "which", "where", "when", "why", "how", "who", "whose",
	"is", "are", "does", "do", "did", "can", "should", "will", "was", "were", "has", "have"}

// deictics point at the conversation: its speakers and what was just shown.
var deictics = []string{"you", "your", "you're", "i", "i'm", "me", "my", "this", "these", "those", "it", "it's"}

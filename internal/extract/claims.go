package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
)

// oneOffVerbs open a request for one piece of work ("fix the test in
// src/a_test.go", "run pytest"), not a standing decision, even when it names
// a tool or a path.
var oneOffVerbs = []string{"fix", "debug", "look", "check", "run", "show", "explain", "find", "open", "read", "review",
	"try", "investigate", "add", "create", "write", "implement", "refactor", "delete", "update", "install", "build",
	"help", "tell", "summarize", "summarise", "make", "can", "could", "would", "please", "thanks", "thank", "what",
	"why", "how", "where", "which", "when", "who", "is", "are", "does", "do", "did", "ok", "okay", "yes", "no",
	"hmm", "wait", "also", "and", "then", "now", "first", "next", "i", "see", "note", "remember"}

// problemWords describe trouble: "the app crashes on Android 14" names a
// version without deciding it.
var problemWords = []phrase{{s: "crash"}, {s: "crashes"}, {s: "crashed"}, {s: "broken"}, {s: "mess"}, {s: "unreadable"},
	{s: "flaky"}, {s: "fails"}, {s: "failing"}, {s: "failed"}, {s: "hangs"},
	{s: "leak"}, {s: "unusable"}, {s: "confusing"}, {s: "doesn't work"}, {s: "does not work"}, {s: "slow"},
	{s: "broke"}, {s: "breaks"}, {s: "breaking"}, {s: "collides"}, {s: "too short"}, {s: "too long"}, {s: "too many"},
	{s: "안 돼"}, {s: "안 되"}, {s: "너무"}}

// claimed makes a decision of a sentence that no other rule took but that
// states what fills a role (internal/claim): "Smoke tests are written in
// Robot Framework", "Move the weekly report to 06:15 UTC", "Netlify 대신 이제 Render로
// 배포합니다". A user's sentence counts unless it is a question, a hedge, a
// request for one piece of work or a complaint; an assistant's only when it
// reports a change it made ("I replaced X with Y"), since its other sentences
// describe work rather than decide. A sentence whose change is said with its
// neighbour ("Timeouts of 10s were too short. Make it 45s from now on.")
// counts with the neighbour quoted too.
func (x *extractor) claimed(ss []*sent, k int) {
	s := ss[k]
	if !decides(s) || !prose(s.norm) {
		return
	}
	c, ok := pick(s, x.parsed(s))
	if !ok {
		// The value may need its neighbour to have a role at all.
		for _, j := range []int{k - 1, k + 1} {
			if cc, ok := x.across(ss, k, j); ok {
				c = cc
				break
			}
		}
		if c.Role == "" {
			return
		}
	}
	n := len(x.cands)
	x.add(s, hit{typ: Decision, at: s.body, end: s.body, w: 1.2, k: plain}, false, false)
	if len(x.cands) == n {
		return // add may decline a candidate
	}
	cd := x.cands[n]
	cd.subject, cd.value = c.Role, c.Value
	x.retitle(s, cd)
	x.changeContext(ss, k, cd)
}

// prose reports a sentence written in words: a decision read from a value
// alone needs one. Its shape is not a line of output or config that happens
// to hold a value: "OPENAI_MODEL=gpt-4o", "#3a7bd5", "[GET]200 host/x …",
// "⎿ Done (4 tool uses)", "1: 네", "Authorization: Bearer {token}". It opens
// with a letter, its first word assigns nothing, and three of its words are
// words of letters (a Korean sentence has few: "CI는 CircleCI에서 돌아가요").
func prose(t string) bool {
	t = strings.TrimSpace(stripMarkers(t, true))
	r, _ := utf8.DecodeRuneInString(t)
	if !unicode.IsLetter(r) {
		return false
	}
	var first [1]string
	if strings.Contains(headFields(first[:0], t)[0], "=") {
		return false
	}
	words := 0
	for w := range strings.FieldsSeq(t) {
		w = proseTrim.trim(w)
		if utf8.RuneCountInString(w) >= 2 && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' }) < 0 {
			words++
		}
	}
	return words >= 3
}

// decides reports whether s may state a decision at all.
func decides(s *sent) bool {
	if isQuestion(s) || s.hasIn(hedgesIndex) {
		return false
	}
	if !s.user && (s.startsWithAny(intents) || koreanIntent(s.norm)) {
		return false
	}
	return !s.user || !(s.startsWithAny(oneOffVerbs) || s.hasIn(problemWordsIndex) || koreanOneOff(s.norm)) || claim.ChangeCue(s.text)
}

// koreanOneOffStems are Korean verbs of one piece of work ("JWT 인증을 붙여
// 주세요", "테스트를 고쳐 주세요"); a setting ("10초로 설정해 주세요") is not.
var koreanOneOffStems = []string{"추가", "붙여", "만들어", "고쳐", "수정", "확인", "찾아", "실행", "알려", "설명", "보여",
	"작성", "구현", "삭제", "지워", "봐 주", "봐주", "돌려", "검토", "리뷰", "테스트해"}

func koreanOneOff(text string) bool {
	for _, st := range koreanOneOffStems {
		if strings.Contains(text, st) {
			return true
		}
	}
	return false
}

// pick chooses the claim a sentence's decision rests on.
func pick(s *sent, cs []claim.Claim) (claim.Claim, bool) {
	var best claim.Claim
	found := false
	for _, c := range cs {
		if !s.user && c.Replaces == "" {
			continue
		}
		if c.Negated && c.Replaces == "" {
			continue // "we dropped X" alone decides nothing to recall
		}
		if c.Role == "path" && c.Replaces == "" && !placed(s, c) {
			continue // "the services/ folder is a mess" names a path, not where something goes
		}
		// A settled value beats a path and the language it is about ("format
		// the Python code with black" decides the formatter, not Python), and a
		// change beats a plain value.
		weak := func(r string) bool { return r == "path" || r == "language" }
		if !found || weak(best.Role) && !weak(c.Role) || best.Replaces == "" && c.Replaces != "" {
			best, found = c, true
		}
	}
	return best, found
}

// across returns the change that sentence k says together with its
// neighbour j of the same message: a claim replacing a value, whose new
// value is not the neighbour's own.
func (x *extractor) across(ss []*sent, k, j int) (claim.Claim, bool) {
	if j < 0 || j >= len(ss) || ss[j].msg != ss[k].msg {
		return claim.Claim{}, false
	}
	// Worth a joint parse only if the two give a role different values and
	// one says a change or rejects, or the sentence says a change to a
	// number that has no role by itself ("앞으로 45초로 바꿔 주세요").
	// A sentence without claims is worth one only in the second case, so
	// its neighbour is parsed only if it names a number and a change: a
	// neighbour is often a line no rule reads otherwise (a question, a
	// command), parsed for this alone.
	own := x.parsed(ss[k])
	if len(own) == 0 && !numberChange(ss[k].text) {
		return claim.Claim{}, false
	}
	neighbour := x.parsed(ss[j])
	if len(neighbour) == 0 {
		return claim.Claim{}, false
	}
	worth := false
	for _, c := range own {
		for _, n := range neighbour {
			// A name alone in its sentence reads as whatever its shape
			// says ("Stop pushing acme/old." is a path): the joint parse
			// below tells which identifier it is.
			sameKind := n.Role == c.Role || claim.Identifier(n.Role) && claim.Identifier(c.Role)
			if !sameKind || n.Value == c.Value {
				continue
			}
			if claim.Identifier(c.Role) {
				// "Renamed to acme/app. Stop pushing acme/old."
				worth = worth || c.Changed && n.Negated
			} else {
				// "We dropped RabbitMQ. Jobs go to Redis streams now.",
				// "The 20s delay was too short. Make it 90s from now on."
				worth = worth || c.Changed || n.Negated || n.Replaces != ""
			}
		}
	}
	if !worth && len(own) > 0 {
		return claim.Claim{}, false
	}
	a, b := ss[min(k, j)], ss[max(k, j)]
	for _, c := range claim.Parse(a.text + "\n" + b.text) {
		if c.Replaces == "" || c.Negated {
			continue
		}
		own := false
		for _, n := range neighbour {
			own = own || n.Role == c.Role && n.Value == c.Value && !n.Negated
		}
		if !own {
			return c, true
		}
	}
	return claim.Claim{}, false
}

// numberChange reports a text that names a number and says a change.
func numberChange(text string) bool {
	return strings.ContainsAny(text, "0123456789") && claim.ChangeCue(text)
}

// changeContext adds to cd, made of sentence k, the neighbouring sentence
// that names the value it replaces ("We dropped RabbitMQ. Background jobs go
// to Redis streams now."): the entry needs both to say the change.
func (x *extractor) changeContext(ss []*sent, k int, cd *cand) {
	for _, c := range x.parsed(ss[k]) {
		if c.Replaces != "" {
			return // the sentence says the change by itself
		}
	}
	for _, j := range []int{k - 1, k + 1} {
		if _, ok := x.across(ss, k, j); !ok {
			continue
		}
		// Quotes are kept in message order and the first is what a
		// warning shows of the entry, so it must be the decision: a
		// neighbour before it goes into the body, one after it is quoted.
		n := ss[j]
		if j < k {
			cd.body = joinBody(clean(n.norm), cd.body)
			return
		}
		off, q := n.quote(n.body)
		cd.ev = append(cd.ev, evi{n.msg, off, q})
		return
	}
}

// placed reports a path that says where something goes: after "in",
// "under", "from", "to", "as" ("migrations go in db/changes").
func placed(s *sent, c claim.Claim) bool {
	low := s.low
	for i := 0; ; {
		k := strings.Index(low[i:], c.Value)
		if k < 0 {
			return false
		}
		before := strings.TrimRight(low[:i+k], " `'\"./")
		before = strings.TrimSuffix(before, " the")
		for _, p := range []string{" in", " into", " under", " from", " to", " as", " at", " inside", " within"} {
			if strings.HasSuffix(before, p) {
				return true
			}
		}
		i += k + len(c.Value)
	}
}

// retitle keeps a decision's title from naming the value its sentence
// replaces ("Heroku 대신 이제 Render.com으로 배포합니다" is not "Use Heroku for
// deployment"): such a title also merges the change into the entry it
// replaces. The sentence itself becomes the title.
func (x *extractor) retitle(s *sent, cd *cand) {
	if cd.typ != Decision {
		return
	}
	lt := strings.ToLower(cd.title)
	for _, c := range x.cache.Parse(s.text) {
		old, now := c.Replaces, c.Value
		if c.Negated {
			old, now = c.Value, ""
		}
		if old != "" && strings.Contains(lt, old) && (now == "" || !strings.Contains(lt, now)) {
			t := stripMarkers(s.norm[s.body:], false)
			if !s.user {
				t = switchMade(t) // "I've successfully migrated …" titled as the switch it reports
			}
			cd.title = finishTitle(t)
			return
		}
	}
}

// parsed returns the claims of a sentence, parsed once per session.
func (x *extractor) parsed(s *sent) []claim.Claim {
	if cs, ok := x.claims[s]; ok {
		return cs
	}
	if x.claims == nil {
		x.claims = map[*sent][]claim.Claim{}
	}
	cs := x.cache.Parse(s.text)
	x.claims[s] = cs
	return cs
}

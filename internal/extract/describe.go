package extract

import (
	"strings"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/korean"
	"github.com/claude-memory-layer/claude-memory-layer/internal/spaces"
)

// describe sets a candidate's subject, settled value, title and body from
// the sentence and its trigger. clause says the sentence yields two entries,
// so each is titled by its own clause.
func describe(s *sent, h hit, c *cand, clause bool) {
	korean := koreanTrigger(s, h)
	if s.mostlyHangul() {
		korean = korean || c.typ != Decision
	}
	hits := s.topics()
	var th *valueHit
	if c.typ == Decision || c.typ == Task || h.k == stack {
		th = chosen(s.low, hits, h.at, korean)
		if th != nil && c.typ == Task && versionAfter(s.low, th.end) == "" {
			th = nil // "you still need npm install x" is not about the package manager
		}
	}
	switch {
	case c.typ == Reference:
		r, _ := firstRef(s.norm)
		c.subject = strings.ToLower(strings.TrimRight(r, "/*_`")) // "**https://x.io/**" is https://x.io
		c.value = c.subject
	case th != nil:
		v := s.low[th.at:th.end]
		if ver := versionAfter(s.low, th.end); ver != "" {
			c.subject, c.value = canonical(v)+" version", ver
		} else {
			c.subject, c.value = th.t.subject, canonical(v)
		}
	default:
		sub, ver, _ := versionSubject(s.low, nil)
		if sub != "" && (c.typ == Decision || c.typ == Fact && h.k == stack || c.typ == Task) {
			c.subject, c.value = sub, ver
		} else {
			c.subject = subjectOf(s, h, c.typ, korean)
		}
	}
	c.body = clean(s.norm)
	c.title = titleOf(s, h, c, clause, th, korean)
}

func koreanTrigger(s *sent, h hit) bool {
	if h.end > h.at {
		return s.low[h.at] >= utf8.RuneSelf
	}
	return korean.Hangul(s.norm)
}

// canonical folds the spellings of one value: the short and long names a
// product goes by in its own documentation ("k8s", "argocd").
func canonical(v string) string {
	for _, x := range versioned {
		if x.name == v {
			return x.canon
		}
	}
	switch v {
	case "next-auth":
		return "nextauth"
	case "log/slog":
		return "slog"
	case "tailwindcss":
		return "tailwind"
	case "k8s":
		return "kubernetes"
	case "argocd":
		return "argo cd"
	case "docker compose":
		return "docker-compose"
	}
	return v
}

// subjectOf derives the subject of a claim without a known topic: the
// environment variable or path it is about, or its head-noun phrase.
func subjectOf(s *sent, h hit, typ Type, korean bool) string {
	if v := envVar(s.norm); v != "" && (typ == Fact || typ == Decision) && h.k != location {
		return strings.ToLower(v)
	}
	switch h.k {
	case created:
		if p := paths(s.norm); len(p) > 0 {
			return strings.ToLower(p[0])
		}
	case location, config:
		if korean {
			if t := koreanTopic(s.norm, h.at); t != "" {
				return t
			}
		} else {
			from, _ := s.clauseAround(h.at)
			if t := lastWords(s.norm[from:h.at], 3); t != "" {
				return t
			}
		}
		if p := paths(s.norm); len(p) > 0 {
			return strings.ToLower(p[0])
		}
	case remember:
		return phraseSubject(cutAtVerb(stripMarkers(s.norm[s.body:], false)), true)
	}
	if korean {
		if t := koreanTopic(s.norm, h.at); t != "" {
			return t
		}
		return phraseSubject(stripMarkers(s.norm[s.body:], false), false)
	}
	from, to := s.clauseOf(h)
	if h.at <= from || typ == Preference || typ == Task || typ == Decision || h.k == contrast {
		end := h.end
		if typ == Decision || h.k == contrast {
			to = len(s.norm)
		}
		if t := phraseSubject(cutStops(stripMarkers(s.norm[end:to], false)), true); t != "" {
			return t
		}
	}
	if t := lastWords(s.norm[from:h.at], 3); t != "" {
		return t
	}
	return phraseSubject(stripMarkers(s.norm[s.body:], false), true)
}

// lastWords is the subject phrase just before a trigger: "the deploy job"
// of "the deploy job should only run", "`request_id`" of "means `request_id`
// must stay".
func lastWords(s string, n int) string {
	ws := words(s)
	var out []string
	for i := len(ws) - 1; i >= 0 && len(out) < n; i-- {
		w := strings.Trim(ws[i], ".-/'")
		if korean.Hangul(w) {
			if in(koreanStop, w) {
				break
			}
			w = stripParticle(w)
		}
		if w == "" || isStopword(w) || in(headStops, w) || in(koreanStop, w) {
			break
		}
		out = append([]string{w}, out...)
	}
	return strings.Join(out, " ")
}

// headStops end a subject phrase read backwards.
var headStops = []string{"means", "that", "which", "who", "says", "because", "since", "where", "think", "said"}

// cutAtVerb keeps the words before the first verb: "the staging callback
// URL" of "the staging callback URL is https://…".
func cutAtVerb(s string) string {
	l := lowerASCII(s)
	end := len(s)
	for _, v := range []string{" is ", " are ", " has ", " have ", " was ", " were ", " uses ", " runs ", " lives ",
		" live ", " must ", " should ", " can ", " will ", " needs ", " goes ", " comes "} {
		if k := strings.Index(l, v); k >= 0 && k < end {
			end = k
		}
	}
	return s[:end]
}

// stops end an object phrase.
var stops = []string{", ", "; ", " instead of ", " rather than ", " so ", " because ", " since ", " for now",
	" going forward", " from now on",
	". ", " — ", " which ", " over ", " unless ", " before ", " when ", " while ", " if ", " until "}

// cutStops removes asides in parentheses and cuts s at the first stop
// outside code spans.
func cutStops(s string) string {
	s = dropParens(s)
	l := lowerASCII(codeMask(s))
	end := len(s)
	for _, st := range stops {
		if k := strings.Index(l, st); k >= 0 && k < end {
			end = k
		}
	}
	return s[:end]
}

// dropParens removes asides in parentheses outside code spans; an
// unclosed "(" is kept with what follows it.
func dropParens(s string) string {
	m := codeMask(s)
	if strings.IndexByte(m, '(') < 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(m); i++ {
		if m[i] != '(' {
			continue
		}
		j := strings.IndexByte(m[i:], ')')
		if j < 0 {
			break
		}
		b.WriteString(strings.TrimRight(s[last:i], " "))
		last = i + j + 1
		i = last - 1
	}
	b.WriteString(s[last:])
	return b.String()
}

// codeMask returns s with the inside of `code spans` replaced by '_', at
// the same offsets, so that punctuation in code is not read as prose.
func codeMask(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	b := []byte(s)
	code := false
	for i := range b {
		if b[i] == '`' {
			code = !code
			continue
		}
		if code {
			b[i] = '_'
		}
	}
	return string(b)
}

// titleOf writes a short plain statement of the claim in the source's own
// words: "Use RS256 keys stored in ./keys" of "Decision: we will use RS256
// keys stored in `./keys` (…)". It adds no word the sentence lacks.
func titleOf(s *sent, h hit, c *cand, clause bool, th *valueHit, korean bool) string {
	if c.typ == Decision && !korean {
		// the choice as said, from its verb: "switch from poetry to uv",
		// never a template ("Use X for Y") with words the source lacks
		if _, at := s.matchIn(decisionPhrasesIndex, func(p phrase, at int) bool { return p.k == choice && s.decisionOK(p, at) }); at >= 0 {
			if t := stripMarkers(cutStops(s.norm[at:]), false); len(t) > 2 {
				return finishTitle(t)
			}
		}
		if h.k == change {
			return finishTitle(cutStops(s.norm[h.at:]))
		}
	}
	text := s.norm[s.body:]
	if clause {
		from, to := s.clauseAround(h.at)
		text = s.norm[from:to]
	}
	var t string
	if c.typ == Preference {
		t = stripMarkers(strings.TrimSpace(text), true)
	} else {
		t = stripMarkers(text, false)
	}
	if len(t) > maxTitle {
		if cut := cutStops(t); len(cut) >= 15 {
			t = cut
		}
	}
	return finishTitle(t)
}

// markers are stripped from the front of a title.
var markers = []string{"decision:", "note:", "todo:", "fixme:", "remember that", "remember:", "remember,",
	"please remember that", "please remember", "note that", "keep in mind that", "keep in mind,", "keep in mind",
	"for this project,", "for this project", "in this project,", "from now on,", "from now on", "going forward,",
	"going forward", "fyi,", "fyi:", "fyi", "btw,", "btw", "by the way,", "important:", "i think", "we will", "we'll",
	"we decided to", "we've decided to", "decided to", "i decided to", "i also", "also,", "i'll start by", "i'll", "i will",
	"i'd like you to", "i would like you to", "i want you to", "let me", "i ", "please",
	"그리고", "앞으로는", "참고로", "먼저", "네,", "네."}

// stripMarkers removes openers, "remember that", "Decision:" and short
// labels like "One follow-up:" from the front of s; keepI keeps a leading
// "I" ("I don't want another dependency").
func stripMarkers(s string, keepI bool) string {
	s = strings.TrimSpace(s)
	var buf [5]string
	for changed := true; changed; {
		changed = false
		// l is s, read as lower-case (skipOpenersFold, hasPrefixFold):
		// lowering the whole text on every pass for a look at its first
		// words was a fifth of the lowering the extractor did.
		l := s
		if k := skipOpenersFold(l); k > 0 && k < len(s) {
			s, l, changed = strings.TrimSpace(s[k:]), l[k:], true
			l = strings.TrimLeft(l, " ")
		}
		for _, m := range markers {
			if keepI && m == "i " {
				continue
			}
			if hasPrefixFold(l, m) && len(s) > len(m) && (!isWordByte(m[len(m)-1]) || !isWordByte(l[len(m)])) {
				s, changed = strings.TrimLeft(s[len(m):], " ,:"), true
				break
			}
		}
		if changed {
			continue
		}
		// a short label: "One follow-up:", "메모해 둬:", "남은 작업:", whose
		// colon is in the first 30 bytes
		if k := strings.Index(s[:min(len(s), 32)], ": "); k > 0 && len(headFields(buf[:0], s[:k])) <= 4 && !strings.ContainsAny(s[:k], "`/") && len(s) > k+2 {
			s, changed = strings.TrimSpace(s[k+2:]), true
		}
	}
	return s
}

// lowerByte is c lowered as lowerASCII lowers it.
func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold is strings.HasPrefix(lowerASCII(s), p).
func hasPrefixFold(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if lowerByte(s[i]) != p[i] {
			return false
		}
	}
	return true
}

// skipOpenersFold is skipOpeners(lowerASCII(s)), without the lowered copy:
// lowering changes only letters, which only the openers' words compare.
func skipOpenersFold(s string) int {
	i := 0
	for {
		for i < len(s) && strings.IndexByte(" \t-*>\"'(,.:!", s[i]) >= 0 {
			i++
		}
		for _, d := range []string{"—", "–"} {
			if strings.HasPrefix(s[i:], d) {
				i += len(d)
			}
		}
		moved := false
		for _, o := range openers {
			if i < len(s) && lowerByte(s[i]) == o[0] && hasPrefixFold(s[i:], o) {
				e := i + len(o)
				if e == len(s) || strings.IndexByte(" ,.!:", s[e]) >= 0 {
					i = e
					moved = true
					break
				}
			}
		}
		if !moved {
			return min(i, len(s))
		}
	}
}

// finishTitle cleans, drops asides and ending punctuation, capitalizes and
// clips a title.
func finishTitle(t string) string {
	code := strings.HasPrefix(strings.TrimSpace(t), "`")
	if d := strings.TrimSpace(dropParens(t)); d != "" {
		t = d
	}
	t = clean(t)
	t = strings.TrimRight(t, " .!:;,")
	for _, suf := range []string{", by the way", " by the way", " though", ", thanks"} {
		t = strings.TrimSuffix(t, suf)
	}
	if !code {
		t = capitalize(t)
	}
	return clip(t, maxTitle)
}

// clean removes code ticks and, outside code spans, markdown bold, and
// collapses spaces.
func clean(s string) string {
	if strings.ContainsAny(s, "`*") {
		var b strings.Builder
		m := codeMask(s)
		for i := 0; i < len(s); i++ {
			switch {
			case s[i] == '`':
				continue
			case m[i] == '*' && i+1 < len(s) && m[i+1] == '*':
				i++
				continue
			}
			b.WriteByte(s[i])
		}
		s = b.String()
	}
	return spaces.Fold(s)
}

// clip shortens s to at most n runes, at a word boundary when one is near.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	t := string(r)
	if k := strings.LastIndexByte(t, ' '); k > len(t)/2 {
		t = t[:k]
	}
	return strings.TrimRight(t, " ,;:") + "…"
}

// describeLesson sets a lesson's subject and title from its main sentence.
func describeLesson(s *sent, h hit, c *cand) {
	c.subject = lessonSubject(s, h)
	t := stripMarkers(s.norm[s.body:], false)
	l := lowerASCII(t)
	for _, p := range []string{"the root cause is that ", "the root cause was that ", "the root cause is ", "the root cause was ",
		"the problem was that ", "the problem was ", "the problem is that ", "the issue was that ", "the issue was ",
		"the bug was that ", "the bug was ", "it turned out that ", "turns out ", "turned out "} {
		if strings.HasPrefix(l, p) {
			t = t[len(p):]
			break
		}
	}
	c.title = finishTitle(t)
	if c.body == "" {
		c.body = clean(s.norm)
	}
}

func lessonSubject(s *sent, h hit) string {
	if a := strings.IndexByte(s.norm, '`'); a >= 0 {
		if b := strings.IndexByte(s.norm[a+1:], '`'); b > 0 && b <= 40 {
			return strings.ToLower(strings.TrimSpace(s.norm[a+1 : a+1+b]))
		}
	}
	if v := envVar(s.norm); v != "" {
		return strings.ToLower(v)
	}
	if koreanTrigger(s, h) {
		if t := koreanTopic(s.norm, h.at); t != "" {
			return t
		}
		return phraseSubject(s.norm[s.body:], false)
	}
	from, to := s.clauseOf(h)
	if t := phraseSubject(cutStops(s.norm[h.end:to]), false); t != "" && h.end > h.at {
		return t
	}
	return phraseSubject(cutStops(s.norm[from:to]), false)
}

// capitalize upper-cases the first letter of a title whose first word is a
// plain word: "npm이나", "src/app.js" and "https://…" stay as they are.
func capitalize(t string) string {
	if t == "" || t[0] < 'a' || t[0] > 'z' {
		return t
	}
	w := t
	if i := strings.IndexByte(t, ' '); i >= 0 {
		w = t[:i]
	}
	w = strings.TrimRight(w, ",:;.!")
	for i := 0; i < len(w); i++ {
		if !isASCIILetter(w[i]) && w[i] != '\'' && w[i] != '-' {
			return t
		}
	}
	return string(t[0]-'a'+'A') + t[1:]
}

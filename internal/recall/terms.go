package recall

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/funcwords"
	"github.com/claude-memory-layer/claude-memory-layer/internal/korean"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"
	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
)

// requestWords are dropped from queries besides the function words of the
// prompt's languages (funcwords, with the English ones its list lacks,
// funcwords.EnglishMore): the words every request to an assistant
// uses ("please", "tell", "fix", "thanks"), and a few Russian question
// words its Russian list lacks. They match everything and rank nothing.
var requestWords = lazywords.Set(`let please sure make thanks thank hi hello ok
okay yes want need like get got use used using add fix change look tell know think ever still going go way thing things
something anything lot much many one two new old` +
	// Russian question words the package's Russian list lacks.
	` почему зачем сейчас здесь опять какие каким какое`)

// stopSet is what a query drops: the function words of the prompt's
// languages, and requestWords.
type stopSet struct{ fw funcwords.Set }

func stopsFor(text string) stopSet { return stopsOf(lowerRuns(text)) }

// stopsOf is stopsFor of a text already split into words (lowerRuns).
func stopsOf(words []string) stopSet { return stopSet{funcwords.For(words)} }

// lowerRuns splits s into its lower-case runs of letters and digits.
func lowerRuns(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// has reports a word a query drops: a request's word, a function word of
// the prompt's languages, or one of the English words of every sentence
// (funcwords.Common: "though", "even", "whether") that is no generic
// coding word; "next", "put", "keep" name things in code talk and keep
// their generic weight.
func (s stopSet) has(w string) bool {
	return requestWords()[w] || s.fw.Has(w) || funcwords.EnglishMore(w) || funcwords.Common(w) && !isGeneric(w)
}

// koreanParticles are attached to the end of Korean words ("토큰을", "키는");
// the bare stem is searched too so "토큰을" finds "토큰은".
var koreanParticles = korean.Particles

// maxTerms caps a query: a pasted stack trace must not become a 500-term query.
const maxTerms = 24

// maxQueryBytes is how much of a prompt is read for terms: the question is
// near the start; a pasted 10 MB log after it must not cost a scan.
const maxQueryBytes = 8 << 10

// Terms extracts the search terms of a prompt: lower-cased words of two or
// more characters in any script; identifiers are split at camelCase,
// snake_case, kebab-case, dots and slashes and also kept whole; Korean words
// are also searched without their trailing particle; stopwords and duplicates
// are dropped; at most maxTerms.
func Terms(prompt string) []string {
	out, _, _, _ := terms(prompt)
	return out
}

// terms is Terms, also telling which terms are identifiers glued from their
// parts ("userid" for userId), with those parts ("user", "id"): the index
// holds the glued form only where the text wrote it that way, and the parts
// as a phrase where it wrote them apart ("user_id", "user.id"). compounds
// gives, for the glued form of a hyphenated compound of plain words
// ("spoolfacing" for "spool-facing"), its parts. partOf gives, for a part
// of an identifier ("outreach" of "OutreachIQ"), the identifier's glued
// form: the index holds "OutreachIQ" as one word, never its parts.
func terms(prompt string) (out []string, glued, compounds map[string][]string, partOf map[string]string) {
	glued, compounds, partOf = map[string][]string{}, map[string][]string{}, map[string]string{}
	// A citation id is no word of the conversation: "[mem:ab12cd]" in a
	// prompt would match every message that cited the same memory.
	// The expression is compiled only for a prompt holding its literal (a
	// hook process compiles each expression it uses, 0.15 ms for this one).
	prompt = head(prompt)
	if strings.Contains(prompt, "mem:") {
		prompt = citationRE.ReplaceAllString(prompt, " ")
	}
	seen := map[string]bool{}
	apart := map[string]bool{} // words the prompt writes as words of their own
	stops := stopsFor(prompt)
	add := func(t string) string {
		t = strings.ToLower(strings.Trim(t, "._-/"))
		if utf8.RuneCountInString(t) < 2 || stops.has(t) || seen[t] || len(out) >= maxTerms {
			return ""
		}
		seen[t] = true
		out = append(out, t)
		return t
	}
	for _, w := range words(prompt) {
		w = strings.Trim(w, "._-/")
		parts := splitIdent(w)
		// A range's or a version's parts ("2-3", "16.0.7") glued make no
		// identifier anyone writes: "23" would match the 23 of a line
		// number. Its parts are searched as any number is. A date's
		// ("2024-01-15") make one, in the names of migrations and backups.
		whole := ""
		if len(parts) > 1 && !gluedNumber(w) {
			// FTS5's tokenizer splits the whole identifier too, so search its
			// parts; keep the joined form for identifiers written without separators.
			whole = strings.ToLower(strings.Map(func(r rune) rune {
				if identSep(r) {
					return -1
				}
				return r
			}, w))
			// Only a camelCase identifier's words are kept: one written
			// with separators is no name the prompt writes whole. Empty,
			// not nil, it is still glued.
			lowered := []string{}
			if !strings.ContainsFunc(w, identSep) {
				lowered = lowerAll(parts)
			}
			if g := add(whole); g != "" {
				glued[g] = lowered
				if plainCompound(w) {
					compounds[g] = strings.Split(strings.ToLower(w), "-")
				}
				// A Korean particle after it ("RedisCache에서") is
				// glued to the whole as to a word: the index holds the
				// identifier without it.
				if stem := add(stripParticle(g)); stem != "" {
					glued[stem] = lowered
				}
			}
		}
		segs := strings.FieldsFunc(w, identSep)
		if len(parts) > 1 {
			// A camelCase segment of a path or a dotted name
			// ("ZorbCli/Quxdoc"): the index holds the segment whole.
			for _, seg := range segs {
				if sp := splitIdent(seg); seg != w && len(sp) > 1 {
					if g := add(seg); g != "" {
						glued[g] = lowerAll(sp)
					}
				}
			}
		} else {
			apart[strings.ToLower(w)] = true
		}
		for _, seg := range segs {
			// A part's glued form: its camelCase segment's, or the whole's.
			sp, of := splitIdent(seg), whole
			if seg != w && len(sp) > 1 {
				of = strings.ToLower(seg)
			}
			for _, p := range sp {
				if t := add(p); t != "" && of != "" {
					partOf[t] = of
				}
				if stem := stripParticle(p); stem != p {
					add(stem)
				}
			}
		}
	}
	for t := range partOf {
		if apart[t] {
			delete(partOf, t) // the prompt writes it as a word of its own too
		}
	}
	return out, glued, compounds, partOf
}

// words splits a prompt into its words and identifiers. Japanese writes no
// space between words, and a name in Latin letters inside it ("ガードAPIの公開
// URL") is a word of its own, as the index holds it in English text: a
// change between kanji or kana and any other letter or digit ends a word.
func words(prompt string) []string {
	var out []string
	start, cjk := -1, false
	for i, r := range prompt {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.' && r != '/' {
			if start >= 0 {
				out = append(out, prompt[start:i])
			}
			start = -1
			continue
		}
		c := isKanjiKana(r)
		if start >= 0 && c != cjk && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			out = append(out, prompt[start:i])
			start = -1
		}
		if start < 0 {
			start, cjk = i, c
		}
	}
	if start >= 0 {
		out = append(out, prompt[start:])
	}
	return out
}

// isKanjiKana reports a rune of Japanese writing: kanji, kana, and the
// marks of the common script Japanese writes within words (the long vowel
// mark of "サーバー", half-width "ｻｰﾊﾞｰ"'s and its voicing marks, the repeat
// mark of "時々").
func isKanjiKana(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー' || r == 'ｰ' || r == 'ﾞ' || r == 'ﾟ' || r == '々'
}

// identSep reports a rune that separates an identifier's parts.
func identSep(r rune) bool { return r == '_' || r == '-' || r == '.' || r == '/' }

// plainCompound reports whether w is a hyphenated compound of plain words
// ("spool-facing", "invoice-side"), not an identifier: only letters
// between the hyphens, none written in camelCase.
func plainCompound(w string) bool {
	segs := strings.Split(w, "-")
	if len(segs) < 2 || len(splitIdent(w)) != len(segs) {
		return false
	}
	for _, seg := range segs {
		if seg == "" || strings.IndexFunc(seg, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			return false
		}
	}
	return true
}

// citationRE matches a memory citation id, an entry's or a message's.
var citationRE = lazyregexp.New(`\bmem:[0-9a-z]{1,64}\b`)

// head is the part of a prompt recall reads: the question is near the start;
// a pasted 10 MB log after it must not cost a scan.
func head(prompt string) string {
	return cutRunes(prompt, maxQueryBytes)
}

// splitIdent splits identifiers and paths into words: snake_case, kebab-case,
// dotted.names, paths/like/this and camelCase.
func splitIdent(w string) []string {
	var parts []string
	for _, seg := range strings.FieldsFunc(w, identSep) {
		rs := []rune(seg)
		start := 0
		for i := 1; i < len(rs); i++ {
			if unicode.IsUpper(rs[i]) && unicode.IsLower(rs[i-1]) {
				parts = append(parts, string(rs[start:i]))
				start = i
			}
		}
		if start < len(rs) {
			parts = append(parts, string(rs[start:]))
		}
	}
	return parts
}

func stripParticle(w string) string {
	r, _ := utf8.DecodeLastRuneInString(w)
	if !unicode.Is(unicode.Hangul, r) {
		return w
	}
	for _, p := range koreanParticles {
		if strings.HasSuffix(w, p) && utf8.RuneCountInString(w) > utf8.RuneCountInString(p)+1 {
			return strings.TrimSuffix(w, p)
		}
	}
	return w
}

// gluedNumber reports a number written in parts that no one writes glued:
// a version (parts after a dot) or a range, four digits or fewer in all,
// also of durations ("2-3s", whose "23s" is no duration).
func gluedNumber(w string) bool {
	if k := strings.LastIndexByte(w, '-'); k > 0 && duration(w[k+1:]) {
		w = strings.TrimRight(w, "abcdefghijklmnopqrstuvwxyz")
	}
	if strings.Trim(w, "0123456789_-./") != "" {
		return false
	}
	return strings.Contains(w, ".") || len(w)-strings.Count(w, "-")-strings.Count(w, "_")-strings.Count(w, "/") <= 4
}

// lowerAll is ws in lower case.
func lowerAll(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = strings.ToLower(w)
	}
	return out
}

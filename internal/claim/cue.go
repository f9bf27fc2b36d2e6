package claim

import (
	"slices"
	"strings"
	"sync"

	"github.com/claude-memory-layer/claude-memory-layer/internal/lazywords"
)

// Change wording, read from a statement's tokens (a regexp over every
// recalled text cost more than the rest of Parse together).
var (
	// cueWords say a change on their own.
	cueWords = lazywords.Lookup(`instead replace replaced replaces replacing deprecate deprecated deprecates deprecating
		drop dropped dropping drops revert reverted reverting reverts anymore actually rename renamed renames renaming
		cancel cancelled canceled ditch ditched retire retired retiring sunset sunsetted abandon abandoned drained draining
		decommission decommissioned decommissioning phased reschedule rescheduled`)
	// cuePairs are two-word change phrases.
	cuePairs = lazywords.Set(`no_longer no_more rather_than scratch_that from_now going_forward turned_out too_slow new_policy
		moved_off in_favor in_favour roll_back rolled_back stop_using stop_pushing stop_running stop_sending
		stop_writing stop_calling stopped_using now_use now_uses now_using any_more phase_out phasing_out wind_down
		no_new`)
	// cuePairFirst holds the first words of cuePairs, so most tokens skip
	// building a pair.
	cuePairFirst = sync.OnceValue(func() *lazywords.Words {
		m := map[string]bool{}
		for p := range cuePairs() {
			f, _, _ := strings.Cut(p, "_")
			m[f] = true
		}
		return lazywords.NewWords(m)
	})
	// cueVerbs say a change when "to", "from", "off" or "away" follows
	// within a few words ("switched the CI to", "bumped go to").
	cueVerbs = []string{"switch", "move", "moving", "migrat", "bump", "upgrad", "downgrad", "rais", "lower", "cut",
		"chang", "reduc", "increas", "shift", "extend", "shorten"}
	// koreanCues are change stems in Korean words.
	koreanCues = []string{"늘렸", "늘리", "줄였", "줄이", "올렸", "내렸", "대신", "더이상", "바꾸", "바꿨", "바꿔", "바꿉", "교체", "전환", "옮기", "옮겼", "옮깁", "이전했",
		"변경", "그만", "폐기", "앞으로", "이제부터", "되돌", "롤백"}
	// updateWords open a statement that replaces what was said before.
	updateWords = lazywords.Lookup(`update updated correction corrected`)
	// notChange come before a "now" that tells the time of a state, not a
	// change: "right now it fails", "for now", "until now", "from now on"
	// (counted as its own cue).
	notChange   = lazywords.Lookup(`right for until till by just from as`)
	exceptWords = lazywords.Lookup(`except exception exceptions unless override overrides overriding overridden`)
)

// changeCue reports whether statement s says it changes something.
func changeCue(text string, toks []token, s statement) bool {
	return cues(text, toks, s, nil, true) != nil
}

// Cues lists the change wording in text, lower-case, each once, in order
// ("instead", "no longer", "대신"): what makes ChangeCue true.
func Cues(text string) []string {
	if len(text) > maxText {
		text = text[:maxText]
	}
	toks, sents := tokenize(text)
	var out []string
	for _, s := range sents {
		out = cues(text, toks, s, out, false)
	}
	return out
}

// cues appends the change wording of statement s to dst; with first it
// stops at the first. A statement with wording returns a non-nil slice.
func cues(text string, toks []token, s statement, dst []string, first bool) []string {
	found := func(c string) bool {
		for _, d := range dst {
			if d == c {
				return first
			}
		}
		dst = append(dst, c)
		return first
	}
	ts := toks[s.first : s.first+s.n]
	if len(ts) > 1 && updateWords().Has(ts[0].s) && found(ts[0].s) {
		return dst // "Update: the API listens on 9443"
	}
	for i, t := range ts {
		w := t.s
		if w == "now" && i > 0 && i+1 < len(ts) && !notChange().Has(ts[i-1].s) && found("now") {
			return dst // "the API now listens on 9443", "the limit is now 20 MB"
		}
		if t.hangul {
			for _, c := range koreanCues {
				if strings.Contains(w, c) && found(c) {
					return dst
				}
			}
			if w == "더" && i+1 < len(ts) && strings.HasPrefix(ts[i+1].s, "이상") && found("더 이상") {
				return dst
			}
			continue
		}
		if cueWords().Has(w) {
			if w == "instead" && exceptAfter(ts, i) {
				continue // "instead of the default" is an exception
			}
			if found(w) {
				return dst
			}
		}
		if cuePairFirst().Has(w) && i+1 < len(ts) && !ts[i+1].hangul && cuePairs()[w+"_"+ts[i+1].s] && found(w+" "+ts[i+1].s) {
			return dst
		}
		if w == "from" && i+2 < len(ts) && (ts[i+1].s == "today" || ts[i+1].s == "this") {
			for k := i + 2; k < len(ts) && k <= i+3; k++ {
				if ts[k].s == "on" && found("from "+ts[i+1].s+" on") {
					return dst
				}
			}
		}
		verb := cueVerb(w)
		// "refactor" alone says no change of one thing for another
		// ("refactored the store to use Redis" is a purpose, not a
		// destination): only with an arrow after it.
		if (verb || strings.HasPrefix(w, "refactor")) && parenArrow(text, ts, i) && found(w+" to") {
			return dst // "Audio refactor (kelbo-av → kelbo-audio)"
		}
		if !verb {
			continue
		}
		for k := i + 1; k < len(ts) && k <= i+8; k++ {
			if ts[k].arrow && (k == i+1 || strings.ContainsAny(text[ts[i].end:ts[k].start], ",()")) {
				// "shows changes → see it live", "changes (e.g. add a
				// button → see it)": an arrow right after the word, or
				// past a comma or a parenthesis after it, is a step,
				// not where a change went ("switched the formatter:
				// black → ruff").
				continue
			}
			switch ts[k].s {
			case "to", "from", "off", "away", "over":
				if found(w + " " + ts[k].s) {
					return dst
				}
			}
		}
	}
	return dst
}

// versionVerb reports a verb that changes the version of what it takes
// ("updated Next.js from …"): a change verb, or "update", which says a
// change of a product's version but not of a statement ("updated the
// README to say …", so it is no cue verb).
func versionVerb(w string) bool { return cueVerb(w) || strings.HasPrefix(w, "updat") }

// exceptAfter reports "instead of the default" at token i.
func exceptAfter(ts []token, i int) bool {
	return i+3 < len(ts) && ts[i+1].s == "of" && ts[i+2].s == "the" && ts[i+3].s == "default"
}

// exceptCue reports whether statement s states an exception to a default.
func exceptCue(toks []token, s statement) bool {
	ts := toks[s.first : s.first+s.n]
	for i, t := range ts {
		w := t.s
		if t.hangul {
			if strings.Contains(w, "예외") || strings.Contains(w, "제외") {
				return true
			}
			continue
		}
		if exceptWords().Has(w) || w == "instead" && exceptAfter(ts, i) {
			return true
		}
		if (w == "than" || w == "over" || w == "from") && i+2 < len(ts) && ts[i+1].s == "the" && ts[i+2].s == "default" {
			return true
		}
		if w == "only" && i+1 < len(ts) && ts[i+1].s == "for" {
			return true
		}
	}
	return false
}

// cueVerb reports a form of one of cueVerbs ("switched", "moving",
// "migrate", "migration"): the stem with an inflection's ending
// (verbEndings), not a word that only opens with it ("changelog",
// "lowercase", "cutoff").
func cueVerb(w string) bool {
	for _, v := range cueVerbs {
		if w[0] == v[0] && strings.HasPrefix(w, v) && slices.Contains(verbEndings, w[len(v):]) {
			return true
		}
	}
	return false
}

// verbEndings are what follows a cue verb's stem in its forms: "switch",
// "switches", "switched", "switching"; "migrate", "migration", "migrations";
// "cutting", "reduction", "reductions"; and the nouns of a change made at
// once: "cutover", "switchover", "changeover".
var verbEndings = []string{"", "e", "s", "es", "d", "ed", "ing", "ting", "ion", "ions", "tion", "tions", "over", "eover"}

// parenArrow reports a parenthesis opening right after token i (a word of
// change) that holds an arrow between two names and nothing more, and
// closes its line: a title naming the change ("### Audio refactor (kelbo-av → kelbo-audio)",
// "Migrated (Postgres → MySQL)."). Not an arrow further on ("Refactored
// the login flow (sign-in → two-factor)": the parenthesis says of what), nor
// one a sentence goes on from ("Moved (step-1 → step-2) when the email is
// prefilled": a step of it), nor a chain (a path), nor words ("(e.g. add a
// button → see it)").
func parenArrow(text string, ts []token, i int) bool {
	if i+3 >= len(ts) || !ts[i+2].arrow || strings.Trim(text[ts[i].end:ts[i+1].start], " `:") != "(" {
		return false
	}
	rest := strings.TrimLeft(text[ts[i+3].end:], "` ")
	if !strings.HasPrefix(rest, ")") {
		return false // more in it: a chain of arrows (a path), or words
	}
	if end := strings.IndexByte(rest, '\n'); end >= 0 {
		rest = rest[:end]
	}
	if strings.Trim(rest[1:], " *_:.") != "" {
		return false
	}
	return named(text, ts[i+1]) && named(text, ts[i+3])
}

// named reports a token written as a name: in a code span, capitalised, or
// with a mark of code inside it (kelbo-av, kelbo_bg, kelbo.io, @kelbo).
func named(text string, t token) bool {
	return t.start > 0 && text[t.start-1] == '`' || upper(text[t.start]) || strings.ContainsAny(t.s, "-._@")
}

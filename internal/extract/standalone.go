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
	case strings.HasSuffix(raw, ":") && (typ != Lesson || endsOnFunctionWord(t)):
		return false // "Here's what you should do:": what it says is in the lines after it
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
	f := strings.Fields(lowerASCII(straightQuotes(t)))
	if len(f) == 0 {
		return false
	}
	w := strings.TrimRight(f[0], ",.;:")
	if in(pronouns, w) {
		return true
	}
	if w == "this" || w == "that" || w == "these" || w == "those" || w == "this's" || w == "that's" {
		return w == "that's" || len(f) > 1 && in(copulas, strings.TrimRight(f[1], ",.;:"))
	}
	return false
}

// endsOnFunctionWord reports "… is caused by:": the clause the colon
// leaves open. A lesson's "Cause: downloads take minutes:" is whole.
func endsOnFunctionWord(t string) bool {
	f := strings.Fields(lowerASCII(strings.TrimSuffix(t, ":")))
	return len(f) < 3 || in([]string{"by", "is", "are", "was", "were", "to", "of", "with", "the", "a", "following", "this", "these", "do", "here", "as", "in", "from", "for", "and", "because"}, f[len(f)-1])
}

// selfNarration reports an assistant's sentence about what it is doing or
// is about to do, a step done or dropped by the session's end ("I need to …", "I'll …", "Let me …", "Now I …").
func selfNarration(t string) bool {
	low := lowerASCII(straightQuotes(leadText(lowerASCII(t))))
	return startsWithPhrase(low, []string{"i need", "i'll", "i will", "i'm going", "i am going", "let me", "now i", "i've", "i have", "i'm", "i am", "next, i", "first, i", "first i"})
}

// fragmentOpener reports text opening with a conjunction or a relative
// word, in lower case: the rest of a sentence that began on another line.
func fragmentOpener(t string) bool {
	w := firstWord(t)
	return w != "" && t[0] >= 'a' && t[0] <= 'z' && in([]string{"and", "or", "but", "which", "whose", "whereas", "so", "then", "because", "is", "are", "was", "were"}, w)
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
	return false
}

// wh reports a sentence opening with a question word followed by a verb
// or a pronoun: a question, with or without its mark.
func wh(t string) bool {
	f := strings.Fields(lowerASCII(straightQuotes(t)))
	if len(f) < 2 || !in([]string{"what", "what's", "how", "why", "where", "which", "who"}, f[0]) {
		return false
	}
	return in(copulas, f[1]) || in([]string{"do", "i", "we", "you", "to", "can", "it", "the", "should", "about", "if"}, f[1])
}

func straightQuotes(s string) string {
	return strings.NewReplacer("\u2018", "'", "\u2019", "'").Replace(s)
}

// reportsTrouble reports what a user said about something going wrong: an
// error message pasted ("Foo.tsx:14 Uncaught TypeError: …"), or a thing that
// does not work ("it still does not show anything"). It is the start of the
// work that follows, not a decision, preference or constraint of theirs. A
// sentence that also directs ("errors must go to Sentry", "so it has to
// move") chooses something and is kept.
func reportsTrouble(body string) bool {
	low := lowerASCII(straightQuotes(body))
	if containsPhrase(low, directives) || startsWithPhrase(leadText(low), []string{"don't", "do not", "never", "always"}) {
		return false
	}
	return pastedError(body) || negatedWorking(low)
}

// pastedError finds the shape of an error message: a CamelCase error or
// exception name ("SyntaxError", "NullPointerException"), or a file and
// line ("index.css:74") with an error word.
func pastedError(t string) bool {
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

package recall

import "github.com/claude-memory-layer/claude-memory-layer/internal/lazyregexp"

// howToRE finds a question about how to do something in general, asked the
// way one asks a search engine or a manual: "how do I …", "what's the
// difference between …", "write a …", "in bash, …". Such a question is
// about the technology, not about the project, unless it says so (we,
// our, this repo: oursRE) or asks about what happened (did, was). A store
// that talks about the same technology matches its words anyway; only a
// strong match says the project's past answers it.
// The forms are those of any how-to question (a manual's index), not of
// one question: fitcheck finds "is the difference" in one prompt because
// that is how such questions are asked.
var howToRE = lazyregexp.New(`(?i)^\s*(?:in [^,?]{1,40}, )?(?:how (?:do|can|would|should|could) (?:i|you|one)\b|how to\b|what(?:'s| is) the (?:difference|(?:\w+ )?way)\b|what(?:'s| is) (?:a|an)\b|what does \S+(?: \S+){0,2} do\b|(?:write|give|show) (?:me )?(?:a|an)\b|explain\b|is there a way\b)`)

// hangulHowToRE finds the same questions asked in Korean, whose form is as
// fixed as English's: "…하는 방법" (the way to …, "how do I …") and "…의
// 차이" (the difference between …). "알려줘" (tell me …) is left out: like
// English "tell me", it asks for the project's own things as often ("배포
// 주소 알려줘", tell me the deploy address).
var hangulHowToRE = lazyregexp.New(`방법|차이`)

// pastRE finds a question about what happened.
var pastRE = lazyregexp.New(`(?i)\b(did|didn't|was|wasn't|were|weren't|had|hadn't)\b`)

// hangulPast reports a Korean past tense ("했었지", "넣었어", "됐나요"): its
// mark is the final consonant ㅆ of the syllable carrying the tense (았, 었,
// 였, 했, 됐…). 있 ("there is", "is -ing") and 겠 (the future) carry the same
// final consonant and no past.
func hangulPast(s string) bool {
	const first, finals, ssangSiot = 0xAC00, 28, 20
	for _, r := range s {
		if r >= first && r <= 0xD7A3 && (r-first)%finals == ssangSiot && r != '있' && r != '겠' {
			return true
		}
	}
	return false
}

// howTo reports a how-to question that asks nothing of what happened; the
// caller has checked that it does not name the project's own ways (oursRE).
// It reads English and Korean forms (hangulHowToRE): other languages'
// question forms would need a table per language, and their function words
// already weigh nothing.
func howTo(prompt string) bool {
	return (howToRE.MatchString(prompt) || hangulHowToRE.MatchString(prompt)) && !past(prompt)
}

// past reports a question about what happened, in English or Korean.
func past(prompt string) bool { return pastRE.MatchString(prompt) || hangulPast(prompt) }

// howToBar multiplies the gate's floor for a how-to question. Chosen on
// fold A of real-sessions-2 (1.3, 1.6, 2.0: unrelated prompts injected 4,
// 2, 1 of 21, follow-ups 29/52 each time) and held on fold B (30/45 and
// 1/19, as before); a bar of 100 gave the same as 2.0, so what clears 2.0
// is a match the question could not have without the project.
const howToBar = 2.0
